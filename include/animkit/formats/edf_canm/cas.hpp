// Earth Defense Force CAS animation set (EDF 4.1: 0x200, EDF 5: 0x203, EDF 6: 0x204). Little-endian.
// A 0x30-byte header (absolute offsets): "CAS\0", version, the embedded CANM's offset (16-aligned),
// count/offset of the tcontrol (0x0C), vcontrol (0x14), anmgroup (0x0C) and bone (4) tables, and the
// offset of the unnamed datagroup. Every other offset counts from the record holding it; names are
// i32 offsets from the record to UTF-16LE strings. An anmgroup ("player") holds an array of mcanm
// (0x24: state) records; an mcanm names a first anmdata (0x20), an array of more anmdata and three
// datagroups; a datagroup (8: count, data offset) is followed by its data records (0x24 in 4.1,
// 0x34 in 5 and 6: a command id and its arguments). The CANM's strings end it; the set's own
// strings follow. docs/formats/edf_cas.md has the tables and their sources.
//
// A File keeps the bytes it was read from (`image`) and every parsed field with its place;
// Serialize writes the image with each field written back at its place (Serialize(Parse(x)) == x).
// Emit lays a File out afresh in the game's serialisation order (what the game's files follow).
#pragma once

#include <animkit/formats/edf_canm.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animkit::edf_canm::cas {

inline constexpr uint32_t kVersion41 = 0x200;  // EDF 4.1, CANM 512
inline constexpr uint32_t kVersion5 = 0x203;   // EDF 5, CANM 512
inline constexpr uint32_t kVersion6 = 0x204;   // EDF 6, CANM 768 (the only one EDF 6 loads)
inline constexpr size_t kHeaderSize = 0x30;
inline constexpr size_t kTControlSize = 0x0C, kVControlSize = 0x14, kAnmGroupSize = 0x0C, kMcanmSize = 0x24;
inline constexpr size_t kAnmDataSize = 0x20, kDataGroupSize = 0x08, kBoneSize = 0x04;
inline constexpr size_t kDataSize41 = 0x24, kDataSize = 0x34;
inline constexpr size_t kCanmAlignment = 16;

// What a record's name offset (i32, from the record) reaches: the string it reaches (UTF-8, read-only) and
// where that string lies, so a layout that moves records or the CANM can re-aim it.
struct Name {
  enum class Place { None, Strings, Canm, Elsewhere };
  std::string text{};
  Place place = Place::None;  // None: offset 0
  size_t at = 0;              // Strings: from the set's string blob; Canm: from the CANM; else absolute
};

struct TControl {
  size_t at = 0;  // the record's offset in the file
  int32_t name_offset = 0;  // from the record
  Name name{};
  uint32_t word_count = 0;
  int32_t words_offset = 0;     // from the record
  std::vector<uint32_t> words{};  // CANM clip indices
};

struct VControl {
  size_t at = 0;
  int32_t name_offset = 0;  // from the record
  Name name{};
  int32_t value0 = 0, value1 = 0;  // meanings unknown
  float value2 = 0;
  int32_t value3 = 0;
};

struct Data {
  size_t at = 0;
  uint32_t command = 0;
  std::array<uint32_t, 8> args{};       // +0x04..+0x24 (every version)
  std::array<uint32_t, 4> args_tail{};  // +0x24..+0x34 (EDF 5 and 6)
};

struct DataGroup {
  size_t at = 0;
  uint32_t count = 0;
  int32_t data_offset = 8;  // from the group; data follows it
  std::vector<Data> data{};
};

struct AnmData {
  size_t at = 0;
  int32_t value0 = 0;
  float time = 0;
  int32_t group_offset = 0;  // from the record; 0 = none
  uint32_t type_a = 0, value_a = 0, type_b = 0, value_b = 0, tail = 0;
  std::optional<DataGroup> group{};
};

