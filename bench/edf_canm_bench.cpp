// EDF CANM parse and decode throughput on a large synthetic file.
#include <animkit/formats/edf_canm.hpp>
#include <synthetic/synthetic.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace animkit;

const Bytes& LargeFile() {
  static const Bytes bytes = [] {
    SyntheticSpec spec;
    spec.joints = 48;
    spec.frames = 600;
    spec.frame_rate = 30;
    const Skeleton skeleton = SyntheticSkeleton(spec);
    std::vector<Clip> clips;
    for (unsigned i = 0; i < 4; ++i) {
      spec.seed = i + 1;
      spec.name = "clip_" + std::to_string(i);
      clips.push_back(SyntheticClip(skeleton, spec));
    }
    return edf_canm::Serialize(edf_canm::EncodeClips(clips, {}));
  }();
  return bytes;
}

size_t StoredKeys(const edf_canm::File& f) {
  size_t keys = 0;
  for (const auto& c : f.channels) keys += std::max<size_t>(c.keys.size() + c.quats.size(), 1);
  return keys;
}

void BM_EdfCanmParse(benchmark::State& state) {
  const Bytes& data = LargeFile();
  for (auto _ : state) benchmark::DoNotOptimize(edf_canm::Parse(data));
  state.SetBytesProcessed(int64_t(state.iterations() * data.size()));
  state.counters["keys/s"] = benchmark::Counter(double(StoredKeys(edf_canm::Parse(data))),
                                                benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EdfCanmParse);

// Parse + decode to clips: what `animkit sample`/`convert` pay per file.
void BM_EdfCanmDecode(benchmark::State& state) {
  const Bytes& data = LargeFile();
  const size_t keys = StoredKeys(edf_canm::Parse(data));
  for (auto _ : state) benchmark::DoNotOptimize(edf_canm::DecodeClips(edf_canm::Parse(data), {}));
  state.SetBytesProcessed(int64_t(state.iterations() * data.size()));
  state.counters["keys/s"] = benchmark::Counter(double(keys), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["file_bytes"] = double(data.size());
}
BENCHMARK(BM_EdfCanmDecode);

}  // namespace
