// Materials and textures for the glTF exporter: each decoded image as a PNG in the
// buffer (a buffer view with its MIME type), one texture and sampler per image, and each
// Material as a metallic-roughness material (docs/gltf.md).
#include <animkit/core/error.hpp>
#include <animkit/core/model.hpp>

#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

// stb's PNG writer grows thousands of small buffers (its deflate's hash chains) one realloc
// at a time. Through operator new they come from the CLI's own pools on Windows, where the
// C runtime's heap takes several times glibc's time a call (docs/performance.md, "The
// Windows CLI under Wine"); the bytes written are the same.
namespace animkit::gltf {
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
}  // namespace animkit::gltf
#define STBIW_MALLOC(size) ::animkit::gltf::PngWriterAllocate(size)
#define STBIW_REALLOC_SIZED(p, old_size, new_size) ::animkit::gltf::PngWriterReallocate(p, old_size, new_size)
#define STBIW_FREE(p) ::animkit::gltf::PngWriterFree(p)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace animkit::gltf {
namespace {

using nlohmann::json;

void AppendBytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* p = static_cast<const uint8_t*>(data);
  out->insert(out->end(), p, p + size);
}

// Why an image cannot be written, "" when it can.
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

std::vector<uint8_t> EncodePng(const Image& image) {
  std::vector<uint8_t> png;
  const int w = int(image.width), h = int(image.height);
  if (!stbi_write_png_to_func(&AppendBytes, &png, w, h, 4, image.rgba.data(), w * 4))
    throw Error::General("image '" + image.name + "' could not be encoded as PNG");
  return png;
}

float Unit(float v) { return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 1.0f; }

}  // namespace

MaterialExport AddMaterialsAndTextures(tinygltf::Model& model, const Scene& scene) {
  MaterialExport out;
  // Textures: one glTF image, texture and (shared) sampler per image that has pixels.
  out.texture_of_image.assign(scene.textures.size(), -1);
  json missing = json::array();
  for (size_t i = 0; i < scene.textures.size(); ++i) {
    const Image& image = scene.textures[i];
    const std::string reason = UnwritableReason(image);
    if (!reason.empty()) {
      json entry = {{"index", i}, {"name", image.name}, {"source_format", image.source_format}, {"missing", reason}};
      if (image.width || image.height) entry["width"] = image.width, entry["height"] = image.height;  // as the model said
      missing.push_back(std::move(entry));
      continue;
    }
    if (model.samplers.empty()) {
      tinygltf::Sampler sampler;
      sampler.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
      sampler.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
      model.samplers.push_back(std::move(sampler));
    }
    const std::vector<uint8_t> png = EncodePng(image);
    tinygltf::Image gimage;
    gimage.name = image.name;
    gimage.mimeType = "image/png";
    gimage.bufferView = AppendBufferView(model, png.data(), png.size(), 0);
    if (!image.source_format.empty())
      gimage.extras = ToValue(json{{kExtrasKey, {{"source_format", image.source_format}}}});
    model.images.push_back(std::move(gimage));
    tinygltf::Texture texture;
    texture.name = image.name;
    texture.sampler = 0;
    texture.source = int(model.images.size() - 1);
    model.textures.push_back(std::move(texture));
    out.texture_of_image[i] = int(model.textures.size() - 1);
  }
  if (!missing.empty()) out.missing_images = std::move(missing);

  for (const Material& material : scene.materials) {
    tinygltf::Material m;
    m.name = material.name;
    m.doubleSided = material.double_sided;
    m.pbrMetallicRoughness.metallicFactor = 0;
    m.pbrMetallicRoughness.roughnessFactor = 1;
    m.pbrMetallicRoughness.baseColorFactor = {Unit(material.base_color[0]), Unit(material.base_color[1]),
                                              Unit(material.base_color[2]), Unit(material.base_color[3])};
    switch (material.alpha) {
      case AlphaMode::Opaque: m.alphaMode = "OPAQUE"; break;
      case AlphaMode::Mask:
        m.alphaMode = "MASK";
        m.alphaCutoff = std::isfinite(material.alpha_cutoff) ? std::max(material.alpha_cutoff, 0.0f) : 0.5f;
        break;
      case AlphaMode::Blend: m.alphaMode = "BLEND"; break;
    }
    json extras = json::object();
    const int image = material.texture;
    if (image >= 0 && size_t(image) < scene.textures.size()) {
      const int texture = out.texture_of_image[size_t(image)];
      if (texture >= 0) {
        m.pbrMetallicRoughness.baseColorTexture.index = texture;
      } else {
        // No pixels: the material says which texture it wanted and why it has none.
        extras["texture_missing"] = {{"index", image},
                                     {"name", scene.textures[size_t(image)].name},
                                     {"reason", UnwritableReason(scene.textures[size_t(image)])}};
      }
    }
    const json metadata = ToNlohmann(material.metadata);
    if (metadata.is_object() && !metadata.empty() && IsValueRepresentable(metadata)) extras["metadata"] = metadata;
    if (!extras.empty()) m.extras = ToValue(json{{kExtrasKey, extras}});
    out.textured.push_back(m.pbrMetallicRoughness.baseColorTexture.index >= 0);
    model.materials.push_back(std::move(m));
    out.material_of.push_back(int(model.materials.size() - 1));
  }
  return out;
}

}  // namespace animkit::gltf
