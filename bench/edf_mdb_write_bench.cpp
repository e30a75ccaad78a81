// Writing EDF MDB models on one core (docs/performance.md): a new EDF 6 model of one skinned
// 65536-vertex mesh (the most one mesh holds), the same written into itself as template with
// every vertex moved (rebuilt in its layout) and unedited (kept), and the real EDF5 fixture
// unedited into itself when it is present.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/io/io.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace {

using namespace animkit;

// A rippled 256 x 256 grid skinned to a chain of 64 bones.
const Scene& BigScene() {
  static const Scene scene = [] {
    Scene s;
    for (int b = 0; b < 64; ++b) {
      Joint j{"bone" + std::to_string(b), b - 1, {}};
      if (b) j.rest.translation = {0, 0, 4.0f / 64};
      s.skeleton.joints.push_back(j);
    }
    Mesh m;
    m.name = "grid";
    const int grid = 256;
    for (int y = 0; y < grid; ++y)
      for (int x = 0; x < grid; ++x) {
        const float u = float(x) / grid, v = float(y) / grid;
        m.positions.push_back({u * 4 - 2, 0.1f * std::sin(u * 12) * std::cos(v * 9), v * 4});
        m.normals.push_back({0, 1, 0});
        m.uvs.push_back({u, v});
        const uint16_t b = uint16_t(std::min(63, int(v * 64)));
        m.joints.push_back({b, uint16_t(std::min(63, b + 1)), 0, 0});
        m.weights.push_back({0.75f, 0.25f, 0, 0});
      }
    for (int y = 0; y + 1 < grid; ++y)
      for (int x = 0; x + 1 < grid; ++x) {
        const uint32_t a = uint32_t(y * grid + x), b = a + 1, c = a + grid, d = c + 1;
        for (uint32_t i : {a, c, b, b, c, d}) m.triangles.push_back(i);
      }
    m.material = 0;
    s.meshes.push_back(std::move(m));
    s.materials.push_back(Material{.name = "skin"});
    return s;
  }();
  return scene;
}

const edf_mdb::File& BigTemplate() {
  static const edf_mdb::File f = [] {
    edf_mdb::WriteOptions options;
    options.version = edf_mdb::kVersionEdf6;
    return edf_mdb::Parse(edf_mdb::WriteModel(BigScene(), options).mdb);
  }();
  return f;
}

// The template decoded, as a modder's scene read back from glTF would be.
Scene Decoded(const edf_mdb::File& f) {
  Scene s;
  s.skeleton = edf_mdb::DecodeSkeleton(f);
  std::vector<std::string> damaged;
  edf_mdb::DecodeModel(f, edf_mdb::ParseModel(f), {}, s, damaged);
  return s;
}

void NewModel(benchmark::State& state) {
  edf_mdb::WriteOptions options;
  options.version = edf_mdb::kVersionEdf6;
  for (auto _ : state) benchmark::DoNotOptimize(edf_mdb::WriteModel(BigScene(), options).mdb.size());
}
BENCHMARK(NewModel)->Unit(benchmark::kMillisecond);

void TemplateEveryVertexMoved(benchmark::State& state) {
  Scene s = Decoded(BigTemplate());
  for (Vec3& p : s.meshes[0].positions) p.y += 0.5f;
  for (auto _ : state) benchmark::DoNotOptimize(edf_mdb::WriteModel(s, BigTemplate(), {}).mdb.size());
}
BENCHMARK(TemplateEveryVertexMoved)->Unit(benchmark::kMillisecond);

void TemplateUnedited(benchmark::State& state) {
  const Scene s = Decoded(BigTemplate());
  for (auto _ : state) benchmark::DoNotOptimize(edf_mdb::WriteModel(s, BigTemplate(), {}).mdb.size());
}
BENCHMARK(TemplateUnedited)->Unit(benchmark::kMillisecond);

void RealFixtureUnedited(benchmark::State& state) {
  const std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
  std::string path;
  for (const char* up : {"../..", "../../.."}) {
    const auto p = here / up / "shared" / "fixtures" / "edf" / "airtortoise_missile.mdb";
    if (std::filesystem::exists(p)) path = p.string();
  }
  if (path.empty()) {
    state.SkipWithError("../shared/fixtures/edf/airtortoise_missile.mdb is absent");
    return;
  }
  const edf_mdb::File f = edf_mdb::Parse(ReadFileBytes(path));
  const Scene s = Decoded(f);
  for (auto _ : state) benchmark::DoNotOptimize(edf_mdb::WriteModel(s, f, {}).mdb.size());
}
BENCHMARK(RealFixtureUnedited)->Unit(benchmark::kMillisecond);

}  // namespace
