// KH2 texture entries written back (docs/formats/kh2.md, "Writing textures"): what the
// raw GS form's and TIM2's writers share.
#pragma once

#include "formats/kh2/texture/kh2_gs_memory.hpp"
#include "formats/kh2/texture/kh2_texture_limits.hpp"

#include <animkit/formats/kh2/texture.hpp>

namespace animkit::kh2::detail {

// An indexed picture: width x height indices into palette, whose colours carry PS2 alpha
// (0x80 opaque).
struct Indexed {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> index;
  std::vector<Rgba> palette;
};

uint8_t ToPs2Alpha(uint8_t a);  // 255 -> 0x80; the inverse of AlphaOf on every value it gives
bool SameImage(const animkit::Image& a, const animkit::Image& b);
// At most `colours` colours: exactly the image's own when it has no more (alpha at PS2
// precision), else libimagequant's palette and remap (no dithering).
Indexed Quantise(const animkit::Image& img, size_t colours);

// A texture's size checked against what the GS and the forms hold (kh2_texture_limits.hpp):
// each side a power of two up to max_side (kMaxTextureSide; a picture replaced in its
// template's layout, up to what the template holds). Throws animkit::Error naming the
// texture and the limit.
void CheckTextureSize(const animkit::Image& img, uint32_t max_side = kMaxTextureSide);

// The PSMCT32 rectangle an 8-bit (psm 19) or 4-bit (psm 20) picture of w x h is uploaded
// as (the stock layout: TBW = 2 x DBW, TBP = DBP): its width and height in PSMCT32 texels,
// the TBW, and the GS blocks it takes (whole pages).
struct IndexedLayout {
  size_t rect_w = 0, rect_h = 0, tbw = 0, blocks = 0;
};
IndexedLayout LayoutOf(uint32_t w, uint32_t h, size_t psm);
// The swizzle: the upload bytes that leave the indices where TEX0 reads them; and back.
Bytes SwizzleIndexed(const std::vector<uint8_t>& index, uint32_t w, uint32_t h, size_t psm);
std::vector<uint8_t> UnswizzleIndexed(ByteView upload, uint32_t w, uint32_t h, size_t psm);

// The bytes an upload sends (data, QWC x 16) updated to what GS memory now holds where the
// upload writes each texel: the inverse of Upload. Bits nothing wrote keep their value.
void Download(const Transfer& t, const GsMemory& gs, Bytes& data);

// One raw GS form written (texture-set lists write each set with it). `form` is the
// template's raw form (empty: none), `decoded` its images; images[i] for i < decoded.size()
// replace them, the rest are added.
struct FormWrite {
  Bytes bytes;
  std::vector<std::string> warnings;
  size_t kept = 0, reencoded = 0, added = 0;
};
// rebuild: lay the form out anew even when every image fits the template's layout. An
// empty template (form, tim2): a new one, every image added.
FormWrite WriteRawForm(ByteView form, const std::vector<animkit::Image>& decoded, const std::vector<const animkit::Image*>& images, bool rebuild = false);
FormWrite WriteTim2(ByteView tim2, const std::vector<animkit::Image>& decoded, const std::vector<const animkit::Image*>& images);

}  // namespace animkit::kh2::detail
