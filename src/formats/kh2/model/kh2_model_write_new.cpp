// A model entry without a template (the bones given, every group built, a shadow model of
// the shadow meshes), and the test that tells an edited group from an unedited one.
#include "formats/common/influences.hpp"
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include <animkit/offline/skinning.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace animkit::kh2 {

namespace {

using detail::kGroupHeader;
using detail::kModelHeader;
using detail::kSkeletonData;

bool Near(float a, float b, float tolerance) { return std::fabs(a - b) <= tolerance; }

// Every influence of the vertices that have more than 4 (as skinning reads them), by vertex.
std::map<size_t, BlendedInfluences> InfluencesOverFour(const Mesh& m) {
  std::map<size_t, BlendedInfluences> out;
  for (const VertexInfluences& e : MoreInfluences(m)) {
    BlendedInfluences all;
    for (size_t k = 0; k < e.joints.size(); ++k) all.emplace_back(e.joints[k], e.weights[k]);
    out[e.vertex] = Blended(std::move(all));
  }
  return out;
}

}  // namespace

bool SameGroupMesh(const Mesh& m, const Mesh& d) {
  const size_t n = d.positions.size();
  if (m.positions.size() != n || m.triangles != d.triangles || m.uvs.size() != d.uvs.size() ||
      m.colors.size() != d.colors.size() || m.joints.size() != d.joints.size() || m.weights.size() != d.weights.size())
    return false;
  for (size_t v = 0; v < n; ++v) {
    const Vec3 a = m.positions[v], b = d.positions[v];
    const float tol = 1e-4f * std::max({1.f, std::fabs(b.x), std::fabs(b.y), std::fabs(b.z)});
    if (!Near(a.x, b.x, tol) || !Near(a.y, b.y, tol) || !Near(a.z, b.z, tol)) return false;
  }
  for (size_t v = 0; v < m.uvs.size(); ++v)
    for (size_t k = 0; k < 2; ++k)
      if (!Near(m.uvs[v][k], d.uvs[v][k], 1.f / 8192)) return false;
  for (size_t v = 0; v < m.colors.size(); ++v)
    for (size_t k = 0; k < 4; ++k)
      if (!Near(m.colors[v][k], d.colors[v][k], 1.f / 256)) return false;
  // Influences as the game blends them (a bone in two matrix slots is one influence), the
  // four a glTF reader gets and, past four, every one.
  constexpr float kWeight = 1.f / 510;
  for (size_t v = 0; v < m.weights.size(); ++v)
    if (!SameInfluences(BlendedSlots(m.joints[v], m.weights[v]), BlendedSlots(d.joints[v], d.weights[v]), kWeight))
      return false;
  const std::map<size_t, BlendedInfluences> mine = InfluencesOverFour(m), decoded = InfluencesOverFour(d);
  if (mine.size() != decoded.size()) return false;
  for (const auto& [v, all] : decoded)
    if (const auto it = mine.find(v); it == mine.end() || !SameInfluences(it->second, all, kWeight)) return false;
  return true;
}

std::vector<BoneRecord> BonesFromSkeleton(const Skeleton& skeleton) {
  std::vector<BoneRecord> bones;
  for (size_t i = 0; i < skeleton.joints.size(); ++i) {
    const Joint& j = skeleton.joints[i];
    BoneRecord b;
    b.index = int16_t(i);
    b.parent = int16_t(j.parent);
    b.sibling = -1, b.child = -1;
    for (size_t k = i + 1; k < skeleton.joints.size() && b.sibling < 0; ++k)
      if (skeleton.joints[k].parent == j.parent) b.sibling = int16_t(k);
    for (size_t k = i + 1; k < skeleton.joints.size() && b.child < 0; ++k)
      if (skeleton.joints[k].parent == int(i)) b.child = int16_t(k);
    const Vec3 e = EulerFromQuat(j.rest.rotation, EulerOrder::XYZ);
    b.scale = {j.rest.scale.x, j.rest.scale.y, j.rest.scale.z, 0};
    b.rotation = {e.x, e.y, e.z, 0};
    b.translation = {j.rest.translation.x, j.rest.translation.y, j.rest.translation.z, 0};
    bones.push_back(b);
  }
  return bones;
}

Bytes WriteNewModelEntry(const std::vector<BoneRecord>& bones, const std::vector<Mesh>& meshes, const ModelWriteSettings& s,
                         ModelWriteReport* report) {
  ModelWriteReport local;
  ModelWriteReport& r = report ? *report : local;
  if (bones.empty() || bones.size() > 0x7FFF)
    throw Error::General("a KH2 model needs 1 to 32767 bones (i16 bone indices); the skeleton has " +
                         std::to_string(bones.size()));
  Model skeleton_model;
  skeleton_model.bones = bones;
  const std::vector<Mat4> bind = BindMatrices(SkeletonFromModel(skeleton_model), ScaleInheritance::PerAxis);
  std::vector<const Mesh*> object, shadow;
  for (const Mesh& m : meshes)
    (m.metadata.is_object() && m.metadata.contains(kMeshModelRoleKey) && m.metadata[kMeshModelRoleKey] == "shadow" ? shadow : object)
        .push_back(&m);
  const size_t skeleton_at = fields::Size(kModelHeader) + fields::Size(kGroupHeader) * object.size();
  const size_t bones_at = skeleton_at + fields::Size(kSkeletonData);
  ByteWriter w(Endian::Little);
  ModelHeader header;
  header.type = 3;  // object model, subtype 0 (character)
  header.bone_count = uint16_t(bones.size());
  header.bone_offset = uint32_t(bones_at), header.skeleton_data_offset = uint32_t(skeleton_at);
  header.group_count = uint32_t(object.size());
  fields::WriteAll(w, header, kModelHeader);
  w.Fill(fields::Size(kGroupHeader) * object.size());  // the group headers, set below
  // Bounding box, IK bias and body-part bones are not derived: zero in a new model.
  fields::WriteAll(w, detail::SkeletonData{}, kSkeletonData);
  fields::WriteTable(w, bones, detail::kBoneRecord);
  Bytes body = w.Take();
  for (size_t i = 0; i < object.size(); ++i) {
    while (body.size() % 16) body.push_back(0);
    const std::vector<detail::PacketOut> packets = detail::BuildObjectPackets(*object[i], bind, s);
    r.packets += packets.size();
    const detail::GroupBytes g = detail::LayOutGroup(packets, body.size());
    body.insert(body.end(), g.bytes.begin(), g.bytes.end());
    const Value& meta = object[i]->metadata;
    auto meta_int = [&](const char* key, int64_t otherwise) {
      return meta.is_object() && meta.contains(key) && meta[key].is_number_integer() ? meta[key].get<int64_t>() : otherwise;
    };
    detail::GroupHeader group;
    group.render_flags = int32_t(meta_int("render_flags", 0));
    group.texture_index = int32_t(object[i]->material >= 0 ? int64_t(object[i]->material) : meta_int("texture_index", 0));
    group.polygon_count = int32_t(object[i]->triangles.size() / 3);
    group.dma_offset = g.dma_offset, group.slot_table_offset = g.slot_offset, group.dma_length = g.records;
    fields::WriteAt(body, fields::Size(kModelHeader) + fields::Size(kGroupHeader) * i, Endian::Little, group, kGroupHeader);
    ++r.added;
  }
  while (body.size() % 16) body.push_back(0);
  const std::vector<const Mesh*>& shadow_of = s.shadow == ShadowWrite::Rebuild ? object : shadow;
  if (s.shadow != ShadowWrite::Drop && !shadow_of.empty()) {  // after the object model, 0x80-aligned as stock files
    body.resize((body.size() + 0x7F) / 0x80 * 0x80, 0);
    header.next_offset = uint32_t(body.size());
    fields::WriteAt(body, 0, Endian::Little, header, kModelHeader);
    const Bytes model = detail::NewShadowModel(uint16_t(bones.size()), shadow_of, bind, s, r);
    body.insert(body.end(), model.begin(), model.end());
    body.resize((body.size() + 0x7F) / 0x80 * 0x80, 0);
  }
  body.insert(body.begin(), kReservedSize, uint8_t{0});
  return body;
}

}  // namespace animkit::kh2
