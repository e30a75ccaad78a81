// FolderJob with a test action: what the job hands each file (detection, skeleton
// pairing and the shared decoded skeleton, output names), what it keeps from the action
// (failures, counts), and that convert DIR and preview DIR share its guard and messages.
#include "support/batch_tree.hpp"
#include "support/test_support.hpp"

#include <animkit/preview/preview.hpp>

#include <mutex>
#include <set>
#include <stdexcept>

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// Records what the job hands it; fails the files named `fail`, writes nothing.
class RecordingAction final : public FolderAction {
 public:
  struct Seen {
    std::string path, format, output, output_path, skeleton_path;
    const Scene* skeleton = nullptr;  // valid during the run only (the run owns its cache)
    size_t bytes = 0;
    size_t skeleton_joints = 0;  // read while the run holds the skeleton
  };

  explicit RecordingAction(FolderOutputNaming naming) : naming_(std::move(naming)) {}
  FolderOutputNaming OutputNaming() const override { return naming_; }
  void Start(const std::vector<std::string>& files) override {
    started_with = files;
    seen.assign(files.size(), {});
  }
  void Process(const FolderFile& file, BatchFileResult& result) override {
    if (file.path == fail) throw std::runtime_error("the test action refuses it");
    Seen& s = seen.at(file.index);
    const Scene* skeleton = file.DecodedSkeleton();
    s = {file.path, std::string(file.format->id), file.output, file.output_path, file.skeleton_path,
         skeleton, file.bytes.size(), skeleton ? skeleton->skeleton.joints.size() : 0};
    result.clips = 7;
    std::lock_guard lock(mutex_);
    ++calls;
  }

  std::vector<std::string> started_with;
  std::vector<Seen> seen;  // by index
  std::string fail;
  size_t calls = 0;

 private:
  FolderOutputNaming naming_;
  std::mutex mutex_;
};

fs::path EdfFolder(const std::string& name) {
  const fs::path root = TempDir(name);
  fs::create_directories(root / "in");
  fs::copy(test::SourcePath("samples/edf_canm"), root / "in" / "edf");
  fs::remove(root / "in" / "edf" / "soldier.dds");  // the model's texture: these tests count the other files
  test::WriteText(root / "in" / "notes.txt", "not an animation\n");
  return root;
}

TEST(FolderJob, HandsTheActionEachRecognisedFileWithItsSharedSkeleton) {
  const fs::path root = EdfFolder("folder_job_action");
  RecordingAction action({".out", true});
  action.fail = "edf/soldier6.canm";
  FolderJob job;
  job.input_dir = (root / "in").string();
  job.output_dir = (root / "out").string();
  job.action = &action;
  job.threads = 2;
  job.skeleton = std::string(kSkeletonAuto);
  const BatchReport report = job.Run();

  EXPECT_EQ(action.started_with, (std::vector<std::string>{"edf/soldier.mdb", "edf/soldier5.canm", "edf/soldier6.canm",
                                                           "notes.txt"}));
  EXPECT_EQ(action.calls, 2u) << "the .mdb and soldier5.canm; notes.txt is skipped, soldier6 throws";
  ASSERT_EQ(report.files.size(), 4u);
  EXPECT_EQ(report.converted, 2u);
  EXPECT_EQ(report.skipped, 1u);
  EXPECT_EQ(report.failed, 1u);
  EXPECT_EQ(report.skeletons_decoded, 1u) << "soldier.mdb, decoded once";

  const RecordingAction::Seen& canm = action.seen[1];
  EXPECT_EQ(canm.format, "edf-canm");
  EXPECT_EQ(canm.output, "edf/soldier5.canm.out");
  EXPECT_EQ(canm.output_path, (root / "out" / "edf" / "soldier5.canm.out").string());
  EXPECT_EQ(canm.skeleton_path, (root / "in" / "edf" / "soldier.mdb").string());
  ASSERT_NE(canm.skeleton, nullptr);
  EXPECT_GT(canm.skeleton_joints, 0u);
  EXPECT_EQ(canm.bytes, fs::file_size(root / "in" / "edf" / "soldier5.canm"));
  EXPECT_EQ(action.seen[0].skeleton, nullptr) << "a model file has no companion";

  EXPECT_EQ(report.files[1].status, BatchStatus::Converted);
  EXPECT_EQ(report.files[1].output, "edf/soldier5.canm.out");
  EXPECT_EQ(report.files[1].skeleton, "edf/soldier.mdb");
  EXPECT_EQ(report.files[1].clips, 7u) << "what the action filled is kept";
  EXPECT_EQ(report.files[2].status, BatchStatus::Failed);
  EXPECT_EQ(report.files[2].error, (root / "in" / "edf" / "soldier6.canm").string() + ": the test action refuses it");
  EXPECT_TRUE(report.files[2].output.empty());
  EXPECT_EQ(report.files[3].reason, "no format recognises the contents");
  // The run's lock is gone; the job itself writes nothing else.
  EXPECT_TRUE(fs::is_empty(root / "out"));
}

