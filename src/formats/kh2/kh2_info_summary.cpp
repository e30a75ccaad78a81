// `animkit info` (without --full) of KH2 archives and motions: the header fields, and per
// table its count, offset and size instead of its records, so that a whole moveset's
// summary stays small (kh2_info.cpp writes every record).
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
  const InterpolatedMotion::ReadPast& past = im.read_past;
  auto own = [](size_t size, size_t read_past) { return size - std::min(size, read_past); };
  return {{"ik_helpers", Table(im.ik_helper_offset, im.ik_helpers.size(), 0x40)},
          {"joints", Table(im.joint_offset, im.joints.size(), 4)},
          {"initial_pose", Table(im.initial_pose_offset, im.initial_pose.size(), 8)},
          {"root_position", Table(im.root_position_offset, 1, kRootPositionSize)},
          {"forward_curves", Table(im.forward_offset, im.forward.size(), 6)},
          {"inverse_curves", Table(im.inverse_offset, im.inverse.size(), 6)},
          {"keys", Table(im.key_offset, own(im.keys.size(), past.keys), 8)},
          {"key_times", Table(im.key_time_offset, own(im.key_times.size(), past.key_times), 4)},
          {"key_values", Table(im.key_value_offset, own(im.values.size(), past.values), 4)},
          {"tangents", Table(im.tangent_offset, own(im.tangents.size(), past.tangents), 4)},
          {"constraints", Table(im.constraint_offset, im.constraints.size(), 12)},
          {"activations", Table(im.activation_offset, im.activations.size(), 8)},
          {"limiters", Table(im.limiter_offset, im.limiters.size(), 0x30)},
          {"expressions", Table(im.expression_offset, im.expressions.size(), 8)},
          {"expression_nodes", Table(im.expression_node_offset, im.expression_nodes.size(), 12)},
          {"external_effectors", Table(im.effector_offset, im.effectors.size(), 2)}};
}

Value InterpolatedSummary(const Motion& m, Value j) {
  const InterpolatedMotion& im = m.interpolated;
  PlayedFrames played{0, 0};  // count 0: more frames than can be decoded
  try {
    played = FramesPlayed(im, Limits{});
  } catch (const Error&) {
  }
  const InterpolatedMotion::ReadPast& past = im.read_past;
  j.update({{"bone_count", im.bone_count},
            {"total_bone_count", im.total_bone_count},
            {"total_frames", im.total_frames},
            {"fps", im.fps},
            {"engine_rate", kEngineRate},
            {"frame_loop", im.frame_loop},
            {"frame_end", im.frame_end},
            {"frame_count", im.frame_count},
            {"played_frames", played.count},
            {"played_from", played.start},
            {"duration", played.count > 1 && im.fps > 0 ? double(played.count - 1) / double(im.fps) : 0.0},
            {"evaluation", EvaluationInfo(im)},
            {"bbox_min", V4(im.bbox_min)},
            {"bbox_max", V4(im.bbox_max)},
            {"tables", TablesSummary(im)},
            {"external_effector_count", im.effector_count},
            {"unknown98", im.unknown98},
            {"unknown9c", im.unknown9c},
            {"read_past_tables",
             {{"keys", past.keys}, {"key_times", past.key_times}, {"values", past.values}, {"tangents", past.tangents}}}});
  return j;
}

Value TriggersSummary(const Triggers& t) {
  return {{"frame_list_offset", t.frame_list_offset}, {"size", t.size},          {"ranges", t.ranges.size()},
          {"frames", t.frames.size()},                 {"gaps", GapsSummary(t.gaps)}, {"warnings", t.warnings}};
}

}  // namespace

Value MotionSummary(const Motion& m) {
  if (m.placeholder) return {{"kind", "placeholder"}, {"size", m.size}, {"gaps", GapsSummary(m.gaps)}};
  Value j = {{"kind", m.raw ? "raw" : "interpolated"},
             {"type", m.header.type},
             {"flag", m.header.flag},
             {"byte_count", m.header.byte_count},
             {"header_reserved", m.header.reserved},
             {"size", m.size},
             {"gaps", GapsSummary(m.gaps)},
             {"warnings", m.warnings}};
  if (!m.raw) return InterpolatedSummary(m, std::move(j));
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
            {"fps", r.fps},
            {"engine_rate", kEngineRate},
            {"frame_loop", r.frame_loop},
            {"frame_end", r.frame_end},
            {"frame_return", r.frame_return},
            {"matrix_count", r.matrices.size()},
            {"duration", r.total_frames > 1 && r.fps > 0 ? double(r.total_frames - 1) / double(r.fps) : 0.0},
            {"tables",
             {{"matrices", Table(r.matrix_offset, r.matrices.size(), 64)},
              {"second_table", {{"offset", r.second_table_offset}, {"size", r.second_table.size()}}}}}});
  return j;
}

Value BarSummary(const Bar& bar) {
  static const BarInfoParts kSummary{
      MotionSummary, TriggersSummary,
      [](const Model& model) -> Value {
        return {{"type", model.type},
                {"bone_count", model.bone_count},
                {"texture_count", model.texture_count},
                {"bones", Table(model.bone_offset, model.bones.size(), 0x40)}};
      },
      GapsSummary};
  return BarDocument(bar, kSummary);
}

}  // namespace animkit::kh2::detail
