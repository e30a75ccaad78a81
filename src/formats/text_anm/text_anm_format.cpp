// Registry entry and document for the text ANM format.
#include <animkit/formats/text_anm.hpp>

#include "formats/common/document.hpp"
#include "formats/common/options.hpp"
#include <animkit/formats/gltf.hpp>
#include <animkit/io/io.hpp>
#include <animkit/offline/sampling.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace animkit {

namespace text_anm {
namespace {

const NumberOption<uint32_t> kGapOption{
    {.name = "anm-gap",
     .help = "text ANM output: a clip starts this many frames after the previous one's last frame",
     .default_value = "10", .min = 1, .max = 100000, .use = OptionUse::Write}};
const WordOption kSetOption{
    {.name = "anm-set", .help = "text ANM output: set name for clips without a SET/ prefix", .default_value = "anim", .use = OptionUse::Write}};
// Whether a decoded text ANM may keep its declared sets.
enum class LayoutRule { Auto, New };
const ChoiceOption<LayoutRule> kLayoutOption{
    {.name = "anm-layout",
     .help = "text ANM output: auto (a decoded text ANM keeps its sets, canonical) or new "
             "(always lay the clips out on a new timeline, written to OUT.timeline.glb)",
     .default_value = "auto", .use = OptionUse::Write},
    {{"auto", LayoutRule::Auto}, {"new", LayoutRule::New}}};

Value At(const Location& l) { return {{"line", l.line}, {"column", l.column}}; }

class TextAnmDocument final : public FileDocument<File, kTextAnmFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    size_t blank = 0, comments = 0, lf = 0, crlf = 0;
    for (const Line& l : file_.lines) {
      blank += l.kind == LineKind::Blank;
      comments += l.kind == LineKind::Comment;
      lf += l.eol == "\n";
      crlf += l.eol == "\r\n";
    }
    Value sets = Value::array();
    Value clips = Value::array();
    std::string summary;  // one line for the human `info`
    size_t bone_lines = 0, event_lines = 0;
    for (const AnimSet& s : file_.sets) {
      bone_lines += s.bones.size();
      event_lines += s.events.size();
      for (const AnimLine& a : s.anims) {
        summary += (summary.empty() ? "" : ", ") + s.name + "/" + a.name + " [" + std::to_string(a.start) + ".." +
                   std::to_string(a.end) + "]";
      }
      Value bones = Value::array(), events = Value::array(),
                     anims = Value::array();
      for (const BoneLine& b : s.bones) {
        Value flags = Value::array();
        if (b.parent && b.parent_first) flags.push_back("+parent");
        if (b.children) flags.push_back("+children");
        if (b.parent && !b.parent_first) flags.push_back("+parent");
        bones.push_back({{"bone", b.bone}, {"children", b.children}, {"parent", b.parent}, {"flags", flags},
                         {"at", At(b.at)}});
      }
      for (const EventLine& e : s.events) {
        events.push_back({{"frame", e.frame}, {"time", e.frame / kFramesPerSecond}, {"name", e.name}, {"at", At(e.at)}});
      }
      for (const AnimLine& a : s.anims) {
        anims.push_back({{"name", a.name}, {"start_frame", a.start}, {"end_frame", a.end}, {"at", At(a.at)}});
        clips.push_back({{"name", s.name + "/" + a.name},
                         {"start_frame", a.start},
                         {"end_frame", a.end},
                         {"start", a.start / kFramesPerSecond},
                         {"end", a.end / kFramesPerSecond}});
      }
      sets.push_back({{"name", s.name}, {"at", At(s.at)}, {"bones", bones}, {"events", events}, {"animations", anims}});
    }
    const Bytes bytes = Serialize(file_);
    const std::string canonical = Canonical(file_);
    return {{"frames_per_second", kFramesPerSecond},
            {"line_count", file_.lines.size()},
            {"blank_lines", blank},
            {"comment_lines", comments},
            {"line_ends", crlf == 0 ? "lf" : (lf == 0 ? "crlf" : "mixed")},
            {"final_line_end", !file_.lines.empty() && !file_.lines.back().eol.empty()},
            {"canonical", std::equal(bytes.begin(), bytes.end(), canonical.begin(), canonical.end())},
            {"set_count", file_.sets.size()},
            {"bone_lines", bone_lines},
            {"event_lines", event_lines},
            {"declared", summary},
            {"sets", sets},
            {"declared_clips", clips}};
  }

  Scene Decode(const DecodeContext& context) const override {
    if (!context.reference) {
      throw Error::General(
          "a text ANM only names frame ranges of a model's timeline: decoding it needs --skeleton MODEL (a glTF "
          "whose first animation is the timeline, or a game file with a skeleton and one clip)");
    }
    Scene scene = DecodeSets(file_, *context.reference, context.options.limits());
    scene.metadata[metadata_keys::kTextAnm] = {{metadata_keys::kCanonical, Canonical(file_)}};
    return scene;
  }
};

