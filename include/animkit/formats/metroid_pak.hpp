// Metroid Prime 1/2 PAK archive (GameCube). Big-endian.
// u32 version 0x00030005, u32 0, u32 named count, the named table ({FourCC, u32 id, u32 length,
// name}), u32 resource count, the resource table ({u32 compressed, FourCC, u32 id, u32 size,
// u32 offset}, 20 bytes each), then the data from the next multiple of 32, each entry padded with
// 0xFF to 32. A compressed entry is a u32 unpacked size then a zlib stream (MP1) or s16-length
// segments of LZO1X, raw bytes or zlib (MP2). docs/formats/metroid_pak.md has the layout and its sources.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace animkit::metroid_pak {

inline constexpr uint32_t kVersion = 0x00030005;
inline constexpr size_t kHeaderSize = 12, kNamedFixedSize = 12, kCountSize = 4, kResourceSize = 20;
inline constexpr size_t kAlignment = 32;
inline constexpr uint8_t kPadByte = 0xFF;
inline constexpr size_t kSegmentBlock = 0x4000;  // what one MP2 segment unpacks to (the last: at most)

using FourCC = std::array<char, 4>;

struct Header {
  uint32_t version = kVersion;
  uint32_t unused = 0;
  uint32_t named_count = 0;
};

struct NamedEntry {
  FourCC type{};
  uint32_t id = 0;
  uint32_t name_length = 0;
  std::string name;  // as stored: no NUL
  size_t at = 0;     // the record's offset (read-only)
};

struct Resource {
  uint32_t compressed = 0;  // 0 or 1
  FourCC type{};
  uint32_t id = 0;
  uint32_t size = 0;    // stored bytes, padding included
  uint32_t offset = 0;  // absolute
};

struct File {
  Header header;
  std::vector<NamedEntry> names;
  uint32_t resource_count = 0;
  std::vector<Resource> resources;  // in table order; a repeated id is kept, each its own entry
  size_t resource_count_at = 0;     // the resource count's offset (read-only)
  std::vector<std::string> warnings;
  ByteView image;  // the file's bytes, kept alive by owner
  std::shared_ptr<const void> owner;
};

// How an entry's data is stored.
enum class Packing { Raw, Zlib, Segments };

// Every table must fit and every entry lie within the file, else Error naming the offset.
// owner: what keeps data alive (ReadContext::bytes_owner); none: the bytes are copied.
File Parse(ByteView data, std::shared_ptr<const void> owner = nullptr);
// The image with the header and every table record written back at its place.
Bytes Serialize(const File& file);
// "<ID>.<TYPE>": the id as 8 upper-case hex digits, the FourCC as stored.
std::string MemberName(const Resource& resource);
// The entry's stored bytes (size bytes at offset); Error for an index out of range.
ByteView StoredData(const File& file, size_t index);
// Raw, or for a compressed entry the packing its stream starts with (a zlib header: MP1).
Packing PackingOf(const File& file, size_t index);
// The unpacked size: the stated u32 of a compressed entry, else the stored size.
uint64_t UnpackedSize(const File& file, size_t index);
// The entry's bytes unpacked (a raw entry: its stored bytes, padding included). Errors name the
// entry and the absolute offset; the stated size is checked against limits first.
Bytes Unpack(const File& file, size_t index, const Limits& limits);

// A compressed entry's data (u32 size, then the stream) unpacked: the stated size checked
// against max_member_bytes before allocating; a stream that gives more or fewer bytes than
// stated is an Error whose offset is within `stored`.
Bytes Decompress(ByteView stored, const Limits& limits);
// u32 size + the stream, unpadded: one zlib stream (MP1), or segments of at most 0x4000
// unpacked bytes each, LZO1X or raw when LZO does not shrink the block (MP2).
Bytes Compress(ByteView bytes, Packing packing);

// file's bytes with entry `index` holding `bytes`, packed as the entry was, 0xFF-padded so that
// every later offset keeps its alignment; later entries move, no other byte changes. Error when
// another entry shares bytes with the replaced data.
Bytes Replace(const File& file, size_t index, ByteView bytes);

// What the builder packs, in this order.
struct BuildMember {
  FourCC type{};
  uint32_t id = 0;
  Bytes bytes = {};                 // unpacked
  Packing packing = Packing::Raw;   // Zlib: MP1's compression, Segments: MP2's
  std::vector<std::string> names = {};  // named-table entries for it, in order
};
// A PAK laid out as the stock ones are: header, every member's names, the resource table, the
// data from the next multiple of 32, each member's stored bytes 0xFF-padded to 32.
Bytes Build(const std::vector<BuildMember>& members);

namespace metadata_keys {
inline constexpr char kMemberCount[] = "pak_member_count";  // the PAK's resource count
inline constexpr char kCharacterSet[] = "pak_character_set";  // the ANCS member a character comes from
inline constexpr std::array kScene{kSourceFormatKey, kMemberCount, kCharacterSet};
}  // namespace metadata_keys

}  // namespace animkit::metroid_pak
