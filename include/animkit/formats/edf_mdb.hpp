// Earth Defense Force MDB model, read for its skeleton. Little-endian.
// Header 0x30: "MDB0", u32 version (0x14 in EDF 4.1/5 files, 0x20 in EDF 6; kept
// verbatim), then count/offset pairs (absolute) of the name table, the bone records,
// the objects (meshes), the materials and the textures.
// Name entry: u32 offset from the entry of a zero-terminated UTF-16LE string (0: no name).
// Bone record, 0xC0 bytes: u32 index, i32 parent (-1: none), i32 next sibling, i32 first
// child, u32 name index, u32 child count, u8 group, u8 unknown, u8 unknown flag,
// u8[5] padding, f32[16] parent-relative local matrix, f32[16] inverse bind matrix,
// f32[8] unknown (matrices stored column by column, translation in floats 12..14).
// Objects (meshes), materials and textures are decoded by ParseModel/DecodeModel (layouts in
// docs/formats/edf_mdb.md); the file stays in `image`, and Serialize writes the image with
// every parsed bone and header field written back at its place.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace animkit::edf_mdb {

inline constexpr size_t kHeaderSize = 0x30;
inline constexpr size_t kBoneSize = 0xC0;
inline constexpr size_t kNameEntrySize = 4;
inline constexpr uint32_t kVersionEdf5 = 0x14;
inline constexpr uint32_t kVersionEdf6 = 0x20;

struct Bone {
  uint32_t index = 0;
  int32_t parent = -1;
  int32_t next_sibling = -1;
  int32_t first_child = -1;
  uint32_t name_index = 0;
  uint32_t child_count = 0;
  uint8_t group = 0;           // meaning unverified (0 root, 2 unskinned, 3 skinned in known files)
  uint8_t unknown1 = 0;        // unknown, kept verbatim
  uint8_t unknown_flag = 0;    // unknown, kept verbatim
  std::array<uint8_t, 5> padding{};
  std::array<float, 16> local{};         // parent-relative, column-major
  std::array<float, 16> inverse_bind{};  // column-major
  std::array<float, 8> unknown{};        // unknown, kept verbatim
};

struct NameEntry {
  uint32_t offset = 0;  // from the entry; 0 = no name
  std::string name;     // UTF-8 (read-only)
};

struct File {
  uint32_t version = kVersionEdf5;
  uint32_t name_count = 0, name_offset = 0;
  uint32_t bone_count = 0, bone_offset = 0;
  uint32_t object_count = 0, object_offset = 0;
  uint32_t material_count = 0, material_offset = 0;
  uint32_t texture_count = 0, texture_offset = 0;
  std::vector<NameEntry> names;
  std::vector<Bone> bones;
  Bytes image;  // the file's bytes: strings, meshes, materials, textures live here
};

File Parse(ByteView data);
Bytes Serialize(const File& file);
// Joints in file order (a bone's parent comes before it); rest = the local matrix.
Skeleton DecodeSkeleton(const File& file);
// A skeleton-only MDB (no objects, materials or textures).
File EncodeSkeleton(const Skeleton& skeleton, uint32_t version = kVersionEdf5);

Mat4 MatrixFrom(const std::array<float, 16>& column_major);

// ---- Objects, meshes, materials, textures ----------------------------------------------
// Every record as stored (layouts in docs/formats/edf_mdb.md, field lists in
// src/formats/edf_mdb/edf_mdb_fields.hpp): the fixed fields, then what they point at. Offsets
// count from the record's first byte; strings are kept as stored (UTF-16 code units, 8-bit
// bytes). The decode view (ParseModel), ReadStored and both writers share these records.
inline constexpr size_t kObjectSize = 0x10, kMeshSize = 0x28, kElementSize = 0x10;
inline constexpr size_t kMaterialSize = 0x20, kMaterialTextureSize = 0x1C, kParameterSize = 0x20;
inline constexpr size_t kTextureSize = 0x10;

