// EDF RAB / MRAB archives: hand-built bytes with expected values from the layout
// (docs/formats/edf_rab.md), the stock builder, member replacement, and the model read from
// the archive with its textures.
#include <animkit/formats/edf_rab.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

namespace animkit {
namespace {

using test::Has;

struct Builder : test::LittleEndianBuilder {
  void Patch(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
  }
};

// Two raw members, TEXTURE/b.dds ("DDS") and MODEL/a.mdb ("MD"), laid out as the stock
// writer does, offsets worked out from the layout:
// 0x00 header, 0x28 members (2 x 0x20), 0x68 sorted index (2 x 8), 0x78 folders (2 x 4),
// 0x80 pool "MODEL" (12 bytes) 0x8C "TEXTURE" (16) 0x9C "a.mdb" (12) 0xA8 "b.dds" (12),
// 0xB4 data: "DDS" then "MD" at 0xB7; 0xB9 bytes in all.
Bytes HandBuilt() {
  Builder w;
  for (char c : {'S', 'S', 'A', '\0'}) w.b.push_back(uint8_t(c));
  for (uint32_t v : {0x110u, 0xB4u, 3u, 3u, 2u, 0x28u, 0x68u, 2u, 0x78u}) w.U32(v);
  // Member 0 at 0x28: name "b.dds" at 0xA8 (0x80 from the record), 3 bytes, folder 0.
  for (uint32_t v : {0x80u, 3u, 0u, 0u, 0u, 0u, 0xB4u, 0u}) w.U32(v);
  // Member 1 at 0x48: name "a.mdb" at 0x9C (0x54 from the record), 2 bytes, folder 1.
  for (uint32_t v : {0x54u, 2u, 1u, 0u, 0u, 0u, 0xB7u, 0u}) w.U32(v);
  // Sorted index: "a.mdb" (member 1) at 0x68 -> +0x34, "b.dds" (member 0) at 0x70 -> +0x38.
  for (uint32_t v : {0x34u, 1u, 0x38u, 0u}) w.U32(v);
  // Folders: TEXTURE (0x8C from 0x78), MODEL (0x80 from 0x7C).
  for (uint32_t v : {0x14u, 0x4u}) w.U32(v);
  for (const char* s : {"MODEL", "TEXTURE", "a.mdb", "b.dds"}) w.Str(s);
  for (char c : {'D', 'D', 'S', 'M', 'D'}) w.b.push_back(uint8_t(c));
  return w.b;
}

std::vector<edf_rab::BuildMember> HandBuiltMembers() {
  return {{"TEXTURE", "b.dds", {'D', 'D', 'S'}, false}, {"MODEL", "a.mdb", {'M', 'D'}, false}};
}

std::unique_ptr<Document> Read(ByteView bytes) {
  const FormatDescriptor* f = FindFormat("edf-rab");
  return f->read(bytes, ReadContext{});
}

TEST(EdfRab, TheBuilderWritesTheStockLayout) {
  const Bytes expected = HandBuilt();
  ASSERT_EQ(expected.size(), 0xB9u);
  EXPECT_EQ(edf_rab::Build(HandBuiltMembers()), expected);
}

TEST(EdfRab, ParseReadsEveryFieldAndSerializeGivesTheBytesBack) {
  const Bytes bytes = HandBuilt();
  const edf_rab::File f = edf_rab::Parse(bytes);
  EXPECT_EQ(f.header.version, 0x110u);
  EXPECT_EQ(f.header.data_start, 0xB4u);
  EXPECT_EQ(f.header.member_count, 2u);
  EXPECT_EQ(f.header.index_offset, 0x68u);
  EXPECT_EQ(f.header.folder_offset, 0x78u);
  ASSERT_EQ(f.members.size(), 2u);
  EXPECT_EQ(f.members[0].name, "b.dds");
  EXPECT_EQ(f.members[0].folder_name, "TEXTURE");
  EXPECT_EQ(f.members[1].name, "a.mdb");
  EXPECT_EQ(f.members[1].folder_name, "MODEL");
  EXPECT_EQ(f.members[1].data_offset, 0xB7u);
  EXPECT_EQ(f.index[0].member, 1u);
  EXPECT_EQ(f.index[0].name, "a.mdb");
  EXPECT_EQ(f.folders[1].name, "MODEL");
  EXPECT_EQ(f.pool_end, 0xB4u);
  EXPECT_TRUE(f.warnings.empty()) << f.warnings[0];
  EXPECT_TRUE(f.damaged.empty());
  EXPECT_EQ(edf_rab::Serialize(f), bytes);
  // A field changed in the parsed file lands at its place.
  edf_rab::File g = f;
  g.members[0].time = {0x11223344, 0x55667788};
  const Bytes out = edf_rab::Serialize(g);
  EXPECT_EQ(out[0x28 + 0x10], 0x44);
  EXPECT_EQ(out[0x28 + 0x17], 0x55);
}

TEST(EdfRab, TheDocumentListsAndUnpacksMembers) {
  auto doc = Read(HandBuilt());
  EXPECT_EQ(doc->Write(), HandBuilt());
  const std::vector<ArchiveMember> m = doc->Members();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "b.dds");
  EXPECT_EQ(m[0].folder, "TEXTURE");
  EXPECT_EQ(m[0].stored_size, 3u);
  EXPECT_FALSE(m[0].compressed);
  EXPECT_EQ(doc->MemberBytes(1), (Bytes{'M', 'D'}));
  EXPECT_FALSE(test::ErrorOf([&] { doc->MemberBytes(2); }).empty());
  // The model member is not a model: damaged, named, the archive still lists.
  ASSERT_FALSE(doc->Damaged().empty());
  EXPECT_TRUE(Has(doc->Damaged()[0], "member 1 'a.mdb'"));
  const Value info = doc->InfoSummary();
  EXPECT_EQ(info["member_count"], 2);
  EXPECT_EQ(info["members"]["offset"], 0x28);
  EXPECT_EQ(info["member_list"][1]["name"], "a.mdb");
  EXPECT_EQ(info["member_list"][1]["folder"], "MODEL");
  EXPECT_EQ(info["member_list"][0]["stored_size"], 3);
  EXPECT_EQ(doc->Info()["members"][1]["data_offset"], 0xB7);
}

TEST(EdfRab, WithMemberMovesLaterDataAndKeepsEverythingElse) {
  auto doc = Read(HandBuilt());
  const Bytes out = doc->WithMember(0, Bytes{'N', 'E', 'W', 'E', 'R'});
  // As the builder would make it with the new bytes: the stock layout is kept.
  std::vector<edf_rab::BuildMember> members = HandBuiltMembers();
  members[0].bytes = {'N', 'E', 'W', 'E', 'R'};
  EXPECT_EQ(out, edf_rab::Build(members));
  const edf_rab::File f = edf_rab::Parse(out);
  EXPECT_EQ(f.members[1].data_offset, 0xB9u);
  EXPECT_EQ(f.header.max_stored, 5u);
  EXPECT_EQ(f.header.max_raw, 5u);
  EXPECT_TRUE(f.warnings.empty());
}

TEST(EdfRab, WithMemberRecompressesACmplMember) {
  const Bytes mdb(300, 7);
  const Bytes archive = edf_rab::Build({{"TEXTURE", "b.dds", Bytes(100, 1), true}, {"MODEL", "a.mdb", mdb, true}});
  auto doc = Read(archive);
  EXPECT_TRUE(doc->Members()[0].compressed);
  EXPECT_EQ(doc->Members()[0].size, 100u);
  EXPECT_EQ(doc->MemberBytes(0), Bytes(100, 1));
  Bytes texture(5000);
  for (size_t i = 0; i < texture.size(); ++i) texture[i] = uint8_t(i * 7 / 3);
  const Bytes out = doc->WithMember(0, texture);
  EXPECT_EQ(out, edf_rab::Build({{"TEXTURE", "b.dds", texture, true}, {"MODEL", "a.mdb", mdb, true}}));
  auto again = Read(out);
  EXPECT_EQ(again->MemberBytes(0), texture);
  EXPECT_EQ(again->MemberBytes(1), mdb);
  EXPECT_EQ(edf_rab::Parse(out).header.max_raw, 5000u);
}

TEST(EdfRab, AStockArchiveComesBackFromTheBuilder) {
  const Bytes archive = edf_rab::Build({{"TEXTURE", "x.lod.dds", Bytes(64, 3), true},
                                        {"MODEL", "x.mdb", Bytes(90, 9), true},
                                        {"HD-TEXTURE", "x.dds", Bytes(40, 5), false},
                                        {"HD-TEXTURE", "Zeta.dds", Bytes(10, 6), false}});
  const edf_rab::File f = edf_rab::Parse(archive);
  EXPECT_TRUE(f.warnings.empty()) << f.warnings[0];
  EXPECT_EQ(f.members[2].flag, 1u);
  EXPECT_EQ(f.members[0].flag, 0u);
  // Case-sensitive by code point: "Zeta.dds" before "x.dds".
  EXPECT_EQ(f.index[0].name, "Zeta.dds");
  auto doc = Read(archive);
  std::vector<edf_rab::BuildMember> members;
  for (size_t i = 0; i < doc->Members().size(); ++i) {
    const ArchiveMember m = doc->Members()[i];
    members.push_back({m.folder, m.name, doc->MemberBytes(i), m.compressed});
  }
  EXPECT_EQ(edf_rab::Build(members), archive);
}

TEST(EdfRab, EveryTruncationIsAnErrorOrDamageWithItsOffset) {
  const Bytes bytes = HandBuilt();
  for (size_t n = 0; n < bytes.size(); ++n) {
    const Bytes cut(bytes.begin(), bytes.begin() + std::ptrdiff_t(n));
    std::unique_ptr<Document> doc;
    const std::string e = test::ErrorOf([&] { doc = Read(cut); });
    if (!doc) {
      EXPECT_TRUE(Has(e, "0x")) << n << ": " << e;
      continue;
    }
    // Only the data can be cut without losing a table: the member it held is damaged.
    ASSERT_FALSE(doc->Damaged().empty()) << n;
    EXPECT_TRUE(Has(doc->Damaged()[0], "0x")) << doc->Damaged()[0];
  }
}

TEST(EdfRab, CorruptedCountsAndOffsetsAreErrorsWithTheirOffset) {
  struct Case {
    size_t at;
    uint32_t value;
    const char* offset;
  };
  for (const Case& c : std::vector<Case>{{0x14, 0x10000000, "offset 0x28"},  // member count: the table does not fit
                                          {0x18, 0xF0, "0x18"},        // member table offset
                                          {0x1C, 0x1000, "0x1c"},      // sorted index offset
                                          {0x20, 0x40000000, "offset 0x78"},  // folder count
                                          {0x24, 0xFFFFFFF0, "0x24"},  // folder table offset
                                          {0x78, 0x1000, "0x78"}}) {   // a folder's name
    Builder w;
    w.b = HandBuilt();
    w.Patch(c.at, c.value);
    const std::string e = test::ErrorOf([&] { Read(w.b); });
    EXPECT_TRUE(Has(e, c.offset)) << Hex(c.at) << ": " << e;
  }
  // A member's name or data outside the file: that member is damaged, the other reads.
  for (size_t at : {size_t(0x28), size_t(0x28 + 0x18), size_t(0x28 + 0x4)}) {
    Builder w;
    w.b = HandBuilt();
    w.Patch(at, 0x10000);
    auto doc = Read(w.b);
    ASSERT_FALSE(doc->Damaged().empty());
    EXPECT_TRUE(Has(doc->Damaged()[0], "member 0")) << doc->Damaged()[0];
    EXPECT_TRUE(Has(doc->Damaged()[0], "0x")) << doc->Damaged()[0];
    EXPECT_EQ(doc->MemberBytes(1), (Bytes{'M', 'D'}));
    EXPECT_EQ(doc->Write(), w.b);
  }
  EXPECT_TRUE(Has(test::ErrorOf([] { Read(Bytes{'S', 'S', 'B', 0}); }), "SSA"));
}

TEST(EdfRab, RulesTheGameNeverChecksAreWarningsWithTheirOffset) {
  struct Case {
    size_t at;
    uint32_t value;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{{0x04, 0x100, "offset 0x4"},
                                          {0x08, 0xB0, "offset 0x8"},
                                          {0x0C, 9, "offset 0xc"},
                                          {0x10, 9, "offset 0x10"},
                                          {0x28 + 0x0C, 1, "offset 0x34"},    // flag outside HD-TEXTURE
                                          {0x28 + 0x08, 7, "offset 0x30"},    // folder index
                                          {0x68 + 4, 5, "offset 0x6c"},       // index names no member
                                          {0x68 + 4, 0, "offset 0x74"}}) {    // a member indexed twice
    Builder w;
    w.b = HandBuilt();
    w.Patch(c.at, c.value);
    auto doc = Read(w.b);
    std::string all;
    for (const std::string& s : doc->Warnings()) all += s + "\n";
    EXPECT_TRUE(Has(all, c.says)) << Hex(c.at) << ": " << all;
    EXPECT_EQ(doc->Write(), w.b);
  }
}

TEST(EdfRab, EveryByteChangedReadsOrFailsWithAnError) {
  // Each byte of the hand-built archive set to every value: the archive reads (and writes
  // its bytes back, lists, unpacks and replaces what it can) or throws animkit::Error.
  const Bytes bytes = HandBuilt();
  size_t read = 0;
  for (size_t at = 0; at < bytes.size(); ++at)
    for (int value = 0; value < 256; value += 3) {
      Bytes changed = bytes;
      changed[at] = uint8_t(value);
      std::unique_ptr<Document> doc;
      try {
        doc = Read(changed);
      } catch (const Error&) {
        continue;
      }
      ++read;
      ASSERT_EQ(doc->Write(), changed) << Hex(at);
      for (size_t i = 0; i < doc->Members().size(); ++i) {
        try {
          const Bytes member = doc->MemberBytes(i);
          EXPECT_EQ(Read(doc->WithMember(i, member))->MemberBytes(i), member);
        } catch (const Error&) {
        }
      }
    }
  EXPECT_GT(read, 0u);
}

// ---- The model and its textures ----------------------------------------------------------

Bytes Sample(const std::string& name) { return ReadFileBytes(test::SourcePath("samples/edf_canm/" + name)); }

std::string Joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& s : lines) all += s + "\n";
  return all;
}

