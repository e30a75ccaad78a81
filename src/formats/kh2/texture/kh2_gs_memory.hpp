// KH2 raw textures: PS2 GS local memory as its uploads fill it and its texels are read
// (GS User's Manual, "Local memory": page/block/column layouts of PSMCT32, PSMCT16, PSMT8
// and PSMT4), the transfer records that upload, and CLUT loads. The decoder replays
// uploads into it; the writer writes texels into it and reads the uploads back out.
#pragma once

#include "formats/kh2/texture/kh2_raw_texture.hpp"

#include <algorithm>
#include <array>
#include <memory>

namespace animkit::kh2::detail {

inline constexpr size_t kGsBytes = size_t{4} << 20;  // 4 MB of GS local memory
inline constexpr size_t kGsPageBytes = 8192;
inline constexpr size_t kTransferSize = 0x90;
inline constexpr size_t kGsInfoSize = 0xA0;
enum GsFormat : size_t { kCt32 = 0, kCt24 = 1, kCt16 = 2, kT8 = 19, kT4 = 20 };

// Block order inside a page: PSMCT32 and PSMT8 share one, PSMCT16 and PSMT4 another.
inline constexpr int kBlock32[4][8] = {{0, 1, 4, 5, 16, 17, 20, 21}, {2, 3, 6, 7, 18, 19, 22, 23},
                                {8, 9, 12, 13, 24, 25, 28, 29}, {10, 11, 14, 15, 26, 27, 30, 31}};
inline constexpr int kBlock4[8][4] = {{0, 2, 8, 10},    {1, 3, 9, 11},    {4, 6, 12, 14},   {5, 7, 13, 15},
                               {16, 18, 24, 26}, {17, 19, 25, 27}, {20, 22, 28, 30}, {21, 23, 29, 31}};
// Word of a PSMCT32 texel in its column (2 rows of 8).
inline constexpr int kColumn32[16] = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};
// Halfword of a PSMCT16 texel in its column (2 rows of 16).
inline constexpr int kColumn16[2][16] = {{0, 2, 8, 10, 16, 18, 24, 26, 1, 3, 9, 11, 17, 19, 25, 27},
                                  {4, 6, 12, 14, 20, 22, 28, 30, 5, 7, 13, 15, 21, 23, 29, 31}};

// Byte address of a PSMCT32 texel; bp in blocks (256 bytes), bw in 64-texel units.
inline size_t Address32(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 32) * std::max<size_t>(bw, 1) + x / 64;
  const size_t block = size_t(kBlock32[(y % 32) / 8][(x % 64) / 8]);
  const size_t word = bp * 64 + page * 2048 + block * 64 + ((y % 8) / 2) * 16 + size_t(kColumn32[(y % 2) * 8 + x % 8]);
  return (word * 4) % kGsBytes;
}

// Byte address of a PSMCT16 texel (page 64x64, block 16x8).
inline size_t Address16(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 64) * std::max<size_t>(bw, 1) + x / 64;
  const size_t block = size_t(kBlock4[(y % 64) / 8][(x % 64) / 16]);
  const size_t half = (bp * 64 + page * 2048 + block * 64) * 2 + ((y % 8) / 2) * 32 + size_t(kColumn16[y % 2][x % 16]);
  return (half * 2) % kGsBytes;
}

// The unit (byte of PSMT8, nibble of PSMT4) of an indexed texel in its page and block: in
// its column (4 rows), the word pattern swaps halves on odd columns, the unit follows the row pair.
inline size_t IndexedUnit(size_t bp, size_t page, size_t block, size_t cx, size_t y, size_t units_per_word) {
  const size_t column = (y % 16) / 4, row = y % 4;
  const bool swap = ((column & 1) != 0) != (row >= 2);
  const size_t word = size_t(kColumn32[(row % 2) * 8 + ((cx % 8) ^ (swap ? 4 : 0))]);
  return (bp * 64 + page * 2048 + block * 64 + column * 16 + word) * units_per_word + (cx / 8) * 2 + (row >= 2 ? 1 : 0);
}

