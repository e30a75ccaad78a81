// Meshes and animated cameras for the glTF exporter: appended to a model whose
// nodes, skin and animations the exporter has already built.
#include <animkit/core/error.hpp>
#include <animkit/core/math.hpp>
#include <animkit/core/model.hpp>
#include <animkit/offline/skinning.hpp>

#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace animkit::gltf {
namespace {

class Appender {
 public:
  explicit Appender(tinygltf::Model& model) : model_(model) {}

  int AddView(const void* data, size_t bytes, int target) { return AppendBufferView(model_, data, bytes, target); }

  int AddFloats(const std::vector<float>& data, int type, int components, bool min_max, int target = 0) {
    tinygltf::Accessor a = FloatAccessor(data, type, components, min_max);
    a.bufferView = AddView(data.data(), data.size() * sizeof(float), target);
    model_.accessors.push_back(std::move(a));
    return static_cast<int>(model_.accessors.size() - 1);
  }

  int AddIndices(const std::vector<uint32_t>& indices, size_t vertex_count) {
    // 0xFFFF is the primitive restart value: avoided.
    return AddUnsigned<uint16_t>(indices, TINYGLTF_TYPE_SCALAR, indices.size(), vertex_count < 0xFFFF,
                                 TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
  }

  // JOINTS_0: unsigned bytes when every index fits, else unsigned shorts.
  int AddJoints(const std::vector<uint16_t>& joints, bool bytes) {
    return AddUnsigned<uint8_t>(joints, TINYGLTF_TYPE_VEC4, joints.size() / 4, bytes, TINYGLTF_TARGET_ARRAY_BUFFER);
  }

 private:
  static constexpr int UnsignedComponentType(size_t bytes) {
    return bytes == 1 ? TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE
           : bytes == 2 ? TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT
                        : TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
  }

  // count elements of unsigned integers: as Narrow when narrow (every value fits), else as stored.
  template <class Narrow, class Wide>
  int AddUnsigned(const std::vector<Wide>& values, int type, size_t count, bool narrow, int target) {
    tinygltf::Accessor a;
    a.type = type;
    a.count = count;
    if (narrow) {
      const std::vector<Narrow> small(values.begin(), values.end());
      a.bufferView = AddView(small.data(), small.size() * sizeof(Narrow), target);
      a.componentType = UnsignedComponentType(sizeof(Narrow));
    } else {
      a.bufferView = AddView(values.data(), values.size() * sizeof(Wide), target);
      a.componentType = UnsignedComponentType(sizeof(Wide));
    }
    model_.accessors.push_back(std::move(a));
    return static_cast<int>(model_.accessors.size() - 1);
  }

  tinygltf::Model& model_;
};

bool Finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

int VertexColorMaterial(tinygltf::Model& model) {
  tinygltf::Material m;
  m.name = "animkit_vertex_color";
  m.doubleSided = true;  // source winding conventions differ; show both faces
  m.pbrMetallicRoughness.metallicFactor = 0;
  m.pbrMetallicRoughness.roughnessFactor = 1;
  model.materials.push_back(std::move(m));
  return static_cast<int>(model.materials.size() - 1);
}

// A skinned mesh's influences as glTF wants them, in sets of 4 (JOINTS_n/WEIGHTS_n, `sets`
// of them, each n * 4 long): weights >= 0, those of all sets of a vertex summing to 1, each
// joint once per vertex (repeats merged), zero weights on joint 0. A vertex of more than 4
// (MoreInfluences) has its 4 heaviest in set 0 (a reader that takes one set gets those) and
// the rest after, heaviest first; the others keep the mesh's order. A vertex without any
// weight (not a valid Mesh) goes wholly to its first joint.
void SkinInfluences(const Mesh& mesh, size_t skeleton_joints, const std::string& where,
                    std::vector<std::vector<uint16_t>>& joints, std::vector<std::vector<float>>& weights) {
  const size_t n = mesh.positions.size();
  if (mesh.joints.size() != n || mesh.weights.size() != n)
    throw Error::General(where + " has " + std::to_string(mesh.joints.size()) + " joint and " +
                         std::to_string(mesh.weights.size()) + " weight sets for " + std::to_string(n) + " vertices");
  const std::vector<VertexInfluences> more = MoreInfluences(mesh);
  size_t sets = 1;
  for (const VertexInfluences& v : more) sets = std::max(sets, (v.joints.size() + 3) / 4);
  joints.assign(sets, std::vector<uint16_t>(n * 4, 0));
  weights.assign(sets, std::vector<float>(n * 4, 0.0f));
  size_t next = 0;
  std::vector<std::pair<uint16_t, double>> all;
  for (size_t v = 0; v < n; ++v) {
    all.clear();
    const bool over = next < more.size() && more[next].vertex == v;
    if (over) {
      for (size_t k = 0; k < more[next].joints.size(); ++k) all.emplace_back(more[next].joints[k], more[next].weights[k]);
      ++next;
    } else {
      for (int k = 0; k < 4; ++k) all.emplace_back(mesh.joints[v][k], mesh.weights[v][k]);
    }
    double sum = 0;
    for (size_t k = 0; k < all.size(); ++k) {
      double& w = all[k].second;
      w = std::isfinite(w) && w > 0 ? w : 0;
      if (w > 0 && all[k].first >= skeleton_joints)
        throw Error::General(where + " vertex " + std::to_string(v) + " names joint " + std::to_string(all[k].first) +
                             "; the skeleton has " + std::to_string(skeleton_joints));
      for (size_t l = 0; l < k && w > 0; ++l)
        if (all[l].second > 0 && all[l].first == all[k].first) all[l].second += w, w = 0;
    }
    if (over)
      std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [j, w] : all) sum += w;
    if (sum <= 0) {
      if (all[0].first >= skeleton_joints) throw Error::General(where + " vertex " + std::to_string(v) + " has no weight");
      all.resize(1), all[0].second = 1, sum = 1;
    }
    for (size_t k = 0; k < all.size(); ++k) {
      weights[k / 4][v * 4 + k % 4] = float(all[k].second / sum);
      joints[k / 4][v * 4 + k % 4] = all[k].second > 0 ? all[k].first : uint16_t(0);
    }
  }
}

struct MeshContext {
  tinygltf::Model& model;
  Appender& out;
  const Scene& scene;
  const MaterialExport& materials;
  int vertex_color_material = -1;
};

// The primitive attributes every mode of a mesh shares.
tinygltf::Primitive BaseAttributes(MeshContext& c, const Mesh& mesh, const std::string& where) {
  const size_t n = mesh.positions.size();
  std::vector<float> positions;
  positions.reserve(n * 3);
  for (const Vec3& p : mesh.positions) {
    if (!Finite(p)) throw Error::General(where + " has a position that is not a finite number");
    positions.insert(positions.end(), {p.x, p.y, p.z});
  }
  tinygltf::Primitive base;
  constexpr int kArray = TINYGLTF_TARGET_ARRAY_BUFFER;
  base.attributes["POSITION"] = c.out.AddFloats(positions, TINYGLTF_TYPE_VEC3, 3, true, kArray);
  if (mesh.normals.size() == n) {
    std::vector<float> normals;
    normals.reserve(n * 3);
    for (const Vec3& v : mesh.normals) {
      const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
      // glTF normals are unit vectors: a zero or broken one becomes +Z.
      const Vec3 u = Finite(v) && length > 0 ? v * (1.0f / length) : Vec3{0, 0, 1};
      normals.insert(normals.end(), {u.x, u.y, u.z});
    }
    base.attributes["NORMAL"] = c.out.AddFloats(normals, TINYGLTF_TYPE_VEC3, 3, false, kArray);
  }
  if (mesh.uvs.size() == n) {
    std::vector<float> uvs;
    uvs.reserve(n * 2);
    for (const auto& uv : mesh.uvs)
      for (float x : uv) uvs.push_back(std::isfinite(x) ? x : 0.0f);
    base.attributes["TEXCOORD_0"] = c.out.AddFloats(uvs, TINYGLTF_TYPE_VEC2, 2, false, kArray);
  }
  if (mesh.colors.size() == n) {
    std::vector<float> colors;
    colors.reserve(n * 4);
    for (const auto& color : mesh.colors)
      for (float v : color) colors.push_back(std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f);
    base.attributes["COLOR_0"] = c.out.AddFloats(colors, TINYGLTF_TYPE_VEC4, 4, false, kArray);
  }
  if (mesh.Skinned()) {
    std::vector<std::vector<uint16_t>> joints;
    std::vector<std::vector<float>> weights;
    SkinInfluences(mesh, c.scene.skeleton.joints.size(), where, joints, weights);
    for (size_t set = 0; set < joints.size(); ++set) {
      const std::string number = std::to_string(set);
      base.attributes["JOINTS_" + number] = c.out.AddJoints(joints[set], c.scene.skeleton.joints.size() <= 256);
      base.attributes["WEIGHTS_" + number] = c.out.AddFloats(weights[set], TINYGLTF_TYPE_VEC4, 4, false, kArray);
    }
  }
  return base;
}

// The mesh's own material; the vertex colour one when it has none, or when its material is
// textured and the mesh has no UVs (glTF needs TEXCOORD_0 then): extras keep which it was.
int MaterialOf(MeshContext& c, const Mesh& mesh, nlohmann::json& extras) {
  const bool known = mesh.material >= 0 && size_t(mesh.material) < c.materials.material_of.size();
  if (known && (!c.materials.textured[size_t(mesh.material)] || mesh.uvs.size() == mesh.positions.size()))
    return c.materials.material_of[size_t(mesh.material)];
  if (known) extras["material"] = mesh.material;
  if (c.vertex_color_material < 0) c.vertex_color_material = VertexColorMaterial(c.model);
  return c.vertex_color_material;
}

void AddMeshes(MeshContext& c, int root_node) {
  tinygltf::Model& model = c.model;
  const Scene& scene = c.scene;
  const int joints = static_cast<int>(scene.skeleton.joints.size());
  for (size_t m = 0; m < scene.meshes.size(); ++m) {
    const Mesh& mesh = scene.meshes[m];
    const std::string where = "mesh '" + mesh.name + "'";
    if (mesh.positions.empty() || (mesh.triangles.size() < 3 && mesh.lines.size() < 2)) continue;
    if (mesh.Skinned() && model.skins.empty()) throw Error::General(where + " is skinned, but the scene has no skeleton");
    auto check = [&](const std::vector<uint32_t>& indices, size_t group) {
      std::vector<uint32_t> used(indices.begin(), indices.begin() + std::ptrdiff_t(indices.size() / group * group));
      for (uint32_t i : used)
        if (i >= mesh.positions.size())
          throw Error::General(where + " indexes vertex " + std::to_string(i) + " of " +
                               std::to_string(mesh.positions.size()));
      return used;
    };
    nlohmann::json extras = nlohmann::json::object();
    tinygltf::Primitive base = BaseAttributes(c, mesh, where);
    base.material = MaterialOf(c, mesh, extras);
    tinygltf::Mesh gm;
    gm.name = mesh.name;
    const std::vector<uint32_t> triangles = check(mesh.triangles, 3), lines = check(mesh.lines, 2);
    if (!triangles.empty()) {
      tinygltf::Primitive p = base;
      p.mode = TINYGLTF_MODE_TRIANGLES;
      p.indices = c.out.AddIndices(triangles, mesh.positions.size());
      gm.primitives.push_back(std::move(p));
    }
    if (!lines.empty()) {
      tinygltf::Primitive p = base;
      p.mode = TINYGLTF_MODE_LINE;
      p.indices = c.out.AddIndices(lines, mesh.positions.size());
      gm.primitives.push_back(std::move(p));
    }
    nlohmann::json metadata = ToNlohmann(mesh.metadata);
    // Every influence is in JOINTS_n/WEIGHTS_n, the one place a reader (or an editor) sees them.
    if (mesh.Skinned() && metadata.is_object()) metadata.erase(kMeshInfluencesKey);
    if (metadata.is_object() && !metadata.empty() && IsValueRepresentable(metadata)) extras["metadata"] = metadata;
    if (!extras.empty()) gm.extras = ToValue(nlohmann::json{{kExtrasKey, extras}});
    model.meshes.push_back(std::move(gm));
    const int mesh_index = static_cast<int>(model.meshes.size() - 1);
    tinygltf::Node node;
    node.name = mesh.name.empty() ? "mesh " + std::to_string(m) : mesh.name + " mesh";
    node.mesh = mesh_index;
    if (mesh.Skinned()) {
      // A skinned mesh's node is a scene root without a transform: glTF ignores both.
      node.skin = 0;
      model.nodes.push_back(std::move(node));
      model.scenes[0].nodes.push_back(static_cast<int>(model.nodes.size() - 1));
      continue;
    }
    // On the joint's node; a second mesh for the same joint (or a static one) on a child node.
    const int owner = (mesh.joint >= 0 && mesh.joint < joints) ? mesh.joint : root_node;
    if (owner != root_node && model.nodes[owner].mesh < 0) {
      model.nodes[owner].mesh = mesh_index;
    } else {
      model.nodes.push_back(std::move(node));
      model.nodes[owner].children.push_back(static_cast<int>(model.nodes.size() - 1));
    }
  }
}

const char* InterpolationName(Interpolation i) { return i == Interpolation::Step ? "STEP" : "LINEAR"; }

void AddCameras(tinygltf::Model& model, Appender& out, const Scene& scene, int root_node) {
  constexpr float kDefaultYfov = 0.8f;  // when the source's field of view has no known unit
  for (size_t c = 0; c < scene.clips.size() && c < model.animations.size(); ++c) {
    for (const CameraTrack& cam : scene.clips[c].cameras) {
      const std::string where = "camera '" + cam.name + "'";
      const size_t n = std::min({cam.times.size(), cam.positions.size(), cam.targets.size()});
      std::vector<float> times, translations, rotations, fovs, distances;
      for (size_t i = 0; i < n; ++i) {
        const float t = std::max(cam.times[i], 0.0f);
        if (!std::isfinite(t) || (!times.empty() && t <= times.back())) continue;
        if (!Finite(cam.positions[i]) || !Finite(cam.targets[i]))
          throw Error::General(where + " key " + std::to_string(i) + " is not a finite number");
        const QuatXYZW q = CameraRotation(cam.positions[i], cam.targets[i], i < cam.roll.size() ? cam.roll[i] : 0.0f);
        times.push_back(t);
        translations.insert(translations.end(), {cam.positions[i].x, cam.positions[i].y, cam.positions[i].z});
        rotations.insert(rotations.end(), {q.x, q.y, q.z, q.w});
        distances.push_back(Distance(cam.positions[i], cam.targets[i]));
        if (i < cam.yfov.size()) fovs.push_back(cam.yfov[i]);
      }
      tinygltf::Camera camera;
      camera.name = cam.name;
      camera.type = "perspective";
      const float yfov = !fovs.empty() && std::isfinite(fovs[0]) && fovs[0] > 0 && fovs[0] < 3.14f ? fovs[0] : kDefaultYfov;
      camera.perspective.yfov = yfov;
      camera.perspective.znear = 1;
      camera.perspective.zfar = 1e6;  // PS1 scenes span tens of thousands of units
      nlohmann::json extras = {{"clip", scene.clips[c].name}};
      if (fovs.size() > 1) extras["yfov"] = fovs;
      extras["target_distance"] = distances;  // the point looked at, which the rotation alone does not give
      const nlohmann::json metadata = ToNlohmann(cam.metadata);
      if (metadata.is_object() && !metadata.empty() && IsValueRepresentable(metadata)) extras["metadata"] = metadata;
      camera.extras = ToValue(nlohmann::json{{kExtrasKey, extras}});
      model.cameras.push_back(std::move(camera));

      tinygltf::Node node;
      node.name = cam.name;
      node.camera = static_cast<int>(model.cameras.size() - 1);
      if (!times.empty()) {
        node.translation = {translations[0], translations[1], translations[2]};
        node.rotation = {rotations[0], rotations[1], rotations[2], rotations[3]};
      }
      model.nodes.push_back(std::move(node));
      const int node_index = static_cast<int>(model.nodes.size() - 1);
      model.nodes[root_node].children.push_back(node_index);
      if (times.empty()) continue;

      tinygltf::Animation& animation = model.animations[c];
      const Interpolation interpolation = times.size() == 1 ? Interpolation::Step : cam.interpolation;
      const int input = out.AddFloats(times, TINYGLTF_TYPE_SCALAR, 1, true);
      auto channel = [&](const std::vector<float>& values, int type, int components, const char* path) {
        AddSampledChannel(animation, input, out.AddFloats(values, type, components, false),
                          InterpolationName(interpolation), node_index, path);
      };
      channel(translations, TINYGLTF_TYPE_VEC3, 3, "translation");
      channel(rotations, TINYGLTF_TYPE_VEC4, 4, "rotation");
    }
  }
}

}  // namespace

