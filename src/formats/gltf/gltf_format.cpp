// The "gltf" entry of the format table: .gltf and .glb through ExportGltf/ImportGltf.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/formats/gltf.hpp>

#include <animkit/offline/root_motion.hpp>

#include "formats/common/descriptors.hpp"
#include "formats/common/options.hpp"
#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>
#include <optional>

namespace animkit {

namespace {

// docs/conventions.md, "Root motion": extract adds the root_motion node (ExtractRootMotion).
const ChoiceOption<bool> kRootMotionOption{
    {.name = "root-motion",
     .help = "glTF: keep the root-motion joint's motion as it is, or extract its ground travel and turn into a "
             "root_motion node above it",
     .default_value = "keep",
     .use = OptionUse::Write},
    {{"keep", false}, {"extract", true}}};

// A glTF file kept byte for byte; parsed again for Info() and Decode().
class GltfDocument : public Document {
 public:
  // path locates external buffers of a .gltf ("" when the bytes did not come from a file).
  GltfDocument(Bytes bytes, std::string path, Limits limits)
      : bytes_(std::move(bytes)), path_(std::move(path)), limits_(limits) {}

  const FormatDescriptor& format() const override { return kGltfFormat; }
  Bytes Write() const override { return bytes_; }

  Value Info() const override {
    tinygltf::Model model = gltf::LoadModel(bytes_, path_, limits_);
    Value info = {
        {"container", gltf::IsGlb(bytes_) ? "glb" : "gltf"},
        {"asset", {{"version", model.asset.version}, {"generator", model.asset.generator}}},
        {"scenes", model.scenes.size()},
        {"buffers", model.buffers.size()},
        {"accessors", model.accessors.size()},
    };
    if (!model.asset.minVersion.empty()) info["asset"]["minVersion"] = model.asset.minVersion;
    Value nodes = Value::array();
    for (const tinygltf::Node& node : model.nodes) nodes.push_back(node.name);
    info["nodes"] = {{"count", model.nodes.size()}, {"names", std::move(nodes)}};
    Value skins = Value::array();
    for (const tinygltf::Skin& skin : model.skins) skins.push_back({{"name", skin.name}, {"joints", skin.joints.size()}});
    info["skins"] = {{"count", model.skins.size()}, {"list", std::move(skins)}};
    Value animations = Value::array();
    for (const tinygltf::Animation& a : model.animations)
      animations.push_back({{"name", a.name}, {"channels", a.channels.size()}, {"samplers", a.samplers.size()}});
    info["animations"] = {{"count", model.animations.size()}, {"list", std::move(animations)}};
    return info;
  }

  Scene Decode(const DecodeContext& context) const override {
    return ImportGltf(bytes_, path_, context.options.limits());
  }

 private:
  Bytes bytes_;
  std::string path_;
  Limits limits_;  // those it was read with, for Info()
};

int Probe(ByteView data, std::string_view extension) {
  if (gltf::IsGlb(data)) return data.size() >= 12 && data[4] == 2 && !data[5] && !data[6] && !data[7] ? kProbeMagic : kProbeStructure;
  std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  size_t start = text.find_first_not_of(" \t\r\n");
  if (text.substr(0, 3) == "\xEF\xBB\xBF") start = text.find_first_not_of(" \t\r\n", 3);
  if (start != std::string_view::npos && text[start] == '{' && text.find("\"asset\"") != std::string_view::npos)
    return kProbeStructure;
  return extension == ".gltf" || extension == ".glb" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  const Limits& limits = context.options.limits();
  gltf::LoadModel(data, context.path, limits);  // rejects what tinygltf cannot parse, now rather than at Decode
  return std::make_unique<GltfDocument>(Bytes(data.begin(), data.end()), context.path, limits);
}

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  GltfExportOptions options;
  options.binary = ExtensionOf(context.output_path) != ".gltf";
  options.limits = context.options.limits();
  std::optional<Scene> extracted;
  if (kRootMotionOption.Get(context.options)) {
    extracted = scene;
    for (const std::string& w : ExtractRootMotion(*extracted, options.limits)) context.warnings.push_back(w);
  }
  Bytes bytes = ExportGltf(extracted ? *extracted : scene, options);
  context.report["gltf"] = {{"container", options.binary ? "glb" : "gltf"}, {"bytes", bytes.size()},
                            {"animations", scene.clips.size()}};
  return std::make_unique<GltfDocument>(std::move(bytes), std::string(), context.options.limits());
}

}  // namespace

const FormatDescriptor kGltfFormat = {
    .id = "gltf",
    .description = "glTF 2.0 (.gltf with embedded buffers, .glb)",
    .extensions = {".gltf", ".glb"},
    .companions = {},
    .probe = &Probe,
    .read = &Read,
    .encode = &Encode,
    .options = {kRootMotionOption.spec()},
    .multi_clip = true,
    .side_files = {{".bin", "buffers of the glTF files beside them"},
                   {".jpg", "images of the glTF files beside them"},
                   {".jpeg", "images of the glTF files beside them"}},
};

}  // namespace animkit
