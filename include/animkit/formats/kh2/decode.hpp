// Kingdom Hearts II decoding: motions, triggers and whole archives to the common model
// (clips, events, the model's skeleton). See docs/formats/kh2.md, "Decoding".
#pragma once

#include <animkit/formats/kh2/archive.hpp>
#include <animkit/formats/kh2/evaluation.hpp>

namespace animkit::kh2 {

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


// The metadata keys a decoded archive or motion holds (glTF extras keep them). Clip keys
// after kMotionFlag are motion header fields, under the common model's names.
namespace metadata_keys {
inline constexpr char kFormat[] = "format";                     // clip: "kh2"
inline constexpr char kMotionType[] = "motion_type";            // clip: "raw" or "interpolated"; the encoder keeps it
inline constexpr char kMotionFlag[] = "motion_flag";            // clip: the motion header's flag; a raw encode keeps it
inline constexpr const char* kBoneCount = kClipJointCountKey;  // clip: the model's bones the motion animates
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
