// The object, material and texture records of an MDB (docs/formats/edf_mdb.md), read through
// their field lists: strictly for writing (ReadStored) or for decoding with every damaged
// record left out (ParseModel); and written back in the stock order (WriteStored). Every
// table is checked to fit the file before anything is allocated for it.
#include <animkit/formats/edf_mdb.hpp>

#include "edf_mdb_fields.hpp"

#include <map>

namespace animkit::edf_mdb {
namespace {

constexpr size_t kMeshLayoutAt = OffsetOf(kMeshRecord, &StoredMesh::layout_at);
constexpr size_t kMeshStride = OffsetOf(kMeshRecord, &StoredMesh::stride);
constexpr size_t kMeshVertexAt = OffsetOf(kMeshRecord, &StoredMesh::vertex_at);
constexpr size_t kMeshIndexAt = OffsetOf(kMeshRecord, &StoredMesh::index_at);
constexpr size_t kObjectName = OffsetOf(kObjectRecord, &StoredObject::name);
constexpr size_t kObjectMeshCount = OffsetOf(kObjectRecord, &StoredObject::mesh_count);
constexpr size_t kObjectMeshAt = OffsetOf(kObjectRecord, &StoredObject::mesh_at);
constexpr size_t kElementName = OffsetOf(kElementRecord, &StoredElement::name_at);
constexpr size_t kMaterialName = OffsetOf(kMaterialRecord, &StoredMaterial::name);
constexpr size_t kMaterialShader = OffsetOf(kMaterialRecord, &StoredMaterial::shader_at);
constexpr size_t kMaterialParameterAt = OffsetOf(kMaterialRecord, &StoredMaterial::parameter_at);
constexpr size_t kMaterialSlotAt = OffsetOf(kMaterialRecord, &StoredMaterial::slot_at);
constexpr size_t kParameterName = OffsetOf(kParameterRecord, &StoredParameter::name_at);
constexpr size_t kSlotMap = OffsetOf(kSlotRecord, &StoredSlot::map_at);
constexpr size_t kTextureName = OffsetOf(kTextureRecord, &StoredTexture::name_at);
constexpr size_t kTextureFileName = OffsetOf(kTextureRecord, &StoredTexture::file_name_at);
static_assert(kMeshLayoutAt == 0x0C && kMeshVertexAt == 0x1C && kMeshIndexAt == 0x24 && kObjectMeshAt == 0x0C);
static_assert(kMaterialParameterAt == 0x0C && kMaterialSlotAt == 0x14 && kParameterName == 0x18 && kSlotMap == 4);

// The header fields of the file's tables (where an error about a table points).
constexpr size_t kObjectOffsetField = 0x1C, kMaterialOffsetField = 0x24, kTextureOffsetField = 0x2C;

std::u16string Utf16At(const ByteReader& file, int64_t pos, size_t field, std::string_view what) {
  file.Utf16z(pos, field, what);  // bounds and terminator checked
  std::u16string s;
  for (size_t p = size_t(pos);; p += 2) {
    const char16_t u = char16_t(le::Load16(file.data().data() + p));
    if (u == 0) return s;
    s.push_back(u);
  }
}

std::string NarrowAt(const ByteReader& file, int64_t pos, std::string_view what) {
  ByteReader r = file;
  r.Seek(uint64_t(pos), what);
  return r.CString(what);
}

// check: the decode view's checks too (names resolve, layouts fit, slots name a texture).
class Reader {
 public:
  Reader(const File& f, bool check) : f_(f), file_(f.image, Endian::Little), check_(check) {}

  void CheckName(uint32_t index, size_t field) const {
    if (check_ && index >= f_.names.size()) {
      throw Error::AtOffset(field, "name index " + std::to_string(index) + ", but the name table has " +
                                       std::to_string(f_.names.size()));
    }
  }