// The stored type of a vertex element.
enum class ElementType : uint32_t { Float4 = 1, Float3 = 4, Half4 = 7, Float2 = 12, UByte4 = 21 };
// Bytes of one value of type, 0 for a type animkit does not know.
size_t ElementBytes(uint32_t type);

struct StoredElement {
  uint32_t type = 0, offset = 0, channel = 0;
  uint32_t name_at = 0;  // written by WriteStored
  std::string name;      // 8-bit, as stored: "position", "normal", "texcoord", "BLENDINDICES"... (case varies)
};
struct StoredMesh {
  std::array<uint8_t, 4> flags{};  // topology (0: triangle list), skinned, influences (i8), 0
  int32_t material = -1;           // into the material table
  uint32_t reserved = 0;
  uint32_t layout_at = 0;
  uint16_t stride = 0, layout_count = 0;
  uint32_t vertex_count = 0, mesh_index = 0;
  uint32_t vertex_at = 0, index_count = 0, index_at = 0;
  size_t at = 0;  // file offset of the record as read
  std::vector<StoredElement> layout;
  Bytes vertices;  // stride * vertex count bytes
  Bytes indices;   // u16 little-endian, 2 * index count bytes
  uint32_t VertexCount() const { return stride ? uint32_t(vertices.size() / stride) : 0; }
};
struct StoredObject {
  uint32_t index = 0, name = 0;  // +0, +4 (the name table slot of its bone)
  uint32_t mesh_count = 0, mesh_at = 0;
  size_t at = 0;
  std::vector<StoredMesh> meshes;
};
struct StoredParameter {
  std::array<float, 4> values{};
  std::array<uint32_t, 2> extra{};  // two more words (0 in known files; read as two more floats by some tools)
  uint32_t name_at = 0;
  uint32_t type = 0;  // (component count << 8) | kind (0 float, 1 float2, 2 float3/colour, 3 float4, ...)
  std::string name;   // 8-bit, as stored
  uint32_t Count() const { return (type >> 8) & 0xFF; }
};
struct StoredSlot {
  uint32_t texture = 0;  // into the texture table
  uint32_t map_at = 0;
  std::array<uint8_t, 20> sampler{};  // kept verbatim
  std::string map;  // the shader's slot: "albedo", "normal", ... (8-bit, as stored)
};
struct StoredMaterial {
  uint16_t index = 0;
  uint8_t priority = 0, queue = 0;
  uint32_t name = 0;  // into the name table
  uint32_t shader_at = 0, parameter_at = 0, parameter_count = 0, slot_at = 0, slot_count = 0;
  uint32_t flags = 3;
  std::u16string shader;
  std::vector<StoredParameter> parameters;
  std::vector<StoredSlot> slots;
};
struct StoredTexture {
  uint32_t index = 0;
  uint32_t name_at = 0, file_name_at = 0;
  uint32_t reserved = 0;
  std::u16string name, file_name;
};

struct Model {
  std::vector<StoredObject> objects;  // the readable ones, each with its readable meshes
  std::vector<StoredMaterial> materials;
  std::vector<StoredTexture> textures;
  std::vector<std::string> damaged;   // one line per object, mesh, material skipped: offset and why
};

// The object, material and texture tables of a parsed file, checked for decoding (names
// resolve, layouts fit their vertex, slots name a texture). A record that does not fit is
// left out and listed in `damaged` (a material or texture stays, empty, so that indices stay
// in place); nothing here throws for the file's content.
Model ParseModel(const File& file);
// The name table's entry index as UTF-8 ("" when there is none).
std::string NameOf(const File& file, uint32_t index);
// An 8-bit name as the decode view shows it: bytes past ASCII become '?'.
std::string AsciiName(std::string s);
std::string Utf8(const std::u16string& s);

// What a model's textures are read from: the bytes of the file of that name beside the model,
// or nullopt with `why` set. The pipeline's reader gives one over the model's own folder
// (FolderTextureReader); tests give their own.
using TextureReader = std::function<std::optional<Bytes>(const std::string& file_name, std::string& why)>;
// Files of the folder `folder` only, matched case-insensitively; a name with a path
// separator or ".." is refused (never outside that folder).
TextureReader FolderTextureReader(std::string folder);

