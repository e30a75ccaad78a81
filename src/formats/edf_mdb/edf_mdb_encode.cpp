// A small MDB writer for the project's samples and tests: skeleton, one object of one mesh per
// Mesh, materials with one "albedo" slot, texture file names. Writing a modder's edited mesh
// back into the game's own MDB (its layouts, shaders and parameters) is not this.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/offline/skinning.hpp>

#include "edf_mdb_fields.hpp"

#include <filesystem>

namespace animkit::edf_mdb {
namespace {

// A string written after the tables; `field` holds its offset from `record`.
struct StringRef {
  size_t record, field;
  std::string text;
  bool wide;  // UTF-16LE (names, shaders, textures) or 8-bit (element and slot names)
};

struct Element {
  ElementType type;
  uint32_t offset;
  const char* name;
};

std::vector<Element> LayoutOf(const Mesh& m) {
  std::vector<Element> layout;
  uint32_t at = 0;
  auto add = [&](ElementType t, const char* name) {
    layout.push_back({t, at, name});
    at += uint32_t(ElementBytes(uint32_t(t)));
  };
  add(ElementType::Float4, "position");
  if (!m.normals.empty()) add(ElementType::Float3, "normal");
  if (!m.uvs.empty()) add(ElementType::Float2, "texcoord");
  if (!m.colors.empty()) add(ElementType::UByte4, "color");
  if (m.Skinned()) add(ElementType::UByte4, "BLENDINDICES"), add(ElementType::Float4, "BLENDWEIGHT");
  return layout;
}

uint8_t UnitByte(float v) { return uint8_t(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); }

void WriteVertex(ByteWriter& w, const Mesh& m, size_t v, const std::vector<Element>& layout, Vec3 p, Vec3 n) {
  for (const Element& e : layout) {
    const std::string name = e.name;
    if (name == "position") w.F32(p.x), w.F32(p.y), w.F32(p.z), w.F32(1);
    if (name == "normal") w.F32(n.x), w.F32(n.y), w.F32(n.z);
    if (name == "texcoord") w.F32(m.uvs[v][0]), w.F32(m.uvs[v][1]);
    if (name == "color")
      for (float c : m.colors[v]) w.U8(UnitByte(c));
    if (name == "BLENDINDICES")
      for (uint16_t j : m.joints[v]) {
        if (j > 255) throw Error::General("mesh '" + m.name + "': an MDB vertex names bones 0..255 only");
        w.U8(uint8_t(j));
      }
    if (name == "BLENDWEIGHT")
      for (float x : m.weights[v]) w.F32(x);
  }
}

}  // namespace

File EncodeModel(const Skeleton& skeleton, const std::vector<Mesh>& meshes, const std::vector<Material>& materials,
                 const std::vector<std::string>& texture_files, uint32_t version) {
  const std::vector<Mat4> rest = BindMatrices(skeleton);  // errors when a parent comes after its child
  const size_t n = skeleton.joints.size(), m = meshes.size(), k = materials.size(), t = texture_files.size();
  std::vector<std::vector<Element>> layouts;
  size_t slots = 0, elements = 0;
  for (const Mesh& mesh : meshes) layouts.push_back(LayoutOf(mesh)), elements += layouts.back().size();
  for (const Material& mat : materials) slots += mat.texture >= 0 ? 1 : 0;
  const size_t names_at = kHeaderSize, bones_at = names_at + kNameEntrySize * (n + m + k);
  const size_t objects_at = bones_at + kBoneSize * n, meshes_at = objects_at + kObjectSize * m;
  const size_t layouts_at = meshes_at + kMeshSize * m, materials_at = layouts_at + kElementSize * elements;
  const size_t slots_at = materials_at + kMaterialSize * k, textures_at = slots_at + kMaterialTextureSize * slots;

  ByteWriter w(Endian::Little);
  std::vector<StringRef> strings;
  for (char c : {'M', 'D', 'B', '0'}) w.U8(uint8_t(c));
  for (size_t v : {size_t(version), n + m + k, names_at, n, bones_at, m, objects_at, k, materials_at, t, textures_at})
    w.U32(uint32_t(v));
  std::vector<std::string> names;
  for (const Joint& j : skeleton.joints) names.push_back(j.name);
  for (const Mesh& mesh : meshes) names.push_back(mesh.joint >= 0 ? skeleton.joints.at(size_t(mesh.joint)).name : mesh.name);
  for (const Material& mat : materials) names.push_back(mat.name);
  for (const std::string& s : names) strings.push_back({w.size(), w.size(), s, true}), w.U32(0);
  WriteBones(w, skeleton, rest);
  for (size_t i = 0; i < m; ++i) {  // object i holds mesh i
    w.U32(uint32_t(i)), w.U32(uint32_t(n + i)), w.U32(1), w.U32(uint32_t(meshes_at + kMeshSize * i - w.size() + 12));
  }
  std::vector<size_t> vertex_fields, index_fields;
  size_t layout_at = layouts_at;
  for (size_t i = 0; i < m; ++i) {
    const Mesh& mesh = meshes[i];
    const size_t rec = w.size();
    uint32_t stride = 0;
    for (const Element& e : layouts[i]) stride = e.offset + uint32_t(ElementBytes(uint32_t(e.type)));
    w.U8(0), w.U8(mesh.Skinned() ? 1 : 0), w.I8(mesh.Skinned() ? 4 : 0), w.U8(0);
    w.I32(mesh.material), w.U32(0), w.U32(uint32_t(layout_at - rec)), w.U16(uint16_t(stride));
    w.U16(uint16_t(layouts[i].size())), w.U32(uint32_t(mesh.positions.size())), w.U32(uint32_t(i));
    vertex_fields.push_back(w.size()), w.U32(0);
    w.U32(uint32_t(mesh.triangles.size()));
    index_fields.push_back(w.size()), w.U32(0);
    layout_at += kElementSize * layouts[i].size();
  }
  for (const auto& layout : layouts)
    for (const Element& e : layout) {
      const size_t rec = w.size();
      w.U32(uint32_t(e.type)), w.U32(e.offset), w.U32(0);
      strings.push_back({rec, w.size(), e.name, false}), w.U32(0);
    }
  size_t slot_at = slots_at;
  for (size_t i = 0; i < k; ++i) {
    const size_t rec = w.size();
    const bool textured = materials[i].texture >= 0;
    w.U16(uint16_t(i)), w.U16(0), w.U32(uint32_t(n + m + i));
    strings.push_back({rec, w.size(), "animkit_sample", true}), w.U32(0);
    w.U32(uint32_t(slots_at - rec)), w.U32(0);  // no parameters
    w.U32(uint32_t(slot_at - rec)), w.U32(textured ? 1 : 0), w.U32(0);
    slot_at += textured ? kMaterialTextureSize : 0;
  }
  for (const Material& mat : materials) {
    if (mat.texture < 0) continue;
    if (size_t(mat.texture) >= t) throw Error::General("material '" + mat.name + "' names a texture past the list");
    const size_t rec = w.size();
    w.U32(uint32_t(mat.texture));
    strings.push_back({rec, w.size(), "albedo", false}), w.U32(0);
    w.Fill(kMaterialTextureSize - 8);
  }
  for (size_t i = 0; i < t; ++i) {
    const size_t rec = w.size();
    w.U32(uint32_t(i));
    strings.push_back({rec, w.size(), std::filesystem::path(texture_files[i]).stem().string(), true}), w.U32(0);
    strings.push_back({rec, w.size(), texture_files[i], true}), w.U32(0);
    w.U32(0);
  }
  for (size_t i = 0; i < m; ++i) {
    const Mesh& mesh = meshes[i];
    w.AlignTo(16);
    w.PatchU32(vertex_fields[i], uint32_t(w.size() - (vertex_fields[i] - 0x1C)));
    const Mat4 to_model = mesh.joint >= 0 ? rest.at(size_t(mesh.joint)) : Mat4{};
    const Vec3 origin = TransformPoint(to_model, {0, 0, 0});
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
      const Vec3 normal = mesh.normals.empty() ? Vec3{} : TransformPoint(to_model, mesh.normals[v]) - origin;
      WriteVertex(w, mesh, v, layouts[i], TransformPoint(to_model, mesh.positions[v]), normal);
    }
    w.AlignTo(4);
    w.PatchU32(index_fields[i], uint32_t(w.size() - (index_fields[i] - 0x24)));
    for (uint32_t x : mesh.triangles) {
      if (x > 0xFFFF) throw Error::General("mesh '" + mesh.name + "': an MDB index is 16 bits");
      w.U16(uint16_t(x));
    }
  }
  w.AlignTo(4);
  for (const StringRef& s : strings) {
    w.PatchU32(s.field, uint32_t(w.size() - s.record));
    if (s.wide) {
      for (uint16_t u : Utf16FromUtf8(s.text)) w.U16(u);
      w.U16(0);
    } else {
      for (char c : s.text) w.U8(uint8_t(c));
      w.U8(0);
    }
  }
  return Parse(w.Take());
}

}  // namespace animkit::edf_mdb
