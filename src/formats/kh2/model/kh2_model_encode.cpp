// A model entry written from skinned meshes, for the project's samples and tests: one
// model, one group per mesh, one VIF packet per group (every table unpacked as V4-32).
// Not a modding writer: a real model's groups, flags and packet splits are not kept.
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include <animkit/offline/skinning.hpp>

#include <cmath>
#include <cstring>

namespace animkit::kh2 {

namespace {

void Put32(Bytes& b, uint32_t v) {
  for (int k = 0; k < 4; ++k) b.push_back(uint8_t(v >> (8 * k)));
}
uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// VU memory image of one group, built qword by qword, then unpacked as one V4-32 run.
struct VuImage {
  std::vector<uint32_t> words;
  size_t Qword() const { return words.size() / 4; }
  void Pad() {
    while (words.size() % 4) words.push_back(0);
  }
};

// The packet's VIF codes: STCYCL 1,1; UNPACK V4-32 of the whole image at 0; MSCNT.
Bytes VifPacket(const VuImage& img) {
  Bytes p;
  Put32(p, 0x01000101);  // STCYCL cl 1 wl 1
  const size_t qwords = img.Qword();
  for (size_t start = 0; start < qwords; start += 255) {
    const size_t n = std::min<size_t>(255, qwords - start);
    Put32(p, 0x6C000000u | uint32_t(n) << 16 | uint32_t(start));  // UNPACK V4-32
    for (size_t w = start * 4; w < (start + n) * 4; ++w) Put32(p, img.words[w]);
  }
  Put32(p, 0x17000000);  // MSCNT
  while (p.size() % 16) Put32(p, 0);
  return p;
}

struct GroupPacketOut {
  Bytes vif;
  std::vector<int32_t> bones;
};

// A shadow model's mesh (metadata model_role "shadow").
bool IsShadow(const Mesh& mesh) {
  return mesh.metadata.contains(kMeshModelRoleKey) && mesh.metadata[kMeshModelRoleKey].is_string() &&
         mesh.metadata[kMeshModelRoleKey].get<std::string>() == "shadow";
}

// A shadow packet (type 2): 3-qword header, strip nodes from qword 3 (no u, v), each
// position one vertex on one bone (w 1), the per-slot counts; no colours or weights.
Bytes ShadowPacket(const std::vector<detail::StripNode>& strip, const std::vector<std::array<float, 4>>& positions,
                   const std::vector<int32_t>& per_slot) {
  VuImage img;
  img.words.resize(12, 0);
  img.words[0] = uint32_t(detail::kPacketShadow);
  img.words[4] = uint32_t(strip.size()), img.words[5] = 3;
  for (const auto& n : strip) img.words.insert(img.words.end(), {0u, 0u, uint32_t(n.index), uint32_t(n.flag)});
  img.words[8] = uint32_t(positions.size()), img.words[9] = uint32_t(img.Qword());
  for (const auto& p : positions)
    for (float f : p) img.words.push_back(Bits(f));
  img.words[6] = uint32_t(img.Qword()), img.words[11] = uint32_t(per_slot.size());
  for (int32_t n : per_slot) img.words.push_back(uint32_t(n));
  img.Pad();
  img.words[7] = uint32_t(img.Qword());
  return VifPacket(img);
}

GroupPacketOut EncodeGroup(const Mesh& mesh, const std::vector<Mat4>& bind) {
  if (!mesh.Skinned() || mesh.joints.size() != mesh.positions.size())
    throw Error::General("EncodeModelEntry: mesh '" + mesh.name + "' is not skinned");
  // Influences of each vertex (weight > 0), its matrix slots by first use.
  std::vector<int32_t> slot_bone;
  std::vector<std::vector<std::pair<size_t, float>>> influences(mesh.positions.size());
  for (size_t v = 0; v < mesh.positions.size(); ++v)
    for (size_t k = 0; k < 4; ++k) {
      if (mesh.weights[v][k] <= 0) continue;
      const int32_t bone = mesh.joints[v][k];
      if (size_t(bone) >= bind.size()) throw Error::General("EncodeModelEntry: a vertex names a bone past the skeleton");
      auto it = std::find(slot_bone.begin(), slot_bone.end(), bone);
      if (it == slot_bone.end()) it = slot_bone.insert(slot_bone.end(), bone);
      influences[v].emplace_back(size_t(it - slot_bone.begin()), mesh.weights[v][k]);
    }
  // Positions grouped by slot; each vertex's influences are position indices.
  std::vector<std::array<float, 4>> positions;
  std::vector<int32_t> per_slot(slot_bone.size(), 0);
  std::vector<std::vector<uint32_t>> refs(mesh.positions.size());
  for (size_t s = 0; s < slot_bone.size(); ++s)
    for (size_t v = 0; v < mesh.positions.size(); ++v)
      for (const auto& [slot, w] : influences[v]) {
        if (slot != s) continue;
        const Vec3 local = TransformPoint(InverseAffine(bind[size_t(slot_bone[s])]), mesh.positions[v]);
        const bool single = influences[v].size() == 1;
        const float weight = single ? 1.f : w;
        refs[v].push_back(uint32_t(positions.size()));
        positions.push_back({local.x * weight, local.y * weight, local.z * weight, weight});
        ++per_slot[s];
      }
  // Vertices by influence count: the order strip nodes index them.
  size_t most = 1;
  for (const auto& r : refs) most = std::max(most, r.size());
  std::vector<size_t> order, final_index(mesh.positions.size());
  std::vector<uint32_t> group_counts(most, 0);
  for (size_t a = 1; a <= most; ++a)
    for (size_t v = 0; v < refs.size(); ++v)
      if (refs[v].size() == a) final_index[v] = order.size(), order.push_back(v), ++group_counts[a - 1];
  const bool shadow = IsShadow(mesh);
  if (shadow)  // a shadow vertex is its one position
    for (size_t v = 0; v < refs.size(); ++v) {
      if (refs[v].size() != 1) throw Error::General("EncodeModelEntry: a shadow mesh's vertex names more than one bone");
      final_index[v] = refs[v][0];
    }
  // Strip nodes: per triangle (a, b, c) the nodes b, c, a flagged stock, stock, draw.
  std::vector<detail::StripNode> strip;
  for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
    const uint32_t corner[3] = {mesh.triangles[t + 1], mesh.triangles[t + 2], mesh.triangles[t]};
    for (int c = 0; c < 3; ++c) {
      const uint32_t v = corner[c];
      const auto uv = mesh.uvs.empty() ? std::array<float, 2>{0, 0} : mesh.uvs[v];
      strip.push_back({int32_t(std::lround(uv[0] * 4096)) & 0xFFFF, int32_t(std::lround(uv[1] * 4096)) & 0xFFFF,
                       int32_t(final_index[v]), c == 2 ? detail::kStripDraw : detail::kStripStock});
    }
  }
  if (shadow) {
    if (3 + strip.size() + positions.size() + (per_slot.size() + 3) / 4 + 4 * slot_bone.size() > detail::kVuQwords)
      throw Error::General("EncodeModelEntry: mesh '" + mesh.name + "' does not fit one VU1 packet (16 KB)");
    return {ShadowPacket(strip, positions, per_slot), slot_bone};
  }
  VuImage img;
  img.words.resize(16, 0);
  img.words[0] = uint32_t(detail::kPacketObject);
  img.words[4] = uint32_t(strip.size()), img.words[5] = 4;
  for (const auto& n : strip) img.words.insert(img.words.end(), {uint32_t(n.u), uint32_t(n.v), uint32_t(n.index), uint32_t(n.flag)});
  if (!mesh.colors.empty()) {
    img.words[8] = uint32_t(strip.size()), img.words[9] = uint32_t(img.Qword());
    for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3)
      for (uint32_t v : {mesh.triangles[t + 1], mesh.triangles[t + 2], mesh.triangles[t]})
        for (float c : mesh.colors[v]) img.words.push_back(uint32_t(std::lround(std::clamp(c, 0.f, 1.f) * 128)));
  }
  img.words[12] = uint32_t(positions.size()), img.words[13] = uint32_t(img.Qword());
  for (const auto& p : positions)
    for (float f : p) img.words.push_back(Bits(f));
  img.words[6] = uint32_t(img.Qword()), img.words[15] = uint32_t(per_slot.size());
  for (int32_t n : per_slot) img.words.push_back(uint32_t(n));
  img.Pad();
  img.words[10] = uint32_t(most), img.words[11] = uint32_t(img.Qword());
  for (uint32_t n : group_counts) img.words.push_back(n);
  for (size_t a = 1; a <= most; ++a) {
    img.Pad();
    for (size_t v : order)
      if (refs[v].size() == a) img.words.insert(img.words.end(), refs[v].begin(), refs[v].end());
  }
  img.Pad();
  img.words[7] = uint32_t(img.Qword());  // the bones' matrices go here at run time
  if (img.Qword() + 4 * slot_bone.size() > detail::kVuQwords)
    throw Error::General("EncodeModelEntry: mesh '" + mesh.name + "' does not fit one VU1 packet (16 KB)");
  return {VifPacket(img), slot_bone};
}

