// PNG through stb: stb_image's code is compiled once in src/formats/gltf/gltf_library_code.cpp;
// stb_image_write's here, as this file's own (static) functions.
#include "formats/common/png.hpp"

#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

#include <stb/stb_image.h>

// stb's PNG writer grows thousands of small buffers (its deflate's hash chains) one realloc
// at a time. Through operator new they come from the CLI's own pools on Windows, where the
// C runtime's heap takes several times glibc's time a call (docs/performance.md, "The
// Windows CLI under Wine"); the bytes written are the same.
namespace animkit::png {
namespace {
void* PngWriterAllocate(size_t size) { return ::operator new(size, std::nothrow); }
void PngWriterFree(void* p) { ::operator delete(p); }
void* PngWriterReallocate(void* p, size_t old_size, size_t new_size) {
  void* grown = PngWriterAllocate(new_size);
  if (grown && p) std::memcpy(grown, p, std::min(old_size, new_size));
  if (grown) PngWriterFree(p);
  return grown;
}
}  // namespace
}  // namespace animkit::png
#define STBIW_MALLOC(size) ::animkit::png::PngWriterAllocate(size)
#define STBIW_REALLOC_SIZED(p, old_size, new_size) ::animkit::png::PngWriterReallocate(p, old_size, new_size)
#define STBIW_FREE(p) ::animkit::png::PngWriterFree(p)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace animkit::png {

namespace {
void AppendBytes(void* context, void* data, int size) {
  auto* out = static_cast<Bytes*>(context);
  const auto* p = static_cast<const uint8_t*>(data);
  out->insert(out->end(), p, p + size);
}
}  // namespace

std::string UnwritableReason(const Image& image) {
  if (image.Missing()) return image.missing.empty() ? "the image has no pixels" : image.missing;
  constexpr uint32_t kMaxSide = 1u << 15;  // stb_image_write takes int sizes; game textures are far smaller
  if (image.width == 0 || image.height == 0 || image.width > kMaxSide || image.height > kMaxSide)
    return "the image is " + std::to_string(image.width) + "x" + std::to_string(image.height) + " pixels";
  if (image.rgba.size() != size_t(image.width) * image.height * 4)
    return "the image has " + std::to_string(image.rgba.size()) + " bytes of pixels, " +
           std::to_string(size_t(image.width) * image.height * 4) + " expected for its size";
  return "";
}

Bytes Encode(const Image& image) {
  const std::string why = UnwritableReason(image);
  if (!why.empty()) throw Error::General("image '" + image.name + "' cannot be written as PNG: " + why);
  Bytes out;
  const int w = int(image.width), h = int(image.height);
  if (!stbi_write_png_to_func(&AppendBytes, &out, w, h, 4, image.rgba.data(), w * 4))
    throw Error::General("image '" + image.name + "' could not be encoded as PNG");
  return out;
}

namespace {

// The PNG without its empty IDAT chunks, which carry no pixels: stb_image copies an empty one
// first of all into a buffer it has not made yet (memcpy from a null pointer, undefined). A
// chunk longer than the rest of the file is an error here, before stb_image allocates for it.
ByteView WithoutEmptyImageData(ByteView bytes, Bytes& storage) {
  constexpr size_t kSignature = 8, kChunkFrame = 12;  // length, type, CRC
  std::vector<size_t> empty;
  for (size_t at = kSignature; at + kChunkFrame <= bytes.size();) {
    const uint64_t length = be::Load32(bytes.data() + at);
    if (length > bytes.size() - at - kChunkFrame)  // stb_image would allocate for it before it reads
      throw Error::AtOffset(at, "a PNG chunk of " + std::to_string(length) + " bytes runs past the end of the file (" +
                                    std::to_string(bytes.size()) + " bytes)");
    if (length == 0 && std::equal(bytes.begin() + at + 4, bytes.begin() + at + 8, "IDAT")) empty.push_back(at);
    at += kChunkFrame + size_t(length);
  }
  if (empty.empty()) return bytes;
  storage.assign(bytes.begin(), bytes.begin() + empty.front());
  for (size_t i = 0; i < empty.size(); ++i) {
    const size_t next = i + 1 < empty.size() ? empty[i + 1] : bytes.size();
    storage.insert(storage.end(), bytes.begin() + empty[i] + kChunkFrame, bytes.begin() + next);
  }
  return storage;
}

}  // namespace

Image Decode(ByteView input, const Limits& limits) {
  if (input.size() > size_t{1} << 30) throw Error::AtOffset(0, "a PNG of at most 1 GiB");
  Bytes storage;
  const ByteView bytes = WithoutEmptyImageData(input, storage);
  int w = 0, h = 0, channels = 0;
  if (stbi_info_from_memory(bytes.data(), int(bytes.size()), &w, &h, &channels))  // IHDR's width at 16
    CheckLimit(uint64_t(w) * uint64_t(h) * 4, &Limits::max_buffer_bytes, limits, "the image's RGBA bytes", Place::At(16));
  const std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(bytes.data(), int(bytes.size()), &w, &h, &channels, 4), stbi_image_free);
  if (!pixels) {
    const char* why = stbi_failure_reason();
    throw Error::AtOffset(0, std::string("expected a PNG image stb_image can read (") + (why ? why : "unknown") + ")");
  }
  Image image;
  image.width = uint32_t(w), image.height = uint32_t(h);
  image.rgba.assign(pixels.get(), pixels.get() + size_t(w) * size_t(h) * 4);
  image.source_format = "PNG";
  return image;
}

}  // namespace animkit::png
