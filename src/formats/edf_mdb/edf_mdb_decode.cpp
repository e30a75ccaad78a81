// MDB objects to the common model's meshes, materials and textures (docs/formats/edf_mdb.md).
#include "edf_mdb_write.hpp"
#include <animkit/io/io.hpp>
#include <animkit/offline/skinning.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace animkit::edf_mdb {
namespace {

Vec3 UnitOrUp(Vec3 n) {
  const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  return len > 0 && std::isfinite(len) ? n * (1 / len) : Vec3{0, 1, 0};
}

// The element of a semantic (case-insensitive) and channel, nullptr when absent.
const StoredElement* Find(const StoredMesh& m, std::string_view semantic, uint32_t channel = 0) {
  for (const StoredElement& e : m.layout)
    if (e.channel == channel && write::Lower(AsciiName(e.name)) == semantic) return &e;
  return nullptr;
}

// Four influences, zero-weight ones pointing at joint 0, normalised to sum 1.
void AddInfluences(Mesh& mesh, std::array<float, 4> index, std::array<float, 4> weight, size_t bones, size_t at) {
  std::array<uint16_t, 4> j{};
  float sum = 0;
  for (size_t k = 0; k < 4; ++k) {
    if (!(weight[k] > 0) || !std::isfinite(weight[k])) weight[k] = 0;
    if (weight[k] > 0 && size_t(index[k]) >= bones) {
      throw Error::AtOffset(at, "a vertex names bone " + std::to_string(int(index[k])) + ", but the model has " +
                                    std::to_string(bones));
    }
    j[k] = weight[k] > 0 ? uint16_t(index[k]) : 0;
    sum += weight[k];
  }
  if (sum > 0) {
    for (float& w : weight) w /= sum;
  } else {
    weight = {1, 0, 0, 0};  // no weight stored: held by the first bone it names
    j = {uint16_t(size_t(index[0]) < bones ? index[0] : 0), 0, 0, 0};
  }
  mesh.joints.push_back(j);
  mesh.weights.push_back(weight);
}

Mesh DecodeVertices(const File& f, const StoredMesh& m) {
  const StoredElement* position = Find(m, "position");
  if (!position) throw Error::AtOffset(m.at, "the mesh declares no position element");
  const StoredElement* normal = Find(m, "normal");
  const StoredElement* uv = Find(m, "texcoord");
  const StoredElement* color = Find(m, "color");
  const StoredElement* indices = Find(m, "blendindices");
  const StoredElement* weights = Find(m, "blendweight");
  const bool skinned = indices && weights;
  Mesh mesh;
  mesh.positions.reserve(m.vertex_count);
  for (uint32_t v = 0; v < m.vertex_count; ++v) {
    const size_t at = m.at + m.vertex_at + size_t(m.stride) * v;
    const uint8_t* p = m.vertices.data() + size_t(m.stride) * v;
    const auto pos = write::ElementValue(p + position->offset, position->type);
    mesh.positions.push_back({pos[0], pos[1], pos[2]});
    if (normal) {
      const auto n = write::ElementValue(p + normal->offset, normal->type);
      mesh.normals.push_back(UnitOrUp({n[0], n[1], n[2]}));
    }
    if (uv) {
      const auto t = write::ElementValue(p + uv->offset, uv->type);
      mesh.uvs.push_back({t[0], t[1]});  // stored with v down, as glTF's
    }
    if (color) {
      auto c = write::ElementValue(p + color->offset, color->type);
      if (ElementType(color->type) == ElementType::UByte4)
        for (float& x : c) x /= 255.0f;
      if (ElementType(color->type) == ElementType::Float3) c[3] = 1;
      mesh.colors.push_back(c);
    }
    if (skinned) {
      AddInfluences(mesh, write::ElementValue(p + indices->offset, indices->type), write::ElementValue(p + weights->offset, weights->type),
                    f.bones.size(), at + indices->offset);
    }
  }
  if (m.flags[0] != 0) {
    throw Error::AtOffset(m.at, "topology " + std::to_string(m.flags[0]) +
                                    " (triangle strips) is not decoded: no verified file has one");
  }
  if (m.index_count % 3 != 0) throw Error::AtOffset(m.at + 0x20, "an index count that is not a multiple of 3");
  mesh.triangles.resize(m.index_count);
  for (uint32_t i = 0; i < m.index_count; ++i) {
    const size_t at = m.at + m.index_at + 2 * size_t(i);
    mesh.triangles[i] = le::Load16(m.indices.data() + 2 * size_t(i));
    if (mesh.triangles[i] >= m.vertex_count) {
      throw Error::AtOffset(at, "index " + std::to_string(mesh.triangles[i]) + " past the " +
                                    std::to_string(m.vertex_count) + " vertices");
    }
  }
  return mesh;
}

// Stored vertices are bound by the bones' inverse bind matrices; the common model binds them
// to the rest pose. Where the two differ, the vertices are moved from the stored bind pose to
// the rest pose (rest_model * inverse_bind per bone); returns whether any moved.
bool BindToRest(const File& f, const std::vector<Mat4>& rest, Mesh& mesh) {
  std::vector<Mat4> bind(f.bones.size()), skin(f.bones.size());
  bool differs = false;
  for (size_t j = 0; j < f.bones.size(); ++j) {
    bind[j] = InverseAffine(MatrixFrom(f.bones[j].inverse_bind));
    for (size_t c = 0; c < 4; ++c)
      for (size_t r = 0; r < 4; ++r) differs |= std::fabs(bind[j].m[c][r] - rest[j].m[c][r]) > 1e-4f;
  }
  if (!differs) return false;
  SkinMatrices(bind, rest, skin);
  std::vector<Vec3> positions(mesh.positions.size()), normals(mesh.normals.size());
  SkinJob job{&mesh, skin, rest, positions, normals, {}};  // an MDB vertex holds 4
  if (!job.Run()) throw Error::General("the mesh could not be moved to the rest pose");
  mesh.positions = std::move(positions);
  mesh.normals = std::move(normals);
  return true;
}

Material DecodeMaterial(const File& f, const StoredMaterial& r) {
  Material m;
  m.name = NameOf(f, r.name);
  Value slots = Value::array();
  for (const StoredSlot& t : r.slots) {
    const std::string map = AsciiName(t.map);
    slots.push_back({{"map", map}, {"texture", t.texture}});
    if (m.texture < 0 && (map == "albedo" || map == "diffuse")) m.texture = int(t.texture);
  }
  Value params = Value::object();
  for (const StoredParameter& p : r.parameters) {
    Value values = Value::array();
    for (size_t i = 0; i < std::min<size_t>(p.Count(), p.values.size()); ++i) values.push_back(p.values[i]);
    params[AsciiName(p.name)] = std::move(values);
  }
  m.metadata = {{"shader", Utf8(r.shader)}, {"textures", std::move(slots)}, {"parameters", std::move(params)}};
  return m;
}

Image LoadTexture(const StoredTexture& t, const TextureReader& reader) {
  Image image;
  image.name = Utf8(t.file_name.empty() ? t.name : t.file_name);
  std::string why;
  std::optional<Bytes> bytes = reader ? reader(image.name, why) : std::nullopt;
  if (!reader) why = "no folder to look in (the model was not read from a file)";
  if (!bytes) {
    image.missing = why;
    return image;
  }
  try {
    Image decoded = DecodeDds(*bytes, image.name);
    return decoded;
  } catch (const Error& e) {
    image.missing = std::string("not decodable: ") + e.what();
    return image;
  }
}

}  // namespace

