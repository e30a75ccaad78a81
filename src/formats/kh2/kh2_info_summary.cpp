// `animkit info` (without --full) of KH2 archives and motions: the header fields, and per
// table its count, offset and size instead of its records, so that a whole moveset's
// summary stays small (kh2_info.cpp writes every record).
#include "formats/kh2/kh2_fields.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <map>
#include <string>

namespace animkit::kh2::detail {

namespace {

// Bytes the reader could not place: how many runs and how many bytes in all.
Value GapsSummary(const std::vector<Gap>& gaps) {
  size_t bytes = 0;
  for (const Gap& g : gaps) bytes += g.bytes.size();
  return {{"count", gaps.size()}, {"bytes", bytes}};
}

// A table of count records of record_size bytes; offset as the header stores it.
Value Table(int64_t offset, size_t count, size_t record_size) {
  return {{"offset", offset}, {"count", count}, {"size", count * record_size}};
}

// The tables of an interpolated motion, in the header's order. Offsets count from the end
// of the 0x90 reserved bytes; counts are the records the file holds (those the reader
// took from past a table's end are counted in read_past_tables).
Value TablesSummary(const InterpolatedMotion& im) {
  using fields::Size;
  const InterpolatedMotion::ReadPast& past = im.read_past;
  auto own = [](size_t size, size_t read_past) { return size - std::min(size, read_past); };
  return {{"ik_helpers", Table(im.ik_helper_offset, im.ik_helpers.size(), Size(kBoneRecord))},
          {"joints", Table(im.joint_offset, im.joints.size(), Size(kJointEntry))},
          {"initial_pose", Table(im.initial_pose_offset, im.initial_pose.size(), Size(kInitialPoseRecord))},
          {"root_position", Table(im.root_position_offset, 1, Size(kRootPosition))},
          {"forward_curves", Table(im.forward_offset, im.forward.size(), Size(kCurveRecord))},
          {"inverse_curves", Table(im.inverse_offset, im.inverse.size(), Size(kCurveRecord))},
          {"keys", Table(im.key_offset, own(im.keys.size(), past.keys), Size(kKeyRecord))},
          {"key_times", Table(im.key_time_offset, own(im.key_times.size(), past.key_times), 4)},
          {"key_values", Table(im.key_value_offset, own(im.values.size(), past.values), 4)},
          {"tangents", Table(im.tangent_offset, own(im.tangents.size(), past.tangents), 4)},
          {"constraints", Table(im.constraint_offset, im.constraints.size(), Size(kConstraintRecord))},
          {"activations", Table(im.activation_offset, im.activations.size(), Size(kActivationRecord))},
          {"limiters", Table(im.limiter_offset, im.limiters.size(), Size(kLimiterRecord))},
          {"expressions", Table(im.expression_offset, im.expressions.size(), Size(kExpressionRecord))},
          {"expression_nodes", Table(im.expression_node_offset, im.expression_nodes.size(), Size(kExpressionNodeRecord))},
          {"external_effectors", Table(im.effector_offset, im.effectors.size(), 2)}};
}

Value TriggersSummary(const Triggers& t) {
  return {{"frame_list_offset", t.frame_list_offset}, {"size", t.size},          {"ranges", t.ranges.size()},
          {"frames", t.frames.size()},                 {"gaps", GapsSummary(t.gaps)}, {"warnings", t.warnings}};
}

}  // namespace

Value MotionSummary(const Motion& m) {
  if (m.placeholder) return {{"kind", "placeholder"}, {"size", m.size}, {"gaps", GapsSummary(m.gaps)}};
  Value j = MotionHeadInfo(m);
  j.update({{"gaps", GapsSummary(m.gaps)}, {"warnings", m.warnings}});
  if (m.raw) {
    const RawMotion& r = m.raw_motion;
    j["tables"] = {{"matrices", Table(r.matrix_offset, r.matrices.size(), 64)},
                   {"second_table", {{"offset", r.second_table_offset}, {"size", r.second_table.size()}}}};
    return j;
  }
  const InterpolatedMotion& im = m.interpolated;
  const InterpolatedMotion::ReadPast& past = im.read_past;
  j.update(InterpolatedHeadInfo(im));
  j.update({{"tables", TablesSummary(im)},
            {"read_past_tables",
             {{"keys", past.keys}, {"key_times", past.key_times}, {"values", past.values}, {"tangents", past.tangents}}}});
  return j;
}

Value BarSummary(const Bar& bar) {
  static const BarInfoParts kSummary{
      MotionSummary, TriggersSummary,
      [](const Model& model) -> Value {
        return {{"type", model.type},
                {"bone_count", model.bone_count},
                {"texture_count", model.texture_count},
                {"bones", Table(model.bone_offset, model.bones.size(), fields::Size(kBoneRecord))}};
      },
      GapsSummary};
  return BarDocument(bar, kSummary);
}

}  // namespace animkit::kh2::detail
