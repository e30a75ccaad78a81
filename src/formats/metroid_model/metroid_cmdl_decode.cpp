// CMDL surfaces to the common model: one mesh and material per CMDL material, textures
// from the TXTRs beside the model, skin weights from a CSKR and the CINF's bone ids.
#include "metroid_cmdl_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace animkit::metroid_model {
namespace {

std::string IdName(uint32_t id) {
  char text[16];
  std::snprintf(text, sizeof text, "%08X", id);
  return text;
}

Vec3 UnitOrUp(Vec3 n) {
  const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  return len > 0 && std::isfinite(len) ? n * (1 / len) : Vec3{0, 0, 1};
}

// Where a material's base colour comes from: the first TEV stage that samples a texture.
struct BaseTexture {
  int set_index = -1;  // into the set's texture ids, -1: untextured
  int uv_set = 0;
};

BaseTexture BaseOf(const CmdlMaterial& m, const MaterialSet& set) {
  BaseTexture b;
  for (const TevTexture& t : m.stage_textures) {
    if (t.texture_slot == kNoSlot) continue;
    if (t.texture_slot < m.texture_slots.size() && m.texture_slots[t.texture_slot] < set.texture_ids.size())
      b.set_index = static_cast<int>(m.texture_slots[t.texture_slot]);
    if (t.texgen < m.texgens.size()) {
      const uint32_t source = (m.texgens[t.texgen] >> 4) & 0x1F;
      b.uv_set = source >= 4 && source < 12 ? static_cast<int>(source - 4) : -1;
    }
    break;
  }
  return b;
}

// The mesh of one material, and its vertices by (position, normal, UV) index.
struct MeshBuild {
  Mesh mesh;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> vertex_of;
  std::vector<uint32_t> position_index;  // the CMDL position of each mesh vertex (skinning)
};

struct SurfaceContext {
  const CmdlFile& f;
  const Surface& s;
  const VertexLayout& layout;
  int uv_attribute;
  bool short_uvs;
  bool flip_v;
};

uint32_t Checked(const SurfaceContext& c, size_t primitive, uint32_t index, size_t count, const char* what) {
  if (index >= count) {
    throw Error::AtOffset(c.s.list_at, "primitive " + std::to_string(primitive) + " of the display list names " + what +
                                           " " + std::to_string(index) + ", but the model has " + std::to_string(count));
  }
  return index;
}

uint32_t AddVertex(const SurfaceContext& c, MeshBuild& b, size_t primitive, const uint16_t* v) {
  const int pa = c.layout.Find(Attribute::Position), na = c.layout.Find(Attribute::Normal);
  const uint32_t pos = Checked(c, primitive, v[pa], c.f.positions.values.size(), "position");
  const size_t normals = c.f.ShortNormals() ? c.f.short_normals.values.size() : c.f.float_normals.values.size();
  const uint32_t nrm = na < 0 ? 0 : Checked(c, primitive, v[na], normals, "normal");
  const size_t uvs = c.short_uvs ? c.f.short_uvs.values.size() : c.f.float_uvs.values.size();
  const uint32_t uv = c.uv_attribute < 0 ? 0 : Checked(c, primitive, v[c.uv_attribute], uvs, "UV");
  const auto [it, added] = b.vertex_of.emplace(std::tuple{pos, nrm, uv}, static_cast<uint32_t>(b.mesh.positions.size()));
  if (!added) return it->second;
  const auto& p = c.f.positions.values[pos];
  b.mesh.positions.push_back({p[0], p[1], p[2]});
  b.position_index.push_back(pos);
  if (na >= 0) {
    if (c.f.ShortNormals()) {
      const auto& n = c.f.short_normals.values[nrm];  // s16 with 14 fraction bits
      b.mesh.normals.push_back(UnitOrUp({n[0] / 16384.0f, n[1] / 16384.0f, n[2] / 16384.0f}));
    } else {
      const auto& n = c.f.float_normals.values[nrm];
      b.mesh.normals.push_back(UnitOrUp({n[0], n[1], n[2]}));
    }
  }
  if (c.uv_attribute >= 0) {
    std::array<float, 2> t = c.short_uvs ? std::array<float, 2>{c.f.short_uvs.values[uv][0] / 32768.0f,
                                                                c.f.short_uvs.values[uv][1] / 32768.0f}
                                         : c.f.float_uvs.values[uv];
    if (c.flip_v) t[1] = 1 - t[1];
    b.mesh.uvs.push_back(t);
  }
  return it->second;
}

void AddSurface(const SurfaceContext& c, MeshBuild& b) {
  if (c.layout.Find(Attribute::Position) < 0)
    throw Error::AtOffset(c.s.at + 0x0C, "the surface's material gives its vertices no position");
  const size_t n = c.layout.attributes.size();
  for (size_t pi = 0; pi < c.s.primitives.size(); ++pi) {
    const Primitive& p = c.s.primitives[pi];
    std::vector<uint32_t> local(p.vertex_count);
    for (size_t v = 0; v < p.vertex_count; ++v) local[v] = AddVertex(c, b, pi, p.values.data() + v * n);
    std::vector<uint32_t> tris, lines;
    Triangulate(p, tris, lines);
    for (uint32_t i : tris) b.mesh.triangles.push_back(local[i]);
    for (uint32_t i : lines) b.mesh.lines.push_back(local[i]);
  }
}

void Skin(MeshBuild& b, const CskrFile& skin, const Scene& rig, size_t position_count) {
  Mesh& mesh = b.mesh;
  const std::vector<uint32_t> group = GroupOfPositions(skin, position_count);
  std::map<uint32_t, uint16_t> joint_of;
  const Value& ids = rig.metadata.contains("bone_ids") ? rig.metadata["bone_ids"] : Value();
  for (size_t i = 0; ids.is_array() && i < ids.size(); ++i)
    if (ids[i].is_number_unsigned()) joint_of[ids[i].get<uint32_t>()] = static_cast<uint16_t>(i);
  for (uint32_t p : b.position_index) {
    const WeightGroup& g = skin.groups[group[p]];
    std::array<uint16_t, 4> j{};
    std::array<float, 4> w{};
    float sum = 0;
    for (size_t k = 0; k < g.weights.size() && k < 3; ++k) {  // the game keeps the first 3
      const auto it = joint_of.find(g.weights[k].bone_id);
      if (it == joint_of.end())
        throw Error::General("the CSKR names bone " + std::to_string(g.weights[k].bone_id) + ", which the CINF lacks");
      j[k] = it->second;
      w[k] = g.weights[k].weight > 0 && std::isfinite(g.weights[k].weight) ? g.weights[k].weight : 0;
      sum += w[k];
    }
    if (sum > 0) for (float& x : w) x /= sum;
    else w = {1, 0, 0, 0};
    mesh.joints.push_back(j);
    mesh.weights.push_back(w);
  }
}

}  // namespace

