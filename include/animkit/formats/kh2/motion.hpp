// Kingdom Hearts II motion entries (BAR type 9: raw model-space matrices, or interpolated
// per-channel curves with constraints, IK helpers and expressions) and motion triggers
// (BAR type 16), as records that keep every field: Serialize(Parse(x)) == x. Offsets are
// the file's own: a motion's table offsets count from 0x90 (the end of its reserved area).
// See docs/formats/kh2.md, "Motion" and "Triggers".
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace animkit::kh2 {

using Vec4f = std::array<float, 4>;

// Bytes of an entry that no parsed table covers, at an offset from the entry start.
struct Gap {
  uint32_t offset = 0;
  Bytes bytes;
};

// ---------------------------------------------------------------------------
// Motion entry
inline constexpr size_t kReservedSize = 0x90;  // zero bytes that start a motion (and a model)
inline constexpr int32_t kMotionInterpolated = 0;
inline constexpr int32_t kMotionRaw = 1;
inline constexpr double kEngineRate = 60;  // key times and engine frames count 1/60 s

struct MotionHeader {
  int32_t type = kMotionInterpolated;  // 0 interpolated, 1 raw
  int32_t flag = 0;                    // 0 normal, 1 "ignore scale" (unverified)
  int32_t byte_count = 0;              // entry size minus 0x90 in known files
  int32_t reserved = 0;
};

struct RawMotion {
  int32_t bone_count = 0;
  std::array<int32_t, 3> reserved{};
  int32_t frames_per_loop = 0;  // engine frames
  int32_t total_frames = 0;     // matrix sets
  int32_t matrix_offset = 0x60;  // where the matrices start, from 0x90 (0x60: after this header)
  int32_t second_table_offset = 0;  // from 0x90; 0 = none
  Vec4f bbox_min{}, bbox_max{};
  float frame_loop = 0, frame_end = 0, fps = 30, frame_return = 0;
  // total_frames * bone_count matrices, frame-major; 16 floats each in file order
  // (row-vector layout, translation in 12..14) = column-major for column vectors.
  std::vector<std::array<float, 16>> matrices;
  // Bytes from the second table's offset to the end of the entry (none when offset is 0).
  Bytes second_table;
};

enum class Channel : uint8_t { ScaleX, ScaleY, ScaleZ, RotateX, RotateY, RotateZ, TranslateX, TranslateY, TranslateZ };
inline constexpr int kChannelCount = 9;

enum class CycleType : uint8_t { Clamp = 0, Offset = 1, Repeat = 2, Zero = 3 };
enum class KeyType : uint8_t { Constant = 0, Linear = 1, Hermite = 2, Zero = 3 };

struct InitialPose {  // table 1, 8 bytes
  int16_t bone = 0;
  int16_t channel = 0;
  float value = 0;
};

struct Curve {  // tables 2 (forward) and 2X (inverse), 6 bytes
  int16_t joint = 0;  // forward: model bone; inverse: IK helper index (bone = bone_count + joint)
  uint8_t packed = 0;  // channel bits 0-3, pre cycle bits 4-5, post cycle bits 6-7
  uint8_t key_count = 0;
  uint16_t first_key = 0;  // unsigned: real movesets hold more than 32,767 keys
  int channel() const { return packed & 15; }
  CycleType pre() const { return static_cast<CycleType>((packed >> 4) & 3); }
  CycleType post() const { return static_cast<CycleType>(packed >> 6); }
};

struct Key {  // table 9, 8 bytes
  uint16_t packed = 0;  // type bits 0-1, key time index bits 2-15
  uint16_t value = 0;   // indices are unsigned, as the key and curve indices are
  uint16_t in_tangent = 0;
  uint16_t out_tangent = 0;
  KeyType type() const { return static_cast<KeyType>(packed & 3); }
  int time_index() const { return packed >> 2; }
};

enum class ConstraintType : uint8_t {
  Position = 0, Path = 1, Orientation = 2, Direction = 3, UpVector = 4, TwoPoints = 5, Scale = 6, Camera = 7,
  CameraPath = 8, IntPath = 9, Int = 10, CameraUpVector = 11, PositionLimit = 12, RotationLimit = 13
};

struct Constraint {  // table 3, 12 bytes
  uint8_t type = 0;              // ConstraintType
  uint8_t temporary_active = 0;  // 1 in known files; meaning unverified
  int16_t joint = 0;             // the constrained joint (bone or IK helper, joint index)
  int16_t source = 0;            // the joint it follows (joint index)
  int16_t limiter = -1;          // limiter table index or -1
  int16_t activation_count = 0;  // 0: always active
  int16_t activation_start = 0;  // first entry in the activation table
};

struct Activation {  // activation table (header 0x48), 8 bytes
  float time = 0;      // key-time units
  int32_t active = 0;  // non-zero: on from this time
};

struct Limiter {  // table 8, 0x30 bytes
  uint32_t flags = 0;  // bits 0-2 type (0 rotation, 1 sphere, 2 box), 3 global, 4-9 x/y/z min/max enabled
  int32_t padding = 0;
  float damping_width = 0, damping_strength = 0;
  Vec4f min{}, max{};
  int type() const { return int(flags & 7); }
  bool global() const { return (flags >> 3) & 1; }
  bool Bounds(int bit) const { return (flags >> (4 + bit)) & 1; }  // 0 x min, 1 x max, 2 y min, ... 5 z max
};

struct Expression {  // table 7, 8 bytes
  int16_t joint = 0;    // target joint (joint index)
  int16_t channel = 0;  // target channel (Channel)
  int16_t reserved = 0;
  int16_t node = 0;  // expression node index
};

struct ExpressionNode {  // table 6, 12 bytes
  uint8_t type = 0;   // ExpressionNodeType
  uint8_t flags = 0;  // bit 0: is global
  int16_t element = -1;
  float value = 0;
  int16_t car = -1;  // node index or -1
  int16_t cdr = -1;  // node index or -1
};

enum class ExpressionNodeType : uint8_t {
  Sin, Cos, Tan, Asin, Acos, Atan, Log, Exp, Abs, Pow, Sqrt, Min, Max, Av, Cond, AtFrame, CtrDist, Fmod,
  Plus, Minus, Mul, Div, Mod, Eq, Gt, Ge, Lt, Le, And, Or, VariableFc, ConstantNum, FcurveEtrnX, FcurveEtrnY,
  FcurveEtrnZ, FcurveRotX, FcurveRotY, FcurveRotZ, FcurveScalX, FcurveScalY, FcurveScalZ, List, ElementName,
  AtFrameRot
};

// A bone record (IK helpers in a motion, bones in an MDLX model), 0x40 bytes.
struct BoneRecord {
  int16_t index = 0;
  int16_t sibling = 0;  // unverified meaning, kept
  int16_t parent = -1;
  int16_t child = -1;  // unverified meaning, kept
  int32_t reserved = 0;
  int32_t flags = 0;
  Vec4f scale{1, 1, 1, 0};
  Vec4f rotation{};  // Euler radians xyz, X applied first; w unused
  Vec4f translation{};
};

struct JointEntry {  // table 4, 4 bytes
  int16_t joint = 0;
  int16_t flags = 0;
};

struct RootPosition {  // footer, 0x54 bytes
  Vec4f scale{1, 1, 1, 0};
  Vec4f rotation{};
  Vec4f translation{};
  std::array<int32_t, 9> unknown{-1, -1, -1, -1, -1, -1, -1, -1, -1};
};

struct InterpolatedMotion {
  // Header (0xA0 bytes at 0x90 + 0x10); offsets from 0x90.
  int16_t bone_count = 0;
  int16_t total_bone_count = 0;  // model bones + IK helpers
  int32_t total_frames = 0;      // engine frames
  int32_t ik_helper_offset = 0;
  int32_t joint_offset = 0;
  int32_t key_time_count = 0;
  int32_t initial_pose_offset = 0;
  int32_t initial_pose_count = 0;
  int32_t root_position_offset = 0;
  int32_t forward_offset = 0;
  int32_t forward_count = 0;
  int32_t inverse_offset = 0;
  int32_t inverse_count = 0;
  int32_t key_offset = 0;
  int32_t key_time_offset = 0;
  int32_t key_value_offset = 0;
  int32_t tangent_offset = 0;
  int32_t constraint_offset = 0;
  int32_t constraint_count = 0;
  int32_t activation_offset = 0;  // constraint activations (writers without them store the constraint table's end)
  int32_t limiter_offset = 0;
  int32_t expression_offset = 0;
  int32_t expression_count = 0;
  int32_t expression_node_offset = 0;
  int32_t expression_node_count = 0;
  Vec4f bbox_min{}, bbox_max{};
  float frame_loop = 0, frame_end = 0, fps = 30, frame_count = 0;
  int32_t effector_offset = 0;  // external effector table (i16 joint each; empty in every known file)
  int32_t effector_count = 0;
  int32_t unknown98 = 0;
  int32_t unknown9c = 0;

  std::vector<InitialPose> initial_pose;
  std::vector<Curve> forward;
  std::vector<Curve> inverse;
  std::vector<Key> keys;
  std::vector<float> key_times;
  std::vector<float> values;
  std::vector<float> tangents;
  std::vector<Constraint> constraints;
  std::vector<Activation> activations;  // the entries the constraints' activation ranges cover
  std::vector<Limiter> limiters;
  std::vector<Expression> expressions;
  std::vector<ExpressionNode> expression_nodes;
  std::vector<BoneRecord> ik_helpers;
  std::vector<JointEntry> joints;
  RootPosition root_position;
  std::vector<int16_t> effectors;  // external effectors: joints (joint flag 0x80 takes its IK effector from here)

  // Entries read past the end of a table, as the game's pointer arithmetic reads them
  // (real movesets have curves whose keys run a few entries past the key table): the
  // vectors above hold them after the table's own entries; these count them.
  struct ReadPast {
    size_t keys = 0, key_times = 0, values = 0, tangents = 0;
    bool any() const { return keys + key_times + values + tangents > 0; }
  } read_past;
  // Curves whose joint is past the joints the motion has: the game writes their values
  // outside the pose it reads, so they move no joint (kept, and written back).
  bool AnimatesJoint(const Curve& curve, bool of_helper) const {
    return curve.joint >= 0 && curve.joint < JointLimit(of_helper);
  }
  // The joints a forward curve (bones and helpers) or an inverse curve (helpers) indexes.
  int JointLimit(bool of_helper) const { return of_helper ? total_bone_count - bone_count : total_bone_count; }
};

struct Motion {
  // A placeholder slot: an entry of fewer than 0xA0 bytes, all zero (the game ships
  // 0x90 zero bytes with no header). No clip; its bytes are kept in gaps.
  bool placeholder = false;
  Bytes reserved = Bytes(kReservedSize, 0);  // 0x90 bytes, zero in known files
  MotionHeader header;
  bool raw = false;
  RawMotion raw_motion;             // when raw
  InterpolatedMotion interpolated;  // otherwise
  uint32_t size = 0;                // entry size in bytes
  std::vector<Gap> gaps;            // uncovered bytes, offsets from the entry start
  // What the reader accepted that the documented layout forbids (read as the game does),
  // one line each with its absolute offset.
  std::vector<std::string> warnings;
};

// ---------------------------------------------------------------------------
// Motion triggers (BAR type 16)
struct RangeTrigger {
  int16_t start = 0;
  int16_t end = 0;  // -1: to the end of the motion
  uint8_t id = 0;
  std::vector<int16_t> params;
};
struct FrameTrigger {
  int16_t frame = 0;
  uint8_t id = 0;
  std::vector<int16_t> params;
};
struct Triggers {
  int16_t frame_list_offset = 4;  // from the entry start
  std::vector<RangeTrigger> ranges;
  std::vector<FrameTrigger> frames;
  uint32_t size = 0;  // the size the enclosing entry declares
  std::vector<Gap> gaps;
  // Leniency notes (triggers read past the declared size), with absolute offsets.
  std::vector<std::string> warnings;
};

// Name of a trigger id: the "Trigger" column of the community tables, word for word
// ("" when the table lacks the id).
std::string_view RangeTriggerName(int id);
std::string_view FrameTriggerName(int id);


// A placeholder (see Motion) is accepted only as a BAR entry: a bare motion file must have a header.
// beyond (when given) runs from the entry's start to the end of the file: what an index past
// a table reads, as the game reads the file it loaded (else the entry alone).
Motion ParseMotion(ByteView data, uint64_t base = 0, bool allow_placeholder = false, ByteView beyond = {});
Triggers ParseTriggers(ByteView data, uint64_t base = 0);
Bytes SerializeMotion(const Motion& motion);
Bytes SerializeTriggers(const Triggers& triggers);
// Recompute offsets, sizes and counts after an edit (drop gaps).
void LayoutMotion(Motion& motion);
void LayoutTriggers(Triggers& triggers);

}  // namespace animkit::kh2
