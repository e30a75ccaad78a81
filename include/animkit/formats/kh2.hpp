// Kingdom Hearts II animation data (little-endian): BAR archives (ANB = motion +
// triggers, MSET = a BAR of ANBs, MDLX = a BAR holding a model), motion entries
// (raw model-space matrices, or interpolated per-channel curves) and motion triggers.
//
// Every structure keeps every field; bytes that no table covers (padding, gaps,
// tables of unknown layout) are kept as Gap records, so Serialize(Parse(x)) == x.
// Offsets stored in the structures are the file's own: a motion's table offsets
// count from 0x90 (the end of its reserved area), a BAR entry's from its BAR's start.
// See docs/formats/kh2.md for the layout and the decode rules.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
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

// ---------------------------------------------------------------------------
// MDLX model entry (BAR type 4): only the header and the bone table are read; the
// entry's bytes are kept whole.
struct Model {
  Bytes bytes;
  int32_t type = 0, subtype = 0, attributes = 0;
  uint32_t next_offset = 0;
  uint16_t bone_count = 0, texture_count = 0;
  uint32_t bone_offset = 0;  // from 0x90
  std::vector<BoneRecord> bones;
};

// ---------------------------------------------------------------------------
// BAR archive
inline constexpr uint16_t kEntryModel = 4;
inline constexpr uint16_t kEntryTexture = 7;  // textures of the model (formats/kh2/model.hpp)
inline constexpr uint16_t kEntryMotion = 9;
inline constexpr uint16_t kEntryTriggers = 16;
inline constexpr uint16_t kEntryAnb = 17;
inline constexpr uint16_t kEntrySubArchive = 0x14;  // a nested BAR of other entries (an MSET's moveset of ANB slots)
// Types OpenKH's BAR documentation lists as binary archives: read as nested archives
// when their data starts with the BAR magic, else kept as bytes.
inline constexpr uint16_t kEntryBinaryArchive = 1;
inline constexpr uint16_t kEntryMapArchive = 30;
inline constexpr uint16_t kEntryOtherArchive = 46;

struct Bar;

struct BarEntry {
  uint16_t type = 0;
  uint16_t duplicate = 0;
  std::array<char, 4> name{};
  uint32_t offset = 0;
  uint32_t size = 0;
  // The parsed payload: one of these, by type (a zero-size entry is an empty slot).
  std::shared_ptr<Motion> motion;
  std::shared_ptr<Triggers> triggers;
  std::shared_ptr<Bar> bar;
  std::shared_ptr<Model> model;
  Bytes raw;  // other types, and damaged entries
  // Why the entry could not be read (empty: it was). A damaged entry keeps the bytes the
  // file holds for it in raw (fewer than size when the file ends inside it) and gives no
  // clip; the rest of the archive reads, decodes and writes back as usual.
  std::string damage;
  bool Damaged() const { return !damage.empty(); }
  std::string Name() const;
  bool IsDummy() const { return Name() == "DUMM"; }  // trailing zeros trimmed; bytes outside printable ASCII as %XX
};

struct Bar {
  uint32_t reserved = 0;   // u32 at 0x08: a flags word in P_EX MSETs, else 0
  int32_t mset_type = 0;   // i32 at 0x0C
  std::vector<BarEntry> entries;
  // The size the enclosing entry declares (the file's size at the top). Entries may run
  // past it as far as the enclosing data goes (modding tools rewrite triggers without
  // updating the outer size); the writer then writes those bytes too, and the enclosing
  // archive keeps only its declared share.
  uint32_t size = 0;
  std::vector<Gap> gaps;
  // Leniency notes for this archive and every nested one, with absolute offsets
  // (damaged entries are listed by DamagedEntries).
  std::vector<std::string> warnings;
};

// Every damaged entry of an archive and its nested ones: "entry 12 (A101): <why>",
// nested entries as "entry 12 (A101) > entry 0 (A101): <why>".
std::vector<std::string> DamagedEntries(const Bar& bar);

// Entry i's link: the first earlier non-empty entry whose data it shares (-1: none).
int LinkTarget(const Bar& bar, size_t i);
// The bytes an archive or triggers entry spans: its declared size, or more when
// entries run past it.
size_t Extent(const Bar& bar);

// Parsing: data is the entry/file; base is its absolute offset, for messages.
// Entries whose payloads coincide (same place, size and type, at any depth) are
// parsed once and share it; archives nest at most limits.max_depth deep.
Bar ParseBar(ByteView data, uint64_t base = 0, const Limits& limits = {});
// A placeholder (see Motion) is accepted only as a BAR entry: a bare motion file must have a header.
// beyond (when given) runs from the entry's start to the end of the file: what an index past
// a table reads, as the game reads the file it loaded (else the entry alone).
Motion ParseMotion(ByteView data, uint64_t base = 0, bool allow_placeholder = false, ByteView beyond = {});
Triggers ParseTriggers(ByteView data, uint64_t base = 0);
Model ParseModel(ByteView data, uint64_t base = 0);
bool LooksLikeBar(ByteView data);

