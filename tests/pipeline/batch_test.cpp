// BatchConvertJob: detection by probing, skip/fail/convert, deterministic output,
// output names, skeleton maps, globs, stale temporary files, cancellation.
#include "support/batch_tree.hpp"
#include "support/test_support.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::MakeBatchTree;
using test::ReadTree;
using test::TempDir;

const BatchFileResult* Find(const BatchReport& r, const std::string& path) {
  for (const BatchFileResult& f : r.files)
    if (f.path == path) return &f;
  return nullptr;
}

BatchConvertJob Job(const fs::path& in, const fs::path& out, unsigned threads) {
  BatchConvertJob job;
  job.input_dir = in.string();
  job.output_dir = out.string();
  job.to = "glb";
  job.threads = threads;
  return job;
}

// Copies samples into root/in (each {sample, place}) and converts the folder, every file
// paired with its companion (--skeleton auto).
BatchReport RunPairedByCompanion(const fs::path& root, const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [sample, to] : files) {
    fs::create_directories((root / to).parent_path());
    fs::copy_file(test::SourcePath("samples/" + sample), root / to);
  }
  BatchConvertJob job = Job(root / "in", root / "out", 2);
  job.skeleton = std::string(kSkeletonAuto);
  return job.Run();
}

TEST(BatchGlob, Patterns) {
  EXPECT_TRUE(GlobMatch("**/p_ex100*.mset", "obj/p_ex100_a.mset"));
  EXPECT_TRUE(GlobMatch("**/p_ex100*.mset", "p_ex100.mset"));
  EXPECT_TRUE(GlobMatch("**/p_ex100*.mset", "a/b/c/P_EX100.MSET"));  // case-insensitive
  EXPECT_FALSE(GlobMatch("**/p_ex100*.mset", "a/p_ex100.mdlx"));
  EXPECT_FALSE(GlobMatch("*.anm", "dir/walk.anm"));  // * stays within one level
  EXPECT_TRUE(GlobMatch("*.anm", "walk.anm"));
  EXPECT_TRUE(GlobMatch("chr/**", "chr/a/b/c.anm"));
  EXPECT_TRUE(GlobMatch("chr/**/c.anm", "chr/c.anm"));
  EXPECT_TRUE(GlobMatch("a/**/**/z", "a/b/c/z"));
  EXPECT_FALSE(GlobMatch("chr/**/c.anm", "other/chr/c.anm"));
  EXPECT_TRUE(GlobMatch("w?lk.anm", "walk.anm"));
  EXPECT_FALSE(GlobMatch("w?lk.anm", "w/lk.anm"));
  EXPECT_TRUE(GlobMatch("p_ex[0-9][0-9]0.mdlx", "p_ex100.mdlx"));
  EXPECT_FALSE(GlobMatch("p_ex[!1]00.mdlx", "p_ex100.mdlx"));
  EXPECT_TRUE(GlobMatch("*a*b*c", "xxaxxbxxc"));
  EXPECT_FALSE(GlobMatch("*a*b*c", "xxaxxcxxb"));
  EXPECT_THROW(GlobMatch("p_ex[0-9.mdlx", "p_ex1.mdlx"), Error);
}

TEST(BatchSkeletonMap, ParsesRulesCommentsAndErrors) {
  const auto rules = ParseSkeletonMap(
      "# KH2 players\n**/p_ex100*.mset = **/p_ex100.mdlx   # Sora\n\n  chr/*.anm=chr/rig.glb\r\n", "map.txt");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].animation, "**/p_ex100*.mset");
  EXPECT_EQ(rules[0].skeleton, "**/p_ex100.mdlx");
  EXPECT_EQ(rules[0].line, 2);
  EXPECT_EQ(rules[1].animation, "chr/*.anm");
  EXPECT_EQ(rules[1].skeleton, "chr/rig.glb");
  EXPECT_EQ(rules[1].line, 4);
  try {
    ParseSkeletonMap("a = b\nno equals sign\n", "map.txt");
    FAIL() << "accepted a line without '='";
  } catch (const Error& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("map.txt"), std::string::npos);
  }
  EXPECT_THROW(ParseSkeletonMap(" = b\n", "m"), Error);
  EXPECT_THROW(ParseSkeletonMap("a = \n", "m"), Error);
  EXPECT_THROW(ParseSkeletonMap("a[ = b\n", "m"), Error);
}

