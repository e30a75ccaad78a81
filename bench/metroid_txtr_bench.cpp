// Metroid Prime TXTR: CMPR decode (the GX 8x8 tiles of four DXT1 blocks) on a 1024x1024
// texture written by the project's encoder, and the encoder itself.
#include <animkit/formats/metroid_txtr.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace animkit;

Image Picture(uint32_t side) {
  Image img;
  img.width = img.height = side;
  img.rgba.resize(size_t{side} * side * 4);
  for (uint32_t y = 0; y < side; ++y)
    for (uint32_t x = 0; x < side; ++x) {
      uint8_t* p = &img.rgba[(size_t{y} * side + x) * 4];
      p[0] = uint8_t(x), p[1] = uint8_t(y), p[2] = uint8_t((x * y) >> 6), p[3] = 255;
    }
  return img;
}

const metroid_txtr::TxtrFile& CmprFile() {
  static const metroid_txtr::TxtrFile file = [] {
    metroid_txtr::EncodeSettings s;
    s.format = uint32_t(metroid_txtr::TexelFormat::CMPR);
    return metroid_txtr::ParseTxtr(metroid_txtr::SerializeTxtr(metroid_txtr::EncodeTxtr(Picture(1024), s)));
  }();
  return file;
}

// Bytes processed: the RGBA written (4 bytes a texel); the input is an eighth of that.
void BM_MetroidTxtrDecodeCmpr(benchmark::State& state) {
  const metroid_txtr::TxtrFile& f = CmprFile();
  for (auto _ : state) benchmark::DoNotOptimize(metroid_txtr::DecodeLevel(f, 0));
  state.SetBytesProcessed(int64_t(state.iterations()) * 1024 * 1024 * 4);
  state.counters["input_bytes/s"] =
      benchmark::Counter(double(f.data.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MetroidTxtrDecodeCmpr)->Unit(benchmark::kMillisecond);

void BM_MetroidTxtrEncodeCmpr(benchmark::State& state) {
  const Image img = Picture(256);
  metroid_txtr::EncodeSettings s;
  s.format = uint32_t(metroid_txtr::TexelFormat::CMPR);
  for (auto _ : state) benchmark::DoNotOptimize(metroid_txtr::EncodeTxtr(img, s));
  state.SetBytesProcessed(int64_t(state.iterations()) * 256 * 256 * 4);
}
BENCHMARK(BM_MetroidTxtrEncodeCmpr)->Unit(benchmark::kMillisecond);

}  // namespace
