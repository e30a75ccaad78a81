// Registry entry and document for the Metroid Prime 1/2 PAK archive: its resources, each a member.
#include <animkit/formats/metroid_pak.hpp>

#include "formats/common/document.hpp"
#include "metroid_pak_fields.hpp"

#include <unordered_map>

namespace animkit {

namespace metroid_pak {
namespace {

std::string TypeText(const FourCC& type) { return std::string(type.begin(), type.end()); }

uint64_t Key(const FourCC& type, uint32_t id) {
  return uint64_t(uint8_t(type[0])) << 56 | uint64_t(uint8_t(type[1])) << 48 | uint64_t(uint8_t(type[2])) << 40 |
         uint64_t(uint8_t(type[3])) << 32 | id;
}

const char* PackingText(Packing p) {
  return p == Packing::Raw ? "raw" : p == Packing::Zlib ? "zlib" : "segments";
}

class PakDocument final : public FileDocument<File, kMetroidPakFormat, Serialize> {
 public:
  PakDocument(File file, const ReadContext& context) : FileDocument(std::move(file)), limits_(context.options.limits()) {}

  std::vector<ArchiveMember> Members() const override {
    // The names of each (type, id), found once: a PAK may name thousands of its resources.
    std::unordered_map<uint64_t, std::vector<std::string>> names;
    for (const NamedEntry& n : file_.names) names[Key(n.type, n.id)].push_back(n.name);
    std::vector<ArchiveMember> out;
    out.reserve(file_.resources.size());
    for (size_t i = 0; i < file_.resources.size(); ++i) {
      const Resource& e = file_.resources[i];
      ArchiveMember m{MemberName(e), "", e.size, UnpackedSize(file_, i), e.compressed != 0, {}};
      if (const auto found = names.find(Key(e.type, e.id)); found != names.end()) m.names = found->second;
      out.push_back(std::move(m));
    }
    return out;
  }

  Bytes MemberBytes(size_t index) const override { return Unpack(file_, index, limits_); }

  Bytes WithMember(size_t index, ByteView bytes) const override { return Replace(file_, index, bytes); }

  std::vector<std::string> Warnings() const override {
    std::vector<std::string> out = file_.warnings;
    out.push_back("a PAK decodes to an empty scene: convert it into a folder (convert FILE.PAK OUT/) for its members");
    return out;
  }

  Value Info() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kHeaderFields);
    Value names = Value::array();
    for (const NamedEntry& n : file_.names)
      names.push_back({{"offset", n.at}, {"type", TypeText(n.type)}, {"id", n.id}, {"name_length", n.name_length}, {"name", n.name}});
    info["names"] = std::move(names);
    info["resource_count"] = file_.resource_count;
    Value entries = Value::array();
    for (size_t i = 0; i < file_.resources.size(); ++i) {
      const Resource& e = file_.resources[i];
      entries.push_back({{"name", MemberName(e)}, {"compressed", e.compressed}, {"type", TypeText(e.type)}, {"id", e.id},
                         {"size", e.size}, {"offset", e.offset}, {"packing", PackingText(PackingOf(file_, i))},
                         {"unpacked_size", UnpackedSize(file_, i)}});
    }
    info["resources"] = std::move(entries);
    return info;
  }

  Value InfoSummary() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kHeaderFields);
    info["resource_count"] = file_.resource_count;
    info["names"] = {{"offset", kHeaderSize}, {"count", file_.names.size()}};
    info["resources"] = {{"offset", file_.resource_count_at + kCountSize}, {"count", file_.resources.size()}};
    return info;
  }

  Scene Decode(const DecodeContext&) const override {
    Scene scene;
    scene.metadata = Value::object();
    scene.metadata[kSourceFormatKey] = "metroid-pak";
    scene.metadata[metadata_keys::kMemberCount] = file_.resources.size();
    return scene;
  }

 private:
  Limits limits_;
};

// The version word, then a named table and a resource table that fit in the file, and the first
// entry within it. Vib-Ribbon's PAK (little-endian, a count first) never starts with 0x00030005.
int Probe(ByteView data, std::string_view) {
  if (data.size() < kHeaderSize + kCountSize) return kProbeNone;
  ByteReader r(data, Endian::Big);
  Header h;
  fields::ReadAll(r, h, kHeaderFields);
  if (h.version != kVersion || h.named_count > (data.size() - kHeaderSize) / kNamedFixedSize) return kProbeNone;
  for (uint32_t i = 0; i < h.named_count; ++i) {
    if (r.remaining() < kNamedFixedSize) return kProbeNone;
    NamedEntry n;
    fields::ReadAll(r, n, kNamedFields);
    if (n.name_length > r.remaining()) return kProbeNone;
    r.Skip(n.name_length, "a name");
  }
  if (r.remaining() < kCountSize) return kProbeNone;
  const uint32_t count = r.U32("the resource count");
  if (count > r.remaining() / kResourceSize) return kProbeNone;
  if (count > 0) {
    Resource first;
    fields::ReadAll(r, first, kResourceFields);
    if (first.offset > data.size() || first.size > data.size() - first.offset) return kProbeNone;
  }
  return kProbeMagic;
}

// From this size a PAK keeps the caller's bytes (a mapped file) instead of a copy: listing a
// large one is then no copy of it.
constexpr size_t kKeepSharedFrom = size_t{16} << 20;

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  return std::make_unique<PakDocument>(Parse(data, data.size() >= kKeepSharedFrom ? context.bytes_owner : nullptr), context);
}

}  // namespace
}  // namespace metroid_pak

const FormatDescriptor kMetroidPakFormat{
    .id = "metroid-pak", .description = "Metroid Prime 1/2 PAK archive (GameCube: resources by id and type, zlib or LZO)",
    .extensions = {".pak"}, .companions = {}, .probe = metroid_pak::Probe, .read = metroid_pak::Read, .encode = nullptr,
    .options = {}, .archive_of_files = true};

}  // namespace animkit
