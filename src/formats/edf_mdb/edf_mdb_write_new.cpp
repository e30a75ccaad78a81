// A new MDB from a scene, in the stock layout of its version (docs/formats/edf_mdb.md
// "Writing models"): bones in depth-first pre-order, one object per bone that holds rigid
// meshes, one object on the root for the skinned ones.
#include "edf_mdb_write.hpp"

#include <animkit/offline/skinning.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace animkit::edf_mdb {
namespace {

using write::FileMesh;
using write::Wide;


// Joint indices in depth-first pre-order (the order the engine derives subtree ranges from).
std::vector<size_t> PreOrder(const Skeleton& s, std::vector<int>& depth) {
  std::vector<size_t> order;
  std::vector<std::vector<size_t>> children(s.joints.size());
  std::vector<size_t> roots;
  for (size_t i = 0; i < s.joints.size(); ++i)
    (s.joints[i].parent < 0 ? roots : children[size_t(s.joints[i].parent)]).push_back(i);
  depth.assign(s.joints.size(), 0);
  std::vector<size_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    const size_t j = stack.back();
    stack.pop_back();
    if (s.joints[j].parent >= 0) depth[j] = depth[size_t(s.joints[j].parent)] + 1;
    order.push_back(j);
    for (auto it = children[j].rbegin(); it != children[j].rend(); ++it) stack.push_back(*it);
  }
  return order;
}

struct Bounds {
  Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  void Add(Vec3 p) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  bool empty() const { return !(lo.x <= hi.x); }
};

class NewWriter {
 public:
  NewWriter(const Scene& scene, const WriteOptions& options) : scene_(scene), options_(options) {
    s_.version = options.version ? options.version : kVersionEdf5;
    if (s_.version != kVersionEdf5 && s_.version != kVersionEdf6)
      throw Error::General("MDB version " + Hex(s_.version) + " is not written (0x14: EDF 5, 0x20: EDF 6)");
    skeleton_ = options.skeleton ? *options.skeleton : scene.skeleton;
    if (skeleton_.empty()) skeleton_.joints.push_back({"root", -1, {}});
    const std::vector<Mat4> rest = BindMatrices(skeleton_);  // parents first, else Error
    order_ = PreOrder(skeleton_, depth_);
    position_.assign(order_.size(), 0);
    for (size_t i = 0; i < order_.size(); ++i) position_[order_[i]] = i;
    for (size_t i = 0; i < order_.size(); ++i) rest_.push_back(rest[order_[i]]);
    bounds_.resize(order_.size());
    kind_.assign(order_.size(), 0);
  }
  WriteResult Run();

 private:
  // A scene joint's bone (position in the written order).
  size_t BoneOf(const Mesh& m, int joint) const {
    int j = joint;
    if (options_.skeleton && joint >= 0) {
      const std::string name = size_t(joint) < scene_.skeleton.joints.size() ? scene_.skeleton.joints[size_t(joint)].name : "";
      j = skeleton_.Find(name);
      if (j < 0) throw Error::General("mesh '" + m.name + "': joint '" + name + "' is not in the skeleton given");
    }
    if (j < 0 || size_t(j) >= order_.size())
      throw Error::General("mesh '" + m.name + "' names joint " + std::to_string(joint) + " outside the skeleton");
    return position_[size_t(j)];
  }
  FileMesh ToFile(const Mesh& m, size_t& bone);
  void WriteBones();
  void WriteMaterials();

  const Scene& scene_;
  const WriteOptions& options_;
  Skeleton skeleton_;
  std::vector<size_t> order_, position_;
  std::vector<int> depth_;
  std::vector<Mat4> rest_;
  std::vector<Bounds> bounds_;
  std::vector<uint8_t> kind_;
  StoredFile s_;
  WriteResult result_;
};

