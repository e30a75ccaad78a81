// CAS bytes: Parse, Serialize (the image with every field back at its place), Emit (the game's
// serialisation order), clip-index remapping and the EDF 4.1/5 -> 6 table conversion.
#include <animkit/formats/edf_canm/cas.hpp>

#include "cas_fields.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace animkit::edf_canm::cas {

namespace {

// ---------------------------------------------------------------- reading

std::string Quoted(const Name& n) { return "'" + n.text + "'"; }

// Reads a set: the header's reader, the CANM's place, and the lists being filled.
class SetReader {
 public:
  SetReader(ByteView data, File& f, size_t canm_end) : r_(data, Endian::Little), f_(f), canm_end_(canm_end) {}

  ByteReader& reader() { return r_; }

  // The name at record + offset (field: where the offset was read).
  Name ReadName(size_t record, int32_t offset, const std::string& what) {
    Name n;
    if (offset == 0) return n;
    const int64_t target = int64_t(record) + offset;
    n.text = r_.Utf16z(target, record, what + "'s name");
    const auto t = size_t(target);
    if (t >= canm_end_) {
      n.place = Name::Place::Strings, n.at = t - canm_end_;
    } else if (t >= f_.canm_offset) {
      n.place = Name::Place::Canm, n.at = t - f_.canm_offset;
    } else {
      n.place = Name::Place::Elsewhere, n.at = t;
      f_.warnings.push_back(what + " at " + Hex(record) + ": its name lies at " + Hex(t) +
                            ", among the tables before the CANM (stock sets keep names after it)");
    }
    return n;
  }

  // A table of count records of size bytes at the file value offset (relative to base). In
  // stock sets every byte is one record's: records read beyond the file's size mean tables
  // that share records, refused before they could multiply what is allocated.
  ByteReader Table(size_t base, int64_t offset, uint32_t count, size_t size, size_t field, const std::string& what) {
    ByteReader t = r_.Table(int64_t(base) + offset, count, size, field, what);
    read_ += uint64_t(count) * size;
    if (read_ > r_.size())
      r_.FailAt(field, what + ": the records read so far outgrow the file (" + Hex(r_.size()) +
                           " bytes): tables that share records");
    return t;
  }

  DataGroup ReadGroup(size_t at, size_t field, const std::string& what) {
    DataGroup g;
    ByteReader t = Table(at, 0, 1, kDataGroupSize, field, what);
    g.at = at;
    fields::ReadAll(t, g, kDataGroup);
    if (g.data_offset != int32_t(kDataGroupSize))
      f_.warnings.push_back(what + " at " + Hex(at) + ": data offset " + std::to_string(g.data_offset) +
                            " (stock sets always have 8: the data follows)");
    const size_t size = f_.data_size();
    ByteReader d = Table(at, g.data_offset, g.count, size, at + 4, what + "'s data");
    g.data.resize(g.count);
    for (Data& x : g.data) {
      x.at = size_t(d.absolute(d.tell()));
      if (f_.version == kVersion41)
        fields::ReadAll(d, x, kData41);
      else
        fields::ReadAll(d, x, kData);
    }
    return g;
  }

  AnmData ReadAnmData(ByteReader& t, const std::string& what) {
    AnmData a;
    a.at = size_t(t.absolute(t.tell()));
    fields::ReadAll(t, a, kAnmData);
    if (a.group_offset != 0)
      a.group = ReadGroup(size_t(int64_t(a.at) + a.group_offset), a.at + 8, what + "'s datagroup");
    return a;
  }

  Mcanm ReadMcanm(ByteReader& t, const std::string& what) {
    Mcanm m;
    m.at = size_t(t.absolute(t.tell()));
    fields::ReadAll(t, m, kMcanm);
    m.name = ReadName(m.at, m.name_offset, what);
    const std::string named = what + " " + Quoted(m.name);
    if (m.first_offset != 0) {
      ByteReader a = Table(m.at, m.first_offset, 1, kAnmDataSize, m.at + 4, named + "'s first anmdata");
      m.first = ReadAnmData(a, named + "'s first anmdata");
    }
    ByteReader more = Table(m.at, m.more_offset, m.more_count, kAnmDataSize, m.at + 0xC, named + "'s more array");
    m.more.reserve(m.more_count);
    for (uint32_t i = 0; i < m.more_count; ++i)
      m.more.push_back(ReadAnmData(more, named + " more " + std::to_string(i)));
    for (size_t k = 0; k < 3; ++k) {
      if (m.group_offsets[k] == 0) continue;
      m.groups[k] = ReadGroup(size_t(int64_t(m.at) + m.group_offsets[k]), m.at + 0x10 + 4 * k,
                              named + " datagroup " + std::to_string(k));
    }
    return m;
  }

