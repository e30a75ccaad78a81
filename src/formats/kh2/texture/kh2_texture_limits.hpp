// KH2 texture limits, stated once for the readers and every writer (docs/formats/kh2.md,
// "Texture limits").
#pragma once

#include <cstddef>
#include <cstdint>

namespace animkit::kh2::detail {

// A written texture's side: a power of two up to this. KH2 models upload their textures to
// GS blocks 0x3A00..0x4000 (below); the largest real texture is 512 x 256.
inline constexpr uint32_t kMaxTextureSide = 512;
// The GS memory KH2 models upload textures to: CLUTs from the first block, pictures after.
inline constexpr size_t kTextureFirstBlock = 0x3A00;
inline constexpr size_t kTextureEndBlock = 0x4000;
// Textures of one entry (one set): the raw form's offset data gives each a byte.
inline constexpr size_t kMaxTextures = 255;
// What the readers take: TEX0 TW/TH are at most 10 (the GS samples at most 1024 a side);
// a TIM2 picture stores its sides as u16, read up to 4096.
inline constexpr uint32_t kGsMaxSideLog2 = 10;
inline constexpr uint32_t kTim2MaxSide = 4096;

}  // namespace animkit::kh2::detail
