// Registry entry and document for the PS1 TMD model format.
#include <animkit/formats/psx_tmd.hpp>

#include "formats/common/document.hpp"
#include "formats/common/options.hpp"

#include <map>

namespace animkit {

namespace psx_tmd {
namespace {

const ChoiceOption<FixpBase> kFixpOption{
    {.name = "psx-fixp", .help = "PS1 TMD with FIXP = 1: offsets count from the file start or the object table",
     .default_value = "file"},
    {{"file", FixpBase::File}, {"table", FixpBase::Table}}};

ParseSettings SettingsFrom(const Options& o) {
  ParseSettings s;
  s.fixp_base = kFixpOption.Get(o);
  return s;
}

std::string KindKey(const Primitive& p) {
  return Hex(p.mode) + " " + LayoutOf(p.mode, p.flag)->name;
}

class PsxTmdDocument final : public FileDocument<File, kPsxTmdFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    size_t vertices = 0, normals = 0, primitives = 0, gap_bytes = 0;
    std::map<std::string, size_t> kinds;
    Value objects = Value::array();
    std::string summary;
    for (size_t i = 0; i < file_.objects.size(); ++i) {
      const Object& o = file_.objects[i];
      std::map<std::string, size_t> own;
      for (const Primitive& p : o.primitives) ++own[KindKey(p)], ++kinds[KindKey(p)];
      vertices += o.vertices.size(), normals += o.normals.size(), primitives += o.primitives.size();
      objects.push_back({{"index", i},
                         {"vert_top", o.vert_top},
                         {"vertex_count", o.vertices.size()},
                         {"normal_top", o.normal_top},
                         {"normal_count", o.normals.size()},
                         {"prim_top", o.prim_top},
                         {"primitive_count", o.primitives.size()},
                         {"scale", o.scale},
                         {"primitives", own}});
      if (!summary.empty()) summary += "; ";
      summary += "#" + std::to_string(i) + ": " + std::to_string(o.vertices.size()) + " vertices, " +
                 std::to_string(o.primitives.size()) + " primitives";
    }
    std::string by_kind;
    for (const auto& [k, n] : kinds) by_kind += (by_kind.empty() ? "" : ", ") + k + ": " + std::to_string(n);
    for (const Gap& g : file_.gaps) gap_bytes += g.bytes.size();
    return {{"id", file_.id},
            {"flags", file_.flags},
            {"fixp", (file_.flags & kFlagFixp) != 0},
            {"offset_base", file_.offset_base},
            {"object_count", file_.objects.size()},
            {"vertex_count", vertices},
            {"normal_count", normals},
            {"primitive_count", primitives},
            {"primitives_by_kind", by_kind},
            {"primitive_counts", kinds},
            {"objects_summary", summary},
            {"gap_bytes", gap_bytes},
            {"objects", std::move(objects)}};
  }

  Scene Decode(const DecodeContext&) const override { return DecodeScene(file_); }

};

int Probe(ByteView data, std::string_view extension) {
  auto u32 = [&](size_t at) { return le::Load32(data.data() + at); };
  const bool ext = extension == ".tmd";
  const bool magic = data.size() >= 4 && u32(0) == kId;
  // A damaged .tmd (its id, not its structure) is still read, for the reader's error.
  const int broken = !ext ? kProbeNone : magic ? kProbeDamaged : kProbeExtension;
  if (data.size() < kHeaderSize || !magic || u32(4) > 1) return broken;
  const uint64_t count = u32(8);
  if (count == 0 || kHeaderSize + count * kObjectRecordSize > data.size()) return broken;
  // The first object's blocks lie inside the file.
  const uint64_t base = (u32(4) & kFlagFixp) ? 0 : kHeaderSize;
  for (int b = 0; b < 3; ++b) {
    const uint64_t top = u32(12 + 8 * size_t(b)), n = u32(16 + 8 * size_t(b));
    if (n != 0 && base + top + n * (b == 2 ? 4 : 8) > data.size()) return kProbeStructure;
  }
  return kProbeMagic;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  return std::make_unique<PsxTmdDocument>(Parse(data, SettingsFrom(context.options)));
}

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const Scene& source = scene.meshes.empty() && context.reference ? *context.reference : scene;
  if (source.meshes.empty()) throw Error::General("nothing to write: the input has no meshes");
  File file = EncodeScene(source);
  size_t primitives = 0;
  for (const Object& o : file.objects) primitives += o.primitives.size();
  context.report["objects"] = file.objects.size();
  context.report["primitives"] = primitives;
  return std::make_unique<PsxTmdDocument>(std::move(file));
}

}  // namespace
}  // namespace psx_tmd

const FormatDescriptor kPsxTmdFormat{
    .id = "psx-tmd", .description = "PS1 TMD model (Vib-Ribbon)",
    .extensions = {".tmd"}, .companions = {}, .probe = psx_tmd::Probe, .read = psx_tmd::Read, .encode = psx_tmd::Encode,
    .options = {psx_tmd::kFixpOption.spec()}, .up_axis = "-Y"};

}  // namespace animkit
