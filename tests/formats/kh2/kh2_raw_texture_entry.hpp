// KH2 raw texture entries built by hand from the layout (docs/formats/kh2.md, "Textures"):
// the uploads' DMA programs, the GS infos and the data after them, for the texture tests.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/model.hpp>

#include <cstdint>
#include <vector>

namespace animkit::kh2_texture_test {

using Bytes = std::vector<uint8_t>;
using Texel = std::vector<uint8_t>;

// A GS upload: a DPSM rectangle rrw x rrh at block dbp, dbw x 64 texels wide, of qwc
// qwords read from `data` (an offset into the builder's data area).
struct Upload {
  uint32_t dbp = 0, dbw = 1, dpsm = 0, rrw = 0, rrh = 0, qwc = 0, data = 0;
};
// A texture: TEX0, TEX2 (its CLUT load) and CLAMP as the GS info sets them, the upload it uses.
struct Draw {
  uint64_t tex0 = 0, tex2 = 0;
  uint8_t transfer = 0;
  uint64_t clamp = 0;
};
inline uint64_t Tex0(uint64_t tbp, uint64_t tbw, uint64_t psm, uint64_t tw, uint64_t th, uint64_t cbp, uint64_t csa = 0) {
  return tbp | tbw << 14 | psm << 20 | tw << 26 | th << 30 | cbp << 37 | csa << 56;
}
inline uint64_t ClutLoad(uint64_t psm, uint64_t cbp) { return psm << 20 | cbp << 37 | uint64_t(4) << 61; }

// A raw texture: header, offset data, transfers (the CLUT's first), GS infos, then `data`
// (128-aligned; upload addresses are data offsets plus its start; qwc as written, NLOOP its
// low 15 bits); palette_at is the palette's offset in data, colours its colour count.
inline Bytes RawEntry(const std::vector<Upload>& uploads, const std::vector<Draw>& draws, const Bytes& data, uint32_t colours, uint32_t palette_at) {
  const uint32_t transfers = (0x24 + uint32_t(draws.size()) + 15) / 16 * 16;
  const uint32_t gs_infos = transfers + 0x90 * uint32_t(uploads.size());
  const uint32_t start = (gs_infos + 0xA0 * uint32_t(draws.size()) + 0x7F) / 0x80 * 0x80;
  Bytes b;
  for (uint32_t w : {0u, colours, uint32_t(uploads.size() - 1), uint32_t(draws.size()), 0x24u, transfers, gs_infos, start, start + palette_at}) le::Append32(b, w);
  for (const Draw& d : draws) b.push_back(d.transfer);
  b.resize(transfers, 0);
  for (const Upload& u : uploads) {
    for (uint32_t w : {0x10000006u, 0u, 0x13000000u, 0x50000006u, 4u, 0x10000000u, 0xEu, 0u}) le::Append32(b, w);
    le::Append64(b, uint64_t(u.dbp) << 32 | uint64_t(u.dbw) << 48 | uint64_t(u.dpsm) << 56), le::Append64(b, 0x50);
    le::Append64(b, 0), le::Append64(b, 0x51);
    le::Append64(b, uint64_t(u.rrw) | uint64_t(u.rrh) << 32), le::Append64(b, 0x52);
    le::Append64(b, 0), le::Append64(b, 0x53);
    for (uint32_t w : {(u.qwc & 0x7FFFu) | 0x8000u, 0x08000000u, 0u, 0u, 0x30000000u | u.qwc, start + u.data, 0u, 0x50000000u | u.qwc})
      le::Append32(b, w);
    for (uint32_t w : {0x60000000u, 0u, 0x13000000u, 0u}) le::Append32(b, w);
  }
  for (const Draw& d : draws) {
    for (uint32_t w : {0x10000008u, 0u, 0x13000000u, 0x50000008u, 0x8007u, 0x10000000u, 0xEu, 0u}) le::Append32(b, w);
    for (uint64_t reg : {0x3Full, 0x34ull, 0x36ull}) le::Append64(b, 0), le::Append64(b, reg);
    le::Append64(b, d.tex2), le::Append64(b, 0x16);
    le::Append64(b, 0x20), le::Append64(b, 0x14);
    le::Append64(b, d.tex0), le::Append64(b, 0x06);
    le::Append64(b, d.clamp), le::Append64(b, 0x08);
    for (uint32_t w : {0x60000000u, 0u, 0x13000000u, 0u}) le::Append32(b, w);
  }
  b.resize(start, 0);
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// A 16x16 CLUT as 16x16 PSMCT32 texels: the colour at raster position p is (p, 255 - p, 7, 0x80).
inline Bytes Clut() {
  Bytes c;
  for (int p = 0; p < 256; ++p) c.insert(c.end(), {uint8_t(p), uint8_t(255 - p), 7, 0x80});
  return c;
}
inline Texel At(const Image& img, size_t x, size_t y) {
  const auto p = img.rgba.begin() + std::ptrdiff_t((y * img.width + x) * 4);
  return Texel(p, p + 4);
}


}  // namespace animkit::kh2_texture_test
