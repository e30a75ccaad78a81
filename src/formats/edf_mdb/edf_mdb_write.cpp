// A scene written into a template MDB: unedited meshes keep their bytes, edited ones are
// rebuilt in the layout the template declares, new ones take a template mesh's layout
// (docs/formats/edf_mdb.md "Writing models").
#include "edf_mdb_write.hpp"

#include "formats/common/influences.hpp"

#include <animkit/offline/skinning.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace animkit::edf_mdb {
namespace {

using write::FileMesh;
using write::Wide;


const StoredElement* FindElement(const StoredMesh& m, std::string_view name) {
  for (const StoredElement& e : m.layout)
    if (e.channel == 0 && write::Lower(e.name) == name) return &e;
  return nullptr;
}

// How far two decoded values may lie apart and still be the same stored value.
float Tolerance(const StoredElement* e) {
  return e && ElementType(e->type) == ElementType::Half4 ? 4.9e-4f : 2e-5f;
}
bool Close(float a, float b, float tol) { return std::fabs(a - b) <= tol * std::max(1.0f, std::fabs(b)); }
bool Close3(Vec3 a, Vec3 b, float tol) { return Close(a.x, b.x, tol) && Close(a.y, b.y, tol) && Close(a.z, b.z, tol); }

struct Target {
  size_t object = 0, mesh = 0;
  const Mesh* decoded = nullptr;
  const Mesh* scene = nullptr;
};

class TemplateWriter {
 public:
  TemplateWriter(const Scene& scene, const File& templ, const WriteOptions& options)
      : scene_(scene), file_(templ), stored_(ReadStored(templ)) {
    model_ = ParseModel(templ);
    decoded_.skeleton = DecodeSkeleton(templ);
    std::vector<std::string> damaged;
    DecodeModel(templ, model_, options.template_images ? TextureReader() : options.template_textures, decoded_, damaged);
    if (options.template_images && options.template_images->size() == decoded_.textures.size())
      decoded_.textures = *options.template_images;
    rest_ = BindMatrices(decoded_.skeleton);
    for (const Bone& b : stored_.bones) bind_.push_back(InverseAffine(MatrixFrom(b.inverse_bind)));
    for (size_t j = 0; j < scene.skeleton.joints.size(); ++j) {
      const int b = decoded_.skeleton.Find(scene.skeleton.joints[j].name);
      joint_map_.push_back(b);
    }
  }

  WriteResult Run();

 private:
  int BoneOf(const Mesh& m, int joint) const {
    if (scene_.skeleton.empty()) return joint;
    if (joint < 0 || size_t(joint) >= joint_map_.size() || joint_map_[size_t(joint)] < 0) {
      const std::string name = joint >= 0 && size_t(joint) < scene_.skeleton.joints.size()
                                   ? scene_.skeleton.joints[size_t(joint)].name
                                   : std::to_string(joint);
      throw Error::General("mesh '" + m.name + "': joint '" + name + "' is no bone of the template");
    }
    return joint_map_[size_t(joint)];
  }
  void MatchMeshes();
  std::vector<bool> Unmoved(const Mesh& s, const Mesh& d, const StoredMesh& m) const;
  bool Unedited(const Target& t) const;
  FileMesh ToFile(const Mesh& s, bool moved_to_rest) const;
  void Rebuild(StoredMesh& out, const Target& t, const Bytes& base, std::vector<bool> keep);
  void AddMesh(const Mesh& s);
  void AddMaterials();
  void AddTextures();
  void UpdateBounds();
  uint32_t NameSlot(const std::string& name);

