// Registry entry and document for the EDF MDB model: skeleton, meshes, materials, textures.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/io/path.hpp>

#include "formats/common/document.hpp"
#include "formats/common/edf.hpp"
#include "formats/common/options.hpp"
#include "edf_mdb_fields.hpp"
#include "edf_mdb_write.hpp"

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
      reader = FolderTextureReader(TextOf(PathOf(path_).parent_path()));
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
    for (const StoredObject& o : model_.objects) {
      Value meshes = Value::array();
      for (const StoredMesh& m : o.meshes) {
        meshes.push_back({{"offset", m.at}, {"topology", m.flags[0]}, {"skinned", m.flags[1]},
                          {"influences", int8_t(m.flags[2])}, {"material", m.material}, {"stride", m.stride},
                          {"vertices", m.vertex_count}, {"indices", m.index_count}, {"layout", write::LayoutValue(m)}});
      }
      objects.push_back({{"index", o.index}, {"name", NameOf(file_, o.name)}, {"meshes", std::move(meshes)}});
    }
    Value materials = Value::array();
    for (const StoredMaterial& m : model_.materials) {
      Value slots = Value::array();
      for (const StoredSlot& t : m.slots) slots.push_back({{"map", AsciiName(t.map)}, {"texture", t.texture}});
      materials.push_back({{"name", NameOf(file_, m.name)}, {"shader", Utf8(m.shader)}, {"textures", std::move(slots)}});
    }
    Value textures = Value::array();
    for (const StoredTexture& t : model_.textures) textures.push_back({{"name", Utf8(t.name)}, {"file", Utf8(t.file_name)}});
    return {{"objects", std::move(objects)}, {"materials", std::move(materials)}, {"textures", std::move(textures)}};
  }
  std::string Version() const override { return std::to_string(file_.version); }
  const std::vector<Image>& Textures() const { return decoded_.textures; }

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

// --edf-version, shared with the EDF CAS writer.
const ChoiceOption<uint32_t> kVersionOption{edf::EdfVersionSpec(),
                                            {{"6", kVersionEdf6}, {"5", kVersionEdf5}, {"4.1", kVersionEdf5}}};

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const auto* templ = context.templ ? dynamic_cast<const MdbDocument*>(context.templ->document) : nullptr;
  if (context.templ && !templ) throw Error::General("the template " + context.templ->path + " is not an EDF MDB");
  if (!templ && scene.meshes.empty()) {  // a skeleton-only model
    const Skeleton& skeleton = context.ModelToWrite(scene).skeleton;
    if (skeleton.empty()) throw Error::General("nothing to write: the input has no skeleton or meshes");
    context.report["bones"] = skeleton.joints.size();
    return std::make_unique<MdbDocument>(EncodeSkeleton(skeleton, kVersionOption.Get(context.options, kVersionEdf5)),
                                         std::string());
  }
  WriteOptions options;
  WriteResult result;
  if (templ) {
    options.template_images = &templ->Textures();  // as read: beside it, or from its archive
    result = WriteModel(scene, templ->file(), options);
  } else {
    const uint32_t input = scene.metadata.value<uint32_t>(metadata_keys::kMdbVersion, kVersionEdf6);
    options.version = kVersionOption.Get(context.options, input == kVersionEdf5 ? kVersionEdf5 : kVersionEdf6);
    if (context.reference && context.reference != &scene && !context.reference->skeleton.empty())
      options.skeleton = &context.reference->skeleton;
    result = WriteModel(scene, options);
  }
  context.report["meshes_kept"] = result.kept_meshes;
  context.report["meshes_rebuilt"] = result.rebuilt_meshes;
  context.report["meshes_new"] = result.new_meshes;
  context.report["meshes_deleted"] = result.deleted_meshes;
  for (std::string& w : result.warnings) context.warnings.push_back(std::move(w));
  const std::filesystem::path folder = PathOf(context.output_path).parent_path();
  for (auto& [name, bytes] : result.textures) context.extra_outputs.push_back({TextOf(folder / PathOf(name)), std::move(bytes)});
  return std::make_unique<MdbDocument>(Parse(result.mdb), std::string());
}

}  // namespace
}  // namespace edf_mdb

const FormatDescriptor kEdfMdbFormat{
    .id = "edf-mdb", .description = "Earth Defense Force MDB model (skeleton, meshes, materials, textures)",
    .extensions = {".mdb"}, .companions = {}, .probe = edf_mdb::Probe, .read = edf_mdb::Read, .encode = edf_mdb::Encode,
    .options = {edf_mdb::kVersionOption.spec()},
    .side_files = {{".dds", "textures of the EDF models (.mdb) beside them"}}};

}  // namespace animkit
