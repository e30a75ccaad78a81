// KH2 raw textures: the file holds the DMA programs that upload its pictures and CLUTs
// into PS2 GS memory (BITBLTBUF/TRXPOS/TRXREG + an IMAGE GIF packet of QWC qwords read
// from a REF address), and per texture the GS registers (TEX2's CLUT load, TEX0) the
// game draws with. Replaying the uploads into GS memory and reading texels as the GS does
// gives the images (GS User's Manual, "Local memory" page/block/column layouts; the
// layout from OpenKH's docs/kh2/file/raw-texture.md and ModelTexture.cs; docs/formats/kh2.md,
// "Textures").
#include "formats/kh2/texture/kh2_gs_memory.hpp"

#include <animkit/core/limits.hpp>

#include <algorithm>
#include <array>
#include <memory>

namespace animkit::kh2::detail {

namespace {

std::string FormatName(size_t psm) {
  switch (psm) {
    case kCt32: return "32-bit direct colour";
    case kCt24: return "24-bit direct colour";
    case kCt16: return "16-bit direct colour";
    case kT8: return "8-bit indexed";
    case kT4: return "4-bit indexed";
    default: return "GS format " + std::to_string(psm);
  }
}

// Why an upload cannot give all it sends: its bytes past the file, its damage.
std::string Shortfall(const Transfer& t, const RawTextureBytes& bytes, uint64_t base, std::string_view what) {
  if (!t.damage.empty()) return std::string(what) + " at " + Hex(t.record) + " is not replayed: " + t.damage;
  if (BitsPerTexel(t.dpsm) == 0) return std::string(what) + " at " + Hex(t.record) + " uploads GS format " + std::to_string(t.dpsm) + ", not replayed";
  const UploadData d = DataOf(t, bytes);
  std::string out;
  if (d.held < d.sent)
    out = std::string(what) + " sends " + Hex(d.sent) + " bytes from " + Hex(base + t.data_offset) + "; the file holds " + Hex(d.held) + " of them";
  if (uint64_t(t.rrw) * t.rrh * BitsPerTexel(t.dpsm) > uint64_t(d.sent) * 8)
    out += (out.empty() ? std::string(what) : std::string("; it")) + " sends fewer texels than its " + std::to_string(t.rrw) + "x" +
           std::to_string(t.rrh) + " rectangle";
  return out;
}

}  // namespace

std::vector<animkit::Image> DecodeRawTextures(const RawTextureBytes& bytes, const RawTextureHeader& h, uint64_t base,
                                              std::vector<std::string>& warnings) {
  const ByteView own = bytes.rest.first(std::min(bytes.own, bytes.rest.size()));
  ByteReader r(own, Endian::Little, base);
  ByteReader offsets = r.Table(h.offset_data_offset, h.gs_count, 1, 0x10, "the texture offset data");
  ByteReader transfers = r.Table(h.transfer_offset, uint64_t(h.texture_count) + 1, kTransferSize, 0x14, "the texture transfers");
  ByteReader gs_info = r.Table(h.gs_info_offset, h.gs_count, kGsInfoSize, 0x18, "the GS info table");
  std::vector<Transfer> table;
  for (size_t i = 0; i <= h.texture_count; ++i) table.push_back(ReadTransfer(transfers.Sub(i * kTransferSize, kTransferSize, "a transfer")));

  // Work is bounded by what the input holds: the CLUT upload and each texture upload are
  // replayed once, an image samples at most 2 texels per byte its upload wrote, and all
  // images together at most 64 per byte the upload data holds (plus 4M).
  GsMemory with_clut;
  Upload(table[0], bytes, with_clut);
  std::vector<animkit::Image> images(h.gs_count);
  std::vector<std::vector<size_t>> users(256);  // the GS infos of each transfer index
  for (size_t i = 0; i < h.gs_count; ++i) users[offsets.U8("a texture's transfer index")].push_back(i);
  uint64_t budget = 64 * uint64_t(bytes.rest.size() + bytes.after.size()) + (uint64_t{1} << 22);
  for (size_t which = 0; which < users.size(); ++which) {
    if (users[which].empty()) continue;
    const size_t t = which + 1;
    GsMemory texture(&with_clut);
    const GsMemory* gs = &texture;
    const size_t written = t < table.size() ? Upload(table[t], bytes, texture) : 0;
    for (const size_t i : users[which]) {
      animkit::Image& img = images[i];
      img.name = "texture " + std::to_string(i);
      ByteReader g = gs_info.Sub(i * kGsInfoSize, kGsInfoSize, "a GS info");
      g.Seek(0x50, "TEX2");
      const uint64_t tex2 = U64(g, "TEX2");
      g.Seek(0x70, "TEX0");
      const uint64_t tex0 = U64(g, "TEX0");
      const size_t tbp = tex0 & 0x3FFF, tbw = (tex0 >> 14) & 63, psm = (tex0 >> 20) & 63;
      const size_t tw = (tex0 >> 26) & 15, th = (tex0 >> 30) & 15;
      const ClutLoad tex0_clut = ClutLoadOf(tex0), tex2_clut = ClutLoadOf(tex2);
      // The CLUT the draw uses: the last load (TEX0's, else TEX2's); with none, TEX0's CBP.
      const ClutLoad load = tex0_clut.cld != 0 ? tex0_clut : tex2_clut.cld != 0 ? tex2_clut : tex0_clut;
      const bool indexed = psm == kT8 || psm == kT4;
      img.source_format = "KH2 raw texture, " + FormatName(psm);
      const std::string at = " (GS info at " + Hex(g.absolute(0)) + ")";
      std::string why;
      if (t >= table.size()) {
        why = "its transfer index " + std::to_string(which) + " is past the " + std::to_string(h.texture_count) + " texture transfers";
      } else if (BitsPerTexel(psm) == 0) {
        why = "GS format " + std::to_string(psm) + " is not decoded";
      } else if (indexed && ((load.cpsm != kCt32 && load.cpsm != kCt16) || load.csm != 0)) {
        why = "a CLUT in GS format " + std::to_string(load.cpsm) + ", storage mode " + std::to_string(load.csm + 1) + " is not decoded";
      } else if (tw > 10 || th > 10) {
        why = "TEX0 gives a " + std::to_string(size_t(1) << tw) + "x" + std::to_string(size_t(1) << th) + " texture; the GS reads at most 1024";
      } else if ((size_t(1) << (tw + th)) > budget) {
        why = "the images before it sample as many texels as the entry's size allows";
      } else if ((size_t(1) << (tw + th)) > 2 * written + 64) {
        why = "it samples " + std::to_string(size_t(1) << tw) + "x" + std::to_string(size_t(1) << th) + " texels, its upload wrote " + Hex(written) +
              " bytes";
        if (const std::string s = Shortfall(table[t], bytes, base, "the upload"); !s.empty()) why += " (" + s + ")";
      }
      if (!why.empty()) {
        img.missing = why;
        warnings.push_back(img.name + at + ": " + why);
        continue;
      }
      img.width = uint32_t(1) << tw, img.height = uint32_t(1) << th;
      budget -= uint64_t(img.width) * img.height;
      img.rgba.assign(size_t(img.width) * img.height * 4, 0);
      const ClutBuffer clut = indexed ? LoadClut(*gs, load) : ClutBuffer{};
      const size_t csa = psm == kT4 ? tex0_clut.csa * 16 : 0;
      size_t unwritten_texels = 0, unwritten_colours = 0;
      for (size_t y = 0; y < img.height; ++y)
        for (size_t x = 0; x < img.width; ++x) {
          Rgba c{0, 0, 0, 0};
          uint8_t index = 0;
          bool ok = true;
          if (psm == kT8) {
            ok = gs->Read(Address8(tbp, tbw, x, y), index);
          } else if (psm == kT4) {
            const size_t nibble = Address4(tbp, tbw, x, y), shift = 4 * (nibble & 1);
            ok = gs->Read(nibble / 2, index, uint8_t(15 << shift));
            index = uint8_t(index >> shift);
          } else {
            ok = ColourAt(*gs, psm, psm == kCt16 ? Address16(tbp, tbw, x, y) : Address32(tbp, tbw, x, y), c);
          }
          if (!ok) {
            ++unwritten_texels;
          } else if (indexed) {
            const size_t slot = (csa + index) % clut.colour.size();
            if (clut.held[slot]) c = clut.colour[slot];
            else ++unwritten_colours;
          }
          std::copy(c.begin(), c.end(), img.rgba.begin() + std::ptrdiff_t((y * img.width + x) * 4));
        }
      if (unwritten_texels != 0) {
        std::string w = img.name + at + ": " + std::to_string(unwritten_texels) + " of its " + std::to_string(img.width) + "x" +
                        std::to_string(img.height) + " texels lie where its upload wrote nothing (left transparent)";
        if (const std::string s = Shortfall(table[t], bytes, base, "the upload"); !s.empty()) w += ": " + s;
        warnings.push_back(w);
      }
      if (unwritten_colours != 0) {
        std::string w = img.name + at + ": " + std::to_string(unwritten_colours) +
                        " texels use CLUT colours the palette upload did not write (left transparent)";
        if (const std::string s = Shortfall(table[0], bytes, base, "the palette upload"); !s.empty()) w += ": " + s;
        warnings.push_back(w);
      }
    }
  }
  return images;
}

}  // namespace animkit::kh2::detail

namespace animkit::kh2 {

namespace {

void PutWord(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void PutWords(Bytes& b, std::initializer_list<uint32_t> words) {
  for (uint32_t w : words) PutWord(b, w);
}
void PutPair(Bytes& b, uint64_t value, uint32_t reg) { PutWords(b, {uint32_t(value), uint32_t(value >> 32), reg, 0}); }

// One transfer record (0x90): a PSMCT32 rectangle of w x h at block dbp, dbw pages wide,
// from `offset` in the entry.
void PutTransfer(Bytes& b, size_t dbp, size_t dbw, size_t w, size_t h, uint32_t offset) {
  const uint32_t qwc = uint32_t(w * h * 4 / 16);
  PutWords(b, {0x10000006, 0, 0x13000000, 0x50000006, 4, 0x10000000, 0xE, 0});
  PutPair(b, uint64_t(dbp) << 32 | uint64_t(dbw) << 48, 0x50);  // BITBLTBUF, DPSM PSMCT32
  PutPair(b, 0, 0x51);                                           // TRXPOS
  PutPair(b, uint64_t(w) | uint64_t(h) << 32, 0x52);             // TRXREG
  PutPair(b, 0, 0x53);                                           // TRXDIR
  PutWords(b, {qwc | 0x8000, 0x08000000, 0, 0});                 // IMAGE GIF tag
  PutWords(b, {0x30000000 | qwc, offset, 0, 0x50000000 | qwc});  // DMA REF, VIF DIRECT
  PutWords(b, {0x60000000, 0, 0x13000000, 0});                   // DMA RET
}

uint32_t Log2(uint32_t v) {
  uint32_t n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

}  // namespace

Bytes EncodeRawTexture(const std::vector<animkit::Image>& images) {
  using detail::Address32, detail::Address4, detail::Address8, detail::GsMemory;
  constexpr size_t kPaletteBlock = 0x3A00;
  const size_t n = images.size();
  if (n == 0 || n > 255) throw Error::General("EncodeRawTexture: 1 to 255 images");
  const size_t palette_rows = 32 * ((n + 7) / 8);  // 8 CLUTs of 256 colours a PSMCT32 page
  struct Picture {
    Bytes bytes;
    size_t tbp = 0, tbw = 0, w = 0, h = 0;  // w x h: the PSMCT32 rectangle
    uint64_t tex0 = 0;
  };
  std::vector<Picture> pictures(n);
  GsMemory gs;
  size_t block = kPaletteBlock + palette_rows / 32 * 32;
  for (size_t i = 0; i < n; ++i) {
    const animkit::Image& img = images[i];
    if (img.Missing() || img.rgba.size() != size_t(img.width) * img.height * 4 || img.width == 0 || img.height == 0 ||
        img.width > 1024 || img.height > 1024 || (img.width & (img.width - 1)) != 0 || (img.height & (img.height - 1)) != 0)
      throw Error::General("EncodeRawTexture: image '" + img.name + "' is not a power-of-two picture up to 1024");
    std::vector<std::array<uint8_t, 4>> palette;
    std::vector<uint8_t> index(size_t(img.width) * img.height);
    for (size_t p = 0; p < index.size(); ++p) {
      const std::array<uint8_t, 4> c{img.rgba[p * 4], img.rgba[p * 4 + 1], img.rgba[p * 4 + 2], uint8_t((img.rgba[p * 4 + 3] * 128 + 127) / 255)};
      auto it = std::find(palette.begin(), palette.end(), c);
      if (it == palette.end()) {
        if (palette.size() == 256) throw Error::General("EncodeRawTexture: image '" + img.name + "' has more than 256 colours");
        it = palette.insert(palette.end(), c);
      }
      index[p] = uint8_t(it - palette.begin());
    }
    const bool four = palette.size() <= 16;
    // Its PSMCT32 view is a plain rectangle: a PSMT8 block (16x16) is a PSMCT32 block (8x8)
    // in the same place of its page (PSMT8 128x64, PSMCT32 64x32); PSMT4 pages (128x128,
    // blocks in another order) are whole pages only. DBW = TBW / 2.
    const size_t pw = std::max<size_t>(img.width, four ? 128 : 16), ph = std::max<size_t>(img.height, four ? 128 : 16);
    Picture& pic = pictures[i];
    pic.tbp = block, pic.tbw = std::max<size_t>(pw / 64, 2), pic.w = pw / 2, pic.h = four ? ph / 4 : ph / 2;
    const size_t pages = four ? (pw / 128) * (ph / 128) : std::max<size_t>(pw / 128, 1) * ((ph + 63) / 64);
    if (block + pages * 32 > 0x4000) throw Error::General("EncodeRawTexture: the pictures do not fit GS memory");
    for (size_t y = 0; y < img.height; ++y)
      for (size_t x = 0; x < img.width; ++x) {
        const uint8_t v = index[y * img.width + x];
        if (four) {
          const size_t nibble = Address4(pic.tbp, pic.tbw, x, y);
          gs.Write(nibble / 2, uint8_t(v << (4 * (nibble & 1))), uint8_t(15 << (4 * (nibble & 1))));
        } else {
          gs.Write(Address8(pic.tbp, pic.tbw, x, y), v);
        }
      }
    for (size_t y = 0; y < pic.h; ++y)
      for (size_t x = 0; x < pic.w; ++x)
        for (size_t k = 0; k < 4; ++k) {
          uint8_t v = 0;
          gs.Read(Address32(pic.tbp, pic.tbw / 2, x, y) + k, v);
          pic.bytes.push_back(v);
        }
    block += pages * 32;
    const size_t cbp = kPaletteBlock + 4 * i;
    for (size_t e = 0; e < palette.size(); ++e) {  // CSM1: x, y of entry e in the 16x16 CLUT
      const size_t in32 = e % 32;
      const size_t x = in32 % 8 + (in32 / 16) * 8, y = (e / 32) * 2 + (in32 / 8) % 2;
      for (size_t k = 0; k < 4; ++k) gs.Write(Address32(cbp, 1, x, y) + k, palette[e][k]);
    }
    const uint64_t psm = four ? 20 : 19;
    pic.tex0 = uint64_t(pic.tbp) | uint64_t(pic.tbw) << 14 | psm << 20 | uint64_t(Log2(img.width)) << 26 |
               uint64_t(Log2(img.height)) << 30 | uint64_t(1) << 34 /* TCC */ | uint64_t(cbp) << 37;
  }
  // The palette upload sends whole pages; the entry holds its texels up to the last one a
  // CLUT uses (the colour count), as the game's files do: the DMA reads on past the entry.
  Bytes palette;
  size_t colours = 0;
  for (size_t y = 0; y < palette_rows; ++y)
    for (size_t x = 0; x < 64; ++x)
      for (size_t k = 0; k < 4; ++k) {
        uint8_t v = 0;
        if (gs.Read(Address32(kPaletteBlock, 1, x, y) + k, v)) colours = y * 64 + x + 1;
        palette.push_back(v);
      }
  palette.resize(colours * 4);
  const size_t transfer_offset = (0x24 + n + 15) / 16 * 16;
  const size_t gs_info_offset = transfer_offset + (n + 1) * 0x90;
  const size_t picture_offset = (gs_info_offset + n * 0xA0 + 0x7F) / 0x80 * 0x80;
  size_t palette_offset = picture_offset;
  for (const Picture& p : pictures) palette_offset += p.bytes.size();
  Bytes out;
  PutWords(out, {0, uint32_t(colours), uint32_t(n), uint32_t(n), 0x24, uint32_t(transfer_offset), uint32_t(gs_info_offset),
                 uint32_t(picture_offset), uint32_t(palette_offset)});
  for (size_t i = 0; i < n; ++i) out.push_back(uint8_t(i));
  out.resize(transfer_offset, 0);
  PutTransfer(out, kPaletteBlock, 1, 64, palette_rows, uint32_t(palette_offset));
  size_t at = picture_offset;
  for (const Picture& p : pictures) {
    PutTransfer(out, p.tbp, p.tbw / 2, p.w, p.h, uint32_t(at));
    at += p.bytes.size();
  }
  for (const Picture& p : pictures) {
    PutWords(out, {0x10000008, 0, 0x13000000, 0x50000008, 0x8007, 0x10000000, 0xE, 0});
    PutPair(out, 0, 0x3F);                                                       // TEXFLUSH
    PutPair(out, 0, 0x34), PutPair(out, 0, 0x36);                                // MIPTBP1, MIPTBP2
    PutPair(out, (p.tex0 & (uint64_t(0x3FFF) << 37 | uint64_t(63) << 20)) | uint64_t(4) << 61, 0x16);  // TEX2: CLUT load
    PutPair(out, 0x20, 0x14);                                                    // TEX1
    PutPair(out, p.tex0, 0x06);                                                  // TEX0
    PutPair(out, 0, 0x08);                                                       // CLAMP: repeat
    PutWords(out, {0x60000000, 0, 0x13000000, 0});
  }
  out.resize(picture_offset, 0);
  for (const Picture& p : pictures) out.insert(out.end(), p.bytes.begin(), p.bytes.end());
  out.insert(out.end(), palette.begin(), palette.end());
  out.insert(out.end(), {'_', 'K', 'N', '5'});
  return out;
}

}  // namespace animkit::kh2
