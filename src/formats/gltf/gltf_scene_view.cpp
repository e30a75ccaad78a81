// GltfSceneView: a glTF's own nodes, meshes and cameras for an importer that rebuilds
// them (the Blender add-on, through `animkit import-data`), so that it reads no glTF.
#include <animkit/core/error.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/core/math.hpp>

#include "formats/gltf/gltf_internal.hpp"

#include <cstring>
#include <set>
#include <utility>

namespace animkit {
namespace {

using nlohmann::json;


// The JSON of a .gltf, or of a GLB's first chunk (LoadModel has checked the framing).
json DocumentJson(ByteView data) {
  std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  if (gltf::IsGlb(data)) {
    uint32_t length = 0;
    std::memcpy(&length, data.data() + 12, 4);
    text = text.substr(20, length);
  }
  return json::parse(text, nullptr, false);
}

json Member(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() ? *it : json();
}

// extras.animkit of a glTF object, {} when none.
Value AnimkitExtras(const json& object) {
  const json extras = Member(object, "extras");
  const json ours = extras.is_object() ? Member(extras, gltf::kExtrasKey) : json();
  return ours.is_object() ? FromNlohmann(ours) : Value::object();
}

class Appender {
 public:
  explicit Appender(Bytes& data) : data_(data) {}
  // Appends values as float32; {offset, count} with count in elements of `width`.
  Value Floats(const std::vector<float>& values, size_t width) {
    Align();
    const size_t offset = data_.size();
    const auto* p = reinterpret_cast<const uint8_t*>(values.data());
    data_.insert(data_.end(), p, p + values.size() * sizeof(float));
    return {{"offset", offset}, {"count", width ? values.size() / width : 0}};
  }
  Value Indices(const std::vector<uint32_t>& values, size_t width = 1) {
    Align();
    const size_t offset = data_.size();
    const auto* p = reinterpret_cast<const uint8_t*>(values.data());
    data_.insert(data_.end(), p, p + values.size() * sizeof(uint32_t));
    return {{"offset", offset}, {"count", values.size() / width}};
  }
  // Raw bytes (an image file); count in bytes.
  Value Raw(const uint8_t* bytes, size_t size) {
    Align();
    const size_t offset = data_.size();
    data_.insert(data_.end(), bytes, bytes + size);
    return {{"offset", offset}, {"count", size}};
  }

