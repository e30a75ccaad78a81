// A model entry written from a modder's meshes over the template's: unedited groups keep
// their bytes (DMA REF addresses relocated), edited and new ones are rebuilt as VIF packets,
// the header, skeleton data and bones stay; the shadow model is kept, rebuilt or dropped.
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include <animkit/offline/skinning.hpp>

#include <cmath>
#include <optional>

namespace animkit::kh2 {

namespace {

using detail::GroupHeader;
using detail::kGroupHeader;
using detail::kModelHeader;

constexpr size_t kHeaderSize = fields::Size(kModelHeader), kGroupHeaderSize = fields::Size(kGroupHeader);
constexpr size_t kSubmodelAlign = 0x80;  // stock files start the shadow model 0x80-aligned

size_t AlignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

// A template group: its header and the span of its data (first packet .. slot list end).
struct TemplateGroup {
  GroupHeader header;
  size_t begin = 0, end = 0;
  std::vector<size_t> packet_tags;  // offsets of the packets' REF tags (from the model header)
};

// The object model at 0x90: its header and groups, and its bytes to the entry's end.
struct TemplateModel {
  ByteView model;  // from the model header to the entry's end
  ModelHeader header;
  std::vector<TemplateGroup> groups;
};

TemplateModel ReadTemplate(const Model& templ) {
  TemplateModel t;
  if (templ.bytes.size() < kReservedSize + kHeaderSize) throw Error::General("the template's model entry has no model header");
  t.model = ByteView(templ.bytes).subspan(kReservedSize);
  ByteReader r(t.model, Endian::Little, kReservedSize);
  fields::ReadAll(r, t.header, kModelHeader);
  if (uint64_t(t.header.group_count) * kGroupHeaderSize + kHeaderSize > t.model.size())
    throw Error::General("the template's group headers run past its model entry");
  const std::vector<GroupHeader> headers =
      fields::ReadTable<GroupHeader>(r, t.header.group_count, kGroupHeader, "the template's group headers");
  for (size_t g = 0; g < headers.size(); ++g) {
    TemplateGroup tg;
    tg.header = headers[g];
    const uint32_t dma = tg.header.dma_offset, slots = tg.header.slot_table_offset;
    const uint32_t count = le::Load32At(t.model, slots);
    std::vector<size_t> per_packet(1, 0);
    for (uint32_t i = 0; i < count; ++i) {
      if (le::Load32At(t.model, slots + 4 + 4 * size_t(i)) == 0xFFFFFFFF) per_packet.push_back(0);
      else ++per_packet.back();
    }
    tg.begin = dma, tg.end = slots + 4 + 4 * size_t(count);
    size_t tag = dma;
    for (size_t bones : per_packet) {
      tg.packet_tags.push_back(tag);
      tg.begin = std::min<size_t>(tg.begin, le::Load32At(t.model, tag + 4) & 0x7FFFFFFF);
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
GroupHeader RebuiltHeader(const GroupHeader* templ, const Mesh& mesh, const detail::GroupBytes& g) {
  GroupHeader h = templ ? *templ : GroupHeader{};
  if (!templ) h.render_flags = int32_t(IntMeta(mesh, "render_flags", 0));
  // The texture: the mesh's material (decoded materials are one per texture index), else its
  // metadata's, else the template group's (0 for a new group).
  const int64_t kept = IntMeta(mesh, "texture_index", templ ? int64_t(uint32_t(templ->texture_index)) : 0);
  h.texture_index = int32_t(mesh.material >= 0 ? int64_t(mesh.material) : kept);
  h.polygon_count = int32_t(mesh.triangles.size() / 3);
  h.dma_offset = g.dma_offset, h.slot_table_offset = g.slot_offset, h.dma_length = g.records;
  return h;
}

// What goes into the output model, in order: a kept template group or a rebuilt mesh.
struct OutGroup {
  const TemplateGroup* kept = nullptr;
  const GroupHeader* templ_header = nullptr;  // rebuilt from a template group
  const Mesh* mesh = nullptr;
};

// The object model's groups appended to body (offsets from the model header); their headers set.
void WriteGroups(Bytes& body, const std::vector<OutGroup>& groups, ByteView templ_model, const std::vector<Mat4>& bind,
                 const ModelWriteSettings& s, ModelWriteReport& r) {
  for (size_t i = 0; i < groups.size(); ++i) {
    while (body.size() % 16) body.push_back(0);
    const OutGroup& g = groups[i];
    const size_t h = kHeaderSize + kGroupHeaderSize * i;
    if (g.kept) {  // its bytes, the REF addresses of its packets moved with it
      const size_t at = body.size();
      const int64_t delta = int64_t(at) - int64_t(g.kept->begin);
      body.insert(body.end(), templ_model.begin() + std::ptrdiff_t(g.kept->begin), templ_model.begin() + std::ptrdiff_t(g.kept->end));
      for (size_t tag : g.kept->packet_tags) {
        const size_t w = at + (tag - g.kept->begin) + 4;
        const uint32_t old = le::Load32At(body, w);
        le::Store32At(body, w, (old & 0x80000000u) | uint32_t(int64_t(old & 0x7FFFFFFF) + delta));
      }
      GroupHeader header = g.kept->header;
      header.dma_offset = uint32_t(int64_t(header.dma_offset) + delta);
      header.slot_table_offset = uint32_t(int64_t(header.slot_table_offset) + delta);
      fields::WriteAt(body, h, Endian::Little, header, kGroupHeader);
      ++r.kept;
      continue;
    }
    const std::vector<detail::PacketOut> packets = detail::BuildObjectPackets(*g.mesh, bind, s);
    r.packets += packets.size();
    const detail::GroupBytes gb = detail::LayOutGroup(packets, body.size());
    body.insert(body.end(), gb.bytes.begin(), gb.bytes.end());
    fields::WriteAt(body, h, Endian::Little, RebuiltHeader(g.templ_header, *g.mesh, gb), kGroupHeader);
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
  Bytes body(kHeaderSize + kGroupHeaderSize, 0);
  ModelHeader header;
  if (templ_shadow.size() >= kHeaderSize) {
    ByteReader kept(templ_shadow, Endian::Little);
    fields::ReadAll(kept, header, kModelHeader);
  } else {
    header.type = 4, header.bone_count = bones;
  }
  header.next_offset = 0, header.bone_offset = 0, header.skeleton_data_offset = 0, header.group_count = 1;
  fields::WriteAt(body, 0, Endian::Little, header, kModelHeader);
  const std::vector<detail::PacketOut> packets = detail::BuildShadowPackets(all, bind, s);
  r.packets += packets.size();
  const detail::GroupBytes gb = detail::LayOutGroup(packets, body.size());
  body.insert(body.end(), gb.bytes.begin(), gb.bytes.end());
  GroupHeader group;
  group.polygon_count = int32_t(all.triangles.size() / 3);
  group.dma_offset = gb.dma_offset, group.slot_table_offset = gb.slot_offset, group.dma_length = gb.records;
  fields::WriteAt(body, kHeaderSize, Endian::Little, group, kGroupHeader);
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
  const size_t group_count = t.groups.size();
  std::vector<const Mesh*> decoded_group(group_count, nullptr);
  for (const Mesh& m : decoded.meshes)
    if (!IsShadowMesh(m))
      if (const auto g = GroupOf(m); g && *g < decoded_group.size()) decoded_group[*g] = &m;
  std::vector<const Mesh*> named(group_count, nullptr), added, object;
  for (const Mesh& m : meshes) {
    if (IsShadowMesh(m)) continue;
    object.push_back(&m);
    const auto g = GroupOf(m);
    if (g && *g < named.size() && !named[*g]) named[*g] = &m;
    else added.push_back(&m);
  }
  std::vector<OutGroup> out;
  bool edited = !added.empty() || s.shadow == ShadowWrite::Rebuild || (s.shadow == ShadowWrite::Drop && t.header.next_offset != 0);
  for (size_t g = 0; g < group_count; ++g) {
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
    r.kept = group_count;
    return templ.bytes;
  }
  if (out.empty()) throw Error::General("no mesh to write: a KH2 model needs at least one group");
  // Header, group headers (resized), then what lay between them and the first group's data.
  const size_t old_table = kHeaderSize + kGroupHeaderSize * group_count;
  const size_t first = t.groups.empty() ? old_table : t.groups.front().begin;
  Bytes body(kHeaderSize + kGroupHeaderSize * out.size(), 0);
  body.insert(body.end(), t.model.begin() + std::ptrdiff_t(old_table), t.model.begin() + std::ptrdiff_t(first));
  ModelHeader header = t.header;
  const int64_t shift = int64_t(kGroupHeaderSize) * (int64_t(out.size()) - int64_t(group_count));
  for (uint32_t* offset : {&header.bone_offset, &header.skeleton_data_offset})  // after the group headers
    if (*offset != 0) *offset = uint32_t(int64_t(*offset) + shift);
  header.group_count = uint32_t(out.size());
  WriteGroups(body, out, t.model, bind, s, r);
  const size_t old_end = t.groups.empty() ? first : t.groups.back().end;
  const uint32_t next = t.header.next_offset;
  if (next != 0 && s.shadow == ShadowWrite::Keep) {
    if (next > t.model.size()) throw Error::General("the template's shadow model lies past its entry");
    body.resize(AlignUp(body.size(), kSubmodelAlign), 0);
    header.next_offset = uint32_t(body.size());
    body.insert(body.end(), t.model.begin() + std::ptrdiff_t(next), t.model.end());
  } else if (s.shadow == ShadowWrite::Rebuild) {
    body.resize(AlignUp(body.size(), kSubmodelAlign), 0);
    header.next_offset = uint32_t(body.size());
    const ByteView old = next != 0 ? t.model.subspan(next) : ByteView{};
    const Bytes shadow = RebuildShadow(old, templ.bone_count, object, bind, s, r);
    body.insert(body.end(), shadow.begin(), shadow.end());
    body.resize(AlignUp(body.size(), kSubmodelAlign), 0);
  } else {
    header.next_offset = 0;
    if (next == 0 && old_end < t.model.size()) body.insert(body.end(), t.model.begin() + std::ptrdiff_t(old_end), t.model.end());
  }
  fields::WriteAt(body, 0, Endian::Little, header, kModelHeader);
  Bytes entry(templ.bytes.begin(), templ.bytes.begin() + kReservedSize);
  entry.insert(entry.end(), body.begin(), body.end());
  return entry;
}

Bytes detail::NewShadowModel(uint16_t bones, const std::vector<const Mesh*>& meshes, const std::vector<Mat4>& bind,
                             const ModelWriteSettings& s, ModelWriteReport& r) {
  return RebuildShadow({}, bones, meshes, bind, s, r);
}

}  // namespace animkit::kh2
