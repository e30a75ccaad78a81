// A model entry written from a modder's meshes over the template's: unedited groups keep
// their bytes (DMA REF addresses relocated), edited and new ones are rebuilt as VIF packets,
// the header, skeleton data and bones stay; the shadow model is kept, rebuilt or dropped.
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include <animkit/offline/skinning.hpp>

#include <cmath>
#include <optional>

namespace animkit::kh2 {

namespace {

constexpr size_t kHeader = 0x20, kGroupHeader = 0x20;
constexpr size_t kSubmodelAlign = 0x80;  // stock files start the shadow model 0x80-aligned

uint32_t Get32(ByteView b, size_t at) {
  if (at + 4 > b.size()) throw Error::AtOffset(at, "the model entry ends inside a table");
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void Set32(Bytes& b, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + size_t(k)] = uint8_t(v >> (8 * k));
}
size_t AlignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

// A template group: its header bytes and the span of its data (first packet .. slot list end).
struct TemplateGroup {
  Bytes header;  // 0x20
  size_t begin = 0, end = 0;
  std::vector<size_t> packet_tags;  // offsets of the packets' REF tags (from the model header)
};

// The object model at 0x90: its groups, the offset of its next (shadow) model, its end.
struct TemplateModel {
  ByteView model;  // from the model header to the entry's end
  uint32_t group_count = 0, next = 0;
  std::vector<TemplateGroup> groups;
};

TemplateModel ReadTemplate(const Model& templ) {
  TemplateModel t;
  if (templ.bytes.size() < kReservedSize + kHeader) throw Error::General("the template's model entry has no model header");
  t.model = ByteView(templ.bytes).subspan(kReservedSize);
  t.next = Get32(t.model, 0x0C);
  t.group_count = Get32(t.model, 0x1C);
  if (uint64_t(t.group_count) * kGroupHeader + kHeader > t.model.size())
    throw Error::General("the template's group headers run past its model entry");
  for (uint32_t g = 0; g < t.group_count; ++g) {
    const size_t h = kHeader + kGroupHeader * g;
    TemplateGroup tg;
    tg.header.assign(t.model.begin() + std::ptrdiff_t(h), t.model.begin() + std::ptrdiff_t(h + kGroupHeader));
    const uint32_t dma = Get32(t.model, h + 0x10), slots = Get32(t.model, h + 0x14);
    const uint32_t count = Get32(t.model, slots);
    std::vector<size_t> per_packet(1, 0);
    for (uint32_t i = 0; i < count; ++i) {
      if (Get32(t.model, slots + 4 + 4 * size_t(i)) == 0xFFFFFFFF) per_packet.push_back(0);
      else ++per_packet.back();
    }
    tg.begin = dma, tg.end = slots + 4 + 4 * size_t(count);
    size_t tag = dma;
    for (size_t bones : per_packet) {
      tg.packet_tags.push_back(tag);
      tg.begin = std::min<size_t>(tg.begin, Get32(t.model, tag + 4) & 0x7FFFFFFF);
      tag += 16 * (bones + 2);
    }
    if (tg.end > t.model.size() || (g > 0 && tg.begin < t.groups.back().end))
      throw Error::General("the template's group " + std::to_string(g) + " data is not laid out after the previous group's");
    t.groups.push_back(std::move(tg));
  }
  return t;
}

// The template group a mesh names: metadata model 0 + group, else the name model0_group<G>.
std::optional<size_t> GroupOf(const Mesh& mesh) {
  const Value& m = mesh.metadata;
  if (m.is_object() && m.contains("group") && m["group"].is_number_integer()) {
    const bool model0 = !m.contains(kMeshModelKey) || !m[kMeshModelKey].is_number_integer() || m[kMeshModelKey].get<int64_t>() == 0;
    const int64_t g = m["group"].get<int64_t>();
    if (model0 && g >= 0) return size_t(g);
    return std::nullopt;
  }
  const std::string prefix = "model0_group";
  if (mesh.name.rfind(prefix, 0) == 0 && mesh.name.size() > prefix.size() && mesh.name.size() - prefix.size() <= 9 &&
      mesh.name.find_first_not_of("0123456789", prefix.size()) == std::string::npos)
    return size_t(std::stoul(mesh.name.substr(prefix.size())));
  return std::nullopt;
}

bool IsShadowMesh(const Mesh& mesh) {
  const Value& m = mesh.metadata;
  if (m.is_object() && m.contains(kMeshModelRoleKey) && m[kMeshModelRoleKey].is_string())
    return m[kMeshModelRoleKey].get<std::string>() == "shadow";
  return mesh.name.find("_shadow_") != std::string::npos;
}

int64_t IntMeta(const Mesh& mesh, const char* key, int64_t otherwise) {
  const Value& m = mesh.metadata;
  return m.is_object() && m.contains(key) && m[key].is_number_integer() ? m[key].get<int64_t>() : otherwise;
}

// The group header of a rebuilt or new group (attributes and texture index kept or from the mesh).
Bytes RebuiltHeader(const Bytes* templ, const Mesh& mesh, const detail::GroupBytes& g) {
  Bytes h = templ ? *templ : Bytes(kGroupHeader, 0);
  if (!templ) Set32(h, 0x00, uint32_t(IntMeta(mesh, "render_flags", 0)));
  // The texture: the mesh's material (decoded materials are one per texture index), else its
  // metadata's, else the template group's (0 for a new group).
  const int64_t kept = IntMeta(mesh, "texture_index", templ ? int64_t(Get32(*templ, 4)) : 0);
  Set32(h, 0x04, uint32_t(mesh.material >= 0 ? int64_t(mesh.material) : kept));
  Set32(h, 0x08, uint32_t(mesh.triangles.size() / 3));
  Set32(h, 0x10, g.dma_offset), Set32(h, 0x14, g.slot_offset), Set32(h, 0x18, g.records);
  return h;
}

// What goes into the output model, in order: a kept template group or a rebuilt mesh.
struct OutGroup {
  const TemplateGroup* kept = nullptr;
  const Bytes* templ_header = nullptr;  // rebuilt from a template group
  const Mesh* mesh = nullptr;
};

// The object model's groups appended to body (offsets from the model header); their headers set.
void WriteGroups(Bytes& body, const std::vector<OutGroup>& groups, ByteView templ_model, const std::vector<Mat4>& bind,
                 const ModelWriteSettings& s, ModelWriteReport& r) {
  for (size_t i = 0; i < groups.size(); ++i) {
    while (body.size() % 16) body.push_back(0);
    const OutGroup& g = groups[i];
    const size_t h = kHeader + kGroupHeader * i;
    if (g.kept) {  // its bytes, the REF addresses of its packets moved with it
      const size_t at = body.size();
      const int64_t delta = int64_t(at) - int64_t(g.kept->begin);
      body.insert(body.end(), templ_model.begin() + std::ptrdiff_t(g.kept->begin), templ_model.begin() + std::ptrdiff_t(g.kept->end));
      for (size_t tag : g.kept->packet_tags) {
        const size_t w = at + (tag - g.kept->begin) + 4;
        const uint32_t old = Get32(body, w);
        Set32(body, w, (old & 0x80000000u) | uint32_t(int64_t(old & 0x7FFFFFFF) + delta));
      }
      std::copy(g.kept->header.begin(), g.kept->header.end(), body.begin() + std::ptrdiff_t(h));
      Set32(body, h + 0x10, uint32_t(int64_t(Get32(g.kept->header, 0x10)) + delta));
      Set32(body, h + 0x14, uint32_t(int64_t(Get32(g.kept->header, 0x14)) + delta));
      ++r.kept;
      continue;
    }
    const std::vector<detail::PacketOut> packets = detail::BuildObjectPackets(*g.mesh, bind, s);
    r.packets += packets.size();
    const detail::GroupBytes gb = detail::LayOutGroup(packets, body.size());
    body.insert(body.end(), gb.bytes.begin(), gb.bytes.end());
    const Bytes header = RebuiltHeader(g.templ_header, *g.mesh, gb);
    std::copy(header.begin(), header.end(), body.begin() + std::ptrdiff_t(h));
  }
  while (body.size() % 16) body.push_back(0);
}

// A shadow model (header kept from the template's when it has one) of the object meshes.
Bytes RebuildShadow(ByteView templ_shadow, uint16_t bones, const std::vector<const Mesh*>& meshes,
                    const std::vector<Mat4>& bind, const ModelWriteSettings& s, ModelWriteReport& r) {
  Mesh all;  // the object meshes as one: one shadow group, as stock files have
  all.name = "shadow";
  for (const Mesh* m : meshes) {
    const uint32_t base = uint32_t(all.positions.size());
    all.positions.insert(all.positions.end(), m->positions.begin(), m->positions.end());
    all.joints.insert(all.joints.end(), m->joints.begin(), m->joints.end());
    all.weights.insert(all.weights.end(), m->weights.begin(), m->weights.end());
    for (uint32_t t : m->triangles) all.triangles.push_back(base + t);
  }
  Bytes body(kHeader + kGroupHeader, 0);
  if (templ_shadow.size() >= kHeader) std::copy(templ_shadow.begin(), templ_shadow.begin() + kHeader, body.begin());
  else Set32(body, 0, 4), body[0x10] = uint8_t(bones), body[0x11] = uint8_t(bones >> 8);
  Set32(body, 0x0C, 0), Set32(body, 0x14, 0), Set32(body, 0x18, 0), Set32(body, 0x1C, 1);
  const std::vector<detail::PacketOut> packets = detail::BuildShadowPackets(all, bind, s);
  r.packets += packets.size();
  const detail::GroupBytes gb = detail::LayOutGroup(packets, body.size());
  body.insert(body.end(), gb.bytes.begin(), gb.bytes.end());
  Set32(body, kHeader + 0x08, uint32_t(all.triangles.size() / 3));
  Set32(body, kHeader + 0x10, gb.dma_offset), Set32(body, kHeader + 0x14, gb.slot_offset), Set32(body, kHeader + 0x18, gb.records);
  return body;
}

std::vector<Mat4> BindOf(const std::vector<BoneRecord>& bones) {
  Model m;
  m.bones = bones;
  return BindMatrices(SkeletonFromModel(m), ScaleInheritance::PerAxis);
}

}  // namespace

Bytes WriteModelEntry(const Model& templ, const std::vector<Mesh>& meshes, const ModelWriteSettings& s, ModelWriteReport* report) {
  ModelWriteReport local;
  ModelWriteReport& r = report ? *report : local;
  const TemplateModel t = ReadTemplate(templ);
  const std::vector<Mat4> bind = BindOf(templ.bones);
  // The template's decoded groups, to tell edited meshes from unedited ones.
  const ModelMeshes decoded = DecodeModelMeshes(templ, SkeletonFromModel(templ));
  std::vector<const Mesh*> decoded_group(t.group_count, nullptr);
  for (const Mesh& m : decoded.meshes)
    if (!IsShadowMesh(m))
      if (const auto g = GroupOf(m); g && *g < decoded_group.size()) decoded_group[*g] = &m;
  std::vector<const Mesh*> named(t.group_count, nullptr), added, object;
  for (const Mesh& m : meshes) {
    if (IsShadowMesh(m)) continue;
    object.push_back(&m);
    const auto g = GroupOf(m);
    if (g && *g < named.size() && !named[*g]) named[*g] = &m;
    else added.push_back(&m);
  }
  std::vector<OutGroup> out;
  bool edited = !added.empty() || s.shadow == ShadowWrite::Rebuild || (s.shadow == ShadowWrite::Drop && t.next != 0);
  for (size_t g = 0; g < t.group_count; ++g) {
    if (!named[g]) {
      ++r.deleted, edited = true;
      continue;
    }
    const bool same = !s.rebuild_all && decoded_group[g] && SameGroupMesh(*named[g], *decoded_group[g]);
    if (same) out.push_back({&t.groups[g], nullptr, nullptr});
    else out.push_back({nullptr, &t.groups[g].header, named[g]}), ++r.rebuilt, edited = true;
  }
  for (const Mesh* m : added) out.push_back({nullptr, nullptr, m}), ++r.added;
  if (!edited) {
    r.kept = t.group_count;
    return templ.bytes;
  }
  if (out.empty()) throw Error::General("no mesh to write: a KH2 model needs at least one group");
  // Header, group headers (resized), then what lay between them and the first group's data.
  const size_t old_table = kHeader + kGroupHeader * t.group_count;
  const size_t first = t.groups.empty() ? old_table : t.groups.front().begin;
  Bytes body(kHeader + kGroupHeader * out.size(), 0);
  std::copy(t.model.begin(), t.model.begin() + kHeader, body.begin());
  body.insert(body.end(), t.model.begin() + std::ptrdiff_t(old_table), t.model.begin() + std::ptrdiff_t(first));
  const int64_t shift = int64_t(kGroupHeader) * (int64_t(out.size()) - int64_t(t.group_count));
  for (size_t field : {size_t(0x14), size_t(0x18)})  // bone table and skeleton data offsets
    if (Get32(body, field) != 0) Set32(body, field, uint32_t(int64_t(Get32(body, field)) + shift));
  Set32(body, 0x1C, uint32_t(out.size()));
  WriteGroups(body, out, t.model, bind, s, r);
  const size_t old_end = t.groups.empty() ? first : t.groups.back().end;
  if (t.next != 0 && s.shadow == ShadowWrite::Keep) {
    if (t.next > t.model.size()) throw Error::General("the template's shadow model lies past its entry");
    body.resize(AlignUp(body.size(), kSubmodelAlign), 0);
    Set32(body, 0x0C, uint32_t(body.size()));
    body.insert(body.end(), t.model.begin() + std::ptrdiff_t(t.next), t.model.end());
  } else if (s.shadow == ShadowWrite::Rebuild) {
    body.resize(AlignUp(body.size(), kSubmodelAlign), 0);
    Set32(body, 0x0C, uint32_t(body.size()));
    const ByteView old = t.next != 0 ? t.model.subspan(t.next) : ByteView{};
    const Bytes shadow = RebuildShadow(old, templ.bone_count, object, bind, s, r);
    body.insert(body.end(), shadow.begin(), shadow.end());
    body.resize(AlignUp(body.size(), kSubmodelAlign), 0);
  } else {
    Set32(body, 0x0C, 0);
    if (t.next == 0 && old_end < t.model.size()) body.insert(body.end(), t.model.begin() + std::ptrdiff_t(old_end), t.model.end());
  }
  Bytes entry(templ.bytes.begin(), templ.bytes.begin() + kReservedSize);
  entry.insert(entry.end(), body.begin(), body.end());
  return entry;
}

Bytes detail::NewShadowModel(uint16_t bones, const std::vector<const Mesh*>& meshes, const std::vector<Mat4>& bind,
                             const ModelWriteSettings& s, ModelWriteReport& r) {
  return RebuildShadow({}, bones, meshes, bind, s, r);
}

}  // namespace animkit::kh2