TEST(BatchTemporary, RecognisesWriteFileAtomicNames) {
  EXPECT_TRUE(IsTemporaryName(".walk.glb.tmp-Ab12Cd"));
  EXPECT_FALSE(IsTemporaryName("walk.glb"));
  EXPECT_FALSE(IsTemporaryName(".walk.glb.tmp-Ab12"));
  EXPECT_FALSE(IsTemporaryName("walk.glb.tmp-Ab12Cd"));
  // A batch run's temporaries carry its tag.
  EXPECT_TRUE(IsTemporaryName(".walk.glb.tmp-r1a2b-Ab12Cd"));
  EXPECT_EQ(TemporaryRunTag(".walk.glb.tmp-r1a2b-Ab12Cd"), "r1a2b");
  EXPECT_EQ(TemporaryRunTag(".walk.glb.tmp-Ab12Cd"), "");
  EXPECT_FALSE(IsTemporaryName(".walk.glb.tmp--Ab12Cd"));
  EXPECT_FALSE(IsTemporaryName(".walk.glb.tmp-r1a2b-Ab12"));
  // The name WriteFileAtomic really uses, caught by making its rename fail.
  const fs::path dir = TempDir("batch-tmpname");
  fs::create_directories(dir / "target.glb");  // a folder where the file should go: rename fails
  const Bytes some(16, 1);
  EXPECT_THROW(WriteFileAtomic((dir / "target.glb").string(), some), Error);
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename(), "target.glb");
}