Bytes SerializeBar(const Bar& bar);
Bytes SerializeMotion(const Motion& motion);
Bytes SerializeTriggers(const Triggers& triggers);
Bytes SerializePayload(const BarEntry& entry);

// Recomputes offsets, sizes and counts after an edit (drops gaps, 16-aligned entries).
void LayoutBar(Bar& bar);
void LayoutMotion(Motion& motion);
void LayoutTriggers(Triggers& triggers);

// ---------------------------------------------------------------------------
// Evaluation and decoding
// A curve's value at time t (key-time units, 1/60 s): exact constant/linear/hermite
// segments (hermite tangents are slopes per 1/60 s, scaled by the key interval), pre and
// post cycles outside the keys.
float EvaluateCurve(const InterpolatedMotion& motion, const Curve& curve, float t);

// Per-bone rest values, 9 channels (scale xyz, rotation xyz Euler radians, translation xyz).
using ChannelValues = std::array<float, kChannelCount>;

// Every bone's channels at time t (key-time units): rest, then the initial pose, then
// the curves. rest has total_bone_count entries or fewer (missing: identity).
void EvaluatePose(const InterpolatedMotion& motion, float t, const std::vector<ChannelValues>& rest,
                  std::vector<ChannelValues>& out);
// The same into out (total_bone_count entries or more), allocating nothing.
void EvaluatePose(const InterpolatedMotion& motion, float t, std::span<const ChannelValues> rest,
                  std::span<ChannelValues> out);

TransformTRS TransformFromChannels(const ChannelValues& c);
ChannelValues ChannelsFromBone(const BoneRecord& b);

// ---------------------------------------------------------------------------
// The game's pose (docs/formats/kh2.md, "Evaluation"): channels from curves, initial pose
// and rest; expressions; composition in joint-table order under per-axis scale
// inheritance (ComposePerAxis); constraints with their activations and limiters; IK.
// Joints are indexed as the motion indexes them: bones 0..bone_count-1, then IK helpers.
struct EvaluationSettings {
  bool constraints = true;  // false: the curves alone, composed (format option kh2-constraints off)
  // Constraint types whose rule animkit reads from their names only (docs/formats/kh2.md):
  // false leaves their joints as forward kinematics, with a warning (format option
  // kh2-unverified-constraints).
  bool unverified_constraints = false;
};

struct CompiledExpressions;  // kh2_expression.cpp
struct IkChains;             // kh2_ik.cpp

// A motion made ready to evaluate, once: references checked, expressions compiled.
struct EvaluationPlan {
  EvaluationSettings settings;
  std::vector<ChannelValues> base;  // per joint: channels no curve or initial pose sets
  std::vector<int> parents;         // per joint: parent joint, -1 for a root
  std::vector<int> order;           // joints in evaluation order: the joint table, then any it misses
  std::vector<bool> driven;         // per joint: a constraint, IK or an expression sets its pose
  // Per joint j, the constraints evaluated on it, in table order:
  // constraint_list[constraint_first[j] .. constraint_first[j + 1]) (indices into motion.constraints).
  std::vector<uint32_t> constraint_first;
  std::vector<uint32_t> constraint_list;
  std::vector<std::string> warnings;  // what is evaluated as forward kinematics instead, and why
  std::shared_ptr<const CompiledExpressions> expressions;  // null: none
  std::shared_ptr<const IkChains> ik;                      // null: no IK
  // per joint (empty when no IK): placed by the IK chain of a joint evaluated before it
  // (joint flag 0x20, "calculated"), so not composed from its own channels
  std::vector<bool> calculated;
  size_t joint_count() const { return base.size(); }
};
// What evaluating poses met that planning could not see (an expression's non-finite
// result: the channel kept its value), one line per expression; safe to call while
// poses are being evaluated.
std::vector<std::string> RuntimeWarnings(const EvaluationPlan& plan);

// base and parents have one entry per joint (total_bone_count); missing entries are
// identity channels and roots.
EvaluationPlan PlanEvaluation(const InterpolatedMotion& motion, std::vector<ChannelValues> base,
                              std::vector<int> parents, const EvaluationSettings& settings = {});

