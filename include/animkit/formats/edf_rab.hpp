// Earth Defense Force RAB / MRAB archive ("SSA\0", version 0x110) and its CMPL-compressed
// members. Little-endian except the CMPL header's raw size (big-endian).
// Header 0x28: "SSA\0", u32 version, u32 data start (= end of the name pool), u32 max stored
// size, u32 max raw size, u32 member count, u32 member table offset (0x28), u32 sorted index
// offset, u32 folder count, u32 folder table offset.
// Member 0x20: i32 name offset (from the entry), u32 stored size, u32 folder index, u32 flag
// (1 in the HD-TEXTURE folder), u32[2] time stamp (zero in stock EDF6 archives), u32 data
// offset, u32 data offset high word (absolute).
// Sorted index 8: i32 name offset (from the entry), u32 member index. Folder entry 4: i32 name
// offset (from the entry). One UTF-16 pool of folder and member names, then the stored data.
// docs/formats/edf_rab.md has the layout and its sources.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace animkit::edf_rab {

inline constexpr uint32_t kVersion = 0x110;
inline constexpr size_t kHeaderSize = 0x28, kMemberSize = 0x20, kIndexSize = 8, kFolderSize = 4;
inline constexpr size_t kCmplHeaderSize = 8;
inline constexpr char kHdTextureFolder[] = "HD-TEXTURE";

// ---- CMPL ------------------------------------------------------------------------------
// "CMPL" + u32 big-endian raw size + an LZSS stream (4096-byte ring zeroed at 0..0xFED, write
// position 0xFEE, flags LSB first, 1 = literal, match = 12-bit absolute ring position b0<<4 |
// b1>>4 and length (b1 & 0xF) + 3).
bool IsCmpl(ByteView data);
// The declared raw size of a CMPL stream; Error when data is shorter than the header.
uint32_t CmplRawSize(ByteView data);
// The raw bytes; Error naming the offset for a stream that ends early or overruns the raw size,
// and for a raw size over the limit max-member-bytes.
Bytes Decompress(ByteView data, const Limits& limits = {});
// Bit-exact with the game's encoder (Okumura's 1989 LZSS binary-tree encoder, ring zero-filled).
Bytes Compress(ByteView raw);

// ---- Archive -----------------------------------------------------------------------------
struct Header {
  uint32_t version = kVersion;
  uint32_t data_start = 0;
  uint32_t max_stored = 0, max_raw = 0;
  uint32_t member_count = 0, member_offset = uint32_t(kHeaderSize);
  uint32_t index_offset = 0;
  uint32_t folder_count = 0, folder_offset = 0;
};

struct MemberRecord {
  int32_t name_offset = 0;
  uint32_t stored_size = 0;
  uint32_t folder = 0;
  uint32_t flag = 0;
  std::array<uint32_t, 2> time{};
  uint32_t data_offset = 0, data_offset_high = 0;
  // Read-only, from the file:
  size_t at = 0;            // the record's offset
  std::string name;         // UTF-8
  std::string folder_name;  // "" when the folder index names no folder
  bool readable = false;    // name and data lie within the file
};

struct IndexRecord {
  int32_t name_offset = 0;
  uint32_t member = 0;
  size_t at = 0;
  std::string name;
};

struct FolderRecord {
  int32_t name_offset = 0;
  size_t at = 0;
  std::string name;
};

struct File {
  Header header;
  std::vector<MemberRecord> members;
  std::vector<IndexRecord> index;
  std::vector<FolderRecord> folders;
  std::vector<std::string> warnings;  // rules the game never checks that the file breaks
  std::vector<std::string> damaged;   // members whose name or data lie outside the file
  uint64_t pool_end = 0;              // read-only: the end of the last name string (or of the tables)
  Bytes image;                        // the file's bytes
};

// The header and tables must fit (else Error with the offset); a member whose name or data
// does not is listed in `damaged` and left unreadable, the rest read.
File Parse(ByteView data);
// The image with every header and record field written back at its place.
Bytes Serialize(const File& file);
// A readable member's stored bytes; Error for an unreadable one or an index out of range.
ByteView StoredBytes(const File& file, size_t member);
// The member's raw size: the CMPL header's for a CMPL member, else its stored size.
uint64_t RawSize(const File& file, size_t member);

// What the builder packs: bytes are the member's unpacked bytes, stored CMPL-compressed when
// compress is set.
struct BuildMember {
  std::string folder, name;
  Bytes bytes;
  bool compress = false;
};
// An archive laid out as the stock ones are: folders in order of first use, member table at
// 0x28, sorted index, folder table, one UTF-16 pool sorted by code point and de-duplicated,
// data unaligned in member order from the end of the pool, time stamps zero, flag 1 for
// HD-TEXTURE members.
Bytes Build(const std::vector<BuildMember>& members);
// The same from members already stored (CMPL streams kept as given).
Bytes BuildStored(const std::vector<BuildMember>& stored);
// file's bytes with member `index` holding `stored` (already packed): later data moves, data
// offsets and the max sizes follow, every other byte stays.
Bytes ReplaceStored(const File& file, size_t index, ByteView stored);

// The metadata keys a decoded archive holds: its model's, and which member the model is.
namespace metadata_keys {
inline constexpr char kMdbVersion[] = "mdb_version";         // the model member's version word
inline constexpr char kModelMember[] = "rab_model_member";   // the member decoded ("" when none)
inline constexpr std::array kScene{kSourceFormatKey, kMdbVersion, kModelMember};
}  // namespace metadata_keys

}  // namespace animkit::edf_rab
