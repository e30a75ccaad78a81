// Registry entry and document for the Vib-Ribbon PAK archive: its members, each a file.
#include <animkit/formats/psx_pak.hpp>

#include "formats/common/document.hpp"
#include "psx_pak_fields.hpp"

namespace animkit {

namespace psx_pak {
namespace {

class PakDocument final : public FileDocument<File, kPsxPakFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  std::vector<ArchiveMember> Members() const override {
    std::vector<ArchiveMember> out;
    out.reserve(file_.entries.size());
    for (const Entry& e : file_.entries) out.push_back({e.path, "", e.length, e.length, false, {}});
    return out;
  }

  Bytes MemberBytes(size_t index) const override {
    const ByteView data = MemberData(file_, index);
    return Bytes(data.begin(), data.end());
  }

  Bytes WithMember(size_t index, ByteView bytes) const override { return Replace(file_, index, bytes); }

  std::vector<std::string> Warnings() const override { return file_.warnings; }

  Value Info() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kHeaderFields);
    Value entries = Value::array();
    for (const Entry& e : file_.entries) {
      Value entry = {{"path", e.path}, {"length_offset", e.length_at}, {"data_offset", e.data_at}, {"end", e.end}};
      fields::Describe(entry, e, kOffsetFields);
      fields::Describe(entry, e, kLengthFields);
      entries.push_back(std::move(entry));
    }
    info["entries"] = std::move(entries);
    return info;
  }

  Value InfoSummary() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kHeaderFields);
    Value listed = Value::array();
    for (const Entry& e : file_.entries) listed.push_back({{"path", e.path}, {"offset", e.offset}, {"length", e.length}});
    info["member_list"] = std::move(listed);
    return info;
  }

  Scene Decode(const DecodeContext&) const override {
    Scene scene;
    scene.metadata = Value::object();
    scene.metadata[kSourceFormatKey] = "psx-pak";
    scene.metadata[metadata_keys::kMemberCount] = file_.entries.size();
    return scene;
  }
};

bool Printable(uint8_t c) { return c >= 0x20 && c < 0x7F; }

// The structure alone: the first offset right after the table, offsets ascending within the
// file, and the first entries' paths printable and NUL-terminated. A Metroid PAK's version
// word (0x00030005 big-endian) reads as a count whose table would not fit.
int Probe(ByteView data, std::string_view extension) {
  const int fallback = extension == ".pak" ? kProbeExtension : kProbeNone;
  if (data.size() < kCountSize + kOffsetSize) return fallback;
  const uint64_t count = le::Load32(data.data());
  const uint64_t table_end = kCountSize + kOffsetSize * count;
  if (count == 0 || table_end + kLengthSize + 2 > data.size()) return fallback;
  if (le::Load32(data.data() + kCountSize) != table_end) return fallback;
  uint64_t previous = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t offset = le::Load32(data.data() + kCountSize + kOffsetSize * i);
    if (offset < previous || offset >= data.size()) return fallback;
    previous = offset;
  }
  constexpr uint64_t kChecked = 8, kLongestPath = 255;
  for (uint64_t i = 0; i < count && i < kChecked; ++i) {
    const uint64_t offset = le::Load32(data.data() + kCountSize + kOffsetSize * i);
    uint64_t n = 0;
    while (offset + n < data.size() && n <= kLongestPath && data[offset + n] != 0) {
      if (!Printable(data[offset + n])) return fallback;
      ++n;
    }
    if (n == 0 || offset + n >= data.size() || data[offset + n] != 0) return fallback;
  }
  return kProbeStructure;
}

// From this size a PAK keeps the caller's bytes (a mapped file) instead of a copy: listing a
// large one is then no copy of it. Smaller ones (stock PAKs are about 1 MB) are copied, so
// that no mapping outlives the read for them (Windows cannot replace a mapped file).
constexpr size_t kKeepSharedFrom = size_t{16} << 20;

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  return std::make_unique<PakDocument>(Parse(data, data.size() >= kKeepSharedFrom ? context.bytes_owner : nullptr));
}

}  // namespace
}  // namespace psx_pak

const FormatDescriptor kPsxPakFormat{
    .id = "psx-pak", .description = "Vib-Ribbon PAK archive (PS1: TMD, ANM, ANC and other members by path)",
    .extensions = {".pak"}, .companions = {}, .probe = psx_pak::Probe, .read = psx_pak::Read, .encode = nullptr,
    .options = {}, .up_axis = "-Y", .archive_of_files = true};

}  // namespace animkit
