// KH2 model entry meshes: the "next model" chain, each model's groups (DMA chains), the
// DMA tags of each group's packets and their matrix (bone) slots, and the skinned Mesh
// each group decodes to (docs/formats/kh2.md, "Meshes"; facts from OpenKH's Mdlx.Model.cs
// and Kkdf2MdlxParser.cs).
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_vif.hpp"

#include <animkit/offline/skinning.hpp>

#include <cmath>
#include <map>
#include <tuple>

namespace animkit::kh2 {

using detail::GroupHeader;
using detail::StripNode;
using detail::VertexBatch;

namespace {

constexpr size_t kModelHeaderSize = fields::Size(detail::kModelHeader);
constexpr size_t kMaxModels = 64;
constexpr int32_t kModelShadow = 4;                     // model header type: 3 object, 4 shadow

std::string Decimal(uint64_t v) { return std::to_string(v); }

// One DMA packet of a group: its VIF bytes and its matrix slots' bones.
struct GroupPacket {
  ByteView vif;
  uint64_t at = 0;  // absolute offset of the VIF bytes
  std::vector<int32_t> bones;
};

// Shared state of one model's decode.
struct MeshBuild {
  const std::vector<Mat4>* bind = nullptr;
  ModelMeshes* out = nullptr;
};

// The group's packets: the slot table (count, then bone indices, -1 ending each packet's
// list) and the DMA tags from dma_offset (per packet: the VIF tag, one tag per slot, a closing tag).
std::vector<GroupPacket> GroupPackets(ByteReader& model, const GroupHeader& g) {
  ByteReader slots = model.Table(g.slot_table_offset, 1, 4, 0, "a group's matrix slot table");
  const uint32_t count = slots.U32("the matrix slot count");
  ByteReader list = model.Table(int64_t(g.slot_table_offset) + 4, count, 4, 0, "a group's matrix slots");
  std::vector<std::vector<int32_t>> per_packet(1);
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t v = list.I32("a matrix slot");
    if (v == -1) per_packet.emplace_back();
    else per_packet.back().push_back(v);
  }
  std::vector<GroupPacket> packets;
  size_t tag = g.dma_offset;
  for (auto& bones : per_packet) {
    ByteReader t = model.Table(int64_t(tag), 1, 16, 0, "a group's DMA tag");
    const uint64_t dma = uint64_t(t.U32("DMA tag")) | uint64_t(t.U32("DMA tag address")) << 32;
    const size_t qwc = dma & 0xFFFF;
    const size_t address = size_t(dma >> 32) & 0x7FFFFFFF;
    ByteReader vif = model.Table(int64_t(address), qwc, 16, 0, "a group's VIF packet (DMA tag at " + Hex(model.absolute(tag)) + ")");
    packets.push_back({vif.data().first(qwc * 16), vif.base(), std::move(bones)});
    tag += 16 * (packets.back().bones.size() + 2);
  }
  return packets;
}

// The four heaviest influences, renormalised; returns the weight of those dropped (of
// the vertex's total), 0 when it had at most 4.
double KeepFour(std::vector<std::pair<float, uint16_t>>& w, std::array<uint16_t, 4>& joints, std::array<float, 4>& weights) {
  std::stable_sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  double dropped = 0, total = 0;
  for (size_t k = 0; k < w.size(); ++k) (k < 4 ? total : dropped) += double(w[k].first);
  total += dropped;
  dropped = w.size() > 4 && total > 0 ? dropped / total : 0;
  if (w.size() > 4) w.resize(4);
  float sum = 0;
  for (const auto& p : w) sum += p.first;
  joints = {0, 0, 0, 0}, weights = {0, 0, 0, 0};
  for (size_t k = 0; k < w.size(); ++k) {
    joints[k] = w[k].second;
    weights[k] = sum > 0 ? w[k].first / sum : (k == 0 ? 1.f : 0.f);
  }
  return dropped;
}

// The influences of the vertex just added (the game blends them all; joints/weights keep 4),
// in the mesh's metadata: influences_over_4 [{vertex, joints, weights (summing to 1)}].
void KeepAllInfluences(Mesh& mesh, const std::vector<std::pair<float, uint16_t>>& all) {
  float total = 0;
  for (const auto& [weight, joint] : all) total += weight;
  Value joints = Value::array(), weights = Value::array();
  for (const auto& [weight, joint] : all) {
    joints.push_back(Value(int64_t(joint)));
    weights.push_back(Value(double(total > 0 ? weight / total : 0)));
  }
  if (!mesh.metadata.contains(kMeshInfluencesKey)) mesh.metadata[kMeshInfluencesKey] = Value::array();
  mesh.metadata[kMeshInfluencesKey].push_back(
      Value{{"vertex", int64_t(mesh.positions.size() - 1)}, {"joints", joints}, {"weights", weights}});
}

// M * (p, w): the matrix's linear part on p plus w times its translation.
Vec3 Weighted(const Mat4& m, const std::array<float, 4>& p) {
  const Vec3 t = TransformPoint(m, {0, 0, 0});
  return TransformPoint(m, {p[0], p[1], p[2]}) - t + t * p[3];
}

// Adds one packet's vertices and triangles to mesh.
void AddPacket(const VertexBatch& b, const GroupPacket& packet, MeshBuild& build, Mesh& mesh) {
  const std::vector<Mat4>& bind = *build.bind;
  if (b.per_matrix.size() > packet.bones.size())
    throw Error::AtOffset(packet.at, "the packet uses " + Decimal(b.per_matrix.size()) + " matrix slots; its DMA list gives " +
                                         Decimal(packet.bones.size()) + " bones");
  for (int32_t bone : packet.bones)
    if (bone < 0 || size_t(bone) >= bind.size())
      throw Error::AtOffset(packet.at, "the packet's matrix slot names bone " + std::to_string(bone) + "; the skeleton has " +
                                           Decimal(bind.size()));
  // Model-space position, joints and weights of each vertex the strip can index.
  std::vector<Vec3> pos(b.vertices.size());
  std::vector<std::array<uint16_t, 4>> joints(b.vertices.size());
  std::vector<std::array<float, 4>> weights(b.vertices.size());
  std::vector<std::vector<std::pair<float, uint16_t>>> over_four(b.vertices.size());  // every influence, when over 4
  for (size_t v = 0; v < b.vertices.size(); ++v) {
    const auto& refs = b.vertices[v];
    std::vector<std::pair<float, uint16_t>> w;
    Vec3 sum{0, 0, 0};
    for (const auto& [slot, at] : refs) {
      std::array<float, 4> p = b.positions[at];
      if (refs.size() == 1) p[3] = 1;  // a single bone's vertex: w is not a weight
      sum = sum + Weighted(bind[size_t(packet.bones[slot])], p);
      w.emplace_back(p[3], uint16_t(packet.bones[slot]));
    }
    for (const auto& [slot, at] : refs) {  // how far each bone's own position is from the blend
      const std::array<float, 4>& p = b.positions[at];
      if (refs.size() < 2 || !(std::fabs(p[3]) > 1e-6f)) continue;
      const Vec3 own = TransformPoint(bind[size_t(packet.bones[slot])], {p[0] / p[3], p[1] / p[3], p[2] / p[3]});
      const Vec3 d = own - sum;
      build.out->max_bone_disagreement =
          std::max(build.out->max_bone_disagreement, std::sqrt(double(d.x * d.x + d.y * d.y + d.z * d.z)));
    }
    pos[v] = sum;
    const size_t influences = w.size();
    if (influences > 4) over_four[v] = w;
    const double dropped = KeepFour(w, joints[v], weights[v]);
    if (influences > 4) {
      ++build.out->dropped_influences;
      build.out->max_dropped_weight = std::max(build.out->max_dropped_weight, dropped);
    }
  }
  // One mesh vertex per distinct (vertex, u, v, colour) the strip draws.
  std::map<std::tuple<int32_t, int32_t, int32_t, std::array<int32_t, 4>>, uint32_t> made;
  std::vector<uint32_t> node_vertex(b.strip.size());
  const bool textured = b.type != detail::kPacketShadow;  // a shadow packet's nodes carry no u, v
  for (size_t i = 0; i < b.strip.size(); ++i) {
    StripNode n = b.strip[i];
    if (!textured) n.u = n.v = 0;
    if (n.index < 0 || size_t(n.index) >= b.vertices.size())
      throw Error::AtOffset(packet.at, "strip node " + Decimal(i) + " draws vertex " + std::to_string(n.index) +
                                           "; the packet has " + Decimal(b.vertices.size()));
    const std::array<int32_t, 4> c = b.colors.empty() ? std::array<int32_t, 4>{0x80, 0x80, 0x80, 0x80} : b.colors[i];
    const auto key = std::make_tuple(n.index, n.u, n.v, c);
    auto [it, fresh] = made.emplace(key, uint32_t(mesh.positions.size()));
    node_vertex[i] = it->second;
    if (!fresh) continue;
    const size_t v = size_t(n.index);
    mesh.positions.push_back(pos[v]);
    mesh.joints.push_back(joints[v]);
    mesh.weights.push_back(weights[v]);
    if (!over_four[v].empty()) KeepAllInfluences(mesh, over_four[v]);
    // 16-bit texture coordinates, 4096 = 1.0, v from the image's top row.
    if (textured) mesh.uvs.push_back({float(int16_t(n.u & 0xFFFF)) / 4096.f, float(int16_t(n.v & 0xFFFF)) / 4096.f});
    if (!b.colors.empty()) {
      std::array<float, 4> rgba{};  // PS2 vertex colour: 0x80 is 1.0 (brighter values clamp)
      for (size_t k = 0; k < 4; ++k) rgba[k] = std::min(1.f, float(std::max(c[k], 0)) / 128.f);
      mesh.colors.push_back(rgba);
    }
  }
  for (uint32_t node : detail::StripTriangles(b.strip)) mesh.triangles.push_back(node_vertex[node]);
}

// One group: its packets decoded into one mesh. A damaged packet throws (the group is left
// out); what a packet reads past goes to notes.
Mesh DecodeGroup(ByteReader& model, const GroupHeader& g, MeshBuild& build, const Limits& limits,
                 std::vector<std::string>& notes) {
  Mesh mesh;
  const std::vector<GroupPacket> packets = GroupPackets(model, g);
  for (const GroupPacket& p : packets) {
    const detail::VuMemory mem = detail::UnpackVif(p.vif, p.at);
    const VertexBatch b = detail::ReadVertexBatch(mem, p.at);
    notes.insert(notes.end(), b.warnings.begin(), b.warnings.end());
    AddPacket(b, p, build, mesh);
    CheckLimit(mesh.positions.size(), &Limits::max_values, limits, "the vertices of a group", Place::At(p.at));
  }
  if (!mesh.colors.empty() && mesh.colors.size() != mesh.positions.size())
    mesh.colors.clear();  // some packets had colours, some not: none rather than a mix
  if (!mesh.uvs.empty() && mesh.uvs.size() != mesh.positions.size())
    notes.push_back("the group mixes object and shadow packets; its texture coordinates are left out");
  if (mesh.uvs.size() != mesh.positions.size()) mesh.uvs.clear();  // shadow packets: no texture coordinates
  return mesh;
}

}  // namespace

