// CMDL surfaces: the header, the extra data and the GX display list, parsed to primitives
// whose vertex layout the surface's material gives, and written back from them.
#include "metroid_cmdl_fields.hpp"
#include "metroid_cmdl_internal.hpp"

#include <string>

namespace animkit::metroid_model {
namespace {

bool KnownKind(uint8_t kind) {
  return kind == kQuads || kind == kTriangles || kind == kStrip || kind == kFan || kind == kLines ||
         kind == kLineStrip || kind == kPoints;
}

std::vector<Primitive> ParsePrimitives(ByteReader r, const VertexLayout& layout, Bytes& tail) {
  std::vector<Primitive> out;
  while (r.remaining() > 0 && r.data()[r.tell()] != 0) {
    const size_t at = r.tell();
    Primitive p;
    fields::ReadAll(r, p, kPrimitiveHead);
    if (!KnownKind(p.opcode & 0xF8)) {
      r.FailAt(at, "GX opcode " + Hex(p.opcode) + " is no primitive (0x80 quads, 0x90 triangles, 0x98 strip, "
                   "0xA0 fan, 0xA8 lines, 0xB0 line strip, 0xB8 points; 0 ends the list)");
    }
    r.Count(p.vertex_count, layout.stride, "primitive vertices");
    p.values.reserve(size_t{p.vertex_count} * layout.attributes.size());
    for (uint32_t v = 0; v < p.vertex_count; ++v)
      for (const VertexAttribute& a : layout.attributes)
        p.values.push_back(a.width == 1 ? r.U8("a vertex index") : r.U16("a vertex index"));
    out.push_back(std::move(p));
  }
  const ByteView rest = r.Take(r.remaining(), "the display list's end");
  tail.assign(rest.begin(), rest.end());
  return out;
}

}  // namespace

int VertexLayout::Find(Attribute kind, uint8_t set) const {
  for (size_t i = 0; i < attributes.size(); ++i)
    if (attributes[i].kind == kind && attributes[i].set == set) return static_cast<int>(i);
  return -1;
}

VertexLayout LayoutOf(uint32_t flags, size_t at) {
  VertexLayout l;
  if (flags & (1u << 24)) l.attributes.push_back({Attribute::MatrixIndex, 0, 1});
  for (uint8_t t = 0; t < 7; ++t)
    if (flags & (1u << (25 + t))) l.attributes.push_back({Attribute::TexMatrixIndex, t, 1});
  static constexpr const char* kNames[4] = {"position", "normal", "colour 0", "colour 1"};
  for (uint8_t i = 0; i < 12; ++i) {
    const uint32_t mode = (flags >> (2 * i)) & 3;
    if (mode == 0) continue;
    const std::string name = i < 4 ? kNames[i] : "UV set " + std::to_string(i - 4);
    if (mode == 1) {
      throw Error::AtOffset(at, "the vertex attribute flags " + Hex(flags) + " give " + name +
                                    " as direct data; only indexed attributes (index8, index16) are read");
    }
    const Attribute kind = i == 0 ? Attribute::Position : i == 1 ? Attribute::Normal : i == 2 ? Attribute::Color0
                           : i == 3 ? Attribute::Color1 : Attribute::Tex;
    l.attributes.push_back({kind, static_cast<uint8_t>(i < 4 ? 0 : i - 4), static_cast<uint8_t>(mode == 2 ? 1 : 2)});
  }
  for (const VertexAttribute& a : l.attributes) l.stride += a.width;
  return l;
}

const CmdlMaterial* MaterialOf(const CmdlFile& f, uint32_t index) {
  if (f.material_sets.empty() || index >= f.material_sets[0].materials.size()) return nullptr;
  return &f.material_sets[0].materials[index];
}

Surface ParseSurface(const CmdlFile& f, ByteReader r) {
  Surface s;
  s.at = r.base();
  fields::ReadAll(r, s.header, kSurfaceHeader);
  if (f.Mp2()) fields::ReadAll(r, s, kEchoesSurface);
  const ByteView extra = r.Take(s.header.extra_size, "the surface's extra data");
  s.extra.assign(extra.begin(), extra.end());
  const size_t list_at = (r.tell() + 31) & ~size_t{31};
  const ByteView pad = r.Take(list_at - r.tell(), "the padding before the display list");
  s.header_padding.assign(pad.begin(), pad.end());
  const CmdlMaterial* m = MaterialOf(f, s.header.material);
  if (!m) {
    r.FailAt(0x0C, "the surface names material " + std::to_string(s.header.material) + ", but material set 0 has " +
                       std::to_string(f.material_sets.empty() ? 0 : f.material_sets[0].materials.size()));
  }
  const uint32_t size = s.header.display_list_size & kDisplayListSizeMask;
  if (size > r.remaining()) {
    r.FailAt(0x10, "the display list of " + Hex(size) + " bytes runs past the end of its surface section (" +
                       Hex(r.remaining()) + " bytes after " + Hex(r.absolute(r.tell())) + ")");
  }
  s.list_at = r.absolute(r.tell());
  s.primitives = ParsePrimitives(r.Sub(r.tell(), size, "the display list"), LayoutOf(m->vertex_attributes, s.at + 0x0C),
                                 s.list_tail);
  r.Skip(size, "the display list");
  const ByteView rest = r.Take(r.remaining(), "the surface padding");
  s.trailing.assign(rest.begin(), rest.end());
  return s;
}

void WriteSurface(ByteWriter& w, const CmdlFile& f, const Surface& s) {
  fields::WriteAll(w, s.header, kSurfaceHeader);
  if (f.Mp2()) fields::WriteAll(w, s, kEchoesSurface);
  w.Append(s.extra);
  w.Append(s.header_padding);
  const CmdlMaterial* m = MaterialOf(f, s.header.material);
  if (!m) throw Error::General("a surface names material " + std::to_string(s.header.material) + ", which set 0 lacks");
  const VertexLayout layout = LayoutOf(m->vertex_attributes, s.at + 0x0C);
  for (const Primitive& p : s.primitives) {
    fields::WriteAll(w, p, kPrimitiveHead);
    if (p.values.size() != size_t{p.vertex_count} * layout.attributes.size())
      throw Error::General("a primitive holds " + std::to_string(p.values.size()) + " values, its layout needs " +
                           std::to_string(size_t{p.vertex_count} * layout.attributes.size()));
    for (size_t i = 0; i < p.values.size(); ++i) {
      if (layout.attributes[i % layout.attributes.size()].width == 1) w.U8(static_cast<uint8_t>(p.values[i]));
      else w.U16(p.values[i]);
    }
  }
  w.Append(s.list_tail);
  w.Append(s.trailing);
}

size_t LayOutSurface(const CmdlFile& f, Surface& s) {
  s.header.extra_size = static_cast<uint32_t>(s.extra.size());
  const size_t head = fields::Size(kSurfaceHeader) + (f.Mp2() ? fields::Size(kEchoesSurface) : 0) + s.extra.size();
  s.header_padding.assign(((head + 31) & ~size_t{31}) - head, 0);
  Surface bare = s;
  bare.list_tail = {0};
  bare.trailing.clear();
  ByteWriter w(Endian::Big);
  WriteSurface(w, f, bare);
  const size_t list = w.size() - head - s.header_padding.size();
  s.list_tail.assign(1 + ((32 - w.size() % 32) % 32), 0);
  s.trailing.clear();
  const size_t list_size = list - 1 + s.list_tail.size();
  s.header.display_list_size = (s.header.display_list_size & ~kDisplayListSizeMask) | static_cast<uint32_t>(list_size);
  return head + s.header_padding.size() + list_size;
}

void Triangulate(const Primitive& p, std::vector<uint32_t>& tris, std::vector<uint32_t>& lines) {
  const uint32_t n = p.vertex_count;
  auto tri = [&](uint32_t a, uint32_t b, uint32_t c) { tris.insert(tris.end(), {a, b, c}); };
  switch (p.opcode & 0xF8) {
    case kTriangles:
      for (uint32_t i = 0; i + 2 < n; i += 3) tri(i, i + 1, i + 2);
      break;
    case kQuads:
      for (uint32_t i = 0; i + 3 < n; i += 4) tri(i, i + 1, i + 2), tri(i, i + 2, i + 3);
      break;
    case kStrip:
      for (uint32_t i = 0; i + 2 < n; ++i) {
        if (i % 2 == 0) tri(i, i + 1, i + 2);
        else tri(i + 1, i, i + 2);
      }
      break;
    case kFan:
      for (uint32_t i = 1; i + 1 < n; ++i) tri(0, i, i + 1);
      break;
    case kLines:
      for (uint32_t i = 0; i + 1 < n; i += 2) lines.insert(lines.end(), {i, i + 1});
      break;
    case kLineStrip:
      for (uint32_t i = 0; i + 1 < n; ++i) lines.insert(lines.end(), {i, i + 1});
      break;
    default:
      break;  // points: no faces or lines
  }
}

}  // namespace animkit::metroid_model