 private:
  ByteReader r_;
  File& f_;
  size_t canm_end_;
  uint64_t read_ = 0;  // bytes of records read through Table
};

// Runs read; an Error becomes a line of file.damaged.
template <class F>
void Guarded(File& file, const std::string& what, F&& read) {
  try {
    read();
  } catch (const Error& e) {
    file.damaged.push_back(what + ": " + e.what());
  }
}

size_t StringEnd(ByteView data, size_t at) {
  size_t p = at;
  while (p + 2 <= data.size() && (data[p] | data[p + 1]) != 0) p += 2;
  return std::min(data.size(), p + 2);
}

// ---------------------------------------------------------------- writing

void WriteGroup(Bytes& image, const DataGroup& g, uint32_t version) {
  fields::WriteAt(image, g.at, Endian::Little, g, kDataGroup);
  for (const Data& d : g.data) {
    if (version == kVersion41)
      fields::WriteAt(image, d.at, Endian::Little, d, kData41);
    else
      fields::WriteAt(image, d.at, Endian::Little, d, kData);
  }
}

void WriteAnmData(Bytes& image, const AnmData& a, uint32_t version) {
  fields::WriteAt(image, a.at, Endian::Little, a, kAnmData);
  if (a.group) WriteGroup(image, *a.group, version);
}

// Every parsed field of f written over image at its place.
Bytes Patched(const File& f, Bytes image) {
  fields::WriteAt(image, 4, Endian::Little, f, kHeader);
  for (const TControl& t : f.tcontrols) {
    fields::WriteAt(image, t.at, Endian::Little, t, kTControl);
    const int64_t words = int64_t(t.at) + t.words_offset;
    for (size_t i = 0; i < t.words.size(); ++i) {
      const int64_t at = words + int64_t(4 * i);
      if (at < 0 || size_t(at) + 4 > image.size())
        throw Error::AtOffset(t.at + 8, "tcontrol " + Quoted(t.name) + ": its words lie outside the file");
      le::Store32(image.data() + size_t(at), t.words[i]);
    }
  }
  for (const VControl& v : f.vcontrols) fields::WriteAt(image, v.at, Endian::Little, v, kVControl);
  for (const Bone& b : f.bones) fields::WriteAt(image, b.at, Endian::Little, b, kBone);
  if (f.unnamed_group) WriteGroup(image, *f.unnamed_group, f.version);
  for (const AnmGroup& g : f.anmgroups) {
    fields::WriteAt(image, g.at, Endian::Little, g, kAnmGroup);
    for (const Mcanm& m : g.mcanms) {
      fields::WriteAt(image, m.at, Endian::Little, m, kMcanm);
      if (m.first) WriteAnmData(image, *m.first, f.version);
      for (const AnmData& a : m.more) WriteAnmData(image, a, f.version);
      for (const auto& x : m.groups)
        if (x) WriteGroup(image, *x, f.version);
    }
  }
  return image;
}

// Calls fn for every datagroup of f.
template <class Fn>
void ForEachGroup(File& f, Fn&& fn) {
  if (f.unnamed_group) fn(*f.unnamed_group);
  for (AnmGroup& g : f.anmgroups)
    for (Mcanm& m : g.mcanms) {
      if (m.first && m.first->group) fn(*m.first->group);
      for (AnmData& a : m.more)
        if (a.group) fn(*a.group);
      for (auto& x : m.groups)
        if (x) fn(*x);
    }
}

template <class Fn>
void ForEachAnmData(File& f, Fn&& fn) {
  for (AnmGroup& g : f.anmgroups)
    for (Mcanm& m : g.mcanms) {
      if (m.first) fn(*m.first);
      for (AnmData& a : m.more) fn(a);
    }
}

}  // namespace