// One model's bytes (offsets from its header): header, group headers, bones (none for a
// shadow model: it names the object model's), then per group its VIF packet, DMA tags and
// slot table, 16-aligned.
Bytes ModelBytes(int32_t type, const std::vector<BoneRecord>& bones, bool write_bones,
                 const std::vector<GroupPacketOut>& groups, const std::vector<const Mesh*>& meshes) {
  Bytes body;
  body.resize(0x20 + 0x20 * groups.size(), 0);
  const size_t bone_offset = body.size();
  if (write_bones) {
    ByteWriter bw(Endian::Little);
    for (const BoneRecord& b : bones) detail::WriteBone(bw, b);
    body.insert(body.end(), bw.bytes().begin(), bw.bytes().end());
  }
  auto at = [&](size_t pos, uint32_t v) {
    for (int k = 0; k < 4; ++k) body[pos + size_t(k)] = uint8_t(v >> (8 * k));
  };
  at(0, uint32_t(type));
  body[0x10] = uint8_t(bones.size()), body[0x11] = uint8_t(bones.size() >> 8);
  if (write_bones) at(0x14, uint32_t(bone_offset));
  at(0x1C, uint32_t(groups.size()));
  for (size_t g = 0; g < groups.size(); ++g) {
    while (body.size() % 16) body.push_back(0);
    const size_t vif_at = body.size();
    body.insert(body.end(), groups[g].vif.begin(), groups[g].vif.end());
    const size_t dma_at = body.size();
    Put32(body, uint32_t(groups[g].vif.size() / 16) | 0x30000000), Put32(body, uint32_t(vif_at));  // ref tag
    Put32(body, 0), Put32(body, 0);
    for (size_t j = 0; j < groups[g].bones.size(); ++j) {  // a matrix per slot (qwc 4, the bone as address)
      Put32(body, 4 | 0x30000000), Put32(body, uint32_t(groups[g].bones[j]));
      Put32(body, 0x01000101), Put32(body, uint32_t(4 * j));
    }
    Put32(body, 0x10000000), Put32(body, 0), Put32(body, 0x17000000), Put32(body, 0);  // end tag, MSCNT
    const size_t slots_at = body.size();
    Put32(body, uint32_t(groups[g].bones.size()));
    for (int32_t b : groups[g].bones) Put32(body, uint32_t(b));
    while (body.size() % 16) body.push_back(0);
    const size_t h = 0x20 + 0x20 * g;
    at(h + 4, uint32_t(int32_t(meshes[g]->material)));
    at(h + 0x10, uint32_t(dma_at)), at(h + 0x14, uint32_t(slots_at)), at(h + 0x18, uint32_t(body.size() - vif_at));
  }
  return body;
}

}  // namespace

