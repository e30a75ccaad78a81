// RGBA to TXTR: mips by a 2x2 box filter, texels narrowed with rounding (a picture decoded
// from the same format comes back exact), palettes by libimagequant when the picture has
// more colours than the format can index, CMPR blocks by libsquish in GX byte order.
#include <animkit/formats/metroid_txtr.hpp>

#include "metroid_txtr_texels.hpp"

#include <libimagequant.h>
#include <squish.h>

#include <algorithm>
#include <array>
#include <memory>
#include <unordered_map>

namespace animkit::metroid_txtr {

namespace {

using Texel = texels::Rgba;
using texels::FromPaletteEntry;
using texels::Widen4, texels::Widen5;

uint32_t Narrow(uint32_t v, uint32_t max) { return (v * max + 127) / 255; }
uint8_t Intensity(const Texel& c) { return static_cast<uint8_t>((299u * c[0] + 587u * c[1] + 114u * c[2] + 500) / 1000); }
uint16_t ToRgb565(const Texel& c) {
  return static_cast<uint16_t>(Narrow(c[0], 31) << 11 | Narrow(c[1], 63) << 5 | Narrow(c[2], 31));
}
uint16_t ToIa8(const Texel& c) { return static_cast<uint16_t>(c[3] << 8 | Intensity(c)); }
uint32_t Distance(const Texel& a, const Texel& b) {
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) d += uint32_t((a[i] - b[i]) * (a[i] - b[i]));
  return d;
}
// RGB5A3: opaque RGB555 when alpha narrows to 7 and that is the nearer of the two forms.
uint16_t ToRgb5a3(const Texel& c) {
  const uint32_t a3 = Narrow(c[3], 7);
  const auto four = static_cast<uint16_t>(a3 << 12 | Narrow(c[0], 15) << 8 | Narrow(c[1], 15) << 4 | Narrow(c[2], 15));
  if (a3 < 7) return four;
  const auto opaque = static_cast<uint16_t>(0x8000 | Narrow(c[0], 31) << 10 | Narrow(c[1], 31) << 5 | Narrow(c[2], 31));
  const Texel o{Widen5(Narrow(c[0], 31)), Widen5(Narrow(c[1], 31)), Widen5(Narrow(c[2], 31)), 255};
  const Texel f{Widen4(Narrow(c[0], 15)), Widen4(Narrow(c[1], 15)), Widen4(Narrow(c[2], 15)), 255};
  return Distance(f, c) < Distance(o, c) ? four : opaque;
}

uint16_t ToPaletteEntry(uint32_t palette_format, const Texel& c) {
  switch (PaletteFormat(palette_format)) {
    case PaletteFormat::IA8: return ToIa8(c);
    case PaletteFormat::RGB565: return ToRgb565(c);
    default: return ToRgb5a3(c);
  }
}
Texel PixelAt(const Image& img, size_t x, size_t y) {
  x = std::min<size_t>(x, img.width - 1), y = std::min<size_t>(y, img.height - 1);  // edge texels repeat into the tile
  const uint8_t* p = &img.rgba[(y * img.width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

Image HalfSize(const Image& img) {
  Image out;
  out.width = std::max(1u, img.width / 2), out.height = std::max(1u, img.height / 2);
  out.rgba.resize(size_t{out.width} * out.height * 4);
  for (size_t y = 0; y < out.height; ++y)
    for (size_t x = 0; x < out.width; ++x) {
      const Texel t[4] = {PixelAt(img, 2 * x, 2 * y), PixelAt(img, 2 * x + 1, 2 * y), PixelAt(img, 2 * x, 2 * y + 1),
                          PixelAt(img, 2 * x + 1, 2 * y + 1)};
      for (int c = 0; c < 4; ++c)
        out.rgba[(y * out.width + x) * 4 + size_t(c)] = static_cast<uint8_t>((t[0][c] + t[1][c] + t[2][c] + t[3][c] + 2) / 4);
    }
  return out;
}

// The palette's colours (as they decode) and the index of each colour met so far.
struct Palette {
  uint32_t format = 0;
  std::vector<Texel> colours;
  std::unordered_map<uint32_t, uint16_t> index_of;
  uint16_t Index(const Texel& c) {
    const uint32_t key = uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
    if (auto it = index_of.find(key); it != index_of.end()) return it->second;
    uint16_t best = 0;
    for (size_t i = 1; i < colours.size(); ++i)
      if (Distance(colours[i], c) < Distance(colours[best], c)) best = static_cast<uint16_t>(i);
    return index_of[key] = best;
  }
};

Palette Quantised(const Image& img, uint32_t palette_format, size_t most) {
  Palette p;
  p.format = palette_format;
  std::vector<uint8_t> snapped(img.rgba.size());
  for (size_t i = 0; i < snapped.size(); i += 4) {
    const Texel s = FromPaletteEntry(palette_format, ToPaletteEntry(palette_format, {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]}));
    std::copy(s.begin(), s.end(), snapped.begin() + static_cast<std::ptrdiff_t>(i));
  }
  for (size_t i = 0; i < snapped.size() && p.colours.size() <= most; i += 4) {
    const Texel c{snapped[i], snapped[i + 1], snapped[i + 2], snapped[i + 3]};
    const uint32_t key = uint32_t(c[0]) | uint32_t(c[1]) << 8 | uint32_t(c[2]) << 16 | uint32_t(c[3]) << 24;
    if (p.index_of.emplace(key, static_cast<uint16_t>(p.colours.size())).second) p.colours.push_back(c);
  }
  if (p.colours.size() <= most) return p;
  struct Free {
    void operator()(liq_attr* a) const { liq_attr_destroy(a); }
    void operator()(liq_image* a) const { liq_image_destroy(a); }
    void operator()(liq_result* a) const { liq_result_destroy(a); }
  };
  const std::unique_ptr<liq_attr, Free> attr(liq_attr_create());
  if (!attr) throw Error::General("TXTR palette: libimagequant could not start");
  liq_set_max_colors(attr.get(), int(std::min<size_t>(most, 256)));
  liq_set_quality(attr.get(), 0, 100);
  const std::unique_ptr<liq_image, Free> image(
      liq_image_create_rgba(attr.get(), snapped.data(), int(img.width), int(img.height), 0));
  liq_result* raw = nullptr;
  if (!image || liq_image_quantize(image.get(), attr.get(), &raw) != LIQ_OK || !raw)
    throw Error::General("TXTR palette: libimagequant could not quantise the picture to " + std::to_string(most) + " colours");
  const std::unique_ptr<liq_result, Free> result(raw);
  const liq_palette* pal = liq_get_palette(result.get());
  p.colours.clear(), p.index_of.clear();
  for (unsigned i = 0; i < pal->count; ++i) {
    const liq_color& e = pal->entries[i];
    p.colours.push_back(FromPaletteEntry(palette_format, ToPaletteEntry(palette_format, {e.r, e.g, e.b, e.a})));
  }
  return p;
}

// One DXT1 block by libsquish, rewritten in GX order: colours big-endian, each row's
// leftmost texel in the high bits.
void CmprBlock(const Image& img, size_t x0, size_t y0, uint8_t* out) {
  uint8_t rgba[64];
  for (size_t i = 0; i < 16; ++i) {
    const Texel t = PixelAt(img, x0 + i % 4, y0 + i / 4);
    std::copy(t.begin(), t.end(), rgba + i * 4);
  }
  uint8_t block[8];
  squish::Compress(rgba, block, squish::kDxt1);
  out[0] = block[1], out[1] = block[0], out[2] = block[3], out[3] = block[2];
  for (int row = 0; row < 4; ++row) {
    const uint8_t b = block[4 + row];
    out[4 + row] = static_cast<uint8_t>((b & 3) << 6 | ((b >> 2) & 3) << 4 | ((b >> 4) & 3) << 2 | (b >> 6));
  }
}

// The texel at i of a tile (row-major) whose top-left image texel is (x0, y0).
void EncodeTexel(uint32_t format, const Texel& c, size_t i, uint8_t* tile, Palette* palette) {
  switch (TexelFormat(format)) {
    case TexelFormat::I4: tile[i / 2] |= static_cast<uint8_t>(Narrow(Intensity(c), 15) << (i % 2 ? 0 : 4)); break;
    case TexelFormat::I8: tile[i] = Intensity(c); break;
    case TexelFormat::IA4: tile[i] = static_cast<uint8_t>(Narrow(c[3], 15) << 4 | Narrow(Intensity(c), 15)); break;
    case TexelFormat::IA8: be::Store16(tile + 2 * i, ToIa8(c)); break;
    case TexelFormat::C4: tile[i / 2] |= static_cast<uint8_t>(palette->Index(c) << (i % 2 ? 0 : 4)); break;
    case TexelFormat::C8: tile[i] = static_cast<uint8_t>(palette->Index(c)); break;
    case TexelFormat::C14X2: be::Store16(tile + 2 * i, palette->Index(c)); break;
    case TexelFormat::RGB565: be::Store16(tile + 2 * i, ToRgb565(c)); break;
    case TexelFormat::RGB5A3: be::Store16(tile + 2 * i, ToRgb5a3(c)); break;
    case TexelFormat::RGBA8:
      tile[2 * i] = c[3], tile[2 * i + 1] = c[0], tile[32 + 2 * i] = c[1], tile[32 + 2 * i + 1] = c[2];
      break;
    case TexelFormat::CMPR: break;  // whole blocks: CmprBlock
  }
}

// A level's tiles, cut to the level's stored size.
Bytes EncodeLevel(const Image& img, uint32_t format, Palette* palette) {
  const FormatTraits& t = Traits(format);
  const size_t tiles_x = (img.width + t.tile_width - 1) / t.tile_width;
  const size_t tiles_y = (img.height + t.tile_height - 1) / t.tile_height;
  const size_t tile_bytes = size_t{t.tile_width} * t.tile_height * t.bits / 8;
  Bytes out(tiles_x * tiles_y * tile_bytes, 0);
  for (size_t ty = 0; ty < tiles_y; ++ty)
    for (size_t tx = 0; tx < tiles_x; ++tx) {
      uint8_t* tile = out.data() + (ty * tiles_x + tx) * tile_bytes;
      const size_t x0 = tx * t.tile_width, y0 = ty * t.tile_height;
      if (TexelFormat(format) == TexelFormat::CMPR) {
        for (size_t b = 0; b < 4; ++b) CmprBlock(img, x0 + (b % 2) * 4, y0 + (b / 2) * 4, tile + 8 * b);
        continue;
      }
      for (size_t i = 0; i < size_t{t.tile_width} * t.tile_height; ++i)
        EncodeTexel(format, PixelAt(img, x0 + i % t.tile_width, y0 + i / t.tile_width), i, tile, palette);
    }
  out.resize(LevelBytes(format, img.width, img.height));
  return out;
}

}  // namespace

TxtrFile EncodeTxtr(const Image& image, const EncodeSettings& settings) {
  if (image.Missing() || image.width == 0 || image.height == 0) throw Error::General("nothing to write: the texture has no pixels");
  if (image.width > 0xFFFF || image.height > 0xFFFF)
    throw Error::General("a TXTR side is at most 65535 texels; the texture is " + std::to_string(image.width) + "x" +
                         std::to_string(image.height));
  if (settings.format >= kFormatCount) throw Error::General("no TXTR texel format " + std::to_string(settings.format));
  const FormatTraits& t = Traits(settings.format);
  TxtrFile f;
  f.header = {settings.format, static_cast<uint16_t>(image.width), static_cast<uint16_t>(image.height), settings.mip_count};
  if (settings.mip_count == 0 || MipLevels(f.header, 0).size() < settings.mip_count)
    throw Error::General("a " + std::to_string(image.width) + "x" + std::to_string(image.height) + " TXTR cannot have " +
                         std::to_string(settings.mip_count) + " mip levels");
  Palette palette;
  if (t.paletted) {
    if (settings.palette.format >= kPaletteFormatCount) throw Error::General("no TXTR palette format " + std::to_string(settings.palette.format));
    f.palette_header = settings.palette;
    if (uint64_t{f.palette_header.width} * f.palette_header.height < t.palette_entries)
      f.palette_header.width = static_cast<uint16_t>(std::min<uint32_t>(t.palette_entries, 256)),
      f.palette_header.height = static_cast<uint16_t>(t.palette_entries / f.palette_header.width);
    palette = Quantised(image, settings.palette.format, t.palette_entries);
    f.palette.assign(size_t{f.palette_header.width} * f.palette_header.height, 0);
    for (size_t i = 0; i < palette.colours.size(); ++i) f.palette[i] = ToPaletteEntry(palette.format, palette.colours[i]);
  }
  Image level = image;
  for (uint32_t i = 0; i < settings.mip_count; ++i) {
    if (i) level = HalfSize(level);
    const Bytes bytes = EncodeLevel(level, settings.format, &palette);
    f.data.insert(f.data.end(), bytes.begin(), bytes.end());
  }
  if (settings.pad_to > 1) {
    const size_t total = DataOffset(f) + f.data.size();
    f.data.resize(f.data.size() + (settings.pad_to - total % settings.pad_to) % settings.pad_to, 0);
  }
  return f;
}

}  // namespace animkit::metroid_txtr
