// `animkit convert DIR OUTDIR`: exit statuses, summary, report, and interruption
// (SIGINT, SIGKILL) leaving no partial output.
#include "support/batch_tree.hpp"
#include "support/test_support.hpp"

#include <nlohmann/json.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::RunCli;
using test::TempDir;

nlohmann::json ReadJson(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

TEST(BatchCli, ConvertsATreeWithSummaryReportAndStatus1) {
  const fs::path root = TempDir("batch-cli-tree");
  const auto expected = test::MakeBatchTree(root / "in");
  std::string out, err;
  const int status = RunCli("convert " + (root / "in").string() + " " + (root / "out").string() + " --to glb -j 2 --report " +
                                (root / "report.json").string(),
                            &out, &err);
  EXPECT_EQ(status, 1) << "some files failed: status 1\n" << out << err;
  EXPECT_NE(out.find("7 converted, 5 skipped, 3 failed"), std::string::npos) << out;
  EXPECT_NE(out.find("psx-anm"), std::string::npos) << out;
  EXPECT_NE(out.find("broken/cut_frame.anm"), std::string::npos) << out;
  // Not a terminal: plain progress lines, the last one at 100 %.
  EXPECT_NE(err.find("progress: 15/15 files (100%)"), std::string::npos) << err;
  const nlohmann::json report = ReadJson(root / "report.json");
  EXPECT_EQ(report["converted"], 7);
  EXPECT_EQ(report["skipped"], 5);
  EXPECT_EQ(report["failed"], 3);
  EXPECT_EQ(report["to"], "glb");
  ASSERT_EQ(report["files"].size(), 15u);
  std::vector<std::string> paths;
  for (const auto& f : report["files"]) paths.push_back(f["path"]);
  EXPECT_TRUE(std::is_sorted(paths.begin(), paths.end()));
  for (const auto& f : report["files"]) {
    const std::string path = f["path"];
    if (expected.converted.count(path)) {
      EXPECT_EQ(f["status"], "converted") << path;
      EXPECT_TRUE(f["error"].is_null());
      EXPECT_TRUE(fs::exists(root / "out" / f["output"].get<std::string>()));
    } else if (expected.failed.count(path)) {
      EXPECT_EQ(f["status"], "failed") << path;
      EXPECT_NE(f["error"].get<std::string>().find(expected.failed.at(path)), std::string::npos) << f["error"];
    } else {
      EXPECT_EQ(f["status"], "skipped") << path;
    }
  }
  // --quiet: no progress; a tree with nothing failing: status 0.
  fs::remove_all(root / "in/broken");
  fs::remove(root / "in/misc/truncated.anm");
  ASSERT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "out2").string() + " --quiet", &out, &err), 0)
      << out << err;
  EXPECT_EQ(err, "");
  EXPECT_NE(out.find("7 converted, 5 skipped, 0 failed"), std::string::npos) << out;
}

TEST(BatchCli, SameOutputForJ1AndJ4) {
  const fs::path root = TempDir("batch-cli-j");
  test::MakeBatchTree(root / "in");
  for (int i = 0; i < 16; ++i) {
    test::WriteBytes(root / "in" / "more" / ("a" + std::to_string(i) + ".anm"),
                     test::SyntheticPsxAnm(4, 10 + static_cast<size_t>(i), static_cast<unsigned>(i)));
  }
  std::string out;
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "o1").string() + " -j 1 -q --report " +
                   (root / "r1.json").string(), &out), 1);
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "o4").string() + " -j 4 -q --report " +
                   (root / "r4.json").string(), &out), 1);
  const auto a = test::ReadTree(root / "o1");
  EXPECT_EQ(a.size(), 7u + 16u);
  EXPECT_TRUE(a == test::ReadTree(root / "o4"));
  auto strip = [](nlohmann::json j) {
    for (const char* k : {"seconds", "threads", "output"}) j.erase(k);
    for (auto& f : j["files"]) f.erase("seconds");
    return j;
  };
  EXPECT_EQ(strip(ReadJson(root / "r1.json")), strip(ReadJson(root / "r4.json")));
}

TEST(BatchCli, UsageErrorsExit2) {
  const fs::path root = TempDir("batch-cli-usage");
  test::WriteBytes(root / "in/a.anm", test::SyntheticPsxAnm(3, 10, 1));
  std::string out, err;
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "in").string(), &out, &err), 2);
  EXPECT_NE(err.find("must differ"), std::string::npos) << err;
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "out").string() + " --to nosuch", &out, &err), 2);
  test::WriteText(root / "map.txt", "# comment\nno equals here\n");
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "out").string() + " --skeleton-map " +
                       (root / "map.txt").string(), &out, &err), 2);
  EXPECT_NE(err.find("map.txt"), std::string::npos) << err;
  EXPECT_NE(err.find("line 2"), std::string::npos) << err;
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "out").string() + " --format psx-anm", &out, &err), 2);
  EXPECT_EQ(RunCli("convert " + (root / "in/a.anm").string() + " " + (root / "a.glb").string() + " --report r.json", &out, &err), 2);
  EXPECT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "out").string() + " -j 0", &out, &err), 2);
  EXPECT_FALSE(fs::exists(root / "out"));
}

