// KH2 BAR archives, motion triggers and the MDLX model's bone table.
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <map>
#include <set>
#include <tuple>

#include <string>

namespace animkit::kh2 {

using namespace detail;

namespace {
constexpr size_t kBarHeaderSize = 16;
constexpr size_t kBarEntrySize = fields::Size(kBarEntry);
std::string N(int64_t v) { return std::to_string(v); }
}  // namespace

std::string BarEntry::Name() const {
  size_t n = name.size();
  while (n > 0 && name[n - 1] == '\0') --n;
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c >= 0x20 && c < 0x7F && c != '%') {
      s += static_cast<char>(c);
    } else {  // bytes that are not printable ASCII are shown as %XX
      static const char* hex = "0123456789ABCDEF";
      s += '%';
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  return s;
}

// ---------------------------------------------------------------------------
// Triggers

namespace {

// A trigger's parameter count (a byte) and its 16-bit parameters.
std::vector<int16_t> ReadParams(ByteReader& r, const std::string& kind, size_t index) {
  const uint8_t n = r.U8(kind + " parameter count");
  r.Count(n, 2, kind + " " + N(int64_t(index)) + " parameters");
  std::vector<int16_t> params(n);
  const std::string what = "a " + kind + " parameter";
  for (int16_t& p : params) p = r.I16(what);
  return params;
}

// data runs from the entry's start to the end of the enclosing data; declared is the
// entry's own size. Triggers the counts list are read past declared (with a warning),
// never past data.
Triggers ParseTriggersIn(ByteView data, size_t declared, uint64_t base) {
  ByteReader r(data, Endian::Little, base);
  Triggers t;
  Coverage cov;
  t.size = static_cast<uint32_t>(declared);
  const uint8_t ranges = r.U8("range trigger count");
  const uint8_t frames = r.U8("frame trigger count");
  t.frame_list_offset = r.I16("frame trigger list offset");
  cov.Add(0, 4);
  t.ranges.resize(ranges);
  ReadRecords(r, cov, t.ranges, [&r](RangeTrigger& rt, size_t i) {
    fields::ReadAll(r, rt, kRangeTriggerHead);
    rt.params = ReadParams(r, "range trigger", i);
  });
  if (t.frame_list_offset < 0 || size_t(t.frame_list_offset) > data.size())
    r.FailAt(2, "frame trigger list offset " + Hex(uint16_t(t.frame_list_offset)) + " points past the end of the file (" +
                    Hex(data.size()) + " bytes from the entry)");
  if (frames > 0 && size_t(t.frame_list_offset) < r.tell())
    r.FailAt(2, "frame trigger list offset " + Hex(uint16_t(t.frame_list_offset)) +
                    " points into the range triggers (they end at " + Hex(r.tell()) + ")");
  if (frames > 0) r.Seek(size_t(t.frame_list_offset), "the frame triggers");
  t.frames.resize(frames);
  ReadRecords(r, cov, t.frames, [&r](FrameTrigger& ft, size_t i) {
    fields::ReadAll(r, ft, kFrameTriggerHead);
    ft.params = ReadParams(r, "frame trigger", i);
  });
  const size_t used = r.tell();
  if (used > declared)
    t.warnings.push_back("offset " + Hex(base) + ": the triggers run " + Hex(used - declared) +
                         " bytes past the entry's declared size " + Hex(declared) + " (read on, as the game does)");
  t.gaps = cov.Gaps(data.first(std::max(declared, r.tell())));
  return t;
}

}  // namespace

Triggers ParseTriggers(ByteView data, uint64_t base) { return ParseTriggersIn(data, data.size(), base); }

Bytes SerializeTriggers(const Triggers& t) {
  if (t.ranges.size() > 255 || t.frames.size() > 255) throw Error::General("a triggers entry holds at most 255 triggers of each kind");
  ByteWriter head(Endian::Little);
  head.U8(static_cast<uint8_t>(t.ranges.size()));
  head.U8(static_cast<uint8_t>(t.frames.size()));
  head.I16(t.frame_list_offset);
  for (const RangeTrigger& rt : t.ranges) {
    if (rt.params.size() > 255) throw Error::General("a trigger holds at most 255 parameters");
    fields::WriteAll(head, rt, kRangeTriggerHead);
    head.U8(static_cast<uint8_t>(rt.params.size()));
    for (int16_t p : rt.params) head.I16(p);
  }
  ByteWriter list(Endian::Little);
  for (const FrameTrigger& ft : t.frames) {
    if (ft.params.size() > 255) throw Error::General("a trigger holds at most 255 parameters");
    fields::WriteAll(list, ft, kFrameTriggerHead);
    list.U8(static_cast<uint8_t>(ft.params.size()));
    for (int16_t p : ft.params) list.I16(p);
  }
  size_t extent = std::max<size_t>(t.size, head.size());
  if (!t.frames.empty()) extent = std::max(extent, size_t(uint16_t(t.frame_list_offset)) + list.size());
  for (const Gap& g : t.gaps) extent = std::max(extent, g.offset + g.bytes.size());
  Image img(extent);
  img.Put(0, head.bytes(), "the range triggers");
  if (!t.frames.empty()) img.Put(size_t(uint16_t(t.frame_list_offset)), list.bytes(), "the frame triggers");
  img.PutGaps(t.gaps);
  return img.Take();
}

void LayoutTriggers(Triggers& t) {
  t.gaps.clear();
  size_t pos = 4;
  for (const RangeTrigger& rt : t.ranges) pos += 6 + 2 * rt.params.size();
  t.frame_list_offset = static_cast<int16_t>(pos);
  for (const FrameTrigger& ft : t.frames) pos += 4 + 2 * ft.params.size();
  t.size = static_cast<uint32_t>(pos);
}

// ---------------------------------------------------------------------------
// Model

Model ParseModel(ByteView data, uint64_t base) {
  ByteReader r(data, Endian::Little, base);
  Model m;
  m.bytes.assign(data.begin(), data.end());
  r.Require(kReservedSize + 0x20, "a model entry (0x90 reserved bytes and its header)");
  r.Seek(kReservedSize, "the model header");
  fields::ReadAll(r, m, kModelHeader);
  const size_t at = kReservedSize + m.bone_offset;
  if (m.bone_count > 0) {
    if (at > data.size())
      r.FailAt(kReservedSize + 0x14, "bone table offset " + Hex(m.bone_offset) + " points past the end of the model");
    ByteReader t = r.Sub(at, data.size() - at, "bone table");
    m.bones = fields::ReadTable<BoneRecord>(t, m.bone_count, kBoneRecord, "bone table");
  }
  return m;
}

// ---------------------------------------------------------------------------
// BAR

bool LooksLikeBar(ByteView data) {
  return data.size() >= 4 && data[0] == 'B' && data[1] == 'A' && data[2] == 'R' && data[3] == 1;
}

namespace {

// Payloads already parsed, by absolute place, size and type: entries that
// overlap exactly (also across nesting levels) share one parse, so an archive
// of archives pointing at each other costs what its distinct payloads cost.
struct ParsedPayloads {
  std::map<std::tuple<uint64_t, uint32_t, uint16_t>, BarEntry> done;
  Limits limits;
  uint64_t bytes = 0, budget = 0;  // payload bytes parsed or copied, and the most allowed
  // A limit was reached: the error ends the whole parse (limits refuse a file; they do
  // not damage one entry of it).
  bool over_limit = false;
  // Adds bytes parsed, copied or read past a table at `at`; past the budget, refuses the file.
  void Charge(uint64_t more, uint64_t at, const std::string& what) {
    bytes += more;
    if (bytes <= budget) return;
    over_limit = true;
    FailAt(Place::At(at), what + " more than " + std::to_string(limits.max_depth + 1) +
                              " times the archive's size (max-depth + 1; --max-depth raises it)");
  }
};

Bar ParseBarIn(ByteView data, size_t declared, uint64_t base, ParsedPayloads& parsed, uint64_t depth);

// An entry's payload by its type; payload is its declared bytes, to_end runs on to the
// end of the file (archives and triggers may run past their size, as the game reads them).
void ParsePayload(BarEntry& e, ByteView payload, ByteView to_end, uint64_t at, ParsedPayloads& parsed,
                  uint64_t depth) {
  switch (e.type) {
    case kEntryMotion: e.motion = std::make_shared<Motion>(ParseMotion(payload, at, true, to_end)); break;
    case kEntryTriggers: e.triggers = std::make_shared<Triggers>(ParseTriggersIn(to_end, e.size, at)); break;
    case kEntryAnb: e.bar = std::make_shared<Bar>(ParseBarIn(to_end, e.size, at, parsed, depth + 1)); break;
    case kEntrySubArchive:
    case kEntryBinaryArchive:
    case kEntryMapArchive:
    case kEntryOtherArchive:
      if (LooksLikeBar(payload)) e.bar = std::make_shared<Bar>(ParseBarIn(to_end, e.size, at, parsed, depth + 1));
      else e.raw.assign(payload.begin(), payload.end());
      break;
    case kEntryModel: e.model = std::make_shared<Model>(ParseModel(payload, at)); break;
    default: e.raw.assign(payload.begin(), payload.end()); break;
  }
}

// data runs from the archive's start to the end of the enclosing data (the file);
// declared is the archive's own size (its entry's size in the enclosing archive).
Bar ParseBarIn(ByteView data, size_t declared, uint64_t base, ParsedPayloads& parsed, uint64_t depth) {
  if (depth > parsed.limits.max_depth) parsed.over_limit = true;  // CheckLimit throws below
  CheckLimit(depth, &Limits::max_depth, parsed.limits,
             "the BAR nesting depth (real files nest MSET -> ANB -> motion)", Place::At(base));
  ByteReader r(data, Endian::Little, base);
  Bar bar;
  Coverage cov;
  bar.size = static_cast<uint32_t>(declared);
  r.Require(kBarHeaderSize, "a BAR header");
  if (!LooksLikeBar(data)) r.Fail("expected the BAR magic \"BAR\\x01\"");
  r.Skip(4, "magic");
  const uint32_t count = r.U32("entry count");
  bar.reserved = r.U32("BAR header field");
  bar.mset_type = r.I32("BAR type field");
  r.Count(count, kBarEntrySize, "BAR entry table");
  cov.Add(0, kBarHeaderSize + size_t(count) * kBarEntrySize);
  bar.entries.resize(count);
  size_t extent = std::max(declared, kBarHeaderSize + size_t(count) * kBarEntrySize);
  size_t longest = 0;  // the entry that runs furthest past declared
  for (size_t i = 0; i < count; ++i) {
    BarEntry& e = bar.entries[i];
    const size_t pos = r.tell();
    fields::ReadAll(r, e, kBarEntry);
    if (e.size == 0) continue;  // an empty slot: the game never reads its offset
    const uint64_t end = uint64_t(e.offset) + e.size;
    if (end > data.size()) {
      // A cut file, or a size no reading can satisfy: this entry is damaged, the rest reads.
      const size_t held = e.offset < data.size() ? data.size() - e.offset : 0;
      e.damage = "offset " + Hex(base + pos + 8) + ": its data at " + Hex(base + e.offset) + " (" + Hex(e.size) +
                 " bytes) runs past the end of the file (" + Hex(base + data.size()) + "); " +
                 (held ? "the " + Hex(held) + " bytes the file holds are kept" : "the file holds none of it");
      ByteView present = data.subspan(std::min<size_t>(e.offset, data.size()), held);
      e.raw.assign(present.begin(), present.end());
      if (held) extent = std::max(extent, data.size()), longest = i;
      continue;
    }
    if (end > extent) extent = size_t(end), longest = i;
  }
  std::vector<std::string> nested;
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    BarEntry& e = bar.entries[i];
    if (e.size == 0) continue;
    const std::string entry_name = "entry " + N(int64_t(i)) + " (" + e.Name() + ")";
    if (e.Damaged()) {
      cov.Add(e.offset, size_t(e.offset) + e.raw.size());
      continue;
    }
    ByteView payload = data.subspan(e.offset, e.size);
    ByteView to_end = data.subspan(e.offset);
    const uint64_t at = base + e.offset;
    cov.Add(e.offset, size_t(e.offset) + e.size);
    const auto key = std::make_tuple(at, e.size, e.type);
    auto seen = parsed.done.find(key);
    parsed.Charge(seen == parsed.done.end() || !seen->second.raw.empty() ? e.size : 0, at,
                  "BAR entries overlap: their payloads add up to");
    if (seen != parsed.done.end()) {
      e.motion = seen->second.motion, e.triggers = seen->second.triggers, e.bar = seen->second.bar;
      e.model = seen->second.model, e.raw = seen->second.raw, e.damage = seen->second.damage;
      continue;
    }
    try {
      ParsePayload(e, payload, to_end, at, parsed, depth);
    } catch (const Error& error) {
      if (parsed.over_limit) throw;
      // What no reading makes sense of damages this entry alone: kept as bytes, no clip.
      e.motion.reset(), e.triggers.reset(), e.bar.reset(), e.model.reset();
      e.raw.assign(payload.begin(), payload.end());
      e.damage = error.what();
    }
    if (e.motion) {
      // Indices past a table read other bytes of the file: those count towards the budget too.
      const InterpolatedMotion::ReadPast& past = e.motion->interpolated.read_past;
      parsed.Charge(past.keys * 8 + (past.key_times + past.values + past.tangents) * 4, at,
                    "the motions' indices past their tables read");
    }
    const std::vector<std::string>* inner = e.motion     ? &e.motion->warnings
                                            : e.triggers ? &e.triggers->warnings
                                            : e.bar      ? &e.bar->warnings
                                                         : nullptr;
    if (inner)
      for (const std::string& w : *inner) nested.push_back(entry_name + ": " + w);
    parsed.done.emplace(key, e);
  }
  if (extent > declared)
    bar.warnings.push_back("offset " + Hex(base) + ": the archive's entries run " + Hex(extent - declared) +
                           " bytes past its declared size " + Hex(declared) + " (entry " + N(int64_t(longest)) + " (" +
                           bar.entries[longest].Name() + ") ends at " + Hex(base + extent) +
                           "); read as far as the file goes, as the game does");
  bar.warnings.insert(bar.warnings.end(), nested.begin(), nested.end());
  bar.gaps = cov.Gaps(data.first(extent));
  return bar;
}

// The size an entry's payload declares for itself (an archive or triggers entry may
// serialize to more: the bytes its entries run past it).
size_t DeclaredSize(const BarEntry& e, const Bytes& payload) {
  if (e.bar) return e.bar->size;
  if (e.triggers) return e.triggers->size;
  return payload.size();
}

}  // namespace

