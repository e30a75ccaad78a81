// glTF meshes, materials and textures -> Scene (docs/gltf.md): a node's mesh becomes rigid
// on the nearest joint at or above it, skinned when the node has a skin and the primitive
// JOINTS_0/WEIGHTS_0, static otherwise; embedded PNG and JPEG images are decoded.
#include <animkit/core/error.hpp>
#include <animkit/core/model.hpp>

#include "formats/gltf/gltf_internal.hpp"

#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace animkit::gltf {
namespace {

using nlohmann::json;


json AnimkitExtras(const std::string& text) {
  const json parsed = text.empty() ? json() : json::parse(text, nullptr, false);
  const auto it = parsed.is_object() ? parsed.find(kExtrasKey) : parsed.end();
  return parsed.is_object() && it != parsed.end() && it->is_object() ? *it : json::object();
}

Value MetadataOf(const json& extras) {
  const auto it = extras.find("metadata");
  return it != extras.end() && it->is_object() ? FromNlohmann(*it) : Value::object();
}

// The image's pixels, or why there are none.
Image DecodeImage(const tinygltf::Model& model, int index, const Limits& limits) {
  const tinygltf::Image& source = model.images[size_t(index)];
  Image image;
  image.name = source.name.empty() ? "image_" + std::to_string(index) : source.name;
  const json extras = AnimkitExtras(source.extras_json_string);
  if (const auto it = extras.find("source_format"); it != extras.end() && it->is_string()) image.source_format = *it;
  if (source.bufferView < 0 || size_t(source.bufferView) >= model.bufferViews.size()) {
    image.missing = "the image is not in a buffer view (images given by URI are not read)";
    return image;
  }
  const tinygltf::BufferView& view = model.bufferViews[size_t(source.bufferView)];
  const size_t buffer_size = view.buffer >= 0 && size_t(view.buffer) < model.buffers.size()
                                 ? model.buffers[size_t(view.buffer)].data.size()
                                 : 0;
  const std::string name = ElementName("image", index);
  if (view.byteOffset > buffer_size || view.byteLength > buffer_size - view.byteOffset || view.byteLength > INT32_MAX)
    gltf::Fail(name + ": " + ElementName("buffer view", source.bufferView) + " runs past the end of its buffer");
  const stbi_uc* bytes = model.buffers[size_t(view.buffer)].data.data() + view.byteOffset;
  const int length = int(view.byteLength);
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(bytes, length, &width, &height, &channels)) {
    image.missing = "not a PNG or JPEG image stb_image can read";
    return image;
  }
  if (image.source_format.empty()) image.source_format = source.mimeType == "image/jpeg" ? "JPEG" : "PNG";
  if (width <= 0 || height <= 0 || uint64_t(width) * uint64_t(height) * 4 > limits.max_buffer_bytes) {
    image.missing = "the image is " + std::to_string(width) + "x" + std::to_string(height) +
                    " pixels, over the limit max-buffer-bytes";
    return image;
  }
  stbi_uc* pixels = stbi_load_from_memory(bytes, length, &width, &height, &channels, 4);
  if (!pixels) {
    image.missing = std::string("the image does not decode: ") + stbi_failure_reason();
    return image;
  }
  image.width = uint32_t(width);
  image.height = uint32_t(height);
  image.rgba.assign(pixels, pixels + size_t(width) * size_t(height) * 4);
  stbi_image_free(pixels);
  return image;
}

