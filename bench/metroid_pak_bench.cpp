// Metroid PAK listing: a 100 MB PAK of 2,000 members (half zlib, half raw) read and listed as
// `animkit archive list` does. Target: under 50 ms for the whole command (docs/performance.md).
#include <animkit/animkit.hpp>
#include <animkit/formats/metroid_pak.hpp>
#include <animkit/pipeline/archive.hpp>

#include <benchmark/benchmark.h>

namespace animkit {
namespace {

// 2,000 members of 50 KB of incompressible bytes (100 MB in all): even ones zlib-packed (listing
// reads their stated size), odd ones raw; every hundredth carries a name.
const Bytes& HundredMegabytes() {
  static const Bytes bytes = [] {
    std::vector<metroid_pak::BuildMember> members;
    uint32_t x = 1;
    for (uint32_t i = 0; i < 2000; ++i) {
      Bytes data(50'000);
      for (uint8_t& b : data) b = uint8_t((x = x * 1103515245u + 12345u) >> 24);
      members.push_back({{'T', 'X', 'T', 'R'}, 0x10000000u + i, std::move(data),
                         i % 2 == 0 ? metroid_pak::Packing::Zlib : metroid_pak::Packing::Raw,
                         i % 100 == 0 ? std::vector<std::string>{"Texture" + std::to_string(i)} : std::vector<std::string>{}});
    }
    return metroid_pak::Build(members);
  }();
  return bytes;
}

void BM_MetroidPakListHundredMegabytes(benchmark::State& state) {
  const Bytes& pak = HundredMegabytes();
  for (auto _ : state) {
    const LoadedFile loaded = LoadBytes(pak, "Metroid1.pak", "", Options());
    benchmark::DoNotOptimize(MembersValue(loaded));
  }
}
BENCHMARK(BM_MetroidPakListHundredMegabytes)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace animkit