Scene DecodeCmdl(const CmdlFile& f, const CmdlDecodeInput& input, std::vector<std::string>& warnings) {
  Scene scene;
  const MaterialSet& set = f.material_sets.at(0);
  std::map<uint32_t, MeshBuild> builds;
  std::map<uint32_t, int> texture_of;  // TXTR id -> scene texture
  std::map<uint32_t, bool> flipped;
  for (const Surface& s : f.surfaces) {
    const uint32_t mi = s.header.material;
    const CmdlMaterial& m = *MaterialOf(f, mi);
    const VertexLayout layout = LayoutOf(m.vertex_attributes, s.at + 0x0C);
    const BaseTexture base = BaseOf(m, set);
    const uint32_t id = base.set_index >= 0 ? set.texture_ids[size_t(base.set_index)] : 0;
    if (base.set_index >= 0 && !texture_of.count(id)) {
      DecodedTexture t = ReadTexture(id, input.reader);
      if (t.image.Missing()) warnings.push_back("texture " + t.image.name + ": " + t.image.missing);
      texture_of[id] = static_cast<int>(scene.textures.size());
      flipped[id] = t.rows_flipped;
      scene.textures.push_back(std::move(t.image));
    }
    const bool short_uvs = base.uv_set == 0 && (m.flags & kMaterialShortUvTex0) && f.HasShortUvs();
    const int uv_attribute = base.uv_set >= 0 ? layout.Find(Attribute::Tex, uint8_t(base.uv_set)) : -1;
    MeshBuild& b = builds[mi];
    if (b.mesh.name.empty()) {
      b.mesh.name = "material_" + std::to_string(mi);
      Material out;
      out.name = b.mesh.name;
      out.texture = base.set_index >= 0 ? texture_of[id] : -1;
      out.alpha = (m.flags & 0x20) ? AlphaMode::Mask : (m.flags & 0x10) ? AlphaMode::Blend : AlphaMode::Opaque;
      out.metadata[metadata_keys::kMaterialFlags] = m.flags;
      out.metadata[metadata_keys::kMaterialIndex] = mi;
      if (base.set_index >= 0) out.metadata[metadata_keys::kTextureId] = IdName(id);
      b.mesh.material = static_cast<int>(scene.materials.size());
      b.mesh.metadata[metadata_keys::kMaterialIndex] = mi;
      scene.materials.push_back(std::move(out));
    }
    AddSurface({f, s, layout, uv_attribute, short_uvs, base.set_index >= 0 && flipped[id]}, b);
  }
  // Padding makes the array's size overcount: the skin covers the positions the lists use.
  size_t used_positions = 0;
  for (const auto& [mi, b] : builds)
    for (uint32_t p : b.position_index) used_positions = std::max<size_t>(used_positions, size_t{p} + 1);
  for (auto& [mi, b] : builds) {
    if (input.skin && input.rig) Skin(b, *input.skin, *input.rig, used_positions);
    scene.meshes.push_back(std::move(b.mesh));
  }
  if (input.skin && input.rig) {
    scene.skeleton = input.rig->skeleton;
    if (input.rig->metadata.contains("bone_ids")) scene.metadata["bone_ids"] = input.rig->metadata["bone_ids"];
  }
  scene.metadata[kSourceFormatKey] = "metroid-cmdl";
  scene.metadata[metadata_keys::kCmdlVersion] = f.header.version;
  scene.metadata[metadata_keys::kCmdlFlags] = f.header.flags;
  return scene;
}

}  // namespace animkit::metroid_model
