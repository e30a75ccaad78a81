// RetargetFolderJob (`animkit retarget DIR --to TARGET -o OUTDIR`): every file with clips onto
// the target, into the same relative path; files without clips skipped saying so; a failing
// file reported while the rest go on; each output what Retarget makes of that file alone.
#include "support/test_support.hpp"

#include <fstream>

namespace animkit {
namespace {

namespace fs = std::filesystem;

Bytes ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

const BatchFileResult* Find(const BatchReport& r, const std::string& path) {
  for (const BatchFileResult& f : r.files)
    if (f.path == path) return &f;
  return nullptr;
}

// root/in: the two EDF CAS samples (one in a subfolder) and a model without clips.
fs::path MakeFolder(const std::string& name) {
  const fs::path root = test::TempDir(name);
  fs::create_directories(root / "in" / "sub");
  fs::copy_file(test::SourcePath("samples/edf_cas/soldier5.cas"), root / "in" / "soldier5.cas");
  fs::copy_file(test::SourcePath("samples/edf_cas/soldier6.cas"), root / "in" / "sub" / "soldier6.cas");
  fs::copy_file(test::SourcePath("samples/edf_mdb/soldier.mdb"), root / "in" / "soldier.mdb");
  return root;
}

RetargetFolderJob JobOf(const fs::path& root) {
  RetargetFolderJob job;
  job.input_dir = (root / "in").string();
  job.output_dir = (root / "out").string();
  job.threads = 2;
  job.request.target = test::SourcePath("samples/edf_cas/soldier.rab");
  return job;
}

TEST(RetargetFolder, ClipsGoOntoTheTargetAndAModelIsSkipped) {
  const fs::path root = MakeFolder("retarget_folder");
  const BatchReport report = JobOf(root).Run();
  EXPECT_EQ(report.converted, 2u);
  EXPECT_EQ(report.skipped, 1u);
  EXPECT_EQ(report.failed, 0u);
  const BatchFileResult* model = Find(report, "soldier.mdb");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->status, BatchStatus::Skipped);
  EXPECT_NE(model->reason.find("no clips"), std::string::npos) << model->reason;
  EXPECT_FALSE(fs::exists(root / "out" / "soldier.glb"));
  EXPECT_NE(report.Summary().find("no clips"), std::string::npos) << report.Summary();

  // Each output is what Retarget writes for that file alone (the target decoded there).
  for (const std::string rel : {"soldier5", "sub/soldier6"}) {
    const BatchFileResult* f = Find(report, rel + ".cas");
    ASSERT_NE(f, nullptr) << rel;
    EXPECT_EQ(f->status, BatchStatus::Converted) << f->error;
    EXPECT_EQ(f->output, rel + ".glb");
    EXPECT_GT(f->clips, 0u);
    RetargetRequest one;
    one.source = (root / "in" / (rel + ".cas")).string();
    one.target = test::SourcePath("samples/edf_cas/soldier.rab");
    one.output = (root / (fs::path(rel).filename().string() + "_alone.glb")).string();
    const RetargetResult alone = Retarget(one);
    EXPECT_EQ(f->clips, alone.clips);
    EXPECT_EQ(ReadAll(root / "out" / (rel + ".glb")), ReadAll(one.output)) << rel;
  }
}

TEST(RetargetFolder, AFailingFileIsReportedAndTheRestGoOn) {
  const fs::path root = MakeFolder("retarget_folder_fail");
  // A CAS cut short after its header (96 bytes): recognised, its CANM offset beyond the end.
  const Bytes cas = ReadAll(test::SourcePath("samples/edf_cas/soldier5.cas"));
  std::ofstream(root / "in" / "cut.cas", std::ios::binary).write(reinterpret_cast<const char*>(cas.data()), 96);
  const BatchReport report = JobOf(root).Run();
  EXPECT_EQ(report.converted, 2u);
  const BatchFileResult* cut = Find(report, "cut.cas");
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->status, BatchStatus::Failed);
  EXPECT_NE(cut->error.find("cut.cas"), std::string::npos) << cut->error;
  EXPECT_NE(cut->error.find("outside the file"), std::string::npos) << cut->error;
  EXPECT_EQ(report.failed, 1u);
  EXPECT_FALSE(fs::exists(root / "out" / "cut.glb"));
}

// The CLI: `retarget DIR --to T -o OUTDIR` prints convert DIR's summary (the skip with its
// reason), exit 1 when a file failed, 0 when none did; a page per file with --out-format html.
TEST(RetargetFolder, TheCommandLine) {
  const fs::path root = MakeFolder("retarget_folder_cli");
  const std::string target = test::SourcePath("samples/edf_cas/soldier.rab");
  std::string out, err;
  EXPECT_EQ(test::RunCli("retarget '" + (root / "in").string() + "' --to '" + target + "' -o '" + (root / "out").string() + "' -q",
                         &out, &err), 0) << out << err;
  EXPECT_NE(out.find("2 converted, 1 skipped, 0 failed"), std::string::npos) << out;
  EXPECT_NE(out.find("no clips to retarget"), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(root / "out" / "sub" / "soldier6.glb"));
  EXPECT_EQ(test::RunCli("retarget '" + (root / "in").string() + "' --to '" + target + "' -o '" + (root / "pages").string() +
                         "' --out-format html -q", &out, &err), 0) << out << err;
  EXPECT_TRUE(fs::exists(root / "pages" / "soldier5.html"));
  const Bytes cas = ReadAll(test::SourcePath("samples/edf_cas/soldier5.cas"));
  std::ofstream(root / "in" / "cut.cas", std::ios::binary).write(reinterpret_cast<const char*>(cas.data()), 96);
  EXPECT_EQ(test::RunCli("retarget '" + (root / "in").string() + "' --to '" + target + "' -o '" + (root / "out2").string() + "' -q",
                         &out, &err), 1) << out << err;
  EXPECT_NE(out.find("cut.cas"), std::string::npos) << out;
  EXPECT_EQ(test::RunCli("retarget '" + (root / "in").string() + "' --to '" + target + "' -o '" + (root / "out3").string() +
                         "' --map-out m.json -q", &out, &err), 2) << out << err;
}

TEST(RetargetFolder, UsageErrors) {
  const fs::path root = MakeFolder("retarget_folder_usage");
  RetargetFolderJob job = JobOf(root);
  job.request.target.clear();
  EXPECT_NE(test::ErrorOf([&] { job.Validate(); }).find("--to"), std::string::npos);
  job = JobOf(root);
  job.request.map_out = (root / "map.json").string();
  EXPECT_NE(test::ErrorOf([&] { job.Validate(); }).find("--map-out"), std::string::npos);
  job = JobOf(root);
  job.to = "nosuchformat";
  EXPECT_NE(test::ErrorOf([&] { job.Validate(); }).find("nosuchformat"), std::string::npos);
  job = JobOf(root);
  job.to = "html";
  EXPECT_NE(test::ErrorOf([&] { job.Validate(); }).find("preview layer"), std::string::npos) << "pages need the builder";
}

}  // namespace
}  // namespace animkit