// A slow batch: many large inputs converted on one thread.
fs::path MakeSlowTree(const std::string& name, int files) {
  const fs::path root = TempDir(name);
  const Bytes big = test::SyntheticPsxAnm(16, 300, 7);
  for (int i = 0; i < files; ++i) {
    test::WriteBytes(root / "in" / ("d" + std::to_string(i % 4)) / ("clip" + std::to_string(i) + ".anm"), big);
  }
  return root;
}

pid_t Spawn(const std::vector<std::string>& args) {
  test::CliArgv argv(args);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv.data()[0], &actions, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

size_t CountOutputs(const fs::path& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path().extension() == ".glb") ++n;
  }
  return n;
}

// Waits until the running batch has written `count` outputs (true), or it ended (false).
bool WaitForOutputs(pid_t pid, const fs::path& dir, size_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (CountOutputs(dir) >= count) return true;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// Every file in dir is a complete, readable output of the slow tree, or (when
// allowed) a recognisable temporary file. Returns the number of temporaries.
size_t ExpectOnlyCompleteOutputs(const fs::path& dir, bool temporaries_allowed) {
  size_t temporaries = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (IsTemporaryName(name)) {
      ++temporaries;
      EXPECT_TRUE(temporaries_allowed) << "temporary file left: " << e.path();
      EXPECT_FALSE(TemporaryRunTag(name).empty()) << "a batch run's temporaries carry its tag: " << e.path();
      continue;
    }
    if (name.rfind(".animkit-run-", 0) == 0) {  // the lock of a killed run
      EXPECT_TRUE(temporaries_allowed) << "run lock left: " << e.path();
      continue;
    }
    EXPECT_EQ(e.path().extension(), ".glb") << e.path();
    try {
      LoadedFile loaded = LoadFile(e.path().string(), "", Options{});
      const Scene scene = loaded.document->Decode(DecodeContext{});
      EXPECT_EQ(scene.clips.size(), 1u) << e.path();
      if (!scene.clips.empty()) {
        EXPECT_EQ(scene.clips[0].frame_count, 300u) << e.path();
      }
    } catch (const Error& err) {
      ADD_FAILURE() << "partial or invalid output " << e.path() << ": " << err.what();
    }
  }
  return temporaries;
}

TEST(BatchCli, SigintStopsCleanlyWithStatus130) {
  const fs::path root = MakeSlowTree("batch-cli-sigint", 200);
  const pid_t pid = Spawn({"convert", (root / "in").string(), (root / "out").string(), "-j", "2", "--report",
                           (root / "report.json").string()});
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(WaitForOutputs(pid, root / "out", 4)) << "the batch ended before it could be interrupted";
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal instead of stopping";
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_EQ(ExpectOnlyCompleteOutputs(root / "out", false), 0u);
  const nlohmann::json report = ReadJson(root / "report.json");
  EXPECT_EQ(report["cancelled"], true);
  EXPECT_GT(report["not_started"].get<size_t>(), 0u);
  EXPECT_EQ(report["converted"].get<size_t>(), CountOutputs(root / "out"));
  EXPECT_EQ(report["files"].size() + report["not_started"].get<size_t>(), 200u);
}

TEST(BatchCli, SigkillLeavesNoPartialOutputAndTheNextRunCleansUp) {
  const fs::path root = MakeSlowTree("batch-cli-sigkill", 80);
  const pid_t pid = Spawn({"convert", (root / "in").string(), (root / "out").string(), "-j", "2", "-q"});
  ASSERT_GT(pid, 0);
  const bool running = WaitForOutputs(pid, root / "out", 6);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(running) << "the batch ended before it could be killed";
  ASSERT_TRUE(WIFSIGNALED(status));
  // Complete outputs only; a write the kill cut short is a recognisable temporary file.
  const size_t temporaries = ExpectOnlyCompleteOutputs(root / "out", true);
  EXPECT_LE(temporaries, 2u);  // at most one per thread
  // A stale temporary as a killed run's write leaves, should the kill have hit none.
  test::WriteText(root / "out/d0/.clip0.glb.tmp-rdead-Zz9Zz9", "partial");
  std::string out, err;
  ASSERT_EQ(RunCli("convert " + (root / "in").string() + " " + (root / "out").string() + " -q --report " +
                       (root / "report.json").string(), &out, &err), 0) << out << err;
  EXPECT_EQ(ExpectOnlyCompleteOutputs(root / "out", false), 0u);
  EXPECT_EQ(CountOutputs(root / "out"), 80u);
  const nlohmann::json report = ReadJson(root / "report.json");
  EXPECT_GE(report["stale_temporaries_removed"].get<size_t>(), 1u);
  EXPECT_EQ(report["converted"], 80);
}

}  // namespace
}  // namespace animkit
