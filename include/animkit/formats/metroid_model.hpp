// Metroid Prime CMDL models and CSKR skin rules (big-endian; docs/formats/metroid_cmdl.md).
// Every byte of a file is held (padding and unknown fields too), so Serialize(Parse(b)) == b.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/format.hpp>
#include <animkit/core/model.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace animkit::metroid_model {

inline constexpr uint32_t kCmdlMagic = 0xDEADBABE;
inline constexpr uint32_t kCmdlVersionMp1 = 2;
inline constexpr uint32_t kCmdlVersionMp2 = 4;
inline constexpr uint32_t kFlagSkinned = 0x1;
inline constexpr uint32_t kFlagShortNormals = 0x2;
inline constexpr uint32_t kFlagShortUvs = 0x4;
inline constexpr uint32_t kMaterialKonst = 0x8;
inline constexpr uint32_t kMaterialIndirect = 0x400;
inline constexpr uint32_t kMaterialShortUvTex0 = 0x2000;
inline constexpr uint32_t kDisplayListSizeMask = 0x7FFFFFFF;
inline constexpr uint8_t kNoSlot = 0xFF;

// The fixed header (0x00-0x2B); the section sizes follow it.
struct CmdlHeader {
  uint32_t magic = kCmdlMagic;
  uint32_t version = kCmdlVersionMp1;
  uint32_t flags = 0;
  std::array<float, 6> bounds{};  // min xyz, max xyz
  uint32_t section_count = 0;
  uint32_t material_set_count = 0;
};

struct TevStage {
  uint32_t color_inputs = 0, alpha_inputs = 0, color_op = 0, alpha_op = 0;
  uint8_t pad = 0, konst_alpha = 0, konst_color = 0, raster = 0;
};

// What one TEV stage samples: a texture slot and a texgen (0xFF: none).
struct TevTexture {
  uint16_t pad = 0;
  uint8_t texture_slot = kNoSlot;
  uint8_t texgen = kNoSlot;
};

struct UvAnimation {
  uint32_t mode = 0;
  std::vector<float> params;  // 0, 2, 4 or 9 by mode
};

// One material, in file order; trailing: bytes before its end offset that no field holds.
struct CmdlMaterial {
  uint32_t flags = 0;
  std::vector<uint32_t> texture_slots;  // indices into the set's texture ids
  uint32_t vertex_attributes = 0;       // 2 bits per GX attribute, bits 24-31 matrix indices
  std::array<uint32_t, 2> mp2_unknown{};  // version >= 3 only
  uint32_t group = 0;
  std::vector<uint32_t> konst_colors;  // flags & 0x8
  uint16_t blend_dst = 0, blend_src = 0;
  uint32_t indirect_slot = 0;  // flags & 0x400
  std::vector<uint32_t> color_channels;
  std::vector<TevStage> stages;
  std::vector<TevTexture> stage_textures;  // one per stage
  std::vector<uint32_t> texgens;
  uint32_t uv_animation_size = 0;  // bytes after this field: 4 + the entries
  std::vector<UvAnimation> uv_animations;
  Bytes trailing;
};

struct MaterialSet {
  std::vector<uint32_t> texture_ids;  // TXTR asset ids
  std::vector<uint32_t> end_offsets;  // each material's end, from the first material
  std::vector<CmdlMaterial> materials;
  Bytes trailing;  // section padding
};

// A section of fixed-size elements: the elements the size holds, then what is left over.
template <class T>
struct ArraySection {
  std::vector<T> values;
  Bytes trailing;
};

// One GX primitive: opcode (kind | VAT), vertex count, and per vertex one index (or u8
// matrix index) per attribute the material's layout names, in GX order.
struct Primitive {
  uint8_t opcode = 0;
  uint16_t vertex_count = 0;
  std::vector<uint16_t> values;  // vertex_count x VertexLayout::attributes.size()
};

