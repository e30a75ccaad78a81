// Every MDB record read as stored, and written back in the stock order (docs/formats/edf_mdb.md
// "Writing models"). Offsets inside records count from the record's first byte.
#include <animkit/formats/edf_mdb.hpp>

#include <algorithm>
#include <cstring>
#include <map>

namespace animkit::edf_mdb {
namespace {

std::u16string StoredUtf16(const ByteReader& file, int64_t pos, size_t field) {
  file.Utf16z(pos, field, "a UTF-16 string");  // bounds and terminator checked
  std::u16string s;
  for (size_t p = size_t(pos);; p += 2) {
    const char16_t u = char16_t(file.data()[p] | file.data()[p + 1] << 8);
    if (u == 0) return s;
    s.push_back(u);
  }
}

std::string Stored8(const ByteReader& file, int64_t pos, std::string_view what) {
  ByteReader r = file;
  r.Seek(uint64_t(pos), what);
  return r.CString(what);
}

StoredMesh ReadStoredMesh(const ByteReader& file, size_t at) {
  ByteReader r = file.Sub(at, kMeshSize, "a mesh record");
  StoredMesh m;
  for (uint8_t& b : m.flags) b = r.U8();
  m.material = r.I32();
  m.reserved = r.U32();
  const uint32_t layout_at = r.U32();
  m.stride = r.U16();
  const uint16_t elements = r.U16();
  const uint32_t vertex_count = r.U32();
  m.mesh_index = r.U32();
  const uint32_t vertex_at = r.U32(), index_count = r.U32(), index_at = r.U32();
  ByteReader t = file.Table(int64_t(at) + layout_at, elements, kElementSize, at + 0xC, "vertex layout");
  for (uint16_t i = 0; i < elements; ++i) {
    const size_t rec = t.absolute(t.tell());
    StoredElement e;
    e.type = t.U32(), e.offset = t.U32(), e.channel = t.U32();
    e.name = Stored8(file, int64_t(rec) + t.U32(), "an element name");
    m.layout.push_back(std::move(e));
  }
  const ByteView v = file.Table(int64_t(at) + vertex_at, vertex_count, m.stride, at + 0x1C, "vertex buffer").data();
  m.vertices.assign(v.begin(), v.begin() + ptrdiff_t(size_t(vertex_count) * m.stride));
  const ByteView x = file.Table(int64_t(at) + index_at, index_count, 2, at + 0x24, "index buffer").data();
  m.indices.assign(x.begin(), x.begin() + ptrdiff_t(size_t(index_count) * 2));
  return m;
}

StoredMaterial ReadStoredMaterial(const ByteReader& file, size_t at) {
  ByteReader r = file.Sub(at, kMaterialSize, "a material record");
  StoredMaterial m;
  m.index = r.U16(), m.priority = r.U8(), m.queue = r.U8(), m.name = r.U32();
  m.shader = StoredUtf16(file, int64_t(at) + r.U32(), at + 8);
  const uint32_t param_at = r.U32(), param_count = r.U32(), slot_at = r.U32(), slot_count = r.U32();
  m.flags = r.U32();
  ByteReader p = file.Table(int64_t(at) + param_at, param_count, kParameterSize, at + 0xC, "material parameters");
  for (uint32_t i = 0; i < param_count; ++i) {
    const size_t rec = p.absolute(p.tell());
    StoredParameter q;
    const ByteView values = p.Take(24, "parameter values");
    std::copy(values.begin(), values.end(), q.values.begin());
    q.name = Stored8(file, int64_t(rec) + p.U32(), "a parameter name");
    q.type = p.U32();
    m.parameters.push_back(std::move(q));
  }
  ByteReader t = file.Table(int64_t(at) + slot_at, slot_count, kMaterialTextureSize, at + 0x14, "texture slots");
  for (uint32_t i = 0; i < slot_count; ++i) {
    const size_t rec = t.absolute(t.tell());
    StoredSlot s;
    s.texture = t.U32();
    s.map = Stored8(file, int64_t(rec) + t.U32(), "a slot name");
    const ByteView rest = t.Take(20, "sampler settings");
    std::copy(rest.begin(), rest.end(), s.sampler.begin());
    m.slots.push_back(std::move(s));
  }
  return m;
}

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

void WriteMaterials(ByteWriter& w, const StoredFile& s, Pools& pools) {
  std::vector<size_t> heads;
  for (const StoredMaterial& m : s.materials) {
    heads.push_back(w.size());
    w.U16(m.index), w.U8(m.priority), w.U8(m.queue), w.U32(m.name);
    pools.Wide(heads.back(), w.size(), m.shader), w.U32(0);
    w.U32(0), w.U32(uint32_t(m.parameters.size())), w.U32(0), w.U32(uint32_t(m.slots.size())), w.U32(m.flags);
  }
  for (size_t i = 0; i < s.materials.size(); ++i) {
    const StoredMaterial& m = s.materials[i];
    w.PatchU32(heads[i] + 0xC, uint32_t(w.size() - heads[i]));
    for (const StoredParameter& p : m.parameters) {
      const size_t rec = w.size();
      w.Append(p.values);
      pools.Narrow(rec, w.size(), p.name), w.U32(0);
      w.U32(p.type);
    }
    w.PatchU32(heads[i] + 0x14, uint32_t(w.size() - heads[i]));
    for (const StoredSlot& t : m.slots) {
      const size_t rec = w.size();
      w.U32(t.texture);
      pools.Narrow(rec, w.size(), t.map), w.U32(0);
      w.Append(t.sampler);
    }
  }
}

// Object and mesh headers with their layouts; returns where each mesh header was written.
std::vector<size_t> WriteObjects(ByteWriter& w, const StoredFile& s, Pools& pools) {
  std::vector<size_t> objects, meshes;
  for (const StoredObject& o : s.objects) {
    objects.push_back(w.size());
    w.U32(o.index), w.U32(o.name), w.U32(uint32_t(o.meshes.size())), w.U32(0);
  }
  for (size_t i = 0; i < s.objects.size(); ++i) {
    const StoredObject& o = s.objects[i];
    w.PatchU32(objects[i] + 0xC, uint32_t(w.size() - objects[i]));
    const size_t first = meshes.size();
    for (const StoredMesh& m : o.meshes) {
      if (m.stride == 0 ? !m.vertices.empty() : m.vertices.size() % m.stride != 0)
        throw Error::General("MDB mesh: vertex bytes not a whole number of vertices");
      meshes.push_back(w.size());
      for (uint8_t b : m.flags) w.U8(b);
      w.I32(m.material), w.U32(m.reserved), w.U32(0), w.U16(m.stride), w.U16(uint16_t(m.layout.size()));
      w.U32(m.VertexCount()), w.U32(m.mesh_index), w.U32(0), w.U32(uint32_t(m.indices.size() / 2)), w.U32(0);
    }
    for (size_t k = 0; k < o.meshes.size(); ++k) {
      const size_t head = meshes[first + k];
      w.PatchU32(head + 0xC, uint32_t(w.size() - head));
      for (const StoredElement& e : o.meshes[k].layout) {
        const size_t rec = w.size();
        w.U32(e.type), w.U32(e.offset), w.U32(e.channel);
        pools.Narrow(rec, w.size(), e.name), w.U32(0);
      }
    }
  }
  return meshes;
}

}  // namespace

StoredFile ReadStored(const File& f) {
  const ByteReader file(f.image, Endian::Little);
  StoredFile s;
  s.version = f.version;
  for (size_t i = 0; i < f.names.size(); ++i) {
    const size_t at = f.name_offset + kNameEntrySize * i;
    if (f.names[i].offset == 0) s.names.emplace_back();
    else s.names.emplace_back(StoredUtf16(file, int64_t(at) + f.names[i].offset, at));
  }
  s.bones = f.bones;
  ByteReader t = file.Table(f.texture_offset, f.texture_count, kTextureSize, 0x2C, "texture table");
  for (uint32_t i = 0; i < f.texture_count; ++i) {
    const size_t at = t.absolute(t.tell());
    StoredTexture x;
    x.index = t.U32();
    x.name = StoredUtf16(file, int64_t(at) + t.U32(), at + 4);
    x.file_name = StoredUtf16(file, int64_t(at) + t.U32(), at + 8);
    x.reserved = t.U32();
    s.textures.push_back(std::move(x));
  }
  file.Table(f.material_offset, f.material_count, kMaterialSize, 0x24, "material table");
  for (uint32_t i = 0; i < f.material_count; ++i)
    s.materials.push_back(ReadStoredMaterial(file, f.material_offset + kMaterialSize * i));
  ByteReader o = file.Table(f.object_offset, f.object_count, kObjectSize, 0x1C, "object table");
  for (uint32_t i = 0; i < f.object_count; ++i) {
    const size_t at = o.absolute(o.tell());
    StoredObject x;
    x.index = o.U32(), x.name = o.U32();
    const uint32_t count = o.U32(), mesh_at = o.U32();
    file.Table(int64_t(at) + mesh_at, count, kMeshSize, at + 8, "mesh table");
    for (uint32_t k = 0; k < count; ++k) x.meshes.push_back(ReadStoredMesh(file, at + mesh_at + kMeshSize * k));
    s.objects.push_back(std::move(x));
  }
  return s;
}

Bytes WriteStored(const StoredFile& s) {
  ByteWriter w(Endian::Little);
  Pools pools;
  for (char c : {'M', 'D', 'B', '0'}) w.U8(uint8_t(c));
  w.U32(s.version);
  w.Fill(kHeaderSize - 8);
  auto table = [&](size_t field, size_t count) { w.PatchU32(field, uint32_t(count)), w.PatchU32(field + 4, uint32_t(w.size())); };
  table(0x08, s.names.size());
  for (const auto& n : s.names) {
    if (n) pools.Wide(w.size(), w.size(), *n);
    w.U32(0);
  }
  table(0x10, s.bones.size());
  for (size_t i = 0; i < s.bones.size(); ++i) {
    const Bone& b = s.bones[i];
    w.U32(b.index), w.I32(b.parent), w.I32(b.next_sibling), w.I32(b.first_child), w.U32(b.name_index);
    w.U32(b.child_count), w.U8(b.group), w.U8(b.unknown1), w.U8(b.unknown_flag), w.Append(b.padding);
    for (const auto* m : {&b.local, &b.inverse_bind})
      for (float v : *m) w.F32(v);
    for (float v : b.unknown) w.F32(v);
  }
  table(0x28, s.textures.size());
  for (const StoredTexture& x : s.textures) {
    const size_t rec = w.size();
    w.U32(x.index);
    pools.Wide(rec, w.size(), x.name), w.U32(0);
    pools.Wide(rec, w.size(), x.file_name), w.U32(0);
    w.U32(x.reserved);
  }
  table(0x20, s.materials.size());
  WriteMaterials(w, s, pools);
  table(0x18, s.objects.size());
  const std::vector<size_t> heads = WriteObjects(w, s, pools);
  size_t k = 0;
  for (const StoredObject& o : s.objects)
    for (const StoredMesh& m : o.meshes) {
      w.AlignTo(16);
      w.PatchU32(heads[k] + 0x24, uint32_t(w.size() - heads[k]));
      w.Append(m.indices), ++k;
    }
  k = 0;
  for (const StoredObject& o : s.objects)
    for (const StoredMesh& m : o.meshes) {
      w.AlignTo(16);
      w.PatchU32(heads[k] + 0x1C, uint32_t(w.size() - heads[k]));
      w.Append(m.vertices), ++k;
    }
  pools.Write(w);
  return w.Take();
}

}  // namespace animkit::edf_mdb
