// KH2 interpolated curve evaluation on the real interpolated.motion (../shared/fixtures beside
// the checkout): joints sampled per second, every channel of every bone from its curves.
#include <animkit/formats/kh2.hpp>
#include <animkit/io/io.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <optional>

namespace {

using namespace animkit;

// The real motion, parsed; nullopt (the benchmark skipped) when the fixture is absent.
std::optional<kh2::Motion> FixtureMotion(benchmark::State& state) {
  const std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
  const std::filesystem::path p = here / ".." / ".." / "shared" / "fixtures" / "kh2" / "interpolated.motion";
  if (!std::filesystem::exists(p)) {
    state.SkipWithError("fixture kh2/interpolated.motion not found beside the checkout");
    return std::nullopt;
  }
  return kh2::ParseMotion(ReadFileBytes(p.string()));
}

void BM_Kh2InterpolatedPose(benchmark::State& state) {
  const std::optional<kh2::Motion> fixture = FixtureMotion(state);
  if (!fixture) return;
  const kh2::Motion& m = *fixture;
  const kh2::InterpolatedMotion& im = m.interpolated;
  std::vector<kh2::ChannelValues> rest, pose;
  float t = 0;
  for (auto _ : state) {
    kh2::EvaluatePose(im, t, rest, pose);
    benchmark::DoNotOptimize(pose.data());
    t += 1.0f;
    if (t > 300) t = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * im.total_bone_count);
  state.counters["joints"] = im.total_bone_count;
}
BENCHMARK(BM_Kh2InterpolatedPose);

void BM_Kh2InterpolatedDecodeClip(benchmark::State& state) {
  const std::optional<kh2::Motion> fixture = FixtureMotion(state);
  if (!fixture) return;
  const kh2::Motion& m = *fixture;
  for (auto _ : state) benchmark::DoNotOptimize(kh2::DecodeMotion(m, {}, {}, {}));
  state.SetItemsProcessed(int64_t(state.iterations()) * 151 * m.interpolated.total_bone_count);
}
BENCHMARK(BM_Kh2InterpolatedDecodeClip);

void BM_Kh2ParseInterpolated(benchmark::State& state) {
  const std::optional<kh2::Motion> fixture = FixtureMotion(state);
  if (!fixture) return;
  const Bytes data = kh2::SerializeMotion(*fixture);  // the file's bytes: a motion writes back as read
  for (auto _ : state) benchmark::DoNotOptimize(kh2::ParseMotion(data));
  state.SetBytesProcessed(int64_t(state.iterations() * data.size()));
}
BENCHMARK(BM_Kh2ParseInterpolated);


// The hermite key fitting: the real clip decoded to per-frame poses and encoded again with
// the default tolerance. Counters: keys per second of animation (input: the game's file,
// output: the fit), their ratio, and the largest error at any frame of any joint.
void BM_Kh2FitKeys(benchmark::State& state) {
  const std::optional<kh2::Motion> fixture = FixtureMotion(state);
  if (!fixture) return;
  const kh2::Motion& m = *fixture;
  const Clip clip = kh2::DecodeMotion(m, {}, {}, {});
  kh2::Motion encoded;
  for (auto _ : state) {
    encoded = kh2::EncodeMotion(clip, {}, {});
    benchmark::DoNotOptimize(encoded.interpolated.keys.data());
  }
  const kh2::InterpolatedMotion& a = m.interpolated;
  const kh2::InterpolatedMotion& b = encoded.interpolated;
  double rotation = 0, translation = 0;
  std::vector<kh2::ChannelValues> pa, pb, rest(size_t(a.bone_count), kh2::ChannelValues{1, 1, 1, 0, 0, 0, 0, 0, 0});
  for (const kh2::BoneRecord& h : a.ik_helpers) rest.push_back(kh2::ChannelsFromBone(h));
  for (size_t f = 0; f < clip.frame_count; ++f) {
    const float t = static_cast<float>(double(f) * 60 / a.fps);
    kh2::EvaluatePose(a, t, rest, pa);
    kh2::EvaluatePose(b, t, {}, pb);
    for (size_t j = 0; j < pa.size(); ++j) {
      const TransformTRS x = kh2::TransformFromChannels(pa[j]), y = kh2::TransformFromChannels(pb[j]);
      rotation = std::max(rotation, kh2::RotationDifference(x.rotation, y.rotation));
      for (int c : {0, 1, 2, 6, 7, 8})
        translation = std::max(translation, std::abs(double(pa[j][size_t(c)]) - pb[j][size_t(c)]) /
                                                std::max(1.0, std::abs(double(pa[j][size_t(c)]))));
    }
  }
  const double seconds = clip.duration;
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(clip.frame_count) * a.total_bone_count);
  state.counters["keys_in"] = double(a.keys.size());
  state.counters["keys_out"] = double(b.keys.size());
  state.counters["keys_per_s_in"] = double(a.keys.size()) / seconds;
  state.counters["keys_per_s_out"] = double(b.keys.size()) / seconds;
  state.counters["ratio"] = double(b.keys.size()) / double(a.keys.size());
  state.counters["max_rot_err"] = rotation;
  state.counters["max_rel_err"] = translation;
}
BENCHMARK(BM_Kh2FitKeys)->Unit(benchmark::kMillisecond);

}  // namespace