// The surface header's fixed fields (0x00-0x2B).
struct SurfaceHeader {
  std::array<float, 3> centre{};
  uint32_t material = 0;
  uint32_t display_list_size = 0;  // low 31 bits; bit 31 the normal hint
  uint32_t parent = 0, next = 0;   // runtime pointers
  uint32_t extra_size = 0;
  std::array<float, 3> normal{};
};

struct Surface {
  SurfaceHeader header;
  int16_t matrix_bank = 0;  // version >= 3
  uint16_t group = 0;       // version >= 3
  Bytes extra;              // extra_size bytes
  Bytes header_padding;     // up to the 32-byte aligned display list
  std::vector<Primitive> primitives;
  Bytes list_tail;  // the rest of the display list after the last primitive (its 0 and padding)
  Bytes trailing;   // section bytes after the display list
  size_t at = 0;    // file offset of the surface (messages)
  size_t list_at = 0;
};

struct CmdlFile {
  CmdlHeader header;
  std::vector<uint32_t> section_sizes;
  Bytes header_padding;  // up to the 32-byte aligned first section
  std::vector<MaterialSet> material_sets;
  ArraySection<std::array<float, 3>> positions;
  ArraySection<std::array<float, 3>> float_normals;    // flags bit1 clear
  ArraySection<std::array<int16_t, 3>> short_normals;  // flags bit1 set
  ArraySection<uint32_t> colors;
  ArraySection<std::array<float, 2>> float_uvs;
  ArraySection<std::array<uint16_t, 2>> short_uvs;  // flags bit2 set
  std::vector<uint32_t> surface_ends;
  Bytes surface_table_trailing;
  std::vector<Surface> surfaces;
  Bytes trailing;  // after the last section
  bool Mp2() const { return header.version >= 3; }
  bool ShortNormals() const { return (header.flags & kFlagShortNormals) != 0; }
  bool HasShortUvs() const { return (header.flags & kFlagShortUvs) != 0; }
};

// GX attributes of a vertex, in the order the display list stores them.
enum class Attribute : uint8_t { MatrixIndex, TexMatrixIndex, Position, Normal, Color0, Color1, Tex };
struct VertexAttribute {
  Attribute kind;
  uint8_t set = 0;    // Tex: UV set 0..7; TexMatrixIndex: 0..6
  uint8_t width = 2;  // bytes: 1 (u8 or index8) or 2 (index16)
};
struct VertexLayout {
  std::vector<VertexAttribute> attributes;
  size_t stride = 0;  // bytes per vertex
  int Find(Attribute kind, uint8_t set = 0) const;  // index into attributes, -1 when absent
};
// The layout a material's vertex-attribute flags give; Error (naming at) for direct data.
VertexLayout LayoutOf(uint32_t vertex_attributes, size_t at);

// Primitive kinds (opcode & 0xF8).
inline constexpr uint8_t kQuads = 0x80, kTriangles = 0x90, kStrip = 0x98, kFan = 0xA0, kLines = 0xA8,
                         kLineStrip = 0xB0, kPoints = 0xB8;

CmdlFile ParseCmdl(ByteView data);
Bytes SerializeCmdl(const CmdlFile& file);
// Lays out a model built in code: the counts, section sizes, material and surface end
// offsets, display-list sizes and zero paddings its records imply (every list ends in a 0).
void LayOutCmdl(CmdlFile& file);

// The triangles of one primitive in GX order (counter-clockwise around the stored normals,
// as glTF's), as positions in the primitive's vertex list; lines likewise.
void Triangulate(const Primitive& p, std::vector<uint32_t>& triangles, std::vector<uint32_t>& lines);

// "5B97098E.TXTR": the file a TXTR asset id is looked for as.
std::string TxtrFileName(uint32_t id);

// Reads a side file by name ("5B97098E.TXTR"); nullopt with why set when absent.
using SideFileReader = std::function<std::optional<Bytes>(const std::string& name, std::string& why)>;
// A texture as the model's material names it: the decoded image (rows top to bottom) and
// whether its rows were flipped from the stored order (then v' = 1 - v).
struct DecodedTexture {
  Image image;
  bool rows_flipped = false;
};
// The TXTR of id, read with reader and decoded; a Missing Image (reason set) when it
// cannot be had.
DecodedTexture ReadTexture(uint32_t id, const SideFileReader& reader);

