// Materials and textures for the glTF exporter: each decoded image as a PNG in the
// buffer (a buffer view with its MIME type), one texture and sampler per image, and each
// Material as a metallic-roughness material (docs/gltf.md).
#include <animkit/core/error.hpp>
#include <animkit/core/model.hpp>

#include "formats/common/png.hpp"
#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>
#include <cmath>

namespace animkit::gltf {
namespace {

using nlohmann::json;

float Unit(float v) { return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 1.0f; }

}  // namespace

MaterialExport AddMaterialsAndTextures(tinygltf::Model& model, const Scene& scene) {
  MaterialExport out;
  // Textures: one glTF image, texture and (shared) sampler per image that has pixels.
  out.texture_of_image.assign(scene.textures.size(), -1);
  json missing = json::array();
  for (size_t i = 0; i < scene.textures.size(); ++i) {
    const Image& image = scene.textures[i];
    const std::string reason = png::UnwritableReason(image);
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
    const Bytes png_bytes = png::Encode(image);
    tinygltf::Image gimage;
    gimage.name = image.name;
    gimage.mimeType = "image/png";
    gimage.bufferView = AppendBufferView(model, png_bytes.data(), png_bytes.size(), 0);
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
                                     {"reason", png::UnwritableReason(scene.textures[size_t(image)])}};
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