// One pose at a key time: every joint's channels (after expressions) and its model-space
// transform as the game holds it (scale along the joint's own axes, no shear). Run
// allocates nothing: the outputs are the caller's.
struct PoseJob {
  const InterpolatedMotion* motion = nullptr;
  const EvaluationPlan* plan = nullptr;
  float key_time = 0;                 // key-time units (1/60 s)
  std::span<ChannelValues> channels;  // output, plan->joint_count() entries
  std::span<TransformTRS> model;      // output, plan->joint_count() entries
  // Optional: a line for each joint kept as forward kinematics because a constraint's
  // result was not finite (the only thing Run allocates for).
  std::vector<std::string>* warnings = nullptr;
  bool Validate() const;
  bool Run() const;

 private:
  void ApplyConstraints(int joint) const;
};

enum class RawSpace { Auto, Model, Local };
enum class TriggerRate { Motion, Engine };

struct DecodeSettings {
  RawSpace raw_space = RawSpace::Auto;
  TriggerRate trigger_rate = TriggerRate::Motion;
  EvaluationSettings evaluation;  // interpolated motions: the game's pose, or the curves alone
  // Interpolated motions: each joint's curves as its keys wherever they give the pose the
  // game evaluates at every played frame (translation and scale Hermite keys as stored,
  // rotation a quaternion spline within rotation_tolerance radians of the Euler curves);
  // false (the default: the game's pose exactly at every frame): one key per played frame for
  // every joint. The front ends ask for stored keys for glTF alone (KeyUse::Interchange).
  bool stored_keys = false;
  double rotation_tolerance = 2e-5;
  Limits limits;  // samples per motion and in all (max-values)
};

// Skeleton of a model (joints "#N", rest from the bone table).
Skeleton SkeletonFromModel(const Model& model);
// Per-bone rest channels for a skeleton (exact when it came from a KH2 model).
std::vector<ChannelValues> RestChannels(const Skeleton& skeleton, const Value& metadata);

// One clip from a motion. skeleton (may be empty) names the bones and gives rest values
// (and the bones' parents when it covers them). Interpolated: the frames the game plays
// (frame start, header 0x80 kept as "frame_loop", to frame end, both included), each
// joint's local transform relative to its parent under the game's per-axis rule
// (RelativePerAxis of the evaluated model pose; the curves alone with
// settings.evaluation.constraints off). Raw: the model matrices, or with a skeleton each
// bone relative to its parent per axis. Either way clip.scale_inheritance is PerAxis.
Clip DecodeMotion(const Motion& motion, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                  const DecodeSettings& settings);
// Events from triggers for a clip at frame_rate frames per second.
// Each trigger is an event named with the table's word (TriggerEventName) whose params
// are the trigger id, then for a range trigger its stored end frame (-1: to the end),
// then the trigger's own parameters.
std::vector<Event> DecodeTriggers(const Triggers& triggers, double frame_rate, Seconds duration);
// The table's word for a trigger id, or "Trigger N" when the table lacks it.
std::string TriggerEventName(bool range, int id);
// The whole archive: a clip per motion (MSET slots named "NNN_NAME"), the model's skeleton.
Scene DecodeBar(const Bar& bar, const Scene* reference, const DecodeSettings& settings);

// ---------------------------------------------------------------------------
// Encoding
struct EncodeSettings {
  bool raw = false;                  // write raw matrices instead of curves
  float tolerance = 1e-4f;           // rotation channels: largest error at any frame, radians
  float relative_tolerance = 1e-4f;  // translation/scale: relative to the channel's magnitude (at least 1)
};
struct EncodeReport {
  size_t bones = 0, curves = 0, keys = 0, initial_pose = 0, skipped_tracks = 0;
  size_t fitted_keys = 0;    // keys of the curves fitted from the clip (the rest came from a template)
  float tolerance_used = 0;  // raised above the setting where a curve needed more than 255 keys
  bool unchanged = false;    // the template's motion was kept: no pose moved beyond the tolerance
  // The tolerance every channel was fitted with because the asked one needed more keys,
  // values, tangents or key times than a motion's tables index (0: not raised).
  float table_tolerance = 0;
  // Joints a template's constraint, IK or expression drives whose pose in the clip differs
  // from the template's evaluated pose: their curves were kept, so the edit is not carried.
  std::vector<std::string> warnings;
};
// The rotation angle between two unit quaternions, in double and exact for tiny angles
// (the encoder's tolerance checks).
double RotationDifference(QuatXYZW a, QuatXYZW b);
// The clip's joints map to bones by "#N" or by skeleton order. Each animated channel
// becomes hermite keys fitted within the tolerance, a constant one an initial pose value.
// With a template (an interpolated motion), bone count, IK helpers (joints #bone_count..),
// constraints, limiters, expressions, joint table and header come from it; bones the clip
// does not animate or moves within the tolerance keep the template's curves; when no bone
// moved and the length is the template's, the template itself is returned (report.unchanged).
// template_as_input: the template's clip as the clip's own format gives it back
// (EncodeContext::template_as_input); a bone whose pose equals its pose there is unedited.
// Without it, a bone is compared with the template's evaluated pose.
Motion EncodeMotion(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings,
                    EncodeReport* report = nullptr, const Motion* templ = nullptr,
                    const Clip* template_as_input = nullptr);
