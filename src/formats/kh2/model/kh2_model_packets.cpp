// A mesh written as KH2 VIF packets (facts: docs/formats/kh2.md, "Writing models"): triangle
// strips (greedy; a triangle the strip cannot continue starts a new one), packets closed at
// the game's limits, weight groups with pre-multiplied positions, texture coordinates as
// V2-16 (4096 = 1.0), vertex colours only when every vertex has one.
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include <bit>
#include <cmath>
#include <map>
#include <unordered_map>

namespace animkit::kh2::detail {

namespace {

constexpr size_t kMaxPacketVertices = 256;  // strip nodes index vertices with one byte

size_t Qw(size_t words) { return (words + 3) / 4; }

// A node of a strip: the mesh vertex it draws and its flag.
struct Node {
  uint32_t vertex = 0;
  int32_t flag = kStripStock;
};

// Greedy strips over the triangles: from a triangle (a, b, c) the nodes b, c, a; then while
// an unused triangle shares the last two nodes' edge, its third corner, flagged by winding.
std::vector<std::vector<Node>> Stripify(const std::vector<uint32_t>& tris) {
  const size_t n = tris.size() / 3;
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_edge;
  auto key = [](uint32_t a, uint32_t b) { return a < b ? uint64_t(a) << 32 | b : uint64_t(b) << 32 | a; };
  for (uint32_t t = 0; t < n; ++t)
    for (int e = 0; e < 3; ++e) by_edge[key(tris[3 * t + size_t(e)], tris[3 * t + size_t((e + 1) % 3)])].push_back(t);
  std::vector<bool> used(n, false);
  std::vector<std::vector<Node>> strips;
  for (uint32_t t = 0; t < n; ++t) {
    if (used[t]) continue;
    used[t] = true;
    std::vector<Node> s{{tris[3 * t + 1], kStripStock}, {tris[3 * t + 2], kStripStock}, {tris[3 * t], kStripDraw}};
    for (;;) {
      const uint32_t p = s[s.size() - 2].vertex, q = s.back().vertex;
      const auto it = by_edge.find(key(p, q));
      bool grown = false;
      for (uint32_t u : it == by_edge.end() ? std::vector<uint32_t>{} : it->second) {
        if (used[u]) continue;
        const uint32_t* c = &tris[3 * size_t(u)];
        for (int r = 0; r < 3 && !grown; ++r) {  // the rotation with p, q in the last two corners
          const uint32_t d = c[r], x = c[(r + 1) % 3], y = c[(r + 2) % 3];
          if (d == p || d == q) continue;
          if (x == p && y == q) s.push_back({d, kStripDraw}), grown = true;          // drawn (d, p, q)
          else if (x == q && y == p) s.push_back({d, kStripInverse}), grown = true;  // drawn (d, q, p)
        }
        if (grown) {
          used[u] = true;
          break;
        }
      }
      if (!grown) break;
    }
    strips.push_back(std::move(s));
  }
  return strips;
}

// Per mesh vertex: its influences (bone, weight), all of them when the decoder kept more
// than 4 (metadata influences_over_4) and the mesh's 4 are their heaviest; its weld id
// (the first vertex with the same position and influences: one packet vertex for both).
struct VertexData {
  std::vector<std::vector<std::pair<int32_t, float>>> influences;
  std::vector<uint32_t> weld;
};

VertexData Influences(const Mesh& mesh, size_t bones) {
  VertexData d;
  const size_t n = mesh.positions.size();
  if (mesh.joints.size() != n || mesh.weights.size() != n)
    throw Error::General("mesh '" + mesh.name + "' is not skinned: a KH2 model's vertices are on bones");
  d.influences.resize(n);
  for (size_t v = 0; v < n; ++v) {
    for (size_t k = 0; k < 4; ++k)
      if (mesh.weights[v][k] > 0) d.influences[v].emplace_back(int32_t(mesh.joints[v][k]), mesh.weights[v][k]);
    if (d.influences[v].empty()) throw Error::General("mesh '" + mesh.name + "' vertex " + std::to_string(v) + " has no weight");
  }
  const auto over = mesh.metadata.find(kMeshInfluencesKey);
  if (over != mesh.metadata.end() && over->is_array())
    for (const Value& e : *over) {
      if (!e.is_object() || !e.contains("vertex") || !e.contains("joints") || !e.contains("weights")) continue;
      const Value &vertex = e["vertex"], &joints = e["joints"], &weights = e["weights"];
      if (!vertex.is_number_integer() || vertex.get<int64_t>() < 0 || uint64_t(vertex.get<int64_t>()) >= n ||
          !joints.is_array() || !weights.is_array() || joints.size() != weights.size())
        continue;  // not what the decoder writes: the mesh's 4 influences stand
      const size_t v = size_t(vertex.get<int64_t>());
      std::vector<std::pair<int32_t, float>> all;
      for (size_t k = 0; k < joints.size(); ++k)
        if (joints[k].is_number_integer() && weights[k].is_number() && weights[k].get<double>() > 0)
          all.emplace_back(int32_t(joints[k].get<int64_t>()), float(weights[k].get<double>()));
      bool heaviest = true;  // the mesh's joints are among them: the weights were not edited
      for (const auto& inf : d.influences[v]) {
        const int32_t bone = inf.first;
        heaviest = heaviest && std::any_of(all.begin(), all.end(), [bone](const auto& a) { return a.first == bone; });
      }
      if (heaviest) d.influences[v] = std::move(all);
    }
  for (const auto& inf : d.influences)
    for (const auto& [bone, w] : inf)
      if (bone < 0 || size_t(bone) >= bones)
        throw Error::General("mesh '" + mesh.name + "' names bone " + std::to_string(bone) + "; the skeleton has " +
                             std::to_string(bones));
  std::map<std::vector<uint32_t>, uint32_t> seen;
  d.weld.resize(n);
  for (size_t v = 0; v < n; ++v) {
    const Vec3& p = mesh.positions[v];
    std::vector<uint32_t> k{std::bit_cast<uint32_t>(p.x), std::bit_cast<uint32_t>(p.y), std::bit_cast<uint32_t>(p.z)};
    for (const auto& [bone, w] : d.influences[v]) k.insert(k.end(), {uint32_t(bone), std::bit_cast<uint32_t>(w)});
    d.weld[v] = seen.emplace(std::move(k), uint32_t(v)).first->second;
  }
  return d;
}

// A packet being filled: its strip nodes, vertices (weld ids), matrix slots (bones).
struct Packing {
  std::vector<Node> nodes;
  std::vector<uint32_t> vertices;
  std::unordered_map<uint32_t, uint32_t> vertex_of;  // weld id -> packet vertex
  std::vector<int32_t> bones;
  std::vector<size_t> per_count;  // vertices with 1, 2, ... influences
  size_t positions = 0;
};

// Qwords the packet's VU memory spans (header, nodes, colours, positions, tables, matrices).
size_t Footprint(const Packing& p, bool colors, bool shadow) {
  size_t q = (shadow ? 3 : 4) + p.nodes.size() * (colors ? 2 : 1) + p.positions + Qw(p.bones.size()) + 4 * p.bones.size();
  if (!shadow && p.per_count.size() > 1) {
    q += Qw(p.per_count.size());
    for (size_t a = 0; a < p.per_count.size(); ++a) q += Qw(p.per_count[a] * (a + 1));
  }
  return q;
}

struct Packer {
  const Mesh& mesh;
  const VertexData& data;
  const ModelWriteSettings& s;
  bool colors = false, shadow = false;
  Packing cur;
  std::vector<Packing> done;

