// Vib-Ribbon PAK archives: hand-built bytes with expected values from the layout
// (docs/formats/psx_pak.md), the stock builder, member replacement, probing against a
// Metroid PAK, every truncation and corrupted counts, offsets and lengths.
#include <animkit/formats/psx_pak.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

namespace animkit {
namespace {

using test::Has;

struct Builder : test::LittleEndianBuilder {
  void Text(std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }
  void Zeros(size_t n) { b.insert(b.end(), n, 0); }
};

// Two members in an unsorted order, offsets worked out from the layout:
// 0x00 count 2, 0x04 offsets 0x0C and 0x24;
// 0x0C "GAME/B.TMD" + NUL + 1 pad (12 bytes), 0x18 length 5, 0x1C "TMD01" + 3 pad;
// 0x24 "A.ANM" + NUL + 2 pad (8 bytes), 0x2C length 4, 0x30 "ANM1"; 0x34 bytes in all.
Bytes HandBuilt() {
  Builder w;
  for (uint32_t v : {2u, 0x0Cu, 0x24u}) w.U32(v);
  w.Text("GAME/B.TMD");
  w.Zeros(2);
  w.U32(5);
  w.Text("TMD01");
  w.Zeros(3);
  w.Text("A.ANM");
  w.Zeros(3);
  w.U32(4);
  w.Text("ANM1");
  return w.b;
}

std::vector<psx_pak::BuildMember> HandBuiltMembers() {
  return {{"GAME/B.TMD", {'T', 'M', 'D', '0', '1'}}, {"A.ANM", {'A', 'N', 'M', '1'}}};
}

const FormatDescriptor& Pak() { return *FindFormat("psx-pak"); }

std::unique_ptr<Document> Read(ByteView bytes) { return Pak().read(bytes, ReadContext{}); }

uint32_t U32At(const Bytes& b, size_t at) { return le::Load32(b.data() + at); }

TEST(PsxPak, TheBuilderWritesTheStockLayout) {
  const Bytes expected = HandBuilt();
  ASSERT_EQ(expected.size(), 0x34u);
  EXPECT_EQ(psx_pak::Build(HandBuiltMembers()), expected);
}

TEST(PsxPak, ParseReadsEveryFieldAndSerializeGivesTheBytesBack) {
  const Bytes bytes = HandBuilt();
  const psx_pak::File f = psx_pak::Parse(bytes);
  EXPECT_EQ(f.header.count, 2u);
  ASSERT_EQ(f.entries.size(), 2u);
  EXPECT_EQ(f.entries[0].offset, 0x0Cu);
  EXPECT_EQ(f.entries[0].path, "GAME/B.TMD");
  EXPECT_EQ(f.entries[0].length_at, 0x18u);
  EXPECT_EQ(f.entries[0].length, 5u);
  EXPECT_EQ(f.entries[0].data_at, 0x1Cu);
  EXPECT_EQ(f.entries[0].end, 0x24u);
  EXPECT_EQ(f.entries[1].offset, 0x24u);
  EXPECT_EQ(f.entries[1].path, "A.ANM");
  EXPECT_EQ(f.entries[1].length_at, 0x2Cu);
  EXPECT_EQ(f.entries[1].length, 4u);
  EXPECT_EQ(f.entries[1].data_at, 0x30u);
  EXPECT_EQ(f.entries[1].end, 0x34u);
  EXPECT_TRUE(f.warnings.empty()) << f.warnings[0];
  EXPECT_EQ(psx_pak::Serialize(f), bytes);
  psx_pak::File g = f;  // a field changed in the parsed file lands at its place
  g.entries[1].length = 3;
  const Bytes changed = psx_pak::Serialize(g);
  EXPECT_EQ(U32At(changed, 0x2C), 3u);
}

TEST(PsxPak, BytesWithAnOwnerAreViewedAndOthersCopied) {
  const auto shared = std::make_shared<const Bytes>(HandBuilt());
  const psx_pak::File kept = psx_pak::Parse(*shared, shared);
  EXPECT_EQ(kept.image.data(), shared->data());
  EXPECT_EQ(psx_pak::MemberData(kept, 1).data(), shared->data() + 0x30);
  const psx_pak::File copied = psx_pak::Parse(*shared);
  EXPECT_NE(copied.image.data(), shared->data());
  EXPECT_EQ(psx_pak::Serialize(copied), *shared);
  EXPECT_EQ(psx_pak::Serialize(kept), *shared);
}

TEST(PsxPak, MembersKeepTheStoredOrderAndNestedPaths) {
  const Bytes bytes = HandBuilt();
  const auto doc = Read(bytes);
  const std::vector<ArchiveMember> members = doc->Members();
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[0].name, "GAME/B.TMD");
  EXPECT_EQ(members[0].folder, "");
  EXPECT_EQ(members[0].size, 5u);
  EXPECT_EQ(members[0].stored_size, 5u);
  EXPECT_FALSE(members[0].compressed);
  EXPECT_EQ(members[1].name, "A.ANM");
  EXPECT_EQ(doc->MemberBytes(0), (Bytes{'T', 'M', 'D', '0', '1'}));
  EXPECT_EQ(doc->MemberBytes(1), (Bytes{'A', 'N', 'M', '1'}));
  EXPECT_THROW(doc->MemberBytes(2), Error);
  EXPECT_EQ(doc->Write(), bytes);
  EXPECT_EQ(doc->Info()["entries"][1]["data_offset"].get<uint64_t>(), 0x30u);
}

TEST(PsxPak, ReplacingAMemberMovesTheLaterEntriesAndKeepsEveryOtherByte) {
  const Bytes bytes = HandBuilt();
  const auto doc = Read(bytes);
  // Entry 0 grows from 5 (8 padded) to 9 bytes (12 padded): entry 1 moves from 0x24 to 0x28.
  const Bytes grown = doc->WithMember(0, Bytes{'N', 'E', 'W', 'T', 'M', 'D', '0', '0', '1'});
  ASSERT_EQ(grown.size(), 0x38u);
  EXPECT_EQ(U32At(grown, 4), 0x0Cu);
  EXPECT_EQ(U32At(grown, 8), 0x28u);
  EXPECT_EQ(U32At(grown, 0x18), 9u);
  EXPECT_EQ(Bytes(grown.begin() + 0x1C, grown.begin() + 0x28), (Bytes{'N', 'E', 'W', 'T', 'M', 'D', '0', '0', '1', 0, 0, 0}));
  EXPECT_EQ(Bytes(grown.begin() + 0x28, grown.end()), Bytes(bytes.begin() + 0x24, bytes.end()));
  EXPECT_EQ(psx_pak::Build({{"GAME/B.TMD", {'N', 'E', 'W', 'T', 'M', 'D', '0', '0', '1'}}, {"A.ANM", {'A', 'N', 'M', '1'}}}),
            grown);
  // The last member shrinks: nothing moves, its padding follows.
  const Bytes shrunk = doc->WithMember(1, Bytes{'Z'});
  EXPECT_EQ(Bytes(shrunk.begin(), shrunk.begin() + 0x2C), Bytes(bytes.begin(), bytes.begin() + 0x2C));
  EXPECT_EQ(U32At(shrunk, 0x2C), 1u);
  EXPECT_EQ(Bytes(shrunk.begin() + 0x30, shrunk.end()), (Bytes{'Z', 0, 0, 0}));
  // The same bytes give the same file.
  EXPECT_EQ(doc->WithMember(1, Bytes{'A', 'N', 'M', '1'}), bytes);
}

TEST(PsxPak, OffsetsAreHonouredAndGapsAndOverlapsAreKeptWithAWarning) {
  // A 4-byte gap "GAP!" between the table and entry 0 (0x0C..0x10), and "JUNK" between
  // entry 0 (0x10..0x24) and entry 1 (0x28..0x34): offsets 0x10, 0x28.
  Builder w;
  for (uint32_t v : {2u, 0x10u, 0x28u}) w.U32(v);
  w.Text("GAP!");
  w.Text("X.ANC");
  w.Zeros(3);
  w.U32(6);
  w.Text("CAMERA");
  w.Zeros(2);
  w.Text("JUNK");
  w.Text("Y");
  w.Zeros(3);
  w.U32(1);
  w.Text("Q");
  w.Zeros(3);
  const psx_pak::File f = psx_pak::Parse(w.b);
  EXPECT_EQ(f.entries[0].data_at, 0x1Cu);
  EXPECT_EQ(f.entries[1].data_at, 0x30u);
  ASSERT_EQ(f.warnings.size(), 2u);
  EXPECT_TRUE(Has(f.warnings[0], "offset 0x4") && Has(f.warnings[0], "a gap")) << f.warnings[0];
  EXPECT_TRUE(Has(f.warnings[1], "offset 0x8") && Has(f.warnings[1], "4 bytes after 0x24")) << f.warnings[1];
  EXPECT_EQ(psx_pak::Serialize(f), w.b);
  // Replacing entry 0 (8 padded bytes become 4) keeps both gaps' bytes: entry 1 moves to 0x24.
  const Bytes replaced = psx_pak::Replace(f, 0, Bytes{'C'});
  ASSERT_EQ(replaced.size(), 0x30u);
  EXPECT_EQ(U32At(replaced, 8), 0x24u);
  EXPECT_EQ(Bytes(replaced.begin() + 0x0C, replaced.begin() + 0x10), (Bytes{'G', 'A', 'P', '!'}));
  EXPECT_EQ(Bytes(replaced.begin() + 0x1C, replaced.begin() + 0x20), (Bytes{'C', 0, 0, 0}));
  EXPECT_EQ(Bytes(replaced.begin() + 0x20, replaced.begin() + 0x24), (Bytes{'J', 'U', 'N', 'K'}));
  EXPECT_EQ(psx_pak::Parse(replaced).entries[1].path, "Y");

  // Two offsets naming one entry: an overlap, read as stored; the shared entry cannot be replaced.
  Bytes same = HandBuilt();
  le::Store32(same.data() + 8, 0x0C);
  const psx_pak::File g = psx_pak::Parse(same);
  ASSERT_FALSE(g.warnings.empty());
  EXPECT_TRUE(Has(g.warnings[0], "overlap")) << g.warnings[0];
  EXPECT_EQ(g.entries[1].path, "GAME/B.TMD");
  EXPECT_EQ(psx_pak::Serialize(g), same);
  EXPECT_THROW(psx_pak::Replace(g, 0, Bytes{'x'}), Error);
}

TEST(PsxPak, CorruptedCountsOffsetsAndLengthsAreErrorsNamingTheOffset) {
  const Bytes good = HandBuilt();
  auto error_of = [](Bytes b) { return test::ReadError(Pak(), b); };
  Bytes count = good;
  le::Store32(count.data(), 0x10000000);
  EXPECT_TRUE(Has(error_of(count), "offset table")) << error_of(count);
  Bytes past = good;
  le::Store32(past.data() + 8, 0x1000);
  EXPECT_TRUE(Has(error_of(past), "offset 0x8") && Has(error_of(past), "past the end")) << error_of(past);
  Bytes inside = good;
  le::Store32(inside.data() + 4, 4);
  EXPECT_TRUE(Has(error_of(inside), "offset 0x4") && Has(error_of(inside), "inside the offset table")) << error_of(inside);
  Bytes length = good;
  le::Store32(length.data() + 0x2C, 5);
  EXPECT_TRUE(Has(error_of(length), "offset 0x2c") && Has(error_of(length), "runs past the end")) << error_of(length);
  Bytes huge = good;
  le::Store32(huge.data() + 0x18, 0xFFFFFFF0u);
  EXPECT_TRUE(Has(error_of(huge), "offset 0x18")) << error_of(huge);
  Bytes unterminated = good;
  unterminated.resize(0x29);  // entry 1's path "A.AN" with no NUL
  EXPECT_TRUE(Has(error_of(unterminated), "path of entry 1")) << error_of(unterminated);
  test::ExpectEveryByteCorruptionHandled(Pak(), good);
}

TEST(PsxPak, EveryTruncationFails) {
  // 0x00 count, 0x04 two offsets, 0x0C "A/B.ANM" + NUL, 0x14 length 3, 0x18 data + 1 pad,
  // 0x1C "C.TMD" + NUL + 2 pad, 0x24 length 5, 0x28 data (to 0x2D) + 3 pad: 0x30 bytes. Cut
  // inside the last member's padding (from 0x2D) the PAK still reads, with a warning.
  const Bytes odd = psx_pak::Build({{"A/B.ANM", {1, 2, 3}}, {"C.TMD", {4, 5, 6, 7, 8}}});
  ASSERT_EQ(odd.size(), 0x30u);
  test::ExpectEveryTruncationFails(Pak(), odd, [](size_t length) { return length >= 0x2D; });
  const psx_pak::File cut = psx_pak::Parse(ByteView(odd).first(0x2E));
  ASSERT_EQ(cut.warnings.size(), 1u);
  EXPECT_TRUE(Has(cut.warnings[0], "offset 0x2d") && Has(cut.warnings[0], "padding")) << cut.warnings[0];
  EXPECT_EQ(psx_pak::Serialize(cut), Bytes(odd.begin(), odd.begin() + 0x2E));
}

TEST(PsxPak, TheProbeChecksTheStructureAndLeavesMetroidPaksAlone) {
  const Bytes good = HandBuilt();
  EXPECT_EQ(Pak().probe(good, ".pak"), kProbeStructure);
  EXPECT_EQ(Pak().probe(good, ".bin"), kProbeStructure);
  EXPECT_EQ(Detect(good, "FILES.PAK").format, &Pak());
  // Metroid Prime: u32 0x00030005 big-endian, then a named-resource table.
  Builder metroid;
  for (uint8_t v : {0x00, 0x03, 0x00, 0x05, 0, 0, 0, 0, 0, 0, 0, 1}) metroid.b.push_back(v);
  metroid.Text("ANIM");
  metroid.Zeros(64);
  EXPECT_EQ(Pak().probe(metroid.b, ".pak"), kProbeExtension);
  EXPECT_EQ(Pak().probe(metroid.b, ".dat"), kProbeNone);
  Bytes first = good;  // the first offset not right after the table
  le::Store32(first.data() + 4, 0x10);
  EXPECT_EQ(Pak().probe(first, ".dat"), kProbeNone);
  Bytes descending = good;
  le::Store32(descending.data() + 8, 0x0B);
  EXPECT_EQ(Pak().probe(descending, ".dat"), kProbeNone);
  Bytes unprintable = good;
  unprintable[0x0E] = 0x01;
  EXPECT_EQ(Pak().probe(unprintable, ".dat"), kProbeNone);
  const Bytes empty_count(16, 0);
  EXPECT_EQ(Pak().probe(empty_count, ".dat"), kProbeNone);
}

// Its content is its members: the scene is empty, and the verbs that need one scene refuse
// it (RequireOneScene, tests/pipeline), so a clean PAK carries no warning.
TEST(PsxPak, APakDecodesToAnEmptySceneOfItsMembers) {
  const auto doc = Read(HandBuilt());
  const Scene scene = doc->Decode(DecodeContext{});
  EXPECT_TRUE(scene.clips.empty());
  EXPECT_EQ(scene.metadata[psx_pak::metadata_keys::kMemberCount].get<uint64_t>(), 2u);
  EXPECT_TRUE(doc->Warnings().empty());
  EXPECT_TRUE(Pak().archive_of_files);
}

}  // namespace
}  // namespace animkit
