// A Metroid PAK through the CLI's archive verbs and convert: listing with names, extracting by
// name, by a named-table name and by id, replacing a member (repacked as it was), copying the
// PAK byte for byte, and converting its members as a folder.
#include <animkit/formats/metroid_pak.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

#include <filesystem>

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::Has;
using metroid_pak::Packing;

Bytes Sample(const std::string& relative) { return ReadFileBytes(test::SourcePath("samples/" + relative)); }

// The project's own CINF and ANIM samples as MP1 (zlib) or MP2 (segments) packs them.
std::vector<metroid_pak::BuildMember> Members(Packing packing) {
  return {{{'C', 'I', 'N', 'F'}, 0x1E5A0C11, Sample("metroid_anim/skeleton.cinf"), packing, {"Run_skeleton"}},
          {{'A', 'N', 'I', 'M'}, 0x2B7F3C40, Sample("metroid_anim/run.anim"), packing, {}}};
}

void Write(const fs::path& path, ByteView bytes) {
  fs::create_directories(path.parent_path());
  WriteFileAtomic(path.string(), bytes);
}

TEST(MetroidPakCli, ListExtractReplaceAndCopy) {
  for (Packing packing : {Packing::Zlib, Packing::Segments}) {
    const fs::path root = test::TempDir(packing == Packing::Zlib ? "metroid-pak-cli-1" : "metroid-pak-cli-2");
    const fs::path pak = root / "Metroid.pak";
    const Bytes bytes = metroid_pak::Build(Members(packing));
    Write(pak, bytes);
    std::string out, err;
    ASSERT_EQ(test::RunCli("archive list " + pak.string() + " --json", &out, &err), 0) << err;
    EXPECT_TRUE(Has(out, "\"name\": \"1E5A0C11.CINF\"")) << out;
    EXPECT_TRUE(Has(out, "\"names\": [")) << out;
    EXPECT_TRUE(Has(out, "\"Run_skeleton\"")) << out;
    EXPECT_EQ(out.find("\"names\""), out.rfind("\"names\""));  // only the named member has the key
    EXPECT_TRUE(Has(out, "\"compressed\": true")) << out;
    EXPECT_TRUE(Has(out, "\"size\": " + std::to_string(Members(packing)[1].bytes.size()))) << out;

    ASSERT_EQ(test::RunCli("archive extract " + pak.string() + " -o " + (root / "x").string(), &out, &err), 0) << err;
    EXPECT_EQ(ReadFileBytes((root / "x/1E5A0C11.CINF").string()), Members(packing)[0].bytes);
    EXPECT_EQ(ReadFileBytes((root / "x/2B7F3C40.ANIM").string()), Members(packing)[1].bytes);
    ASSERT_EQ(test::RunCli("archive extract " + pak.string() + " run_SKELETON 2b7f3c40 -o " + (root / "y").string(), &out, &err), 0)
        << err;
    EXPECT_TRUE(fs::exists(root / "y/1E5A0C11.CINF"));
    EXPECT_TRUE(fs::exists(root / "y/2B7F3C40.ANIM"));

    Write(root / "new.anim", Sample("metroid_anim/hologram_v0.anim"));
    ASSERT_EQ(test::RunCli("archive replace " + pak.string() + " 2B7F3C40.ANIM " + (root / "new.anim").string() + " -o " +
                               (root / "New.pak").string(), &out, &err), 0) << err;
    std::vector<metroid_pak::BuildMember> expected = Members(packing);
    expected[1].bytes = Sample("metroid_anim/hologram_v0.anim");
    EXPECT_EQ(ReadFileBytes((root / "New.pak").string()), metroid_pak::Build(expected));

    ASSERT_EQ(test::RunCli("convert " + pak.string() + " " + (root / "Copy.pak").string(), &out, &err), 0) << err;
    EXPECT_EQ(ReadFileBytes((root / "Copy.pak").string()), bytes);
    ASSERT_EQ(test::RunCli("convert " + pak.string() + " " + (root / "glbs").string() + "/ -q", &out, &err), 0) << err;
    EXPECT_TRUE(fs::exists(root / "glbs/2B7F3C40.glb")) << out << err;
  }
}

TEST(MetroidPakCli, ARawMemberIsReplacedPaddedAndARepeatedIdExtractsInTableOrder) {
  const fs::path root = test::TempDir("metroid-pak-cli-raw");
  const fs::path pak = root / "World.pak";
  const Bytes first(32, 1), second(64, 2);
  Write(pak, metroid_pak::Build({{{'M', 'R', 'E', 'A'}, 7, first}, {{'M', 'R', 'E', 'A'}, 7, second}}));
  std::string out, err;
  // By name the first copy; extracting every member writes the later copy over the earlier one.
  ASSERT_EQ(test::RunCli("archive extract " + pak.string() + " 00000007 -o " + (root / "one").string(), &out, &err), 0) << err;
  EXPECT_EQ(ReadFileBytes((root / "one/00000007.MREA").string()), first);
  ASSERT_EQ(test::RunCli("archive extract " + pak.string() + " -o " + (root / "all").string(), &out, &err), 0) << err;
  EXPECT_EQ(ReadFileBytes((root / "all/00000007.MREA").string()), second);
  // Replaced by 5 bytes, the first copy is 0xFF-padded to 32 and the second keeps its place.
  Write(root / "new.bin", Bytes{'M', 'R', 'E', 'A', '!'});
  ASSERT_EQ(test::RunCli("archive replace " + pak.string() + " 00000007.MREA " + (root / "new.bin").string() + " -o " +
                             (root / "New.pak").string(), &out, &err), 0) << err;
  Bytes padded = {'M', 'R', 'E', 'A', '!'};
  padded.resize(32, 0xFF);
  EXPECT_EQ(ReadFileBytes((root / "New.pak").string()),
            metroid_pak::Build({{{'M', 'R', 'E', 'A'}, 7, padded}, {{'M', 'R', 'E', 'A'}, 7, second}}));
}

TEST(MetroidPakCli, AnUnpackingErrorNamesTheFileTheMemberAndTheOffset) {
  const fs::path root = test::TempDir("metroid-pak-cli-error");
  const fs::path pak = root / "Bad.pak";
  Bytes bytes = metroid_pak::Build(Members(Packing::Zlib));
  const metroid_pak::File f = metroid_pak::Parse(bytes);
  bytes[f.resources[1].offset + 3] ^= 0x01;  // the stated size one off
  Write(pak, bytes);
  std::string out, err;
  EXPECT_NE(test::RunCli("archive extract " + pak.string() + " -o " + (root / "x").string(), &out, &err), 0);
  EXPECT_TRUE(Has(err, "Bad.pak") && Has(err, "2B7F3C40.ANIM") && Has(err, "offset 0x")) << err;
}

}  // namespace
}  // namespace animkit