Bar ParseBar(ByteView data, uint64_t base, const Limits& limits) {
  ParsedPayloads parsed;
  parsed.limits = limits;
  // Nested archives visit their bytes once per level; entries that overlap in
  // other ways cost more, and are refused past this.
  parsed.budget = uint64_t{data.size()} * (limits.max_depth + 1);
  return ParseBarIn(data, data.size(), base, parsed, 0);
}

namespace {
// Archives shared by several entries are listed at their first entry only.
void ListDamaged(const Bar& bar, const std::string& prefix, std::set<const Bar*>& seen, std::vector<std::string>& out) {
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    const std::string name = prefix + "entry " + N(int64_t(i)) + " (" + e.Name() + ")";
    if (e.Damaged()) out.push_back(name + ": " + e.damage);
    if (e.bar && seen.insert(e.bar.get()).second) ListDamaged(*e.bar, name + " > ", seen, out);
  }
}
}  // namespace

std::vector<std::string> DamagedEntries(const Bar& bar) {
  std::vector<std::string> out;
  std::set<const Bar*> seen;
  ListDamaged(bar, "", seen, out);
  return out;
}

int LinkTarget(const Bar& bar, size_t i) {
  if (i >= bar.entries.size() || bar.entries[i].size == 0) return -1;
  for (size_t j = 0; j < i; ++j)
    if (bar.entries[j].size > 0 && bar.entries[j].offset == bar.entries[i].offset) return static_cast<int>(j);
  return -1;
}