  const Scene& scene_;
  const File& file_;
  StoredFile stored_;
  Model model_;
  Scene decoded_;
  std::vector<Mat4> rest_, bind_;
  std::vector<int> joint_map_;
  std::vector<Target> targets_;      // template meshes (decoded ones), with their scene mesh
  std::vector<const Mesh*> added_;   // scene meshes no template mesh names
  bool material_changed_ = false;
  std::vector<bool> touched_;  // per object: a mesh of it rebuilt, added or deleted
  WriteResult result_;
};

void TemplateWriter::MatchMeshes() {
  std::vector<size_t> next(model_.objects.size(), 0);
  for (const Mesh& d : decoded_.meshes) {
    Target t;
    t.decoded = &d;
    const uint64_t index = d.metadata.value<uint64_t>("object_index", 0), mesh = d.metadata.value<uint64_t>("mesh_index", 0);
    const std::string object = d.metadata.value("object", "");
    bool found = false;
    for (size_t o = 0; o < model_.objects.size() && !found; ++o) {
      if (model_.objects[o].index != index || NameOf(file_, model_.objects[o].name) != object) continue;
      for (size_t k = 0; k < model_.objects[o].meshes.size() && !found; ++k)
        if (model_.objects[o].meshes[k].mesh_index == mesh) t.object = o, t.mesh = k, found = true;
    }
    if (found) targets_.push_back(t);
  }
  std::vector<bool> taken(targets_.size(), false);
  for (const Mesh& s : scene_.meshes) {
    size_t hit = targets_.size();
    const bool keyed = s.metadata.contains("object") && s.metadata.contains("mesh_index");
    for (size_t i = 0; i < targets_.size() && hit == targets_.size(); ++i) {
      const Mesh& d = *targets_[i].decoded;
      if (taken[i]) continue;
      if (keyed ? s.metadata.value("object", "") == d.metadata.value("object", "") &&
                      s.metadata.value<uint64_t>("mesh_index", 0) == d.metadata.value<uint64_t>("mesh_index", 0) &&
                      s.metadata.value<uint64_t>("object_index", 0) == d.metadata.value<uint64_t>("object_index", 0)
                : s.name == d.name)
        hit = i;
    }
    if (hit == targets_.size()) {
      added_.push_back(&s);
    } else {
      taken[hit] = true;
      targets_[hit].scene = &s;
    }
  }
}

// Per vertex: every decoded value as the template's (within the stored precision).
std::vector<bool> TemplateWriter::Unmoved(const Mesh& s, const Mesh& d, const StoredMesh& m) const {
  const size_t n = s.positions.size();
  std::vector<bool> same(n, false);
  if (n != d.positions.size() || s.normals.size() != d.normals.size() || s.uvs.size() != d.uvs.size() ||
      s.colors.size() != d.colors.size() || s.weights.size() != d.weights.size())
    return same;
  const float pt = Tolerance(FindElement(m, "position")), nt = Tolerance(FindElement(m, "normal")) * 4;
  const float ut = Tolerance(FindElement(m, "texcoord"));
  for (size_t v = 0; v < n; ++v) {
    bool ok = Close3(s.positions[v], d.positions[v], pt);
    if (ok && !s.normals.empty()) ok = Close3(s.normals[v], d.normals[v], nt);
    if (ok && !s.uvs.empty()) ok = Close(s.uvs[v][0], d.uvs[v][0], ut) && Close(s.uvs[v][1], d.uvs[v][1], ut);
    for (size_t c = 0; ok && c < 4 && !s.colors.empty(); ++c) ok = std::fabs(s.colors[v][c] - d.colors[v][c]) <= 0.5f / 255;
    if (ok && !s.weights.empty()) {  // as skinning blends them: a bone named twice is one influence
      std::array<uint16_t, 4> bones{};
      for (size_t k = 0; k < 4; ++k) bones[k] = s.weights[v][k] > 0 ? uint16_t(BoneOf(s, s.joints[v][k])) : 0;
      ok = SameInfluences(BlendedSlots(bones, s.weights[v]), BlendedSlots(d.joints[v], d.weights[v]), 0.5f / 255);
    }
    same[v] = ok;
  }
  return same;
}

bool TemplateWriter::Unedited(const Target& t) const {
  const Mesh& s = *t.scene;
  const Mesh& d = *t.decoded;
  const StoredMesh& m = stored_.objects[t.object].meshes[t.mesh];
  if (s.positions.size() != d.positions.size() || s.triangles != d.triangles || s.Skinned() != d.Skinned() ||
      s.normals.size() != d.normals.size() || s.uvs.size() != d.uvs.size() || s.colors.size() != d.colors.size())
    return false;
  if ((s.joint < 0) != (d.joint < 0) || (s.joint >= 0 && BoneOf(s, s.joint) != d.joint)) return false;
  const std::vector<bool> same = Unmoved(s, d, m);
  return std::all_of(same.begin(), same.end(), [](bool b) { return b; });
}

// The scene's vertices in the file's space: rigid ones by their bone's rest matrix, skinned
// ones back to the stored bind pose when the decoder moved them to the rest pose.
FileMesh TemplateWriter::ToFile(const Mesh& s, bool moved_to_rest) const {
  FileMesh f;
  f.name = s.name;
  f.positions = s.positions, f.normals = s.normals, f.uvs = s.uvs, f.colors = s.colors, f.triangles = s.triangles;
  if (s.Skinned()) {
    Mesh mapped = s;
    for (auto& j : mapped.joints)
      for (uint16_t& x : j) x = uint16_t(BoneOf(s, x));
    for (size_t v = 0; v < mapped.joints.size(); ++v) {
      std::array<uint8_t, 4> j{};
      for (size_t k = 0; k < 4; ++k) {
        if (mapped.weights[v][k] > 0 && mapped.joints[v][k] > 255)
          throw Error::General("mesh '" + s.name + "': bone index " + std::to_string(mapped.joints[v][k]) +
                               " past 255, the most an MDB vertex names");
        j[k] = uint8_t(mapped.weights[v][k] > 0 ? mapped.joints[v][k] : 0);
      }
      f.joints.push_back(j);
    }
    f.weights = s.weights;
    if (moved_to_rest) {
      std::vector<Mat4> skin(rest_.size());
      SkinMatrices(rest_, bind_, skin);
      std::vector<Vec3> p(s.positions.size()), n(s.normals.size());
      SkinJob job{&mapped, skin, bind_, p, n, {}};  // the 4 the MDB holds
      if (!job.Run()) throw Error::General("mesh '" + s.name + "' could not be moved to the stored bind pose");
      f.positions = std::move(p), f.normals = std::move(n);
    }
  } else if (s.joint >= 0) {
    const Mat4& m = rest_.at(size_t(BoneOf(s, s.joint)));
    const Vec3 origin = TransformPoint(m, {0, 0, 0});
    for (Vec3& p : f.positions) p = TransformPoint(m, p);
    for (Vec3& n : f.normals) n = TransformPoint(m, n) - origin;
  }
  for (Vec3& n : f.normals) {
    const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    if (len > 0) n = n * (1 / len);
  }
  if (f.positions.size() > 65536)
    throw Error::General("mesh '" + s.name + "': " + std::to_string(f.positions.size()) +
                         " vertices; an MDB mesh holds at most 65536 (16-bit indices)");
  return f;
}

void TemplateWriter::Rebuild(StoredMesh& out, const Target& t, const Bytes& base, std::vector<bool> keep) {
  const Mesh& s = *t.scene;
  const bool moved = t.decoded && t.decoded->metadata.value("moved_to_rest", false);
  const FileMesh f = ToFile(s, moved);
  write::WarnLosses(s, result_.warnings);
  const float sign = stored_.version == kVersionEdf6 ? -1.0f : 1.0f;
  out.vertices = write::BuildVertices(out.layout, out.stride, f, base, keep, sign);
  out.indices = write::BuildIndices(f);
  if (s.Skinned()) {
    int most = 1;
    for (const auto& w : s.weights) most = std::max(most, int(std::count_if(w.begin(), w.end(), [](float x) { return x > 0; })));
    out.flags[1] = 1, out.flags[2] = uint8_t(most);
  }
  out.material = s.material;
}

uint32_t TemplateWriter::NameSlot(const std::string& name) {
  for (size_t i = 0; i < stored_.names.size(); ++i)
    if (!stored_.names[i]) {
      stored_.names[i] = Wide(name);
      return uint32_t(i);
    }
  stored_.names.push_back(Wide(name));
  return uint32_t(stored_.names.size() - 1);
}

void TemplateWriter::AddMesh(const Mesh& s) {
  // The object: the one the metadata names, else the one on the mesh's bone, else a new one.
  const int bone = s.joint >= 0 ? BoneOf(s, s.joint) : 0;
  const std::string object = s.metadata.value("object", "");
  size_t o = stored_.objects.size();
  for (size_t i = 0; i < stored_.objects.size() && o == stored_.objects.size(); ++i) {
    const uint32_t name = stored_.objects[i].name;
    const std::string n = name < stored_.names.size() && stored_.names[name] ? Utf8(*stored_.names[name]) : "";
    if ((!object.empty() && n == object) || (object.empty() && name == stored_.bones.at(size_t(bone)).name_index)) o = i;
  }
  if (o == stored_.objects.size()) {
    StoredObject x;
    x.name = stored_.bones.at(size_t(bone)).name_index;
    x.index = stored_.version == kVersionEdf6 ? NameSlot(decoded_.skeleton.joints[size_t(bone)].name)
                                              : uint32_t(stored_.objects.size());
    Bone& b = stored_.bones[size_t(bone)];
    if (b.group == 0) b.group = s.Skinned() ? 2 : 1;
    stored_.objects.push_back(std::move(x));
  }
  // The layout: a template mesh of the same kind, else the version's stock layout.
  StoredMesh m;
  bool found = false;
  for (const StoredObject& x : stored_.objects)
    for (const StoredMesh& y : x.meshes)
      if (!found && (y.flags[1] != 0) == s.Skinned()) m = y, found = true;
  if (!found) m.layout = write::StockLayout(stored_.version, s.Skinned(), !s.colors.empty(), m.stride);
  m.vertices.clear(), m.indices.clear();
  m.flags = {0, 0, 0, 0};
  m.mesh_index = uint32_t(stored_.objects[o].meshes.size());
  Target t;
  t.scene = &s;
  Rebuild(m, t, {}, {});
  stored_.objects[o].meshes.push_back(std::move(m));
  touched_.resize(stored_.objects.size(), false);
  touched_[o] = true;
  ++result_.new_meshes;
}

WriteResult TemplateWriter::Run() {
  MatchMeshes();
  std::vector<StoredObject> objects = stored_.objects;
  for (StoredObject& o : objects) o.meshes.clear();
  touched_.assign(objects.size(), false);
  for (const Target& t : targets_) {
    StoredMesh m = stored_.objects[t.object].meshes[t.mesh];
    if (!t.scene) {
      ++result_.deleted_meshes;
      touched_[t.object] = true;
      continue;
    }
    if (Unedited(t)) {
      if (t.scene->material != t.decoded->material) m.material = t.scene->material, material_changed_ = true;
      ++result_.kept_meshes;
    } else {
      const Bytes base = m.vertices;
      Rebuild(m, t, base, Unmoved(*t.scene, *t.decoded, m));
      ++result_.rebuilt_meshes;
      touched_[t.object] = true;
    }
    objects[t.object].meshes.push_back(std::move(m));
  }
  // Meshes DecodeModel could not read are kept as stored.
  for (size_t o = 0; o < stored_.objects.size(); ++o)
    for (size_t k = 0; k < stored_.objects[o].meshes.size(); ++k)
      if (std::none_of(targets_.begin(), targets_.end(), [&](const Target& t) { return t.object == o && t.mesh == k; }))
        objects[o].meshes.push_back(stored_.objects[o].meshes[k]);
  stored_.objects = std::move(objects);
  AddMaterials();
  AddTextures();
  for (const Mesh* s : added_) AddMesh(*s);
  UpdateBounds();
  for (const StoredObject& o : stored_.objects)
    for (const StoredMesh& m : o.meshes)
      if (m.material >= int(stored_.materials.size()))
        throw Error::General("a mesh names material " + std::to_string(m.material) + ", but the model has " +
                             std::to_string(stored_.materials.size()));
  // Nothing edited: the template's own bytes (also when it was not laid out in the stock order).
  const bool edited = result_.rebuilt_meshes || result_.new_meshes || result_.deleted_meshes || material_changed_ ||
                      stored_.materials.size() != file_.material_count || stored_.textures.size() != file_.texture_count;
  result_.mdb = edited ? WriteStored(stored_) : file_.image;
  return std::move(result_);
}

// A bone carrying rigid meshes of an edited object: its bounds (+0xA0 half size, +0xB0
// centre, in the bone's space: the stored rigid vertices' box, as the stock files have it)
// from every rigid mesh on it. Skinned bones keep theirs.
void TemplateWriter::UpdateBounds() {
  for (size_t o = 0; o < stored_.objects.size(); ++o) {
    if (!touched_[o]) continue;
    const uint32_t bone_name = stored_.objects[o].name;
    auto bone = std::find_if(stored_.bones.begin(), stored_.bones.end(), [&](const auto& b) { return b.name_index == bone_name; });
    if (bone == stored_.bones.end()) continue;
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    bool any = false, rigid = false;
    for (const StoredObject& x : stored_.objects) {
      if (x.name != bone_name) continue;
      for (const StoredMesh& m : x.meshes) {
        if (m.flags[1] != 0) continue;
        rigid = true;
        for (const Vec3& p : write::StoredPositions(m)) {
          lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
          hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
          any = true;
        }
      }
    }
    if (!rigid) continue;
    bone->unknown_flag = any ? 1 : 0;
    bone->unknown = {0, 0, 0, 1, 0, 0, 0, 1};
    if (any)
      bone->unknown = {(hi.x - lo.x) / 2, (hi.y - lo.y) / 2, (hi.z - lo.z) / 2, 1,
                       (hi.x + lo.x) / 2, (hi.y + lo.y) / 2, (hi.z + lo.z) / 2, 1};
  }
}

// Scene materials past the template's: copies of the template's first material (its shader,
// parameters and slots) under the new name, the albedo slot on the material's texture.
void TemplateWriter::AddMaterials() {
  for (size_t i = stored_.materials.size(); i < scene_.materials.size(); ++i) {
    const Material& mat = scene_.materials[i];
    StoredMaterial m;
    if (!file_.material_count) {
      m.shader = Wide(mat.metadata.value("shader", "snd_Common_Light_NoOcc"));
      if (mat.texture >= 0) m.slots.push_back({.texture = 0, .map = "albedo"});
    } else {
      m = stored_.materials.front();
    }
    m.index = uint16_t(i);
    m.name = NameSlot(mat.name.empty() ? "material" + std::to_string(i) : mat.name);
    for (StoredSlot& s : m.slots)
      if (s.map == "albedo" && mat.texture >= 0) s.texture = uint32_t(mat.texture);
    stored_.materials.push_back(std::move(m));
  }
}

// Images that differ from the template's DDS (or that it has not) become DDS files; images
// past the template's get texture records.
void TemplateWriter::AddTextures() {
  for (size_t i = 0; i < scene_.textures.size(); ++i) {
    const Image& image = scene_.textures[i];
    if (image.Missing()) continue;
    if (i < decoded_.textures.size()) {
      const Image& old = decoded_.textures[i];
      if (!old.Missing() && old.width == image.width && old.height == image.height && old.rgba == image.rgba) continue;
    }
    std::string file;
    if (i < stored_.textures.size()) {
      file = Utf8(stored_.textures[i].file_name);
    } else {
      file = TextOf(PathOf(image.name).filename().replace_extension(".dds"));
      if (file == ".dds") file = "texture" + std::to_string(i) + ".dds";
      StoredTexture t;
      t.index = uint32_t(stored_.textures.size());
      t.name = Wide(TextOf(PathOf(file).stem()) + "_dds");
      t.file_name = Wide(file);
      stored_.textures.push_back(std::move(t));
    }
    bool alpha = false;
    for (size_t p = 3; p < image.rgba.size() && !alpha; p += 4) alpha = image.rgba[p] != 255;
    result_.textures.emplace_back(file, EncodeDds(image, alpha ? DdsEncoding::Bc3 : DdsEncoding::Bc1));
  }
}

}  // namespace

WriteResult WriteModel(const Scene& scene, const File& templ, const WriteOptions& options) {
  return TemplateWriter(scene, templ, options).Run();
}

}  // namespace animkit::edf_mdb
