// DDS textures (the files an MDB names): mip 0 decoded to RGBA8, and a small writer for the
// project's samples. Layout: Microsoft's DDS_HEADER / DDS_PIXELFORMAT / DDS_HEADER_DXT10
// (docs/formats/edf_mdb.md); block decoding and encoding by libsquish.
#include <animkit/formats/edf_mdb.hpp>

#include <squish.h>

#include <bit>
#include <cstring>

namespace animkit::edf_mdb {
namespace {

constexpr size_t kDdsHeader = 128, kDx10Header = 20;
constexpr uint32_t kMaxSide = 16384;  // Direct3D 11's largest 2D texture
constexpr uint32_t kPfAlphaPixels = 0x1, kPfFourCC = 0x4, kPfRgb = 0x40, kPfLuminance = 0x20000;

constexpr uint32_t FourCC(const char (&s)[5]) {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}

struct Masks {
  uint32_t bits = 0, r = 0, g = 0, b = 0, a = 0;
  bool luminance = false;
};

// What a header says the pixels are: squish flags (0 for masks), or a reason not to decode.
struct Kind {
  int squish = 0;
  Masks masks;
  std::string name, unsupported;
};

Kind FromDxgi(uint32_t dxgi) {
  switch (dxgi) {
    case 71: case 72: return {squish::kDxt1, {}, "BC1", ""};
    case 74: case 75: return {squish::kDxt3, {}, "BC2", ""};
    case 77: case 78: return {squish::kDxt5, {}, "BC3", ""};
    case 80: return {squish::kBc4, {}, "BC4", ""};
    case 83: return {squish::kBc5, {}, "BC5", ""};
    case 28: case 29: return {0, {32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000u}, "R8G8B8A8", ""};
    case 87: case 91: return {0, {32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000u}, "B8G8R8A8", ""};
    case 88: case 93: return {0, {32, 0xFF0000, 0xFF00, 0xFF, 0}, "B8G8R8X8", ""};
    case 98: case 99: return {0, {}, "BC7", "BC7: no Debian-packaged library decodes it"};
    default: return {0, {}, "DXGI " + std::to_string(dxgi), "DXGI format " + std::to_string(dxgi) + " is not decoded"};
  }
}

Kind FromPixelFormat(ByteReader& r, size_t& data_at) {
  r.Seek(80, "the pixel format");
  const uint32_t flags = r.U32(), fourcc = r.U32();
  Masks m;
  m.bits = r.U32(), m.r = r.U32(), m.g = r.U32(), m.b = r.U32(), m.a = r.U32();
  if (flags & kPfFourCC) {
    if (fourcc == FourCC("DXT1")) return {squish::kDxt1, {}, "BC1", ""};
    if (fourcc == FourCC("DXT2") || fourcc == FourCC("DXT3")) return {squish::kDxt3, {}, "BC2", ""};
    if (fourcc == FourCC("DXT4") || fourcc == FourCC("DXT5")) return {squish::kDxt5, {}, "BC3", ""};
    if (fourcc == FourCC("ATI1") || fourcc == FourCC("BC4U")) return {squish::kBc4, {}, "BC4", ""};
    if (fourcc == FourCC("ATI2") || fourcc == FourCC("BC5U")) return {squish::kBc5, {}, "BC5", ""};
    if (fourcc == 21) return {0, {32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000u}, "A8R8G8B8", ""};
    if (fourcc == FourCC("DX10")) {
      r.Seek(kDdsHeader, "the DX10 header");
      const uint32_t dxgi = r.U32("a DXGI format");
      data_at = kDdsHeader + kDx10Header;
      return FromDxgi(dxgi);
    }
    std::string code(4, '?');
    for (size_t i = 0; i < 4; ++i) {
      const char c = char(fourcc >> (8 * i));
      if (c >= 0x20 && c < 0x7F) code[i] = c;
    }
    return {0, {}, "FourCC " + code, "FourCC '" + code + "' is not decoded"};
  }
  if (!(flags & (kPfRgb | kPfLuminance)) || !(m.bits == 8 || m.bits == 16 || m.bits == 24 || m.bits == 32))
    r.FailAt(80, "a pixel format of neither RGB, luminance nor FourCC (" + std::to_string(m.bits) + " bits)");
  if (!(flags & kPfAlphaPixels)) m.a = 0;
  m.luminance = (flags & kPfLuminance) != 0;
  return {0, m, (m.luminance ? "L" : "RGB") + std::to_string(m.bits), ""};
}

// A channel of a packed pixel scaled to 0..255; `absent` when the mask is 0.
uint8_t Channel(uint32_t pixel, uint32_t mask, uint8_t absent) {
  if (mask == 0) return absent;
  const int shift = std::countr_zero(mask);
  const uint32_t max = mask >> shift, value = (pixel & mask) >> shift;
  return uint8_t((value * 255 + max / 2) / max);
}

void DecodeMasked(const uint8_t* p, const Masks& m, Image& image) {
  const size_t bytes = m.bits / 8, n = size_t(image.width) * image.height;
  image.rgba.resize(n * 4);
  for (size_t i = 0; i < n; ++i) {
    uint32_t pixel = 0;
    for (size_t k = 0; k < bytes; ++k) pixel |= uint32_t(p[i * bytes + k]) << (8 * k);
    uint8_t* out = &image.rgba[i * 4];
    out[0] = Channel(pixel, m.r, 0);
    out[1] = m.luminance ? out[0] : Channel(pixel, m.g, 0);
    out[2] = m.luminance ? out[0] : Channel(pixel, m.b, 0);
    out[3] = Channel(pixel, m.a, 255);
  }
}

}  // namespace

Image DecodeDds(ByteView data, const std::string& name) {
  ByteReader r(data, Endian::Little);
  r.Magic("DDS ");
  if (r.U32("the header size") != 124) r.FailAt(4, "a DDS header size other than 124");
  r.Skip(4, "the header flags");
  Image image;
  image.name = name;
  image.height = r.U32("the height");
  image.width = r.U32("the width");
  if (image.width == 0 || image.height == 0 || image.width > kMaxSide || image.height > kMaxSide) {
    r.FailAt(12, "a size of " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                     " (1 to " + std::to_string(kMaxSide) + " a side)");
  }
  r.Require(kDdsHeader - r.tell(), "the DDS header");
  size_t data_at = kDdsHeader;
  Kind kind = FromPixelFormat(r, data_at);
  image.source_format = kind.name;
  if (!kind.unsupported.empty()) {
    image.missing = kind.unsupported;
    return image;
  }
  const size_t w = image.width, h = image.height;
  const size_t needed = kind.squish ? size_t(squish::GetStorageRequirements(int(w), int(h), kind.squish))
                                    : w * h * (kind.masks.bits / 8);
  r.Seek(data_at, "the pixels");
  const ByteView pixels = r.Take(needed, "the pixels of mip 0");  // checked before allocating
  if (kind.squish) {
    image.rgba.assign(w * h * 4, 0);
    squish::DecompressImage(image.rgba.data(), int(w), int(h), pixels.data(), kind.squish);
    if (kind.squish == squish::kBc4 || kind.squish == squish::kBc5)
      for (size_t i = 0; i < w * h; ++i) image.rgba[i * 4 + 3] = 255;
  } else {
    DecodeMasked(pixels.data(), kind.masks, image);
  }
  return image;
}

Bytes EncodeDds(const Image& image, DdsEncoding encoding) {
  const size_t w = image.width, h = image.height;
  if (w == 0 || h == 0 || w > kMaxSide || h > kMaxSide || image.rgba.size() != w * h * 4)
    throw Error::General("DDS: image '" + image.name + "' has no pixels of its size to write");
  const bool compressed = encoding != DdsEncoding::Bgra8;  // BC1 or BC3
  const int flags = encoding == DdsEncoding::Bc3 ? squish::kDxt5 : squish::kDxt1;
  const size_t data_size = compressed ? size_t(squish::GetStorageRequirements(int(w), int(h), flags)) : w * h * 4;
  ByteWriter out(Endian::Little);
  for (char c : {'D', 'D', 'S', ' '}) out.U8(uint8_t(c));
  out.U32(124);
  out.U32(0x1007 | (compressed ? 0x80000 : 0x8));  // caps, height, width, pixel format; linear size or pitch
  out.U32(uint32_t(h));
  out.U32(uint32_t(w));
  out.U32(uint32_t(compressed ? data_size : w * 4));
  out.U32(0);  // depth
  out.U32(1);  // mip count
  out.Fill(44);
  out.U32(32);
  if (compressed) {
    out.U32(kPfFourCC), out.U32(encoding == DdsEncoding::Bc3 ? FourCC("DXT5") : FourCC("DXT1"));
    out.Fill(20);
  } else {
    out.U32(kPfRgb | kPfAlphaPixels), out.U32(0), out.U32(32);
    for (uint32_t m : {0xFF0000u, 0xFF00u, 0xFFu, 0xFF000000u}) out.U32(m);
  }
  out.U32(0x1000);  // caps: a texture
  out.Fill(16);
  Bytes pixels(data_size);
  if (compressed) {
    squish::CompressImage(image.rgba.data(), int(w), int(h), pixels.data(), flags);
  } else {
    for (size_t i = 0; i < w * h; ++i) {
      const uint8_t* p = &image.rgba[i * 4];
      pixels[i * 4 + 0] = p[2], pixels[i * 4 + 1] = p[1], pixels[i * 4 + 2] = p[0], pixels[i * 4 + 3] = p[3];
    }
  }
  out.Append(pixels);
  return out.Take();
}

}  // namespace animkit::edf_mdb
