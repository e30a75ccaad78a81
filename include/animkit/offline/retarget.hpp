// Retargeting (docs/retarget.md): a clip made for one skeleton played on another, joint by
// joint through a bone map, in model space with both models' up and forward axes aligned.
#pragma once

#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>
#include <animkit/offline/bone_map.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// Which way a model stands and faces: unit axes of its model space (a format's
// FormatDescriptor::up_axis and forward_axis).
struct AxisFrame {
  Vec3 up{0, 1, 0};
  Vec3 forward{0, 0, 1};
};
// "+X", "-Y", "+Z", ...: nullopt for anything else.
std::optional<Vec3> ParseAxis(std::string_view axis);
// "UP,FORWARD" ("+Z,+Y"): Error naming `what` when either is not an axis or they are parallel.
AxisFrame ParseAxisFrame(std::string_view text, std::string_view what);
// The rotation taking a model standing in `from` to one standing in `to` (up onto up, forward
// onto forward).
QuatXYZW AxisAlignment(const AxisFrame& from, const AxisFrame& to);

struct RetargetSettings {
  AxisFrame source_axes, target_axes;
  // The root's travel is multiplied by this; unset: the ratio of the target's root height
  // above the ground to the source's (RootHeightRatio).
  std::optional<float> translation_scale;
};

// The target's root height above its ground over the source's, each along its own up axis: of
// the first mapped target joint in skeleton order (parents first: the topmost of the map) whose
// rest position and that of its source joint both stand above the ground (the lowest joint of
// the skeleton at rest), so a root on the ground hands over to the hips. 1 when there is none.
float RootHeightRatio(const Skeleton& source, const Skeleton& target, const BoneMap& map, const RetargetSettings& settings);

// The clips of `clips` replayed on the target skeleton (docs/retarget.md, "The rule"). For a
// target joint k mapped to source joint j, with A the axis alignment and rotations in model
// space: R_t(k, f) = A R_s(j, f) R_s_rest(j)^-1 A^-1 R_t_rest(k). A root of the map takes
// position rest_t(k) + s A (P_s(j, f) - P_s_rest(j)), s the translation scale; every other
// mapped joint keeps the target's rest offset from its parent, plus the source's change from
// its own rest offset (zero where the source keeps its offsets) carried through model space,
// times s; scale is the target's rest times the source's change. Unmapped joints keep their
// rest local transform (no track). One linear key per source frame. Events, timing, loop and
// metadata are the source clip's (but kClipJointCountKey, which named the source's skeleton);
// an additive clip is composed over the source's rest and written as deltas over the target's;
// a root-motion joint becomes the target joint mapped from it, up the target's. A target that
// is the source's own skeleton (same joints and rests) under the identity map with equal axes
// gives the clips as they are.
struct RetargetJob {
  std::span<const Clip> clips;
  const Skeleton* source = nullptr;
  const Skeleton* target = nullptr;
  const BoneMap* map = nullptr;  // one entry per target joint, indices into source
  RetargetSettings settings;
  Limits limits;
  std::vector<Clip>* output = nullptr;  // replaced: one clip per input clip
  bool Validate() const;  // skeletons parents-first, a map of the target's size with valid indices, an output
  bool Run() const;       // false, output untouched, when Validate fails; Error for a clip over the limits
};

// What a retarget keeps of the source's motion, for docs/retarget.md's tables.
struct RetargetFidelity {
  // The largest angle between a mapped joint's model-space rotation from rest in the source
  // (aligned: A R_s R_s_rest^-1 A^-1) and in the target (R_t R_t_rest^-1), over every frame.
  double rotation_from_rest = 0;  // radians
  std::string worst_joint;        // the target joint where it is largest
  // The feet: the mapped target joints whose source joints are the two lowest that end a chain
  // of the map (no mapped joint below them) below the hips (the first mapped joint above the ground) in the lowest quarter of
  // the source's height at rest (none: no feet). On a
  // frame where a source foot is planted (it moves less than 0.5% of the source's height since
  // the frame before), how far the target foot moves on the ground plane (target model units).
  std::vector<std::string> feet;
  uint64_t planted_frames = 0;
  double foot_slide_max = 0;   // in target model units
  double foot_slide_mean = 0;
  // The source foot's own slide on the same frames (in source model units), times the
  // translation scale: what the target's would be if it slid exactly as much.
  double source_slide_max = 0, source_slide_mean = 0;
};
RetargetFidelity MeasureRetarget(const Clip& source_clip, const Skeleton& source, const Clip& target_clip,
                                 const Skeleton& target, const BoneMap& map, const RetargetSettings& settings,
                                 const Limits& limits = {});

}  // namespace animkit
