// Models with meshes: decoding a real model (read, parse, decode skeleton, meshes,
// materials, textures) and writing its glb, as `animkit convert MODEL out.glb` does. Real
// files from ../shared/fixtures beside the checkout (skipped when absent): Sora's
// P_EX100.mdlx and an EDF5 MDB. The budget (issue of record: docs/performance.md) is 0.5 s
// for Sora's decode and glb together.
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <benchmark/benchmark.h>

#include "bench_fixtures.hpp"

#include <filesystem>

namespace {

using namespace animkit;

using bench::FixturePath;

Scene Decode(const std::string& path) {
  return DecodeWithSkeleton(LoadFile(path, "", {}), SkeletonSource::None(), {}).scene;
}

// range(0): 0 decode only, 1 decode and write the glb.
void BM_RealModel(benchmark::State& state, const char* relative) {
  const std::string path = FixturePath(relative);
  if (path.empty()) {
    state.SkipWithError("fixture not found beside the checkout");
    return;
  }
  size_t vertices = 0, bytes = 0;
  for (auto _ : state) {
    const Scene scene = Decode(path);
    vertices = 0;
    for (const Mesh& m : scene.meshes) vertices += m.positions.size();
    if (state.range(0)) {
      bytes = ExportGltf(scene, {.binary = true}).size();
      benchmark::DoNotOptimize(bytes);
    }
  }
  state.counters["vertices"] = double(vertices);
  state.counters["glb_bytes"] = double(bytes);
}
BENCHMARK_CAPTURE(BM_RealModel, sora_mdlx, "kh2/P_EX100.mdlx")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RealModel, edf5_mdb, "edf/airtortoise_missile.mdb")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Writing Sora's model entry from its decoded meshes with every group rebuilt as VIF
// packets (strips, packet splits, weight groups), as an edit of every vertex does; the
// budget is 1 s (docs/performance.md, "KH2 model writing").
void BM_Kh2ModelWrite(benchmark::State& state) {
  const std::string path = FixturePath("kh2/P_EX100.mdlx");
  if (path.empty()) {
    state.SkipWithError("fixture not found beside the checkout");
    return;
  }
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(path));
  const kh2::Model* model = nullptr;
  for (const kh2::BarEntry& e : bar.entries)
    if (e.type == kh2::kEntryModel && e.model) model = e.model.get();
  std::vector<Mesh> meshes;
  for (Mesh& m : kh2::DecodeModelMeshes(*model, kh2::SkeletonFromModel(*model)).meshes)
    if (m.metadata["model_role"] == "object") meshes.push_back(std::move(m));
  kh2::ModelWriteSettings all;
  all.rebuild_all = true;
  size_t packets = 0, bytes = 0;
  for (auto _ : state) {
    kh2::ModelWriteReport report;
    bytes = kh2::WriteModelEntry(*model, meshes, all, &report).size();
    packets = report.packets;
  }
  state.counters["packets"] = double(packets);
  state.counters["entry_bytes"] = double(bytes);
}
BENCHMARK(BM_Kh2ModelWrite)->Unit(benchmark::kMillisecond);

}  // namespace
