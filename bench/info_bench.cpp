// `animkit info --json` of a real-size KH2 moveset (101 clips x 229 joints, written by the
// project's own encoder): the time to build the document and its size, as the default
// summary and as --full. The summary's bound is 1 MB (docs/performance.md).
#include <animkit/animkit.hpp>
#include <synthetic/synthetic_moveset.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace animkit;

// The moveset, loaded once per process (encoding it takes about a second).
const LoadedFile& Moveset() {
  static const Bytes bytes = [] {
    const MovesetSpec spec;
    return Kh2MovesetBytes(MovesetSkeleton(spec), spec);
  }();
  static const LoadedFile loaded = LoadBytes(bytes, "moveset.mset", "", Options{});
  return loaded;
}

void BM_InfoJsonOfMoveset(benchmark::State& state) {
  const LoadedFile& loaded = Moveset();
  InfoRequest request;
  request.skeleton = SkeletonSource::None();
  request.detail = state.range(0) != 0 ? InfoDetail::Full : InfoDetail::Summary;
  size_t bytes = 0;
  for (auto _ : state) {
    const std::string json = InfoJson(loaded, request);
    bytes = json.size();
    benchmark::DoNotOptimize(json.data());
  }
  state.SetLabel(state.range(0) != 0 ? "--full" : "summary");
  state.counters["json_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_InfoJsonOfMoveset)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