ModelMeshes DecodeModelMeshes(const Model& model, const Skeleton& skeleton, uint64_t base, const Limits& limits) {
  ModelMeshes out;
  const std::vector<Mat4> bind = BindMatrices(skeleton, ScaleInheritance::PerAxis);
  MeshBuild build{&bind, &out};
  ByteView entry(model.bytes);
  size_t at = kReservedSize;
  for (size_t index = 0; index < kMaxModels; ++index) {
    if (at + kModelHeaderSize > entry.size()) {
      if (index == 0) throw Error::AtOffset(base + at, "expected a model header (0x20 bytes); the entry ends at " + Hex(base + entry.size()));
      out.warnings.push_back("offset " + Hex(base + at) + ": the next model's header lies past the entry; the chain ends");
      break;
    }
    ByteReader m(entry.subspan(at), Endian::Little, base + at);
    ModelHeader header;
    fields::ReadAll(m, header, detail::kModelHeader);
    const int32_t type = header.type;
    const uint32_t next = header.next_offset;
    std::vector<GroupHeader> groups;
    try {
      groups = fields::ReadTable<GroupHeader>(m, header.group_count, detail::kGroupHeader, "the model's group headers");
    } catch (const Error& e) {
      if (index == 0) throw;  // nothing readable
      out.warnings.push_back("model " + Decimal(index) + " left out: " + e.what());
      break;
    }
    ++out.models;
    const bool shadow = type == kModelShadow;
    if (shadow) ++out.shadow_models;
    for (uint32_t gi = 0; gi < groups.size(); ++gi) {
      const GroupHeader& g = groups[gi];
      const std::string where = "model " + Decimal(index) + (shadow ? " (shadow)" : "") + " group " + Decimal(gi);
      try {
        std::vector<std::string> notes;
        Mesh mesh = DecodeGroup(m, g, build, limits, notes);
        for (const std::string& n : notes) out.warnings.push_back(where + ": " + n);
        mesh.name = "model" + Decimal(index) + (shadow ? "_shadow" : "") + "_group" + Decimal(gi);
        mesh.material = shadow ? -1 : g.texture_index;  // a shadow group's texture index is not used
        mesh.metadata[kMeshModelKey] = index;
        mesh.metadata[kMeshModelRoleKey] = shadow ? "shadow" : "object";
        if (shadow) mesh.metadata[kMeshHiddenKey] = true;
        mesh.metadata["model_type"] = type;
        mesh.metadata["group"] = gi;
        mesh.metadata["texture_index"] = g.texture_index;
        mesh.metadata["render_flags"] = g.render_flags;
        out.meshes.push_back(std::move(mesh));
      } catch (const Error& e) {
        out.warnings.push_back(where + " left out: " + e.what());
      }
    }
    if (next == 0) break;
    if (next < kModelHeaderSize || next > entry.size() - at) {
      out.warnings.push_back("offset " + Hex(base + at + 12) + ": next model offset " + Hex(next) +
                             " points outside the entry; the chain ends");
      break;
    }
    at += next;
  }
  return out;
}

}  // namespace animkit::kh2