// Byte address of a PSMT8 texel (page 128x64, columns of 4 rows of 16).
inline size_t Address8(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 64) * (std::max<size_t>(bw, 2) / 2) + x / 128;
  return IndexedUnit(bp, page, size_t(kBlock32[(y % 64) / 16][(x % 128) / 16]), x % 16, y, 4) % kGsBytes;
}

// Nibble address of a PSMT4 texel (page 128x128, columns of 4 rows of 32).
inline size_t Address4(size_t bp, size_t bw, size_t x, size_t y) {
  const size_t page = (y / 128) * (std::max<size_t>(bw, 2) / 2) + x / 128;
  return IndexedUnit(bp, page, size_t(kBlock4[(y % 128) / 16][(x % 128) / 32]), x % 32, y, 8) % (kGsBytes * 2);
}

// CSM1 order: within each 32 entries of a CLUT, entries 8-15 and 16-23 trade places (index
// bits 3 and 4 swap); entry e lies at (x, y) of the CLUT's PSMCT32 rectangle.
inline size_t Csm1Slot(size_t e) { return (e & ~size_t(0x18)) | ((e & 0x8) << 1) | ((e & 0x10) >> 1); }
inline size_t Csm1X(size_t e) { return e % 32 % 8 + (e % 32 / 16) * 8; }
inline size_t Csm1Y(size_t e) { return (e / 32) * 2 + (e % 32 / 8) % 2; }

// GS memory, its pages made when an upload first writes them (so a small file cannot make
// 4 MB per texture), with which bits an upload wrote: reading a bit no upload wrote is
// reading bytes the file does not hold. Uploads write over what earlier uploads left.
class GsMemory {
 public:
  GsMemory() : pages_(kGsBytes / kGsPageBytes) {}

  void Write(size_t byte, uint8_t value, uint8_t mask = 0xFF) {
    std::unique_ptr<Page>& page = pages_[byte / kGsPageBytes];
    if (!page) page = std::make_unique<Page>();
    uint8_t& v = page->value[byte % kGsPageBytes];
    v = uint8_t((v & ~mask) | (value & mask));
    page->written[byte % kGsPageBytes] |= mask;
  }
  // The byte's bits under mask, or false unless uploads wrote all of them.
  bool Read(size_t byte, uint8_t& value, uint8_t mask = 0xFF) const {
    const std::unique_ptr<Page>& page = pages_[byte / kGsPageBytes];
    if (!page || (page->written[byte % kGsPageBytes] & mask) != mask) return false;
    value = uint8_t(page->value[byte % kGsPageBytes] & mask);
    return true;
  }

 private:
  struct Page {
    std::array<uint8_t, kGsPageBytes> value{}, written{};
  };
  std::vector<std::unique_ptr<Page>> pages_;
};

inline size_t BitsPerTexel(size_t psm) {
  switch (psm) {
    case kCt32: return 32;
    case kCt24: return 24;
    case kCt16: return 16;
    case kT8: return 8;
    case kT4: return 4;
    default: return 0;
  }
}

struct Transfer {
  size_t dbp = 0, dbw = 0, dpsm = 0, dsax = 0, dsay = 0, rrw = 0, rrh = 0;
  size_t qwc = 0;             // the qwords the DMA REF tag sends
  uint32_t data_offset = 0;   // REF address: from the raw texture's first byte
  uint64_t record = 0;        // the record's offset in the file, for messages
  std::string damage;         // why the record cannot be replayed (empty: it can)
};

inline uint64_t U64(ByteReader& r, std::string_view what) { return uint64_t(r.U32(what)) | uint64_t(r.U32(what)) << 32; }

