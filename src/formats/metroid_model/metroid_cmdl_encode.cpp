// A scene's meshes as a Metroid Prime CMDL (version 2: float positions, normals and UVs,
// triangle lists in VAT0), its CSKR weight groups and its TXTRs, built as the records the
// reader gives and laid out by LayOutCmdl (docs/formats/metroid_cmdl.md, "Writing").
#include <animkit/formats/metroid_model.hpp>
#include <animkit/formats/metroid_txtr.hpp>
#include <animkit/io/path.hpp>

#include "formats/common/influences.hpp"
#include "formats/common/metroid_bone_ids.hpp"
#include "metroid_cmdl_encode.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace animkit::metroid_model {
namespace {

// The material values of the stock MP1 models (docs/formats/metroid_cmdl.md): a textured
// material is lit vertex colour x texture from UV set 0, an untextured one the vertex colour.
constexpr uint32_t kTexturedFlags = 0x11083, kUntexturedFlags = 0x1083;
constexpr uint32_t kAlphaBlend = 0x10, kAlphaTest = 0x20;
constexpr uint32_t kColorChannel = 0x3000;
constexpr uint32_t kRasTimesTex = 0x7A14F, kRasColor = 0x53DEF;     // a, b, c, d: 5 bits each, a lowest
constexpr uint32_t kTexAlpha = 0x21CE7, kRasAlpha = 0x29CE7;
constexpr uint32_t kTevOp = 0x100;
constexpr uint8_t kRasterColor0 = 4;
constexpr uint32_t kTexgenUv0 = 0x1EBC40;  // source UV set 0, identity matrices
constexpr uint32_t kIndex16 = 3;
constexpr uint32_t kNormalHint = 0x80000000;
constexpr size_t kMaxIndex = 0x10000;  // an index16 names 0..0xFFFF

uint32_t Fnv1a(std::string_view text) {
  uint32_t h = 0x811C9DC5;
  for (unsigned char c : text) h = (h ^ c) * 0x01000193;
  return h;
}
uint32_t NotNone(uint32_t id) { return id == 0 || id == 0xFFFFFFFF ? id ^ 1 : id; }
std::string IdText(uint32_t id) {
  char text[16];
  std::snprintf(text, sizeof text, "%08X", id);
  return text;
}

// One weight group: (bone id, weight bits) pairs, heaviest first.
using GroupKey = std::vector<std::pair<uint32_t, uint32_t>>;

struct ModelVertex {
  std::array<float, 3> position, normal;
};

// What the meshes make: the vertices per weight group (the position array lists the groups
// in order), the UVs, and per mesh its corners as (group, vertex in group, UV).
struct Build {
  std::vector<GroupKey> groups;
  std::map<GroupKey, uint32_t> group_of;
  std::vector<std::vector<ModelVertex>> vertices;  // per group
  std::vector<std::map<std::array<uint32_t, 6>, uint32_t>> vertex_of;
  std::vector<std::array<float, 2>> uvs;
  std::map<std::array<uint32_t, 2>, uint32_t> uv_of;
  size_t dropped_influences = 0;
};

struct Corner {
  uint32_t group = 0, vertex = 0, uv = 0;
};

uint32_t GroupIndex(Build& b, const GroupKey& key) {
  const auto [it, added] = b.group_of.emplace(key, static_cast<uint32_t>(b.groups.size()));
  if (added) {
    b.groups.push_back(key);
    b.vertices.emplace_back();
    b.vertex_of.emplace_back();
  }
  return it->second;
}

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

// The rest model matrix of every joint (parents come before children).
std::vector<Mat4> RestModel(const Skeleton& skeleton) {
  std::vector<Mat4> out;
  for (const Joint& j : skeleton.joints) {
    const Mat4 local = MatrixFromTRS(j.rest);
    out.push_back(j.parent >= 0 && size_t(j.parent) < out.size() ? Multiply(out[size_t(j.parent)], local) : local);
  }
  return out;
}

Vec3 Unit(Vec3 n) {
  const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  return len > 0 && std::isfinite(len) ? n * (1 / len) : Vec3{0, 0, 1};
}

// Normals of a mesh that has none: the area-weighted face normals at each position.
std::vector<Vec3> SmoothNormals(const Mesh& m) {
  std::vector<Vec3> n(m.positions.size());
  for (size_t t = 0; t + 2 < m.triangles.size(); t += 3) {
    const uint32_t a = m.triangles[t], b = m.triangles[t + 1], c = m.triangles[t + 2];
    if (std::max({a, b, c}) >= m.positions.size()) continue;
    const Vec3 e1 = m.positions[b] - m.positions[a], e2 = m.positions[c] - m.positions[a];
    const Vec3 f{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
    for (uint32_t i : {a, b, c}) n[i] = n[i] + f;
  }
  for (Vec3& v : n) v = Unit(v);
  return n;
}

struct MeshContext {
  const Mesh& mesh;
  const std::vector<uint32_t>& bone_ids;  // per joint
  const std::vector<Mat4>& rest;
  bool skinned;     // the model has a skin
  bool textured;    // the mesh's material samples UV set 0
  std::vector<Vec3> normals;
};

// The weight group of vertex v: its heaviest 3 influences (the game keeps 3), renormalised.
GroupKey GroupOf(const MeshContext& c, size_t v, Build& b) {
  const Mesh& m = c.mesh;
  if (!c.skinned) return {};
  BlendedInfluences inf;
  if (m.Skinned()) inf = BlendedSlots(m.joints.at(v), m.weights.at(v));
  if (inf.empty()) inf = {{static_cast<uint32_t>(m.joint >= 0 ? m.joint : 0), 1.0f}};
  std::stable_sort(inf.begin(), inf.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  if (inf.size() > 3) {
    ++b.dropped_influences;
    inf.resize(3);
  }
  float sum = 0;
  for (const auto& [joint, w] : inf) sum += w;
  GroupKey key;
  for (const auto& [joint, w] : inf) {
    if (joint >= c.bone_ids.size())
      throw Error::General("mesh '" + m.name + "' vertex " + std::to_string(v) + " names joint " +
                           std::to_string(joint) + ", the skeleton has " + std::to_string(c.bone_ids.size()));
    key.emplace_back(c.bone_ids[joint], Bits(w / sum));
  }
  return key;
}

Corner AddCorner(const MeshContext& c, Build& b, uint32_t v) {
  const Mesh& m = c.mesh;
  if (v >= m.positions.size())
    throw Error::General("mesh '" + m.name + "' names position " + std::to_string(v) + " of " +
                         std::to_string(m.positions.size()));
  Vec3 p = m.positions[v], n = c.normals[v];
  if (!m.Skinned() && m.joint >= 0 && size_t(m.joint) < c.rest.size()) {  // rigid: from the joint's space
    const Mat4& r = c.rest[size_t(m.joint)];
    n = Unit(TransformPoint(r, n) - TransformPoint(r, {0, 0, 0}));
    p = TransformPoint(r, p);
  }
  Corner out;
  out.group = GroupIndex(b, GroupOf(c, v, b));
  const std::array<uint32_t, 6> key{Bits(p.x), Bits(p.y), Bits(p.z), Bits(n.x), Bits(n.y), Bits(n.z)};
  auto& vertices = b.vertices[out.group];
  const auto [it, added] = b.vertex_of[out.group].emplace(key, static_cast<uint32_t>(vertices.size()));
  if (added) vertices.push_back({{p.x, p.y, p.z}, {n.x, n.y, n.z}});
  out.vertex = it->second;
  if (c.textured) {
    // The TXTR holds the rows bottom-up (as the game's do): v is measured from the bottom.
    const std::array<float, 2> uv{m.uvs.at(v)[0], 1 - m.uvs.at(v)[1]};
    const auto [u, fresh] = b.uv_of.emplace(std::array<uint32_t, 2>{Bits(uv[0]), Bits(uv[1])},
                                            static_cast<uint32_t>(b.uvs.size()));
    if (fresh) b.uvs.push_back(uv);
    out.uv = u->second;
  }
  return out;
}

// A scene material as the CMDL's: which texture of the set (-1: none) and its alpha.
struct MaterialKey {
  int texture = -1;
  AlphaMode alpha = AlphaMode::Opaque;
  auto operator<=>(const MaterialKey&) const = default;
};

CmdlMaterial MakeMaterial(const MaterialKey& k) {
  CmdlMaterial m;
  const bool textured = k.texture >= 0;
  m.flags = textured ? kTexturedFlags : kUntexturedFlags;
  if (k.alpha == AlphaMode::Blend) m.flags |= kAlphaBlend;
  if (k.alpha == AlphaMode::Mask) m.flags |= kAlphaTest;
  if (textured) m.texture_slots = {static_cast<uint32_t>(k.texture)};
  m.vertex_attributes = kIndex16 | kIndex16 << 2 | (textured ? kIndex16 << 8 : 0);
  m.blend_dst = k.alpha == AlphaMode::Blend ? 5 : 0;  // GX INVSRCALPHA : ZERO
  m.blend_src = k.alpha == AlphaMode::Blend ? 4 : 1;  // GX SRCALPHA : ONE
  m.color_channels = {kColorChannel};
  TevStage stage;
  stage.color_inputs = textured ? kRasTimesTex : kRasColor;
  stage.alpha_inputs = textured ? kTexAlpha : kRasAlpha;
  stage.color_op = stage.alpha_op = kTevOp;
  stage.raster = kRasterColor0;
  m.stages = {stage};
  m.stage_textures = {textured ? TevTexture{0, 0, 0} : TevTexture{}};
  if (textured) m.texgens = {kTexgenUv0};
  m.uv_animation_size = 4;
  return m;
}

}  // namespace

uint32_t DerivedId(uint32_t model_id, std::string_view tag) {
  return NotNone(Fnv1a(IdText(model_id) + "/" + std::string(tag)));
}

uint32_t ModelIdOfName(std::string_view stem) {
  if (stem.size() == 8 && std::all_of(stem.begin(), stem.end(), [](unsigned char c) { return std::isxdigit(c); }))
    return NotNone(static_cast<uint32_t>(std::stoul(std::string(stem), nullptr, 16)));
  std::string upper(stem);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return NotNone(Fnv1a(upper));
}

namespace {

// The set's textures: one TXTR per scene texture a material samples, in order of first use.
struct TextureSet {
  std::vector<int> scene_index;
  std::map<int, int> slot_of;
};

MaterialKey KeyOf(const Scene& scene, const Mesh& mesh, TextureSet& set, std::vector<std::string>& warnings) {
  MaterialKey k;
  if (mesh.material < 0 || size_t(mesh.material) >= scene.materials.size()) return k;
  const Material& mat = scene.materials[size_t(mesh.material)];
  k.alpha = mat.alpha;
  const int t = mat.texture;
  if (t < 0 || size_t(t) >= scene.textures.size()) return k;
  if (scene.textures[size_t(t)].Missing()) {
    warnings.push_back("mesh '" + mesh.name + "': texture '" + scene.textures[size_t(t)].name +
                       "' has no pixels, written untextured");
    return k;
  }
  if (mesh.uvs.size() != mesh.positions.size()) {
    warnings.push_back("mesh '" + mesh.name + "' has no UVs for its texture, written untextured");
    return k;
  }
  const auto [it, added] = set.slot_of.emplace(t, static_cast<int>(set.scene_index.size()));
  if (added) set.scene_index.push_back(t);
  k.texture = it->second;
  return k;
}

// The display list of one mesh's corners: triangle lists (and lines) of at most 0xFFFF
// vertices, each vertex (position, normal, UV set 0) as index16.
std::vector<Primitive> Primitives(const std::vector<uint32_t>& positions, const std::vector<uint32_t>& uvs,
                                  size_t triangle_corners, bool textured) {
  std::vector<Primitive> out;
  auto emit = [&](uint8_t kind, size_t from, size_t to) {
    for (size_t at = from; at < to;) {
      const size_t per = kind == kTriangles ? 0xFFFF : 0xFFFE;
      const size_t n = std::min(per, to - at);
      Primitive p;
      p.opcode = kind;  // VAT0: float normals and UVs
      p.vertex_count = static_cast<uint16_t>(n);
      for (size_t i = at; i < at + n; ++i) {
        p.values.push_back(static_cast<uint16_t>(positions[i]));
        p.values.push_back(static_cast<uint16_t>(positions[i]));  // the normal array follows the positions
        if (textured) p.values.push_back(static_cast<uint16_t>(uvs[i]));
      }
      out.push_back(std::move(p));
      at += n;
    }
  };
  emit(kTriangles, 0, triangle_corners);
  emit(kLines, triangle_corners, positions.size());
  return out;
}

struct MeshCorners {
  uint32_t material = 0;
  std::vector<Corner> corners;  // the triangles' corners, then the lines'
  size_t triangle_corners = 0;
};

void CheckIndexRange(size_t count, const char* what) {
  if (count > kMaxIndex)
    throw Error::General("the model has " + std::to_string(count) + " " + what + "; a CMDL's index16 names at most " +
                         std::to_string(kMaxIndex));
}

Surface MakeSurface(const MeshCorners& mc, const std::vector<uint32_t>& base, const Build& b, bool textured) {
  std::vector<uint32_t> positions, uvs;
  Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f}, normal;
  for (const Corner& c : mc.corners) {
    positions.push_back(base[c.group] + c.vertex);
    uvs.push_back(c.uv);
    const ModelVertex& v = b.vertices[c.group][c.vertex];
    lo = {std::min(lo.x, v.position[0]), std::min(lo.y, v.position[1]), std::min(lo.z, v.position[2])};
    hi = {std::max(hi.x, v.position[0]), std::max(hi.y, v.position[1]), std::max(hi.z, v.position[2])};
    normal = normal + Vec3{v.normal[0], v.normal[1], v.normal[2]};
  }
  Surface s;
  const Vec3 centre = (lo + hi) * 0.5f, n = Unit(normal);
  s.header.centre = {centre.x, centre.y, centre.z};
  s.header.material = mc.material;
  s.header.display_list_size = kNormalHint;  // set in the stock files
  s.header.normal = {n.x, n.y, n.z};
  s.primitives = Primitives(positions, uvs, mc.triangle_corners, textured);
  return s;
}

EncodedTexture EncodeTexture(const Image& source, uint32_t id) {
  Image image = source;
  bool alpha = false;
  for (size_t i = 3; i < image.rgba.size(); i += 4) alpha |= image.rgba[i] < 255;
  metroid_txtr::EncodeSettings s;
  s.format = uint32_t(alpha ? metroid_txtr::TexelFormat::CMPR : metroid_txtr::TexelFormat::RGB565);
  metroid_txtr::FlipRows(image);  // stored bottom-up, as the game's model textures are
  EncodedTexture out;
  out.id = id;
  out.bytes = metroid_txtr::SerializeTxtr(metroid_txtr::EncodeTxtr(image, s));
  out.format = std::string(metroid_txtr::Traits(s.format).name);
  return out;
}

std::vector<uint32_t> BoneIdsFor(const Skeleton& skeleton, const CmdlEncodeSettings& settings) {
  std::vector<std::string> names;
  for (const Joint& j : skeleton.joints) names.push_back(j.name);
  return metroid_ids::AssignBoneIds(names, settings.bone_ids, false);
}

CskrFile MakeSkin(const Build& b, size_t positions) {
  CskrFile skin;
  for (size_t g = 0; g < b.groups.size(); ++g) {
    WeightGroup group;
    for (const auto& [bone, bits] : b.groups[g]) group.weights.push_back({bone, std::bit_cast<float>(bits)});
    group.vertex_count = static_cast<uint32_t>(b.vertices[g].size());
    skin.groups.push_back(std::move(group));
  }
  skin.positions = {-1, static_cast<uint32_t>(positions), {}};
  skin.normals = {-1, static_cast<uint32_t>(positions), {}};
  return skin;
}

}  // namespace

CmdlEncoded EncodeCmdl(const Scene& scene, const Skeleton& skeleton, const CmdlEncodeSettings& settings) {
  CmdlEncoded out;
  const bool skinned = !skeleton.empty() && std::any_of(scene.meshes.begin(), scene.meshes.end(), [](const Mesh& m) {
                         return m.Skinned() || m.joint >= 0;
                       });
  const std::vector<uint32_t> bone_ids = BoneIdsFor(skeleton, settings);
  const std::vector<Mat4> rest = RestModel(skeleton);
  Build b;
  TextureSet textures;
  std::map<MaterialKey, uint32_t> material_of;
  std::vector<MaterialKey> materials;
  std::vector<MeshCorners> meshes;
  for (const Mesh& mesh : scene.meshes) {
    if (mesh.triangles.size() < 3 && mesh.lines.size() < 2) continue;
    if (mesh.Skinned() && (mesh.joints.size() != mesh.positions.size() || mesh.weights.size() != mesh.positions.size()))
      throw Error::General("mesh '" + mesh.name + "' has " + std::to_string(mesh.joints.size()) + " joint and " +
                           std::to_string(mesh.weights.size()) + " weight sets for " +
                           std::to_string(mesh.positions.size()) + " positions");
    if (!skinned && mesh.Skinned())
      out.warnings.push_back("mesh '" + mesh.name + "' is skinned but there is no skeleton (--skeleton): written static");
    if (skinned && !mesh.Skinned() && mesh.joint < 0)
      out.warnings.push_back("mesh '" + mesh.name + "' is static in a skinned model: bound to the first joint");
    const MaterialKey key = KeyOf(scene, mesh, textures, out.warnings);
    const auto [it, added] = material_of.emplace(key, static_cast<uint32_t>(materials.size()));
    if (added) materials.push_back(key);
    const bool has_normals = mesh.normals.size() == mesh.positions.size();
    const MeshContext c{mesh, bone_ids, rest, skinned, key.texture >= 0, has_normals ? mesh.normals : SmoothNormals(mesh)};
    MeshCorners mc;
    mc.material = it->second;
    for (size_t i = 0; i + 2 < mesh.triangles.size(); i += 3)
      for (size_t k = 0; k < 3; ++k) mc.corners.push_back(AddCorner(c, b, mesh.triangles[i + k]));
    mc.triangle_corners = mc.corners.size();
    for (size_t i = 0; i + 1 < mesh.lines.size(); i += 2)
      for (size_t k = 0; k < 2; ++k) mc.corners.push_back(AddCorner(c, b, mesh.lines[i + k]));
    meshes.push_back(std::move(mc));
  }
  if (meshes.empty()) throw Error::General("nothing to write: the input has no mesh with triangles or lines");
  if (b.dropped_influences)
    out.warnings.push_back(std::to_string(b.dropped_influences) +
                           " vertices have more than 3 influences: the heaviest 3 are kept (the game blends 3)");
  CmdlFile& f = out.model;
  f.header.flags = skinned ? kFlagSkinned : 0;
  std::vector<uint32_t> base;  // the first position of each group
  for (const auto& group : b.vertices) {
    base.push_back(static_cast<uint32_t>(f.positions.values.size()));
    for (const ModelVertex& v : group) {
      f.positions.values.push_back(v.position);
      f.float_normals.values.push_back(v.normal);
    }
  }
  CheckIndexRange(f.positions.values.size(), "positions");
  CheckIndexRange(b.uvs.size(), "UVs");
  f.float_uvs.values = b.uvs;
  std::array<float, 6> bounds{1e30f, 1e30f, 1e30f, -1e30f, -1e30f, -1e30f};
  for (const auto& p : f.positions.values)
    for (size_t k = 0; k < 3; ++k) bounds[k] = std::min(bounds[k], p[k]), bounds[k + 3] = std::max(bounds[k + 3], p[k]);
  f.header.bounds = bounds;
  MaterialSet set;
  for (size_t i = 0; i < textures.scene_index.size(); ++i) {
    out.textures.push_back(EncodeTexture(scene.textures[size_t(textures.scene_index[i])],
                                         DerivedId(settings.model_id, "TXTR" + std::to_string(i))));
    set.texture_ids.push_back(out.textures.back().id);
  }
  for (const MaterialKey& k : materials) set.materials.push_back(MakeMaterial(k));
  f.material_sets.push_back(std::move(set));
  for (const MeshCorners& mc : meshes) f.surfaces.push_back(MakeSurface(mc, base, b, materials[mc.material].texture >= 0));
  LayOutCmdl(f);
  if (skinned) {
    out.skin = MakeSkin(b, f.positions.values.size());
    out.skin_id = DerivedId(settings.model_id, "CSKR");
  }
  return out;
}

}  // namespace animkit::metroid_model