Bytes EncodeModelEntry(const std::vector<BoneRecord>& bones, const std::vector<Mesh>& meshes) {
  Model skeleton_model;
  skeleton_model.bones = bones;
  const std::vector<Mat4> bind = BindMatrices(SkeletonFromModel(skeleton_model), ScaleInheritance::PerAxis);
  std::vector<GroupPacketOut> object_groups, shadow_groups;
  std::vector<const Mesh*> object_meshes, shadow_meshes;
  for (const Mesh& m : meshes) {
    (IsShadow(m) ? shadow_groups : object_groups).push_back(EncodeGroup(m, bind));
    (IsShadow(m) ? shadow_meshes : object_meshes).push_back(&m);
  }
  // The object model (type 3) at 0x90, then the shadow model (type 4) when there is one,
  // its offset from the object model's header in the object header's next field.
  Bytes body = ModelBytes(3, bones, true, object_groups, object_meshes);
  if (!shadow_groups.empty()) {
    const uint32_t next = uint32_t(body.size());
    for (int k = 0; k < 4; ++k) body[0x0C + size_t(k)] = uint8_t(next >> (8 * k));
    const Bytes shadow = ModelBytes(4, bones, false, shadow_groups, shadow_meshes);
    body.insert(body.end(), shadow.begin(), shadow.end());
  }
  body.insert(body.begin(), kReservedSize, uint8_t{0});  // the reserved bytes before the header
  return body;
}

Bytes detail::ShadowPacketBytes(const std::vector<detail::StripNode>& strip, const std::vector<std::array<float, 4>>& positions,
                                const std::vector<int32_t>& per_slot) {
  return ShadowPacket(strip, positions, per_slot);
}

}  // namespace animkit::kh2
