// Registry entry and document for the PS1 ANM format.
#include <animkit/formats/psx_anm.hpp>

#include "formats/common/document.hpp"
#include "formats/common/clips.hpp"
#include "formats/common/psx.hpp"

namespace animkit {

namespace psx_anm {
namespace {

const ChoiceOption<EulerOrder> kEulerOption{
    {.name = "euler", .help = "Euler order of PS1 ANM rotations (xyz: X applied first, R = Rz Ry Rx)",
     .default_value = "xyz"},
    {{"xyz", EulerOrder::XYZ}, {"zyx", EulerOrder::ZYX}}};
const ChoiceOption<MissingField> kMissingOption{
    {.name = "psx-missing", .help = "PS1 ANM keyframes without rotation/position: hold the last value or interpolate",
     .default_value = "hold"},
    {{"hold", MissingField::Hold}, {"interpolate", MissingField::Interpolate}}};

DecodeSettings SettingsFrom(const Options& o) {
  DecodeSettings s;
  s.euler = kEulerOption.Get(o);
  s.missing = kMissingOption.Get(o);
  s.frame_rate = psx::kRateOption.Get(o);
  return s;
}

class PsxAnmDocument final : public FileDocument<File, kPsxAnmFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    Value frames = Value::array();
    size_t keyframes = 0;
    for (const Frame& f : file_.frames) {
      Value keys = Value::array();
      for (const Keyframe& k : f.keyframes) {
        Value j = {{"object", k.object}, {"flags", k.flags}};
        if (k.flags & kFlagRotation) j["rotation"] = psx::Triple(k.rotation);
        if (k.flags & kFlagScale) j["scale"] = psx::Triple(k.scale);
        if (k.flags & kFlagPosition) j["position"] = psx::Triple(k.position);
        keys.push_back(std::move(j));
      }
      keyframes += f.keyframes.size();
      frames.push_back(std::move(keys));
    }
    return {{"marker", file_.marker},
            {"header_unknown", file_.unknown},
            {"frame_count", file_.frames.size()},
            {"keyframe_count", keyframes},
            {"gap_bytes", file_.gap.size()},
            {"trailing_bytes", file_.trailing.size()},
            {"frames", std::move(frames)}};
  }

  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    scene.skeleton = context.Rest(scene);
    std::vector<std::string> names;
    for (const Joint& j : scene.skeleton.joints) names.push_back(j.name);
    // Objects are joints by index: one the skeleton lacks cannot be placed.
    if (!scene.skeleton.empty()) CheckObjects(file_, scene.skeleton.joints.size(), "the --skeleton model");
    scene.clips.push_back(DecodeClip(file_, SettingsFrom(context.options), names));
    scene.clips.back().name = "anm";
    return scene;
  }


};

int Probe(ByteView data, std::string_view extension) {
  const bool marker = data.size() >= 2 && data[0] == 0x00 && data[1] == 0x80;
  // ".anm" is shared with the text ANM: only the marker with the extension marks a
  // damaged PS1 ANM (read for the reader's error).
  const int broken = marker && extension == ".anm" ? kProbeDamaged : kProbeNone;
  if (data.size() < 8 || !marker) return broken;
  const size_t frames = le::Load16(data.data() + 4);
  const size_t table_end = 6 + 2 * (frames + 1);
  if (table_end > data.size()) return broken;
  size_t prev = 0;
  for (size_t i = 0; i <= frames; ++i) {
    size_t off = size_t(le::Load16(data.data() + 6 + 2 * i)) * 2;
    if (off < prev || off > data.size() || (i == 0 && off < table_end)) return broken;
    prev = off;
  }
  // A two-byte marker is weak evidence; a table that ends exactly at the end of the file is strong.
  return prev == data.size() ? kProbeMagic - 10 : kProbeStructure;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext&) { return std::make_unique<PsxAnmDocument>(Parse(data)); }

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const Clip& clip = OneClip(scene, "a PS1 ANM");
  const Skeleton& rest = context.Rest(scene);
  File file = EncodeClip(clip, SettingsFrom(context.options), rest.empty() ? nullptr : &rest);
  size_t keyframes = 0;
  for (const Frame& f : file.frames) keyframes += f.keyframes.size();
  context.report["frames"] = file.frames.size();
  context.report["keyframes"] = keyframes;
  return std::make_unique<PsxAnmDocument>(std::move(file));
}

}  // namespace
}  // namespace psx_anm

const FormatDescriptor kPsxAnmFormat{
    .id = "psx-anm", .description = "PS1 ANM model animation (Vib-Ribbon)",
    .extensions = {".anm"}, .companions = {".tmd"}, .probe = psx_anm::Probe, .read = psx_anm::Read, .encode = psx_anm::Encode,
    .options = {psx_anm::kEulerOption.spec(), psx_anm::kMissingOption.spec(), psx::kRateOption.spec()},
    .up_axis = "-Y", .animation_extensions = {".anm"}};

}  // namespace animkit
