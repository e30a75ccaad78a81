// A whole moveset of real size (101 interpolated clips x 229 joints, animkit_make_moveset's
// MovesetSpec), generated once per run by the project's own encoder: decoding it with its
// skeleton (the curves as keys, or one key per frame) and writing its glb, as
// `animkit convert moveset.mset out.glb` does. Counters: the glb's bytes (target <= 15 MB,
// docs/performance.md "Whole movesets") and the decoded keys. "sora" poses the same clips on
// Sora's skeleton from ../shared/fixtures/kh2/P_EX100.mdlx (skipped when absent).
#include <animkit/formats/gltf.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/skeleton.hpp>
#include <synthetic/synthetic_moveset.hpp>

#include <benchmark/benchmark.h>

#include "bench_fixtures.hpp"

#include <filesystem>

namespace {

using namespace animkit;

using bench::FixturePath;

struct Moveset {
  std::string mset, skeleton;  // files in a temporary folder
};

// Writes the moveset (and, on the synthetic skeleton, its model) once per skeleton.
const Moveset* MovesetFor(bool sora) {
  static std::optional<Moveset> made[2];
  std::optional<Moveset>& m = made[sora ? 1 : 0];
  if (m) return &*m;
  const std::string model = sora ? FixturePath("kh2/P_EX100.mdlx") : "";
  if (sora && model.empty()) return nullptr;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / (sora ? "animkit-moveset-sora" : "animkit-moveset");
  std::filesystem::create_directories(dir);
  MovesetSpec spec;
  Skeleton skeleton = sora ? LoadReference(model, Options{}).skeleton : MovesetSkeleton(spec);
  Moveset out{(dir / "moveset.mset").string(), sora ? model : (dir / "moveset.mdlx").string()};
  if (!sora) WriteFileAtomic(out.skeleton, Kh2SkeletonModelBytes(skeleton));
  WriteFileAtomic(out.mset, Kh2MovesetBytes(skeleton, spec));
  m = out;
  return &*m;
}

Scene Decode(const Moveset& m, const char* keys) {
  Options options;
  options.Set("kh2-keys", keys);
  return DecodeWithSkeleton(LoadFile(m.mset, "", options), SkeletonSource::File(m.skeleton), options).scene;
}

// range(0): 1 keys as stored, 0 one key per frame; range(1): 1 also writes the glb.
void BM_Moveset(benchmark::State& state, bool sora) {
  const Moveset* m = MovesetFor(sora);
  if (!m) {
    state.SkipWithError("../shared/fixtures/kh2/P_EX100.mdlx not found beside the checkout");
    return;
  }
  const char* keys = state.range(0) ? "stored" : "frames";
  size_t decoded_keys = 0, bytes = 0, clips = 0;
  for (auto _ : state) {
    const Scene scene = Decode(*m, keys);
    clips = scene.clips.size();
    decoded_keys = 0;
    for (const Clip& c : scene.clips)
      for (const JointTrack& t : c.tracks) decoded_keys += t.translation.size() + t.rotation.size() + t.scale.size();
    if (state.range(1)) {
      bytes = ExportGltf(scene, {.binary = true}).size();
      benchmark::DoNotOptimize(bytes);
    }
  }
  state.counters["clips"] = double(clips);
  state.counters["keys"] = double(decoded_keys);
  state.counters["mset_bytes"] = double(std::filesystem::file_size(m->mset));
  if (state.range(1)) state.counters["glb_bytes"] = double(bytes);
}
BENCHMARK_CAPTURE(BM_Moveset, synthetic, false)
    ->ArgsProduct({{1, 0}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK_CAPTURE(BM_Moveset, sora, true)->ArgsProduct({{1, 0}, {0, 1}})->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
