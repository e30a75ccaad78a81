// Registry entry and document for the EDF MDB model (skeleton only).
#include <animkit/formats/edf_mdb.hpp>

#include "formats/common/document.hpp"
#include "edf_mdb_fields.hpp"

#include <cstring>

namespace animkit {

namespace edf_mdb {
namespace {

class MdbDocument final : public FileDocument<File, kEdfMdbFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    Value names = Value::array();
    for (const NameEntry& n : file_.names) names.push_back({{"offset", n.offset}, {"name", n.name}});
    Value bones = Value::array();
    for (const Bone& b : file_.bones) {
      Value bone = {{"name", file_.names[b.name_index].name}};
      fields::Describe(bone, b, kBoneRecord);
      bones.push_back(std::move(bone));
    }
    Value info = {{"magic", "MDB0"}, {"names", std::move(names)}, {"bones", std::move(bones)}};
    fields::Describe(info, file_, kHeader);
    return info;
  }

  Scene Decode(const DecodeContext&) const override {
    Scene scene;
    scene.skeleton = DecodeSkeleton(file_);
    scene.metadata = {{kSourceFormatKey, "edf-mdb"}, {metadata_keys::kMdbVersion, file_.version}};
    return scene;
  }
  std::string Version() const override { return std::to_string(file_.version); }
};

int Probe(ByteView data, std::string_view extension) {
  if (data.size() >= kHeaderSize && std::memcmp(data.data(), "MDB0", 4) == 0) return kProbeMagic;
  if (data.size() >= 4 && std::memcmp(data.data(), "MDB0", 4) == 0) return kProbeStructure;
  return extension == ".mdb" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext&) { return std::make_unique<MdbDocument>(Parse(data)); }

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const Skeleton& skeleton = context.ModelToWrite(scene).skeleton;
  if (skeleton.empty()) throw Error::General("nothing to write: the input has no skeleton");
  context.report["bones"] = skeleton.joints.size();
  return std::make_unique<MdbDocument>(EncodeSkeleton(skeleton));
}

}  // namespace
}  // namespace edf_mdb

const FormatDescriptor kEdfMdbFormat{
    .id = "edf-mdb", .description = "Earth Defense Force MDB model (skeleton; meshes and materials kept as bytes)",
    .extensions = {".mdb"}, .companions = {}, .probe = edf_mdb::Probe, .read = edf_mdb::Read, .encode = edf_mdb::Encode,
    .options = {}};

}  // namespace animkit