// ---------------------------------------------------------------- Parse

size_t CanmExtent(ByteView canm) {
  const edf_canm::File c = edf_canm::Parse(canm);
  size_t end = edf_canm::kHeaderSize;
  end = std::max<size_t>(end, c.animation_offset + size_t(c.animation_count) * edf_canm::kAnimationSize);
  end = std::max<size_t>(end, c.channel_offset + size_t(c.channel_count) * c.channel_size());
  end = std::max<size_t>(end, c.name_offset + size_t(c.name_count) * edf_canm::kNameEntrySize);
  for (size_t i = 0; i < c.animations.size(); ++i) {
    const edf_canm::Animation& a = c.animations[i];
    const size_t entry = c.animation_offset + i * edf_canm::kAnimationSize;
    end = std::max<size_t>(end, size_t(int64_t(entry) + a.bone_offset) + a.bones.size() * edf_canm::kBoneSize);
    if (a.name_offset != 0) end = std::max(end, StringEnd(canm, entry + a.name_offset));
  }
  for (size_t i = 0; i < c.names.size(); ++i)
    if (c.names[i].offset != 0)
      end = std::max(end, StringEnd(canm, c.name_offset + i * edf_canm::kNameEntrySize + c.names[i].offset));
  return std::min(end, canm.size());
}