struct Mcanm {
  size_t at = 0;
  int32_t name_offset = 0;  // from the record
  Name name{};
  int32_t first_offset = 0;  // from the record; 0 = none
  uint32_t more_count = 0;
  int32_t more_offset = 0;  // from the record
  std::array<int32_t, 3> group_offsets{};  // from the record; 0 = none
  uint32_t type = 0;  // 0: value is an f32, 1: an i32, 2: a tcontrol index
  uint32_t value = 0;
  std::optional<AnmData> first{};
  std::vector<AnmData> more{};
  std::array<std::optional<DataGroup>, 3> groups{};
};

struct AnmGroup {
  size_t at = 0;
  int32_t name_offset = 0;  // from the record
  Name name{};
  uint32_t mcanm_count = 0;
  int32_t mcanm_offset = 0;  // from the record
  std::vector<Mcanm> mcanms{};
};

struct Bone {
  size_t at = 0;
  int32_t name_offset = 0;  // from the record
  Name name{};
};

struct File {
  uint32_t version = kVersion6;
  uint32_t canm_offset = 0;
  uint32_t tcontrol_count = 0, tcontrol_offset = 0;
  uint32_t vcontrol_count = 0, vcontrol_offset = 0;
  uint32_t anmgroup_count = 0, anmgroup_offset = 0;
  uint32_t bone_count = 0, bone_offset = 0;
  uint32_t unnamed_group_offset = 0;  // 0 = none
  std::vector<TControl> tcontrols{};
  std::vector<VControl> vcontrols{};
  std::vector<AnmGroup> anmgroups{};
  std::vector<Bone> bones{};
  std::optional<DataGroup> unnamed_group{};
  Bytes canm_bytes{};         // the embedded CANM, to the end of its furthest string
  std::optional<edf_canm::File> canm{};  // parsed (nullopt when damaged)
  Bytes strings{};            // the set's own strings: everything after the CANM
  Bytes image{};              // the file's bytes (empty for a File built in memory)
  std::vector<std::string> warnings{};  // what the game never checks, with offsets
  std::vector<std::string> damaged{};   // parts that could not be read, with offsets
  size_t data_size() const { return version == kVersion41 ? kDataSize41 : kDataSize; }
};

// Reads every table. A damaged part (a tcontrol, an anmgroup, the CANM) is listed in
// File::damaged and the rest is read; an unreadable header is an Error with its offset.
File Parse(ByteView data);
// The image with every parsed field written back at its place.
Bytes Serialize(const File& file);
// The set laid out in the game's serialisation order: header, tcontrols, their words (in
// tcontrol name order), vcontrols, bones, the unnamed group, anmgroups, then per anmgroup in
// name order its mcanm array and per mcanm its first anmdata, its group, the more array, their
// groups, the three groups; padding to 16; canm_bytes; strings. Every name is re-aimed; an empty
// array points where it would start. An Error when a name points into the tables.
Bytes Emit(const File& file);

// Appends a UTF-16LE string to file.strings and returns a name aimed at it (Emit sets offsets).
Name AddString(File& file, const std::string& utf8);
// The end of a CANM that starts at canm: the furthest end of any string it names, else its
// last table's end.
size_t CanmExtent(ByteView canm);

// Clip order as a contract: old clip i becomes new clip map[i] (nullopt: removed). Tcontrol
// words follow; a word naming a removed clip becomes 0xFFFFFFFF and is reported.
void RemapClips(File& file, const std::vector<std::optional<uint32_t>>& map, const std::vector<std::string>& old_names,
                std::vector<std::string>& warnings);

// EDF 4.1 / 5 -> 6 (the set's part): version 0x204, 0x34 data records, command ids renumbered
// (an id with no known EDF 6 number is an Error with its record's offset), stale slots zeroed.
// canm_bytes is left as it is (the caller converts the CANM).
void ConvertTablesTo6(File& file);
// A command id in EDF 6's numbering; nullopt when no rule is known.
std::optional<uint32_t> Command6(uint32_t version, uint32_t command);

namespace metadata_keys {
inline constexpr char kCasVersion[] = "cas_version";  // scene: the set's version
inline constexpr char kCas[] = "cas";                 // scene: the set's tables (a summary)
inline constexpr char kAdditive[] = "additive";       // clip: true for the `*_add` clips
}  // namespace metadata_keys

}  // namespace animkit::edf_canm::cas
