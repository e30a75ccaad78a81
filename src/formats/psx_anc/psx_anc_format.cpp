// Registry entry and document for the PS1 ANC camera animation format.
#include <animkit/formats/psx_anc.hpp>

#include "formats/common/document.hpp"
#include "formats/common/psx.hpp"

namespace animkit {

namespace psx_anc {
namespace {

const ChoiceOption<TwistUnit> kTwistOption{
    {.name = "psx-anc-twist", .help = "PS1 ANC twist: angle (4096 per turn) or ignore", .default_value = "angle"},
    {{"angle", TwistUnit::Angle4096}, {"ignore", TwistUnit::Ignore}}};
const ChoiceOption<FovUnit> kFovOption{
    {.name = "psx-anc-fov",
     .help = "PS1 ANC field of view: raw (kept), angle (4096 per turn) or projection (distance to a 240-line screen)",
     .default_value = "raw"},
    {{"raw", FovUnit::Raw}, {"angle", FovUnit::Angle4096}, {"projection", FovUnit::Projection}}};

DecodeSettings SettingsFrom(const Options& o) {
  DecodeSettings s;
  s.twist = kTwistOption.Get(o);
  s.fov = kFovOption.Get(o);
  s.frame_rate = psx::kRateOption.Get(o);
  return s;
}

class PsxAncDocument final : public FileDocument<File, kPsxAncFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    Value keys = Value::array();
    for (const Keyframe& k : file_.keyframes) {
      keys.push_back({{"position", psx::Triple(k.position)}, {"target", psx::Triple(k.target)}, {"twist", k.twist}, {"fov", k.fov}});
    }
    return {{"marker", file_.marker},
            {"header_unknown", file_.unknown},
            {"keyframe_count", file_.keyframes.size()},
            {"trailing_bytes", file_.trailing.size()},
            {"keyframes", std::move(keys)}};
  }

  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    scene.skeleton = context.Rest(scene);
    scene.clips.push_back(DecodeClip(file_, SettingsFrom(context.options)));
    return scene;
  }
};

int Probe(ByteView data, std::string_view extension) {
  const bool ext = extension == ".anc";
  const bool marker = data.size() >= 2 && data[0] == 0x00 && data[1] == 0x80;
  // A damaged .anc (its marker, not its structure) is still read, for the reader's error.
  const int broken = !ext ? kProbeNone : marker ? kProbeDamaged : kProbeExtension;
  if (data.size() < kHeaderSize || !marker) return broken;
  const size_t count = le::Load16(data.data() + 4);
  const size_t end = kHeaderSize + count * kKeyframeSize;
  if (end > data.size()) return broken;
  // The ANM shares the marker; an exact fit plus the extension decides.
  if (end == data.size()) return extension == ".anc" ? kProbeMagic : kProbeStructure;
  return extension == ".anc" ? kProbeStructure : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext&) { return std::make_unique<PsxAncDocument>(Parse(data)); }

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const Clip* clip = nullptr;
  for (const Clip& c : scene.clips) {
    if (c.cameras.empty()) continue;
    if (clip) throw Error::General("a PS1 ANC holds one camera clip and the input has several: choose one with --clip NAME");
    clip = &c;
  }
  if (!clip) throw Error::General("nothing to write: the input has no camera animation");
  File file = EncodeClip(*clip, SettingsFrom(context.options));
  context.report["keyframes"] = file.keyframes.size();
  return std::make_unique<PsxAncDocument>(std::move(file));
}

}  // namespace
}  // namespace psx_anc

const FormatDescriptor kPsxAncFormat{
    .id = "psx-anc", .description = "PS1 ANC camera animation (Vib-Ribbon)",
    .extensions = {".anc"}, .companions = {}, .probe = psx_anc::Probe, .read = psx_anc::Read, .encode = psx_anc::Encode,
    .options = {psx_anc::kTwistOption.spec(), psx_anc::kFovOption.spec(), psx::kRateOption.spec()},
    .up_axis = "-Y", .animation_extensions = {".anc"}};

}  // namespace animkit