TEST(BatchConvert, ConvertsRecognisedSkipsUnrelatedReportsCorrupted) {
  const fs::path root = TempDir("batch-tree");
  const auto expected = MakeBatchTree(root / "in");
  std::vector<size_t> seen_done;
  BatchConvertJob job = Job(root / "in", root / "out", 2);
  job.progress = [&](const BatchProgress& p) {
    seen_done.push_back(p.done);
    EXPECT_EQ(p.done, p.converted + p.skipped + p.failed);
    ASSERT_NE(p.last, nullptr);
  };
  const BatchReport report = job.Run();
  const size_t total = expected.converted.size() + expected.failed.size() + expected.skipped.size();
  ASSERT_EQ(report.files.size(), total);
  EXPECT_EQ(report.converted, expected.converted.size());
  EXPECT_EQ(report.failed, expected.failed.size());
  EXPECT_EQ(report.skipped, expected.skipped.size());
  EXPECT_FALSE(report.cancelled);
  ASSERT_EQ(seen_done.size(), total);
  for (size_t i = 0; i < total; ++i) EXPECT_EQ(seen_done[i], i + 1);
  EXPECT_TRUE(std::is_sorted(report.files.begin(), report.files.end(),
                             [](const auto& a, const auto& b) { return a.path < b.path; }));

  for (const auto& [path, format] : expected.converted) {
    const BatchFileResult* f = Find(report, path);
    ASSERT_NE(f, nullptr) << path;
    EXPECT_EQ(f->status, BatchStatus::Converted) << path << ": " << f->error;
    EXPECT_EQ(f->format, format) << path;
    EXPECT_GT(f->bytes_out, 0u);
    EXPECT_EQ(f->bytes_in, fs::file_size(root / "in" / path));
    // The output is where the report says, complete and readable.
    const fs::path out = root / "out" / f->output;
    ASSERT_TRUE(fs::exists(out)) << out;
    EXPECT_EQ(fs::file_size(out), f->bytes_out);
    LoadedFile loaded = LoadFile(out.string(), "", Options{});
    EXPECT_EQ(loaded.format->id, "gltf");
    const Scene scene = loaded.document->Decode(DecodeContext{});
    EXPECT_EQ(scene.clips.size(), f->clips) << path;
  }
  // Names: the extension replaced, the folders kept.
  EXPECT_EQ(Find(report, "chr/p_ex100/walk.anm")->output, "chr/p_ex100/walk.glb");
  EXPECT_EQ(Find(report, "event/scene01.bin")->output, "event/scene01.glb");
  EXPECT_EQ(Find(report, "model/hero_text.gltf")->output, "model/hero_text.glb");
  EXPECT_EQ(Find(report, "chr/p_ex100/walk.anm")->frames, 40u);
  EXPECT_EQ(Find(report, "model/rig.glb")->clips, 0u);  // a skeleton alone converts too
  for (const auto& [path, text] : expected.failed) {
    const BatchFileResult* f = Find(report, path);
    ASSERT_NE(f, nullptr) << path;
    EXPECT_EQ(f->status, BatchStatus::Failed) << path;
    EXPECT_NE(f->error.find(text), std::string::npos) << path << ": " << f->error;
    EXPECT_NE(f->error.find(path), std::string::npos) << "the error names the file: " << f->error;
    EXPECT_FALSE(f->format.empty());
    EXPECT_TRUE(f->output.empty());
  }
  EXPECT_NE(Find(report, "broken/cut_frame.anm")->error.find("offset 0x"), std::string::npos);
  for (const auto& [path, text] : expected.skipped) {
    const BatchFileResult* f = Find(report, path);
    ASSERT_NE(f, nullptr) << path;
    EXPECT_EQ(f->status, BatchStatus::Skipped) << path << ": " << f->error;
    EXPECT_NE(f->reason.find(text), std::string::npos) << path << ": " << f->reason;
  }
  // Nothing but the converted files in the output folder.
  const auto outputs = ReadTree(root / "out");
  EXPECT_EQ(outputs.size(), expected.converted.size());

  // The report document.
  const Value j = report.ToJson();
  EXPECT_EQ(j["converted"], expected.converted.size());
  EXPECT_EQ(j["failed"], expected.failed.size());
  EXPECT_EQ(j["by_format"]["psx-anm"]["converted"], 4);
  EXPECT_EQ(j["by_format"]["psx-anm"]["failed"], 2);
  EXPECT_EQ(j["by_format"]["gltf"]["skipped"], 1);
  EXPECT_EQ(j["by_format"]["none"]["skipped"], 4);
  ASSERT_EQ(j["files"].size(), total);
  for (const auto& e : j["files"]) {
    for (const char* key : {"path", "status", "format", "clips", "frames", "bytes_in", "bytes_out", "seconds", "error"}) {
      EXPECT_TRUE(e.contains(key)) << key;
    }
  }
  const std::string summary = report.Summary();
  EXPECT_NE(summary.find("7 converted, 5 skipped, 3 failed"), std::string::npos) << summary;
  EXPECT_NE(summary.find("broken/garbled.glb"), std::string::npos) << summary;
}

TEST(BatchConvert, ExtensionOnlyMatchesAreConvertedOnRequest) {
  const fs::path root = TempDir("batch-by-extension");
  MakeBatchTree(root / "in");
  BatchConvertJob job = Job(root / "in", root / "out", 1);
  job.accept_extension_only = true;
  const BatchReport report = job.Run();
  const BatchFileResult* fake = Find(report, "misc/fake.glb");
  ASSERT_NE(fake, nullptr);
  EXPECT_EQ(fake->status, BatchStatus::Failed);
  EXPECT_EQ(fake->score, kProbeExtension);
  EXPECT_NE(fake->error.find("misc/fake.glb"), std::string::npos);
  EXPECT_EQ(report.failed, 4u);
}