  StoredObject Object(size_t at) const {
    ByteReader r = file_.Sub(at, kObjectSize, "an object record");
    StoredObject o;
    fields::ReadAll(r, o, kObjectRecord);
    o.at = at;
    CheckName(o.name, at + kObjectName);
    file_.Table(int64_t(at) + o.mesh_at, o.mesh_count, kMeshSize, at + kObjectMeshCount, "mesh table");
    return o;
  }

  StoredMesh Mesh(size_t at) const {
    ByteReader r = file_.Sub(at, kMeshSize, "a mesh record");
    StoredMesh m;
    fields::ReadAll(r, m, kMeshRecord);
    m.at = at;
    ByteReader t = file_.Table(int64_t(at) + m.layout_at, m.layout_count, kElementSize, at + kMeshLayoutAt, "vertex layout");
    m.layout = fields::ReadTable<StoredElement>(t, m.layout_count, kElementRecord, "vertex layout");
    for (size_t i = 0; i < m.layout.size(); ++i) {
      StoredElement& e = m.layout[i];
      const size_t rec = t.absolute(kElementSize * i);
      e.name = NarrowAt(file_, int64_t(rec) + e.name_at, "a vertex element name");
      if (check_) CheckElement(e, rec, m.stride);
    }
    if (check_ && m.stride == 0 && m.vertex_count != 0) throw Error::AtOffset(at + kMeshStride, "a vertex stride of 0");
    const ByteView v = file_.Table(int64_t(at) + m.vertex_at, m.vertex_count, m.stride, at + kMeshVertexAt, "vertex buffer").data();
    m.vertices.assign(v.begin(), v.begin() + ptrdiff_t(size_t(m.vertex_count) * m.stride));
    const ByteView x = file_.Table(int64_t(at) + m.index_at, m.index_count, 2, at + kMeshIndexAt, "index buffer").data();
    m.indices.assign(x.begin(), x.begin() + ptrdiff_t(size_t(m.index_count) * 2));
    return m;
  }

  StoredMaterial Material(size_t at) const {
    ByteReader r = file_.Sub(at, kMaterialSize, "a material record");
    StoredMaterial m;
    fields::ReadAll(r, m, kMaterialRecord);
    CheckName(m.name, at + kMaterialName);
    m.shader = Utf16At(file_, int64_t(at) + m.shader_at, at + kMaterialShader, "a shader name");
    ByteReader p = file_.Table(int64_t(at) + m.parameter_at, m.parameter_count, kParameterSize, at + kMaterialParameterAt,
                               "material parameters");
    m.parameters = fields::ReadTable<StoredParameter>(p, m.parameter_count, kParameterRecord, "material parameters");
    for (size_t i = 0; i < m.parameters.size(); ++i) {
      StoredParameter& q = m.parameters[i];
      q.name = NarrowAt(file_, int64_t(p.absolute(kParameterSize * i)) + q.name_at, "a parameter name");
    }
    ByteReader t = file_.Table(int64_t(at) + m.slot_at, m.slot_count, kMaterialTextureSize, at + kMaterialSlotAt,
                               "material textures");
    m.slots = fields::ReadTable<StoredSlot>(t, m.slot_count, kSlotRecord, "material textures");
    for (size_t i = 0; i < m.slots.size(); ++i) {
      StoredSlot& s = m.slots[i];
      const size_t rec = t.absolute(kMaterialTextureSize * i);
      s.map = NarrowAt(file_, int64_t(rec) + s.map_at, "a texture slot name");
      if (check_ && s.texture >= f_.texture_count) {
        throw Error::AtOffset(rec, "texture slot '" + AsciiName(s.map) + "' names texture " + std::to_string(s.texture) +
                                       ", but the texture table has " + std::to_string(f_.texture_count));
      }
    }
    return m;
  }

  // x's fixed fields are kept when a name does not read.
  void Texture(size_t at, StoredTexture& x) const {
    ByteReader r = file_.Sub(at, kTextureSize, "a texture record");
    fields::ReadAll(r, x, kTextureRecord);
    x.name = Utf16At(file_, int64_t(at) + x.name_at, at + kTextureName, "a texture name");
    x.file_name = Utf16At(file_, int64_t(at) + x.file_name_at, at + kTextureFileName, "a texture file name");
  }

