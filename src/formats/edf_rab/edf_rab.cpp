// RAB / MRAB archive: parse, serialize, the stock builder and member replacement.
#include <animkit/formats/edf_rab.hpp>

#include "edf_rab_fields.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

namespace animkit::edf_rab {

namespace {

// Code units of a UTF-16 string read as UTF-8 (an unpaired surrogate became one U+FFFD: one unit too).
uint64_t Utf16Units(const std::string& utf8) { return Utf16FromUtf8(utf8).size(); }

std::string MemberLabel(size_t i, const MemberRecord& m) {
  return "member " + std::to_string(i) + (m.name.empty() ? "" : " '" + m.name + "'") + " (record at " + Hex(m.at) + ")";
}

// Code point order of UTF-8 strings is their byte order.
bool CodePointLess(const std::string& a, const std::string& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](char x, char y) { return uint8_t(x) < uint8_t(y); });
}

}  // namespace

File Parse(ByteView data) {
  ByteReader r(data, Endian::Little);
  File f;
  r.Magic(std::string_view("SSA\0", 4));
  fields::ReadAll(r, f.header, kHeaderFields);
  f.image.assign(data.begin(), data.end());
  const Header& h = f.header;
  if (h.version != kVersion)
    f.warnings.push_back("offset 0x4: version " + Hex(h.version) + ", stock archives have " + Hex(kVersion));

  ByteReader folders = r.Table(h.folder_offset, h.folder_count, kFolderSize, 0x24, "folder table");
  ByteReader members = r.Table(h.member_offset, h.member_count, kMemberSize, 0x18, "member table");
  ByteReader index = r.Table(h.index_offset, h.member_count, kIndexSize, 0x1C, "sorted index");
  f.pool_end = std::max({uint64_t(h.member_offset) + uint64_t(kMemberSize) * h.member_count,
                         uint64_t(h.index_offset) + uint64_t(kIndexSize) * h.member_count,
                         uint64_t(h.folder_offset) + uint64_t(kFolderSize) * h.folder_count, uint64_t(kHeaderSize)});
  auto pool_string = [&](size_t at, int32_t offset, const std::string& what) {
    std::string name = r.Utf16z(int64_t(at) + offset, at, what);
    f.pool_end = std::max(f.pool_end, uint64_t(int64_t(at) + offset) + 2 * (Utf16Units(name) + 1));
    return name;
  };
  // A record's fields and its pool name; the error when the name does not read.
  auto read_named = [&](ByteReader& table, auto& rec, const auto& list, const std::string& what) -> std::optional<std::string> {
    rec.at = table.absolute(table.tell());
    fields::ReadAll(table, rec, list);
    try {
      rec.name = pool_string(rec.at, rec.name_offset, what);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  };

  f.folders.resize(h.folder_count);
  for (size_t i = 0; i < f.folders.size(); ++i) {
    FolderRecord& folder = f.folders[i];
    folder.at = folders.absolute(folders.tell());
    fields::ReadAll(folders, folder, kFolderFields);
    folder.name = pool_string(folder.at, folder.name_offset, "the name of folder " + std::to_string(i));
  }

  f.members.resize(h.member_count);
  for (size_t i = 0; i < f.members.size(); ++i) {
    MemberRecord& m = f.members[i];
    if (const auto error = read_named(members, m, kMemberFields, "the name of member " + std::to_string(i))) {
      f.damaged.push_back(MemberLabel(i, m) + ": " + *error);
      continue;
    }
    if (m.folder < f.folders.size()) {
      m.folder_name = f.folders[m.folder].name;
    } else {
      f.warnings.push_back("offset " + Hex(m.at + 8) + ": " + MemberLabel(i, m) + " is filed under folder " +
                           std::to_string(m.folder) + ", but the archive has " + std::to_string(f.folders.size()));
    }
    const uint64_t end = uint64_t(m.data_offset) + m.stored_size;
    if (m.data_offset_high != 0 || end > data.size()) {
      f.damaged.push_back(MemberLabel(i, m) + ": offset " + Hex(m.at + 0x18) + ": its " + std::to_string(m.stored_size) +
                          " bytes at " + Hex((uint64_t(m.data_offset_high) << 32) | m.data_offset) +
                          " lie outside the file (" + Hex(data.size()) + " bytes)");
      continue;
    }
    m.readable = true;
    const uint32_t hd = m.folder_name == kHdTextureFolder ? 1 : 0;
    if (m.flag != hd)
      f.warnings.push_back("offset " + Hex(m.at + 0xC) + ": " + MemberLabel(i, m) + " has flag " + std::to_string(m.flag) +
                           ", stock archives have " + std::to_string(hd) + " in folder '" + m.folder_name + "'");
  }

  // The sorted index: the game looks members up by name through it.
  f.index.resize(h.member_count);
  std::vector<bool> indexed(h.member_count, false);
  for (size_t i = 0; i < f.index.size(); ++i) {
    IndexRecord& e = f.index[i];
    if (const auto error = read_named(index, e, kIndexFields, "the name of sorted index entry " + std::to_string(i)))
      f.warnings.push_back(std::string("sorted index entry ") + std::to_string(i) + ": " + *error);
    if (e.member >= h.member_count) {
      f.warnings.push_back("offset " + Hex(e.at + 4) + ": sorted index entry " + std::to_string(i) + " names member " +
                           std::to_string(e.member) + ", but the archive has " + std::to_string(h.member_count));
      continue;
    }
    if (indexed[e.member])
      f.warnings.push_back("offset " + Hex(e.at + 4) + ": sorted index entry " + std::to_string(i) + " names member " +
                           std::to_string(e.member) + " a second time");
    indexed[e.member] = true;
    if (e.name != f.members[e.member].name)
      f.warnings.push_back("offset " + Hex(e.at) + ": sorted index entry " + std::to_string(i) + " is named '" + e.name +
                           "', its member " + std::to_string(e.member) + " '" + f.members[e.member].name + "'");
    if (i > 0 && CodePointLess(e.name, f.index[i - 1].name))
      f.warnings.push_back("offset " + Hex(e.at) + ": sorted index entry " + std::to_string(i) + " '" + e.name +
                           "' comes after '" + f.index[i - 1].name + "': the index is not sorted by code point");
  }

  if (f.damaged.empty()) {
    if (h.data_start != f.pool_end)
      f.warnings.push_back("offset 0x8: data start " + Hex(h.data_start) + ", the name pool ends at " + Hex(f.pool_end));
    uint64_t max_stored = 0, max_raw = 0;
    for (size_t i = 0; i < f.members.size(); ++i) {
      max_stored = std::max<uint64_t>(max_stored, f.members[i].stored_size);
      max_raw = std::max(max_raw, RawSize(f, i));
    }
    if (h.max_stored != max_stored)
      f.warnings.push_back("offset 0xc: max stored size " + std::to_string(h.max_stored) + ", the largest member stores " +
                           std::to_string(max_stored));
    if (h.max_raw != max_raw)
      f.warnings.push_back("offset 0x10: max raw size " + std::to_string(h.max_raw) + ", the largest member unpacks to " +
                           std::to_string(max_raw));
  }
  return f;
}

Bytes Serialize(const File& f) {
  Bytes out = f.image;
  if (out.size() < kHeaderSize) throw Error::General("a RAB image needs at least its 0x28-byte header");
  std::memcpy(out.data(), "SSA\0", 4);
  fields::WriteAt(out, 4, Endian::Little, f.header, kHeaderFields);
  for (const FolderRecord& e : f.folders) fields::WriteAt(out, e.at, Endian::Little, e, kFolderFields);
  for (const MemberRecord& m : f.members) fields::WriteAt(out, m.at, Endian::Little, m, kMemberFields);
  for (const IndexRecord& e : f.index) fields::WriteAt(out, e.at, Endian::Little, e, kIndexFields);
  return out;
}

ByteView StoredBytes(const File& f, size_t member) {
  if (member >= f.members.size())
    throw Error::General("member " + std::to_string(member) + ": the archive has " + std::to_string(f.members.size()));
  const MemberRecord& m = f.members[member];
  if (!m.readable) throw Error::AtOffset(m.at, MemberLabel(member, m) + " is damaged: its name or data lie outside the file");
  return ByteView(f.image).subspan(m.data_offset, m.stored_size);
}

uint64_t RawSize(const File& f, size_t member) {
  const MemberRecord& m = f.members.at(member);
  if (!m.readable) return m.stored_size;
  const ByteView stored = StoredBytes(f, member);
  return IsCmpl(stored) && stored.size() >= kCmplHeaderSize ? CmplRawSize(stored) : stored.size();
}

Bytes BuildStored(const std::vector<BuildMember>& stored) {
  if (stored.size() > UINT32_MAX / kMemberSize) throw Error::General("too many members for a RAB archive");
  std::vector<std::string> folders;
  std::vector<uint32_t> folder_of;
  for (const BuildMember& m : stored) {
    auto it = std::find(folders.begin(), folders.end(), m.folder);
    folder_of.push_back(uint32_t(it - folders.begin()));
    if (it == folders.end()) folders.push_back(m.folder);
  }
  const size_t n = stored.size();
  const uint64_t member_offset = kHeaderSize;
  const uint64_t index_offset = member_offset + kMemberSize * n;
  const uint64_t folder_offset = index_offset + kIndexSize * n;
  const uint64_t pool_offset = folder_offset + kFolderSize * folders.size();

  // One pool: every folder and member name once, in code point order.
  std::vector<std::string> names = folders;
  for (const BuildMember& m : stored) names.push_back(m.name);
  std::sort(names.begin(), names.end(), CodePointLess);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::map<std::string, uint64_t> at;
  ByteWriter pool(Endian::Little);
  for (const std::string& name : names) {
    at[name] = pool_offset + pool.size();
    for (uint16_t u : Utf16FromUtf8(name)) pool.U16(u);
    pool.U16(0);
  }
  const uint64_t data_start = pool_offset + pool.size();
  uint64_t data_end = data_start, max_stored = 0, max_raw = 0;
  std::vector<uint64_t> data_at;
  for (const BuildMember& m : stored) {
    data_at.push_back(data_end);
    data_end += m.bytes.size();
    max_stored = std::max<uint64_t>(max_stored, m.bytes.size());
    max_raw = std::max<uint64_t>(max_raw, IsCmpl(m.bytes) && m.bytes.size() >= kCmplHeaderSize ? CmplRawSize(m.bytes)
                                                                                                : m.bytes.size());
  }
  if (data_end > UINT32_MAX) throw Error::General("a RAB archive holds at most 4 GiB");
  auto rel = [](uint64_t target, uint64_t entry) { return int32_t(int64_t(target) - int64_t(entry)); };

  File f;
  f.header = {kVersion,
              uint32_t(data_start),
              uint32_t(max_stored),
              uint32_t(max_raw),
              uint32_t(n),
              uint32_t(member_offset),
              uint32_t(index_offset),
              uint32_t(folders.size()),
              uint32_t(folder_offset)};
  ByteWriter w(Endian::Little);
  w.Append(ByteView(reinterpret_cast<const uint8_t*>("SSA\0"), 4));
  fields::WriteAll(w, f.header, kHeaderFields);
  for (size_t i = 0; i < n; ++i) {
    MemberRecord m;
    const uint64_t entry = member_offset + kMemberSize * i;
    m.name_offset = rel(at[stored[i].name], entry);
    m.stored_size = uint32_t(stored[i].bytes.size());
    m.folder = folder_of[i];
    m.flag = stored[i].folder == kHdTextureFolder ? 1 : 0;
    m.data_offset = uint32_t(data_at[i]);
    fields::WriteAll(w, m, kMemberFields);
  }
  // Case-sensitive by code point; equal names keep member order.
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = uint32_t(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return CodePointLess(stored[a].name, stored[b].name); });
  for (size_t i = 0; i < n; ++i) {
    IndexRecord e;
    e.name_offset = rel(at[stored[order[i]].name], index_offset + kIndexSize * i);
    e.member = order[i];
    fields::WriteAll(w, e, kIndexFields);
  }
  for (size_t i = 0; i < folders.size(); ++i) {
    FolderRecord e;
    e.name_offset = rel(at[folders[i]], folder_offset + kFolderSize * i);
    fields::WriteAll(w, e, kFolderFields);
  }
  w.Append(pool.bytes());
  for (const BuildMember& m : stored) w.Append(m.bytes);
  return w.Take();
}

