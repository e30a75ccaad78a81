// Registry entry and document for the EDF MDB model: skeleton, meshes, materials, textures.
#include <animkit/formats/edf_mdb.hpp>

#include "formats/common/document.hpp"
#include "edf_mdb_fields.hpp"

#include <cstring>
#include <filesystem>

namespace animkit {

namespace edf_mdb {
namespace {

class MdbDocument final : public FileDocument<File, kEdfMdbFormat, Serialize> {
 public:
  // path: the file read ("" for bytes from memory); its textures are looked for beside it,
  // or among the archive's members when neighbour is set (read from inside an EDF RAB).
  MdbDocument(File file, std::string path, const std::function<std::optional<Bytes>(std::string_view)>& neighbour = {})
      : FileDocument(std::move(file)), path_(std::move(path)) {
    model_ = ParseModel(file_);
    damaged_ = model_.damaged;
    decoded_.skeleton = DecodeSkeleton(file_);
    TextureReader reader;
    if (neighbour) {
      reader = [&neighbour](const std::string& name, std::string& why) {
        std::optional<Bytes> bytes = neighbour(name);
        if (!bytes) why = "the archive has no readable member '" + name + "'";
        return bytes;
      };
    } else if (!path_.empty()) {
      reader = FolderTextureReader(std::filesystem::path(path_).parent_path().string());
    }
    DecodeModel(file_, model_, reader, decoded_, damaged_);
    for (const Image& t : decoded_.textures)
      if (t.Missing()) warnings_.push_back("texture '" + t.name + "': " + t.missing + " (its materials keep their names)");
  }

  std::vector<std::string> Damaged() const override { return damaged_; }
  std::vector<std::string> Warnings() const override { return warnings_; }

  Value Info() const override {
    Value names = Value::array();
    for (const NameEntry& n : file_.names) names.push_back({{"offset", n.offset}, {"name", n.name}});
    Value bones = Value::array();
    for (const Bone& b : file_.bones) {
      Value bone = {{"name", file_.names[b.name_index].name}};
      fields::Describe(bone, b, kBoneRecord);
      bones.push_back(std::move(bone));
    }
    Value info = {{"magic", "MDB0"}, {"names", std::move(names)}, {"bones", std::move(bones)}, {"model", ModelInfo()}};
    fields::Describe(info, file_, kHeader);
    return info;
  }

  // Decoded once when read (textures with it, from the model's folder): Damaged and
  // Warnings then list what did not decode.
  Scene Decode(const DecodeContext&) const override {
    Scene scene = decoded_;
    scene.metadata = {{kSourceFormatKey, "edf-mdb"}, {metadata_keys::kMdbVersion, file_.version}};
    return scene;
  }

  // The meshes as declared (the decoded ones are the Scene's), materials and textures.
  Value ModelInfo() const {
    Value objects = Value::array();
    for (const ObjectRecord& o : model_.objects) {
      Value meshes = Value::array();
      for (const MeshRecord& m : o.meshes) {
        Value layout = Value::array();
        for (const VertexElement& e : m.layout)
          layout.push_back({{"name", e.name}, {"type", e.type}, {"offset", e.offset}, {"channel", e.channel}});
        meshes.push_back({{"offset", m.at}, {"topology", m.topology}, {"skinned", m.skinned},
                          {"influences", m.influences}, {"material", m.material}, {"stride", m.stride},
                          {"vertices", m.vertex_count}, {"indices", m.index_count}, {"layout", std::move(layout)}});
      }
      objects.push_back({{"index", o.index}, {"name", o.name}, {"meshes", std::move(meshes)}});
    }
    Value materials = Value::array();
    for (const MaterialRecord& m : model_.materials) {
      Value slots = Value::array();
      for (const MaterialTexture& t : m.textures) slots.push_back({{"map", t.map}, {"texture", t.texture}});
      materials.push_back({{"name", m.name}, {"shader", m.shader}, {"textures", std::move(slots)}});
    }
    Value textures = Value::array();
    for (const TextureRecord& t : model_.textures) textures.push_back({{"name", t.name}, {"file", t.file_name}});
    return {{"objects", std::move(objects)}, {"materials", std::move(materials)}, {"textures", std::move(textures)}};
  }
  std::string Version() const override { return std::to_string(file_.version); }

 private:
  std::string path_;
  Model model_;
  Scene decoded_;
  std::vector<std::string> damaged_, warnings_;
};

int Probe(ByteView data, std::string_view extension) {
  if (data.size() >= kHeaderSize && std::memcmp(data.data(), "MDB0", 4) == 0) return kProbeMagic;
  if (data.size() >= 4 && std::memcmp(data.data(), "MDB0", 4) == 0) return kProbeStructure;
  return extension == ".mdb" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  return std::make_unique<MdbDocument>(Parse(data), context.path, context.neighbour);
}

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const Skeleton& skeleton = context.ModelToWrite(scene).skeleton;
  if (skeleton.empty()) throw Error::General("nothing to write: the input has no skeleton");
  context.report["bones"] = skeleton.joints.size();
  return std::make_unique<MdbDocument>(EncodeSkeleton(skeleton), std::string());
}

}  // namespace
}  // namespace edf_mdb

const FormatDescriptor kEdfMdbFormat{
    .id = "edf-mdb", .description = "Earth Defense Force MDB model (skeleton, meshes, materials, textures)",
    .extensions = {".mdb"}, .companions = {}, .probe = edf_mdb::Probe, .read = edf_mdb::Read, .encode = edf_mdb::Encode,
    .options = {}};

}  // namespace animkit