File Parse(ByteView data) {
  File f;
  {
    ByteReader h(data, Endian::Little);
    h.Magic("CAS");
    if (h.U8("the magic's terminator") != 0) h.FailAt(3, "expected the magic 'CAS\\0'");
    fields::ReadAll(h, f, kHeader);
    if (f.version != kVersion41 && f.version != kVersion5 && f.version != kVersion6)
      h.FailAt(4, "unknown CAS version " + Hex(f.version) + "; known: 0x200 (EDF 4.1), 0x203 (EDF 5), 0x204 (EDF 6)");
    if (f.canm_offset < kHeaderSize || f.canm_offset >= data.size())
      h.FailAt(8, "the CANM offset " + Hex(f.canm_offset) + " lies outside the file (" + Hex(data.size()) + " bytes)");
  }
  f.image.assign(data.begin(), data.end());
  if (f.canm_offset % kCanmAlignment != 0)
    f.warnings.push_back("the CANM at " + Hex(f.canm_offset) +
                         " is not 16-aligned: EDF.dll reads its channel records with 16-byte loads (MOVAPS) and faults");

  // The CANM runs to the furthest end of its strings; the set's strings follow.
  const ByteView tail = data.subspan(f.canm_offset);
  size_t canm_size = tail.size();
  Guarded(f, "the CANM at " + Hex(f.canm_offset) + " (offsets inside count from it)", [&] {
    canm_size = CanmExtent(tail);
    f.canm = edf_canm::Parse(tail.first(canm_size));
  });
  const size_t canm_end = f.canm_offset + canm_size;
  f.canm_bytes.assign(tail.begin(), tail.begin() + std::ptrdiff_t(canm_size));
  f.strings.assign(data.begin() + std::ptrdiff_t(canm_end), data.end());
  if (f.canm) {
    const uint32_t want = f.version == kVersion6 ? edf_canm::kVersion6 : edf_canm::kVersion5;
    if (f.canm->version != want)
      f.warnings.push_back("the CANM at " + Hex(f.canm_offset) + " has version " + std::to_string(f.canm->version) +
                           "; a set of version " + Hex(f.version) + " holds " + std::to_string(want));
  }

  SetReader s(data, f, canm_end);
  ByteReader& r = s.reader();
  // A table of named records: each its fields, its name, then `rest` (its own arrays).
  auto named_table = [&](auto& records, const auto& list, uint32_t offset, uint32_t count, size_t entry_size,
                         size_t field, const std::string& noun, auto rest) {
    const std::string table = "the " + noun + " table";
    Guarded(f, table, [&] {
      ByteReader t = r.Table(offset, count, entry_size, field, table);
      records.resize(count);
      for (size_t i = 0; i < records.size(); ++i) {
        auto& c = records[i];
        c.at = size_t(t.absolute(t.tell()));
        fields::ReadAll(t, c, list);
        const std::string what = noun + " " + std::to_string(i);
        Guarded(f, what + " at " + Hex(c.at), [&] {
          c.name = s.ReadName(c.at, c.name_offset, what);
          rest(c, what);
        });
      }
    });
  };
  auto nothing = [](auto&, const std::string&) {};
  named_table(f.tcontrols, kTControl, f.tcontrol_offset, f.tcontrol_count, kTControlSize, 0x10, "tcontrol",
              [&](TControl& c, const std::string& what) {
                ByteReader w = s.Table(c.at, c.words_offset, c.word_count, 4, c.at + 8, what + "'s words");
                c.words.reserve(c.word_count);
                for (uint32_t k = 0; k < c.word_count; ++k) c.words.push_back(w.U32("a clip index"));
              });
  named_table(f.vcontrols, kVControl, f.vcontrol_offset, f.vcontrol_count, kVControlSize, 0x18, "vcontrol", nothing);
  named_table(f.bones, kBone, f.bone_offset, f.bone_count, kBoneSize, 0x28, "bone", nothing);
  if (f.unnamed_group_offset != 0)
    Guarded(f, "the unnamed datagroup", [&] { f.unnamed_group = s.ReadGroup(f.unnamed_group_offset, 0x2C, "the unnamed datagroup"); });
  named_table(f.anmgroups, kAnmGroup, f.anmgroup_offset, f.anmgroup_count, kAnmGroupSize, 0x20, "anmgroup",
              [&](AnmGroup& g, const std::string& what) {
                ByteReader m = s.Table(g.at, g.mcanm_offset, g.mcanm_count, kMcanmSize, g.at + 8, what + "'s mcanm array");
                for (uint32_t k = 0; k < g.mcanm_count; ++k) {
                  const size_t at = size_t(m.absolute(m.tell()));
                  const std::string mwhat = what + " " + Quoted(g.name) + " mcanm " + std::to_string(k);
                  // A damaged mcanm stays in the image (Serialize leaves its bytes); the next is read on.
                  Guarded(f, mwhat + " at " + Hex(at), [&] {
                    ByteReader one = r.Table(int64_t(at), 1, kMcanmSize, g.at + 8, mwhat);  // counted with its array
                    g.mcanms.push_back(s.ReadMcanm(one, mwhat));
                  });
                  m.Skip(kMcanmSize, mwhat);
                }
              });

  // References the game follows without checking.
  const size_t clips = f.canm ? f.canm->animations.size() : 0;
  for (const TControl& c : f.tcontrols)
    for (size_t k = 0; k < c.words.size(); ++k)
      if (f.canm && c.words[k] >= clips)
        f.warnings.push_back("tcontrol " + Quoted(c.name) + " at " + Hex(c.at) + ": word " + std::to_string(k) +
                             " names clip " + std::to_string(c.words[k]) + ", the CANM has " + std::to_string(clips));
  for (const AnmGroup& g : f.anmgroups)
    for (const Mcanm& m : g.mcanms)
      if (m.type == 2 && m.value >= f.tcontrols.size())
        f.warnings.push_back("mcanm " + Quoted(m.name) + " at " + Hex(m.at) + ": tcontrol index " +
                             std::to_string(m.value) + ", the set has " + std::to_string(f.tcontrols.size()));
  if (!f.canm && f.tcontrols.empty() && f.vcontrols.empty() && f.anmgroups.empty() && f.bones.empty())
    throw Error::AtOffset(f.canm_offset, "nothing of the set could be read: " + f.damaged.front());
  return f;
}

Bytes Serialize(const File& file) {
  if (file.image.empty()) return Emit(file);
  return Patched(file, file.image);
}

// ---------------------------------------------------------------- Emit

