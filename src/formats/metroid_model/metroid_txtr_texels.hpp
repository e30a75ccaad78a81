// The 16-bit texel and palette forms of TXTR widened to 8-bit RGBA, by bit replication
// (5 -> 8 bits is v << 3 | v >> 2): what the decoder shows and the encoder's rounding aims at.
#pragma once

#include <array>
#include <cstdint>

namespace animkit::metroid_txtr::texels {

using Rgba = std::array<uint8_t, 4>;

inline uint8_t Widen3(uint32_t v) { return static_cast<uint8_t>((v << 5) | (v << 2) | (v >> 1)); }
inline uint8_t Widen4(uint32_t v) { return static_cast<uint8_t>(v * 17); }
inline uint8_t Widen5(uint32_t v) { return static_cast<uint8_t>((v << 3) | (v >> 2)); }
inline uint8_t Widen6(uint32_t v) { return static_cast<uint8_t>((v << 2) | (v >> 4)); }

inline Rgba FromRgb565(uint16_t v) { return {Widen5(v >> 11), Widen6((v >> 5) & 63), Widen5(v & 31), 255}; }
// Bit 15 set: opaque RGB555; clear: A3 R4 G4 B4.
inline Rgba FromRgb5a3(uint16_t v) {
  if (v & 0x8000) return {Widen5((v >> 10) & 31), Widen5((v >> 5) & 31), Widen5(v & 31), 255};
  return {Widen4((v >> 8) & 15), Widen4((v >> 4) & 15), Widen4(v & 15), Widen3((v >> 12) & 7)};
}
// IA8 as the texel: the first (high) byte alpha, the second intensity.
inline Rgba FromIa8(uint16_t v) {
  const auto i = static_cast<uint8_t>(v & 0xFF);
  return {i, i, i, static_cast<uint8_t>(v >> 8)};
}
// A palette entry of palette_format (0 IA8, 1 RGB565, 2 RGB5A3).
inline Rgba FromPaletteEntry(uint32_t palette_format, uint16_t v) {
  return palette_format == 0 ? FromIa8(v) : palette_format == 1 ? FromRgb565(v) : FromRgb5a3(v);
}

}  // namespace animkit::metroid_txtr::texels
