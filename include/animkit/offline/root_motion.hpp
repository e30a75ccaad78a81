// Root motion (docs/conventions.md, "Root motion"): the per-frame deltas of a clip's
// root-motion joint (Clip::root_motion) as Metroid's engine computes them (VAdvanceView),
// and the split of that joint's ground travel and turn into a joint above it.
#pragma once

#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>

#include <span>
#include <string>
#include <vector>

namespace animkit {

// One step of the root-motion joint from time t0 to t1, with R and T its local rotation and
// translation: what the game moves the character by.
struct RootMotionDelta {
  QuatXYZW rotation;  // R(t1) * inverse(R(t0))
  Vec3 translation;   // inverse(R(t1)) applied to T(t1) - T(t0): in the new root frame
};

// The deltas of a clip's root-motion joint at frames 0..output.size()-1 (frame f at
// FrameTime(f, rate), rate 0 meaning the clip's own; size output with SampleFrameCount):
// output[f] is the step from frame f-1 to frame f, and output[0] no motion: the start, and
// where a looping clip wraps to 0 (the game's wrap moves nothing, the time left carries
// over). A property the clip does not key holds the joint's rest (rest_skeleton, else
// identity), so its delta is none: the game computes the translation only where the root
// has offsets. A clip whose joint has no track moves nothing.
struct RootMotionJob {
  const Clip* clip = nullptr;               // with root_motion set
  const Skeleton* rest_skeleton = nullptr;  // optional
  double rate = 0;
  std::span<RootMotionDelta> output;
  bool Validate() const;  // a clip with a root-motion joint, a rate that is 0 or positive, an output
  bool Run() const;       // false, output untouched, when Validate fails
};

// The joint ExtractRootMotion adds above the root-motion joint.
inline constexpr char kRootMotionJointName[] = "root_motion";

// `convert --root-motion extract`: a joint named kRootMotionJointName, at rest the identity,
// becomes the parent of the root-motion joint (a root of the skeleton; the first clip that
// names one in the skeleton decides which) and takes, in every clip moved by that joint, its
// travel on the ground plane (normal to RootMotion::up) and its turn about up since frame 0:
// at frame f, with T and R the joint's local translation and rotation, travel = the part of
// T(f) - T(0) normal to up, turn = the twist about up of R(f) * inverse(R(0)). The joint
// keeps the rest: translation inverse(turn) (T(f) - travel), rotation inverse(turn) R(f), so
// every model-space pose is unchanged. Both are written as one linear key per clip frame; the
// clip's root_motion then names the new joint. Mesh joint indices follow the insertion.
// Returns what was left as it was, and why (a clip moved by another joint, one in model
// space, a skeleton without the joint or with a joint of that name already).
std::vector<std::string> ExtractRootMotion(Scene& scene, const Limits& limits = {});

// The inverse, for a writer whose format has no such joint (every game format; pipeline Encode
// calls it for every format but glTF): a root joint
// named kRootMotionJointName with an identity rest is taken out of the skeleton, its children
// become roots, and in every clip each child's keys take its motion back (rotation R_m r,
// translation T_m + R_m t, one linear key per clip frame where either moves), so every
// model-space pose is unchanged; a clip whose root_motion named it names the child (the
// first, when there are several). Mesh joint indices follow; a vertex on the removed joint
// goes to its first child. False, the scene untouched, when there is no such joint.
bool FoldRootMotion(Scene& scene, const Limits& limits = {});

}  // namespace animkit