namespace animkit::metroid_model {
namespace {

// Bone ids by joint name from a CINF-decoded scene's metadata (one per joint).
void AddNamedBoneIds(const Scene& scene, std::vector<std::pair<std::string, uint32_t>>& out) {
  if (!scene.metadata.is_object() || !scene.metadata.contains("bone_ids")) return;
  const Value& ids = scene.metadata["bone_ids"];
  for (size_t i = 0; ids.is_array() && i < ids.size() && i < scene.skeleton.joints.size(); ++i)
    if (ids[i].is_number_unsigned()) out.emplace_back(scene.skeleton.joints[i].name, ids[i].get<uint32_t>());
}

}  // namespace

CmdlEncoded EncodeCmdlFor(const Scene& scene, EncodeContext& context) {
  const Skeleton& skeleton = scene.skeleton.empty() ? context.Rest(scene) : scene.skeleton;
  CmdlEncodeSettings settings;
  settings.model_id = ModelIdOfName(TextOf(PathOf(context.output_path).stem()));
  AddNamedBoneIds(scene.skeleton.empty() && context.reference ? *context.reference : scene, settings.bone_ids);
  if (context.reference && !scene.skeleton.empty()) AddNamedBoneIds(*context.reference, settings.bone_ids);
  CmdlEncoded e = EncodeCmdl(scene, skeleton, settings);
  const std::filesystem::path folder = PathOf(context.output_path).parent_path();
  Value textures = Value::array();
  if (e.skin) context.extra_outputs.push_back({TextOf(folder / PathOf(SkinFileName(e.skin_id))), SerializeCskr(*e.skin)});
  for (const EncodedTexture& t : e.textures) {
    context.extra_outputs.push_back({TextOf(folder / PathOf(TxtrFileName(t.id))), t.bytes});
    textures.push_back({{"file", TxtrFileName(t.id)}, {"format", t.format}});
  }
  const CmdlFile& f = e.model;
  context.report = {{"model_id", IdText(settings.model_id)},
                    {"positions", f.positions.values.size()},
                    {"uvs", f.float_uvs.values.size()},
                    {"materials", f.material_sets[0].materials.size()},
                    {"surfaces", f.surfaces.size()},
                    {"skin", e.skin ? Value(SkinFileName(e.skin_id)) : Value()},
                    {"weight_groups", e.skin ? e.skin->groups.size() : 0},
                    {"textures", std::move(textures)}};
  for (const std::string& w : e.warnings) context.warnings.push_back(w);
  return e;
}

std::string SkinFileName(uint32_t id) { return IdText(id) + ".CSKR"; }

}  // namespace animkit::metroid_model