  const ByteReader& file() const { return file_; }

 private:
  static void CheckElement(const StoredElement& e, size_t rec, uint16_t stride) {
    const size_t bytes = ElementBytes(e.type);
    if (bytes == 0) {
      throw Error::AtOffset(rec, "vertex element '" + AsciiName(e.name) + "' has the unknown type " + std::to_string(e.type));
    }
    if (uint64_t(e.offset) + bytes > stride) {
      throw Error::AtOffset(rec + 4, "vertex element '" + AsciiName(e.name) + "' at byte " + std::to_string(e.offset) +
                                         " does not fit the " + std::to_string(stride) + "-byte vertex");
    }
  }

  const File& f_;
  ByteReader file_;
  bool check_;
};

// Offsets to strings are patched once the pools are laid out.
struct Pending {
  size_t record, field;
};

class Pools {
 public:
  void Wide(size_t record, size_t field, const std::u16string& s) { wide_[s].push_back({record, field}); }
  void Narrow(size_t record, size_t field, const std::string& s) { narrow_[s].push_back({record, field}); }
  // std::map orders by code unit / byte: the sorted, unique pools of stock files.
  void Write(ByteWriter& w) {
    for (const auto& [s, uses] : narrow_) {
      for (const Pending& p : uses) w.PatchU32(p.field, uint32_t(w.size() - p.record));
      for (char c : s) w.U8(uint8_t(c));
      w.U8(0);
    }
    w.AlignTo(2);
    for (const auto& [s, uses] : wide_) {
      for (const Pending& p : uses) w.PatchU32(p.field, uint32_t(w.size() - p.record));
      for (char16_t u : s) w.U16(uint16_t(u));
      w.U16(0);
    }
  }

 private:
  std::map<std::u16string, std::vector<Pending>> wide_;
  std::map<std::string, std::vector<Pending>> narrow_;
};

// Writes record r of list at w's end with its string offsets left 0 (the pools patch them);
// returns where it starts.
template <class S, class List>
size_t Put(ByteWriter& w, const S& r, const List& list) {
  const size_t at = w.size();
  fields::WriteAll(w, r, list);
  return at;
}

void WriteMaterials(ByteWriter& w, const StoredFile& s, Pools& pools) {
  std::vector<size_t> heads;
  for (const StoredMaterial& m : s.materials) {
    StoredMaterial head = m;
    head.shader_at = head.parameter_at = head.slot_at = 0;
    head.parameter_count = uint32_t(m.parameters.size()), head.slot_count = uint32_t(m.slots.size());
    heads.push_back(Put(w, head, kMaterialRecord));
    pools.Wide(heads.back(), heads.back() + kMaterialShader, m.shader);
  }
  for (size_t i = 0; i < s.materials.size(); ++i) {
    const StoredMaterial& m = s.materials[i];
    w.PatchU32(heads[i] + kMaterialParameterAt, uint32_t(w.size() - heads[i]));
    for (StoredParameter p : m.parameters) {
      p.name_at = 0;
      const size_t rec = Put(w, p, kParameterRecord);
      pools.Narrow(rec, rec + kParameterName, p.name);
    }
    w.PatchU32(heads[i] + kMaterialSlotAt, uint32_t(w.size() - heads[i]));
    for (StoredSlot t : m.slots) {
      t.map_at = 0;
      const size_t rec = Put(w, t, kSlotRecord);
      pools.Narrow(rec, rec + kSlotMap, t.map);
    }
  }
}

// Object and mesh headers with their layouts; returns where each mesh header was written.
std::vector<size_t> WriteObjects(ByteWriter& w, const StoredFile& s, Pools& pools) {
  std::vector<size_t> objects, meshes;
  for (StoredObject o : s.objects) {
    o.mesh_count = uint32_t(o.meshes.size()), o.mesh_at = 0;
    objects.push_back(Put(w, o, kObjectRecord));
  }
  for (size_t i = 0; i < s.objects.size(); ++i) {
    const StoredObject& o = s.objects[i];
    w.PatchU32(objects[i] + kObjectMeshAt, uint32_t(w.size() - objects[i]));
    const size_t first = meshes.size();
    for (const StoredMesh& m : o.meshes) {
      if (m.stride == 0 ? !m.vertices.empty() : m.vertices.size() % m.stride != 0)
        throw Error::General("MDB mesh: vertex bytes not a whole number of vertices");
      StoredMesh head;
      head.flags = m.flags, head.material = m.material, head.reserved = m.reserved, head.stride = m.stride;
      head.mesh_index = m.mesh_index;
      head.layout_count = uint16_t(m.layout.size());
      head.vertex_count = m.VertexCount(), head.index_count = uint32_t(m.indices.size() / 2);
      meshes.push_back(Put(w, head, kMeshRecord));
    }
    for (size_t k = 0; k < o.meshes.size(); ++k) {
      const size_t head = meshes[first + k];
      w.PatchU32(head + kMeshLayoutAt, uint32_t(w.size() - head));
      for (StoredElement e : o.meshes[k].layout) {
        e.name_at = 0;
        const size_t rec = Put(w, e, kElementRecord);
        pools.Narrow(rec, rec + kElementName, e.name);
      }
    }
  }
  return meshes;
}

}  // namespace

size_t ElementBytes(uint32_t type) {
  switch (ElementType(type)) {
    case ElementType::Float4: return 16;
    case ElementType::Float3: return 12;
    case ElementType::Half4: return 8;
    case ElementType::Float2: return 8;
    case ElementType::UByte4: return 4;
  }
  return 0;
}

std::string NameOf(const File& f, uint32_t index) { return index < f.names.size() ? f.names[index].name : std::string(); }

std::string AsciiName(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) >= 0x80) c = '?';
  return s;
}

