// What the preview site shares with convert DIR through the folder job: threads (the
// same site on any number), progress, cancel, the file-size limit, and the CLI's -j/-q.
#include "support/batch_tree.hpp"
#include "support/test_support.hpp"

#include <animkit/preview/preview.hpp>

#include <atomic>

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string Text(const Bytes& bytes) { return std::string(bytes.begin(), bytes.end()); }

fs::path SampleFolder(const std::string& name) {
  const fs::path root = TempDir(name);
  fs::create_directories(root / "in");
  fs::copy(test::SourcePath("samples/metroid_anim"), root / "in" / "metroid");
  fs::copy(test::SourcePath("samples/edf_canm"), root / "in" / "edf");
  fs::remove(root / "in" / "edf" / "soldier.dds");  // the model's texture: the counts are of the other files
  test::WriteText(root / "in" / "notes.txt", "not an animation\n");
  return root;
}

PreviewSiteRequest Request(const fs::path& root, const std::string& out, unsigned threads) {
  PreviewSiteRequest request;
  request.input_dir = (root / "in").string();
  request.output_dir = (root / out).string();
  request.threads = threads;
  return request;
}

TEST(PreviewSite, SameSiteOnAnyNumberOfThreadsWithProgressForEachFile) {
  const fs::path root = SampleFolder("preview_site_threads");
  const PreviewSite one = WritePreviewSite(Request(root, "one", 1));
  PreviewSiteRequest request = Request(root, "four", 4);
  std::vector<size_t> done;
  size_t total = 0;
  request.progress = [&](const BatchProgress& p) {  // one call at a time
    done.push_back(p.done);
    total = p.total;
    ASSERT_NE(p.last, nullptr);
  };
  const PreviewSite four = WritePreviewSite(request);
  EXPECT_EQ(test::ReadTree(root / "one"), test::ReadTree(root / "four"));
  EXPECT_EQ(one.files.size(), 6u);
  EXPECT_EQ(four.files.size(), 6u);
  EXPECT_EQ(four.unrecognised, 1u);
  EXPECT_EQ(total, 7u);
  EXPECT_EQ(done, (std::vector<size_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(four.cancelled);
}

TEST(PreviewSite, CancelStopsAndTheGalleryListsWhatWasDone) {
  const fs::path root = SampleFolder("preview_site_cancel");
  PreviewSiteRequest request = Request(root, "out", 1);
  std::atomic<bool> cancel{false};
  request.cancel = &cancel;
  request.progress = [&](const BatchProgress& p) {
    if (p.done == 2) cancel = true;
  };
  const PreviewSite site = WritePreviewSite(request);
  EXPECT_TRUE(site.cancelled);
  EXPECT_EQ(site.not_started, 5u);
  ASSERT_EQ(site.files.size(), 2u);  // edf/soldier.mdb, edf/soldier5.canm
  EXPECT_EQ(site.files[1].path, "edf/soldier5.canm");
  EXPECT_TRUE(fs::is_regular_file(root / "out" / "edf" / "soldier5.canm.html"));
  EXPECT_FALSE(fs::exists(root / "out" / "edf" / "soldier6.canm.html"));
  const std::string index = Text(test::ReadTree(root / "out").at("index.html"));
  EXPECT_NE(index.find("cancelled: 5 files not started"), std::string::npos);
}

TEST(PreviewSite, FilesOverTheSizeLimitAreSkippedUnread) {
  const fs::path root = SampleFolder("preview_site_size");
  PreviewSiteRequest request = Request(root, "out", 2);
  request.max_file_size = 0;  // every file is larger
  const PreviewSite site = WritePreviewSite(request);
  EXPECT_TRUE(site.files.empty());
  EXPECT_EQ(site.too_large, 7u);
  EXPECT_EQ(site.unrecognised, 0u);
  const auto tree = test::ReadTree(root / "out");
  EXPECT_EQ(tree.size(), 1 + PreviewSharedAssets().size()) << "the gallery and the pages' shared assets alone";
  EXPECT_NE(Text(tree.at("index.html")).find("7 over the size limit (not listed)"), std::string::npos);
  // A limit between the sizes: the larger files only.
  request.output_dir = (root / "out2").string();
  request.max_file_size = static_cast<size_t>(fs::file_size(root / "in" / "edf" / "soldier5.canm"));
  const PreviewSite some = WritePreviewSite(request);
  EXPECT_GT(some.too_large, 0u);
  EXPECT_LT(some.too_large, 7u);
  for (const PreviewSiteEntry& e : some.files) {
    EXPECT_LE(fs::file_size(root / "in" / e.path), request.max_file_size) << e.path;
  }
}

TEST(PreviewSite, CliTakesJobsAndQuietAsConvertDirDoes) {
  const fs::path root = SampleFolder("preview_site_cli");
  std::string out, err;
  ASSERT_EQ(test::RunCli("preview '" + (root / "in").string() + "' -o '" + (root / "quiet").string() + "' -j 2 -q",
                         &out, &err), 0) << err;
  EXPECT_EQ(err, "");
  EXPECT_NE(out.find("6 pages, 0 damaged files, 1 files not recognised"), std::string::npos) << out;
  // Without -q, progress on stderr (a plain line: stderr is not a terminal here).
  ASSERT_EQ(test::RunCli("preview '" + (root / "in").string() + "' -o '" + (root / "loud").string() + "' -j 1", &out,
                         &err), 0) << err;
  EXPECT_NE(err.find("progress: 7/7 files"), std::string::npos) << err;
  EXPECT_EQ(test::ReadTree(root / "quiet"), test::ReadTree(root / "loud"));
  EXPECT_EQ(test::RunCli("preview '" + (root / "in").string() + "' -o '" + (root / "zero").string() + "' -j 0", &out,
                         &err), 2);
  // A usage error the job finds exits 2, as for convert DIR.
  EXPECT_EQ(test::RunCli("preview '" + (root / "in").string() + "' -o '" + (root / "in").string() + "'", &out, &err), 2);
  EXPECT_NE(err.find("must differ"), std::string::npos) << err;
}

}  // namespace
}  // namespace animkit