// Rigid meshes stay in their bone's space; static ones go to the root's space; skinned ones
// keep model space with global bone indices. Limits are checked here, naming the mesh.
FileMesh NewWriter::ToFile(const Mesh& m, size_t& bone) {
  FileMesh f;
  f.name = m.name;
  f.positions = m.positions, f.normals = m.normals, f.uvs = m.uvs, f.colors = m.colors, f.triangles = m.triangles;
  if (m.positions.size() > 65536)
    throw Error::General("mesh '" + m.name + "': " + std::to_string(m.positions.size()) +
                         " vertices; an MDB mesh holds at most 65536 (16-bit indices)");
  write::WarnLosses(m, result_.warnings);
  bone = 0;
  if (m.Skinned()) {
    for (size_t v = 0; v < m.joints.size(); ++v) {
      std::array<uint8_t, 4> j{};
      for (size_t k = 0; k < 4; ++k) {
        if (!(m.weights[v][k] > 0)) continue;
        const size_t b = BoneOf(m, m.joints[v][k]);
        if (b > 255)
          throw Error::General("mesh '" + m.name + "': bone " + std::to_string(b) +
                               " past 255, the most an MDB vertex names (8-bit indices)");
        j[k] = uint8_t(b);
        kind_[b] = std::max<uint8_t>(kind_[b], 3);
        bounds_[b].Add(TransformPoint(InverseAffine(rest_[b]), m.positions[v]));
      }
      f.joints.push_back(j);
    }
    f.weights = m.weights;
    return f;
  }
  if (m.joint >= 0) {
    bone = BoneOf(m, m.joint);
  } else {  // static: into the root's space
    const Mat4 to_root = InverseAffine(rest_[0]);
    const Vec3 origin = TransformPoint(to_root, {0, 0, 0});
    for (Vec3& p : f.positions) p = TransformPoint(to_root, p);
    for (Vec3& n : f.normals) n = TransformPoint(to_root, n) - origin;
  }
  for (const Vec3& p : f.positions) bounds_[bone].Add(p);
  return f;
}

void NewWriter::WriteBones() {
  const size_t n = order_.size();
  for (size_t i = 0; i < n; ++i) {
    const Joint& j = skeleton_.joints[order_[i]];
    Bone b;
    b.index = uint32_t(i);
    b.parent = j.parent < 0 ? -1 : int32_t(position_[size_t(j.parent)]);
    b.name_index = uint32_t(i);
    for (size_t k = i + 1; k < n; ++k) {
      const int p = skeleton_.joints[order_[k]].parent;
      const int32_t parent = p < 0 ? -1 : int32_t(position_[size_t(p)]);
      if (parent == int32_t(i)) {
        if (b.first_child < 0) b.first_child = int32_t(k);
        ++b.child_count;
      }
      if (parent == b.parent && b.next_sibling < 0) b.next_sibling = int32_t(k);
    }
    b.group = kind_[i];
    const int next_depth = i + 1 < n ? depth_[order_[i + 1]] : 2 * depth_[order_[i]];
    b.unknown1 = uint8_t(int8_t(next_depth - depth_[order_[i]]));
    const Mat4 local = MatrixFromTRS(j.rest), inverse = InverseAffine(rest_[i]);
    for (size_t c = 0; c < 4; ++c)
      for (size_t r = 0; r < 4; ++r) b.local[c * 4 + r] = local.m[c][r], b.inverse_bind[c * 4 + r] = inverse.m[c][r];
    b.unknown = {0, 0, 0, 1, 0, 0, 0, 1};
    if (!bounds_[i].empty()) {  // half size, then centre, in the bone's frame
      const Bounds& x = bounds_[i];
      b.unknown_flag = 1;
      b.unknown = {(x.hi.x - x.lo.x) / 2, (x.hi.y - x.lo.y) / 2, (x.hi.z - x.lo.z) / 2, 1,
                   (x.hi.x + x.lo.x) / 2, (x.hi.y + x.lo.y) / 2, (x.hi.z + x.lo.z) / 2, 1};
    }
    s_.bones.push_back(b);
    s_.names.push_back(Wide(j.name));
  }
}

// Materials as the decoder's metadata describes them (shader, parameters, slots), else one
// albedo slot on the material's texture and the default shader.
void NewWriter::WriteMaterials() {
  for (size_t i = 0; i < scene_.materials.size(); ++i) {
    const Material& mat = scene_.materials[i];
    StoredMaterial m;
    m.index = uint16_t(i);
    m.name = uint32_t(s_.names.size());
    s_.names.push_back(Wide(mat.name.empty() ? "material" + std::to_string(i) : mat.name));
    m.shader = Wide(mat.metadata.value("shader", "snd_Common_Light_NoOcc"));
    if (mat.metadata.contains("parameters") && mat.metadata["parameters"].is_object()) {
      for (auto item : mat.metadata["parameters"].items()) {
        const Value& values = item.value();
        StoredParameter p;
        p.name = item.key();
        const size_t count = values.is_array() ? std::min<size_t>(values.size(), 4) : 0;
        for (size_t c = 0; c < count; ++c) p.values[c] = values[c].get<float>();
        p.type = uint32_t(count) << 8 | uint32_t(count ? count - 1 : 0);
        m.parameters.push_back(std::move(p));
      }
    }
    if (mat.metadata.contains("textures") && mat.metadata["textures"].is_array()) {
      for (const Value& t : mat.metadata["textures"]) {
        const uint64_t x = t.value<uint64_t>("texture", 0);
        if (x < scene_.textures.size()) m.slots.push_back({.texture = uint32_t(x), .map = t.value("map", "albedo")});
      }
    } else if (mat.texture >= 0 && size_t(mat.texture) < scene_.textures.size()) {
      m.slots.push_back({.texture = uint32_t(mat.texture), .map = "albedo"});
    }
    s_.materials.push_back(std::move(m));
  }
}

