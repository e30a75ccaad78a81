// The archive jobs every front end shares (pipeline/archive.hpp), over a stand-in archive
// document: picking a member, the extraction path rule, replacing and extracting.
#include <animkit/pipeline/archive.hpp>

#include "support/test_support.hpp"

#include <gtest/gtest.h>

namespace animkit {
namespace {

// Three members; replacing member i appends "|i" to the archive's bytes so the test sees
// which one the job picked and what it passed.
class StandInArchive final : public Document {
 public:
  explicit StandInArchive(std::vector<ArchiveMember> members) : members_(std::move(members)) {}
  const FormatDescriptor& format() const override { return Descriptor(); }
  Bytes Write() const override { return {'A'}; }
  Value Info() const override { return Value::object(); }
  Scene Decode(const DecodeContext&) const override { return {}; }
  std::vector<ArchiveMember> Members() const override { return members_; }
  Bytes MemberBytes(size_t index) const override {
    const std::string& n = members_.at(index).name;
    return Bytes(n.begin(), n.end());
  }
  Bytes WithMember(size_t index, ByteView bytes) const override {
    Bytes out = Write();
    out.push_back('|');
    out.push_back(static_cast<uint8_t>('0' + index));
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
  }
  static const FormatDescriptor& Descriptor() {
    static const FormatDescriptor d{.id = "stand-in", .description = "an archive for tests", .extensions = {},
                                    .companions = {}, .options = {}};
    return d;
  }

 private:
  std::vector<ArchiveMember> members_;
};

LoadedFile Loaded(std::vector<ArchiveMember> members) {
  LoadedFile f;
  f.path = "set.rab";
  f.format = &StandInArchive::Descriptor();
  f.document = std::make_unique<StandInArchive>(std::move(members));
  return f;
}

std::vector<ArchiveMember> ThreeMembers() {
  return {{"a.lod.dds", "TEXTURE", 10, 20, true, {}}, {"a.mdb", "MODEL", 30, 40, true, {}}, {"a.dds", "HD-TEXTURE", 5, 5, false, {}}};
}

TEST(ArchiveJobs, FindsAMemberByNameOrFolderAndName) {
  const LoadedFile f = Loaded(ThreeMembers());
  EXPECT_EQ(FindMember(f, "a.mdb"), 1u);
  EXPECT_EQ(FindMember(f, "HD-TEXTURE/a.dds"), 2u);
  try {
    FindMember(f, "b.mdb");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("set.rab"), std::string::npos) << what;
    EXPECT_NE(what.find("no member named 'b.mdb'"), std::string::npos) << what;
    EXPECT_NE(what.find("a.lod.dds, a.mdb, a.dds"), std::string::npos) << what;
  }
}

TEST(ArchiveJobs, AFileThatIsNoArchiveHasNoMembers) {
  const LoadedFile f = Loaded({});
  EXPECT_TRUE(MembersValue(f).empty());
  EXPECT_THROW(FindMember(f, "a.mdb"), Error);
  EXPECT_THROW(ExtractMembers(f, {}, test::TempDir("archive-none").string()), Error);
}

TEST(ArchiveJobs, ListsEveryFieldInStoredOrder) {
  const Value v = MembersValue(Loaded(ThreeMembers()));
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1]["name"].get<std::string>(), "a.mdb");
  EXPECT_EQ(v[1]["folder"].get<std::string>(), "MODEL");
  EXPECT_EQ(v[1]["size"].get<uint64_t>(), 40u);
  EXPECT_EQ(v[1]["stored_size"].get<uint64_t>(), 30u);
  EXPECT_TRUE(v[1]["compressed"].get<bool>());
  EXPECT_FALSE(v[2]["compressed"].get<bool>());
}

TEST(ArchiveJobs, ExtractionNeverLeavesItsFolder) {
  for (const ArchiveMember& bad : std::vector<ArchiveMember>{{"../x.mdb", "MODEL", 0, 0, false, {}},
                                                             {"x.mdb", "..", 0, 0, false, {}},
                                                             {"C:x.mdb", "", 0, 0, false, {}},
                                                             {"a/../../x", "MODEL", 0, 0, false, {}},
                                                             {"", "MODEL", 0, 0, false, {}},
                                                             {"..\\x.mdb", "", 0, 0, false, {}}}) {
    EXPECT_THROW(MemberPath("/tmp/out", bad), Error) << bad.folder << "/" << bad.name;
  }
  EXPECT_EQ(MemberPath("/tmp/out", {"a.mdb", "MODEL", 0, 0, false, {}}), "/tmp/out/MODEL/a.mdb");
  EXPECT_EQ(MemberPath("/tmp/out", {"a.mdb", "", 0, 0, false, {}}), "/tmp/out/a.mdb");
  EXPECT_EQ(MemberPath("/tmp/out", {"sub\\a.mdb", "MODEL", 0, 0, false, {}}), "/tmp/out/MODEL/sub/a.mdb");
}

TEST(ArchiveJobs, ExtractsUnpackedMembersUnderTheirFolders) {
  const std::filesystem::path dir = test::TempDir("archive-extract");
  const std::vector<std::string> written = ExtractMembers(Loaded(ThreeMembers()), {"a.mdb"}, dir.string());
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0], (dir / "MODEL" / "a.mdb").string());
  EXPECT_EQ(ReadFileBytes(written[0]), (Bytes{'a', '.', 'm', 'd', 'b'}));
  EXPECT_EQ(ExtractMembers(Loaded(ThreeMembers()), {}, dir.string()).size(), 3u);
}

TEST(ArchiveJobs, ReplacesTheMemberTheNamePicks) {
  const Bytes out = ReplaceMember(Loaded(ThreeMembers()), "MODEL/a.mdb", Bytes{'z'});
  EXPECT_EQ(out, (Bytes{'A', '|', '1', 'z'}));
}

}  // namespace
}  // namespace animkit
