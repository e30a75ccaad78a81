// Earth Defense Force MDB model, read for its skeleton. Little-endian.
// Header 0x30: "MDB0", u32 version (0x14 in EDF 4.1/5 files, 0x20 in EDF 6; kept
// verbatim), then count/offset pairs (absolute) of the name table, the bone records,
// the objects (meshes), the materials and the textures.
// Name entry: u32 offset from the entry of a zero-terminated UTF-16LE string (0: no name).
// Bone record, 0xC0 bytes: u32 index, i32 parent (-1: none), i32 next sibling, i32 first
// child, u32 name index, u32 child count, u8 group, u8 unknown, u8 unknown flag,
// u8[5] padding, f32[16] parent-relative local matrix, f32[16] inverse bind matrix,
// f32[8] unknown (matrices stored column by column, translation in floats 12..14).
// Meshes, materials and textures are not interpreted: they stay in `image`, and
// Serialize writes the image with every parsed field written back at its place.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <string>
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

// The metadata keys a decoded MDB holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kMdbVersion[] = "mdb_version";  // scene: the file's version word
inline constexpr std::array kScene{kSourceFormatKey, kMdbVersion};
}  // namespace metadata_keys

}  // namespace animkit::edf_mdb
