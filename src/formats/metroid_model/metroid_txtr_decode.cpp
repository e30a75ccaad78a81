// TXTR texels to RGBA: GX tiles row-major over the level, texels row-major inside a tile;
// channels widened by bit replication; CMPR's 8x8 tiles of four DXT1 blocks with the GX
// 3/8 blend (docs/formats/metroid_txtr.md).
#include <animkit/formats/metroid_txtr.hpp>

#include "metroid_txtr_texels.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace animkit::metroid_txtr {

namespace {

using namespace texels;

std::vector<Rgba> PaletteColours(const TxtrFile& file) {
  std::vector<Rgba> out(file.palette.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = FromPaletteEntry(file.palette_header.format, file.palette[i]);
  return out;
}

void Put(uint8_t* out, const Rgba& c) { std::memcpy(out, c.data(), 4); }
void PutGrey(uint8_t* out, uint8_t i, uint8_t a) { out[0] = out[1] = out[2] = i, out[3] = a; }

// One DXT1 block (GX byte order) into the 4x4 corner of an 8-texel-wide tile at out.
void DecodeCmprBlock(const uint8_t* src, uint8_t* out) {
  const uint16_t c0 = be::Load16(src), c1 = be::Load16(src + 2);
  Rgba colours[4] = {FromRgb565(c0), FromRgb565(c1), {}, {}};
  for (int ch = 0; ch < 3; ++ch) {
    const uint32_t a = colours[0][ch], b = colours[1][ch];
    if (c0 > c1) {
      colours[2][ch] = static_cast<uint8_t>((5 * a + 3 * b) >> 3);
      colours[3][ch] = static_cast<uint8_t>((3 * a + 5 * b) >> 3);
    } else {
      colours[2][ch] = static_cast<uint8_t>((a + b) / 2);
    }
  }
  colours[2][3] = 255;
  colours[3][3] = c0 > c1 ? 255 : 0;
  for (int y = 0; y < 4; ++y) {
    const uint8_t bits = src[4 + y];
    for (int x = 0; x < 4; ++x) Put(out + (y * 8 + x) * 4, colours[(bits >> (6 - 2 * x)) & 3]);
  }
}

// One tile of format at src into out (tile_width x tile_height RGBA texels, row-major).
void DecodeTile(uint32_t format, const uint8_t* src, const std::vector<Rgba>& palette, uint8_t* out) {
  const FormatTraits& t = Traits(format);
  const uint32_t texels = t.tile_width * t.tile_height;
  switch (TexelFormat(format)) {
    case TexelFormat::I4:
      for (uint32_t i = 0; i < texels; ++i) {
        const uint8_t v = Widen4((src[i / 2] >> (i % 2 ? 0 : 4)) & 15);
        PutGrey(out + i * 4, v, v);
      }
      break;
    case TexelFormat::I8:
      for (uint32_t i = 0; i < texels; ++i) PutGrey(out + i * 4, src[i], src[i]);
      break;
    case TexelFormat::IA4:
      for (uint32_t i = 0; i < texels; ++i) PutGrey(out + i * 4, Widen4(src[i] & 15), Widen4(src[i] >> 4));
      break;
    case TexelFormat::IA8:
      for (uint32_t i = 0; i < texels; ++i) Put(out + i * 4, FromIa8(be::Load16(src + 2 * i)));
      break;
    case TexelFormat::C4:
      for (uint32_t i = 0; i < texels; ++i) Put(out + i * 4, palette[(src[i / 2] >> (i % 2 ? 0 : 4)) & 15]);
      break;
    case TexelFormat::C8:
      for (uint32_t i = 0; i < texels; ++i) Put(out + i * 4, palette[src[i]]);
      break;
    case TexelFormat::C14X2:
      for (uint32_t i = 0; i < texels; ++i) Put(out + i * 4, palette[be::Load16(src + 2 * i) & 0x3FFF]);
      break;
    case TexelFormat::RGB565:
      for (uint32_t i = 0; i < texels; ++i) Put(out + i * 4, FromRgb565(be::Load16(src + 2 * i)));
      break;
    case TexelFormat::RGB5A3:
      for (uint32_t i = 0; i < texels; ++i) Put(out + i * 4, FromRgb5a3(be::Load16(src + 2 * i)));
      break;
    case TexelFormat::RGBA8:
      for (uint32_t i = 0; i < texels; ++i) {
        const uint8_t* ar = src + 2 * i;
        const uint8_t* gb = src + 32 + 2 * i;
        Put(out + i * 4, {ar[1], gb[0], gb[1], ar[0]});
      }
      break;
    case TexelFormat::CMPR:
      for (uint32_t block = 0; block < 4; ++block)
        DecodeCmprBlock(src + 8 * block, out + ((block / 2) * 4 * 8 + (block % 2) * 4) * 4);
      break;
  }
}

}  // namespace

Image DecodeLevel(const TxtrFile& file, size_t level) {
  const std::vector<MipLevel> levels = MipLevels(file.header, DataOffset(file));
  if (level >= levels.size())
    throw Error::AtOffset(8, "mip level " + std::to_string(level) + " requested; the file has " +
                                 std::to_string(levels.size()));
  const MipLevel& m = levels[level];
  const FormatTraits& t = Traits(file.header.format);
  const size_t tiles_x = (m.width + t.tile_width - 1) / t.tile_width;
  const size_t tiles_y = (m.height + t.tile_height - 1) / t.tile_height;
  const size_t tile_bytes = size_t{t.tile_width} * t.tile_height * t.bits / 8;
  // The level's tiles as the GX fetch reads them: on past the level's bytes, zeros past the file.
  Bytes tiled(tiles_x * tiles_y * tile_bytes, 0);
  const size_t start = m.offset - DataOffset(file);
  if (start < file.data.size()) {
    const size_t n = std::min(tiled.size(), file.data.size() - start);
    std::copy_n(file.data.begin() + static_cast<std::ptrdiff_t>(start), n, tiled.begin());
  }
  const std::vector<Rgba> palette = t.paletted ? PaletteColours(file) : std::vector<Rgba>{};
  Image image;
  image.width = m.width;
  image.height = m.height;
  image.rgba.resize(size_t{m.width} * m.height * 4);
  std::vector<uint8_t> tile(size_t{t.tile_width} * t.tile_height * 4);
  for (size_t ty = 0; ty < tiles_y; ++ty) {
    for (size_t tx = 0; tx < tiles_x; ++tx) {
      DecodeTile(file.header.format, tiled.data() + (ty * tiles_x + tx) * tile_bytes, palette, tile.data());
      const size_t x0 = tx * t.tile_width, y0 = ty * t.tile_height;
      const size_t cols = std::min<size_t>(t.tile_width, m.width - x0);
      for (size_t y = 0; y < t.tile_height && y0 + y < m.height; ++y)
        std::memcpy(image.rgba.data() + ((y0 + y) * m.width + x0) * 4, tile.data() + y * t.tile_width * 4, cols * 4);
    }
  }
  image.source_format = std::string(t.name);
  if (t.paletted) image.source_format += " (" + std::string(PaletteFormatName(file.palette_header.format)) + " palette)";
  return image;
}

void FlipRows(Image& image) {
  const size_t row = size_t{image.width} * 4;
  if (row == 0) return;
  for (size_t top = 0, bottom = image.height ? image.height - 1 : 0; top < bottom; ++top, --bottom)
    std::swap_ranges(image.rgba.begin() + static_cast<std::ptrdiff_t>(top * row),
                     image.rgba.begin() + static_cast<std::ptrdiff_t>((top + 1) * row),
                     image.rgba.begin() + static_cast<std::ptrdiff_t>(bottom * row));
}

}  // namespace animkit::metroid_txtr