TEST(FolderJob, ASceneDecodedIsHandedToEveryFileUnlessAMapRuleMatches) {
  const fs::path root = EdfFolder("folder_job_decoded");
  const Scene given = LoadReference((root / "in" / "edf" / "soldier.mdb").string(), {});
  RecordingAction action({".out", true});
  FolderJob job;
  job.input_dir = (root / "in").string();
  job.output_dir = (root / "out").string();
  job.action = &action;
  job.threads = 1;
  job.skeleton = SkeletonSource::Decoded(given, "soldier.mdb");
  job.skeleton_map = ParseSkeletonMap("edf/soldier6.canm = edf/soldier.mdb\n", "map.txt");
  const BatchReport report = job.Run();
  ASSERT_EQ(report.converted, 3u);
  EXPECT_EQ(action.seen[1].skeleton, &given);
  EXPECT_EQ(report.files[1].skeleton, "soldier.mdb");
  EXPECT_NE(action.seen[2].skeleton, &given) << "the map's skeleton, decoded for the run";
  ASSERT_NE(action.seen[2].skeleton, nullptr);
  EXPECT_EQ(report.skeletons_decoded, 1u);
}

TEST(FolderJob, NamesOutputsByReplacingOrAppending) {
  const fs::path root = TempDir("folder_job_names");
  test::WriteBytes(root / "in" / "walk.anm", test::SyntheticPsxAnm(3, 10, 1));
  test::WriteBytes(root / "in" / "walk.ANM2", test::SyntheticPsxAnm(3, 10, 2));
  test::WriteBytes(root / "in" / "run.anm", test::SyntheticPsxAnm(3, 10, 3));
  for (const bool append : {false, true}) {
    RecordingAction action({".x", append});
    FolderJob job;
    job.input_dir = (root / "in").string();
    job.output_dir = (root / (append ? "appended" : "replaced")).string();
    job.action = &action;
    job.threads = 1;
    const BatchReport report = job.Run();
    std::set<std::string> outputs;
    for (const BatchFileResult& r : report.files) outputs.insert(r.output);
    if (append) {
      EXPECT_EQ(outputs, (std::set<std::string>{"run.anm.x", "walk.ANM2.x", "walk.anm.x"}));
    } else {
      EXPECT_EQ(outputs, (std::set<std::string>{"run.x", "walk.ANM2.x", "walk.anm.x"})) << "the two walks keep theirs";
    }
  }
}

TEST(FolderJob, WithoutAnActionIsAnError) {
  const fs::path root = TempDir("folder_job_no_action");
  fs::create_directories(root / "in");
  FolderJob job;
  job.input_dir = (root / "in").string();
  job.output_dir = (root / "out").string();
  EXPECT_THROW(job.Run(), Error);
}

// An input folder inside the output folder, with inputs where the outputs of
// in/in/walk.anm would go: both verbs refuse those files with the same message.
TEST(FolderJob, ConvertAndPreviewShareTheGuardAndItsMessages) {
  const fs::path root = TempDir("folder_job_guard");
  const fs::path in = root / "in";
  test::WriteBytes(in / "in" / "walk.anm", test::SyntheticPsxAnm(3, 10, 1));
  const Bytes not_an_animation(64, 0xFF);  // inputs where the outputs would go
  test::WriteBytes(in / "walk.glb", not_an_animation);
  test::WriteBytes(in / "walk.anm.html", not_an_animation);

  BatchConvertJob convert;
  convert.input_dir = in.string();
  convert.output_dir = root.string();
  convert.threads = 1;
  const BatchReport converted = convert.Run();
  PreviewSiteRequest preview;
  preview.input_dir = in.string();
  preview.output_dir = root.string();
  preview.threads = 1;
  const PreviewSite site = WritePreviewSite(preview);

  const BatchFileResult* c = nullptr;
  for (const BatchFileResult& r : converted.files)
    if (r.path == "in/walk.anm") c = &r;
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(site.files.size(), 1u);
  const std::string input = (in / "in" / "walk.anm").string();
  EXPECT_EQ(c->error, input + ": the output " + (root / "in" / "walk.glb").string() + " would overwrite an input file");
  EXPECT_EQ(site.files[0].error,
            input + ": the output " + (root / "in" / "walk.anm.html").string() + " would overwrite an input file");
  const auto tree = test::ReadTree(in);
  EXPECT_EQ(tree.size(), 3u);
  EXPECT_EQ(tree.at("walk.glb"), not_an_animation);
  EXPECT_EQ(tree.at("walk.anm.html"), not_an_animation);

  // The usage errors are the job's, word for word.
  auto usage_error = [](auto run) {
    try {
      run();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (const auto& [input_dir, output_dir] :
       std::vector<std::pair<std::string, std::string>>{{in.string(), in.string()},
                                                        {(root / "missing").string(), (root / "o").string()},
                                                        {"", (root / "o").string()},
                                                        {in.string(), (in / "walk.glb").string()}}) {
    convert.input_dir = preview.input_dir = input_dir;
    convert.output_dir = preview.output_dir = output_dir;
    const std::string from_convert = usage_error([&] { convert.Run(); });
    EXPECT_NE(from_convert, "no error");
    EXPECT_EQ(from_convert, usage_error([&] { WritePreviewSite(preview); }));
  }
}

TEST(FolderJob, ReadSkeletonMapNamesTheFile) {
  const fs::path root = TempDir("folder_job_map");
  test::WriteText(root / "map.txt", "# players\n**/*.canm = **/*.mdb\n");
  const std::vector<SkeletonMapRule> rules = ReadSkeletonMap((root / "map.txt").string());
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].animation, "**/*.canm");
  EXPECT_EQ(rules[0].line, 2);
  test::WriteText(root / "bad.txt", "no equals\n");
  try {
    ReadSkeletonMap((root / "bad.txt").string());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), (root / "bad.txt").string());
  }
  EXPECT_THROW(ReadSkeletonMap((root / "none.txt").string()), Error);
}

}  // namespace
}  // namespace animkit
