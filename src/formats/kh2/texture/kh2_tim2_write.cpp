// TIM2 texture entries written back: an unchanged picture keeps its bytes, a changed one
// is re-encoded in its own image and CLUT type (of another size: its header's sizes and
// TEX0 TW/TH follow), added ones (all of a new file's) are 8-bit pictures with a 32-bit
// CSM1 CLUT (docs/formats/kh2.md, "Writing textures"; layout: OpenKH's Tm2.cs, docs/common/tm2.md).
#include "formats/kh2/texture/kh2_texture_write.hpp"

#include <animkit/core/error.hpp>

namespace animkit::kh2::detail {

namespace tim2_write {  // named: the library compiles as unity batches

constexpr size_t kHeader = 0x10, kPictureHeader = 0x30;

uint32_t Log2(uint32_t v) {
  uint32_t n = 0;
  while ((1u << n) < v) ++n;
  return n;
}

// A colour (PS2 alpha) in a TIM2 colour type: 1 A1B5G5R5, 2 RGB, 3 RGBA.
void PutColour(Bytes& b, size_t at, int type, const Rgba& c) {
  if (type == 1) le::Store16At(b, at, To16(c));
  else for (size_t k = 0; k < (type == 2 ? 3u : 4u); ++k) b[at + k] = c[k];
}
size_t ColourSize(int type) { return type == 1 ? 2 : type == 2 ? 3 : 4; }

// A picture (header as the template's: `header`, header size first) re-encoded for img.
Bytes Encode(Bytes header, const animkit::Image& img, const std::string& name) {
  const size_t header_size = le::Load16At(header, 12);
  const uint32_t old_w = le::Load16At(header, 20), old_h = le::Load16At(header, 22);
  const int image_type = header[19], clut_type = header[18] & 0x3F;
  const size_t colours = le::Load16At(header, 14), clut_size = le::Load32At(header, 4), old_image = le::Load32At(header, 8);
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
  le::Store32At(header, 0, uint32_t(header_size + data.size() + clut.size()));
  le::Store32At(header, 8, uint32_t(data.size()));
  le::Store16At(header, 20, uint16_t(img.width)), le::Store16At(header, 22, uint16_t(img.height));
  uint64_t tex0 = uint64_t(le::Load32At(header, 0x18)) | uint64_t(le::Load32At(header, 0x1C)) << 32;
  if (tex0 != 0 && !same) {  // GS TEX0 TW/TH follow the size
    tex0 = (tex0 & ~(uint64_t(0xFF) << 26)) | uint64_t(Log2(img.width)) << 26 | uint64_t(Log2(img.height)) << 30;
    le::Store32At(header, 0x18, uint32_t(tex0)), le::Store32At(header, 0x1C, uint32_t(tex0 >> 32));
  }
  header.insert(header.end(), data.begin(), data.end());
  header.insert(header.end(), clut.begin(), clut.end());
  return header;
}

// The header of a picture added: 8-bit, 256 colours of 32 bits in CSM1 order.
Bytes NewHeader() {
  Bytes h(kPictureHeader + 256 * 4, 0);  // the header, then no image data and a CLUT of zeros
  le::Store32At(h, 4, 256 * 4), le::Store16At(h, 12, uint16_t(kPictureHeader)), le::Store16At(h, 14, 256);
  h[17] = 1, h[18] = 3, h[19] = 5;
  return h;
}

}  // namespace tim2_write

FormWrite WriteTim2(ByteView tim2, const std::vector<animkit::Image>& decoded, const std::vector<const animkit::Image*>& images) {
  using namespace tim2_write;
  FormWrite out;
  const Bytes new_file = {'T', 'I', 'M', '2', 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // version 4, pictures from 0x10
  if (tim2.empty()) tim2 = new_file;
  if (tim2.size() < kHeader) throw Error::General("TIM2 template: shorter than its header");
  const size_t count = le::Load16At(tim2, 6);
  size_t at = tim2[5] != 0 ? 0x80 : kHeader;
  out.bytes.assign(tim2.begin(), tim2.begin() + std::ptrdiff_t(std::min(at, tim2.size())));
  for (size_t i = 0; i < images.size(); ++i) {
    const animkit::Image& img = *images[i];
    const std::string name = img.name.empty() ? "texture " + std::to_string(i) : img.name;
    if (i < count) {
      if (at + kPictureHeader > tim2.size() || i >= decoded.size() || decoded[i].Missing())
        throw Error::General("TIM2 template: picture " + std::to_string(i) + " could not be read");
      const size_t total = le::Load32At(tim2, at);
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
  le::Store16At(out.bytes, 6, uint16_t(std::max(images.size(), count)));
  if (images.size() <= count) out.bytes.insert(out.bytes.end(), tim2.begin() + std::ptrdiff_t(std::min(at, tim2.size())), tim2.end());
  return out;
}

}  // namespace animkit::kh2::detail
