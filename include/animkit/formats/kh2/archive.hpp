// Kingdom Hearts II BAR archives (ANB = motion + triggers, MSET = a BAR of ANBs, MDLX = a
// BAR holding a model and its textures), nested at any depth. Every entry keeps its bytes;
// bytes no table covers are Gap records, so SerializeBar(ParseBar(x)) == x. A BAR entry's
// offsets count from its BAR's start. See docs/formats/kh2.md, "Archives".
#pragma once

#include <animkit/formats/kh2/model_entry.hpp>
#include <animkit/formats/kh2/motion.hpp>

#include <memory>

namespace animkit::kh2 {

inline constexpr uint16_t kEntryModel = 4;
inline constexpr uint16_t kEntryTexture = 7;  // textures of the model (formats/kh2/model.hpp)
inline constexpr uint16_t kEntryMotion = 9;
inline constexpr uint16_t kEntryTriggers = 16;
inline constexpr uint16_t kEntryAnb = 17;
inline constexpr uint16_t kEntrySubArchive = 0x14;  // a nested BAR of other entries (an MSET's moveset of ANB slots)
// Types OpenKH's BAR documentation lists as binary archives: read as nested archives
// when their data starts with the BAR magic, else kept as bytes.
inline constexpr uint16_t kEntryBinaryArchive = 1;
inline constexpr uint16_t kEntryMapArchive = 30;
inline constexpr uint16_t kEntryOtherArchive = 46;

struct Bar;

// An entry of the table after the 16-byte header: its record as stored (16 bytes: u16 type,
// u16 duplicate flag, 4 name bytes, u32 offset, u32 size), then what the reader made of it.
struct BarEntry {
  uint16_t type = 0;
  uint16_t duplicate = 0;
  std::array<char, 4> name{};
  uint32_t offset = 0, size = 0;

  // The parsed payload: one of these, by type (a zero-size entry is an empty slot).
  std::shared_ptr<Motion> motion;
  std::shared_ptr<Triggers> triggers;
  std::shared_ptr<Bar> bar;
  std::shared_ptr<Model> model;
  Bytes raw;  // other types, and damaged entries
  // Why the entry could not be read (empty: it was). A damaged entry keeps the bytes the
  // file holds for it in raw (fewer than size when the file ends inside it) and gives no
  // clip; the rest of the archive reads, decodes and writes back as usual.
  std::string damage;
  bool Damaged() const { return !damage.empty(); }
  std::string Name() const;
  bool IsDummy() const { return Name() == "DUMM"; }  // trailing zeros trimmed; bytes outside printable ASCII as %XX
};

struct Bar {
  uint32_t reserved = 0;   // u32 at 0x08: a flags word in P_EX MSETs, else 0
  int32_t mset_type = 0;   // i32 at 0x0C
  std::vector<BarEntry> entries;
  // The size the enclosing entry declares (the file's size at the top). Entries may run
  // past it as far as the enclosing data goes (modding tools rewrite triggers without
  // updating the outer size); the writer then writes those bytes too, and the enclosing
  // archive keeps only its declared share.
  uint32_t size = 0;
  std::vector<Gap> gaps;
  // Leniency notes for this archive and every nested one, with absolute offsets
  // (damaged entries are listed by DamagedEntries).
  std::vector<std::string> warnings;
};

// Every damaged entry of an archive and its nested ones: "entry 12 (A101): <why>",
// nested entries as "entry 12 (A101) > entry 0 (A101): <why>".
std::vector<std::string> DamagedEntries(const Bar& bar);

// Entry i's link: the first earlier non-empty entry whose data it shares (-1: none).
int LinkTarget(const Bar& bar, size_t i);
// The bytes an archive or triggers entry spans: its declared size, or more when
// entries run past it.
size_t Extent(const Bar& bar);


// Parsing: data is the entry/file; base is its absolute offset, for messages.
// Entries whose payloads coincide (same place, size and type, at any depth) are
// parsed once and share it; archives nest at most limits.max_depth deep.
Bar ParseBar(ByteView data, uint64_t base = 0, const Limits& limits = {});
bool LooksLikeBar(ByteView data);
Bytes SerializeBar(const Bar& bar);
Bytes SerializePayload(const BarEntry& entry);
// Recomputes offsets, sizes and counts after an edit (drops gaps, 16-aligned entries).
void LayoutBar(Bar& bar);

// The archive's bytes with entry index's data replaced by payload; every later entry moves
// by a multiple of 16, entries sharing the slot's data (links) follow it; all other bytes
// stay as they were.
Bytes ReplaceEntry(ByteView archive, const Bar& bar, size_t index, const Bytes& payload);
// The "NNN_NAME" name of an MSET slot's clip.
std::string SlotName(size_t index, const BarEntry& entry);

}  // namespace animkit::kh2
