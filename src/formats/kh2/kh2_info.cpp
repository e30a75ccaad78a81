// `animkit info` for KH2 BAR archives and motion entries: every header field, table and gap.
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <map>
#include <set>
#include <string>

namespace animkit::kh2::detail {

namespace {

Value GapsInfo(const std::vector<Gap>& gaps) {
  Value out = Value::array();
  for (const Gap& g : gaps) {
    bool zero = std::all_of(g.bytes.begin(), g.bytes.end(), [](uint8_t b) { return b == 0; });
    out.push_back({{"offset", g.offset}, {"size", g.bytes.size()}, {"all_zero", zero}});
  }
  return out;
}

// One array per record, its fields in the list's order (the joint table's [joint, flags] rows).
template <class S, class List>
Value Rows(const std::vector<S>& records, const List& list) {
  Value out = Value::array();
  for (const S& s : records)
    out.push_back(std::apply([&](const auto&... f) { return Value::array({Value(s.*(f.member))...}); }, list));
  return out;
}

// The initial pose, curves and keys; the tables as the file holds them (entries read
// past them are counted apart).
Value CurveTablesInfo(const Motion& m) {
  const InterpolatedMotion& im = m.interpolated;
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
  const InterpolatedMotion::ReadPast& past = im.read_past;
  Value keys = Value::array();
  for (const Key& k : OwnEntries(im.keys, past.keys))
    keys.push_back({{"type", int(k.type())},
                    {"time", k.time_index()},
                    {"value", k.value},
                    {"in_tangent", k.in_tangent},
                    {"out_tangent", k.out_tangent}});
  auto own = [](const std::vector<float>& v, size_t read_past) {
    const std::span<const float> entries = OwnEntries(v, read_past);
    return std::vector<float>(entries.begin(), entries.end());
  };
  return {{"initial_pose", pose},
          {"forward_curves", curves(im.forward)},
          {"inverse_curves", curves(im.inverse)},
          {"keys", keys},
          {"key_times", own(im.key_times, past.key_times)},
          {"key_values", own(im.values, past.values)},
          {"tangents", own(im.tangents, past.tangents)},
          {"read_past_tables",
           {{"keys", past.keys}, {"key_times", past.key_times}, {"values", past.values}, {"tangents", past.tangents}}},
          {"warnings", m.warnings}};
}

constexpr std::string_view kConstraintNames[] = {
    "position",   "path", "orientation", "direction", "up_vector",      "two_points",     "scale",
    "camera",     "camera_path", "int_path", "int",  "camera_up_vector", "position_limit", "rotation_limit"};

// The plan of a motion posed without a skeleton: what it evaluates does not depend on one.
EvaluationPlan PlanOf(const InterpolatedMotion& im) { return PlanFor(im, Skeleton{}, {}, EvaluationSettings{}); }

void MotionWarnings(const Motion& m, const std::string& where, std::set<const Motion*>& seen,
                    std::vector<std::string>& out) {
  if (m.raw || m.placeholder || !seen.insert(&m).second) return;
  for (const std::string& w : PlanOf(m.interpolated).warnings) out.push_back(where + w);
}

void BarWarnings(const Bar& bar, const std::string& prefix, std::set<const Bar*>& bars, std::set<const Motion*>& motions,
                 std::vector<std::string>& out) {
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    const std::string name = prefix + "entry " + std::to_string(i) + " (" + e.Name() + ")";
    if (e.motion) MotionWarnings(*e.motion, name + ": ", motions, out);
    if (e.bar && bars.insert(e.bar.get()).second) BarWarnings(*e.bar, name + " > ", bars, motions, out);
  }
}

}  // namespace

Value EvaluationInfo(const InterpolatedMotion& im) {
  Value by_type = Value::object();
  for (const Constraint& c : im.constraints) {
    const std::string name =
        c.type < std::size(kConstraintNames) ? std::string(kConstraintNames[c.type]) : "type " + std::to_string(c.type);
    by_type[name] = by_type.value(name, 0) + 1;
  }
  size_t ik = 0;
  for (const JointEntry& e : im.joints) ik += (e.flags & 3) != 0 ? 1 : 0;
  const EvaluationPlan plan = PlanOf(im);
  const size_t driven = size_t(std::count(plan.driven.begin(), plan.driven.end(), true));
  return {{"constraints", by_type},
          {"expressions", im.expressions.size()},
          {"ik_joints", ik},
          {"driven_joints", driven},
          {"not_evaluated", plan.warnings}};
}

std::string DrivenBy(const InterpolatedMotion& im, int joint, const Skeleton& skeleton) {
  auto name = [&](int j) {
    return j >= 0 && size_t(j) < skeleton.joints.size() ? skeleton.joints[size_t(j)].name : NumberedJointName(uint64_t(std::max(j, 0)));
  };
  std::string out;
  auto add = [&](const std::string& what) { out += (out.empty() ? "" : ", ") + what; };
  for (const Constraint& c : im.constraints)
    if (c.joint == joint)
      add("a constraint (" +
          (c.type < std::size(kConstraintNames) ? std::string(kConstraintNames[c.type]) : "type " + std::to_string(c.type)) +
          ") from " + name(c.source));
  for (const Expression& e : im.expressions)
    if (e.joint == joint) add("an expression (channel " + std::to_string(e.channel) + ")");
  for (const JointEntry& e : im.joints)
    if (e.joint == joint && (e.flags & 3) != 0) add((e.flags & 3) == 1 ? "IK (aim)" : "IK (two-bone chain)");
  return out.empty() ? "IK" : out;
}