Bytes Build(const std::vector<BuildMember>& members) {
  std::vector<BuildMember> stored = members;
  for (BuildMember& m : stored)
    if (m.compress) m.bytes = Compress(m.bytes);
  return BuildStored(stored);
}

Bytes ReplaceStored(const File& file, size_t index, ByteView stored) {
  const ByteView old = StoredBytes(file, index);
  const MemberRecord& target = file.members[index];
  const uint64_t begin = target.data_offset, old_end = begin + old.size();
  if (begin < file.pool_end)
    throw Error::AtOffset(target.at + 0x18, MemberLabel(index, target) + "'s data lies among the archive's tables");
  const int64_t delta = int64_t(stored.size()) - int64_t(old.size());
  File f = file;
  f.image.clear();
  f.image.insert(f.image.end(), file.image.begin(), file.image.begin() + std::ptrdiff_t(begin));
  f.image.insert(f.image.end(), stored.begin(), stored.end());
  f.image.insert(f.image.end(), file.image.begin() + std::ptrdiff_t(old_end), file.image.end());
  if (f.image.size() > UINT32_MAX) throw Error::General("a RAB archive holds at most 4 GiB");
  f.members[index].stored_size = uint32_t(stored.size());
  for (size_t i = 0; i < f.members.size(); ++i) {
    MemberRecord& m = f.members[i];
    if (i == index || !m.readable) continue;
    const uint64_t m_begin = m.data_offset, m_end = m_begin + m.stored_size;
    const bool after = m_begin > begin || (m_begin == begin && i > index);
    if (after && m_begin >= old_end) {
      m.data_offset = uint32_t(int64_t(m.data_offset) + delta);
    } else if (m_end > begin && m_begin < old_end) {
      throw Error::AtOffset(m.at + 0x18, MemberLabel(i, m) + " shares bytes with " + MemberLabel(index, target) +
                                             ": it cannot be replaced alone");
    }
  }
  uint64_t max_stored = 0, max_raw = 0;
  for (size_t i = 0; i < f.members.size(); ++i) {
    max_stored = std::max<uint64_t>(max_stored, f.members[i].stored_size);
    max_raw = std::max(max_raw, RawSize(f, i));
  }
  f.header.max_stored = uint32_t(max_stored);
  f.header.max_raw = uint32_t(max_raw);
  return Serialize(f);
}

}  // namespace animkit::edf_rab