// Events as DecodeTriggers makes them (name matching the id in params[0]); others are
// skipped and counted in *skipped.
Triggers EncodeTriggers(const std::vector<Event>& events, double frame_rate, size_t* skipped = nullptr);
// An ANB: a BAR of one motion and one triggers entry.
Bar EncodeAnb(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings,
              EncodeReport* report = nullptr);
// An ANB from a template ANB: its motion re-encoded against the template's, its triggers
// kept unless the clip's trigger events differ from them. *unchanged: both were kept (the
// template's bytes are then the answer).
Bar EncodeAnbFromTemplate(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, const Bar& templ,
                          EncodeReport* report, bool* unchanged, const Clip* template_as_input = nullptr);
// The archive's bytes with entry index's data replaced by payload; every later entry moves
// by a multiple of 16, entries sharing the slot's data (links) follow it; all other bytes
// stay as they were.
Bytes ReplaceEntry(ByteView archive, const Bar& bar, size_t index, const Bytes& payload);
// The "NNN_NAME" name of an MSET slot's clip.
std::string SlotName(size_t index, const BarEntry& entry);

// The metadata keys a decoded archive or motion holds (glTF extras keep them). Clip keys
// after kMotionFlag are motion header fields, under the common model's names.
namespace metadata_keys {
inline constexpr char kFormat[] = "format";                     // clip: "kh2"
inline constexpr char kMotionType[] = "motion_type";            // clip: "raw" or "interpolated"; the encoder keeps it
inline constexpr char kMotionFlag[] = "motion_flag";            // clip: the motion header's flag; a raw encode keeps it
inline constexpr char kBoneCount[] = "bone_count";              // clip: the model's bones the motion animates
inline constexpr char kTotalBoneCount[] = "total_bone_count";   // clip (interpolated): bones and IK helpers
inline constexpr char kTotalFrames[] = "total_frames";          // clip: the total frame count (engine frames)
inline constexpr char kFramesPerLoop[] = "frames_per_loop";     // clip (raw): a raw encode keeps it at the same length
inline constexpr char kFps[] = "fps";                           // clip: frames per second
inline constexpr char kFrameLoop[] = "frame_loop";              // clip: the loop frame; the encoder keeps it
inline constexpr char kFrameEnd[] = "frame_end";                // clip: the last frame
inline constexpr char kFrameReturn[] = "frame_return";          // clip (raw): the return frame; a raw encode keeps it
inline constexpr char kFrameCount[] = "frame_count";            // clip (interpolated): the header's frame count
inline constexpr char kBboxMin[] = "bbox_min";                  // clip: the bounding box's low corner; the encoder keeps it
inline constexpr char kBboxMax[] = "bbox_max";                  // clip: its high corner
inline constexpr char kConstraintCount[] = "constraint_count";  // clip (interpolated): constraints glTF cannot carry
inline constexpr char kExpressionCount[] = "expression_count";  // clip (interpolated): expressions glTF cannot carry
inline constexpr char kLimiterCount[] = "limiter_count";        // clip (interpolated): limits glTF cannot carry
inline constexpr char kIkHelpers[] = "ik_helpers";              // clip: the IK helper joints' names, when it has any
inline constexpr char kEntry[] = "entry";                       // clip in an archive: its entry name; an ANB keeps it
inline constexpr char kSource[] = "kh2_source";                 // scene and clip: the file name read, the template to give
inline constexpr char kRest[] = "kh2_rest";                     // scene: per joint 9 rest channels (RestChannels reads them)
inline constexpr const char* kSharesDataWith = kSharesDataWithKey;  // clip of a link entry: the clip whose motion it uses
inline constexpr std::array kScene{kRest, kSource};
inline constexpr std::array kClip{kFormat,        kMotionType,      kMotionFlag,       kBoneCount,    kTotalBoneCount,
                                  kTotalFrames,   kFramesPerLoop,   kFps,              kFrameLoop,    kFrameEnd,
                                  kFrameReturn,   kFrameCount,      kBboxMin,          kBboxMax,      kConstraintCount,
                                  kExpressionCount, kLimiterCount,  kIkHelpers,        kEntry,        kSource,
                                  kSharesDataWith};
}  // namespace metadata_keys

}  // namespace animkit::kh2