void EvaluationWarnings(const Motion& motion, const std::string& where, std::vector<std::string>& out) {
  std::set<const Motion*> seen;
  MotionWarnings(motion, where, seen, out);
}

void EvaluationWarnings(const Bar& bar, std::vector<std::string>& out) {
  std::set<const Bar*> bars;
  std::set<const Motion*> motions;
  BarWarnings(bar, "", bars, motions, out);
}

namespace {
// Seconds from the first played frame to the last.
double Duration(size_t frames, float fps) { return frames > 1 && fps > 0 ? double(frames - 1) / double(fps) : 0.0; }
}  // namespace

Value MotionHeadInfo(const Motion& m) {
  Value j = {{"kind", m.raw ? "raw" : "interpolated"}, {"size", m.size}};
  fields::Describe(j, m.header, kMotionHeader);
  if (!m.raw) return j;
  const RawMotion& r = m.raw_motion;
  fields::Describe(j, r, kRawHeader);
  j.update({{"second_table_bytes", r.second_table.size()},
            {"engine_rate", kEngineRate},
            {"matrix_count", r.matrices.size()},
            {"duration", Duration(size_t(std::max(r.total_frames, 0)), r.fps)}});
  return j;
}

Value InterpolatedHeadInfo(const InterpolatedMotion& im) {
  PlayedFrames played{0, 0};  // count 0: more frames than can be decoded
  try {
    played = FramesPlayed(im, Limits{});
  } catch (const Error&) {
  }
  return {{"bone_count", im.bone_count},
          {"total_bone_count", im.total_bone_count},
          {"total_frames", im.total_frames},
          {"fps", im.fps},
          {"engine_rate", kEngineRate},
          {"frame_loop", im.frame_loop},
          {"frame_end", im.frame_end},
          {"frame_count", im.frame_count},
          {"played_frames", played.count},
          {"played_from", played.start},
          {"duration", Duration(played.count, im.fps)},
          {"evaluation", EvaluationInfo(im)},
          {"bbox_min", V4(im.bbox_min)},
          {"bbox_max", V4(im.bbox_max)},
          {"external_effector_count", im.effector_count},
          {"unknown98", im.unknown98},
          {"unknown9c", im.unknown9c}};
}

Value MotionInfo(const Motion& m) {
  if (m.placeholder) return {{"kind", "placeholder"}, {"size", m.size}, {"gaps", GapsInfo(m.gaps)}};
  Value j = MotionHeadInfo(m);
  j["gaps"] = GapsInfo(m.gaps);
  if (m.raw) return j;
  const InterpolatedMotion& im = m.interpolated;
  j.update(InterpolatedHeadInfo(im));
  j["offsets"] = {{"ik_helpers", im.ik_helper_offset},
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
                  {"activations", im.activation_offset},
                  {"limiters", im.limiter_offset},
                  {"expressions", im.expression_offset},
                  {"expression_nodes", im.expression_node_offset},
                  {"external_effectors", im.effector_offset}};
  j.update(CurveTablesInfo(m));
  Value root = Value::object();
  fields::Describe(root, im.root_position, kRootPosition);
  j.update({{"constraints", fields::DescribeTable(im.constraints, kConstraintRecord)},
            {"limiters", fields::DescribeTable(im.limiters, kLimiterRecord)},
            {"expressions", fields::DescribeTable(im.expressions, kExpressionRecord)},
            {"expression_nodes", fields::DescribeTable(im.expression_nodes, kExpressionNodeRecord)},
            {"ik_helpers", fields::DescribeTable(im.ik_helpers, kBoneRecord)},
            {"joints", Rows(im.joints, kJointEntry)},
            {"root_position", root}});
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

Value ModelInfo(const Model& model) {
  Value j = {{"bones", fields::DescribeTable(model.bones, kBoneRecord)}};
  fields::Describe(j, model, kModelHeaderShown);
  return j;
}

Value BarDocument(const Bar& bar, const BarInfoParts& parts) {
  Value entries = Value::array();
  size_t empty = 0, placeholders = 0, links = 0, dummies = 0, damaged = 0;
  std::map<const Bar*, size_t> shown;  // a nested archive several entries share is described once
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    Value j = Value::object();
    fields::Describe(j, e, kBarEntry);
    j["name"] = e.Name();  // its bytes as text
    if (e.size == 0) j["empty"] = true, ++empty;
    if (const int target = LinkTarget(bar, i); target >= 0) j["link_to"] = target, ++links;
    if (e.IsDummy()) j["dummy"] = true, ++dummies;
    if (e.Damaged()) j["damaged"] = e.damage, ++damaged;
    if (e.motion) {
      j["motion"] = parts.motion(*e.motion);
      if (e.motion->placeholder) j["placeholder"] = true, ++placeholders;
    }
    if (e.triggers) j["triggers"] = parts.triggers(*e.triggers);
    if (e.bar) {
      auto first = shown.emplace(e.bar.get(), entries.size()).first;
      if (first->second == entries.size()) j["bar"] = BarDocument(*e.bar, parts);
      else j["bar"] = {{"same_as_entry", first->second}};
    }
    if (e.type == kEntrySubArchive) j["sub_archive"] = true;
    if (e.model) j["model"] = parts.model(*e.model);
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
          {"damaged_entries", damaged},
          {"damaged", DamagedEntries(bar)},
          {"entries", entries},
          {"gaps", parts.gaps(bar.gaps)},
          {"warnings", bar.warnings}};
}

Value BarInfo(const Bar& bar) {
  static const BarInfoParts kFull{MotionInfo, TriggersInfo, ModelInfo, GapsInfo};
  return BarDocument(bar, kFull);
}

}  // namespace animkit::kh2::detail