// The bytes of an entry the file holds: its size, or what a damaged entry kept.
size_t HeldSize(const BarEntry& e) { return e.Damaged() ? e.raw.size() : e.size; }

size_t Extent(const Bar& bar) {
  size_t extent = std::max<size_t>(bar.size, kBarHeaderSize + bar.entries.size() * kBarEntrySize);
  for (const BarEntry& e : bar.entries)
    if (HeldSize(e) > 0) extent = std::max(extent, size_t(e.offset) + HeldSize(e));
  for (const Gap& g : bar.gaps) extent = std::max(extent, g.offset + g.bytes.size());
  return extent;
}

Bytes SerializePayload(const BarEntry& e) {
  if (e.motion) return SerializeMotion(*e.motion);
  if (e.triggers) return SerializeTriggers(*e.triggers);
  if (e.bar) return SerializeBar(*e.bar);
  if (e.model) return e.model->bytes;
  return e.raw;
}

Bytes SerializeBar(const Bar& bar) {
  ByteWriter w(Endian::Little);
  w.Append(ByteView(reinterpret_cast<const uint8_t*>("BAR\x01"), 4));
  w.U32(static_cast<uint32_t>(bar.entries.size()));
  w.U32(bar.reserved);
  w.I32(bar.mset_type);
  fields::WriteTable(w, bar.entries, kBarEntry);
  Image img(Extent(bar));
  img.Put(0, w.bytes(), "the BAR header and entry table");
  std::map<const Bar*, Bytes> nested;  // entries sharing one parsed archive: serialized once
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    if (HeldSize(e) == 0) continue;  // nothing of it is in the file
    auto known = e.bar ? nested.find(e.bar.get()) : nested.end();
    if (known == nested.end() && e.bar) known = nested.emplace(e.bar.get(), SerializePayload(e)).first;
    Bytes payload = known != nested.end() ? known->second : SerializePayload(e);
    // Bytes an archive or triggers entry runs past its size belong to this archive's
    // gaps (or the next entry): only the declared share is placed here.
    if (payload.size() > e.size && DeclaredSize(e, payload) == e.size) payload.resize(e.size);
    // A damaged entry holds what the file held of it (less than its size where the file was cut).
    if (payload.size() != e.size && !(e.Damaged() && payload.size() < e.size))
      throw Error::General("BAR entry " + N(int64_t(i)) + " (" + e.Name() + ") is " + Hex(payload.size()) +
                           " bytes but the table says " + Hex(e.size) + ": lay the archive out again");
    img.Put(e.offset, payload, "BAR entry " + N(int64_t(i)));
  }
  img.PutGaps(bar.gaps);
  return img.Take();
}

void LayoutBar(Bar& bar) {
  bar.gaps.clear();
  size_t pos = kBarHeaderSize + bar.entries.size() * kBarEntrySize;
  for (BarEntry& e : bar.entries) {
    if (e.bar) LayoutBar(*e.bar);
    const size_t size = e.motion     ? e.motion->size
                        : e.triggers ? e.triggers->size
                        : e.bar      ? e.bar->size
                        : e.model    ? e.model->bytes.size()
                                     : e.raw.size();
    if (size > 0) pos = (pos + 15) / 16 * 16;
    e.offset = static_cast<uint32_t>(pos);
    e.size = static_cast<uint32_t>(size);
    pos += size;
  }
  bar.size = static_cast<uint32_t>(pos);
}

}  // namespace animkit::kh2