TEST(BatchConvert, SameOutputWhateverTheThreadCount) {
  const fs::path root = TempDir("batch-threads");
  MakeBatchTree(root / "in");
  for (int i = 0; i < 24; ++i) {
    test::WriteBytes(root / "in" / "many" / ("m" + std::to_string(i) + ".anm"),
                     test::SyntheticPsxAnm(3 + i % 5, 10 + static_cast<size_t>(i), 100 + static_cast<unsigned>(i)));
  }
  const BatchReport one = Job(root / "in", root / "out1", 1).Run();
  const BatchReport four = Job(root / "in", root / "out4", 4).Run();
  EXPECT_EQ(one.threads, 1u);
  EXPECT_EQ(four.threads, 4u);
  const auto a = ReadTree(root / "out1");
  const auto b = ReadTree(root / "out4");
  ASSERT_EQ(a.size(), 7u + 24u);
  EXPECT_TRUE(a == b) << "the outputs differ between -j 1 and -j 4";
  auto strip = [](Value j) {
    j.erase("seconds");
    j.erase("threads");
    for (auto& f : j["files"]) f.erase("seconds");
    return j;
  };
  EXPECT_EQ(DumpJson(strip(one.ToJson())), DumpJson(strip(four.ToJson())));
}

TEST(BatchConvert, CollidingNamesKeepTheirExtensions) {
  const fs::path root = TempDir("batch-collide");
  test::WriteBytes(root / "in/walk.anm", test::SyntheticPsxAnm(3, 10, 1));
  test::WriteBytes(root / "in/walk.bin", test::SyntheticPsxAnm(3, 12, 2));
  test::WriteBytes(root / "in/run.anm", test::SyntheticPsxAnm(3, 14, 3));
  const BatchReport report = Job(root / "in", root / "out", 2).Run();
  EXPECT_EQ(report.converted, 3u);
  EXPECT_EQ(Find(report, "walk.anm")->output, "walk.anm.glb");
  EXPECT_EQ(Find(report, "walk.bin")->output, "walk.bin.glb");
  EXPECT_EQ(Find(report, "run.anm")->output, "run.glb");
}

TEST(BatchConvert, SkeletonMapPairsAnimationsWithSkeletons) {
  const fs::path root = TempDir("batch-skeleton-map");
  test::WriteBytes(root / "in/chr/p_ex100/p_ex100_walk.anm", test::SyntheticPsxAnm(4, 10, 1));
  test::WriteBytes(root / "in/chr/p_ex100/p_ex100_run.anm", test::SyntheticPsxAnm(4, 12, 2));
  test::WriteBytes(root / "in/chr/other.anm", test::SyntheticPsxAnm(4, 8, 3));
  test::WriteBytes(root / "in/rigs/b/p_ex100.glb", test::SyntheticGltf(4, 0, 4, true, true));
  test::WriteBytes(root / "in/rigs/a/p_ex100.glb", test::SyntheticGltf(4, 0, 5, true, true));
  BatchConvertJob job = Job(root / "in", root / "out", 2);
  job.skeleton_map = ParseSkeletonMap("**/p_ex100*.anm = **/p_ex100.glb\nchr/missing*.anm = nowhere/*.glb\n", "map");
  BatchReport report = job.Run();
  EXPECT_EQ(report.failed, 0u);
  // Two animations pair with one skeleton: it is decoded once for the run.
  EXPECT_EQ(report.skeletons_decoded, 1u);
  // The first match in sorted order: rigs/a before rigs/b.
  EXPECT_EQ(Find(report, "chr/p_ex100/p_ex100_walk.anm")->skeleton, "rigs/a/p_ex100.glb");
  EXPECT_EQ(Find(report, "chr/p_ex100/p_ex100_run.anm")->skeleton, "rigs/a/p_ex100.glb");
  EXPECT_EQ(Find(report, "chr/other.anm")->skeleton, "");
  // The skeleton named the joints: the glb's animated nodes carry its joint names.
  const Scene paired = ImportGltf(ReadFileBytes((root / "out/chr/p_ex100/p_ex100_walk.glb").string()), "walk");
  ASSERT_EQ(paired.clips.size(), 1u);
  EXPECT_EQ(paired.clips[0].tracks[0].joint, "root");
  const Scene alone = ImportGltf(ReadFileBytes((root / "out/chr/other.glb").string()), "other");
  ASSERT_EQ(alone.clips.size(), 1u);
  EXPECT_EQ(alone.clips[0].tracks[0].joint, "#0");

  // A rule whose skeleton glob matches nothing fails the files it pairs.
  test::WriteBytes(root / "in/chr/missing_a.anm", test::SyntheticPsxAnm(4, 8, 6));
  report = job.Run();
  EXPECT_EQ(report.failed, 1u);
  EXPECT_NE(Find(report, "chr/missing_a.anm")->error.find("skeleton map line 2"), std::string::npos);
}