TEST(EdfRab, DecodesTheModelWithItsTexturesFromTheArchive) {
  const Bytes archive = edf_rab::Build(
      {{"TEXTURE", "soldier.dds", Sample("soldier.dds"), true}, {"MODEL", "soldier.mdb", Sample("soldier.mdb"), true}});
  auto doc = Read(archive);
  EXPECT_TRUE(doc->Damaged().empty()) << Joined(doc->Damaged());
  EXPECT_TRUE(doc->Warnings().empty()) << Joined(doc->Warnings());
  const Scene scene = doc->Decode(DecodeContext{});
  const Scene direct = FindFormat("edf-mdb")->read(Sample("soldier.mdb"), ReadContext{})->Decode(DecodeContext{});
  EXPECT_EQ(scene.skeleton.joints.size(), direct.skeleton.joints.size());
  EXPECT_EQ(scene.meshes.size(), direct.meshes.size());
  ASSERT_EQ(scene.textures.size(), 1u);
  EXPECT_FALSE(scene.textures[0].Missing()) << scene.textures[0].missing;
  EXPECT_EQ(scene.textures[0].width, 8);
}

TEST(EdfRab, TheLodMemberAndAnyCaseServeTheModel) {
  for (const char* name : {"soldier.lod.dds", "SOLDIER.DDS"}) {
    const Bytes archive = edf_rab::Build(
        {{"TEXTURE", name, Sample("soldier.dds"), true}, {"MODEL", "soldier.mdb", Sample("soldier.mdb"), true}});
    const Scene scene = Read(archive)->Decode(DecodeContext{});
    ASSERT_EQ(scene.textures.size(), 1u);
    EXPECT_FALSE(scene.textures[0].Missing()) << name << ": " << scene.textures[0].missing;
  }
}