// The meshes, materials and textures of the model in the common model: skinned meshes in
// model space at the skeleton's rest pose, unskinned ones rigid to the bone of their object's
// name (or static when none). A mesh that cannot be decoded is left out, with a line in
// `damaged`; a texture not found or not decodable is an Image with `missing` set.
void DecodeModel(const File& file, const Model& model, const TextureReader& textures, Scene& scene,
                 std::vector<std::string>& damaged);

// ---- Writing models (docs/formats/edf_mdb.md "Writing models") -------------------------
// The whole file as records. WriteStored lays them out in the stock order: header, names,
// bones, textures, materials (each followed by its parameters and slots), objects, per object
// its mesh headers each followed by its layout, every index buffer then every vertex buffer
// (each 16-aligned), the 8-bit pool (sorted, unique, then 2-aligned), the UTF-16 pool (sorted,
// unique). Counts and offsets are computed from what the records hold.
struct StoredFile {
  uint32_t version = kVersionEdf5;
  std::vector<std::optional<std::u16string>> names;  // nullopt: an empty slot (offset 0)
  std::vector<Bone> bones;
  std::vector<StoredTexture> textures;
  std::vector<StoredMaterial> materials;
  std::vector<StoredObject> objects;
};
// Every record of a parsed file; throws Error for a record that does not read.
StoredFile ReadStored(const File& file);
// The file in the stock order; Parse(WriteStored(ReadStored(f))) of a stock file is f's bytes.
Bytes WriteStored(const StoredFile& stored);

// How a scene becomes an MDB (animkit convert ... .mdb, the Python module).
struct WriteOptions {
  uint32_t version = 0;  // without a template: kVersionEdf5 or kVersionEdf6 (0: EDF5)
  // Without a template: bones by name from this skeleton (--skeleton); nullptr: the scene's.
  const Skeleton* skeleton = nullptr;
  // The template's images as decoded (for telling changed ones); nullptr: read through
  // template_textures (may be empty: every image given is then written).
  const std::vector<Image>* template_images = nullptr;
  TextureReader template_textures;
};
struct WriteResult {
  Bytes mdb;
  std::vector<std::pair<std::string, Bytes>> textures;  // DDS files to write beside the model
  std::vector<std::string> warnings;
  size_t kept_meshes = 0, rebuilt_meshes = 0, new_meshes = 0, deleted_meshes = 0;
};
// The scene written into the template: meshes matched by their metadata "object" and
// "mesh_index" (what DecodeModel sets), else by name; an unedited mesh keeps its bytes, an
// edited one is rebuilt with the template's declared layout, a new one takes the layout of a
// template mesh of the same kind; every record not edited is kept as stored.
WriteResult WriteModel(const Scene& scene, const File& templ, const WriteOptions& options);
// A new model in the stock layout of options.version; limits checked (errors name the mesh).
WriteResult WriteModel(const Scene& scene, const WriteOptions& options);
// The joints of skeleton in the order a new model stores its bones: depth-first pre-order
// (the engine derives subtree ranges from it).
std::vector<size_t> BoneOrder(const Skeleton& skeleton);

// ---- DDS textures ------------------------------------------------------------------------
// Mip 0 of a DDS: uncompressed RGB(A) by its bit masks, BC1/BC2/BC3 (libsquish). Other
// formats (BC7 among them) give an Image with `missing` set; a damaged file throws Error.
Image DecodeDds(ByteView data, const std::string& name);
enum class DdsEncoding { Bgra8, Bc1, Bc3 };
Bytes EncodeDds(const Image& image, DdsEncoding encoding);

// The metadata keys a decoded MDB holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kMdbVersion[] = "mdb_version";  // scene: the file's version word
inline constexpr std::array kScene{kSourceFormatKey, kMdbVersion};
}  // namespace metadata_keys

}  // namespace animkit::edf_mdb