TEST(BatchConvert, SkeletonAutoPairsEachFileWithItsCompanionInItsFolder) {
  const fs::path root = TempDir("batch-skeleton-auto");
  const BatchReport report = RunPairedByCompanion(root, {
      {"psx_tmd/figure.anm", "in/figure/figure.anm"},
      {"psx_tmd/figure.tmd", "in/figure/figure.tmd"},
      {"edf_canm/soldier5.canm", "in/soldier/soldier5.canm"},
      {"edf_canm/soldier6.canm", "in/soldier/soldier6.canm"},
      {"edf_canm/soldier.mdb", "in/soldier/soldier.mdb"},
      {"psx_anm/wave.anm", "in/alone/wave.anm"}});
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(Find(report, "figure/figure.anm")->skeleton, "figure/figure.tmd");
  EXPECT_EQ(Find(report, "soldier/soldier5.canm")->skeleton, "soldier/soldier.mdb");
  EXPECT_EQ(Find(report, "soldier/soldier6.canm")->skeleton, "soldier/soldier.mdb");
  EXPECT_EQ(Find(report, "soldier/soldier.mdb")->skeleton, "");
  EXPECT_EQ(Find(report, "alone/wave.anm")->skeleton, "");
  EXPECT_EQ(report.skeletons_decoded, 2u);  // the TMD and the MDB, each once
  // The MDB named the joints of both CANMs.
  const Scene out = ImportGltf(ReadFileBytes((root / "out/soldier/soldier6.glb").string()), "soldier6");
  ASSERT_FALSE(out.clips.empty());
  EXPECT_EQ(out.clips[0].tracks[0].joint, "root");
}

// A game dump as EDF ships it: animation sets (.cas) beside the archives (.rab) holding their
// models, named alike (upper case, as the game's files are) or one archive alone in a folder.
TEST(BatchConvert, EdfSetsPairWithTheArchiveOfTheirModel) {
  const fs::path root = TempDir("batch-edf-sets");
  const BatchReport report = RunPairedByCompanion(root, {
      {"edf_cas/soldier6.cas", "in/OBJECT/SOLDIER.CAS"},
      {"edf_cas/soldier.rab", "in/OBJECT/SOLDIER.RAB"},
      {"edf_cas/soldier.rab", "in/OBJECT/OTHER.RAB"},
      {"edf_cas/soldier5.cas", "in/OLD/soldier5.cas"},
      {"edf_cas/soldier.rab", "in/OLD/soldier.rab"}});
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(report.converted, 5u);
  EXPECT_EQ(Find(report, "OBJECT/SOLDIER.CAS")->skeleton, "OBJECT/SOLDIER.RAB");
  EXPECT_EQ(Find(report, "OLD/soldier5.cas")->skeleton, "OLD/soldier.rab");
  EXPECT_EQ(Find(report, "OBJECT/OTHER.RAB")->skeleton, "");
  // Each set's glb carries its clips over the archive's model: the skinned mesh and the
  // texture that sits in the same archive.
  // Same-named inputs keep their extension in the output name (docs/batch.md).
  for (const char* glb : {"out/OBJECT/SOLDIER.CAS.glb", "out/OLD/soldier5.glb"}) {
    const Scene out = ImportGltf(ReadFileBytes((root / glb).string()), glb);
    EXPECT_EQ(out.clips.size(), 2u) << glb;
    ASSERT_EQ(out.meshes.size(), 1u) << glb;
    EXPECT_TRUE(out.meshes[0].Skinned()) << glb;
    ASSERT_EQ(out.textures.size(), 1u) << glb;
    EXPECT_FALSE(out.textures[0].Missing()) << glb;
  }
}

