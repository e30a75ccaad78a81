// Metroid Prime ANIM version 2: bitstream unpacking and full decode on a large synthetic clip.
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/offline/sampling.hpp>
#include <synthetic/synthetic.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace animkit;

// 64 bones, 2000 frames at 60 fps, every frame keyed (tolerance 0), root translated.
const metroid::AnimV2& LargeClip() {
  static const metroid::AnimV2 anim = [] {
    SyntheticSpec spec{.joints = 64, .frames = 2000, .frame_rate = 60, .animate_scale = false};
    const Skeleton skeleton = SyntheticSkeleton(spec);
    Clip clip = SyntheticClip(skeleton, spec);
    for (size_t t = 1; t < clip.tracks.size(); ++t) clip.tracks[t].translation = {};
    metroid::EncodeSettings s;
    s.max_error_rot = 0;
    s.max_error_pos = 0;
    return metroid::ParseAnim(metroid::SerializeAnim(metroid::EncodeAnim(clip, s))).v2;
  }();
  return anim;
}

void BM_MetroidAnimUnpackV2(benchmark::State& state) {
  const metroid::AnimV2& a = LargeClip();
  for (auto _ : state) benchmark::DoNotOptimize(metroid::UnpackV2(a));
  state.counters["components/s"] =
      benchmark::Counter(double(metroid::KeyComponents(a)), benchmark::Counter::kIsIterationInvariantRate);
  state.SetBytesProcessed(int64_t(state.iterations() * a.bitstream.size()));
}
BENCHMARK(BM_MetroidAnimUnpackV2)->Unit(benchmark::kMillisecond);

void BM_MetroidAnimDecodeClipV2(benchmark::State& state) {
  metroid::AnimFile f;
  f.v2 = LargeClip();
  for (auto _ : state) benchmark::DoNotOptimize(metroid::DecodeAnim(f, {}));
  state.counters["components/s"] =
      benchmark::Counter(double(metroid::KeyComponents(f.v2)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MetroidAnimDecodeClipV2)->Unit(benchmark::kMillisecond);

}  // namespace