inline Transfer ReadTransfer(ByteReader r) {
  Transfer t;
  t.record = r.absolute(0);
  r.Skip(0x20, "a transfer's DMA and GIF tags");
  const uint64_t bitblt = U64(r, "BITBLTBUF");
  r.Skip(8, "a register address");
  const uint64_t pos = U64(r, "TRXPOS");
  r.Skip(8, "a register address");
  const uint64_t reg = U64(r, "TRXREG");
  r.Skip(0x18, "TRXDIR");
  const uint32_t image_tag = r.U32("the IMAGE GIF tag");
  r.Skip(0x0C, "the IMAGE GIF tag");
  const uint32_t ref = r.U32("the DMA REF tag");
  t.data_offset = r.U32("a transfer's data offset");
  t.dbp = (bitblt >> 32) & 0x3FFF, t.dbw = (bitblt >> 48) & 63, t.dpsm = (bitblt >> 56) & 63;
  t.dsax = (pos >> 32) & 0x7FF, t.dsay = (pos >> 48) & 0x7FF;
  t.rrw = reg & 0xFFF, t.rrh = (reg >> 32) & 0xFFF;
  t.qwc = ref & 0xFFFF;
  if (((ref >> 28) & 7) != 3) t.damage = "its DMA tag is not a REF tag (" + Hex(ref) + ")";
  else if ((image_tag & 0x7FFF) != (t.qwc & 0x7FFF))  // NLOOP holds 15 bits (SentBytes)
    t.damage = "its IMAGE tag sends " + Hex(image_tag & 0x7FFF) + " qwords but its DMA tag " + Hex(t.qwc);
  return t;
}

// The bytes an upload sends that the file holds: QWC x 16 from the REF address, as far as
// the raw texture, the entry after it and the file after the entry go.
struct UploadData {
  const RawTextureBytes* bytes;
  size_t begin = 0, held = 0, sent = 0;
  uint8_t operator[](size_t i) const {
    const size_t at = begin + i;
    return at < bytes->rest.size() ? bytes->rest[at] : bytes->after[at - bytes->rest.size()];
  }
};
// The bytes an upload sends: QWC qwords. The IMAGE GIF tag's NLOOP holds 15 bits and the
// DMA tag's QWC 16, so an upload of 0x8000 qwords (512 KB) or more cannot be counted: files
// written by OpenKH's ModelTexture (NLOOP = 0x8000 | QWC, read back as NLOOP & 0x7FFF) keep
// the counts modulo 0x8000 (the 512x512 and 512x256 PSMCT32 rectangles of H_EX500_CA send
// "0"), and readers take the rectangle (OpenKH reads TEX0's picture from the REF address).
// So a count equal to the rectangle's bytes / 16 modulo 0x8000, but less, sends the rectangle.
inline size_t SentBytes(const Transfer& t) {
  const uint64_t rect = uint64_t(t.rrw) * t.rrh * BitsPerTexel(t.dpsm) / 8;
  if (rect % 16 == 0 && rect / 16 > t.qwc && (rect / 16) % 0x8000 == t.qwc % 0x8000) return size_t(rect);
  return t.qwc * 16;
}

inline UploadData DataOf(const Transfer& t, const RawTextureBytes& bytes) {
  UploadData d{&bytes, t.data_offset, 0, SentBytes(t)};
  const size_t total = bytes.rest.size() + bytes.after.size();
  d.held = t.data_offset < total ? std::min(d.sent, total - t.data_offset) : 0;
  return d;
}

// The texels an upload writes of `bytes` it sends: every one, in rows of RRW from (DSAX,
// DSAY). Data past RRW x RRH goes on in the rows below: OpenKH's ModelTexture sets a CLUT
// upload's RRH to its colours / 64 rounded down (P_EX020_CA: 64x15 for 992 colours) and
// reads the colours from the data, as the remastered textures the PC release draws show
// them (docs/formats/kh2.md, "Uploads"); a PS2 GS would drop them (PCSX2's
// GSTransferBuffer::Update).
inline size_t TexelsSent(const Transfer& t, size_t bytes) {
  const size_t bits = BitsPerTexel(t.dpsm);
  return bits == 0 || t.rrw == 0 ? 0 : bytes * 8 / bits;
}