int Probe(ByteView data, std::string_view) {
  if (data.empty()) return kProbeNone;
  const size_t n = std::min<size_t>(data.size(), 4096);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t c = data[i];
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return kProbeNone;
  }
  size_t pos = 0;
  bool comment_seen = false;
  while (pos < n) {
    size_t end = pos;
    while (end < n && data[end] != '\n') ++end;
    size_t i = pos;
    while (i < end && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r')) ++i;
    if (i < end) {
      if (data[i] == '#') {
        comment_seen = true;
      } else {
        size_t j = i;
        while (j < end && data[j] != ' ' && data[j] != '\t' && data[j] != '\r') ++j;
        const std::string_view word(reinterpret_cast<const char*>(data.data()) + i, j - i);
        if (word == "as") return kProbeMagic - 5;  // above a binary ANM's score
        if (word == "bl" || word == "ev" || word == "an") return kProbeStructure;  // ours, out of order
        return kProbeNone;
      }
    }
    pos = end + 1;
  }
  return comment_seen ? kProbeStructure : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext&) { return std::make_unique<TextAnmDocument>(Parse(data)); }

// The first clip whose motion differs from what the declared sets cut from the model's
// timeline ("" when none does): an edit a text ANM alone cannot hold.
std::string EditedClip(const Scene& scene, const File& declared, const Scene& model, const Limits& limits) {
  const Scene cut = DecodeSets(declared, model, limits);
  double extent = 1;  // the model's size, for a translation tolerance in its units
  for (const Joint& j : model.skeleton.joints) {
    const Vec3 t = j.rest.translation;
    extent = std::max(extent, std::sqrt(double(t.x) * t.x + double(t.y) * t.y + double(t.z) * t.z));
  }
  for (size_t i = 0; i < scene.clips.size() && i < cut.clips.size(); ++i) {
    const PoseDifference d = ComparePoses(cut.clips[i], scene.clips[i], &model.skeleton, limits);
    if (d.rotation > 1e-4 || d.translation > 1e-4 * extent || d.scale > 1e-4 ||
        scene.clips[i].frame_count != cut.clips[i].frame_count)
      return scene.clips[i].name;
  }
  return "";
}

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const LayoutRule layout = kLayoutOption.Get(context.options);
  // A scene decoded from a text ANM, with the model it was cut from: the declared sets, canonical.
  const Value& declared_text = scene.metadata[metadata_keys::kTextAnm][metadata_keys::kCanonical];
  if (layout == LayoutRule::Auto && context.reference && declared_text.is_string()) {
    const std::string text = declared_text.get<std::string>();
    File declared = Parse(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    std::vector<std::string> names;
    for (const Clip& c : scene.clips) names.push_back(c.name);
    if (names == ClipNames(declared)) {
      if (const std::string edited = EditedClip(scene, declared, *context.reference, context.options.limits());
          edited.empty()) {
        context.report["layout"] = "declared sets, canonical form (the timeline is the --skeleton model)";
        context.report["sets"] = declared.sets.size();
        return std::make_unique<TextAnmDocument>(std::move(declared));
      } else {
        context.warnings.push_back("clip '" + edited +
                                   "' is not the motion its set cuts from the --skeleton timeline: the sets are laid "
                                   "out on a new timeline, written beside the output");
      }
    }
  }
  LayoutSettings settings;
  settings.gap_frames = kGapOption.Get(context.options);
  settings.default_set = kSetOption.Get(context.options);
  const Skeleton* skeleton = &context.Rest(scene);
  std::string timeline_path, header;
  if (!context.output_path.empty()) {
    timeline_path = TimelinePathFor(context.output_path);
    header = "timeline: " + TextOf(PathOf(timeline_path).filename()) +
             " (sets cut from its first animation, 24 frames per second)";
  }
  Layout result = LayOut(scene.clips, *skeleton, settings, header);
  context.report = result.report;
  context.report["layout"] = "new timeline";
  if (!timeline_path.empty()) {
    // Written by the caller with the output (one writer for every file).
    context.extra_outputs.push_back({timeline_path, ExportGltf(result.timeline, GltfExportOptions{true, context.options.limits()})});
    context.report["timeline"] = timeline_path;
  } else {
    context.report["timeline"] = nullptr;
  }
  return std::make_unique<TextAnmDocument>(std::move(result.file));
}

}  // namespace
}  // namespace text_anm

const FormatDescriptor kTextAnmFormat{
    .id = "text-anm", .description = "text ANM animation sets over a model's timeline",
    .extensions = {".anm"}, .companions = {".glb", ".gltf"}, .probe = text_anm::Probe, .read = text_anm::Read, .encode = text_anm::Encode,
    .options = {text_anm::kGapOption.spec(), text_anm::kSetOption.spec(), text_anm::kLayoutOption.spec()},
    .multi_clip = true, .animation_extensions = {".anm"}};

}  // namespace animkit