Bytes Emit(const File& in) {
  if (!in.damaged.empty())
    throw Error::General("a set with damaged parts cannot be laid out again: " + in.damaged.front());
  File f = in;
  size_t pos = kHeaderSize;
  const auto take = [&](size_t n) {
    const size_t at = pos;
    pos += n;
    return at;
  };
  const auto rel = [](size_t target, size_t record) { return int32_t(int64_t(target) - int64_t(record)); };
  const size_t data_size = f.data_size();
  const auto lay_group = [&](DataGroup& g) {
    g.at = take(kDataGroupSize);
    g.count = uint32_t(g.data.size());
    g.data_offset = int32_t(kDataGroupSize);
    for (Data& d : g.data) d.at = take(data_size);
  };
  // Record indices by name (UTF-16 code units), ties in table order.
  const auto name_order = [](const auto& records) {
    std::vector<size_t> order(records.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return Utf16FromUtf8(records[a].name.text) < Utf16FromUtf8(records[b].name.text);
    });
    return order;
  };

  f.tcontrol_offset = uint32_t(pos), f.tcontrol_count = uint32_t(f.tcontrols.size());
  for (TControl& t : f.tcontrols) t.at = take(kTControlSize);
  for (size_t i : name_order(f.tcontrols)) {
    TControl& t = f.tcontrols[i];
    t.word_count = uint32_t(t.words.size());
    t.words_offset = rel(take(4 * t.words.size()), t.at);
  }
  f.vcontrol_offset = uint32_t(pos), f.vcontrol_count = uint32_t(f.vcontrols.size());
  for (VControl& v : f.vcontrols) v.at = take(kVControlSize);
  f.bone_offset = uint32_t(pos), f.bone_count = uint32_t(f.bones.size());
  for (Bone& b : f.bones) b.at = take(kBoneSize);
  if (f.unnamed_group) {
    lay_group(*f.unnamed_group);
    f.unnamed_group_offset = uint32_t(f.unnamed_group->at);
  }
  f.anmgroup_offset = uint32_t(pos), f.anmgroup_count = uint32_t(f.anmgroups.size());
  for (AnmGroup& g : f.anmgroups) g.at = take(kAnmGroupSize);
  for (size_t i : name_order(f.anmgroups)) {
    AnmGroup& g = f.anmgroups[i];
    g.mcanm_count = uint32_t(g.mcanms.size());
    g.mcanm_offset = rel(pos, g.at);
    for (Mcanm& m : g.mcanms) m.at = take(kMcanmSize);
    for (Mcanm& m : g.mcanms) {
      if (m.first) {
        m.first->at = take(kAnmDataSize);
        m.first_offset = rel(m.first->at, m.at);
        if (m.first->group) {
          lay_group(*m.first->group);
          m.first->group_offset = rel(m.first->group->at, m.first->at);
        }
      }
      m.more_count = uint32_t(m.more.size());
      m.more_offset = rel(pos, m.at);
      for (AnmData& a : m.more) a.at = take(kAnmDataSize);
      for (AnmData& a : m.more)
        if (a.group) {
          lay_group(*a.group);
          a.group_offset = rel(a.group->at, a.at);
        }
      for (size_t k = 0; k < 3; ++k)
        if (m.groups[k]) {
          lay_group(*m.groups[k]);
          m.group_offsets[k] = rel(m.groups[k]->at, m.at);
        }
    }
  }
  f.canm_offset = uint32_t((pos + kCanmAlignment - 1) / kCanmAlignment * kCanmAlignment);
  const size_t canm_end = f.canm_offset + f.canm_bytes.size();

  const auto aim = [&](size_t record, const Name& n, int32_t& offset) {
    switch (n.place) {
      case Name::Place::None: offset = 0; break;
      case Name::Place::Strings: offset = rel(canm_end + n.at, record); break;
      case Name::Place::Canm: offset = rel(f.canm_offset + n.at, record); break;
      case Name::Place::Elsewhere:
        throw Error::AtOffset(record, "the name " + Quoted(n) + " lies among the tables at " + Hex(n.at) +
                                          "; a new layout cannot keep it");
    }
  };
  for (TControl& t : f.tcontrols) aim(t.at, t.name, t.name_offset);
  for (VControl& v : f.vcontrols) aim(v.at, v.name, v.name_offset);
  for (Bone& b : f.bones) aim(b.at, b.name, b.name_offset);
  for (AnmGroup& g : f.anmgroups) {
    aim(g.at, g.name, g.name_offset);
    for (Mcanm& m : g.mcanms) aim(m.at, m.name, m.name_offset);
  }

  Bytes image(canm_end + f.strings.size(), 0);
  std::memcpy(image.data(), "CAS", 4);
  std::copy(f.canm_bytes.begin(), f.canm_bytes.end(), image.begin() + std::ptrdiff_t(f.canm_offset));
  std::copy(f.strings.begin(), f.strings.end(), image.begin() + std::ptrdiff_t(canm_end));
  return Patched(f, std::move(image));
}