TEST(EdfRab, ATextureAfterItsModelIsNeverBound) {
  const Bytes archive = edf_rab::Build(
      {{"MODEL", "soldier.mdb", Sample("soldier.mdb"), true}, {"TEXTURE", "soldier.lod.dds", Sample("soldier.dds"), true}});
  auto doc = Read(archive);
  const std::string all = Joined(doc->Warnings());
  EXPECT_TRUE(Has(all, "renders black")) << all;
  EXPECT_TRUE(Has(all, "offset 0x48")) << all;  // member 1's record
  // HD-TEXTURE members come after the model in stock archives: no warning.
  const Bytes stock = edf_rab::Build(
      {{"MODEL", "soldier.mdb", Sample("soldier.mdb"), true}, {"HD-TEXTURE", "soldier.dds", Sample("soldier.dds"), false}});
  EXPECT_EQ(Joined(Read(stock)->Warnings()).find("black"), std::string::npos);
}

TEST(EdfRab, NoModelDecodesToAnEmptySceneWithANote) {
  auto doc = Read(edf_rab::Build({{"TEXTURE", "a.dds", Bytes(8, 1), true}}));
  EXPECT_TRUE(Has(Joined(doc->Warnings()), "no .mdb member"));
  const Scene scene = doc->Decode(DecodeContext{});
  EXPECT_TRUE(scene.skeleton.empty());
  EXPECT_TRUE(scene.meshes.empty());
  EXPECT_EQ(doc->Members().size(), 1u);
}

