#include "bench_command.hpp"

#include <animkit/core/format.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <animkit/core/error.hpp>
#include <animkit/runtime/local_to_model_job.hpp>
#include <animkit/runtime/sampling_job.hpp>
#include <animkit/offline/runtime_build.hpp>

#include <animkit/core/value.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

namespace animkit::cli {

namespace {

// CPU time of this thread where the system has it (other processes on a shared machine
// then do not inflate the figures), else a steady wall clock.
double NowNs() {
#if defined(CLOCK_THREAD_CPUTIME_ID)
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
#else
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

struct Timing {
  double ns_per_pose = 0;
  size_t repetitions = 0;
  size_t poses = 0;
};

// Times repetitions of `batch` consecutive poses (walking the pose list round and round)
// until `budget` seconds of measuring have passed (at least 5 repetitions); the median
// repetition gives ns per pose.
template <class Fn>
Timing Measure(Fn&& sample_pose, size_t poses, size_t batch, double budget) {
  std::vector<double> per_pose;
  const double start = NowNs();
  size_t next = 0;
  do {
    const double t0 = NowNs();
    for (size_t i = 0; i < batch; ++i) {
      sample_pose(next);
      next = next + 1 == poses ? 0 : next + 1;
    }
    per_pose.push_back((NowNs() - t0) / static_cast<double>(batch));
  } while (per_pose.size() < 5 || (NowNs() - start) * 1e-9 < budget);
  std::nth_element(per_pose.begin(), per_pose.begin() + static_cast<ptrdiff_t>(per_pose.size() / 2), per_pose.end());
  return {per_pose[per_pose.size() / 2], per_pose.size(), batch};
}

}  // namespace

void AddBenchOptions(CLI::App* bench, BenchOptions& options) {
  bench->add_option("--mode", options.mode, "playback (a cursor moving forward) or random (jumps to random times)")
      ->check(CLI::IsMember({"playback", "random"}));
  bench->add_flag("--l2m", options.l2m, "Headline figures include local-to-model");
  bench->add_option("--seconds", options.seconds, "Measuring time in seconds (all configurations together)")
      ->check(CLI::PositiveNumber);
  bench->add_option("--marker-interval", options.marker_interval, "Seconds between seek markers (0: none)")
      ->check(CLI::NonNegativeNumber);
  bench->add_option("--step", options.step, "Playback: seconds between samples")->check(CLI::PositiveNumber);
}

int RunBench(const Scene& scene, const Scene* reference, const std::string& clip_name, const std::string& file,
             const BenchOptions& options) {
  if (clip_name.empty() && scene.clips.empty()) throw Error::General("no clip to time").InFile(file);
  const Clip* clip = clip_name.empty() ? &scene.clips.front() : &RequireClip(scene, clip_name, file);
  const Skeleton& rest = RestSkeleton(scene, reference);
  const Skeleton skeleton = !rest.empty() ? rest : FlatSkeleton(*clip);

  RuntimeBuildOptions build;
  build.marker_interval = static_cast<float>(options.marker_interval);
  const runtime::Animation animation = BuildRuntimeAnimation(*clip, skeleton, build);
  const runtime::Skeleton rt_skeleton = BuildRuntimeSkeleton(skeleton);
  size_t source_keys = 0;
  for (const JointTrack& t : clip->tracks) source_keys += t.translation.size() + t.rotation.size() + t.scale.size();

  runtime::SamplingContext context(animation.num_tracks);
  std::vector<runtime::SoaTransform> locals(static_cast<size_t>(animation.num_soa_tracks()));
  std::vector<runtime::Float4x4> models(static_cast<size_t>(animation.num_tracks));
  runtime::SamplingJob sampling{&animation, &context, 0, locals};
  runtime::LocalToModelJob l2m{&rt_skeleton, nullptr, locals, models, 0, -1};

  const bool random = options.mode == "random";
  const double duration = std::max(static_cast<double>(animation.duration), 1e-6);
  // Times to sample: playback walks the clip at a fixed step (wrapping at the end); random
  // draws uniform times from a fixed-seed generator.
  const size_t poses = random ? 4096 : static_cast<size_t>(std::max(1.0, std::ceil(duration / options.step)));
  std::vector<float> times(poses);
  uint32_t state = 12345;
  for (size_t i = 0; i < poses; ++i) {
    if (random) {
      state = state * 1664525u + 1013904223u;
      times[i] = static_cast<float>(duration * (static_cast<double>(state >> 8) / 16777216.0));
    } else {
      times[i] = static_cast<float>(std::fmod(static_cast<double>(i) * options.step, duration));
    }
  }
  bool ok = true;
  auto sample_only = [&](size_t i) {
    sampling.time = times[i];
    ok &= sampling.Run();
  };
  auto sample_and_l2m = [&](size_t i) {
    sampling.time = times[i];
    ok &= sampling.Run();
    ok &= l2m.Run();
  };
  // Warm up (one pass over the poses), then time each configuration for half the budget
  // in repetitions of about a millisecond.
  const double w0 = NowNs();
  for (size_t i = 0; i < poses; ++i) sample_and_l2m(i);
  const double warm_ns = std::max(1.0, (NowNs() - w0) / static_cast<double>(poses));
  const size_t batch = std::clamp<size_t>(static_cast<size_t>(1e6 / warm_ns), 1, poses);
  const Timing plain = Measure(sample_only, poses, batch, options.seconds / 2);
  const Timing with_l2m = Measure(sample_and_l2m, poses, batch, options.seconds / 2);
  if (!ok) throw Error::General("the runtime rejected the built animation").InFile(file);

  const double joints = std::max(1, animation.num_tracks);
  auto figures = [&](const Timing& t) {
    return Value{{"ns_per_pose", t.ns_per_pose},
                 {"ns_per_joint", t.ns_per_pose / joints},
                 {"repetitions", t.repetitions},
                 {"poses_per_repetition", t.poses}};
  };
  const Timing& headline = options.l2m ? with_l2m : plain;
  Value out = {{"file", file},
               {"clip", clip->name},
               {"mode", options.mode},
               {"l2m", options.l2m},
               {"joints", animation.num_tracks},
               {"keys", animation.num_keys()},
               {"source_keys", source_keys},
               {"runtime_bytes", animation.SizeBytes()},
               {"bytes_per_key", static_cast<double>(animation.SizeBytes()) /
                                              static_cast<double>(std::max<size_t>(1, animation.num_keys()))},
               {"marker_interval", options.marker_interval},
               {"duration", animation.duration},
               {"ns_per_pose", headline.ns_per_pose},
               {"ns_per_joint", headline.ns_per_pose / joints},
               {"sample", figures(plain)},
               {"sample_l2m", figures(with_l2m)},
               {"statistic", "median of repetitions"},
#if defined(CLOCK_THREAD_CPUTIME_ID)
               {"clock", "thread CPU time"}};
#else
                        {"clock", "steady wall clock"}};
#endif
  if (!random) out["step"] = options.step;
  std::printf("%s\n", DumpJson(out, 2).c_str());
  return 0;
}

}  // namespace animkit::cli