// Replays an upload: the texels it sends (TexelsSent), written in its destination format
// (texels the file does not hold stay unwritten). Returns the bytes written.
inline size_t Upload(const Transfer& t, const RawTextureBytes& bytes, GsMemory& gs) {
  const size_t bits = BitsPerTexel(t.dpsm);
  if (bits == 0 || t.rrw == 0 || !t.damage.empty()) return 0;
  const UploadData d = DataOf(t, bytes);
  const size_t texels = TexelsSent(t, d.held);
  for (size_t k = 0; k < texels; ++k) {
    const size_t x = (t.dsax + k % t.rrw) % 2048, y = (t.dsay + k / t.rrw) % 2048;
    switch (t.dpsm) {
      case kCt32:
      case kCt24: {
        const size_t at = Address32(t.dbp, t.dbw, x, y), n = bits / 8;
        for (size_t b = 0; b < n; ++b) gs.Write(at + b, d[k * n + b]);
        break;
      }
      case kCt16: {
        const size_t at = Address16(t.dbp, t.dbw, x, y);
        gs.Write(at, d[k * 2]), gs.Write(at + 1, d[k * 2 + 1]);
        break;
      }
      case kT8: gs.Write(Address8(t.dbp, t.dbw, x, y), d[k]); break;
      default: {  // PSMT4: low nibble first
        const size_t nibble = Address4(t.dbp, t.dbw, x, y);
        const uint8_t v = uint8_t((d[k / 2] >> (4 * (k & 1))) & 15);
        gs.Write(nibble / 2, uint8_t(v << (4 * (nibble & 1))), uint8_t(15 << (4 * (nibble & 1))));
      }
    }
  }
  return texels * bits / 8;
}

using Rgba = std::array<uint8_t, 4>;
inline uint8_t AlphaOf(uint8_t a) { return a >= 0x80 ? uint8_t{255} : uint8_t((a * 255 + 64) / 128); }  // PS2: 0x80 opaque
inline Rgba From16(uint16_t c) {
  auto five = [](int v) { return uint8_t((v << 3) | (v >> 2)); };
  return {five(c & 31), five((c >> 5) & 31), five((c >> 10) & 31), uint8_t(c >> 15 ? 255 : 0)};
}

// A colour (PS2 alpha) as PSMCT16 / TIM2 A1B5G5R5: the inverse of From16 on what it gives.
inline uint16_t To16(const Rgba& c) { return uint16_t((c[0] >> 3) | (c[1] >> 3) << 5 | (c[2] >> 3) << 10 | (c[3] >= 0x40 ? 0x8000 : 0)); }

// A colour of format psm at a byte address, or false when no upload wrote it.
inline bool ColourAt(const GsMemory& gs, size_t psm, size_t at, Rgba& out) {
  uint8_t b[4] = {0, 0, 0, 0x80};
  const size_t n = psm == kCt32 ? 4 : psm == kCt24 ? 3 : 2;
  for (size_t i = 0; i < n; ++i)
    if (!gs.Read((at + i) % kGsBytes, b[i])) return false;
  out = psm == kCt16 ? From16(uint16_t(b[0] | b[1] << 8)) : Rgba{b[0], b[1], b[2], AlphaOf(b[3])};
  return true;
}

// The GS's CLUT buffer after a CLUT load (CSM1): an 8-bit load fills entries 0..255 from a
// 16x16 CLUT at CBP, a 4-bit one 16 entries at CSA x 16 from its 8x2 at CBP. Within each
// 32 entries, CSM1 stores entries 8-15 and 16-23 in each other's place.
struct ClutLoad {
  size_t psm = 0, cbp = 0, cpsm = 0, csm = 0, csa = 0, cld = 0;
};
inline ClutLoad ClutLoadOf(uint64_t reg) {
  return {(reg >> 20) & 63, (reg >> 37) & 0x3FFF, (reg >> 51) & 15, (reg >> 55) & 1, (reg >> 56) & 31, (reg >> 61) & 7};
}
struct ClutBuffer {
  std::array<Rgba, 512> colour{};
  std::array<bool, 512> held{};
};
inline ClutBuffer LoadClut(const GsMemory& gs, const ClutLoad& load) {
  ClutBuffer clut;
  const size_t count = load.psm == kT4 ? 16 : 256, first = load.psm == kT4 ? load.csa * 16 : 0;
  for (size_t e = 0; e < count; ++e) {
    const size_t x = Csm1X(e), y = Csm1Y(e);
    const size_t at = load.cpsm == kCt16 ? Address16(load.cbp, 1, x, y) : Address32(load.cbp, 1, x, y);
    const size_t slot = (first + e) % clut.colour.size();
    clut.held[slot] = ColourAt(gs, load.cpsm == kCt16 ? kCt16 : kCt32, at, clut.colour[slot]);
  }
  return clut;
}

}  // namespace animkit::kh2::detail