TEST(BatchConvert, RemovesStaleTemporariesAndSkipsAnOutputFolderInside) {
  const fs::path root = TempDir("batch-stale");
  test::WriteBytes(root / "in/a.anm", test::SyntheticPsxAnm(3, 10, 1));
  // Leftovers of a killed run (tag rdead, its lock no longer held): two of ours, one
  // that is not ours (another extension).
  test::WriteText(root / "in/out/.a.glb.tmp-rdead-Xy12Zw", "partial");
  test::WriteText(root / "in/out/sub/.b.glb.tmp-rdead-AAAAAA", "partial");
  test::WriteText(root / "in/out/.animkit-run-rdead.lock", "");
  test::WriteText(root / "in/out/.notes.txt.tmp-rdead-AAAAAA", "someone else's");
  // A run still going (its lock held) and a single-file conversion (untagged): never touched.
  test::WriteText(root / "in/out/.c.glb.tmp-rlive-BBBBBB", "being written");
  test::WriteText(root / "in/out/.animkit-run-rlive.lock", "");
  const int live_lock = open((root / "in/out/.animkit-run-rlive.lock").c_str(), O_RDONLY);
  ASSERT_GE(live_lock, 0);
  ASSERT_EQ(flock(live_lock, LOCK_EX), 0);
  test::WriteText(root / "in/out/.d.glb.tmp-CCCCCC", "being written by animkit convert");
  const BatchReport report = Job(root / "in", root / "in/out", 1).Run();
  close(live_lock);
  EXPECT_EQ(report.stale_temporaries_removed, 2u);
  EXPECT_FALSE(fs::exists(root / "in/out/.a.glb.tmp-rdead-Xy12Zw"));
  EXPECT_FALSE(fs::exists(root / "in/out/sub/.b.glb.tmp-rdead-AAAAAA"));
  EXPECT_FALSE(fs::exists(root / "in/out/.animkit-run-rdead.lock"));
  EXPECT_TRUE(fs::exists(root / "in/out/.notes.txt.tmp-rdead-AAAAAA"));
  EXPECT_TRUE(fs::exists(root / "in/out/.c.glb.tmp-rlive-BBBBBB"));
  EXPECT_TRUE(fs::exists(root / "in/out/.animkit-run-rlive.lock"));
  EXPECT_TRUE(fs::exists(root / "in/out/.d.glb.tmp-CCCCCC"));
  // The run's own lock is gone when it ends.
  for (const auto& e : fs::directory_iterator(root / "in/out")) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name.find(".animkit-run-") == std::string::npos || name == ".animkit-run-rlive.lock") << name;
  }
  // The output folder inside the input is not walked.
  EXPECT_EQ(report.files.size(), 1u);
  EXPECT_EQ(report.converted, 1u);
}