// Scene::textures: each glTF texture's image, with the exporter's images without pixels
// (asset extras "missing_images") back at their indices. Returns the Scene image of each texture.
std::vector<int> ImportTextures(const tinygltf::Model& model, const json& asset_extras, const Limits& limits,
                                Scene& scene) {
  std::vector<Image> decoded;
  for (const tinygltf::Texture& texture : model.textures) {
    const int source = texture.source;
    if (source >= 0 && size_t(source) < model.images.size()) {
      decoded.push_back(DecodeImage(model, source, limits));
    } else {
      Image image;
      image.name = texture.name.empty() ? "texture_" + std::to_string(decoded.size()) : texture.name;
      image.missing = "the texture names no image";
      decoded.push_back(std::move(image));
    }
  }
  std::map<size_t, Image> missing;
  const auto list = asset_extras.find("missing_images");
  if (list != asset_extras.end() && list->is_array())
    for (const json& m : *list) {
      const auto index = m.is_object() ? m.find("index") : m.end();
      if (!m.is_object() || index == m.end() || !index->is_number_unsigned()) continue;
      Image image;
      image.name = m.value("name", "");
      image.source_format = m.value("source_format", "");
      image.missing = m.value("missing", "missing");
      image.width = m.value("width", 0u);
      image.height = m.value("height", 0u);
      missing.emplace(index->get<size_t>(), std::move(image));
    }
  const size_t total = decoded.size() + missing.size();
  std::vector<int> texture_image(decoded.size(), -1);
  size_t next = 0;
  for (size_t slot = 0; slot < total; ++slot) {
    auto it = missing.find(slot);
    if (it != missing.end() || next == decoded.size()) {
      if (it == missing.end()) it = missing.begin();  // an index past the end: appended
      scene.textures.push_back(std::move(it->second));
      missing.erase(it);
      continue;
    }
    texture_image[next] = int(scene.textures.size());
    scene.textures.push_back(std::move(decoded[next++]));
  }
  return texture_image;
}

// Scene::materials; returns the Scene material of each glTF material (-1: the exporter's
// vertex colour material, which is not one of the scene's).
std::vector<int> ImportMaterials(const tinygltf::Model& model, bool ours, const std::vector<int>& texture_image,
                                 Scene& scene) {
  std::vector<int> material_of;
  for (const tinygltf::Material& m : model.materials) {
    if (ours && m.name == "animkit_vertex_color") {
      material_of.push_back(-1);
      continue;
    }
    Material material;
    material.name = m.name;
    const std::vector<double>& color = m.pbrMetallicRoughness.baseColorFactor;
    for (size_t c = 0; c < 4 && c < color.size(); ++c) material.base_color[c] = float(color[c]);
    const int texture = m.pbrMetallicRoughness.baseColorTexture.index;
    if (texture >= 0 && size_t(texture) < texture_image.size()) material.texture = texture_image[size_t(texture)];
    material.alpha = m.alphaMode == "MASK" ? AlphaMode::Mask : m.alphaMode == "BLEND" ? AlphaMode::Blend : AlphaMode::Opaque;
    material.alpha_cutoff = float(m.alphaCutoff);
    material.double_sided = m.doubleSided;
    const json extras = AnimkitExtras(m.extras_json_string);
    const auto lost = extras.find("texture_missing");
    if (material.texture < 0 && lost != extras.end() && lost->is_object() && lost->contains("index") &&
        (*lost)["index"].is_number_unsigned() && (*lost)["index"].get<size_t>() < scene.textures.size())
      material.texture = (*lost)["index"].get<int>();
    material.metadata = MetadataOf(extras);
    material_of.push_back(int(scene.materials.size()));
    scene.materials.push_back(std::move(material));
  }
  return material_of;
}

Mat4 LocalMatrix(const tinygltf::Model& model, int node) { return MatrixFromTRS(NodeTransform(model.nodes[size_t(node)], node)); }

// The product of the local matrices from below `top` (exclusive; -1: the scene) down to node.
Mat4 PathMatrix(const tinygltf::Model& model, const std::vector<int>& parents, int top, int node) {
  std::vector<int> path;
  for (int n = node; n >= 0 && n != top; n = parents[size_t(n)]) path.push_back(n);
  Mat4 m;
  bool identity = true;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const tinygltf::Node& n = model.nodes[size_t(*it)];
    if (n.matrix.empty() && n.translation.empty() && n.rotation.empty() && n.scale.empty()) continue;
    m = identity ? LocalMatrix(model, *it) : Multiply(m, LocalMatrix(model, *it));
    identity = false;
  }
  return m;
}