TextureReader FolderTextureReader(std::string folder) {
  return [folder = std::move(folder)](const std::string& name, std::string& why) -> std::optional<Bytes> {
    namespace fs = std::filesystem;
    if (name.empty() || name.find_first_of("/\\:") != std::string::npos || name == "." || name == "..") {
      why = "'" + name + "' is not a file name in the model's folder";
      return std::nullopt;
    }
    std::error_code ec;
    for (fs::directory_iterator it(PathOf(folder.empty() ? "." : folder), ec), end; !ec && it != end; it.increment(ec)) {
      if (write::Lower(TextOf(it->path().filename())) != write::Lower(name) || !it->is_regular_file(ec)) continue;
      try {
        return ReadFileBytes(TextOf(it->path()));
      } catch (const Error& e) {
        why = e.what();
        return std::nullopt;
      }
    }
    why = "not found beside the model";
    return std::nullopt;
  };
}

void DecodeModel(const File& f, const Model& model, const TextureReader& reader, Scene& scene,
                 std::vector<std::string>& damaged) {
  const std::vector<Mat4> rest = BindMatrices(scene.skeleton);
  for (const StoredObject& o : model.objects) {
    const std::string object = NameOf(f, o.name);
    const int bone = scene.skeleton.Find(object);
    for (size_t k = 0; k < o.meshes.size(); ++k) {
      const StoredMesh& m = o.meshes[k];
      try {
        Mesh mesh = DecodeVertices(f, m);
        mesh.name = o.meshes.size() == 1 ? object : object + "." + std::to_string(k);
        mesh.material = m.material >= 0 && size_t(m.material) < model.materials.size() ? m.material : -1;
        bool moved = false;
        if (mesh.Skinned()) {
          moved = BindToRest(f, rest, mesh);
        } else if (bone >= 0) {  // rigid: into the bone's own space
          mesh.joint = bone;
          const Mat4 to_bone = InverseAffine(rest[size_t(bone)]);
          for (Vec3& p : mesh.positions) p = TransformPoint(to_bone, p);
          const Vec3 origin = TransformPoint(to_bone, {0, 0, 0});
          for (Vec3& n : mesh.normals) n = UnitOrUp(TransformPoint(to_bone, n) - origin);
        }
        mesh.metadata = {{"object", object}, {"object_index", o.index}, {"mesh_index", m.mesh_index},
                         {"material_index", m.material}, {"layout", write::LayoutValue(m)}, {"moved_to_rest", moved}};
        scene.meshes.push_back(std::move(mesh));
      } catch (const Error& e) {
        damaged.push_back("object '" + object + "' mesh " + std::to_string(k) + ": " + e.what());
      }
    }
  }
  for (const StoredMaterial& r : model.materials) scene.materials.push_back(DecodeMaterial(f, r));
  for (const StoredTexture& t : model.textures) scene.textures.push_back(LoadTexture(t, reader));
}

}  // namespace animkit::edf_mdb
