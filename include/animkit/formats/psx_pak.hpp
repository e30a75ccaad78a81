// Vib-Ribbon (PS1) PAK archive. Little-endian, uncompressed.
// u32 count, u32 offsets[count] (absolute; the first is 4 + 4 * count in stock files), then at
// each offset an entry: the path ('/' separators) NUL-terminated and zero-padded so that name +
// NUL fill a multiple of 4 bytes, u32 data length, the data zero-padded to 4.
// docs/formats/psx_pak.md has the layout and its sources.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace animkit::psx_pak {

inline constexpr size_t kCountSize = 4, kOffsetSize = 4, kLengthSize = 4, kAlignment = 4;

struct Header {
  uint32_t count = 0;
};

struct Entry {
  uint32_t offset = 0;  // the offset table's value: where the entry starts
  uint32_t length = 0;  // the data length, after the padded path
  // Read-only, from the file:
  std::string path;     // as stored
  size_t length_at = 0;  // the length field's offset (after the padded path)
  size_t data_at = 0;    // the data's offset
  size_t end = 0;        // the end of the data and its padding (clipped to the file)
};

struct File {
  Header header;
  std::vector<Entry> entries;          // in table order (not sorted)
  std::vector<std::string> warnings;   // gaps, overlaps, non-zero padding: kept, never checked by the game
  ByteView image;                       // the file's bytes, kept alive by owner
  std::shared_ptr<const void> owner;
};

// Every entry must lie within the file (else Error naming the offset that points outside);
// gaps, overlaps and non-zero padding are warnings, their bytes kept. owner: what keeps data
// alive (a mapped file, ReadContext::bytes_owner), so that a large PAK is not copied; none:
// the bytes are copied.
File Parse(ByteView data, std::shared_ptr<const void> owner = nullptr);
// The image with the count, every offset and every length written back at its place.
Bytes Serialize(const File& file);
// Entry `index`'s data; Error for an index out of range.
ByteView MemberData(const File& file, size_t index);

// What the builder packs, in this order.
struct BuildMember {
  std::string path;
  Bytes bytes;
};
// A PAK laid out as the stock ones are: count, offsets, entries back to back, each path and
// each member's data zero-padded to 4.
Bytes Build(const std::vector<BuildMember>& members);
// file's bytes with entry `index` holding `bytes` (zero-padded to 4): later entries move, the
// offsets that point past the old data follow, every other byte stays. Error when another
// entry shares bytes with the replaced data.
Bytes Replace(const File& file, size_t index, ByteView bytes);

namespace metadata_keys {
inline constexpr char kMemberCount[] = "pak_member_count";  // the scene of a PAK is empty: its count
inline constexpr std::array kScene{kSourceFormatKey, kMemberCount};
}  // namespace metadata_keys

}  // namespace animkit::psx_pak
