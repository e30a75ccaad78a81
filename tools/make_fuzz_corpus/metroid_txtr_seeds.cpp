// TXTR seeds, written by its encoder: one small picture in every texel format (the paletted
// ones in every palette format), with and without mips, a side that is no multiple of the
// tile, padding; and the same picture as a PNG for the PNG reader.
#include <animkit/formats/metroid_txtr.hpp>

#include "corpus.hpp"

#include <utility>

namespace animkit {
extern const FormatDescriptor kPngFormat;
namespace fuzz_corpus {
namespace {

Image SeedPicture(uint32_t width, uint32_t height) {
  Image img;
  img.width = width, img.height = height;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      img.rgba.insert(img.rgba.end(), {uint8_t(x * 32), uint8_t(y * 32), uint8_t((x ^ y) * 16), uint8_t(x < 2 ? 128 : 255)});
  return img;
}

void AddTxtrSeeds(Corpus& corpus) {
  using namespace metroid_txtr;
  for (uint32_t format = 0; format < kFormatCount; ++format) {
    const FormatTraits& t = Traits(format);
    for (uint32_t palette_format = 0; palette_format < (t.paletted ? kPaletteFormatCount : 1); ++palette_format) {
      EncodeSettings s;
      s.format = format, s.palette.format = palette_format;
      const std::string name = std::string(t.name) + (t.paletted ? "-" + std::string(PaletteFormatName(palette_format)) : "");
      corpus.Add("metroid_txtr", name + ".txtr", SerializeTxtr(EncodeTxtr(SeedPicture(8, 8), s)));
      if (palette_format) continue;
      s.mip_count = 4, s.pad_to = 32;
      corpus.Add("metroid_txtr", name + "-mips.txtr", SerializeTxtr(EncodeTxtr(SeedPicture(16, 8), s)));
      s.mip_count = 1, s.pad_to = 0;
      corpus.Add("metroid_txtr", name + "-6x5.txtr", SerializeTxtr(EncodeTxtr(SeedPicture(6, 5), s)));
    }
  }
  for (auto [w, h] : {std::pair{8u, 8u}, {1u, 1u}, {6u, 5u}, {64u, 4u}}) {
    Scene scene;
    scene.textures.push_back(SeedPicture(w, h));
    EncodeContext context;
    corpus.Add("png", std::to_string(w) + "x" + std::to_string(h) + ".png", kPngFormat.encode(scene, context)->Write());
  }
}

}  // namespace

const FormatSeeds kMetroidTxtrSeeds{{}, AddTxtrSeeds};

}  // namespace fuzz_corpus
}  // namespace animkit