WriteResult NewWriter::Run() {
  std::vector<FileMesh> files;
  std::vector<size_t> bones;
  for (const Mesh& m : scene_.meshes) {
    if (m.triangles.empty()) {
      result_.warnings.push_back("mesh '" + m.name + "': no triangles; not written");
      continue;
    }
    size_t bone = 0;
    files.push_back(ToFile(m, bone));
    bones.push_back(m.Skinned() ? SIZE_MAX : bone);
  }
  // Objects: the skinned meshes on the root bone (kind 2), then per bone its rigid meshes (kind 1).
  std::vector<size_t> object_bones;
  if (std::count(bones.begin(), bones.end(), SIZE_MAX)) object_bones.push_back(SIZE_MAX);
  for (size_t b = 0; b < order_.size(); ++b)
    if (std::count(bones.begin(), bones.end(), b)) object_bones.push_back(b);
  for (size_t b : object_bones)
    if (b != SIZE_MAX) kind_[b] = 1;
  if (!object_bones.empty() && object_bones.front() == SIZE_MAX) kind_[0] = 2;
  WriteBones();
  WriteMaterials();
  for (size_t i = 0; i < scene_.textures.size(); ++i) {
    const Image& image = scene_.textures[i];
    std::string file = TextOf(PathOf(image.name).filename().replace_extension(".dds"));
    if (file == ".dds") file = "texture" + std::to_string(i) + ".dds";
    s_.textures.push_back(
        {.index = uint32_t(i), .name = Wide(TextOf(PathOf(file).stem()) + "_dds"), .file_name = Wide(file)});
    if (image.Missing()) continue;
    bool alpha = false;
    for (size_t p = 3; p < image.rgba.size() && !alpha; p += 4) alpha = image.rgba[p] != 255;
    result_.textures.emplace_back(file, EncodeDds(image, alpha ? DdsEncoding::Bc3 : DdsEncoding::Bc1));
  }
  const float sign = s_.version == kVersionEdf6 ? -1.0f : 1.0f;
  for (size_t b : object_bones) {
    StoredObject o;
    o.name = uint32_t(b == SIZE_MAX ? 0 : b);
    o.index = uint32_t(s_.objects.size());
    if (s_.version == kVersionEdf6) o.index = uint32_t(s_.names.size()), s_.names.push_back(*s_.names[o.name]);
    for (size_t i = 0; i < files.size(); ++i) {
      if (bones[i] != b) continue;
      const FileMesh& f = files[i];
      const Mesh& source = *std::find_if(scene_.meshes.begin(), scene_.meshes.end(), [&](const Mesh& m) { return m.name == f.name; });
      StoredMesh m;
      m.layout = write::StockLayout(s_.version, b == SIZE_MAX, !f.colors.empty(), m.stride);
      m.vertices = write::BuildVertices(m.layout, m.stride, f, {}, {}, sign);
      m.indices = write::BuildIndices(f);
      m.mesh_index = uint32_t(o.meshes.size());
      m.material = source.material >= 0 && size_t(source.material) < s_.materials.size() ? source.material : -1;
      if (b == SIZE_MAX) {
        int most = 1;
        for (const auto& w : f.weights) most = std::max(most, int(std::count_if(w.begin(), w.end(), [](float x) { return x > 0; })));
        m.flags = {0, 1, uint8_t(most), 0};
      }
      o.meshes.push_back(std::move(m));
      ++result_.new_meshes;
    }
    s_.objects.push_back(std::move(o));
  }
  result_.mdb = WriteStored(s_);
  return std::move(result_);
}

}  // namespace

WriteResult WriteModel(const Scene& scene, const WriteOptions& options) { return NewWriter(scene, options).Run(); }

std::vector<size_t> BoneOrder(const Skeleton& skeleton) {
  std::vector<int> depth;
  return PreOrder(skeleton, depth);
}

}  // namespace animkit::edf_mdb
