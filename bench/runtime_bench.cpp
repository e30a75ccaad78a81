// Playback runtime: sampling (playback and random access) and local-to-model over the
// project's own synthetic clips: 64, 128 and 256 joints, 30 fps, 10 s, a LINEAR
// translation, rotation and scale key on every frame of every joint.
// Figures are per pose; the ns_per_joint counter divides by the joint count.
#include <animkit/runtime/local_to_model_job.hpp>
#include <animkit/runtime/sampling_job.hpp>
#include <animkit/offline/runtime_build.hpp>
#include <synthetic/synthetic.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <vector>

namespace {

using namespace animkit;

struct Fixture {
  Skeleton skeleton;
  Clip clip;
  runtime::Animation animation;
  runtime::Skeleton rt_skeleton;
};

// Built once per (joints, marker interval).
const Fixture& Get(int joints, float marker_interval) {
  static std::map<std::pair<int, float>, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[{joints, marker_interval}];
  if (!slot) {
    slot = std::make_unique<Fixture>();
    SyntheticSpec spec{.joints = joints, .frames = 301, .frame_rate = 30, .name = "bench"};  // 10 s at 30 fps
    slot->skeleton = SyntheticSkeleton(spec);
    slot->clip = SyntheticClip(slot->skeleton, spec);
    RuntimeBuildOptions options;
    options.marker_interval = marker_interval;
    slot->animation = BuildRuntimeAnimation(slot->clip, slot->skeleton, options);
    slot->rt_skeleton = BuildRuntimeSkeleton(slot->skeleton);
  }
  return *slot;
}

void Counters(benchmark::State& state, const Fixture& f) {
  const double joints = f.animation.num_tracks;
  state.counters["ns_per_joint"] =
      benchmark::Counter(joints * static_cast<double>(state.iterations()) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes_per_key"] =
      static_cast<double>(f.animation.SizeBytes()) / static_cast<double>(f.animation.num_keys());
}

// Playback at 60 samples per second over the 30 fps clip, looping.
template <bool kL2m>
void BM_RuntimePlayback(benchmark::State& state) {
  const Fixture& f = Get(static_cast<int>(state.range(0)), 1.0f);
  runtime::SamplingContext context(f.animation.num_tracks);
  std::vector<runtime::SoaTransform> locals(static_cast<size_t>(f.animation.num_soa_tracks()));
  std::vector<runtime::Float4x4> models(static_cast<size_t>(f.animation.num_tracks));
  runtime::SamplingJob sampling{&f.animation, &context, 0, locals};
  runtime::LocalToModelJob l2m{&f.rt_skeleton, nullptr, locals, models, 0, -1};
  const float step = 1.0f / 60, duration = f.animation.duration;
  float time = 0;
  for (auto _ : state) {
    sampling.time = time;
    if (!sampling.Run()) state.SkipWithError("sampling failed");
    if constexpr (kL2m) l2m.Run();
    benchmark::DoNotOptimize(locals.data());
    benchmark::DoNotOptimize(models.data());
    time += step;
    if (time > duration) time -= duration;
  }
  Counters(state, f);
}

// Random access: every sample at a new uniform random time.
template <bool kL2m>
void BM_RuntimeRandom(benchmark::State& state) {
  const float interval = static_cast<float>(state.range(1)) / 1000.0f;
  const Fixture& f = Get(static_cast<int>(state.range(0)), interval);
  runtime::SamplingContext context(f.animation.num_tracks);
  std::vector<runtime::SoaTransform> locals(static_cast<size_t>(f.animation.num_soa_tracks()));
  std::vector<runtime::Float4x4> models(static_cast<size_t>(f.animation.num_tracks));
  runtime::SamplingJob sampling{&f.animation, &context, 0, locals};
  runtime::LocalToModelJob l2m{&f.rt_skeleton, nullptr, locals, models, 0, -1};
  std::vector<float> times(4096);
  uint32_t rng = 7;
  for (float& t : times) {
    rng = rng * 1664525u + 1013904223u;
    t = f.animation.duration * static_cast<float>(rng >> 8) / 16777216.0f;
  }
  size_t i = 0;
  for (auto _ : state) {
    sampling.time = times[i++ & 4095];
    if (!sampling.Run()) state.SkipWithError("sampling failed");
    if constexpr (kL2m) l2m.Run();
    benchmark::DoNotOptimize(locals.data());
    benchmark::DoNotOptimize(models.data());
  }
  Counters(state, f);
  state.counters["marker_interval_s"] = interval;
}

void BM_RuntimeLocalToModel(benchmark::State& state) {
  const Fixture& f = Get(static_cast<int>(state.range(0)), 1.0f);
  runtime::SamplingContext context(f.animation.num_tracks);
  std::vector<runtime::SoaTransform> locals(static_cast<size_t>(f.animation.num_soa_tracks()));
  std::vector<runtime::Float4x4> models(static_cast<size_t>(f.animation.num_tracks));
  runtime::SamplingJob{&f.animation, &context, 1.234f, locals}.Run();
  runtime::LocalToModelJob l2m{&f.rt_skeleton, nullptr, locals, models, 0, -1};
  for (auto _ : state) {
    l2m.Run();
    benchmark::DoNotOptimize(models.data());
  }
  Counters(state, f);
}

void BM_RuntimeBuild(benchmark::State& state) {
  const Fixture& f = Get(static_cast<int>(state.range(0)), 1.0f);
  for (auto _ : state) benchmark::DoNotOptimize(BuildRuntimeAnimation(f.clip, f.skeleton));
}

void Joints(benchmark::internal::Benchmark* b) {
  b->Arg(64)->Arg(128)->Arg(256)->Repetitions(5)->DisplayAggregatesOnly(true);
}
void JointsAndMarkers(benchmark::internal::Benchmark* b) {
  for (int joints : {64, 128, 256}) {
    for (int ms : {250, 1000}) b->Args({joints, ms});
  }
  b->Repetitions(5)->DisplayAggregatesOnly(true);
}

BENCHMARK(BM_RuntimePlayback<false>)->Name("BM_RuntimePlayback")->Apply(Joints);
BENCHMARK(BM_RuntimePlayback<true>)->Name("BM_RuntimePlaybackL2M")->Apply(Joints);
BENCHMARK(BM_RuntimeRandom<false>)->Name("BM_RuntimeRandom")->Apply(JointsAndMarkers);
BENCHMARK(BM_RuntimeRandom<true>)->Name("BM_RuntimeRandomL2M")->Apply(JointsAndMarkers);
BENCHMARK(BM_RuntimeLocalToModel)->Apply(Joints);
BENCHMARK(BM_RuntimeBuild)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace
