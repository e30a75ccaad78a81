// KH2 raw textures: the file holds the PS2 GS memory uploads (BITBLTBUF/TRXPOS/TRXREG
// transfers, PSMCT32) of its pictures and CLUTs; the GS reads them back as PSMT8/PSMT4
// texels through TEX0. Replaying the uploads into GS memory and reading texels as the GS
// does gives the images (GS User's Manual, "Local memory" page/block/column layouts; facts
// from OpenKH's docs/kh2/file/raw-texture.md and ModelTexture.cs).
#include "kh2_raw_texture.hpp"

#include <animkit/core/limits.hpp>

namespace animkit::kh2::detail {

namespace {

constexpr size_t kGsWords = 1u << 20;  // 4 MB of GS local memory
constexpr size_t kTransferSize = 0x90;
constexpr size_t kGsInfoSize = 0xA0;

// Block order inside a page (PSMCT32 and PSMT8 share it; PSMT4 has its own).
constexpr int kBlock32[4][8] = {{0, 1, 4, 5, 16, 17, 20, 21}, {2, 3, 6, 7, 18, 19, 22, 23},
                                {8, 9, 12, 13, 24, 25, 28, 29}, {10, 11, 14, 15, 26, 27, 30, 31}};
constexpr int kBlock4[8][4] = {{0, 2, 8, 10},    {1, 3, 9, 11},    {4, 6, 12, 14},   {5, 7, 13, 15},
                               {16, 18, 24, 26}, {17, 19, 25, 27}, {20, 22, 28, 30}, {21, 23, 29, 31}};
// Word of a PSMCT32 texel in its column (2 rows of 8).
constexpr int kColumn32[16] = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};

// Word address of a PSMCT32 texel; bp in blocks (64 words), bw in 64-texel units.
size_t Address32(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 32) * bw + x / 64;
  const size_t block = size_t(kBlock32[(y % 32) / 8][(x % 64) / 8]);
  return (bp * 64 + page * 2048 + block * 64 + ((y % 8) / 2) * 16 + size_t(kColumn32[(y % 2) * 8 + x % 8])) % kGsWords;
}

// Word and byte of a PSMT8 texel in its column (4 rows of 16): the word pattern swaps
// halves on odd columns, the byte follows the row pair.
size_t Address8(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 64) * (std::max<size_t>(bw, 2) / 2) + x / 128;
  const size_t block = size_t(kBlock32[(y % 64) / 16][(x % 128) / 16]);
  const size_t column = (y % 16) / 4, row = y % 4, cx = x % 16;
  const bool swap = ((column & 1) != 0) != (row >= 2);
  const size_t word = size_t(kColumn32[(row % 2) * 8 + ((cx % 8) ^ (swap ? 4 : 0))]);
  const size_t byte = (cx / 8) * 2 + (row >= 2 ? 1 : 0);
  const size_t w = (bp * 64 + page * 2048 + block * 64 + column * 16 + word) % kGsWords;
  return w * 4 + byte;
}

// Word and nibble of a PSMT4 texel in its column (4 rows of 32).
size_t Address4(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 128) * (std::max<size_t>(bw, 2) / 2) + x / 128;
  const size_t block = size_t(kBlock4[(y % 128) / 16][(x % 128) / 32]);
  const size_t column = (y % 16) / 4, row = y % 4, cx = x % 32;
  const bool swap = ((column & 1) != 0) != (row >= 2);
  const size_t word = size_t(kColumn32[(row % 2) * 8 + ((cx % 8) ^ (swap ? 4 : 0))]);
  const size_t nibble = (cx / 8) * 2 + (row >= 2 ? 1 : 0);
  const size_t w = (bp * 64 + page * 2048 + block * 64 + column * 16 + word) % kGsWords;
  return w * 8 + nibble;
}

struct Transfer {
  size_t dbp = 0, dbw = 0, dpsm = 0, dsax = 0, dsay = 0, rrw = 0, rrh = 0;
  uint32_t data_offset = 0;
};

Transfer ReadTransfer(ByteReader r) {
  Transfer t;
  r.Skip(0x20, "a transfer's GIF tags");
  const uint64_t bitblt = uint64_t(r.U32("BITBLTBUF")) | uint64_t(r.U32("BITBLTBUF")) << 32;
  r.Skip(8, "a register address");
  const uint64_t pos = uint64_t(r.U32("TRXPOS")) | uint64_t(r.U32("TRXPOS")) << 32;
  r.Skip(8, "a register address");
  const uint64_t reg = uint64_t(r.U32("TRXREG")) | uint64_t(r.U32("TRXREG")) << 32;
  r.Skip(0x74 - 0x48, "TRXDIR and the image GIF tag");
  t.data_offset = r.U32("a transfer's data offset");
  t.dbp = (bitblt >> 32) & 0x3FFF, t.dbw = (bitblt >> 48) & 63, t.dpsm = (bitblt >> 56) & 63;
  t.dsax = (pos >> 32) & 0x7FF, t.dsay = (pos >> 48) & 0x7FF;
  t.rrw = reg & 0xFFF, t.rrh = (reg >> 32) & 0xFFF;
  return t;
}

// Replays a PSMCT32 upload (rrw x rrh texels from the entry) into GS memory.
void Upload(const Transfer& t, ByteView entry, std::vector<uint32_t>& gs, uint64_t base) {
  if (t.dpsm != 0) throw Error::AtOffset(base, "a texture upload in GS format " + std::to_string(t.dpsm) + " (only PSMCT32 is read)");
  const uint64_t bytes = uint64_t(t.rrw) * t.rrh * 4;
  if (t.data_offset > entry.size() || bytes > entry.size() - t.data_offset)
    throw Error::AtOffset(base + t.data_offset, "a texture upload of " + Hex(bytes) + " bytes runs past the entry");
  const uint8_t* p = entry.data() + t.data_offset;
  for (size_t y = 0; y < t.rrh; ++y)
    for (size_t x = 0; x < t.rrw; ++x, p += 4)
      gs[Address32(t.dbp, std::max<size_t>(t.dbw, 1), t.dsax + x, t.dsay + y)] =
          uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// CLUT entry i (CSM1, PSMCT32): 16x16 (8-bit) or 8x2 (4-bit, at CSA) texels from block cbp.
std::array<uint8_t, 4> ClutColour(const std::vector<uint32_t>& gs, size_t cbp, size_t csa, size_t i) {
  const size_t entry = csa * 16 + i;
  const size_t in32 = entry % 32;
  const size_t x = in32 % 8 + (in32 / 16) * 8, y = (entry / 32) * 2 + (in32 / 8) % 2;
  const size_t block = size_t(kBlock32[y / 8][x / 8]);
  const uint32_t c = gs[(cbp * 64 + block * 64 + ((y % 8) / 2) * 16 + size_t(kColumn32[(y % 2) * 8 + x % 8])) % kGsWords];
  const uint8_t a = uint8_t(c >> 24);
  return {uint8_t(c), uint8_t(c >> 8), uint8_t(c >> 16), a >= 0x80 ? uint8_t(255) : uint8_t((a * 255 + 64) / 128)};
}

}  // namespace

std::vector<animkit::Image> DecodeRawTextures(ByteView entry, const RawTextureHeader& h, uint64_t base, std::vector<std::string>& warnings) {
  ByteReader r(entry, Endian::Little, base);
  std::vector<animkit::Image> images(h.gs_count);
  ByteReader offsets = r.Table(h.offset_data_offset, h.gs_count, 1, 0x10, "the texture offset data");
  ByteReader transfers = r.Table(h.transfer_offset, uint64_t(h.texture_count) + 1, kTransferSize, 0x14, "the texture transfers");
  ByteReader gs_info = r.Table(h.gs_info_offset, h.gs_count, kGsInfoSize, 0x18, "the GS info table");
  std::vector<uint32_t> gs(kGsWords, 0);
  const Transfer clut = ReadTransfer(transfers.Sub(0, kTransferSize, "the CLUT transfer"));
  Upload(clut, entry, gs, base);
  std::vector<Transfer> textures;
  for (size_t i = 0; i < h.texture_count; ++i) {
    textures.push_back(ReadTransfer(transfers.Sub((i + 1) * kTransferSize, kTransferSize, "a texture transfer")));
    Upload(textures.back(), entry, gs, base + h.transfer_offset + (i + 1) * kTransferSize);
  }
  for (size_t i = 0; i < h.gs_count; ++i) {
    animkit::Image& img = images[i];
    img.name = "texture " + std::to_string(i);
    const uint8_t which = offsets.U8("a texture's transfer index");
    ByteReader g = gs_info.Sub(i * kGsInfoSize + 112, 8, "TEX0");
    const uint64_t tex0 = uint64_t(g.U32("TEX0")) | uint64_t(g.U32("TEX0")) << 32;
    const size_t tbp = tex0 & 0x3FFF, tbw = (tex0 >> 14) & 63, psm = (tex0 >> 20) & 63, cbp = (tex0 >> 37) & 0x3FFF;
    const size_t csa = (tex0 >> 56) & 31, csm = (tex0 >> 55) & 1, cpsm = (tex0 >> 51) & 15;
    img.width = 1u << ((tex0 >> 26) & 15), img.height = 1u << ((tex0 >> 30) & 15);
    img.source_format = std::string("KH2 raw texture, ") + (psm == 20 ? "4-bit indexed" : psm == 19 ? "8-bit indexed" : "GS format " + std::to_string(psm));
    if ((psm != 19 && psm != 20) || csm != 0 || cpsm != 0 || which >= h.texture_count || img.width > 1024 || img.height > 1024) {
      img.missing = "a raw texture in GS format " + std::to_string(psm) + " (CLUT format " + std::to_string(cpsm) +
                    ", storage mode " + std::to_string(csm) + ") is not decoded";
      warnings.push_back(img.name + ": " + img.missing);
      continue;
    }
    img.rgba.resize(size_t(img.width) * img.height * 4);
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(gs.data());
    for (size_t y = 0; y < img.height; ++y)
      for (size_t x = 0; x < img.width; ++x) {
        size_t index;
        if (psm == 19) {
          index = bytes[Address8(tbp, tbw, x, y) % (kGsWords * 4)];
        } else {
          const size_t nibble = Address4(tbp, tbw, x, y) % (kGsWords * 8);
          index = (bytes[nibble / 2] >> (4 * (nibble & 1))) & 15;
        }
        const auto c = ClutColour(gs, cbp, psm == 19 ? 0 : csa, index);
        std::copy(c.begin(), c.end(), img.rgba.begin() + std::ptrdiff_t((y * img.width + x) * 4));
      }
  }
  return images;
}

}  // namespace animkit::kh2::detail
