// PS1 ANM parse and decode throughput on a large synthetic file.
#include <animkit/formats/psx_anm.hpp>
#include <animkit/offline/sampling.hpp>

#include <benchmark/benchmark.h>

#include <cmath>

namespace {

using namespace animkit;

Bytes LargeFile() {
  psx_anm::File f;
  f.unknown = 60;
  f.frames.resize(400);  // 128 KB: near the 16-bit offset table's limit
  for (size_t i = 0; i < f.frames.size(); ++i) {
    for (uint8_t o = 0; o < 16; ++o) {
      psx_anm::Keyframe k;
      k.object = o;
      k.flags = 7;
      k.rotation = {int16_t(i * 7 + o), int16_t(i * 3), int16_t(o * 100)};
      k.scale = {4096, 4096, int16_t(4096 + o)};
      k.position = {int16_t(i), int16_t(-o), int16_t(i + o)};
      f.frames[i].keyframes.push_back(k);
    }
  }
  return psx_anm::Serialize(f);
}

void BM_PsxAnmParse(benchmark::State& state) {
  const Bytes data = LargeFile();
  for (auto _ : state) benchmark::DoNotOptimize(psx_anm::Parse(data));
  state.SetBytesProcessed(int64_t(state.iterations() * data.size()));
}
BENCHMARK(BM_PsxAnmParse);

void BM_PsxAnmDecode(benchmark::State& state) {
  const psx_anm::File file = psx_anm::Parse(LargeFile());
  size_t keyframes = 0;
  for (const auto& f : file.frames) keyframes += f.keyframes.size();
  for (auto _ : state) benchmark::DoNotOptimize(psx_anm::DecodeClip(file, {}));
  state.counters["keyframes/s"] = benchmark::Counter(double(keyframes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_PsxAnmDecode);

}  // namespace