TEST(BatchConvert, CancelStopsScheduling) {
  const fs::path root = TempDir("batch-cancel");
  for (int i = 0; i < 20; ++i) test::WriteBytes(root / "in" / ("f" + std::to_string(i) + ".anm"), test::SyntheticPsxAnm(3, 10, 1));
  std::atomic<bool> cancel{false};
  BatchConvertJob job = Job(root / "in", root / "out", 1);
  job.cancel = &cancel;
  job.progress = [&](const BatchProgress& p) {
    if (p.done == 5) cancel = true;
  };
  const BatchReport report = job.Run();
  EXPECT_TRUE(report.cancelled);
  EXPECT_EQ(report.files.size(), 5u);
  EXPECT_EQ(report.not_started, 15u);
  EXPECT_EQ(ReadTree(root / "out").size(), 5u);
}

TEST(BatchConvert, ValidateRejectsUsageErrors) {
  const fs::path root = TempDir("batch-validate");
  test::WriteBytes(root / "in/a.anm", test::SyntheticPsxAnm(3, 10, 1));
  EXPECT_THROW(Job(root / "nope", root / "out", 1).Validate(), Error);
  EXPECT_THROW(Job(root / "in", root / "in", 1).Validate(), Error);
  EXPECT_THROW(Job(root / "in", root / "in/a.anm", 1).Validate(), Error);
  BatchConvertJob job = Job(root / "in", root / "out", 1);
  job.to = "nosuchformat";
  EXPECT_THROW(job.Validate(), Error);
  job.to = "json";
  EXPECT_NO_THROW(job.Validate());
  job.to = "gltf";
  EXPECT_NO_THROW(job.Validate());
  const BatchReport r = job.Run();
  EXPECT_EQ(r.files.at(0).output, "a.gltf");
}

TEST(BatchConvert, NeverMoreWorkerThreadsThanAsked) {
  const fs::path root = TempDir("batch-thread-bound");
  for (int i = 0; i < 12; ++i) test::WriteBytes(root / "in" / ("f" + std::to_string(i) + ".anm"), test::SyntheticPsxAnm(3, 10, 1));
  for (unsigned asked : {1u, 2u, 3u}) {
    std::set<std::thread::id> workers;
    BatchConvertJob job = Job(root / "in", root / ("out" + std::to_string(asked)), asked);
    job.progress = [&](const BatchProgress&) { workers.insert(std::this_thread::get_id()); };  // calls are serialised
    const BatchReport report = job.Run();
    EXPECT_EQ(report.converted, 12u);
    EXPECT_EQ(report.threads, asked);
    EXPECT_LE(workers.size(), asked);
  }
  // The default: the hardware threads, and never more threads than files.
  BatchConvertJob job = Job(root / "in", root / "out-default", 0);
  const BatchReport report = job.Run();
  EXPECT_LE(report.threads, std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_LE(report.threads, 12u);
  EXPECT_GE(report.threads, 1u);
}

TEST(BatchConvert, SharedSkeletonIsDecodedOncePerRun) {
  const fs::path root = TempDir("batch-shared-skeleton");
  for (int i = 0; i < 6; ++i) test::WriteBytes(root / "in" / ("f" + std::to_string(i) + ".anm"), test::SyntheticPsxAnm(4, 10, 1));
  test::WriteBytes(root / "rig.glb", test::SyntheticGltf(4, 0, 4, true, true));
  BatchConvertJob job = Job(root / "in", root / "out", 3);
  job.skeleton = (root / "rig.glb").string();
  const BatchReport report = job.Run();
  EXPECT_EQ(report.converted, 6u);
  EXPECT_EQ(report.skeletons_decoded, 1u);
  // Every file still decoded against it: the joint names come from the skeleton.
  const Scene out = ImportGltf(ReadFileBytes((root / "out/f3.glb").string()), "f3");
  ASSERT_EQ(out.clips.size(), 1u);
  EXPECT_EQ(out.clips[0].tracks[0].joint, "root");
  // A skeleton that does not decode fails every file that needs it, with its own error.
  test::WriteText(root / "bad.glb", "not a glb");
  job.skeleton = (root / "bad.glb").string();
  job.output_dir = (root / "out-bad").string();
  const BatchReport bad = job.Run();
  EXPECT_EQ(bad.failed, 6u);
  EXPECT_EQ(bad.skeletons_decoded, 1u);
  for (const BatchFileResult& f : bad.files) EXPECT_NE(f.error.find("bad.glb"), std::string::npos) << f.error;
}

TEST(BatchConvert, AThrowingProgressCallbackIsAnErrorOfTheRun) {
  const fs::path root = TempDir("batch-progress-throws");
  for (int i = 0; i < 20; ++i) test::WriteBytes(root / "in" / ("f" + std::to_string(i) + ".anm"), test::SyntheticPsxAnm(3, 10, 1));
  for (unsigned threads : {1u, 4u}) {
    BatchConvertJob job = Job(root / "in", root / ("out" + std::to_string(threads)), threads);
    job.progress = [](const BatchProgress& p) {
      if (p.done == 3) throw std::runtime_error("display gone");
    };
    try {
      job.Run();
      ADD_FAILURE() << "Run() returned";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("the progress callback failed: display gone"), std::string::npos) << e.what();
    }
    // No further file was started after the failure (those under way finish).
    EXPECT_LE(ReadTree(root / ("out" + std::to_string(threads))).size(), 3u + threads);
  }
}

