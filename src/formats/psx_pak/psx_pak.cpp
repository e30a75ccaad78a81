// Vib-Ribbon PAK: parse, serialize, the stock builder and member replacement.
#include <animkit/formats/psx_pak.hpp>

#include "psx_pak_fields.hpp"

#include <algorithm>

namespace animkit::psx_pak {

namespace {

uint64_t Padded(uint64_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

std::string Label(size_t i, const Entry& e) {
  return "entry " + std::to_string(i) + (e.path.empty() ? "" : " '" + e.path + "'");
}

bool AllZero(ByteView bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

// The path, its padding, the length and the data of entry i at e.offset.
void ReadEntry(const ByteReader& r, size_t i, Entry& e, std::vector<std::string>& warnings) {
  const ByteView data = r.data();
  const size_t table_at = kCountSize + kOffsetSize * i;
  if (e.offset >= data.size())
    throw Error::AtOffset(table_at, "entry " + std::to_string(i) + " starts at " + Hex(e.offset) +
                                        ", past the end of the file (" + Hex(data.size()) + " bytes)");
  ByteReader entry = r.Sub(e.offset, data.size() - e.offset, "entry " + std::to_string(i));
  e.path = entry.CString("the path of entry " + std::to_string(i) + " (NUL-terminated)");
  const uint64_t name_end = e.offset + Padded(e.path.size() + 1);
  if (name_end + kLengthSize > data.size())
    throw Error::AtOffset(e.offset + e.path.size() + 1, "the padding and length of " + Label(i, e) +
                                                              " (4 bytes at " + Hex(name_end) + ") run past the end of the file");
  const ByteView name_pad = data.subspan(e.offset + e.path.size() + 1, name_end - (e.offset + e.path.size() + 1));
  if (!AllZero(name_pad))
    warnings.push_back("offset " + Hex(e.offset + e.path.size() + 1) + ": " + Label(i, e) +
                       ": the path's padding is not zero (kept)");
  e.length_at = size_t(name_end);
  entry.Seek(name_end - e.offset, "the length of " + Label(i, e));
  fields::ReadAll(entry, e, kLengthFields);
  e.data_at = e.length_at + kLengthSize;
  if (e.length > data.size() - e.data_at)
    throw Error::AtOffset(e.length_at, Label(i, e) + ": a length of " + std::to_string(e.length) + " bytes at " +
                                           Hex(e.data_at) + " runs past the end of the file (" + Hex(data.size()) + " bytes)");
  const uint64_t data_end = e.data_at + uint64_t(e.length);
  e.end = size_t(std::min<uint64_t>(Padded(data_end), data.size()));
  if (e.end < Padded(data_end))
    warnings.push_back("offset " + Hex(data_end) + ": " + Label(i, e) + ": the file ends before the data's padding to 4");
  if (!AllZero(data.subspan(size_t(data_end), e.end - size_t(data_end))))
    warnings.push_back("offset " + Hex(data_end) + ": " + Label(i, e) + ": the data's padding is not zero (kept)");
}

}  // namespace

File Parse(ByteView data, std::shared_ptr<const void> owner) {
  File f;
  data = KeepAlive(data, owner);
  f.image = data;
  f.owner = std::move(owner);
  ByteReader r(data, Endian::Little);
  fields::ReadAll(r, f.header, kHeaderFields);
  f.entries = fields::ReadTable<Entry>(r, f.header.count, kOffsetFields, "the offset table");
  const uint64_t table_end = kCountSize + uint64_t(kOffsetSize) * f.entries.size();
  uint64_t expected = table_end;  // where the layout puts the next entry
  for (size_t i = 0; i < f.entries.size(); ++i) {
    Entry& e = f.entries[i];
    const size_t table_at = kCountSize + kOffsetSize * i;
    if (e.offset < table_end)
      throw Error::AtOffset(table_at, "entry " + std::to_string(i) + " starts at " + Hex(e.offset) +
                                          ", inside the offset table (which ends at " + Hex(table_end) + ")");
    ReadEntry(r, i, e, f.warnings);
    if (e.offset > expected)
      f.warnings.push_back("offset " + Hex(table_at) + ": " + Label(i, e) + " starts at " + Hex(e.offset) + ", " +
                           std::to_string(e.offset - expected) + " bytes after " + Hex(expected) +
                           " where the layout puts it: a gap (its bytes kept)");
    else if (e.offset < expected)
      f.warnings.push_back("offset " + Hex(table_at) + ": " + Label(i, e) + " starts at " + Hex(e.offset) +
                           ", before " + Hex(expected) + " where the previous entry ends: they overlap");
    expected = std::max<uint64_t>(expected, e.end);
  }
  if (expected < data.size())
    f.warnings.push_back("offset " + Hex(expected) + ": " + std::to_string(data.size() - expected) +
                         " bytes after the last entry (kept)");
  return f;
}

Bytes Serialize(const File& f) {
  Bytes out(f.image.begin(), f.image.end());
  fields::WriteAt(out, 0, Endian::Little, f.header, kHeaderFields);
  for (size_t i = 0; i < f.entries.size(); ++i) {
    fields::WriteAt(out, kCountSize + kOffsetSize * i, Endian::Little, f.entries[i], kOffsetFields);
    fields::WriteAt(out, f.entries[i].length_at, Endian::Little, f.entries[i], kLengthFields);
  }
  return out;
}

ByteView MemberData(const File& f, size_t index) {
  if (index >= f.entries.size())
    throw Error::General("entry " + std::to_string(index) + ": the PAK has " + std::to_string(f.entries.size()));
  const Entry& e = f.entries[index];
  return f.image.subspan(e.data_at, e.length);
}

Bytes Build(const std::vector<BuildMember>& members) {
  if (members.size() > (UINT32_MAX - kCountSize) / kOffsetSize) throw Error::General("too many members for a PAK");
  ByteWriter w(Endian::Little);
  File f;
  f.header.count = uint32_t(members.size());
  fields::WriteAll(w, f.header, kHeaderFields);
  uint64_t at = kCountSize + uint64_t(kOffsetSize) * members.size();
  f.entries.resize(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    const BuildMember& m = members[i];
    if (m.path.find('\0') != std::string::npos) throw Error::General("member " + std::to_string(i) + ": a path holds no NUL");
    f.entries[i].offset = uint32_t(at);
    f.entries[i].length = uint32_t(m.bytes.size());
    at += Padded(m.path.size() + 1) + kLengthSize + Padded(m.bytes.size());
    if (at > UINT32_MAX || m.bytes.size() > UINT32_MAX) throw Error::General("a PAK holds at most 4 GiB");
  }
  fields::WriteTable(w, f.entries, kOffsetFields);
  for (size_t i = 0; i < members.size(); ++i) {
    w.Append(ByteView(reinterpret_cast<const uint8_t*>(members[i].path.data()), members[i].path.size()));
    w.U8(0);
    w.AlignTo(kAlignment);
    fields::WriteAll(w, f.entries[i], kLengthFields);
    w.Append(members[i].bytes);
    w.AlignTo(kAlignment);
  }
  return w.Take();
}

Bytes Replace(const File& file, size_t index, ByteView bytes) {
  (void)MemberData(file, index);  // the range check
  const Entry& target = file.entries[index];
  const uint64_t begin = target.data_at, old_end = target.end;
  const uint64_t new_size = Padded(bytes.size());
  const int64_t delta = int64_t(new_size) - int64_t(old_end - begin);
  for (size_t i = 0; i < file.entries.size(); ++i) {
    const Entry& e = file.entries[i];
    if (i == index) continue;
    if (e.offset < old_end && e.end > target.offset)
      throw Error::AtOffset(kCountSize + kOffsetSize * i, Label(i, e) + " shares bytes with " + Label(index, target) +
                                                              ": it cannot be replaced alone");
  }
  auto image = std::make_shared<Bytes>();
  image->insert(image->end(), file.image.begin(), file.image.begin() + std::ptrdiff_t(begin));
  image->insert(image->end(), bytes.begin(), bytes.end());
  image->insert(image->end(), size_t(new_size - bytes.size()), uint8_t{0});
  image->insert(image->end(), file.image.begin() + std::ptrdiff_t(old_end), file.image.end());
  if (image->size() > UINT32_MAX || bytes.size() > UINT32_MAX) throw Error::General("a PAK holds at most 4 GiB");
  File f = file;
  f.image = ByteView(*image);
  f.owner = std::move(image);
  f.entries[index].length = uint32_t(bytes.size());
  for (Entry& e : f.entries) {
    if (e.offset < old_end) continue;
    e.offset = uint32_t(int64_t(e.offset) + delta);
    e.length_at = size_t(int64_t(e.length_at) + delta);
  }
  return Serialize(f);
}

}  // namespace animkit::psx_pak