// ---- CSKR ----
struct SkinWeight {
  uint32_t bone_id = 0;
  float weight = 0;
};
struct WeightGroup {
  std::vector<SkinWeight> weights;
  uint32_t vertex_count = 0;
};
// A footer count: -1 then the real count, or the count then count x 3 u32 of copied data.
struct SkinFooterCount {
  int32_t stored = -1;
  uint32_t count = 0;
  std::vector<uint32_t> copy;  // 3 per element when stored >= 0
  uint32_t Count() const { return stored < 0 ? count : uint32_t(stored); }
};
struct CskrFile {
  std::vector<WeightGroup> groups;
  bool mp2 = false;  // matrix-index list and per-position map instead of the MP1 footer
  SkinFooterCount positions, normals;  // MP1
  std::vector<int16_t> matrix_indices;  // MP2
  std::vector<uint8_t> position_groups; // MP2: weight group per position
  Bytes trailing;
};
CskrFile ParseCskr(ByteView data);
Bytes SerializeCskr(const CskrFile& file);
// The weight group of each position (MP1: groups cover the positions in order; MP2: the
// map); Error when the groups do not cover position_count.
std::vector<uint32_t> GroupOfPositions(const CskrFile& skin, size_t position_count);

// Decodes a CMDL to meshes, materials and textures. reader gives the TXTRs (may be empty:
// every texture is then missing); skin and rig (the CINF scene, with its bone_ids) skin it.
struct CmdlDecodeInput {
  SideFileReader reader;
  const CskrFile* skin = nullptr;
  const Scene* rig = nullptr;
};
Scene DecodeCmdl(const CmdlFile& file, const CmdlDecodeInput& input, std::vector<std::string>& warnings);

// ---- writing (docs/formats/metroid_cmdl.md, "Writing") ----
// What the CMDL writer takes besides the scene: the model's asset id (the skin's and the
// textures' ids derive from it: DerivedId) and CINF bone ids by joint name (joints it lacks
// take the CINF writer's rule: "#N" is N, the rest numbered from 3).
struct CmdlEncodeSettings {
  uint32_t model_id = 0;
  std::vector<std::pair<std::string, uint32_t>> bone_ids;
};
struct EncodedTexture {
  uint32_t id = 0;
  Bytes bytes;         // the TXTR file
  std::string format;  // its texel format ("CMPR", "RGB565")
};
// A model as records (laid out, written by SerializeCmdl), its skin when the meshes are
// skinned (or rigid on joints), and one TXTR per texture its materials use.
struct CmdlEncoded {
  CmdlFile model;
  std::optional<CskrFile> skin;
  uint32_t skin_id = 0;
  std::vector<EncodedTexture> textures;  // in the material set's order
  std::vector<std::string> warnings;
};
// skeleton: what the meshes' joints index (the scene's, or the rig's when it has none).
CmdlEncoded EncodeCmdl(const Scene& scene, const Skeleton& skeleton, const CmdlEncodeSettings& settings);
// The id of a file that belongs to a model: FNV-1a (32 bits) of "<model id as 8 upper-case
// hex digits>/<tag>" (tag "CSKR", "TXTR0", "TXTR1", ...), never 0 or 0xFFFFFFFF.
uint32_t DerivedId(uint32_t model_id, std::string_view tag);
// The model id a file name gives: its stem when that is 8 hex digits, else FNV-1a of the
// upper-cased stem (never 0 or 0xFFFFFFFF).
uint32_t ModelIdOfName(std::string_view stem);

namespace metadata_keys {
inline constexpr char kCmdlVersion[] = "cmdl_version";
inline constexpr char kCmdlFlags[] = "cmdl_flags";
inline constexpr char kMaterialFlags[] = "material_flags";
inline constexpr char kMaterialIndex[] = "material_index";
inline constexpr char kTextureId[] = "texture_id";
}  // namespace metadata_keys

}  // namespace animkit::metroid_model