Name AddString(File& file, const std::string& utf8) {
  Name n;
  n.text = utf8;
  n.place = Name::Place::Strings;
  n.at = file.strings.size();
  for (uint16_t u : Utf16FromUtf8(utf8)) le::Append16(file.strings, u);
  file.strings.push_back(0), file.strings.push_back(0);
  return n;
}

// ---------------------------------------------------------------- clip order, conversion

void RemapClips(File& file, const std::vector<std::optional<uint32_t>>& map, const std::vector<std::string>& old_names,
                std::vector<std::string>& warnings) {
  for (TControl& t : file.tcontrols)
    for (size_t k = 0; k < t.words.size(); ++k) {
      const uint32_t w = t.words[k];
      if (w >= map.size()) continue;
      if (map[w]) {
        t.words[k] = *map[w];
      } else {
        warnings.push_back("tcontrol " + Quoted(t.name) + " at " + Hex(t.at) + ": word " + std::to_string(k) +
                           " named the removed clip " + std::to_string(w) +
                           (w < old_names.size() ? " '" + old_names[w] + "'" : std::string()) + "; it now names none (0xFFFFFFFF)");
        t.words[k] = 0xFFFFFFFFu;
      }
    }
}

std::optional<uint32_t> Command6(uint32_t version, uint32_t command) {
  static constexpr std::pair<uint32_t, uint32_t> k41To5[] = {{0, 0},   {1, 1},   {4, 6},   {7, 9},   {8, 10},  {9, 11},
                                                             {10, 12}, {11, 13}, {12, 14}, {13, 15}, {14, 16}, {16, 22},
                                                             {22, 28}, {23, 29}, {24, 30}, {25, 31}, {27, 33}};
  static constexpr std::pair<uint32_t, uint32_t> k5To6[] = {{0, 0},   {1, 1},   {2, 2},   {6, 8},   {9, 11},  {10, 12}, {11, 13},
                                                            {12, 14}, {13, 15}, {14, 16}, {15, 17}, {16, 18}, {17, 19}, {22, 24},
                                                            {28, 30}, {29, 31}, {30, 32}, {31, 33}, {33, 35}};
  const auto look = [](const auto& table, uint32_t id) -> std::optional<uint32_t> {
    for (const auto& [from, to] : table)
      if (from == id) return to;
    return std::nullopt;
  };
  if (version == kVersion6) return command;
  std::optional<uint32_t> id = command;
  if (version == kVersion41) id = look(k41To5, command);
  return id ? look(k5To6, *id) : std::nullopt;
}

void ConvertTablesTo6(File& file) {
  if (!file.damaged.empty()) throw Error::General("a set with damaged parts cannot be converted: " + file.damaged.front());
  const uint32_t from = file.version;
  ForEachGroup(file, [&](DataGroup& g) {
    for (Data& d : g.data) {
      const std::optional<uint32_t> id = Command6(from, d.command);
      if (!id)
        throw Error::AtOffset(d.at, "data command " + std::to_string(d.command) + " of a version " + Hex(from) +
                                        " set has no known EDF 6 number");
      if ((d.command == 0 || d.command == 1) && d.args[4] == 2) d.args[5] = 0;  // +0x14 == 2: +0x18 is stale
      d.command = *id;
      if (d.command == 2) d.args_tail[1] = 0;  // +0x28
      if (from == kVersion41) d.args_tail = {};  // 4.1 records grow by 16 zero bytes
    }
  });
  ForEachAnmData(file, [](AnmData& a) {
    if (a.type_b != 1) a.tail = 0;  // +0x1C is kept only when +0x14 is 1
  });
  file.version = kVersion6;
}

}  // namespace animkit::edf_canm::cas
