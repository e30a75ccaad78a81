// Kingdom Hearts II evaluation: an interpolated motion's pose as the game computes it.
// See docs/formats/kh2.md, "Evaluation".
#pragma once

#include <animkit/formats/kh2/motion.hpp>

#include <memory>

namespace animkit::kh2 {

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


// Per-bone rest channels for a skeleton (exact when it came from a KH2 model).
std::vector<ChannelValues> RestChannels(const Skeleton& skeleton, const Value& metadata);

}  // namespace animkit::kh2