TEST(BatchConvert, InputsAreMappedNotCopied) {
  // The mapped view holds the file's bytes; an empty file maps to no bytes.
  const fs::path root = TempDir("batch-mapped");
  const Bytes anm = test::SyntheticPsxAnm(3, 10, 1);
  test::WriteBytes(root / "a.anm", anm);
  test::WriteBytes(root / "empty.anm", Bytes{});
  {
    const MappedFile mapped((root / "a.anm").string());
    EXPECT_EQ(Bytes(mapped.bytes().begin(), mapped.bytes().end()), anm);
    const MappedFile empty((root / "empty.anm").string());
    EXPECT_EQ(empty.bytes().size(), 0u);
  }
  EXPECT_THROW(MappedFile((root / "missing.anm").string()), Error);
  EXPECT_THROW(MappedFile(root.string()), Error);
  // Convert from bytes the caller holds gives the same output as from the path.
  ConvertRequest from_path;
  from_path.input = (root / "a.anm").string();
  from_path.output = (root / "p.glb").string();
  Convert(from_path);
  const MappedFile mapped((root / "a.anm").string());
  ConvertRequest from_bytes = from_path;
  from_bytes.output = (root / "b.glb").string();
  from_bytes.input_bytes = mapped.bytes();
  const ConvertResult r = Convert(from_bytes);
  EXPECT_EQ(r.bytes_in, anm.size());
  EXPECT_EQ(ReadFileBytes((root / "p.glb").string()), ReadFileBytes((root / "b.glb").string()));
}

TEST(BatchTemporary, TaggedTemporaryNamesCarryTheRunTag) {
  EXPECT_EQ(TemporaryTemplate("walk.glb", ""), ".walk.glb.tmp-XXXXXX");
  EXPECT_EQ(TemporaryTemplate("walk.glb", "r12ab"), ".walk.glb.tmp-r12ab-XXXXXX");
  // The name AtomicFile really uses with a tag, caught by making its rename fail.
  const fs::path dir = TempDir("batch-tagged-tmpname");
  fs::create_directories(dir / "target.glb");
  AtomicFile out((dir / "target.glb").string(), {}, "r12ab");
  out.Write(std::string_view("partial"));
  size_t seen = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name == "target.glb") continue;
    ++seen;
    EXPECT_TRUE(IsTemporaryName(name)) << name;
    EXPECT_EQ(TemporaryRunTag(name), "r12ab") << name;
  }
  EXPECT_EQ(seen, 1u);
  EXPECT_THROW(out.Commit(), Error);
}

}  // namespace
}  // namespace animkit
