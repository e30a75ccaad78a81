// Registry entry and document for the EDF CANM format.
#include <animkit/formats/edf_canm.hpp>

#include "formats/common/document.hpp"
#include "formats/common/options.hpp"
#include "edf_canm_fields.hpp"

#include <cstring>

namespace animkit {

namespace edf_canm {
namespace {

const NumberOption<double> kFpsOption{{.name = "canm-fps",
                                       .help = "CANM engine frames per second that duration and interval count",
                                       .default_value = "60", .min = 0, .max = 1000, .min_exclusive = true, .use = OptionUse::ReadWrite}};
const ChoiceOption<uint32_t> kVersionOption{{.name = "canm-version",
                                             .help = "CANM version to write: 512 (EDF 4.1/5) or 768 (EDF 6); default: "
                                                     "the --template's version, else the input CANM's, else 512", .use = OptionUse::Write},
                                            {{"512", kVersion5}, {"768", kVersion6}}};

double EngineFps(const Options& o) { return kFpsOption.Get(o); }

class CanmDocument final : public FileDocument<File, kEdfCanmFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    Value animations = Value::array();
    std::vector<size_t> users(file_.channels.size(), 0);
    for (const Animation& a : file_.animations) {
      Value bones = Value::array();
      for (const BoneEntry& e : a.bones) {
        for (int16_t c : {e.position, e.rotation, e.scale})
          if (c >= 0) ++users[size_t(c)];
        bones.push_back({{"name_index", e.name_index},
                         {"name", file_.names[size_t(e.name_index)].name},
                         {"position_channel", e.position},
                         {"rotation_channel", e.rotation},
                         {"scale_channel", e.scale}});
      }
      Value animation = {{"name", a.name}, {"bones", std::move(bones)}};
      fields::Describe(animation, a, kAnimationEntry);
      animations.push_back(std::move(animation));
    }
    Value channels = Value::array();
    for (size_t i = 0; i < file_.channels.size(); ++i) {
      const Channel& c = file_.channels[i];
      Value j = {{"index", i},
                 {"key_count", c.key_count},
                 {"base", c.base},
                 {"speed", c.speed},
                 {"key_offset", c.key_offset},
                 {"users", users[i]},
                 {"shared", users[i] > 1}};
      if (file_.version == kVersion5) {
        j["has_keyframes"] = c.has_keyframes;
      } else {
        j["type"] = c.type;  // 0 static vector, 1 u16 xyz, 2 static quaternion, 3 float quaternion
        j["pad"] = c.pad;
      }
      if (!c.keys.empty()) j["keys"] = c.keys;
      if (!c.quats.empty()) j["quaternion_keys"] = c.quats;
      channels.push_back(std::move(j));
    }
    Value names = Value::array();
    for (const NameEntry& n : file_.names) names.push_back({{"offset", n.offset}, {"name", n.name}});
    Value info = {{"magic", "CANM"},
                  {"version", file_.version},
                  {"game", file_.version == kVersion6 ? "EDF 6" : "EDF 4.1 / EDF 5"},
                  {"channel_size", file_.channel_size()},
                  {"animations", std::move(animations)},
                  {"channels", std::move(channels)},
                  {"bone_names", std::move(names)}};
    fields::Describe(info, file_, kHeaderTables);
    return info;
  }

  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    scene.skeleton = context.Rest(scene);
    DecodeSettings settings;
    settings.engine_fps = EngineFps(context.options);
    settings.limits = context.options.limits();
    scene.clips = DecodeClips(file_, settings);
    scene.metadata = {{kSourceFormatKey, "edf-canm"}, {metadata_keys::kCanmVersion, file_.version}};
    return scene;
  }
  std::string Version() const override { return std::to_string(file_.version); }
  std::vector<std::string> Warnings() const override { return file_.warnings; }
};

int Probe(ByteView data, std::string_view extension) {
  if (data.size() >= 8 && std::memcmp(data.data(), "CANM", 4) == 0) {
    const uint32_t v = le::Load32(data.data() + 4);
    return v == kVersion5 || v == kVersion6 ? kProbeMagic : kProbeStructure;
  }
  return extension == ".canm" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext&) { return std::make_unique<CanmDocument>(Parse(data)); }

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  EncodeSettings settings;
  // Without --canm-version, the version of the file being replaced, else of the CANM the
  // scene was decoded from, else of the one its metadata names (it survives glTF), else 512.
  uint32_t kept = kVersion5;
  if (const auto* templ = context.templ ? dynamic_cast<const CanmDocument*>(context.templ->document) : nullptr) {
    kept = templ->file().version;
  } else if (scene.source.format == kEdfCanmFormat.id) {
    kept = scene.source.version == std::to_string(kVersion6) ? kVersion6 : kVersion5;
  } else if (scene.metadata.is_object() && scene.metadata.value(kSourceFormatKey, "") == kEdfCanmFormat.id) {
    kept = scene.metadata.value(metadata_keys::kCanmVersion, kVersion5);
  }
  settings.version = kVersionOption.Get(context.options, kept == kVersion6 ? kVersion6 : kVersion5);
  settings.engine_fps = EngineFps(context.options);
  const Skeleton& rest = context.Rest(scene);
  const Skeleton* skeleton = rest.empty() ? nullptr : &rest;
  return std::make_unique<CanmDocument>(EncodeClips(scene.clips, settings, skeleton, &context.report));
}

}  // namespace
}  // namespace edf_canm

const FormatDescriptor kEdfCanmFormat{
    .id = "edf-canm", .description = "Earth Defense Force CANM animation (EDF 4.1/5: version 512, EDF 6: version 768)",
    .extensions = {".canm"}, .companions = {".mdb"}, .probe = edf_canm::Probe, .read = edf_canm::Read, .encode = edf_canm::Encode,
    .options = {edf_canm::kFpsOption.spec(), edf_canm::kVersionOption.spec()},
    .multi_clip = true, .animation_extensions = {".canm"}};

}  // namespace animkit