 private:
  void Align() {
    while (data_.size() % 4) data_.push_back(0);
  }
  Bytes& data_;
};

// An index accessor (unsigned byte, short or int, no sparse part), every read checked.
std::vector<uint32_t> ReadIndices(const tinygltf::Model& model, int index) {
  const std::string name = gltf::ElementName("accessor", index);
  if (index < 0 || size_t(index) >= model.accessors.size()) gltf::Fail(name + " does not exist");
  const tinygltf::Accessor& a = model.accessors[size_t(index)];
  const int size = a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE    ? 1
                   : a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ? 2
                   : a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT   ? 4
                                                                               : 0;
  if (size == 0 || a.type != TINYGLTF_TYPE_SCALAR || a.bufferView < 0 ||
      size_t(a.bufferView) >= model.bufferViews.size() || a.sparse.isSparse)
    gltf::Fail(name + ": indices must be unsigned scalars in a buffer view");
  const tinygltf::BufferView& view = model.bufferViews[size_t(a.bufferView)];
  if (view.buffer < 0 || size_t(view.buffer) >= model.buffers.size()) gltf::Fail(name + ": its buffer does not exist");
  const std::vector<unsigned char>& buffer = model.buffers[size_t(view.buffer)].data;
  const size_t stride = view.byteStride ? view.byteStride : size_t(size);
  const size_t start = view.byteOffset + a.byteOffset;
  if (a.count && (view.byteOffset + view.byteLength > buffer.size() || a.byteOffset + stride * (a.count - 1) + size > view.byteLength))
    gltf::Fail(name + " runs past the end of its buffer view");
  std::vector<uint32_t> out(a.count);
  for (size_t k = 0; k < a.count; ++k) {
    uint32_t v = 0;
    std::memcpy(&v, buffer.data() + start + k * stride, size_t(size));  // little-endian
    out[k] = v;
  }
  return out;
}

// Per mesh, the skin of the first node that shows it with one (-1: none).
std::vector<int> SkinOfMeshes(const tinygltf::Model& model) {
  std::vector<int> skin(model.meshes.size(), -1);
  for (const tinygltf::Node& node : model.nodes)
    if (node.mesh >= 0 && size_t(node.mesh) < skin.size() && node.skin >= 0 && size_t(node.skin) < model.skins.size() &&
        skin[size_t(node.mesh)] < 0)
      skin[size_t(node.mesh)] = node.skin;
  return skin;
}

// A primitive's normals, UVs, material and, under a skin, joints (as node indices) and weights:
// `influences` per vertex, every JOINTS_n/WEIGHTS_n set.
void AddSurface(const tinygltf::Model& model, const tinygltf::Primitive& p, int skin, size_t vertices,
                const gltf::AccessorReader& reader, const std::string& what, Appender& out, Value& prim) {
  auto attribute = [&](const char* key) {
    const auto it = p.attributes.find(key);
    return it == p.attributes.end() ? -1 : it->second;
  };
  auto floats = [&](const char* key, int type, size_t width, bool float_only) {
    std::vector<float> v = reader.Read(attribute(key), type, float_only, what + " " + key);
    if (v.size() != vertices * width) gltf::Fail(what + " " + key + " and POSITION differ in count");
    return out.Floats(v, width);
  };
  if (attribute("NORMAL") >= 0) prim["normals"] = floats("NORMAL", TINYGLTF_TYPE_VEC3, 3, true);
  if (attribute("TEXCOORD_0") >= 0) prim["uvs"] = floats("TEXCOORD_0", TINYGLTF_TYPE_VEC2, 2, false);
  prim["material"] = p.material >= 0 ? Value(p.material) : Value();
  if (skin < 0 || attribute("JOINTS_0") < 0 || attribute("WEIGHTS_0") < 0) return;
  const std::vector<int>& skin_joints = model.skins[size_t(skin)].joints;
  if (skin_joints.empty()) gltf::Fail(what + ": its skin has no joints");
  // Every set (JOINTS_n/WEIGHTS_n), a vertex's row holding set 0's 4, then set 1's, ...
  std::vector<std::vector<uint32_t>> joint_sets;
  std::vector<std::vector<float>> weight_sets;
  for (size_t set = 0;; ++set) {
    const std::string j = "JOINTS_" + std::to_string(set), w = "WEIGHTS_" + std::to_string(set);
    if (attribute(j.c_str()) < 0 || attribute(w.c_str()) < 0) break;
    std::vector<uint32_t> joints = reader.ReadUnsigned(attribute(j.c_str()), TINYGLTF_TYPE_VEC4, what + " " + j);
    std::vector<float> weights = reader.Read(attribute(w.c_str()), TINYGLTF_TYPE_VEC4, false, what + " " + w);
    if (joints.size() != vertices * 4 || weights.size() != vertices * 4) gltf::Fail(what + " " + j + " or " + w + " and POSITION differ in count");
    for (size_t k = 0; k < joints.size(); ++k) {
      if (joints[k] >= skin_joints.size()) {
        if (weights[k] != 0) gltf::Fail(what + " " + j + " names skin joint " + std::to_string(joints[k]) + " of " +
                                  std::to_string(skin_joints.size()));
        joints[k] = 0;
      }
      joints[k] = uint32_t(skin_joints[joints[k]]);
    }
    joint_sets.push_back(std::move(joints));
    weight_sets.push_back(std::move(weights));
  }
  const size_t width = 4 * joint_sets.size();
  std::vector<uint32_t> joints(vertices * width);
  std::vector<float> weights(vertices * width);
  for (size_t set = 0; set < joint_sets.size(); ++set)
    for (size_t v = 0; v < vertices; ++v)
      for (size_t c = 0; c < 4; ++c) {
        joints[v * width + set * 4 + c] = joint_sets[set][v * 4 + c];
        weights[v * width + set * 4 + c] = weight_sets[set][v * 4 + c];
      }
  prim["influences"] = width;
  prim["joints"] = out.Indices(joints, width);
  prim["weights"] = out.Floats(weights, width);
}

// Materials as the importer needs them: texture = the index of its image in "images".
Value MaterialsOf(const tinygltf::Model& model, const json& doc) {
  Value materials = Value::array();
  const json raw = Member(doc, "materials");
  for (size_t m = 0; m < model.materials.size(); ++m) {
    const tinygltf::Material& material = model.materials[m];
    const int texture = material.pbrMetallicRoughness.baseColorTexture.index;
    const int image = texture >= 0 && size_t(texture) < model.textures.size() ? model.textures[size_t(texture)].source : -1;
    Value color = Value::array();
    for (double c : material.pbrMetallicRoughness.baseColorFactor) color.push_back(c);
    materials.push_back({{"name", material.name},
                         {"base_color", color},
                         {"image", image >= 0 ? Value(image) : Value()},
                         {"alpha_mode", material.alphaMode},
                         {"alpha_cutoff", material.alphaCutoff},
                         {"double_sided", material.doubleSided},
                         {"extras", AnimkitExtras(raw.is_array() && m < raw.size() ? raw[m] : json::object())}});
  }
  return materials;
}

// Images in a buffer view, as their file bytes (PNG or JPEG); others with no data.
Value ImagesOf(const tinygltf::Model& model, Appender& out) {
  Value images = Value::array();
  for (size_t i = 0; i < model.images.size(); ++i) {
    const tinygltf::Image& image = model.images[i];
    Value v = {{"name", image.name}, {"mime_type", image.mimeType}, {"data", Value()}};
    if (image.bufferView >= 0 && size_t(image.bufferView) < model.bufferViews.size()) {
      const tinygltf::BufferView& view = model.bufferViews[size_t(image.bufferView)];
      const size_t size = view.buffer >= 0 && size_t(view.buffer) < model.buffers.size()
                              ? model.buffers[size_t(view.buffer)].data.size()
                              : 0;
      if (view.byteOffset > size || view.byteLength > size - view.byteOffset)
        gltf::Fail(gltf::ElementName("image", int(i)) + ": its buffer view runs past the end of its buffer");
      v["data"] = out.Raw(model.buffers[size_t(view.buffer)].data.data() + view.byteOffset, view.byteLength);
    }
    images.push_back(std::move(v));
  }
  return images;
}

Value MeshesOf(const tinygltf::Model& model, const json& doc, const gltf::AccessorReader& reader, Appender& out) {
  Value meshes = Value::array();
  const json raw = Member(doc, "meshes");
  const std::vector<int> skin_of = SkinOfMeshes(model);
  for (size_t m = 0; m < model.meshes.size(); ++m) {
    Value primitives = Value::array();
    for (const tinygltf::Primitive& p : model.meshes[m].primitives) {
      auto position = p.attributes.find("POSITION");
      if (position == p.attributes.end()) continue;
      const std::string what = gltf::ElementName("mesh", int(m));
      const std::vector<float> positions = reader.Read(position->second, TINYGLTF_TYPE_VEC3, true, what + " positions");
      Value prim = {{"mode", p.mode < 0 ? TINYGLTF_MODE_TRIANGLES : p.mode}, {"positions", out.Floats(positions, 3)}};
      if (auto color = p.attributes.find("COLOR_0"); color != p.attributes.end()) {
        const int type = model.accessors.at(size_t(color->second)).type == TINYGLTF_TYPE_VEC3 ? 3 : 4;
        std::vector<float> c = reader.Read(color->second, type == 3 ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4, false,
                                           what + " colours");
        std::vector<float> rgba;
        for (size_t k = 0; k + type <= c.size(); k += size_t(type)) {
          rgba.insert(rgba.end(), c.begin() + long(k), c.begin() + long(k) + type);
          if (type == 3) rgba.push_back(1.0f);
        }
        prim["colors"] = out.Floats(rgba, 4);
      }
      AddSurface(model, p, skin_of[m], positions.size() / 3, reader, what, out, prim);
      std::vector<uint32_t> indices;
      if (p.indices >= 0) {
        indices = ReadIndices(model, p.indices);
      } else {
        for (uint32_t k = 0; k < positions.size() / 3; ++k) indices.push_back(k);
      }
      prim["indices"] = out.Indices(indices);
      primitives.push_back(std::move(prim));
    }
    const std::string name = raw.is_array() && m < raw.size() ? Member(raw[m], "name").is_string()
                                                                    ? Member(raw[m], "name").get<std::string>()
                                                                    : ""
                                                              : "";
    meshes.push_back({{"name", name.empty() ? "mesh_" + std::to_string(m) : name},
                      {"primitives", primitives},
                      {"extras", AnimkitExtras(raw.is_array() && m < raw.size() ? raw[m] : json::object())}});
  }
  return meshes;
}

// One channel as stored: its key times and values ({offset, count} of float32 in data;
// a CUBICSPLINE channel's values are in-tangent, value, out-tangent per key, as glTF orders them).
Value ChannelOf(const tinygltf::AnimationChannel& ch, const tinygltf::AnimationSampler& sampler,
                const gltf::AccessorReader& reader, Appender& out, const std::string& what) {
  const bool rotation = ch.target_path == "rotation";
  const size_t width = rotation ? 4 : 3;
  const std::string& interpolation = sampler.interpolation.empty() ? std::string("LINEAR") : sampler.interpolation;
  if (interpolation != "LINEAR" && interpolation != "STEP" && interpolation != "CUBICSPLINE")
    gltf::Fail(what + ": interpolation must be LINEAR, STEP or CUBICSPLINE, not '" + interpolation + "'");
  const std::vector<float> times = reader.Read(sampler.input, TINYGLTF_TYPE_SCALAR, true, what + " input");
  const std::vector<float> values =
      reader.Read(sampler.output, rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3, !rotation, what + " output");
  const size_t per_key = interpolation == "CUBICSPLINE" ? 3 : 1;
  if (times.empty() || values.size() != times.size() * per_key * width) gltf::Fail(what + ": keys and values differ");
  return {{"node", ch.target_node},
          {"path", ch.target_path},
          {"interpolation", interpolation},
          {"times", out.Floats(times, 1)},
          {"values", out.Floats(values, width)}};
}

// Per animation: its name, extras.animkit and its translation, rotation and scale channels
// as stored, in channel order (a second channel for the same node and path is left out,
// as on import).
Value AnimationsOf(const tinygltf::Model& model, const json& doc, const gltf::AccessorReader& reader, Appender& out) {
  Value animations = Value::array();
  const json raw = Member(doc, "animations");
  for (size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& anim = model.animations[a];
    Value channels = Value::array();
    std::set<std::pair<int, std::string>> seen;
    for (const tinygltf::AnimationChannel& ch : anim.channels) {
      const std::string& path = ch.target_path;
      if (ch.target_node < 0 || size_t(ch.target_node) >= model.nodes.size()) continue;
      if ((path != "translation" && path != "rotation" && path != "scale") || ch.sampler < 0 ||
          size_t(ch.sampler) >= anim.samplers.size())
        continue;
      if (!seen.insert({ch.target_node, path}).second) continue;
      const std::string what = gltf::ElementName("animation", int(a)) + " " + path;
      channels.push_back(ChannelOf(ch, anim.samplers[size_t(ch.sampler)], reader, out, what));
    }
    const json r = raw.is_array() && a < raw.size() ? raw[a] : json::object();
    animations.push_back({{"name", anim.name.empty() ? "animation_" + std::to_string(a) : anim.name},
                          {"extras", AnimkitExtras(r)},
                          {"channels", channels}});
  }
  return animations;
}

Value NumbersOr(const json& node, const char* key, std::initializer_list<double> fallback) {
  const json v = Member(node, key);
  if (v.is_array()) return FromNlohmann(v);
  Value out = Value::array();
  for (double d : fallback) out.push_back(d);
  return out;
}

}  // namespace

Value GltfSceneView(ByteView gltf_bytes, const std::string& path, Bytes& data, const Limits& limits) {
  const tinygltf::Model model = gltf::LoadModel(gltf_bytes, path, limits);
  const json doc = DocumentJson(gltf_bytes);
  if (!doc.is_object()) gltf::Fail("the glTF's JSON does not parse");
  const gltf::AccessorReader reader(model, gltf_bytes.size());
  Appender out(data);
  const json raw_nodes = Member(doc, "nodes");
  const size_t n = model.nodes.size();
  std::vector<int> parent(n, -1);
  for (size_t i = 0; i < n; ++i)
    for (int c : model.nodes[i].children)
      if (c >= 0 && size_t(c) < n) parent[size_t(c)] = int(i);
  Value nodes = Value::array();
  Value root;
  for (size_t i = 0; i < n; ++i) {
    const tinygltf::Node& node = model.nodes[i];
    const json& raw = raw_nodes[i];
    Value v = {{"name", node.name.empty() && !raw.contains("name") ? "node_" + std::to_string(i) : node.name},
               {"parent", parent[i]},
               {"camera", node.camera >= 0 ? Value(node.camera) : Value()},
               {"mesh", node.mesh >= 0 ? Value(node.mesh) : Value()},
               {"skin", node.skin >= 0 ? Value(node.skin) : Value()}};
    if (!node.matrix.empty()) {  // as T * R * S
      if (node.matrix.size() != 16) gltf::Fail(gltf::ElementName("node", int(i)) + " matrix must have 16 numbers");
      Mat4 m;
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) m.m[c][r] = float(node.matrix[size_t(c * 4 + r)]);
      const TransformTRS trs = DecomposeTRS(m);
      v["t"] = {trs.translation.x, trs.translation.y, trs.translation.z};
      v["r"] = {trs.rotation.x, trs.rotation.y, trs.rotation.z, trs.rotation.w};
      v["s"] = {trs.scale.x, trs.scale.y, trs.scale.z};
    } else {  // the numbers as written
      v["t"] = NumbersOr(raw, "translation", {0, 0, 0});
      v["r"] = NumbersOr(raw, "rotation", {0, 0, 0, 1});
      v["s"] = NumbersOr(raw, "scale", {1, 1, 1});
    }
    if (node.name == gltf::kRootNodeName && parent[i] < 0) root = i;
    nodes.push_back(std::move(v));
  }
  const Value asset_extras = AnimkitExtras(Member(doc, "asset"));
  Value joints = Value::array();
  if (!model.skins.empty()) {
    for (int j : model.skins[0].joints) joints.push_back(j);
  } else if (!(asset_extras.contains("skeleton") && asset_extras["skeleton"] == Value(false))) {
    for (size_t i = 0; i < n; ++i)
      if (!(root == Value(i)) && model.nodes[i].camera < 0) joints.push_back(i);
  }
  const json cameras = Member(doc, "cameras");
  return {{"nodes", nodes},
          {"root", root},
          {"joints", joints},
          {"asset_extras", asset_extras},
          {"cameras", cameras.is_array() ? FromNlohmann(cameras) : Value::array()},
          {"meshes", MeshesOf(model, doc, reader, out)},
          {"materials", MaterialsOf(model, doc)},
          {"images", ImagesOf(model, out)},
          {"animations", AnimationsOf(model, doc, reader, out)}};
}

}  // namespace animkit
