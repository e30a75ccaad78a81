// Registry entries and documents for KH2 BAR archives (kh2-bar) and bare motion entries (kh2-motion).
#include <animkit/formats/kh2/curves.hpp>
#include <animkit/formats/registry.hpp>
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/model/kh2_model_write.hpp"

#include "formats/common/clips.hpp"
#include "formats/common/document.hpp"
#include "formats/common/options.hpp"

#include <cstdio>
#include <map>
#include <set>

#include <string>

namespace animkit {

namespace kh2 {
namespace {

const ChoiceOption<RawSpace> kRawSpaceOption{
    {.name = "kh2-raw-space",
     .help = "KH2 raw motion: auto (local when a skeleton is known, else model), model or local",
     .default_value = "auto"},
    {{"auto", RawSpace::Auto}, {"model", RawSpace::Model}, {"local", RawSpace::Local}}};
const ChoiceOption<TriggerRate> kTriggerRateOption{
    {.name = "kh2-trigger-rate",
     .help = "KH2 trigger frames count the motion's own frames (motion) or 1/60 s (engine)",
     .default_value = "motion"},
    {{"motion", TriggerRate::Motion}, {"engine", TriggerRate::Engine}}};
const ChoiceOption<bool> kConstraintsOption{
    {.name = "kh2-constraints",
     .help = "KH2 interpolated motion: on evaluates the game's pose (constraints, expressions, IK), off gives the "
             "curves alone",
     .default_value = "on"},
    {{"on", true}, {"off", false}}};
const ChoiceOption<bool> kKeysOption{
    {.name = "kh2-keys",
     .help = "KH2 interpolated motion: stored gives each joint's curves as its keys (Hermite; rotations a quaternion "
             "spline within 2e-5 rad) wherever they are the game's pose, frames one key per played frame (the game's "
             "pose exactly); default: stored for glTF and Blender, frames for sample, Python and the preview"},
    {{"stored", true}, {"frames", false}}};
const ChoiceOption<bool> kUnverifiedOption{
    {.name = "kh2-unverified-constraints",
     .help = "KH2: off leaves joints of constraint types whose rule is not verified against the game (all but "
             "Position and Orientation) as forward kinematics, on applies animkit's reading of them",
     .default_value = "off"},
    {{"on", true}, {"off", false}}};
const FlagOption kRawOption{{.name = "raw", .help = "KH2: write raw matrices instead of an interpolated motion", .use = OptionUse::Write}};
const NumberOption<float> kToleranceOption{{.name = "kh2-tolerance",
                                            .help = "KH2 interpolated encoder: largest error at any frame, radians "
                                                    "for rotation and relative for translation and scale",
                                            .default_value = "1e-4", .min = 0, .max = 1, .use = OptionUse::Write}};

const ChoiceOption<ShadowWrite> kShadowOption{
    {.name = "kh2-shadow",
     .help = "KH2 model written over a template: its shadow model kept byte for byte, rebuilt from the new meshes "
             "(each vertex on its heaviest bone; the stock shadow packet layout is not known) or dropped",
     .default_value = "keep", .use = OptionUse::Write},
    {{"keep", ShadowWrite::Keep}, {"rebuild", ShadowWrite::Rebuild}, {"drop", ShadowWrite::Drop}}};
const ChoiceOption<detail::SkeletonSource> kModelSkeletonOption{
    {.name = "kh2-skeleton",
     .help = "KH2 model written without a template: reference takes the bones of the --skeleton model (joints matched "
             "by name), gltf writes the glTF's own skeleton as the model's",
     .default_value = "reference", .use = OptionUse::Write},
    {{"reference", detail::SkeletonSource::Reference}, {"gltf", detail::SkeletonSource::Scene}}};
const NumberOption<int> kPacketOption{{.name = "kh2-packet-qwords",
                                       .help = "KH2 model: a rebuilt group's VIF packet is closed before its VU1 "
                                               "footprint reaches this many qwords (the game's limit: 224)",
                                       .default_value = "224", .min = 32, .max = 255, .use = OptionUse::Write}};
const FlagOption kRebuildOption{{.name = "kh2-rebuild-groups",
                                 .help = "KH2 model: rebuild every group's VIF packets, unedited ones too",
                                 .use = OptionUse::Write}};

detail::ModelBarSettings ModelSettingsFrom(const Options& o) {
  detail::ModelBarSettings s;
  s.write.shadow = kShadowOption.Get(o);
  s.write.packet_qwords = size_t(kPacketOption.Get(o));
  s.write.rebuild_all = kRebuildOption.Get(o);
  s.skeleton = kModelSkeletonOption.Get(o);
  return s;
}

DecodeSettings SettingsFrom(const Options& o) {
  DecodeSettings s;
  s.raw_space = kRawSpaceOption.Get(o);
  s.trigger_rate = kTriggerRateOption.Get(o);
  s.evaluation.constraints = kConstraintsOption.Get(o);
  s.evaluation.unverified_constraints = kUnverifiedOption.Get(o);
  s.stored_keys = kKeysOption.Get(o, o.key_use() == KeyUse::Interchange);
  s.limits = o.limits();
  return s;
}

EncodeSettings EncodeSettingsFrom(const Options& o) {
  EncodeSettings s;
  s.raw = kRawOption.Get(o);
  s.tolerance = kToleranceOption.Get(o);
  s.relative_tolerance = s.tolerance;
  return s;
}

// The file name (without folders) a document was read from, for the glTF extras.
std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void RecordSource(Scene& scene, const std::string& source) {
  if (source.empty()) return;
  scene.metadata[metadata_keys::kSource] = source;
  for (Clip& c : scene.clips) c.metadata[metadata_keys::kSource] = source;
}

// Stored curves (Document::StoredCurves): an archive's interpolated motions in clip order, a
// link's clip with its target's curves.
std::vector<ClipCurves> BarCurves(const Bar& bar, const Scene& decoded) {
  std::vector<ClipCurves> out;
  const std::vector<ChannelValues> rest = RestChannels(decoded.skeleton, decoded.metadata);
  std::map<const Motion*, size_t> done;  // a link's clip: the same curves
  for (const MotionClip& c : MotionClips(bar)) {
    if (c.motion->raw) continue;
    const auto known = done.find(c.motion);
    if (known != done.end()) {
      out.push_back({c.name, out[known->second].curves});
      continue;
    }
    done.emplace(c.motion, out.size());
    out.push_back({c.name, StoredCurvesOf(*c.motion, decoded.skeleton, rest)});
  }
  return out;
}

// A KH2 file as a document: its record, `info` and its summary, the file name it was read
// from (for the glTF extras), and stored curves written back through ReplaceCurves (one edit
// per channel).
template <class F, const FormatDescriptor& kFormat, Bytes (*kSerialize)(const F&), Value (*kInfo)(const F&),
          Value (*kSummary)(const F&)>
class Kh2Document : public FileDocument<F, kFormat, kSerialize> {
 public:
  explicit Kh2Document(F file, std::string source = {}) : FileDocument<F, kFormat, kSerialize>(std::move(file)), source_(std::move(source)) {}
  Value Info() const override { return kInfo(this->file_); }
  Value InfoSummary() const override { return kSummary(this->file_); }
  bool StoresCurves() const final { return true; }
  Bytes WithCurves(const std::vector<ClipCurves>& edits, CurvesReplaceReport* report, const Limits& limits) const final {
    std::vector<CurveEdit> channels;
    for (const ClipCurves& clip : edits)
      for (const StoredChannel& c : clip.curves.channels) channels.push_back({clip.clip, c});
    return ReplaceCurves(this->Write(), channels, report, limits);
  }