std::string Utf8(const std::u16string& s) { return Utf8FromUtf16(std::vector<uint16_t>(s.begin(), s.end())); }

Model ParseModel(const File& f) {
  Model model;
  const Reader read(f, true);
  read.file().Table(f.object_offset, f.object_count, kObjectSize, kObjectOffsetField, "object table");
  for (uint32_t i = 0; i < f.object_count; ++i) {
    StoredObject o;
    try {
      o = read.Object(f.object_offset + kObjectSize * i);
    } catch (const Error& e) {
      model.damaged.push_back("object " + std::to_string(i) + ": " + e.what());
      continue;
    }
    for (uint32_t k = 0; k < o.mesh_count; ++k) {
      try {
        o.meshes.push_back(read.Mesh(o.at + o.mesh_at + kMeshSize * k));
      } catch (const Error& e) {
        model.damaged.push_back("object " + std::to_string(i) + " ('" + NameOf(f, o.name) + "') mesh " +
                                std::to_string(k) + ": " + e.what());
      }
    }
    model.objects.push_back(std::move(o));
  }
  read.file().Table(f.material_offset, f.material_count, kMaterialSize, kMaterialOffsetField, "material table");
  for (uint32_t i = 0; i < f.material_count; ++i) {
    try {
      model.materials.push_back(read.Material(f.material_offset + kMaterialSize * i));
    } catch (const Error& e) {
      // Kept, nameless, so that mesh material indices stay in place.
      StoredMaterial m;
      m.index = uint16_t(i), m.name = UINT32_MAX;
      model.materials.push_back(m);
      model.damaged.push_back("material " + std::to_string(i) + ": " + e.what());
    }
  }
  read.file().Table(f.texture_offset, f.texture_count, kTextureSize, kTextureOffsetField, "texture table");
  for (uint32_t i = 0; i < f.texture_count; ++i) {
    StoredTexture x;
    try {
      read.Texture(f.texture_offset + kTextureSize * i, x);
    } catch (const Error& e) {
      x.name.clear(), x.file_name.clear();
      model.damaged.push_back("texture " + std::to_string(i) + ": " + e.what());
    }
    model.textures.push_back(std::move(x));  // kept (perhaps nameless): slots index this table
  }
  return model;
}

