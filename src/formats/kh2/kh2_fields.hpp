// The fixed records of a motion entry, in file order: the reader and the writer walk
// these lists (formats/common/fields.hpp), so they cannot disagree.
#pragma once

#include <animkit/formats/kh2.hpp>

#include "formats/common/fields.hpp"

namespace animkit::kh2::detail {

using fields::Field;

// At 0x90: what kind of motion follows.
inline constexpr auto kMotionHeader =
    fields::List(Field{"motion type", &MotionHeader::type}, Field{"motion flag", &MotionHeader::flag},
                 Field{"motion byte count", &MotionHeader::byte_count},
                 Field{"motion header field", &MotionHeader::reserved});

// At 0xA0 of a raw motion (0x50 bytes).
inline constexpr auto kRawHeader = fields::List(
    Field{"bone count", &RawMotion::bone_count}, Field{"reserved field", &RawMotion::reserved},
    Field{"frames per loop", &RawMotion::frames_per_loop}, Field{"total frame count", &RawMotion::total_frames},
    Field{"animation matrix offset", &RawMotion::matrix_offset},
    Field{"second matrix table offset", &RawMotion::second_table_offset}, Field{"bounding box", &RawMotion::bbox_min},
    Field{"bounding box", &RawMotion::bbox_max}, Field{"frame loop", &RawMotion::frame_loop},
    Field{"frame end", &RawMotion::frame_end}, Field{"frames per second", &RawMotion::fps},
    Field{"frame return", &RawMotion::frame_return});

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

// A model bone (0x40 bytes), in an MDLX model and in a motion's IK helper table.
inline constexpr auto kBoneRecord = fields::List(
    Field{"bone index", &BoneRecord::index}, Field{"bone sibling", &BoneRecord::sibling},
    Field{"bone parent", &BoneRecord::parent}, Field{"bone child", &BoneRecord::child},
    Field{"bone reserved field", &BoneRecord::reserved}, Field{"bone flags", &BoneRecord::flags},
    Field{"bone scale", &BoneRecord::scale}, Field{"bone rotation", &BoneRecord::rotation},
    Field{"bone translation", &BoneRecord::translation});

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

// A BAR entry as stored (16 bytes); BarEntry keeps these fields and the parsed payload.
struct BarEntryRecord {
  uint16_t type = 0;
  uint16_t duplicate = 0;
  std::array<uint8_t, 4> name{};
  uint32_t offset = 0;
  uint32_t size = 0;
};
inline constexpr auto kBarEntryRecord =
    fields::List(Field{"entry type", &BarEntryRecord::type}, Field{"entry duplicate flag", &BarEntryRecord::duplicate},
                 Field{"entry name", &BarEntryRecord::name}, Field{"entry offset", &BarEntryRecord::offset},
                 Field{"entry size", &BarEntryRecord::size});

// A triggers entry's records before their parameter count and parameters (u8 count, i16 each).
inline constexpr auto kRangeTriggerHead =
    fields::List(Field{"range trigger start frame", &RangeTrigger::start},
                 Field{"range trigger end frame", &RangeTrigger::end}, Field{"range trigger id", &RangeTrigger::id});
inline constexpr auto kFrameTriggerHead =
    fields::List(Field{"frame trigger frame", &FrameTrigger::frame}, Field{"frame trigger id", &FrameTrigger::id});

}  // namespace animkit::kh2::detail
