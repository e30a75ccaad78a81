// CMPL (EDF RAB members) compression and decompression on one core, over MDB-like data: the
// real EDF5 model fixture repeated when it is present, and synthetic EDF6 vertex and index
// buffers (48-byte rigid vertices of a rippled surface: half4 position, normal, binormal,
// tangent, float2 texcoord 0/1; a u16 triangle list).
#include <animkit/formats/edf_rab.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/archive.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <filesystem>

namespace {

using namespace animkit;

uint16_t Half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000;
  const int exponent = int((x >> 23) & 0xFF) - 127 + 15;
  if (exponent <= 0) return uint16_t(sign);
  if (exponent >= 31) return uint16_t(sign | 0x7C00);
  return uint16_t(sign | uint32_t(exponent) << 10 | ((x >> 13) & 0x3FF));
}

const Bytes& SyntheticModel() {
  static const Bytes bytes = [] {
    Bytes out;
    auto put = [&](const void* p, size_t n) {
      const auto* b = static_cast<const uint8_t*>(p);
      out.insert(out.end(), b, b + n);
    };
    const int grid = 256;  // 65536 vertices, ~3 MiB of vertices
    for (int y = 0; y < grid; ++y)
      for (int x = 0; x < grid; ++x) {
        const float u = float(x) / grid, v = float(y) / grid;
        const float h = 0.1f * std::sin(u * 12.0f) * std::cos(v * 9.0f);
        const float nx = -0.1f * 12.0f * std::cos(u * 12.0f) * std::cos(v * 9.0f);
        const float vec[4][4] = {{u * 4 - 2, h, v * 4 - 2, 1}, {nx, 1, 0, 0}, {0, 0, 1, 0}, {1, -nx, 0, 0}};
        for (const auto& e : vec)
          for (float c : e) {
            const uint16_t half = Half(c);
            put(&half, 2);
          }
        const float uv[4] = {u, v, u * 2, v * 2};
        put(uv, sizeof uv);
      }
    for (int y = 0; y + 1 < grid; ++y)
      for (int x = 0; x + 1 < grid; ++x) {
        const uint16_t a = uint16_t(y * grid + x), b = uint16_t(a + 1), c = uint16_t(a + grid), d = uint16_t(c + 1);
        for (uint16_t i : {a, c, b, b, c, d}) put(&i, 2);
      }
    return out;
  }();
  return bytes;
}

const Bytes& RealModel() {
  static const Bytes bytes = [] {
    // ../shared/fixtures beside the checkout (or beside the folder of worktrees).
    const std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
    Bytes one;
    for (const char* up : {"../..", "../../.."}) {
      const std::filesystem::path p = here / up / "shared" / "fixtures" / "edf" / "airtortoise_missile.mdb";
      if (std::filesystem::exists(p)) {
        one = ReadFileBytes(p.string());
        break;
      }
    }
    Bytes out;
    while (!one.empty() && out.size() < (size_t(4) << 20)) out.insert(out.end(), one.begin(), one.end());
    return out;
  }();
  return bytes;
}

void Compress(benchmark::State& state, const Bytes& raw) {
  if (raw.empty()) return state.SkipWithError("no input (the fixture is absent)");
  for (auto _ : state) benchmark::DoNotOptimize(edf_rab::Compress(raw));
  state.SetBytesProcessed(int64_t(state.iterations() * raw.size()));
  state.counters["ratio"] = double(edf_rab::Compress(raw).size()) / double(raw.size());
}

void Decompress(benchmark::State& state, const Bytes& raw) {
  if (raw.empty()) return state.SkipWithError("no input (the fixture is absent)");
  const Bytes stream = edf_rab::Compress(raw);
  for (auto _ : state) benchmark::DoNotOptimize(edf_rab::Decompress(stream));
  state.SetBytesProcessed(int64_t(state.iterations() * raw.size()));  // raw bytes out per second
}

// A 100-member archive of real size (12.5 MB): 33 packed low-resolution textures, 33 packed
// models (the synthetic model buffer's first 64 KiB each), 34 HD textures stored raw; what
// `animkit archive list` does with it: detect, read, list.
const Bytes& HundredMembers() {
  static const Bytes bytes = [] {
    std::vector<edf_rab::BuildMember> m;
    const Bytes& model = SyntheticModel();
    for (int i = 0; i < 33; ++i) m.push_back({"TEXTURE", "t" + std::to_string(i) + ".lod.dds", Bytes(22000, uint8_t(i)), true});
    for (int i = 0; i < 33; ++i)
      m.push_back({"MODEL", "m" + std::to_string(i) + ".mdb", Bytes(model.begin(), model.begin() + 65536), true});
    for (int i = 0; i < 34; ++i) {
      Bytes t(350000);
      for (size_t k = 0; k < t.size(); ++k) t[k] = uint8_t((k * 2654435761u) >> 13);
      m.push_back({"HD-TEXTURE", "t" + std::to_string(i) + ".dds", std::move(t), false});
    }
    return edf_rab::Build(m);
  }();
  return bytes;
}

void BM_RabListHundredMembers(benchmark::State& state) {
  const Bytes& rab = HundredMembers();
  for (auto _ : state) {
    const LoadedFile loaded = LoadBytes(rab, "set.rab", "", Options());
    benchmark::DoNotOptimize(MembersValue(loaded));
  }
}
BENCHMARK(BM_RabListHundredMembers)->Unit(benchmark::kMillisecond);

void BM_CmplCompressSyntheticModel(benchmark::State& state) { Compress(state, SyntheticModel()); }
void BM_CmplDecompressSyntheticModel(benchmark::State& state) { Decompress(state, SyntheticModel()); }
void BM_CmplCompressRealModel(benchmark::State& state) { Compress(state, RealModel()); }
void BM_CmplDecompressRealModel(benchmark::State& state) { Decompress(state, RealModel()); }
BENCHMARK(BM_CmplCompressSyntheticModel)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CmplDecompressSyntheticModel)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CmplCompressRealModel)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CmplDecompressRealModel)->Unit(benchmark::kMillisecond);

}  // namespace
