// Metroid PAK: parse, serialize, names, unpacking, the stock builder and member replacement.
#include <animkit/formats/metroid_pak.hpp>

#include "metroid_pak_fields.hpp"

#include <algorithm>

namespace animkit::metroid_pak {

namespace {

uint64_t Padded(uint64_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

std::string Label(const File& f, size_t i) {
  return "entry " + std::to_string(i) + " (" + MemberName(f.resources[i]) + ")";
}

size_t ResourceAt(const File& f, size_t i) { return f.resource_count_at + kCountSize + kResourceSize * i; }

void ReadNames(ByteReader& r, File& f) {
  // Each record is at least its fixed part: the count is checked against that before allocating.
  f.names.resize(r.Count(f.header.named_count, kNamedFixedSize, "the named-resource table"));
  for (NamedEntry& n : f.names) {
    n.at = r.tell();
    fields::ReadAll(r, n, kNamedFields);
    const ByteView name = r.Take(n.name_length, "the name of the named entry at " + Hex(n.at));
    n.name.assign(name.begin(), name.end());
  }
}

void CheckEntries(File& f) {
  const uint64_t table_end = f.resource_count_at + kCountSize + uint64_t(kResourceSize) * f.resources.size();
  const ByteView data = f.image;
  for (size_t i = 0; i < f.resources.size(); ++i) {
    const Resource& e = f.resources[i];
    if (e.offset < table_end)
      throw Error::AtOffset(ResourceAt(f, i), Label(f, i) + " starts at " + Hex(e.offset) +
                                                  ", inside the tables (which end at " + Hex(table_end) + ")");
    if (e.offset > data.size() || e.size > data.size() - e.offset)
      throw Error::AtOffset(ResourceAt(f, i), Label(f, i) + ": " + std::to_string(e.size) + " bytes at " + Hex(e.offset) +
                                                  " run past the end of the file (" + Hex(data.size()) + " bytes)");
    if (e.compressed > 1)
      throw Error::AtOffset(ResourceAt(f, i), Label(f, i) + ": the compressed flag is " + std::to_string(e.compressed) +
                                                  ", expected 0 or 1");
    if (e.compressed && e.size < 4)
      throw Error::AtOffset(ResourceAt(f, i), Label(f, i) + ": a compressed entry of " + std::to_string(e.size) +
                                                  " bytes has no room for its unpacked size (4 bytes)");
    if (e.offset % kAlignment || e.size % kAlignment)
      f.warnings.push_back("offset " + Hex(ResourceAt(f, i)) + ": " + Label(f, i) +
                           ": offset or size is no multiple of 32 (the game keeps both divided by 32)");
  }
}

}  // namespace

File Parse(ByteView data, std::shared_ptr<const void> owner) {
  File f;
  data = KeepAlive(data, owner);
  f.image = data;
  f.owner = std::move(owner);
  ByteReader r(data, Endian::Big);
  fields::ReadAll(r, f.header, kHeaderFields);
  if (f.header.version != kVersion)
    throw Error::AtOffset(0, "a Metroid PAK starts with the version 0x00030005, not " + Hex(f.header.version));
  if (f.header.unused != 0) f.warnings.push_back("offset 0x4: the word after the version is " + Hex(f.header.unused) + ", not 0 (kept)");
  ReadNames(r, f);
  f.resource_count_at = r.tell();
  fields::ReadAll(r, f, kCountFields);
  f.resources = fields::ReadTable<Resource>(r, f.resource_count, kResourceFields, "the resource table");
  CheckEntries(f);
  return f;
}

Bytes Serialize(const File& f) {
  Bytes out(f.image.begin(), f.image.end());
  fields::WriteAt(out, 0, Endian::Big, f.header, kHeaderFields);
  for (const NamedEntry& n : f.names) fields::WriteAt(out, n.at, Endian::Big, n, kNamedFields);
  fields::WriteAt(out, f.resource_count_at, Endian::Big, f, kCountFields);
  for (size_t i = 0; i < f.resources.size(); ++i)
    fields::WriteAt(out, ResourceAt(f, i), Endian::Big, f.resources[i], kResourceFields);
  return out;
}

std::string MemberName(const Resource& e) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (int shift = 28; shift >= 0; shift -= 4) out += kDigits[(e.id >> shift) & 0xF];
  out += '.';
  out.append(e.type.begin(), e.type.end());
  return out;
}

ByteView StoredData(const File& f, size_t index) {
  if (index >= f.resources.size())
    throw Error::General("entry " + std::to_string(index) + ": the PAK has " + std::to_string(f.resources.size()));
  const Resource& e = f.resources[index];
  return f.image.subspan(e.offset, e.size);
}

Packing PackingOf(const File& f, size_t index) {
  const ByteView stored = StoredData(f, index);
  if (!f.resources[index].compressed) return Packing::Raw;
  return stored.size() >= 6 && stored[4] == 0x78 && (stored[5] == 0xDA || stored[5] == 0x9C || stored[5] == 0x01)
             ? Packing::Zlib
             : Packing::Segments;
}

uint64_t UnpackedSize(const File& f, size_t index) {
  const ByteView stored = StoredData(f, index);
  if (!f.resources[index].compressed) return stored.size();
  ByteReader r(stored, Endian::Big);
  StatedSize stated;
  fields::ReadAll(r, stated, kStatedSizeFields);
  return stated.size;
}

Bytes Unpack(const File& f, size_t index, const Limits& limits) {
  const ByteView stored = StoredData(f, index);
  if (!f.resources[index].compressed) return Bytes(stored.begin(), stored.end());
  try {
    return Decompress(stored, limits);
  } catch (const Error& e) {
    // The stream's offsets are the entry's: name the file's.
    const std::string what = Label(f, index) + ": " + e.message();
    if (e.byte_offset()) throw Error::AtOffset(f.resources[index].offset + *e.byte_offset(), what);
    throw Error::General(what);
  }
}

Bytes Replace(const File& file, size_t index, ByteView bytes) {
  const Packing packing = PackingOf(file, index);  // and the range check
  const Resource& target = file.resources[index];
  Bytes stored = packing == Packing::Raw ? Bytes(bytes.begin(), bytes.end()) : Compress(bytes, packing);
  const uint64_t begin = target.offset, old_end = uint64_t(target.offset) + target.size;
  for (size_t i = 0; i < file.resources.size(); ++i) {
    const Resource& e = file.resources[i];
    if (i != index && e.offset < old_end && uint64_t(e.offset) + e.size > begin && e.size > 0)
      throw Error::AtOffset(ResourceAt(file, i), Label(file, i) + " shares bytes with " + Label(file, index) +
                                                     ": it cannot be replaced alone");
  }
  // The padding keeps the new length congruent to the old one modulo 32: later offsets keep their alignment.
  const uint64_t pad = (kAlignment - (stored.size() - target.size) % kAlignment) % kAlignment;
  stored.insert(stored.end(), size_t(pad), kPadByte);
  const int64_t delta = int64_t(stored.size()) - int64_t(target.size);
  if (file.image.size() + delta > UINT32_MAX) throw Error::General("a PAK holds at most 4 GiB");
  auto image = std::make_shared<Bytes>();
  image->reserve(size_t(int64_t(file.image.size()) + delta));
  image->insert(image->end(), file.image.begin(), file.image.begin() + std::ptrdiff_t(begin));
  image->insert(image->end(), stored.begin(), stored.end());
  image->insert(image->end(), file.image.begin() + std::ptrdiff_t(old_end), file.image.end());
  File f = file;
  f.image = ByteView(*image);
  f.owner = std::move(image);
  f.resources[index].size = uint32_t(stored.size());
  for (size_t i = 0; i < f.resources.size(); ++i)
    if (i != index && f.resources[i].offset >= old_end) f.resources[i].offset = uint32_t(int64_t(f.resources[i].offset) + delta);
  return Serialize(f);
}

Bytes Build(const std::vector<BuildMember>& members) {
  File f;
  for (const BuildMember& m : members)
    for (const std::string& name : m.names) {
      if (name.size() > UINT32_MAX) throw Error::General("a name of a PAK is at most 4 GiB");
      f.names.push_back({m.type, m.id, uint32_t(name.size()), name, 0});
    }
  if (f.names.size() > UINT32_MAX || members.size() > UINT32_MAX / kResourceSize) throw Error::General("too many members for a PAK");
  f.header.named_count = uint32_t(f.names.size());
  f.resource_count = uint32_t(members.size());
  std::vector<Bytes> stored;
  uint64_t at = kHeaderSize + kCountSize + uint64_t(kResourceSize) * members.size();
  for (const NamedEntry& n : f.names) at += kNamedFixedSize + n.name.size();
  at = Padded(at);
  for (const BuildMember& m : members) {
    stored.push_back(m.packing == Packing::Raw ? m.bytes : Compress(m.bytes, m.packing));
    const uint64_t size = Padded(stored.back().size());
    f.resources.push_back({m.packing == Packing::Raw ? 0u : 1u, m.type, m.id, uint32_t(size), uint32_t(at)});
    at += size;
    if (at > UINT32_MAX) throw Error::General("a PAK holds at most 4 GiB");
  }
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, f.header, kHeaderFields);
  for (const NamedEntry& n : f.names) {
    fields::WriteAll(w, n, kNamedFields);
    w.Append(ByteView(reinterpret_cast<const uint8_t*>(n.name.data()), n.name.size()));
  }
  fields::WriteAll(w, f, kCountFields);
  fields::WriteTable(w, f.resources, kResourceFields);
  w.AlignTo(kAlignment, kPadByte);
  for (const Bytes& s : stored) {
    w.Append(s);
    w.AlignTo(kAlignment, kPadByte);
  }
  return w.Take();
}

}  // namespace animkit::metroid_pak