  void AddVertex(Packing& p, uint32_t v) {
    const uint32_t w = data.weld[v];
    if (p.vertex_of.count(w)) return;
    p.vertex_of.emplace(w, uint32_t(p.vertices.size()));
    p.vertices.push_back(w);
    const auto& inf = data.influences[w];
    const size_t a = shadow ? 1 : inf.size();
    if (p.per_count.size() < a) p.per_count.resize(a, 0);
    ++p.per_count[a - 1];
    p.positions += a;
    for (size_t k = 0; k < (shadow ? 1 : inf.size()); ++k)
      if (std::find(p.bones.begin(), p.bones.end(), inf[k].first) == p.bones.end()) p.bones.push_back(inf[k].first);
  }
  bool Fits(const Packing& p) const {
    return p.vertices.size() <= kMaxPacketVertices && p.nodes.size() <= s.max_strip_nodes &&
           Footprint(p, colors, shadow) < s.packet_qwords;
  }
  // Adds nodes to the packet when it stays within the limits.
  bool TryAdd(const std::vector<Node>& add) {
    Packing trial = cur;  // small: at most a packet's worth
    for (const Node& n : add) AddVertex(trial, n.vertex), trial.nodes.push_back(n);
    if (!Fits(trial)) return false;
    cur = std::move(trial);
    return true;
  }
  void Run(const std::vector<std::vector<Node>>& strips) {
    for (const auto& strip : strips)
      for (size_t i = 0; i < strip.size(); ++i) {
        // A node past a strip's first two needs them in its packet: a new packet repeats them.
        std::vector<Node> add{strip[i]};
        if (TryAdd(add)) continue;
        if (cur.nodes.empty()) Fail();
        done.push_back(std::move(cur));
        cur = {};
        add.clear();  // the strip's last two nodes before this one go along (stored only)
        for (size_t k = i >= 2 ? i - 2 : 0; k < i; ++k) add.push_back({strip[k].vertex, kStripStock});
        add.push_back(strip[i]);
        if (!TryAdd(add)) Fail();
      }
    if (!cur.nodes.empty()) done.push_back(std::move(cur));
  }
  [[noreturn]] void Fail() const {
    throw Error::General("mesh '" + mesh.name + "': a triangle does not fit one VIF packet (" +
                         std::to_string(s.packet_qwords) + " VU qwords, " + std::to_string(s.max_strip_nodes) +
                         " strip nodes, 256 vertices)");
  }
};

std::vector<Packing> Pack(const Mesh& mesh, const VertexData& data, const ModelWriteSettings& s, bool shadow) {
  if (mesh.triangles.size() % 3 != 0)
    throw Error::General("mesh '" + mesh.name + "': its triangle list is not a multiple of 3 indices");
  for (uint32_t t : mesh.triangles)
    if (t >= mesh.positions.size())
      throw Error::General("mesh '" + mesh.name + "': a triangle names vertex " + std::to_string(t) + " of " +
                           std::to_string(mesh.positions.size()));
  Packer packer{mesh, data, s, !shadow && !mesh.colors.empty() && mesh.colors.size() == mesh.positions.size(), shadow, {}, {}};
  packer.Run(Stripify(mesh.triangles));
  return std::move(packer.done);
}

// VIF: STCYCL 1,1 then UNPACK code with its data, 4-byte padded.
void EmitUnpack(Bytes& out, uint32_t code, const Bytes& data) {
  le::Append32(out, 0x01000101);
  le::Append32(out, code);
  out.insert(out.end(), data.begin(), data.end());
  while (out.size() % 4) out.push_back(0);
}
constexpr uint32_t kFlg = 0x8000, kUsn = 0x4000;
uint32_t Code(uint32_t cmd, size_t num, size_t addr, uint32_t bits) {
  return cmd << 24 | uint32_t(num & 0xFF) << 16 | bits | uint32_t(addr);
}

// Local position of vertex v on bone (bind space), as stored: xyz * w, w.
std::array<float, 4> Stored(const Mesh& mesh, const std::vector<Mat4>& inverse, uint32_t v, int32_t bone, float w) {
  const Vec3 l = TransformPoint(inverse[size_t(bone)], mesh.positions[v]);
  return {l.x * w, l.y * w, l.z * w, w};
}

PacketOut ObjectPacket(const Packing& p, const Mesh& mesh, const VertexData& data, const std::vector<Mat4>& inverse, bool colors) {
  const size_t most = p.per_count.size();
  const bool single = most == 1;
  std::vector<uint32_t> order;  // packet vertices as strip nodes index them
  if (single) {  // positions (one per vertex) by slot
    for (int32_t bone : p.bones)
      for (uint32_t w : p.vertices)
        if (data.influences[w][0].first == bone) order.push_back(w);
  } else {
    for (size_t a = 1; a <= most; ++a)
      for (uint32_t w : p.vertices)
        if (data.influences[w].size() == a) order.push_back(w);
  }
  std::unordered_map<uint32_t, uint32_t> index;
  for (uint32_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  // Positions by slot; each vertex's position indices.
  std::vector<std::array<float, 4>> pos;
  std::vector<int32_t> per_slot(p.bones.size(), 0);
  std::unordered_map<uint32_t, std::vector<uint32_t>> refs;
  for (size_t slot = 0; slot < p.bones.size(); ++slot)
    for (uint32_t w : order)
      for (const auto& [bone, weight] : data.influences[w]) {
        if (bone != p.bones[slot]) continue;
        refs[w].push_back(uint32_t(pos.size()));
        pos.push_back(Stored(mesh, inverse, w, bone, single || data.influences[w].size() == 1 ? 1.f : weight));
        ++per_slot[slot];
      }
  const size_t n = p.nodes.size();
  const size_t color_at = 4 + n, pos_at = color_at + (colors ? n : 0), table_at = pos_at + pos.size();
  std::vector<uint32_t> table(per_slot.begin(), per_slot.end());
  table.resize(Qw(table.size()) * 4, 0);
  const size_t groups_at = table_at + table.size() / 4;
  if (!single) {
    table.insert(table.end(), p.per_count.begin(), p.per_count.end());
    table.resize(Qw(table.size()) * 4, 0);
    for (size_t a = 1; a <= most; ++a) {
      for (uint32_t w : order)
        if (data.influences[w].size() == a) table.insert(table.end(), refs[w].begin(), refs[w].end());
      table.resize(Qw(table.size()) * 4, 0);
    }
  }
  const size_t matrix_at = table_at + table.size() / 4;
  uint32_t header[16] = {uint32_t(kPacketObject), 0, 0, 0, uint32_t(n), 4, uint32_t(table_at), uint32_t(matrix_at),
                         colors ? uint32_t(n) : 0, colors ? uint32_t(color_at) : 0, single ? 0 : uint32_t(most),
                         single ? 0 : uint32_t(groups_at), uint32_t(pos.size()), uint32_t(pos_at),
                         single ? 0 : uint32_t(groups_at + Qw(most)), uint32_t(p.bones.size())};
  Bytes out, d;
  for (uint32_t h : header) le::Append32(d, h);
  EmitUnpack(out, Code(0x6C, 4, 0, kFlg), d);
  d.clear();
  for (const Node& node : p.nodes) {  // u, v: 16-bit signed, 4096 = 1.0
    const auto uv = mesh.uvs.empty() ? std::array<float, 2>{0, 0} : mesh.uvs[node.vertex];
    for (float c : uv) {
      const auto q = int16_t(std::clamp<long>(std::lround(double(c) * 4096), -32768, 32767));
      d.push_back(uint8_t(uint16_t(q))), d.push_back(uint8_t(uint16_t(q) >> 8));
    }
  }
  EmitUnpack(out, Code(0x65, n, 4, kFlg), d);
  d.clear();
  for (const Node& node : p.nodes) d.push_back(uint8_t(index.at(data.weld[node.vertex])));
  le::Append32(out, 0x20000000), le::Append32(out, 0xCFCFCFCF);  // STMASK: the index into z
  EmitUnpack(out, Code(0x72, n, 4, kFlg | kUsn), d);
  d.clear();
  for (const Node& node : p.nodes) d.push_back(uint8_t(node.flag));
  le::Append32(out, 0x20000000), le::Append32(out, 0x3F3F3F3F);  // STMASK: the flag into w
  EmitUnpack(out, Code(0x72, n, 4, kFlg | kUsn), d);
  if (colors) {
    d.clear();
    for (const Node& node : p.nodes)
      for (float c : mesh.colors[node.vertex]) d.push_back(uint8_t(std::lround(std::clamp(c, 0.f, 1.f) * 128)));
    EmitUnpack(out, Code(0x6E, n, color_at, kFlg | kUsn), d);
  }
  d.clear();
  if (single) {  // w = 1.0 from STCOL
    le::Append32(out, 0x31000000);
    for (int k = 0; k < 4; ++k) le::AppendF32(out, 1.f);
    le::Append32(out, 0x20000000), le::Append32(out, 0x80808080);
    for (const auto& q : pos)
      for (size_t k = 0; k < 3; ++k) le::AppendF32(d, q[k]);
    EmitUnpack(out, Code(0x78, pos.size(), pos_at, kFlg), d);
  } else {
    for (const auto& q : pos)
      for (float f : q) le::AppendF32(d, f);
    EmitUnpack(out, Code(0x6C, pos.size(), pos_at, kFlg), d);
  }
  d.clear();
  for (uint32_t t : table) le::Append32(d, t);
  EmitUnpack(out, Code(0x6C, table.size() / 4, table_at, kFlg), d);
  while (out.size() % 16) le::Append32(out, 0);
  return {std::move(out), p.bones};
}

// The shadow packet (type 2) as one V4-32 unpack of its VU image: STCYCL 1,1, UNPACK
// V4-32 runs of at most 255 qwords from 0, MSCNT. The image: a 3-qword header, strip nodes
// from qword 3 (no u, v), each position one vertex on one bone (w 1), the per-slot counts.
Bytes ShadowPacket(const std::vector<StripNode>& strip, const std::vector<std::array<float, 4>>& positions,
                   const std::vector<int32_t>& per_slot) {
  std::vector<uint32_t> words(12, 0);
  auto qword = [&] { return uint32_t(words.size() / 4); };
  words[0] = uint32_t(kPacketShadow);
  words[4] = uint32_t(strip.size()), words[5] = 3;
  for (const auto& n : strip) words.insert(words.end(), {0u, 0u, uint32_t(n.index), uint32_t(n.flag)});
  words[8] = uint32_t(positions.size()), words[9] = qword();
  for (const auto& p : positions)
    for (float f : p) words.push_back(std::bit_cast<uint32_t>(f));
  words[6] = qword(), words[11] = uint32_t(per_slot.size());
  for (int32_t n : per_slot) words.push_back(uint32_t(n));
  while (words.size() % 4) words.push_back(0);
  words[7] = qword();  // the bones' matrices go here at run time
  Bytes out;
  le::Append32(out, 0x01000101);  // STCYCL cl 1 wl 1
  for (size_t start = 0; start < qword(); start += 255) {
    const size_t n = std::min<size_t>(255, qword() - start);
    le::Append32(out, 0x6C000000u | uint32_t(n) << 16 | uint32_t(start));  // UNPACK V4-32
    for (size_t w = start * 4; w < (start + n) * 4; ++w) le::Append32(out, words[w]);
  }
  le::Append32(out, 0x17000000);  // MSCNT
  while (out.size() % 16) le::Append32(out, 0);
  return out;
}

std::vector<Mat4> Inverses(const std::vector<Mat4>& bind) {
  std::vector<Mat4> inv;
  inv.reserve(bind.size());
  for (const Mat4& m : bind) inv.push_back(InverseAffine(m));
  return inv;
}

}  // namespace

std::vector<PacketOut> BuildObjectPackets(const Mesh& mesh, const std::vector<Mat4>& bind, const ModelWriteSettings& s) {
  const VertexData data = Influences(mesh, bind.size());
  for (size_t v = 0; v < data.influences.size(); ++v)
    if (data.influences[v].size() > 63)  // the weight-group table (the reader reads 64)
      throw Error::General("mesh '" + mesh.name + "' vertex " + std::to_string(v) + " has " +
                           std::to_string(data.influences[v].size()) + " influences (at most 63)");
  const std::vector<Mat4> inverse = Inverses(bind);
  const bool colors = !mesh.colors.empty() && mesh.colors.size() == mesh.positions.size();
  std::vector<PacketOut> out;
  for (const Packing& p : Pack(mesh, data, s, false)) out.push_back(ObjectPacket(p, mesh, data, inverse, colors));
  return out;
}

std::vector<PacketOut> BuildShadowPackets(const Mesh& mesh, const std::vector<Mat4>& bind, const ModelWriteSettings& s) {
  VertexData data = Influences(mesh, bind.size());
  for (auto& inf : data.influences) {  // each vertex on its heaviest bone
    std::stable_sort(inf.begin(), inf.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    inf.resize(1);
  }
  const std::vector<Mat4> inverse = Inverses(bind);
  std::vector<PacketOut> out;
  for (const Packing& p : Pack(mesh, data, s, true)) {
    std::vector<uint32_t> order;  // one position per vertex, by slot
    for (int32_t bone : p.bones)
      for (uint32_t w : p.vertices)
        if (data.influences[w][0].first == bone) order.push_back(w);
    std::unordered_map<uint32_t, uint32_t> index;
    std::vector<std::array<float, 4>> pos;
    std::vector<int32_t> per_slot(p.bones.size(), 0);
    for (uint32_t i = 0; i < order.size(); ++i) {
      index[order[i]] = i;
      const int32_t bone = data.influences[order[i]][0].first;
      pos.push_back(Stored(mesh, inverse, order[i], bone, 1.f));
      ++per_slot[size_t(std::find(p.bones.begin(), p.bones.end(), bone) - p.bones.begin())];
    }
    std::vector<StripNode> strip;
    for (const Node& n : p.nodes) strip.push_back({0, 0, int32_t(index.at(data.weld[n.vertex])), n.flag});
    out.push_back({ShadowPacket(strip, pos, per_slot), p.bones});
  }
  return out;
}

GroupBytes LayOutGroup(const std::vector<PacketOut>& packets, size_t at) {
  GroupBytes g;
  Bytes& b = g.bytes;
  std::vector<size_t> vif_at;
  for (const PacketOut& p : packets) {
    vif_at.push_back(at + b.size());
    b.insert(b.end(), p.vif.begin(), p.vif.end());
  }
  g.dma_offset = uint32_t(at + b.size());
  for (size_t i = 0; i < packets.size(); ++i) {
    const PacketOut& p = packets[i];
    le::Append32(b, 0x30000000u | uint32_t(p.vif.size() / 16)), le::Append32(b, uint32_t(vif_at[i])), le::Append32(b, 0), le::Append32(b, 0);  // REF
    const VuMemory mem = UnpackVif(p.vif, 0);
    const uint32_t matrix_at = mem.words[7];  // header word 7, object and shadow packets alike
    for (size_t j = 0; j < p.bones.size(); ++j) {  // the game puts bone j's matrix at the address
      le::Append32(b, 0x30000004), le::Append32(b, uint32_t(p.bones[j]));
      le::Append32(b, 0x01000101), le::Append32(b, 0x6C048000u | uint32_t(matrix_at + 4 * j));
    }
    le::Append32(b, 0x10000000), le::Append32(b, 0), le::Append32(b, 0x17000000), le::Append32(b, 0);  // CNT, MSCNT
    g.records += uint32_t(p.bones.size() + 2);
  }
  g.slot_offset = uint32_t(at + b.size());
  size_t count = 0;
  for (const PacketOut& p : packets) count += p.bones.size();
  le::Append32(b, uint32_t(count + (packets.empty() ? 0 : packets.size() - 1)));
  for (size_t i = 0; i < packets.size(); ++i) {
    if (i) le::Append32(b, 0xFFFFFFFF);
    for (int32_t bone : packets[i].bones) le::Append32(b, uint32_t(bone));
  }
  while (b.size() % 16) b.push_back(0);
  return g;
}

}  // namespace animkit::kh2::detail
