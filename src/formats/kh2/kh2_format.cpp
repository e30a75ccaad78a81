// Registry entries and documents for KH2 BAR archives (kh2-bar) and bare motion entries (kh2-motion).
#include "kh2_internal.hpp"

#include "formats/common/clips.hpp"
#include "formats/common/descriptors.hpp"

#include <map>

#include <string>

namespace animkit {

namespace kh2 {
namespace {


const OptionSpec kRawSpaceOption{.name = "kh2-raw-space", .type = OptionType::Choice,
                                 .help = "KH2 raw motion: auto (local when a skeleton is known, else model), model or local",
                                 .choices = {"auto", "model", "local"}, .default_value = "auto"};
const OptionSpec kTriggerRateOption{.name = "kh2-trigger-rate", .type = OptionType::Choice,
                                    .help = "KH2 trigger frames count the motion's own frames (motion) or 1/60 s (engine)",
                                    .choices = {"motion", "engine"}, .default_value = "motion"};
const OptionSpec kRawOption{.name = "raw", .type = OptionType::Flag,
                            .help = "KH2: write raw matrices instead of an interpolated motion"};
const OptionSpec kToleranceOption{.name = "kh2-tolerance", .type = OptionType::Number,
                                  .help = "KH2 interpolated encoder: largest error at any frame, radians for rotation "
                                          "and relative for translation and scale",
                                  .default_value = "1e-4", .min = 0, .max = 1};

DecodeSettings SettingsFrom(const Options& o) {
  DecodeSettings s;
  const std::string space = o.Choice(kRawSpaceOption);
  s.raw_space = space == "model" ? RawSpace::Model : space == "local" ? RawSpace::Local : RawSpace::Auto;
  s.trigger_rate = o.Choice(kTriggerRateOption) == "engine" ? TriggerRate::Engine : TriggerRate::Motion;
  s.limits = o.limits();
  return s;
}

EncodeSettings EncodeSettingsFrom(const Options& o) {
  EncodeSettings s;
  s.raw = o.Flag(kRawOption);
  s.tolerance = static_cast<float>(o.Number(kToleranceOption));
  s.relative_tolerance = s.tolerance;
  return s;
}

Value V4(const Vec4f& v) { return Value::array({v[0], v[1], v[2], v[3]}); }

Value GapsInfo(const std::vector<Gap>& gaps) {
  Value out = Value::array();
  for (const Gap& g : gaps) {
    bool zero = std::all_of(g.bytes.begin(), g.bytes.end(), [](uint8_t b) { return b == 0; });
    out.push_back({{"offset", g.offset}, {"size", g.bytes.size()}, {"all_zero", zero}});
  }
  return out;
}

Value BoneInfo(const BoneRecord& b) {
  return {{"index", b.index},       {"sibling", b.sibling},   {"parent", b.parent},
          {"child", b.child},       {"reserved", b.reserved}, {"flags", b.flags},
          {"scale", V4(b.scale)},   {"rotation", V4(b.rotation)}, {"translation", V4(b.translation)}};
}

Value MotionInfo(const Motion& m) {
  if (m.placeholder) return {{"kind", "placeholder"}, {"size", m.size}, {"gaps", GapsInfo(m.gaps)}};
  Value j = {{"kind", m.raw ? "raw" : "interpolated"},
             {"type", m.header.type},
             {"flag", m.header.flag},
             {"byte_count", m.header.byte_count},
             {"header_reserved", m.header.reserved},
             {"size", m.size},
             {"gaps", GapsInfo(m.gaps)}};
  if (m.raw) {
    const RawMotion& r = m.raw_motion;
    j.update({{"bone_count", r.bone_count},
              {"reserved", r.reserved},
              {"frames_per_loop", r.frames_per_loop},
              {"total_frames", r.total_frames},
              {"matrix_offset", r.matrix_offset},
              {"second_table_offset", r.second_table_offset},
              {"second_table_bytes", r.second_table.size()},
              {"bbox_min", V4(r.bbox_min)},
              {"bbox_max", V4(r.bbox_max)},
              {"frame_loop", r.frame_loop},
              {"frame_end", r.frame_end},
              {"fps", r.fps},
              {"engine_rate", kEngineRate},
              {"frame_return", r.frame_return},
              {"matrix_count", r.matrices.size()}});
    return j;
  }
  const InterpolatedMotion& im = m.interpolated;
  j.update({{"bone_count", im.bone_count},
            {"total_bone_count", im.total_bone_count},
            {"total_frames", im.total_frames},
            {"fps", im.fps},
            {"engine_rate", kEngineRate},
            {"frame_loop", im.frame_loop},
            {"frame_end", im.frame_end},
            {"frame_count", im.frame_count},
            {"bbox_min", V4(im.bbox_min)},
            {"bbox_max", V4(im.bbox_max)},
            {"offsets",
             {{"ik_helpers", im.ik_helper_offset},
              {"joints", im.joint_offset},
              {"initial_pose", im.initial_pose_offset},
              {"root_position", im.root_position_offset},
              {"forward_curves", im.forward_offset},
              {"inverse_curves", im.inverse_offset},
              {"keys", im.key_offset},
              {"key_times", im.key_time_offset},
              {"key_values", im.key_value_offset},
              {"tangents", im.tangent_offset},
              {"constraints", im.constraint_offset},
              {"constraint_end", im.constraint_end},
              {"limiters", im.limiter_offset},
              {"expressions", im.expression_offset},
              {"expression_nodes", im.expression_node_offset},
              {"external_effectors", im.effector_offset}}},
            {"external_effector_count", im.effector_count},
            {"unknown98", im.unknown98},
            {"unknown9c", im.unknown9c}});
  Value pose = Value::array();
  for (const InitialPose& p : im.initial_pose) pose.push_back({{"bone", p.bone}, {"channel", p.channel}, {"value", p.value}});
  auto curves = [](const std::vector<Curve>& cs) {
    Value out = Value::array();
    for (const Curve& c : cs)
      out.push_back({{"joint", c.joint},
                     {"channel", c.channel()},
                     {"pre", int(c.pre())},
                     {"post", int(c.post())},
                     {"key_count", c.key_count},
                     {"first_key", c.first_key}});
    return out;
  };
  Value keys = Value::array();
  for (const Key& k : im.keys)
    keys.push_back({{"type", int(k.type())},
                    {"time", k.time_index()},
                    {"value", k.value},
                    {"in_tangent", k.in_tangent},
                    {"out_tangent", k.out_tangent}});
  Value constraints = Value::array();
  for (const Constraint& c : im.constraints)
    constraints.push_back({{"type", c.type},
                           {"field1", c.unknown1},
                           {"bone", c.bone},
                           {"ik_helper", c.ik_helper},
                           {"limiter", c.limiter},
                           {"field8", c.unknown}});
  Value limiters = Value::array();
  for (const Limiter& l : im.limiters) limiters.push_back({{"type", l.type}, {"values", l.values}});
  Value expressions = Value::array();
  for (const Expression& e : im.expressions) expressions.push_back({{"node", e.node}, {"field2", e.unknown}, {"value", e.value}});
  Value nodes = Value::array();
  for (const ExpressionNode& e : im.expression_nodes)
    nodes.push_back({{"type", e.type}, {"left", e.left}, {"value", e.value}, {"right", e.right}, {"next", e.next}});
  Value helpers = Value::array();
  for (const BoneRecord& b : im.ik_helpers) helpers.push_back(BoneInfo(b));
  Value joints = Value::array();
  for (const JointEntry& e : im.joints) joints.push_back({e.joint, e.flags});
  j.update({{"initial_pose", pose},
            {"forward_curves", curves(im.forward)},
            {"inverse_curves", curves(im.inverse)},
            {"keys", keys},
            {"key_times", im.key_times},
            {"key_values", im.values},
            {"tangents", im.tangents},
            {"constraints", constraints},
            {"limiters", limiters},
            {"expressions", expressions},
            {"expression_nodes", nodes},
            {"ik_helpers", helpers},
            {"joints", joints},
            {"root_position",
             {{"scale", V4(im.root_position.scale)},
              {"rotation", V4(im.root_position.rotation)},
              {"translation", V4(im.root_position.translation)},
              {"fields", im.root_position.unknown}}}});
  return j;
}

Value TriggersInfo(const Triggers& t) {
  Value ranges = Value::array(), frames = Value::array();
  for (const RangeTrigger& r : t.ranges)
    ranges.push_back({{"start", r.start}, {"end", r.end}, {"id", r.id}, {"name", TriggerEventName(true, r.id)}, {"params", r.params}});
  for (const FrameTrigger& f : t.frames)
    frames.push_back({{"frame", f.frame}, {"id", f.id}, {"name", TriggerEventName(false, f.id)}, {"params", f.params}});
  return {{"frame_list_offset", t.frame_list_offset}, {"size", t.size}, {"ranges", ranges}, {"frames", frames},
          {"gaps", GapsInfo(t.gaps)}, {"warnings", t.warnings}};
}

Value BarInfo(const Bar& bar) {
  Value entries = Value::array();
  size_t empty = 0, placeholders = 0, links = 0, dummies = 0;
  std::map<const Bar*, size_t> shown;  // a nested archive several entries share is described once
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    Value j = {{"type", e.type}, {"duplicate", e.duplicate}, {"name", e.Name()}, {"offset", e.offset}, {"size", e.size}};
    if (e.size == 0) j["empty"] = true, ++empty;
    if (const int target = LinkTarget(bar, i); target >= 0) j["link_to"] = target, ++links;
    if (e.IsDummy()) j["dummy"] = true, ++dummies;
    if (e.motion) {
      j["motion"] = MotionInfo(*e.motion);
      if (e.motion->placeholder) j["placeholder"] = true, ++placeholders;
    }
    if (e.triggers) j["triggers"] = TriggersInfo(*e.triggers);
    if (e.bar) {
      auto first = shown.emplace(e.bar.get(), entries.size()).first;
      if (first->second == entries.size()) j["bar"] = BarInfo(*e.bar);
      else j["bar"] = {{"same_as_entry", first->second}};
    }
    if (e.type == kEntrySubArchive) j["sub_archive"] = true;
    if (e.model) {
      Value bones = Value::array();
      for (const BoneRecord& b : e.model->bones) bones.push_back(BoneInfo(b));
      j["model"] = {{"type", e.model->type},         {"subtype", e.model->subtype},
                    {"attributes", e.model->attributes}, {"next_offset", e.model->next_offset},
                    {"bone_count", e.model->bone_count}, {"texture_count", e.model->texture_count},
                    {"bone_offset", e.model->bone_offset}, {"bones", bones}};
    }
    entries.push_back(std::move(j));
  }
  return {{"entry_count", bar.entries.size()},
          {"reserved", bar.reserved},
          {"header_flags", bar.reserved},
          {"mset_type", bar.mset_type},
          {"size", bar.size},
          {"extent", Extent(bar)},
          {"empty_slots", empty},
          {"placeholder_slots", placeholders},
          {"link_entries", links},
          {"dummy_entries", dummies},
          {"entries", entries},
          {"gaps", GapsInfo(bar.gaps)},
          {"warnings", bar.warnings}};
}

// The file name (without folders) a document was read from, for the glTF extras.
std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void RecordSource(Scene& scene, const std::string& source) {
  if (source.empty()) return;
  scene.metadata["kh2_source"] = source;
  for (Clip& c : scene.clips) c.metadata["kh2_source"] = source;
}

class BarDocument final : public Document {
 public:
  explicit BarDocument(Bar bar, std::string source = {}) : bar_(std::move(bar)), source_(std::move(source)) {}
  const FormatDescriptor& format() const override { return kKh2BarFormat; }
  Bytes Write() const override { return SerializeBar(bar_); }
  Value Info() const override { return BarInfo(bar_); }
  Scene Decode(const DecodeContext& context) const override {
    Scene scene = DecodeBar(bar_, context.reference, SettingsFrom(context.options));
    RecordSource(scene, source_);
    return scene;
  }
  const Bar& bar() const { return bar_; }

