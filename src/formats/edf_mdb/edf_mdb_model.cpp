// The object, material and texture tables of an MDB (docs/formats/edf_mdb.md). Every offset
// inside a record counts from that record's first byte; every table is checked to fit the
// file before anything is allocated for it, and a record that does not fit is left out.
#include <animkit/formats/edf_mdb.hpp>

#include <string>

namespace animkit::edf_mdb {
namespace {

// An 8-bit (Shift-JIS) name; bytes past ASCII become '?' so that every name is valid UTF-8.
std::string AsciiName(const ByteReader& file, size_t pos, std::string_view what) {
  ByteReader r = file;
  r.Seek(pos, what);
  std::string s = r.CString(what);
  for (char& c : s)
    if (static_cast<unsigned char>(c) >= 0x80) c = '?';
  return s;
}

const std::string& NameAt(const File& f, uint32_t index, size_t field) {
  if (index >= f.names.size()) {
    throw Error::AtOffset(field, "name index " + std::to_string(index) + ", but the name table has " +
                                     std::to_string(f.names.size()));
  }
  return f.names[index].name;
}

std::vector<VertexElement> ReadLayout(const ByteReader& file, size_t at, uint32_t count, uint16_t stride) {
  ByteReader t = file.Table(int64_t(at), count, kElementSize, at, "vertex layout");
  std::vector<VertexElement> layout(count);
  for (VertexElement& e : layout) {
    const size_t rec = t.absolute(t.tell());
    e.type = t.U32("an element type");
    e.offset = t.U32("an element offset");
    e.channel = t.U32("an element channel");
    const uint32_t name = t.U32("an element name offset");
    e.name = AsciiName(file, rec + name, "a vertex element name");
    const size_t bytes = ElementBytes(e.type);
    if (bytes == 0) throw Error::AtOffset(rec, "vertex element '" + e.name + "' has the unknown type " + std::to_string(e.type));
    if (uint64_t(e.offset) + bytes > stride) {
      throw Error::AtOffset(rec + 4, "vertex element '" + e.name + "' at byte " + std::to_string(e.offset) +
                                         " does not fit the " + std::to_string(stride) + "-byte vertex");
    }
  }
  return layout;
}

MeshRecord ReadMesh(const ByteReader& file, size_t at) {
  ByteReader r = file.Sub(at, kMeshSize, "a mesh record");
  MeshRecord m;
  m.at = at;
  m.topology = r.U8();
  m.skinned = r.U8();
  m.influences = r.I8();
  r.Skip(1, "padding");
  m.material = r.I32("a material index");
  r.Skip(4, "a reserved word");
  const uint32_t layout_at = r.U32("a layout offset");
  m.stride = r.U16("a vertex stride");
  const uint16_t layout_count = r.U16("a layout count");
  m.vertex_count = r.U32("a vertex count");
  m.mesh_index = r.U32("a mesh index");
  const uint32_t vertex_at = r.U32("a vertex offset");
  m.index_count = r.U32("an index count");
  const uint32_t index_at = r.U32("an index offset");
  m.layout = ReadLayout(file, at + layout_at, layout_count, m.stride);
  m.vertex_at = at + vertex_at;
  m.index_at = at + index_at;
  if (m.stride == 0 && m.vertex_count != 0) throw Error::AtOffset(at + 0x10, "a vertex stride of 0");
  file.Table(int64_t(m.vertex_at), m.vertex_count, m.stride, at + 0x1C, "vertex buffer");
  file.Table(int64_t(m.index_at), m.index_count, 2, at + 0x24, "index buffer");
  return m;
}

void ReadObjects(const File& f, const ByteReader& file, Model& model) {
  file.Table(f.object_offset, f.object_count, kObjectSize, 0x1C, "object table");
  for (uint32_t i = 0; i < f.object_count; ++i) {
    const size_t at = f.object_offset + kObjectSize * i;
    ObjectRecord o;
    o.at = at;
    uint32_t mesh_count = 0, mesh_at = 0;
    try {
      ByteReader r = file.Sub(at, kObjectSize, "an object record");
      o.index = r.U32();
      o.name = NameAt(f, r.U32(), at + 4);
      mesh_count = r.U32("a mesh count");
      mesh_at = r.U32("a mesh offset");
      file.Table(int64_t(at) + mesh_at, mesh_count, kMeshSize, at + 8, "mesh table");
    } catch (const Error& e) {
      model.damaged.push_back("object " + std::to_string(i) + ": " + e.what());
      continue;
    }
    for (uint32_t k = 0; k < mesh_count; ++k) {
      try {
        o.meshes.push_back(ReadMesh(file, at + mesh_at + kMeshSize * k));
      } catch (const Error& e) {
        model.damaged.push_back("object " + std::to_string(i) + " ('" + o.name + "') mesh " + std::to_string(k) +
                                ": " + e.what());
      }
    }
    model.objects.push_back(std::move(o));
  }
}

MaterialRecord ReadMaterial(const File& f, const ByteReader& file, size_t at) {
  ByteReader r = file.Sub(at, kMaterialSize, "a material record");
  MaterialRecord m;
  m.index = r.U16();
  r.Skip(2, "draw priority and queue");
  m.name = NameAt(f, r.U32(), at + 4);
  const uint32_t shader = r.U32("a shader name offset");
  const uint32_t param_at = r.U32(), param_count = r.U32();
  const uint32_t tex_at = r.U32(), tex_count = r.U32();
  m.shader = file.Utf16z(int64_t(at) + shader, at + 8, "a shader name");
  ByteReader p = file.Table(int64_t(at) + param_at, param_count, kParameterSize, at + 0x0C, "material parameters");
  for (uint32_t i = 0; i < param_count; ++i) {
    const size_t rec = p.absolute(p.tell());
    MaterialParameter q;
    for (float& v : q.values) v = p.F32();
    const uint32_t name = p.U32();
    q.type = p.U8();
    q.size = p.U8();
    p.Skip(2, "padding");
    q.name = AsciiName(file, rec + name, "a parameter name");
    m.parameters.push_back(std::move(q));
  }
  ByteReader t = file.Table(int64_t(at) + tex_at, tex_count, kMaterialTextureSize, at + 0x14, "material textures");
  for (uint32_t i = 0; i < tex_count; ++i) {
    const size_t rec = t.absolute(t.tell());
    MaterialTexture x;
    x.texture = t.U32();
    x.map = AsciiName(file, rec + t.U32(), "a texture slot name");
    t.Skip(kMaterialTextureSize - 8, "sampler settings");
    if (x.texture >= f.texture_count) {
      throw Error::AtOffset(rec, "texture slot '" + x.map + "' names texture " + std::to_string(x.texture) +
                                     ", but the texture table has " + std::to_string(f.texture_count));
    }
    m.textures.push_back(std::move(x));
  }
  return m;
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

Model ParseModel(const File& f) {
  Model model;
  const ByteReader file(f.image, Endian::Little);
  ReadObjects(f, file, model);
  file.Table(f.material_offset, f.material_count, kMaterialSize, 0x24, "material table");
  for (uint32_t i = 0; i < f.material_count; ++i) {
    try {
      model.materials.push_back(ReadMaterial(f, file, f.material_offset + kMaterialSize * i));
    } catch (const Error& e) {
      // Kept by name where the name reads, so that mesh material indices stay in place.
      MaterialRecord m;
      m.index = uint16_t(i);
      model.materials.push_back(m);
      model.damaged.push_back("material " + std::to_string(i) + ": " + e.what());
    }
  }
  file.Table(f.texture_offset, f.texture_count, kTextureSize, 0x2C, "texture table");
  for (uint32_t i = 0; i < f.texture_count; ++i) {
    const size_t at = f.texture_offset + kTextureSize * i;
    TextureRecord x;
    try {
      ByteReader r = file.Sub(at, kTextureSize, "a texture record");
      x.index = r.U32();
      const uint32_t name = r.U32(), file_name = r.U32();
      x.name = file.Utf16z(int64_t(at) + name, at + 4, "a texture name");
      x.file_name = file.Utf16z(int64_t(at) + file_name, at + 8, "a texture file name");
    } catch (const Error& e) {
      model.damaged.push_back("texture " + std::to_string(i) + ": " + e.what());
    }
    model.textures.push_back(std::move(x));  // kept (perhaps nameless): slots index this table
  }
  return model;
}

}  // namespace animkit::edf_mdb
