// TIM2 texture entries written back: an unchanged picture keeps its bytes, a changed one
// is re-encoded in its own image and CLUT type (of another size: its header's sizes and
// TEX0 TW/TH follow), added ones are 8-bit pictures with a 32-bit CSM1 CLUT
// (docs/formats/kh2.md, "Writing textures"; layout: OpenKH's Tm2.cs, docs/common/tm2.md).
#include "formats/kh2/texture/kh2_texture_write.hpp"

#include <animkit/core/error.hpp>

namespace animkit::kh2::detail {

namespace tim2_write {  // named: the library compiles as unity batches

constexpr size_t kHeader = 0x10, kPictureHeader = 0x30;

uint32_t Get(ByteView b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t(b[at + i]) << (8 * i);
  return v;
}
void Set(Bytes& b, size_t at, size_t n, uint64_t v) {
  for (size_t i = 0; i < n; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
// CSM1 order: within each 32 entries, entries 8-15 and 16-23 trade places.
size_t Csm1Slot(size_t i) { return (i & ~size_t(0x18)) | ((i & 0x8) << 1) | ((i & 0x10) >> 1); }
uint32_t Log2(uint32_t v) {
  uint32_t n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

// A colour (PS2 alpha) in a TIM2 colour type: 1 A1B5G5R5, 2 RGB, 3 RGBA.
void PutColour(Bytes& b, size_t at, int type, const Rgba& c) {
  if (type == 1) Set(b, at, 2, uint32_t((c[0] >> 3) | (c[1] >> 3) << 5 | (c[2] >> 3) << 10 | (c[3] >= 0x40 ? 0x8000 : 0)));
  else for (size_t k = 0; k < (type == 2 ? 3u : 4u); ++k) b[at + k] = c[k];
}
size_t ColourSize(int type) { return type == 1 ? 2 : type == 2 ? 3 : 4; }

// A picture (header as the template's: `header`, header size first) re-encoded for img.
Bytes Encode(Bytes header, const Image& img, const std::string& name) {
  const size_t header_size = Get(header, 12, 2);
  const uint32_t old_w = Get(header, 20, 2), old_h = Get(header, 22, 2);
  const int image_type = header[19], clut_type = header[18] & 0x3F;
  const size_t colours = Get(header, 14, 2), clut_size = Get(header, 4, 4), old_image = Get(header, 8, 4);
  if (header[17] > 1) throw Error::General("texture '" + name + "': a mipmapped TIM2 picture is not written");
  if (image_type < 1 || image_type > 5) throw Error::General("texture '" + name + "': TIM2 image type " + std::to_string(image_type) + " is not written");
  const size_t bits = image_type == 4 ? 4 : image_type == 5 ? 8 : 8 * ColourSize(image_type);
  const size_t pixels = size_t(img.width) * img.height;
  const bool same = img.width == old_w && img.height == old_h;
  const size_t image_size = same ? old_image : (pixels * bits / 8 + 15) / 16 * 16;
  Bytes data(image_size, 0);
  Bytes clut(clut_size, 0);
  if (same) {  // in place: bytes the new picture does not cover (padding, unused colours) kept
    const size_t at = header_size;
    std::copy(header.begin() + std::ptrdiff_t(at), header.begin() + std::ptrdiff_t(at + old_image), data.begin());
    std::copy(header.begin() + std::ptrdiff_t(at + old_image), header.begin() + std::ptrdiff_t(at + old_image + clut_size), clut.begin());
  }
  header.resize(header_size);
  if (image_type >= 4) {
    if (clut_type < 1 || clut_type > 3) throw Error::General("texture '" + name + "': TIM2 CLUT type " + std::to_string(clut_type) + " is not written");
    const Indexed q = Quantise(img, std::min<size_t>(image_type == 4 ? 16 : 256, colours));
    const bool csm1 = (header[18] & 0x80) == 0 && colours >= 32;  // as the reader takes it
    for (size_t i = 0; i < q.palette.size(); ++i) {
      const size_t slot = csm1 ? Csm1Slot(i) : i;
      if ((slot + 1) * ColourSize(clut_type) <= clut.size()) PutColour(clut, slot * ColourSize(clut_type), clut_type, q.palette[i]);
    }
    for (size_t p = 0; p < pixels; ++p) {
      if (image_type == 5) data[p] = q.index[p];
      else data[p / 2] = uint8_t((data[p / 2] & ~(15 << (4 * (p & 1)))) | q.index[p] << (4 * (p & 1)));  // low nibble first
    }
  } else {
    for (size_t p = 0; p < pixels; ++p) {
      const uint8_t* c = img.rgba.data() + p * 4;
      PutColour(data, p * ColourSize(image_type), image_type, {c[0], c[1], c[2], image_type == 3 ? ToPs2Alpha(c[3]) : c[3]});
    }
  }
  Set(header, 0, 4, header_size + data.size() + clut.size());
  Set(header, 8, 4, data.size());
  Set(header, 20, 2, img.width), Set(header, 22, 2, img.height);
  uint64_t tex0 = 0;
  for (size_t i = 0; i < 8; ++i) tex0 |= uint64_t(header[0x18 + i]) << (8 * i);
  if (tex0 != 0 && !same) {  // GS TEX0 TW/TH follow the size
    tex0 = (tex0 & ~(uint64_t(0xFF) << 26)) | uint64_t(Log2(img.width)) << 26 | uint64_t(Log2(img.height)) << 30;
    Set(header, 0x18, 8, tex0);
  }
  header.insert(header.end(), data.begin(), data.end());
  header.insert(header.end(), clut.begin(), clut.end());
  return header;
}

// The header of a picture added: 8-bit, 256 colours of 32 bits in CSM1 order.
Bytes NewHeader() {
  Bytes h(kPictureHeader + 256 * 4, 0);  // the header, then no image data and a CLUT of zeros
  Set(h, 4, 4, 256 * 4), Set(h, 12, 2, kPictureHeader), Set(h, 14, 2, 256);
  h[17] = 1, h[18] = 3, h[19] = 5;
  return h;
}

}  // namespace tim2_write

FormWrite WriteTim2(ByteView tim2, const std::vector<Image>& decoded, const std::vector<const Image*>& images) {
  using namespace tim2_write;
  FormWrite out;
  if (tim2.size() < kHeader) throw Error::General("TIM2 template: shorter than its header");
  const size_t count = Get(tim2, 6, 2);
  size_t at = tim2[5] != 0 ? 0x80 : kHeader;
  out.bytes.assign(tim2.begin(), tim2.begin() + std::ptrdiff_t(std::min(at, tim2.size())));
  for (size_t i = 0; i < images.size(); ++i) {
    const Image& img = *images[i];
    const std::string name = img.name.empty() ? "texture " + std::to_string(i) : img.name;
    if (i < count) {
      if (at + kPictureHeader > tim2.size() || i >= decoded.size() || decoded[i].Missing())
        throw Error::General("TIM2 template: picture " + std::to_string(i) + " could not be read");
      const size_t total = Get(tim2, at, 4);
      if (total < kPictureHeader || total > tim2.size() - at) throw Error::General("TIM2 template: picture " + std::to_string(i) + " does not fit the file");
      const ByteView picture = tim2.subspan(at, total);
      at += total;
      if (SameImage(img, decoded[i]) || img.Missing()) {
        if (img.Missing()) out.warnings.push_back("texture '" + name + "' has no pixels: the template's picture is kept");
        out.bytes.insert(out.bytes.end(), picture.begin(), picture.end());
        ++out.kept;
        continue;
      }
      CheckTextureSize(img);
      const Bytes p = Encode(Bytes(picture.begin(), picture.end()), img, name);
      out.bytes.insert(out.bytes.end(), p.begin(), p.end());
      ++out.reencoded;
    } else {
      CheckTextureSize(img);
      const Bytes p = Encode(NewHeader(), img, name);  // its 0x0 size differs: Encode sizes the image data
      out.bytes.insert(out.bytes.end(), p.begin(), p.end());
      ++out.added;
    }
  }
  if (images.size() > 0xFFFF) throw Error::General("TIM2: at most 65535 pictures");
  Set(out.bytes, 6, 2, std::max(images.size(), count));
  if (images.size() <= count) out.bytes.insert(out.bytes.end(), tim2.begin() + std::ptrdiff_t(std::min(at, tim2.size())), tim2.end());
  return out;
}

}  // namespace animkit::kh2::detail