struct MeshSource {
  const tinygltf::Model& model;
  const AccessorReader& reader;
  const std::vector<int>& parents;
  const std::vector<int>& node_joint;
  const std::vector<int>& material_of;
};

std::vector<uint32_t> PrimitiveIndices(const MeshSource& s, const tinygltf::Primitive& p, size_t vertices,
                                       const std::string& what) {
  std::vector<uint32_t> indices;
  if (p.indices >= 0) {
    indices = s.reader.ReadUnsigned(p.indices, TINYGLTF_TYPE_SCALAR, what + " indices");
  } else {
    for (size_t v = 0; v < vertices; ++v) indices.push_back(uint32_t(v));
  }
  for (uint32_t i : indices)
    if (i >= vertices) gltf::Fail(what + " indexes vertex " + std::to_string(i) + " of " + std::to_string(vertices));
  if (p.mode == TINYGLTF_MODE_LINE_STRIP || p.mode == TINYGLTF_MODE_LINE_LOOP) {  // as lines (2 indices each)
    std::vector<uint32_t> list;
    for (size_t k = 1; k < indices.size(); ++k) list.insert(list.end(), {indices[k - 1], indices[k]});
    if (p.mode == TINYGLTF_MODE_LINE_LOOP && indices.size() > 2) list.insert(list.end(), {indices.back(), indices[0]});
    return list;
  }
  if (p.mode == TINYGLTF_MODE_TRIANGLE_STRIP || p.mode == TINYGLTF_MODE_TRIANGLE_FAN) {
    std::vector<uint32_t> list;
    for (size_t k = 2; k < indices.size(); ++k) {
      if (p.mode == TINYGLTF_MODE_TRIANGLE_FAN) list.insert(list.end(), {indices[0], indices[k - 1], indices[k]});
      else if (k % 2) list.insert(list.end(), {indices[k - 1], indices[k - 2], indices[k]});
      else list.insert(list.end(), {indices[k - 2], indices[k - 1], indices[k]});
    }
    return list;
  }
  return indices;
}

// Fills the vertex attributes of mesh from primitive p (POSITION present).
void ReadAttributes(const MeshSource& s, const tinygltf::Primitive& p, const std::string& what, Mesh& mesh) {
  auto attribute = [&](const char* key) {
    const auto it = p.attributes.find(key);
    return it == p.attributes.end() ? -1 : it->second;
  };
  const std::vector<float> positions = s.reader.Read(attribute("POSITION"), TINYGLTF_TYPE_VEC3, true, what + " POSITION");
  const size_t n = positions.size() / 3;
  for (size_t k = 0; k < positions.size(); ++k)
    if (!std::isfinite(positions[k])) gltf::Fail(what + " POSITION " + std::to_string(k / 3) + " is not a finite number");
  for (size_t v = 0; v < n; ++v) mesh.positions.push_back({positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]});
  auto read = [&](const char* key, int type, size_t width, bool float_only) {
    std::vector<float> values = s.reader.Read(attribute(key), type, float_only, what + " " + key);
    if (values.size() != n * width) gltf::Fail(what + " " + key + " has " + std::to_string(values.size() / width) +
                                         " elements for " + std::to_string(n) + " positions");
    return values;
  };
  if (attribute("NORMAL") >= 0) {
    const std::vector<float> v = read("NORMAL", TINYGLTF_TYPE_VEC3, 3, true);
    for (size_t k = 0; k < n; ++k) mesh.normals.push_back({v[k * 3], v[k * 3 + 1], v[k * 3 + 2]});
  }
  if (attribute("TEXCOORD_0") >= 0) {
    const std::vector<float> v = read("TEXCOORD_0", TINYGLTF_TYPE_VEC2, 2, false);
    for (size_t k = 0; k < n; ++k) mesh.uvs.push_back({v[k * 2], v[k * 2 + 1]});
  }
  if (const int color = attribute("COLOR_0"); color >= 0) {
    const bool rgb = s.model.accessors.at(size_t(color)).type == TINYGLTF_TYPE_VEC3;
    const size_t width = rgb ? 3 : 4;
    const std::vector<float> v = read("COLOR_0", rgb ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4, width, false);
    for (size_t k = 0; k < n; ++k)
      mesh.colors.push_back({v[k * width], v[k * width + 1], v[k * width + 2], rgb ? 1.0f : v[k * width + 3]});
  }
}