TEST(EdfRab, ADamagedTextureHidesNeitherTheModelNorTheOtherMembers) {
  Bytes archive = edf_rab::Build(
      {{"TEXTURE", "soldier.dds", Sample("soldier.dds"), true}, {"MODEL", "soldier.mdb", Sample("soldier.mdb"), true},
       {"MODEL", "second.mdb", Sample("soldier.mdb"), true}});
  // Cut the texture's stream short: its raw size claims more than it holds.
  const edf_rab::File f = edf_rab::Parse(archive);
  const size_t at = f.members[0].data_offset;
  archive[at + 4] = 0, archive[at + 5] = 0, archive[at + 6] = 0x01, archive[at + 7] = 0x00;
  auto doc = Read(archive);
  const std::string damaged = Joined(doc->Damaged());
  EXPECT_TRUE(Has(damaged, "member 0 'soldier.dds'")) << damaged;
  EXPECT_TRUE(Has(Joined(doc->Warnings()), "'second.mdb'"));
  const Scene scene = doc->Decode(DecodeContext{});
  EXPECT_FALSE(scene.skeleton.empty());
  EXPECT_EQ(doc->MemberBytes(2), Sample("soldier.mdb"));
}

TEST(EdfRab, TheRealModelInAnArchive) {
  const std::string path = test::FixturePath("edf/airtortoise_missile.mdb");
  if (path.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  const Bytes mdb = ReadFileBytes(path);
  const Bytes archive = edf_rab::Build({{"MODEL", "airtortoise_missile.mdb", mdb, true}});
  auto doc = Read(archive);
  EXPECT_LT(doc->Members()[0].stored_size, mdb.size());
  EXPECT_EQ(doc->MemberBytes(0), mdb);
  const Scene scene = doc->Decode(DecodeContext{});
  const Scene direct = FindFormat("edf-mdb")->read(mdb, ReadContext{})->Decode(DecodeContext{});
  EXPECT_EQ(scene.skeleton.joints.size(), direct.skeleton.joints.size());
  EXPECT_EQ(scene.meshes.size(), direct.meshes.size());
  EXPECT_FALSE(scene.skeleton.empty());
  // Replaced by itself: the same bytes.
  EXPECT_EQ(doc->WithMember(0, mdb), archive);
}

}  // namespace
}  // namespace animkit