StoredFile ReadStored(const File& f) {
  const Reader read(f, false);
  StoredFile s;
  s.version = f.version;
  for (size_t i = 0; i < f.names.size(); ++i) {
    const size_t at = f.name_offset + kNameEntrySize * i;
    if (f.names[i].offset == 0) s.names.emplace_back();
    else s.names.emplace_back(Utf16At(read.file(), int64_t(at) + f.names[i].offset, at, "a UTF-16 string"));
  }
  s.bones = f.bones;
  read.file().Table(f.texture_offset, f.texture_count, kTextureSize, kTextureOffsetField, "texture table");
  s.textures.resize(f.texture_count);
  for (uint32_t i = 0; i < f.texture_count; ++i) read.Texture(f.texture_offset + kTextureSize * i, s.textures[i]);
  read.file().Table(f.material_offset, f.material_count, kMaterialSize, kMaterialOffsetField, "material table");
  for (uint32_t i = 0; i < f.material_count; ++i) s.materials.push_back(read.Material(f.material_offset + kMaterialSize * i));
  read.file().Table(f.object_offset, f.object_count, kObjectSize, kObjectOffsetField, "object table");
  for (uint32_t i = 0; i < f.object_count; ++i) {
    StoredObject o = read.Object(f.object_offset + kObjectSize * i);
    for (uint32_t k = 0; k < o.mesh_count; ++k) o.meshes.push_back(read.Mesh(o.at + o.mesh_at + kMeshSize * k));
    s.objects.push_back(std::move(o));
  }
  return s;
}

Bytes WriteStored(const StoredFile& s) {
  ByteWriter w(Endian::Little);
  Pools pools;
  File h;
  h.version = s.version;
  w.Append(ByteView(reinterpret_cast<const uint8_t*>("MDB0"), 4));
  w.Fill(kHeaderSize - 4);  // the header, written last
  h.name_count = uint32_t(s.names.size()), h.name_offset = uint32_t(w.size());
  for (const auto& n : s.names) {
    if (n) pools.Wide(w.size(), w.size(), *n);
    Put(w, NameEntry{}, kNameEntry);
  }
  h.bone_count = uint32_t(s.bones.size()), h.bone_offset = uint32_t(w.size());
  fields::WriteTable(w, s.bones, kBoneRecord);
  h.texture_count = uint32_t(s.textures.size()), h.texture_offset = uint32_t(w.size());
  for (StoredTexture x : s.textures) {
    x.name_at = x.file_name_at = 0;
    const size_t rec = Put(w, x, kTextureRecord);
    pools.Wide(rec, rec + kTextureName, x.name);
    pools.Wide(rec, rec + kTextureFileName, x.file_name);
  }
  h.material_count = uint32_t(s.materials.size()), h.material_offset = uint32_t(w.size());
  WriteMaterials(w, s, pools);
  h.object_count = uint32_t(s.objects.size()), h.object_offset = uint32_t(w.size());
  const std::vector<size_t> heads = WriteObjects(w, s, pools);
  size_t k = 0;
  for (const StoredObject& o : s.objects)
    for (const StoredMesh& m : o.meshes) {
      w.AlignTo(16);
      w.PatchU32(heads[k] + kMeshIndexAt, uint32_t(w.size() - heads[k]));
      w.Append(m.indices), ++k;
    }
  k = 0;
  for (const StoredObject& o : s.objects)
    for (const StoredMesh& m : o.meshes) {
      w.AlignTo(16);
      w.PatchU32(heads[k] + kMeshVertexAt, uint32_t(w.size() - heads[k]));
      w.Append(m.vertices), ++k;
    }
  pools.Write(w);
  Bytes out = w.Take();
  fields::WriteAt(out, 4, Endian::Little, h, kHeader);
  return out;
}

}  // namespace animkit::edf_mdb