 private:
  Bar bar_;
  std::string source_;
};

class MotionDocument final : public Document {
 public:
  explicit MotionDocument(Motion m, std::string source = {}) : motion_(std::move(m)), source_(std::move(source)) {}
  const Motion& motion() const { return motion_; }
  const FormatDescriptor& format() const override { return kKh2MotionFormat; }
  Bytes Write() const override { return SerializeMotion(motion_); }
  Value Info() const override { return MotionInfo(motion_); }
  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    if (motion_.placeholder) return scene;  // an empty slot: no clip
    Value meta = Value::object();
    if (context.reference) scene.skeleton = context.reference->skeleton, meta = context.reference->metadata;
    Clip clip = DecodeMotion(motion_, scene.skeleton, RestChannels(scene.skeleton, meta), SettingsFrom(context.options));
    clip.name = "motion";
    scene.clips.push_back(std::move(clip));
    RecordSource(scene, source_);
    return scene;
  }

 private:
  Motion motion_;
  std::string source_;
};

int ProbeBar(ByteView data, std::string_view ext) {
  if (LooksLikeBar(data)) {
    if (data.size() < 16) return kProbeStructure;
    const uint32_t count = data[4] | (data[5] << 8) | (data[6] << 16) | (uint32_t(data[7]) << 24);
    return uint64_t(count) * 16 + 16 <= data.size() ? kProbeMagic : kProbeStructure;
  }
  return (ext == ".anb" || ext == ".mset" || ext == ".bar" || ext == ".mdlx") ? kProbeExtension : kProbeNone;
}

int ProbeMotion(ByteView data, std::string_view ext) {
  if (data.size() >= 0xA0 && std::all_of(data.begin(), data.begin() + 0x90, [](uint8_t b) { return b == 0; })) {
    const uint32_t type = data[0x90] | (data[0x91] << 8) | (data[0x92] << 16) | (uint32_t(data[0x93]) << 24);
    const uint32_t count = data[0x98] | (data[0x99] << 8) | (data[0x9A] << 16) | (uint32_t(data[0x9B]) << 24);
    if (type <= 1) return uint64_t(count) + 0x90 == data.size() ? kProbeMagic - 10 : kProbeStructure;
  }
  return ext == ".motion" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> ReadBar(ByteView data, const Options& o) {
  return std::make_unique<BarDocument>(ParseBar(data, 0, o.limits()), BaseName(o.Get(kSourcePathOption)));
}
std::unique_ptr<Document> ReadMotion(ByteView data, const Options& o) {
  return std::make_unique<MotionDocument>(ParseMotion(data), BaseName(o.Get(kSourcePathOption)));
}

void Report(EncodeContext& context, const EncodeReport& r) {
  context.report["bones"] = r.bones;
  context.report["curves"] = r.curves;
  context.report["keys"] = r.keys;
  context.report["fitted_keys"] = r.fitted_keys;
  context.report["initial_pose"] = r.initial_pose;
  context.report["skipped_tracks"] = r.skipped_tracks;
  context.report["tolerance_used"] = r.tolerance_used;
  context.report["unchanged"] = r.unchanged;
}

const Skeleton& SkeletonFor(const Scene& scene, const EncodeContext& context) {
  return context.reference && !context.reference->skeleton.empty() ? context.reference->skeleton : scene.skeleton;
}

// Without a template, what a KH2 source had that glTF cannot carry is lost: say which
// template to give.
void WarnWithoutTemplate(const Scene& scene, EncodeContext& context) {
  if (context.templ) return;
  for (const Clip& c : scene.clips) {
    const auto source = c.metadata.find("kh2_source");
    if (source == c.metadata.end() || !source->is_string()) continue;
    auto count = [&](const char* key) {
      const auto it = c.metadata.find(key);
      return it != c.metadata.end() && it->is_number_integer() ? it->get<int64_t>() : int64_t(0);
    };
    const auto helpers = c.metadata.find("ik_helpers");
    const size_t ik = helpers != c.metadata.end() && helpers->is_array() ? helpers->size() : 0;
    if (ik == 0 && count("constraint_count") == 0 && count("expression_count") == 0 && count("limiter_count") == 0)
      continue;
    const std::string name = source->get<std::string>();
    std::string what = std::to_string(ik) + " IK helpers";
    if (ik > 0) what += " (" + helpers->front().get<std::string>() + ".." + helpers->back().get<std::string>() + ")";
    what += ", " + std::to_string(count("constraint_count")) + " constraints, " +
            std::to_string(count("expression_count")) + " expressions and " + std::to_string(count("limiter_count")) +
            " limits";
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
  return &doc->bar();
}

bool IsAnbSlot(const Bar& bar, size_t i) {
  const BarEntry& e = bar.entries[i];
  if (e.type != kEntryAnb || !e.bar || e.size == 0 || LinkTarget(bar, i) >= 0) return false;
  return std::any_of(e.bar->entries.begin(), e.bar->entries.end(),
                     [](const BarEntry& x) { return x.motion && !x.motion->placeholder; });
}

// The template slot a name picks: "NNN_NAME" or a unique entry name.
int FindSlot(const Bar& bar, const std::string& name) {
  int found = -1;
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    if (!IsAnbSlot(bar, i)) continue;
    if (SlotName(i, bar.entries[i]) == name) return static_cast<int>(i);
    if (bar.entries[i].Name() == name) {
      if (found >= 0)
        throw Error::General("the template has several slots named " + name + ": give the slot as NNN_" + name);
      found = static_cast<int>(i);
    }
  }
  return found;
}

const Clip* FindClip(const Scene& scene, const std::string& a, const std::string& b) {
  for (const Clip& c : scene.clips)
    if (c.name == a || c.name == b) return &c;
  return nullptr;
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
    Bar bar = EncodeAnbFromTemplate(*clip, skeleton, settings, templ, &report, &unchanged);
    Report(context, report);
    context.report["copied_from_template"] = unchanged;
    return std::make_unique<BarDocument>(unchanged ? ParseBar(context.templ->bytes) : std::move(bar));
  }
  // An MSET: each clip replaces the slot of its name; --clip replaces that slot alone.
  std::vector<std::pair<size_t, const Clip*>> jobs;
  if (!context.template_clip.empty()) {
    const int slot = FindSlot(templ, context.template_clip);
    if (slot < 0) throw Error::General("the template has no motion slot named " + context.template_clip);
    const std::string slot_name = SlotName(size_t(slot), templ.entries[size_t(slot)]);
    const Clip* clip = FindClip(scene, slot_name, context.template_clip);
    if (!clip) clip = &OneClip(scene, "a slot");
    jobs.push_back({size_t(slot), clip});
  } else {
    for (size_t i = 0; i < templ.entries.size(); ++i)
      if (IsAnbSlot(templ, i))
        if (const Clip* c = FindClip(scene, SlotName(i, templ.entries[i]), SlotName(i, templ.entries[i])))
          jobs.push_back({i, c});
    if (jobs.empty())
      throw Error::General("no clip of the input is named as a slot of the template (NNN_NAME): choose one with --clip");
  }
  Bytes bytes = context.templ->bytes;
  Bar current = templ;
  size_t replaced = 0;
  for (const auto& [slot, clip] : jobs) {
    bool unchanged = false;
    EncodeReport one;
    Bar anb = EncodeAnbFromTemplate(*clip, skeleton, settings, *current.entries[slot].bar, &one, &unchanged);
    report.keys += one.keys, report.fitted_keys += one.fitted_keys, report.curves += one.curves;
    report.bones = std::max(report.bones, one.bones);
    if (unchanged) continue;
    bytes = ReplaceEntry(bytes, current, slot, SerializeBar(anb));
    current = ParseBar(bytes);
    ++replaced;
  }
  Report(context, report);
  context.report["slots_replaced"] = replaced;
  return std::make_unique<BarDocument>(std::move(current));
}

std::unique_ptr<Document> EncodeBar(const Scene& scene, EncodeContext& context) {
  if (const Bar* templ = TemplateBar(context)) return EncodeWithTemplate(scene, context, *templ);
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
      e.bar = std::make_shared<Bar>(EncodeAnb(clip, skeleton, settings, &report));
      mset.entries.push_back(std::move(e));
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
    templ = &doc->motion();
  }
  if (!templ) WarnWithoutTemplate(scene, context);
  const Clip* clip = templ && !context.template_clip.empty() ? FindClip(scene, context.template_clip, context.template_clip) : nullptr;
  if (!clip) clip = &OneClip(scene, "a motion entry");
  Motion m = EncodeMotion(*clip, SkeletonFor(scene, context), EncodeSettingsFrom(context.options), &report, templ);
  Report(context, report);
  return std::make_unique<MotionDocument>(std::move(m));
}

const std::vector<OptionSpec> kOptions = {kRawSpaceOption, kTriggerRateOption, kRawOption, kToleranceOption};

}  // namespace
}  // namespace kh2

const FormatDescriptor kKh2BarFormat{
    .id = "kh2-bar", .description = "Kingdom Hearts II BAR archive (ANB, MSET, MDLX)",
    .extensions = {".anb", ".mset", ".bar", ".mdlx"}, .probe = kh2::ProbeBar, .read = kh2::ReadBar, .encode = kh2::EncodeBar,
    .options = kh2::kOptions};

const FormatDescriptor kKh2MotionFormat{
    .id = "kh2-motion", .description = "Kingdom Hearts II motion entry (raw or interpolated)",
    .extensions = {".motion"}, .probe = kh2::ProbeMotion, .read = kh2::ReadMotion, .encode = kh2::EncodeBareMotion,
    .options = kh2::kOptions};

}  // namespace animkit
