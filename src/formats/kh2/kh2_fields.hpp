// The fixed records of a motion entry, in file order: the reader and the writer walk
// these lists (formats/common/fields.hpp), so they cannot disagree.
#pragma once

#include <animkit/formats/kh2.hpp>

#include "formats/common/fields.hpp"

#include <tuple>

namespace animkit::kh2::detail {

using fields::Field;

// At 0x90: what kind of motion follows (named as `info` keys them).
inline constexpr auto kMotionHeader =
    fields::List(Field{"type", &MotionHeader::type}, Field{"flag", &MotionHeader::flag},
                 Field{"byte_count", &MotionHeader::byte_count}, Field{"header_reserved", &MotionHeader::reserved});

// At 0xA0 of a raw motion (0x50 bytes; named as `info` keys them).
inline constexpr auto kRawHeader = fields::List(
    Field{"bone_count", &RawMotion::bone_count}, Field{"reserved", &RawMotion::reserved},
    Field{"frames_per_loop", &RawMotion::frames_per_loop}, Field{"total_frames", &RawMotion::total_frames},
    Field{"matrix_offset", &RawMotion::matrix_offset}, Field{"second_table_offset", &RawMotion::second_table_offset},
    Field{"bbox_min", &RawMotion::bbox_min}, Field{"bbox_max", &RawMotion::bbox_max},
    Field{"frame_loop", &RawMotion::frame_loop}, Field{"frame_end", &RawMotion::frame_end},
    Field{"fps", &RawMotion::fps}, Field{"frame_return", &RawMotion::frame_return});

// At 0xA0 of an interpolated motion (0xA0 bytes); offsets count from 0x90.
inline constexpr auto kInterpolatedHeader = fields::List(
    Field{"bone count", &InterpolatedMotion::bone_count},
    Field{"total bone count", &InterpolatedMotion::total_bone_count},
    Field{"total frame count", &InterpolatedMotion::total_frames},
    Field{"IK helper table offset", &InterpolatedMotion::ik_helper_offset},
    Field{"joint table offset", &InterpolatedMotion::joint_offset},
    Field{"key time count", &InterpolatedMotion::key_time_count},
    Field{"initial pose offset", &InterpolatedMotion::initial_pose_offset},
    Field{"initial pose count", &InterpolatedMotion::initial_pose_count},
    Field{"root position offset", &InterpolatedMotion::root_position_offset},
    Field{"forward curve offset", &InterpolatedMotion::forward_offset},
    Field{"forward curve count", &InterpolatedMotion::forward_count},
    Field{"inverse curve offset", &InterpolatedMotion::inverse_offset},
    Field{"inverse curve count", &InterpolatedMotion::inverse_count},
    Field{"key table offset", &InterpolatedMotion::key_offset},
    Field{"key time table offset", &InterpolatedMotion::key_time_offset},
    Field{"key value table offset", &InterpolatedMotion::key_value_offset},
    Field{"tangent table offset", &InterpolatedMotion::tangent_offset},
    Field{"constraint table offset", &InterpolatedMotion::constraint_offset},
    Field{"constraint count", &InterpolatedMotion::constraint_count},
    Field{"constraint activation offset", &InterpolatedMotion::activation_offset},
    Field{"limiter table offset", &InterpolatedMotion::limiter_offset},
    Field{"expression table offset", &InterpolatedMotion::expression_offset},
    Field{"expression count", &InterpolatedMotion::expression_count},
    Field{"expression node table offset", &InterpolatedMotion::expression_node_offset},
    Field{"expression node count", &InterpolatedMotion::expression_node_count},
    Field{"bounding box", &InterpolatedMotion::bbox_min}, Field{"bounding box", &InterpolatedMotion::bbox_max},
    Field{"frame loop", &InterpolatedMotion::frame_loop}, Field{"frame end", &InterpolatedMotion::frame_end},
    Field{"frames per second", &InterpolatedMotion::fps}, Field{"frame count", &InterpolatedMotion::frame_count},
    Field{"external effector table offset", &InterpolatedMotion::effector_offset},
    Field{"external effector count", &InterpolatedMotion::effector_count},
    Field{"unknown field", &InterpolatedMotion::unknown98}, Field{"unknown field", &InterpolatedMotion::unknown9c});

// The records below name their fields as `info --full` keys them (kh2_info.cpp describes
// them from these lists).

// A model bone (0x40 bytes), in an MDLX model and in a motion's IK helper table.
inline constexpr auto kBoneRecord = fields::List(
    Field{"index", &BoneRecord::index}, Field{"sibling", &BoneRecord::sibling}, Field{"parent", &BoneRecord::parent},
    Field{"child", &BoneRecord::child}, Field{"reserved", &BoneRecord::reserved}, Field{"flags", &BoneRecord::flags},
    Field{"scale", &BoneRecord::scale}, Field{"rotation", &BoneRecord::rotation},
    Field{"translation", &BoneRecord::translation});

// Table 3: a constraint (12 bytes).
inline constexpr auto kConstraintRecord = fields::List(
    Field{"type", &Constraint::type}, Field{"temporary_active", &Constraint::temporary_active},
    Field{"joint", &Constraint::joint}, Field{"source", &Constraint::source}, Field{"limiter", &Constraint::limiter},
    Field{"activation_count", &Constraint::activation_count},
    Field{"activation_start", &Constraint::activation_start});

// The constraint activation table (8 bytes each).
inline constexpr auto kActivationRecord =
    fields::List(Field{"time", &Activation::time}, Field{"active", &Activation::active});

// Table 8: a limiter (0x30 bytes).
inline constexpr auto kLimiterRecord = fields::List(
    Field{"flags", &Limiter::flags}, Field{"padding", &Limiter::padding},
    Field{"damping_width", &Limiter::damping_width}, Field{"damping_strength", &Limiter::damping_strength},
    Field{"min", &Limiter::min}, Field{"max", &Limiter::max});

// Table 7: an expression (8 bytes).
inline constexpr auto kExpressionRecord =
    fields::List(Field{"joint", &Expression::joint}, Field{"channel", &Expression::channel},
                 Field{"reserved", &Expression::reserved}, Field{"node", &Expression::node});

// Table 6: an expression node (12 bytes).
inline constexpr auto kExpressionNodeRecord = fields::List(
    Field{"type", &ExpressionNode::type}, Field{"flags", &ExpressionNode::flags},
    Field{"element", &ExpressionNode::element}, Field{"value", &ExpressionNode::value},
    Field{"car", &ExpressionNode::car}, Field{"cdr", &ExpressionNode::cdr});

// Table 4: a joint entry (4 bytes; `info` shows it as a [joint, flags] row).
inline constexpr auto kJointEntry = fields::List(Field{"joint", &JointEntry::joint}, Field{"flags", &JointEntry::flags});

// The root position footer (0x54 bytes).
inline constexpr auto kRootPosition = fields::List(
    Field{"scale", &RootPosition::scale}, Field{"rotation", &RootPosition::rotation},
    Field{"translation", &RootPosition::translation}, Field{"fields", &RootPosition::unknown});

// A model header (0x20 bytes): the fields `info --full` shows, then the two it leaves out.
inline constexpr auto kModelHeaderShown = fields::List(
    Field{"type", &ModelHeader::type}, Field{"subtype", &ModelHeader::subtype},
    Field{"attributes", &ModelHeader::attributes}, Field{"next_offset", &ModelHeader::next_offset},
    Field{"bone_count", &ModelHeader::bone_count}, Field{"texture_count", &ModelHeader::texture_count},
    Field{"bone_offset", &ModelHeader::bone_offset});
inline constexpr auto kModelHeader =
    std::tuple_cat(kModelHeaderShown, fields::List(Field{"skeleton_data_offset", &ModelHeader::skeleton_data_offset},
                                                   Field{"group_count", &ModelHeader::group_count}));

// A model's group ("subpart", one DMA chain) header (0x20 bytes, after the model header).
struct GroupHeader {
  int32_t render_flags = 0;  // bit 0: transparent
  int32_t texture_index = 0;
  int32_t polygon_count = 0;
  int32_t unknown0c = 0;
  uint32_t dma_offset = 0;         // the first DMA tag
  uint32_t slot_table_offset = 0;  // u32 count, then bone indices (-1 ends a packet's list)
  uint32_t dma_length = 0;         // DMA records
  uint32_t unknown1c = 0;
};
inline constexpr auto kGroupHeader = fields::List(
    Field{"group render flags", &GroupHeader::render_flags}, Field{"group texture index", &GroupHeader::texture_index},
    Field{"group polygon count", &GroupHeader::polygon_count}, Field{"group header field 0x0c", &GroupHeader::unknown0c},
    Field{"group DMA tag offset", &GroupHeader::dma_offset},
    Field{"group matrix slot table offset", &GroupHeader::slot_table_offset},
    Field{"group DMA length", &GroupHeader::dma_length}, Field{"group header field 0x1c", &GroupHeader::unknown1c});

// The skeleton data block (0x120 bytes at the header's skeleton_data_offset): bounding box,
// IK bias and body-part bones, whose layout is not known; kept as words.
struct SkeletonData {
  std::array<uint32_t, 0x48> words{};
};
inline constexpr auto kSkeletonData = fields::List(Field{"skeleton data", &SkeletonData::words});

// Table 1: an initial pose value (8 bytes).
inline constexpr auto kInitialPoseRecord =
    fields::List(Field{"initial pose bone", &InitialPose::bone}, Field{"initial pose channel", &InitialPose::channel},
                 Field{"initial pose value", &InitialPose::value});

// Tables 2 and 2X: a forward or inverse curve (6 bytes).
inline constexpr auto kCurveRecord =
    fields::List(Field{"curve joint", &Curve::joint}, Field{"curve channel and cycle types", &Curve::packed},
                 Field{"curve key count", &Curve::key_count}, Field{"curve first key", &Curve::first_key});

// Table 9: a key (8 bytes), its table's and those read past it alike.
inline constexpr auto kKeyRecord =
    fields::List(Field{"key type and time index", &Key::packed}, Field{"key value index", &Key::value},
                 Field{"key in-tangent index", &Key::in_tangent}, Field{"key out-tangent index", &Key::out_tangent});

// A BAR entry's record (16 bytes): the stored fields of BarEntry.
inline constexpr auto kBarEntry =
    fields::List(Field{"type", &BarEntry::type}, Field{"duplicate", &BarEntry::duplicate},
                 Field{"name", &BarEntry::name}, Field{"offset", &BarEntry::offset}, Field{"size", &BarEntry::size});

// A triggers entry's records before their parameter count and parameters (u8 count, i16 each).
inline constexpr auto kRangeTriggerHead =
    fields::List(Field{"range trigger start frame", &RangeTrigger::start},
                 Field{"range trigger end frame", &RangeTrigger::end}, Field{"range trigger id", &RangeTrigger::id});
inline constexpr auto kFrameTriggerHead =
    fields::List(Field{"frame trigger frame", &FrameTrigger::frame}, Field{"frame trigger id", &FrameTrigger::id});

}  // namespace animkit::kh2::detail