 protected:
  std::string source_;
};

class BarDocument final : public Kh2Document<Bar, kKh2BarFormat, SerializeBar, detail::BarInfo, detail::BarSummary> {
 public:
  using Kh2Document::Kh2Document;
  std::vector<std::string> Warnings() const override {
    std::vector<std::string> out = file_.warnings;
    detail::EvaluationWarnings(file_, out);
    Scene meshes;
    detail::AddModelMeshes(file_, meshes, {}, &out);
    return out;
  }
  std::vector<std::string> Damaged() const override { return DamagedEntries(file_); }
  std::vector<ClipCurves> StoredCurves(const Scene& decoded) const override { return BarCurves(file_, decoded); }
  Scene Decode(const DecodeContext& context) const override {
    Scene scene = DecodeBar(file_, context.reference, SettingsFrom(context.options));
    RecordSource(scene, source_);
    return scene;
  }
};

class MotionDocument final
    : public Kh2Document<Motion, kKh2MotionFormat, SerializeMotion, detail::MotionInfo, detail::MotionSummary> {
 public:
  using Kh2Document::Kh2Document;
  std::vector<std::string> Warnings() const override {
    std::vector<std::string> out = file_.warnings;
    detail::EvaluationWarnings(file_, "", out);
    return out;
  }
  std::vector<ClipCurves> StoredCurves(const Scene& decoded) const override {
    if (file_.raw || file_.placeholder) return {};
    return {{"motion", StoredCurvesOf(file_, decoded.skeleton, RestChannels(decoded.skeleton, decoded.metadata))}};
  }
  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    if (file_.placeholder) return scene;  // an empty slot: no clip
    Value meta = Value::object();
    scene.skeleton = context.Rest(scene);
    if (context.reference) meta = context.reference->metadata;
    Clip clip = DecodeMotion(file_, scene.skeleton, RestChannels(scene.skeleton, meta), SettingsFrom(context.options));
    clip.name = "motion";
    scene.clips.push_back(std::move(clip));
    RecordSource(scene, source_);
    return scene;
  }
};

int ProbeBar(ByteView data, std::string_view ext) {
  if (LooksLikeBar(data)) {
    if (data.size() < 16) return kProbeStructure;
    const uint32_t count = le::Load32(data.data() + 4);
    return uint64_t(count) * 16 + 16 <= data.size() ? kProbeMagic : kProbeStructure;
  }
  return (ext == ".anb" || ext == ".mset" || ext == ".bar" || ext == ".mdlx") ? kProbeExtension : kProbeNone;
}

int ProbeMotion(ByteView data, std::string_view ext) {
  if (data.size() >= 0xA0 && std::all_of(data.begin(), data.begin() + 0x90, [](uint8_t b) { return b == 0; })) {
    const uint32_t type = le::Load32(data.data() + 0x90), count = le::Load32(data.data() + 0x98);
    if (type <= 1) return uint64_t(count) + 0x90 == data.size() ? kProbeMagic - 10 : kProbeStructure;
  }
  return ext == ".motion" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> ReadBar(ByteView data, const ReadContext& context) {
  return std::make_unique<BarDocument>(ParseBar(data, 0, context.options.limits()), BaseName(context.path));
}
std::unique_ptr<Document> ReadMotion(ByteView data, const ReadContext& context) {
  return std::make_unique<MotionDocument>(ParseMotion(data), BaseName(context.path));
}

std::string ShortNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

void Report(EncodeContext& context, const EncodeReport& r) {
  context.report.update({{"bones", r.bones},
                         {"curves", r.curves},
                         {"keys", r.keys},
                         {"fitted_keys", r.fitted_keys},
                         {"initial_pose", r.initial_pose},
                         {"skipped_tracks", r.skipped_tracks},
                         {"tolerance_used", r.tolerance_used},
                         {"unchanged", r.unchanged},
                         {"table_tolerance", r.table_tolerance}});
  context.warnings.insert(context.warnings.end(), r.warnings.begin(), r.warnings.end());
  if (r.table_tolerance > 0)
    context.warnings.push_back("the motion needs more keys, values, tangents or key times than its tables hold "
                               "within the tolerance asked: fitted within --kh2-tolerance " +
                               ShortNumber(r.table_tolerance) + " (rotation error up to 3x that, in radians)");
}

const Skeleton& SkeletonFor(const Scene& scene, const EncodeContext& context) {
  return context.Rest(scene);
}

// Without a template, what a KH2 source had that glTF cannot carry is lost: say which
// template to give.
void WarnWithoutTemplate(const Scene& scene, EncodeContext& context) {
  if (context.templ) return;
  for (const Clip& c : scene.clips) {
    const auto source = c.metadata.find(metadata_keys::kSource);
    if (source == c.metadata.end() || !source->is_string()) continue;
    auto count = [&](const char* key) {
      const auto it = c.metadata.find(key);
      return it != c.metadata.end() && it->is_number_integer() ? it->get<int64_t>() : int64_t(0);
    };
    const auto helpers = c.metadata.find(metadata_keys::kIkHelpers);
    const size_t ik = helpers != c.metadata.end() && helpers->is_array() ? helpers->size() : 0;
    if (ik == 0 && count(metadata_keys::kConstraintCount) == 0 && count(metadata_keys::kExpressionCount) == 0 &&
        count(metadata_keys::kLimiterCount) == 0)
      continue;
    const std::string name = source->get<std::string>();
    std::string what = std::to_string(ik) + " IK helpers";
    if (ik > 0) what += " (" + helpers->front().get<std::string>() + ".." + helpers->back().get<std::string>() + ")";
    what += ", " + std::to_string(count(metadata_keys::kConstraintCount)) + " constraints, " +
            std::to_string(count(metadata_keys::kExpressionCount)) + " expressions and " +
            std::to_string(count(metadata_keys::kLimiterCount)) + " limits";
    context.warnings.push_back("clip '" + c.name + "' came from " + name + ", whose " + what +
                               " glTF cannot carry: give --template " + name +
                               " to keep them (without it the IK helpers are written as bones)");
  }
}

// The template's archive or motion, when it is a KH2 document.
const Bar* TemplateBar(const EncodeContext& context) {
  if (!context.templ || !context.templ->document) return nullptr;
  const auto* doc = dynamic_cast<const BarDocument*>(context.templ->document);
  if (!doc) throw Error::General("the template " + context.templ->path + " is not a KH2 archive");
  return &doc->file();
}

bool IsAnbSlot(const Bar& bar, size_t i) {
  const BarEntry& e = bar.entries[i];
  if (e.type != kEntryAnb || !e.bar || e.size == 0 || LinkTarget(bar, i) >= 0) return false;
  return std::any_of(e.bar->entries.begin(), e.bar->entries.end(),
                     [](const BarEntry& x) { return x.motion && !x.motion->placeholder; });
}

// An ANB slot of a template, at any depth: the entry indices from the top archive down
// and its clip's name ("012_A101", or "252_AB20/003_0010" inside a nested moveset).
struct AnbSlot {
  std::vector<size_t> path;
  std::string name;
  std::string entry_name;  // the slot's own entry name
};

// Every ANB slot, nested archives searched in entry order (their depth is the parse's;
// an archive of archives shared by several entries is searched at its first).
void ListAnbSlots(const Bar& bar, const std::vector<size_t>& at, const std::string& prefix, std::set<const Bar*>& seen,
                  std::vector<AnbSlot>& out) {
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    std::vector<size_t> path = at;
    path.push_back(i);
    if (IsAnbSlot(bar, i)) {
      out.push_back({path, prefix + SlotName(i, e), e.Name()});
    } else if (e.bar && e.size > 0 && LinkTarget(bar, i) < 0 && e.type != kEntryAnb && seen.insert(e.bar.get()).second) {
      ListAnbSlots(*e.bar, path, prefix + SlotName(i, e) + "/", seen, out);
    }
  }
}

// The template slot a name picks: its path name ("NNN_NAME", "NNN_NAME/NNN_NAME") or a unique entry name.
const AnbSlot* FindSlot(const std::vector<AnbSlot>& slots, const std::string& name) {
  const AnbSlot* found = nullptr;
  for (const AnbSlot& slot : slots) {
    if (slot.name == name) return &slot;
    if (slot.entry_name == name) {
      if (found) throw Error::General("the template has several slots named " + name + ": give the slot as NNN_" + name);
      found = &slot;
    }
  }
  return found;
}

// The archive the slot at path[depth..] names, from bar.
const Bar& SlotArchive(const Bar& bar, const std::vector<size_t>& path, size_t depth = 0) {
  const BarEntry& e = bar.entries[path[depth]];
  return depth + 1 == path.size() ? *e.bar : SlotArchive(*e.bar, path, depth + 1);
}

// archive's bytes with the slot at path[depth..] replaced by payload: the nested archives
// holding it are rewritten around it (ReplaceEntry at each level), every other byte kept.
Bytes ReplaceSlot(ByteView archive, const Bar& bar, const std::vector<size_t>& path, size_t depth, const Bytes& payload) {
  const size_t index = path[depth];
  if (depth + 1 == path.size()) return ReplaceEntry(archive, bar, index, payload);
  const BarEntry& e = bar.entries[index];
  if (uint64_t(e.offset) + e.size > archive.size())
    throw Error::General("entry " + std::to_string(index) + " (" + e.Name() + ") has no data to replace");
  const Bytes inner = ReplaceSlot(archive.subspan(e.offset, e.size), *e.bar, path, depth + 1, payload);
  return ReplaceEntry(archive, bar, index, inner);
}

const Clip* FindClip(const Scene& scene, const std::string& a, const std::string& b) {
  for (const Clip& c : scene.clips)
    if (c.name == a || c.name == b) return &c;
  return nullptr;
}

// The template's clip (slot `name`) as the input's format gives it back, when known.
const Clip* TemplateAsInput(const EncodeContext& context, const std::string& name) {
  const Scene* s = context.template_as_input;
  if (!s) return nullptr;
  if (const Clip* c = FindClip(*s, name, name)) return c;
  return s->clips.size() == 1 ? &s->clips.front() : nullptr;
}

std::unique_ptr<Document> EncodeWithTemplate(const Scene& scene, EncodeContext& context, const Bar& templ) {
  const EncodeSettings settings = EncodeSettingsFrom(context.options);
  const Skeleton& skeleton = SkeletonFor(scene, context);
  EncodeReport report;
  const bool mset = std::any_of(templ.entries.begin(), templ.entries.end(), [](const BarEntry& e) { return e.bar != nullptr; });
  if (!mset) {  // an ANB
    const Clip* clip = context.template_clip.empty() ? nullptr : FindClip(scene, context.template_clip, context.template_clip);
    if (!clip) clip = &OneClip(scene, "an ANB");
    bool unchanged = false;
    Bar bar = EncodeAnbFromTemplate(*clip, skeleton, settings, templ, &report, &unchanged,
                                    TemplateAsInput(context, clip->name));
    Report(context, report);
    context.report["copied_from_template"] = unchanged;
    return std::make_unique<BarDocument>(unchanged ? ParseBar(context.templ->bytes) : std::move(bar));
  }
  // An MSET: each clip replaces the slot of its name; --clip replaces that slot alone.
  std::vector<AnbSlot> slots;
  std::set<const Bar*> seen;
  ListAnbSlots(templ, {}, "", seen, slots);
  std::vector<std::pair<const AnbSlot*, const Clip*>> jobs;
  if (!context.template_clip.empty()) {
    const AnbSlot* slot = FindSlot(slots, context.template_clip);
    if (!slot) throw Error::General("the template has no motion slot named " + context.template_clip);
    const Clip* clip = FindClip(scene, slot->name, context.template_clip);
    if (!clip) clip = &OneClip(scene, "a slot");
    jobs.push_back({slot, clip});
  } else {
    for (const AnbSlot& slot : slots)
      if (const Clip* c = FindClip(scene, slot.name, slot.name)) jobs.push_back({&slot, c});
    if (jobs.empty())
      throw Error::General("no clip of the input is named as a slot of the template (NNN_NAME): choose one with --clip");
  }
  Bytes bytes = context.templ->bytes;
  Bar current = templ;
  size_t replaced = 0;
  for (const auto& [slot, clip] : jobs) {
    bool unchanged = false;
    EncodeReport one;
    Bar anb = EncodeAnbFromTemplate(*clip, skeleton, settings, SlotArchive(current, slot->path), &one, &unchanged,
                                    TemplateAsInput(context, slot->name));
    report.keys += one.keys, report.fitted_keys += one.fitted_keys, report.curves += one.curves;
    report.bones = std::max(report.bones, one.bones);
    report.table_tolerance = std::max(report.table_tolerance, one.table_tolerance);
    for (const std::string& w : one.warnings) report.warnings.push_back("slot " + clip->name + ": " + w);
    if (unchanged) continue;
    bytes = ReplaceSlot(bytes, current, slot->path, 0, SerializeBar(anb));
    current = ParseBar(bytes);
    ++replaced;
  }
  Report(context, report);
  context.report["slots_replaced"] = replaced;
  return std::make_unique<BarDocument>(std::move(current));
}

std::unique_ptr<Document> EncodeBar(const Scene& scene, EncodeContext& context) {
  const Bar* templ = TemplateBar(context);
  if (detail::WritesModel(scene, context, templ)) {
    Bytes bytes = detail::EncodeModelBar(scene, context, templ, ModelSettingsFrom(context.options));
    return std::make_unique<BarDocument>(ParseBar(bytes));
  }
  if (scene.clips.empty() && scene.meshes.empty())  // not even a joint, over a template: its bytes (HoldsNothing)
    throw Error::General("nothing to write: the input has no animation clip (an ANB or MSET) and no mesh (an MDLX)");
  if (templ) return EncodeWithTemplate(scene, context, *templ);
  WarnWithoutTemplate(scene, context);
  const EncodeSettings settings = EncodeSettingsFrom(context.options);
  const Skeleton& skeleton = SkeletonFor(scene, context);
  const std::string ext = ExtensionOf(context.output_path);
  EncodeReport report;
  if (ext == ".mset" && scene.clips.size() > 1) {
    // An MSET: one ANB slot per clip.
    Bar mset;
    for (const Clip& clip : scene.clips) {
      BarEntry e;
      e.type = kEntryAnb;
      std::string name = clip.name;
      if (size_t u = name.find('_'); u != std::string::npos && u == 3) name = name.substr(4);
      name.resize(4, '\0');
      std::copy(name.begin(), name.end(), e.name.begin());
      EncodeReport one;
      e.bar = std::make_shared<Bar>(EncodeAnb(clip, skeleton, settings, &one));
      mset.entries.push_back(std::move(e));
      one.keys += report.keys, one.fitted_keys += report.fitted_keys, one.curves += report.curves;
      one.table_tolerance = std::max(one.table_tolerance, report.table_tolerance);
      one.tolerance_used = std::max(one.tolerance_used, report.tolerance_used);
      report = one;
    }
    LayoutBar(mset);
    Report(context, report);
    context.report["slots"] = mset.entries.size();
    return std::make_unique<BarDocument>(std::move(mset));
  }
  Bar anb = EncodeAnb(OneClip(scene, "an ANB"), skeleton, settings, &report);
  Report(context, report);
  return std::make_unique<BarDocument>(std::move(anb));
}

std::unique_ptr<Document> EncodeBareMotion(const Scene& scene, EncodeContext& context) {
  EncodeReport report;
  const Motion* templ = nullptr;
  if (context.templ && context.templ->document) {
    const auto* doc = dynamic_cast<const MotionDocument*>(context.templ->document);
    if (!doc) throw Error::General("the template " + context.templ->path + " is not a KH2 motion");
    templ = &doc->file();
  }
  if (!templ) WarnWithoutTemplate(scene, context);
  const Clip* clip = templ && !context.template_clip.empty() ? FindClip(scene, context.template_clip, context.template_clip) : nullptr;
  if (!clip) clip = &OneClip(scene, "a motion entry");
  Motion m = EncodeMotion(*clip, SkeletonFor(scene, context), EncodeSettingsFrom(context.options), &report, templ,
                          templ ? TemplateAsInput(context, clip->name) : nullptr);
  Report(context, report);
  return std::make_unique<MotionDocument>(std::move(m));
}

const std::vector<OptionSpec> kOptions = {kRawSpaceOption.spec(), kTriggerRateOption.spec(), kConstraintsOption.spec(), kUnverifiedOption.spec(), kKeysOption.spec(),
                                          kRawOption.spec(), kToleranceOption.spec()};
// An MDLX's model is written through the BAR format alone.
const std::vector<OptionSpec> kBarOptions = [] {
  std::vector<OptionSpec> o = kOptions;
  for (const OptionSpec& m : {kShadowOption.spec(), kModelSkeletonOption.spec(), kPacketOption.spec(), kRebuildOption.spec()})
    o.push_back(m);
  return o;
}();

}  // namespace
}  // namespace kh2

const FormatDescriptor kKh2BarFormat{
    .id = "kh2-bar", .description = "Kingdom Hearts II BAR archive (ANB, MSET, MDLX)",
    .extensions = {".anb", ".mset", ".bar", ".mdlx"}, .companions = {".mdlx"}, .probe = kh2::ProbeBar, .read = kh2::ReadBar, .encode = kh2::EncodeBar,
    .options = kh2::kBarOptions, .multi_clip = true, .animation_extensions = {".anb", ".mset"}};

const FormatDescriptor kKh2MotionFormat{
    .id = "kh2-motion", .description = "Kingdom Hearts II motion entry (raw or interpolated)",
    .extensions = {".motion"}, .companions = {".mdlx"}, .probe = kh2::ProbeMotion, .read = kh2::ReadMotion, .encode = kh2::EncodeBareMotion,
    .options = kh2::kOptions, .animation_extensions = {".motion"}};

}  // namespace animkit