// A vertex's influences beyond 4 (JOINTS_1/WEIGHTS_1 and on): the mesh keeps the 4 heaviest,
// renormalised; every influence goes into its metadata (kMeshInfluencesKey), which skinning
// blends and a writer whose format holds more (KH2) takes, while one that does not (EDF MDB)
// says it drops them.
void KeepFourHeaviest(std::vector<std::pair<float, uint32_t>>& all, size_t v, Mesh& mesh) {
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  float total = 0, kept = 0;
  for (size_t c = 0; c < all.size(); ++c) total += all[c].first, kept += c < 4 ? all[c].first : 0;
  Value joints = Value::array(), weights = Value::array();
  for (const auto& [w, j] : all) joints.push_back(Value(int64_t(j))), weights.push_back(Value(double(total > 0 ? w / total : 0)));
  if (!mesh.metadata.contains(kMeshInfluencesKey)) mesh.metadata[kMeshInfluencesKey] = Value::array();
  mesh.metadata[kMeshInfluencesKey].push_back(Value{{"vertex", int64_t(v)}, {"joints", joints}, {"weights", weights}});
  all.resize(4);
  for (auto& [w, j] : all) w = kept > 0 ? w * total / kept : w;
}

// JOINTS_n/WEIGHTS_n of a skinned primitive (every set: KeepFourHeaviest), joints mapped to the
// skeleton's indices, and the positions (and normals) moved to the rest pose when the inverse
// bind matrices are not the rest pose's inverses (for animkit's own files they are, and
// nothing moves).
void ReadSkin(const MeshSource& s, const tinygltf::Primitive& p, const tinygltf::Skin& skin,
              const std::vector<Mat4>& world, const std::string& what, Mesh& mesh) {
  const size_t n = mesh.positions.size();
  std::vector<uint32_t> joints;
  std::vector<float> weights;
  size_t sets = 0;
  for (;; ++sets) {
    const std::string j = "JOINTS_" + std::to_string(sets), w = "WEIGHTS_" + std::to_string(sets);
    if (!p.attributes.count(j) || !p.attributes.count(w)) break;
    const std::vector<uint32_t> js = s.reader.ReadUnsigned(p.attributes.at(j), TINYGLTF_TYPE_VEC4, what + " " + j);
    const std::vector<float> ws = s.reader.Read(p.attributes.at(w), TINYGLTF_TYPE_VEC4, false, what + " " + w);
    if (js.size() != n * 4 || ws.size() != n * 4) gltf::Fail(what + " " + j + " or " + w + " count differs from POSITION's");
    joints.insert(joints.end(), js.begin(), js.end());
    weights.insert(weights.end(), ws.begin(), ws.end());
  }
  // JOINTS_1 on: the sets hold every influence, and a list in the extras (a file written
  // before animkit wrote the sets, or by an editor that kept the extras) gives way to them.
  if (sets > 1 && mesh.metadata.is_object()) mesh.metadata.erase(kMeshInfluencesKey);
  std::vector<float> ibm;
  if (skin.inverseBindMatrices >= 0)
    ibm = s.reader.Read(skin.inverseBindMatrices, TINYGLTF_TYPE_MAT4, true, what + " inverse bind matrices");
  if (!ibm.empty() && ibm.size() != skin.joints.size() * 16) gltf::Fail(what + ": the skin's inverse bind matrices and joints differ in count");
  std::vector<Mat4> to_rest(skin.joints.size());  // rest world * inverse bind
  bool moves = false;
  std::vector<uint16_t> joint_of(skin.joints.size());
  for (size_t k = 0; k < skin.joints.size(); ++k) {
    const int node = skin.joints[k];
    const int joint = node >= 0 && size_t(node) < s.node_joint.size() ? s.node_joint[size_t(node)] : -1;
    if (joint < 0) gltf::Fail(what + ": skin joint " + std::to_string(k) + " is not a joint of the skeleton");
    joint_of[k] = uint16_t(joint);
    if (ibm.empty()) continue;
    Mat4 inverse;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) inverse.m[c][r] = ibm[k * 16 + size_t(c * 4 + r)];
    to_rest[k] = Multiply(world[size_t(node)], inverse);
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) moves = moves || std::abs(to_rest[k].m[c][r] - (c == r ? 1.0f : 0.0f)) > 1e-5f;
  }
  for (size_t v = 0; v < n; ++v) {
    std::array<uint16_t, 4> j{};
    std::array<float, 4> w{};
    std::vector<std::pair<float, uint32_t>> all;  // (weight, skin joint) of every weight over 0
    for (size_t set = 0; set < sets; ++set)
      for (size_t c = 0; c < 4; ++c) {
        const size_t at = set * n * 4 + v * 4 + c;
        const uint32_t k = joints[at];
        const float weight = weights[at];
        if (!std::isfinite(weight) || weight < 0)
          gltf::Fail(what + " WEIGHTS_" + std::to_string(set) + " " + std::to_string(v) + " is negative or not a finite number");
        if (k >= skin.joints.size()) {
          if (weight != 0) gltf::Fail(what + " vertex " + std::to_string(v) + " names skin joint " + std::to_string(k));
          continue;
        }
        if (set == 0) j[c] = joint_of[k], w[c] = weight;
        if (weight != 0) all.emplace_back(weight, k);
      }
    if (sets > 1 && all.size() > 4) {
      std::vector<std::pair<float, uint32_t>> named;  // skeleton joints, for the metadata
      for (const auto& [weight, k] : all) named.emplace_back(weight, joint_of[k]);
      KeepFourHeaviest(named, v, mesh);
      for (size_t c = 0; c < 4; ++c) j[c] = uint16_t(named[c].second), w[c] = named[c].first;
    } else if (sets > 1) {  // the influences of every set fit in 4
      j = {}, w = {};
      for (size_t c = 0; c < all.size(); ++c) j[c] = joint_of[all[c].second], w[c] = all[c].first;
    }
    if (moves) {
      Vec3 sum{0, 0, 0};
      for (size_t c = 0; c < 4; ++c) {
        if (w[c] == 0) continue;
        const auto skin_joint = std::find(joint_of.begin(), joint_of.end(), j[c]);
        sum = sum + TransformPoint(to_rest[size_t(skin_joint - joint_of.begin())], mesh.positions[v]) * w[c];
      }
      mesh.positions[v] = sum;
    }
    mesh.joints.push_back(j);
    mesh.weights.push_back(w);
  }
}

}  // namespace

