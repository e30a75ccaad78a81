// Batch conversion throughput: files per second over a folder of many small
// PS1 ANM files and unrelated files, converted to .glb on 1 and 2 threads.
#include <animkit/animkit.hpp>
#include <synthetic/synthetic.hpp>
#include <animkit/formats/psx_anm.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using namespace animkit;
namespace fs = std::filesystem;

constexpr int kAnimations = 400;
constexpr int kUnrelated = 100;

// A dump of kAnimations small PS1 ANM files (8 joints, 30 frames, ~5 KB) and
// kUnrelated text files, in 10 folders; made once per process.
const fs::path& Tree() {
  static const fs::path root = [] {
    fs::path dir = fs::temp_directory_path() / ("animkit-batch-bench-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    for (int i = 0; i < kAnimations + kUnrelated; ++i) {
      const fs::path folder = dir / "in" / ("f" + std::to_string(i % 10));
      fs::create_directories(folder);
      std::ofstream out(folder / ((i < kAnimations ? "clip" : "note") + std::to_string(i) + (i < kAnimations ? ".anm" : ".txt")),
                        std::ios::binary);
      if (i < kAnimations) {
        SyntheticSpec spec{.joints = 8, .frames = 30, .seed = static_cast<unsigned>(i)};
        const Skeleton skeleton = SyntheticSkeleton(spec);
        const Bytes b = psx_anm::Serialize(psx_anm::EncodeClip(SyntheticClip(skeleton, spec), {}));
        out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
      } else {
        out << "not an animation " << i << "\n";
      }
    }
    return dir;
  }();
  // Removed when the benchmark exits.
  static const struct Cleanup {
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(root, ec);
    }
  } cleanup;
  return root;
}

void BM_BatchConvertSmallFiles(benchmark::State& state) {
  const fs::path& root = Tree();
  BatchConvertJob job;
  job.input_dir = (root / "in").string();
  job.output_dir = (root / "out").string();
  job.to = "glb";
  job.threads = static_cast<unsigned>(state.range(0));
  size_t converted = 0;
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(root / "out");
    state.ResumeTiming();
    const BatchReport report = job.Run();
    converted = report.converted;
    benchmark::DoNotOptimize(report.files.data());
  }
  if (converted != kAnimations) state.SkipWithError("not every animation converted");
  state.counters["files/s"] =
      benchmark::Counter(double(kAnimations + kUnrelated), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_BatchConvertSmallFiles)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
