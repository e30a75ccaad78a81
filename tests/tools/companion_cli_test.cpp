// The companion rule is every verb's default (docs/cli.md, "The companion skeleton"):
// info, sample, validate, convert (a file and a folder), preview (a file and a folder)
// and import-data pair an animation with the skeleton beside it unless --skeleton none,
// and each says which skeleton it used. A companion that does not fit is not used.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace animkit {
namespace {

using test::RunCli;
using test::SourcePath;
namespace fs = std::filesystem;

std::string Q(const fs::path& p) { return "'" + p.string() + "'"; }

// A folder holding soldier5.canm and its companion soldier.mdb (copies of the samples).
fs::path PairFolder(const std::string& name) {
  const fs::path dir = test::TempDir(name);
  fs::create_directories(dir / "in");
  fs::copy_file(SourcePath("samples/edf_canm/soldier5.canm"), dir / "in" / "soldier5.canm");
  fs::copy_file(SourcePath("samples/edf_canm/soldier.mdb"), dir / "in" / "soldier.mdb");
  return dir;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The JSON header of an import-data file: "AKIMPORT", u32 version, u32 length, the JSON.
nlohmann::json ImportHeader(const fs::path& path) {
  const std::string bytes = Slurp(path);
  uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  return nlohmann::json::parse(bytes.substr(16, length));
}

TEST(CompanionCli, InfoSampleAndValidatePairByDefaultAndSaySo) {
  const fs::path dir = PairFolder("companion-verbs");
  const fs::path canm = dir / "in" / "soldier5.canm";
  std::string out, err;
  ASSERT_EQ(RunCli("info " + Q(canm), &out, &err), 0) << err;
  EXPECT_NE(out.find("skeleton file: soldier.mdb (companion)"), std::string::npos) << out;
  ASSERT_EQ(RunCli("info --json " + Q(canm), &out, &err), 0) << err;
  nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["skeleton_use"], "companion");
  EXPECT_EQ(j["skeleton_file"], (dir / "in" / "soldier.mdb").string());
  EXPECT_EQ(j["joints"].size(), 11u);  // the MDB's skeleton
  ASSERT_EQ(RunCli("info --json --skeleton none " + Q(canm), &out, &err), 0) << err;
  j = nlohmann::json::parse(out);
  EXPECT_EQ(j["skeleton_use"], "none");
  EXPECT_TRUE(j["skeleton_file"].is_null());
  EXPECT_EQ(j["joints"].size(), 0u);

  ASSERT_EQ(RunCli("sample " + Q(canm), &out, &err), 0) << err;
  j = nlohmann::json::parse(out);
  EXPECT_EQ(j["skeleton"], "soldier.mdb (companion)");
  EXPECT_NE(err.find("skeleton file: soldier.mdb"), std::string::npos) << err;
  ASSERT_EQ(RunCli("sample --skeleton none " + Q(canm), &out, &err), 0) << err;
  EXPECT_EQ(nlohmann::json::parse(out)["skeleton"], "none");

  ASSERT_EQ(RunCli("validate " + Q(canm), &out, &err), 0) << err;
  EXPECT_EQ(out, canm.string() + ": OK (skeleton: soldier.mdb (companion))\n");
  ASSERT_EQ(RunCli("validate --skeleton none " + Q(canm), &out, &err), 0) << err;
  EXPECT_EQ(out, canm.string() + ": OK (skeleton: none)\n");
  ASSERT_EQ(RunCli("validate --skeleton " + Q(dir / "in" / "soldier.mdb") + " " + Q(canm), &out, &err), 0) << err;
  EXPECT_EQ(out, canm.string() + ": OK (skeleton: given: soldier.mdb)\n");
}

TEST(CompanionCli, ConvertAndImportDataPairByDefaultAndSaySo) {
  const fs::path dir = PairFolder("companion-convert");
  const fs::path canm = dir / "in" / "soldier5.canm";
  std::string out, err;
  ASSERT_EQ(RunCli("convert -v " + Q(canm) + " " + Q(dir / "walk.gltf"), &out, &err), 0) << err;
  const nlohmann::json report = nlohmann::json::parse(err.substr(err.find('{')));
  EXPECT_EQ(report["skeleton_use"], "companion");
  EXPECT_EQ(report["skeleton"], (dir / "in" / "soldier.mdb").string());
  // The glTF says it in its asset extras (the file's name only).
  const nlohmann::json gltf = nlohmann::json::parse(Slurp(dir / "walk.gltf"));
  EXPECT_EQ(gltf["asset"]["extras"]["animkit"]["skeleton_use"], "companion");
  EXPECT_EQ(gltf["asset"]["extras"]["animkit"]["skeleton_file"], "soldier.mdb");
  ASSERT_EQ(RunCli("convert --skeleton none " + Q(canm) + " " + Q(dir / "alone.gltf"), &out, &err), 0) << err;
  const nlohmann::json alone = nlohmann::json::parse(Slurp(dir / "alone.gltf"));
  EXPECT_EQ(alone["asset"]["extras"]["animkit"]["skeleton_use"], "none");
  EXPECT_FALSE(alone["asset"]["extras"]["animkit"].contains("skeleton_file"));

  ASSERT_EQ(RunCli("import-data " + Q(canm) + " -o " + Q(dir / "walk.akimport"), &out, &err), 0) << err;
  nlohmann::json header = ImportHeader(dir / "walk.akimport");
  EXPECT_EQ(header["skeleton_use"], "companion");
  EXPECT_EQ(header["skeleton_file"], (dir / "in" / "soldier.mdb").string());
  ASSERT_EQ(RunCli("import-data --skeleton none " + Q(canm) + " -o " + Q(dir / "alone.akimport"), &out, &err), 0) << err;
  header = ImportHeader(dir / "alone.akimport");
  EXPECT_EQ(header["skeleton_use"], "none");
}

TEST(CompanionCli, FolderRunsPairByDefaultAndReportIt) {
  const fs::path dir = PairFolder("companion-folders");
  std::string out, err;
  ASSERT_EQ(RunCli("convert -q " + Q(dir / "in") + " " + Q(dir / "out") + " --report " + Q(dir / "report.json"), &out,
                   &err),
            0)
      << err;
  EXPECT_NE(out.find("skeleton: 1 companion, 0 given, 1 none"), std::string::npos) << out;  // the MDB converts alone
  nlohmann::json report = nlohmann::json::parse(Slurp(dir / "report.json"));
  for (const auto& f : report["files"]) {
    if (f["path"] != "soldier5.canm") continue;
    EXPECT_EQ(f["skeleton"], "soldier.mdb");
    EXPECT_EQ(f["skeleton_use"], "companion");
  }
  ASSERT_EQ(RunCli("convert -q --skeleton none " + Q(dir / "in") + " " + Q(dir / "out2") + " --report " +
                       Q(dir / "report2.json"),
                   &out, &err),
            0)
      << err;
  report = nlohmann::json::parse(Slurp(dir / "report2.json"));
  for (const auto& f : report["files"]) {
    EXPECT_TRUE(f["skeleton"].is_null()) << f;
    EXPECT_EQ(f["skeleton_use"], "none") << f;
  }

  ASSERT_EQ(RunCli("preview " + Q(dir / "in" / "soldier5.canm") + " -o " + Q(dir / "page.html"), &out, &err), 0) << err;
  EXPECT_NE(out.find("skeleton file: " + (dir / "in" / "soldier.mdb").string()), std::string::npos) << out;
  ASSERT_EQ(RunCli("preview --skeleton none " + Q(dir / "in" / "soldier5.canm") + " -o " + Q(dir / "alone.html"), &out,
                   &err),
            0)
      << err;
  EXPECT_NE(out.find("skeleton file: none"), std::string::npos) << out;
  ASSERT_EQ(RunCli("preview -q " + Q(dir / "in") + " -o " + Q(dir / "site"), &out, &err), 0) << err;
  EXPECT_NE(Slurp(dir / "site" / "index.html").find("data-skeleton=\"soldier.mdb\""), std::string::npos);
}

// Sora's model beside a 3-bone raw motion: the model does not fit, so it is not used
// (it used to give the re-encoded motion 229 bones); every verb says so.
TEST(CompanionCli, AModelThatDoesNotFitIsNotUsed) {
  const std::string motion = test::FixturePath("kh2/raw.motion");
  if (motion.empty() || test::FixturePath("kh2/P_EX100.mdlx").empty()) GTEST_SKIP() << "no ../shared/fixtures/kh2";
  const fs::path dir = test::TempDir("companion-misfit");
  std::string out, err;
  ASSERT_EQ(RunCli("info --json " + Q(motion), &out, &err), 0) << err;
  const nlohmann::json info = nlohmann::json::parse(out);
  EXPECT_EQ(info["skeleton_use"], "none");
  const std::string warning = info["warnings"].back();
  EXPECT_NE(warning.find("P_EX100.mdlx (229 joints) does not fit raw.motion"), std::string::npos) << warning;
  EXPECT_NE(warning.find("3 bones"), std::string::npos) << warning;

  ASSERT_EQ(RunCli("convert -v " + Q(motion) + " " + Q(dir / "raw.glb"), &out, &err), 0) << err;
  EXPECT_NE(err.find("raw.motion: warning: P_EX100.mdlx (229 joints) does not fit raw.motion"), std::string::npos)
      << err;
  const nlohmann::json report = nlohmann::json::parse(err.substr(err.find('{')));
  EXPECT_EQ(report["skeleton_use"], "none");
  EXPECT_TRUE(report["skeleton"].is_null());
  const Scene glb = ImportGltf(ReadFileBytes((dir / "raw.glb").string()), (dir / "raw.glb").string());
  ASSERT_EQ(glb.clips.size(), 1u);
  EXPECT_EQ(glb.clips[0].tracks.size(), 3u);
  EXPECT_LE(glb.skeleton.joints.size(), 3u);  // not the model's 229

  // Back to a motion: 3 bones, as the file had.
  ASSERT_EQ(RunCli("convert " + Q(dir / "raw.glb") + " " + Q(dir / "back.motion") + " --skeleton none", &out, &err), 0)
      << err;
  ASSERT_EQ(RunCli("info --json --skeleton none " + Q(dir / "back.motion"), &out, &err), 0) << err;
  EXPECT_EQ(nlohmann::json::parse(out)["fields"]["bone_count"], 3);

  // Given explicitly, the model is used as asked.
  ASSERT_EQ(RunCli("info --json --skeleton " + Q(test::FixturePath("kh2/P_EX100.mdlx")) + " " + Q(motion), &out, &err), 0);
  EXPECT_EQ(nlohmann::json::parse(out)["skeleton_use"], "given");
}

}  // namespace
}  // namespace animkit