void ImportMeshes(const tinygltf::Model& model, const AccessorReader& reader, const std::vector<int>& parents,
                  const std::vector<int>& node_joint, const json& asset_extras, const Limits& limits, Scene& scene) {
  const bool ours = !asset_extras.empty();
  const std::vector<int> texture_image = ImportTextures(model, asset_extras, limits, scene);
  const std::vector<int> material_of = ImportMaterials(model, ours, texture_image, scene);
  const MeshSource source{model, reader, parents, node_joint, material_of};
  // Below animkit's own root: its turn (UpTurn) stands the file up for viewers, the numbers
  // read are the file's.
  int top = -1;
  for (size_t i = 0; i < model.nodes.size() && ours; ++i)
    if (parents[i] < 0 && model.nodes[i].name == kRootNodeName) top = int(i);
  std::vector<Mat4> world(model.nodes.size());
  for (size_t i = 0; i < model.nodes.size(); ++i) world[i] = PathMatrix(model, parents, top, int(i));
  // In the glTF's mesh order (animkit writes Scene::meshes in order), a mesh shown by
  // several nodes once per node.
  std::vector<std::pair<int, size_t>> shown;
  for (size_t node = 0; node < model.nodes.size(); ++node) {
    const int mesh_index = model.nodes[node].mesh;
    if (mesh_index < 0) continue;
    if (size_t(mesh_index) >= model.meshes.size())
      gltf::Fail(ElementName("node", int(node)) + " names mesh " + std::to_string(mesh_index) + ", which does not exist");
    shown.emplace_back(mesh_index, node);
  }
  std::sort(shown.begin(), shown.end());
  for (const auto& [mesh_index, node] : shown) {
    const tinygltf::Mesh& gm = model.meshes[size_t(mesh_index)];
    const json extras = AnimkitExtras(gm.extras_json_string);
    const int skin = model.nodes[node].skin;
    int joint_node = int(node);  // rigid: the nearest joint at or above the node
    while (joint_node >= 0 && node_joint[size_t(joint_node)] < 0) joint_node = parents[size_t(joint_node)];
    // Primitives sharing one POSITION accessor (animkit's triangles and lines) make one Mesh.
    std::map<int, size_t> mesh_of_positions;
    for (size_t k = 0; k < gm.primitives.size(); ++k) {
      const tinygltf::Primitive& p = gm.primitives[k];
      const auto position = p.attributes.find("POSITION");
      const bool lines = p.mode == TINYGLTF_MODE_LINE || p.mode == TINYGLTF_MODE_LINE_STRIP || p.mode == TINYGLTF_MODE_LINE_LOOP;
      if (position == p.attributes.end() || (!lines && p.mode != TINYGLTF_MODE_TRIANGLES && p.mode != -1 &&
                                             p.mode != TINYGLTF_MODE_TRIANGLE_STRIP && p.mode != TINYGLTF_MODE_TRIANGLE_FAN))
        continue;  // points are not kept
      const std::string what = ElementName("mesh", mesh_index) + " primitive " + std::to_string(k);
      auto [it, added] = mesh_of_positions.try_emplace(position->second, scene.meshes.size());
      if (added) {
        Mesh mesh;
        mesh.name = gm.name.empty() ? "mesh_" + std::to_string(mesh_index) : gm.name;
        if (gm.primitives.size() > 1 && k > 0) mesh.name += "_" + std::to_string(k);
        mesh.metadata = MetadataOf(extras);  // before the skin, which may add kMeshInfluencesKey
        ReadAttributes(source, p, what, mesh);
        const bool skinned = skin >= 0 && size_t(skin) < model.skins.size() && p.attributes.count("JOINTS_0") &&
                             p.attributes.count("WEIGHTS_0");
        if (skinned) {
          ReadSkin(source, p, model.skins[size_t(skin)], world, what, mesh);
        } else {
          const Mat4 to_space = PathMatrix(model, parents, joint_node, int(node));
          for (Vec3& v : mesh.positions) v = TransformPoint(to_space, v);
          if (joint_node >= 0) mesh.joint = node_joint[size_t(joint_node)];
        }
        const int material = p.material >= 0 && size_t(p.material) < material_of.size() ? material_of[size_t(p.material)] : -1;
        const auto own = extras.find("material");
        mesh.material = own != extras.end() && own->is_number_unsigned() && own->get<size_t>() < scene.materials.size()
                            ? own->get<int>()
                            : material;
        scene.meshes.push_back(std::move(mesh));
      }
      Mesh& mesh = scene.meshes[it->second];
      std::vector<uint32_t> indices = PrimitiveIndices(source, p, mesh.positions.size(), what);
      std::vector<uint32_t>& out = lines ? mesh.lines : mesh.triangles;
      out.insert(out.end(), indices.begin(), indices.begin() + std::ptrdiff_t(indices.size() / (lines ? 2 : 3) * (lines ? 2 : 3)));
    }
  }
}

}  // namespace animkit::gltf
