// Metroid Prime CMDL: header, sections, material sets and vertex arrays, parsed to records
// and written back from them byte for byte (surfaces: metroid_cmdl_surfaces.cpp).
#include "metroid_cmdl_fields.hpp"
#include "metroid_cmdl_internal.hpp"

#include <algorithm>
#include <string>

namespace animkit::metroid_model {
namespace {

size_t Align32(size_t n) { return (n + 31) & ~size_t{31}; }

Bytes Rest(ByteReader& r, const char* what) {
  const ByteView v = r.Take(r.remaining(), what);
  return Bytes(v.begin(), v.end());
}

std::vector<uint32_t> U32List(ByteReader& r, const std::string& what) {
  return fields::ReadCountedValues<uint32_t>(r, what);
}

void WriteU32List(ByteWriter& w, const std::vector<uint32_t>& values) { fields::WriteCountedValues(w, values); }

size_t UvParamCount(uint32_t mode, ByteReader& r, size_t at) {
  switch (mode) {
    case 0: case 1: case 6: return 0;
    case 3: case 7: return 2;
    case 2: case 4: case 5: return 4;
    case 8: return 9;
    default: r.FailAt(at, "UV animation mode " + std::to_string(mode) + " is not one of 0-8");
  }
}

CmdlMaterial ParseMaterial(ByteReader r, bool mp2) {
  CmdlMaterial m;
  fields::ReadAll(r, m, kMaterialFlags);
  m.texture_slots = U32List(r, "material texture slot");
  fields::ReadAll(r, m, kMaterialAttributes);
  if (mp2) fields::ReadAll(r, m, kEchoesMaterial);
  fields::ReadAll(r, m, kMaterialGroup);
  if (m.flags & kMaterialKonst) m.konst_colors = U32List(r, "konst colour");
  fields::ReadAll(r, m, kMaterialBlend);
  if (m.flags & kMaterialIndirect) m.indirect_slot = r.U32("the indirect texture slot");
  m.color_channels = U32List(r, "colour channel");
  const size_t stages = fields::ReadCount(r, fields::Size(kTevStage) + fields::Size(kTevTexture), "TEV stages");
  m.stages = fields::ReadTable<TevStage>(r, stages, kTevStage, "TEV stages");
  m.stage_textures = fields::ReadTable<TevTexture>(r, stages, kTevTexture, "TEV stage textures");
  m.texgens = U32List(r, "texgen");
  fields::ReadAll(r, m, kUvAnimationSize);
  m.uv_animations.resize(fields::ReadCount(r, fields::Size(kUvAnimationMode), "UV animations"));
  for (UvAnimation& a : m.uv_animations) {
    const size_t at = r.tell();
    fields::ReadAll(r, a, kUvAnimationMode);
    a.params = fields::ReadValues<float>(r, UvParamCount(a.mode, r, at), "UV animation parameters");
  }
  m.trailing = Rest(r, "material trailing bytes");
  return m;
}

void WriteMaterial(ByteWriter& w, const CmdlMaterial& m, bool mp2) {
  fields::WriteAll(w, m, kMaterialFlags);
  WriteU32List(w, m.texture_slots);
  fields::WriteAll(w, m, kMaterialAttributes);
  if (mp2) fields::WriteAll(w, m, kEchoesMaterial);
  fields::WriteAll(w, m, kMaterialGroup);
  if (m.flags & kMaterialKonst) WriteU32List(w, m.konst_colors);
  fields::WriteAll(w, m, kMaterialBlend);
  if (m.flags & kMaterialIndirect) w.U32(m.indirect_slot);
  WriteU32List(w, m.color_channels);
  if (m.stage_textures.size() != m.stages.size()) throw Error::General("a material needs one TEV texture per TEV stage");
  fields::WriteCount(w, m.stages.size());
  fields::WriteTable(w, m.stages, kTevStage);
  fields::WriteTable(w, m.stage_textures, kTevTexture);
  WriteU32List(w, m.texgens);
  fields::WriteAll(w, m, kUvAnimationSize);
  fields::WriteCount(w, m.uv_animations.size());
  for (const UvAnimation& a : m.uv_animations) {
    fields::WriteAll(w, a, kUvAnimationMode);
    fields::WriteValues(w, a.params);
  }
  w.Append(m.trailing);
}

MaterialSet ParseMaterialSet(ByteReader r, bool mp2) {
  MaterialSet s;
  s.texture_ids = U32List(r, "texture id");
  const size_t ends_at = r.tell();
  s.end_offsets = U32List(r, "material end offset");
  const size_t first = r.tell();
  uint32_t begin = 0;
  for (size_t i = 0; i < s.end_offsets.size(); ++i) {
    const uint32_t end = s.end_offsets[i];
    const size_t field = ends_at + 4 + 4 * i;
    if (end < begin || end > r.size() - first) {
      r.FailAt(field, "material " + std::to_string(i) + " ends at " + Hex(end) + ", outside [" + Hex(begin) + ", " +
                          Hex(r.size() - first) + "] of its material set");
    }
    s.materials.push_back(ParseMaterial(r.Sub(first + begin, end - begin, "material " + std::to_string(i)), mp2));
    begin = end;
  }
  r.Seek(first + begin, "the end of the last material");
  s.trailing = Rest(r, "material set padding");
  return s;
}

void WriteMaterialSet(ByteWriter& w, const MaterialSet& s, bool mp2) {
  WriteU32List(w, s.texture_ids);
  WriteU32List(w, s.end_offsets);
  for (const CmdlMaterial& m : s.materials) WriteMaterial(w, m, mp2);
  w.Append(s.trailing);
}

template <class T, size_t N>
ArraySection<std::array<T, N>> ParseArray(ByteReader r, const char* what) {
  ArraySection<std::array<T, N>> a;
  a.values.resize(r.remaining() / (sizeof(T) * N));
  for (auto& v : a.values) fields::Read(r, v, what);
  a.trailing = Rest(r, "array padding");
  return a;
}

template <class T>
void WriteArray(ByteWriter& w, const ArraySection<T>& a) {
  for (const T& v : a.values) fields::Write(w, v);
  w.Append(a.trailing);
}

ArraySection<uint32_t> ParseColors(ByteReader r) {
  ArraySection<uint32_t> a;
  a.values = fields::ReadValues<uint32_t>(r, r.remaining() / 4, "colours");
  a.trailing = Rest(r, "colour padding");
  return a;
}

// The number of sections before the surfaces: sets, 4 or 5 arrays, the surface table.
size_t FixedSections(const CmdlFile& f) { return f.header.material_set_count + 5 + (f.HasShortUvs() ? 1 : 0); }

}  // namespace

CmdlFile ParseCmdl(ByteView data) {
  ByteReader r(data, Endian::Big);
  CmdlFile f;
  fields::ReadAll(r, f.header, kCmdlHeader);
  if (f.header.magic != kCmdlMagic) r.FailAt(0, "expected the CMDL magic 0xDEADBABE, found " + Hex(f.header.magic));
  if (f.header.version < 2 || f.header.version > 4) {
    r.FailAt(4, "CMDL version " + std::to_string(f.header.version) + " is not read (2 Metroid Prime, 3-4 Echoes)");
  }
  f.section_sizes = fields::ReadValues<uint32_t>(r, f.header.section_count, "section sizes");
  const size_t data_at = Align32(r.tell());
  f.header_padding = Bytes(data.begin() + static_cast<std::ptrdiff_t>(r.tell()),
                           data.begin() + static_cast<std::ptrdiff_t>(std::min(data_at, data.size())));
  r.Skip(data_at - r.tell(), "the header padding");
  if (f.header.material_set_count == 0) r.FailAt(0x28, "a CMDL has at least one material set, this one 0");
  if (f.section_sizes.size() < FixedSections(f)) {
    r.FailAt(0x24, "the section count " + std::to_string(f.section_sizes.size()) + " is below the " +
                       std::to_string(FixedSections(f)) + " sections a model of " +
                       std::to_string(f.header.material_set_count) + " material sets has before its surfaces");
  }
  std::vector<ByteReader> sections;
  for (size_t i = 0; i < f.section_sizes.size(); ++i) {
    const size_t at = r.tell();
    if (f.section_sizes[i] > r.remaining()) {
      r.FailAt(0x2C + 4 * i, "section " + std::to_string(i) + " at " + Hex(at) + " of " + Hex(f.section_sizes[i]) +
                                 " bytes runs past the end of the file (" + Hex(data.size()) + ")");
    }
    sections.push_back(r.Sub(at, f.section_sizes[i], "section " + std::to_string(i)));
    r.Skip(f.section_sizes[i], "a section");
  }
  f.trailing = Rest(r, "bytes after the last section");
  size_t next = 0;
  for (uint32_t s = 0; s < f.header.material_set_count; ++s) f.material_sets.push_back(ParseMaterialSet(sections[next++], f.Mp2()));
  f.positions = ParseArray<float, 3>(sections[next++], "a position");
  if (f.ShortNormals()) f.short_normals = ParseArray<int16_t, 3>(sections[next++], "a short normal");
  else f.float_normals = ParseArray<float, 3>(sections[next++], "a normal");
  f.colors = ParseColors(sections[next++]);
  f.float_uvs = ParseArray<float, 2>(sections[next++], "a UV");
  if (f.HasShortUvs()) f.short_uvs = ParseArray<uint16_t, 2>(sections[next++], "a short UV");
  ByteReader table = sections[next++];
  const uint32_t count = table.U32("the surface count");
  if (count != f.section_sizes.size() - next) {
    table.FailAt(0, "the surface count " + std::to_string(count) + " differs from the " +
                        std::to_string(f.section_sizes.size() - next) + " sections after the surface table");
  }
  f.surface_ends = fields::ReadValues<uint32_t>(table, count, "surface end offsets");
  f.surface_table_trailing = Rest(table, "surface table padding");
  for (; next < sections.size(); ++next) f.surfaces.push_back(ParseSurface(f, sections[next]));
  return f;
}

namespace {

Bytes ZeroPad(size_t body) { return Bytes((32 - body % 32) % 32, 0); }

template <class T>
size_t LayOutArray(ArraySection<T>& a) {
  const size_t body = a.values.size() * fields::Width<T>();
  a.trailing = ZeroPad(body);
  return body + a.trailing.size();
}

}  // namespace

void LayOutCmdl(CmdlFile& f) {
  std::vector<uint32_t> sizes;
  for (MaterialSet& s : f.material_sets) {
    s.end_offsets.clear();
    uint32_t end = 0;
    for (const CmdlMaterial& m : s.materials) {
      ByteWriter w(Endian::Big);
      WriteMaterial(w, m, f.Mp2());
      end += static_cast<uint32_t>(w.size());
      s.end_offsets.push_back(end);
    }
    s.trailing.clear();
    ByteWriter w(Endian::Big);
    WriteMaterialSet(w, s, f.Mp2());
    s.trailing = ZeroPad(w.size());
    sizes.push_back(static_cast<uint32_t>(w.size() + s.trailing.size()));
  }
  sizes.push_back(static_cast<uint32_t>(LayOutArray(f.positions)));
  sizes.push_back(static_cast<uint32_t>(f.ShortNormals() ? LayOutArray(f.short_normals) : LayOutArray(f.float_normals)));
  sizes.push_back(static_cast<uint32_t>(LayOutArray(f.colors)));
  sizes.push_back(static_cast<uint32_t>(LayOutArray(f.float_uvs)));
  if (f.HasShortUvs()) sizes.push_back(static_cast<uint32_t>(LayOutArray(f.short_uvs)));
  std::vector<uint32_t> surfaces;
  f.surface_ends.clear();
  uint32_t end = 0;
  for (Surface& s : f.surfaces) {
    surfaces.push_back(static_cast<uint32_t>(LayOutSurface(f, s)));
    end += surfaces.back();
    f.surface_ends.push_back(end);
  }
  const size_t table = 4 + 4 * f.surfaces.size();
  f.surface_table_trailing = ZeroPad(table);
  sizes.push_back(static_cast<uint32_t>(table + f.surface_table_trailing.size()));
  sizes.insert(sizes.end(), surfaces.begin(), surfaces.end());
  f.section_sizes = sizes;
  f.header.section_count = static_cast<uint32_t>(sizes.size());
  f.header.material_set_count = static_cast<uint32_t>(f.material_sets.size());
  f.header_padding = ZeroPad(fields::Size(kCmdlHeader) + 4 * sizes.size());
  f.trailing.clear();
}

Bytes SerializeCmdl(const CmdlFile& f) {
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, f.header, kCmdlHeader);
  fields::WriteValues(w, f.section_sizes);
  w.Append(f.header_padding);
  for (const MaterialSet& s : f.material_sets) WriteMaterialSet(w, s, f.Mp2());
  WriteArray(w, f.positions);
  if (f.ShortNormals()) WriteArray(w, f.short_normals);
  else WriteArray(w, f.float_normals);
  WriteArray(w, f.colors);
  WriteArray(w, f.float_uvs);
  if (f.HasShortUvs()) WriteArray(w, f.short_uvs);
  fields::WriteCountedValues(w, f.surface_ends);
  w.Append(f.surface_table_trailing);
  for (const Surface& s : f.surfaces) WriteSurface(w, f, s);
  w.Append(f.trailing);
  return w.Take();
}

}  // namespace animkit::metroid_model
