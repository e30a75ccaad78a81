// KH2 interpolated curve evaluation on the real interpolated.motion (../shared/fixtures beside
// the checkout): joints sampled per second, every channel of every bone from its curves.
#include <animkit/formats/kh2.hpp>
#include <animkit/io.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

using namespace animkit;

std::string FixtureFile() {
  const std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
  const std::filesystem::path p = here / ".." / ".." / "shared" / "fixtures" / "kh2" / "interpolated.motion";
  return std::filesystem::exists(p) ? p.string() : std::string();
}

void BM_Kh2InterpolatedPose(benchmark::State& state) {
  const std::string path = FixtureFile();
  if (path.empty()) {
    state.SkipWithError("fixture kh2/interpolated.motion not found beside the checkout");
    return;
  }
  const kh2::Motion m = kh2::ParseMotion(ReadFileBytes(path));
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
  const std::string path = FixtureFile();
  if (path.empty()) {
    state.SkipWithError("fixture kh2/interpolated.motion not found beside the checkout");
    return;
  }
  const kh2::Motion m = kh2::ParseMotion(ReadFileBytes(path));
  for (auto _ : state) benchmark::DoNotOptimize(kh2::DecodeMotion(m, {}, {}, {}));
  state.SetItemsProcessed(int64_t(state.iterations()) * 151 * m.interpolated.total_bone_count);
}
BENCHMARK(BM_Kh2InterpolatedDecodeClip);

void BM_Kh2ParseInterpolated(benchmark::State& state) {
  const std::string path = FixtureFile();
  if (path.empty()) {
    state.SkipWithError("fixture kh2/interpolated.motion not found beside the checkout");
    return;
  }
  const Bytes data = ReadFileBytes(path);
  for (auto _ : state) benchmark::DoNotOptimize(kh2::ParseMotion(data));
  state.SetBytesProcessed(int64_t(state.iterations() * data.size()));
}
BENCHMARK(BM_Kh2ParseInterpolated);

}  // namespace