int AppendBufferView(tinygltf::Model& model, const void* data, size_t bytes, int target) {
  if (model.buffers.empty()) model.buffers.emplace_back();
  auto& buffer = model.buffers[0].data;
  buffer.resize((buffer.size() + 3) / 4 * 4, 0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = buffer.size();
  view.byteLength = bytes;
  view.target = target;
  buffer.resize(buffer.size() + bytes);
  if (bytes) std::memcpy(buffer.data() + view.byteOffset, data, bytes);
  model.bufferViews.push_back(std::move(view));
  return static_cast<int>(model.bufferViews.size() - 1);
}

nlohmann::json AddMeshesAndCameras(tinygltf::Model& model, const Scene& scene, int root_node) {
  bool cameras = false;
  for (const Clip& clip : scene.clips) cameras = cameras || !clip.cameras.empty();
  if (scene.meshes.empty() && !cameras && scene.materials.empty() && scene.textures.empty()) return nullptr;
  if (root_node >= static_cast<int>(model.nodes.size())) {
    // The exporter left out an empty root (no joints, no clips): meshes need one.
    tinygltf::Node root;
    root.name = std::string(kRootNodeName);
    root.rotation = UpTurn(scene);
    model.nodes.push_back(std::move(root));
    root_node = static_cast<int>(model.nodes.size() - 1);
    tinygltf::Scene gscene;
    gscene.nodes.push_back(root_node);
    model.scenes.push_back(std::move(gscene));
    model.defaultScene = 0;
  }
  Appender out(model);
  const MaterialExport materials = AddMaterialsAndTextures(model, scene);
  MeshContext context{model, out, scene, materials};
  AddMeshes(context, root_node);
  AddCameras(model, out, scene, root_node);
  return materials.missing_images;
}

}  // namespace animkit::gltf
