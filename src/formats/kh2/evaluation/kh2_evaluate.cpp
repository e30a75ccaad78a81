// KH2 pose evaluation: the game's composition, constraints and their activations.
#include "formats/kh2/evaluation/kh2_evaluate.hpp"

#include <algorithm>
#include <string>

namespace animkit::kh2 {
namespace {

constexpr ChannelValues kIdentityChannels{1, 1, 1, 0, 0, 0, 0, 0, 0};

bool InRange(int joint, size_t joints) { return joint >= 0 && size_t(joint) < joints; }

}  // namespace

EvaluationPlan PlanEvaluation(const InterpolatedMotion& motion, std::vector<ChannelValues> base,
                              std::vector<int> parents, const EvaluationSettings& settings) {
  EvaluationPlan plan;
  plan.settings = settings;
  const size_t joints = size_t(std::max<int>(motion.total_bone_count, 0));
  base.resize(joints, kIdentityChannels);
  parents.resize(joints, -1);
  for (size_t j = 0; j < joints; ++j)
    if (!InRange(parents[j], joints) || size_t(parents[j]) == j) parents[j] = -1;
  plan.base = std::move(base);
  plan.parents = std::move(parents);
  plan.driven.assign(joints, false);
  std::vector<bool> placed(joints, false);
  for (const JointEntry& e : motion.joints)
    if (InRange(e.joint, joints) && !placed[size_t(e.joint)]) {
      placed[size_t(e.joint)] = true;
      plan.order.push_back(e.joint);
    }
  for (size_t j = 0; j < joints; ++j)
    if (!placed[j]) plan.order.push_back(int(j));
  plan.constraint_first.assign(joints + 1, 0);
  if (!settings.constraints) return plan;
  detail::PlanConstraints(motion, plan);
  plan.expressions = detail::CompileExpressions(motion, joints, plan.driven, plan.warnings);
  detail::PlanIk(motion, plan);
  return plan;
}

bool PoseJob::Validate() const {
  return motion && plan && channels.size() >= plan->joint_count() && model.size() >= plan->joint_count() &&
         plan->constraint_first.size() == plan->joint_count() + 1;
}

void EvaluatePose(const InterpolatedMotion& m, float t, std::span<const ChannelValues> rest,
                  std::span<ChannelValues> out) {
  const size_t total = std::min(size_t(std::max<int>(m.total_bone_count, 0)), out.size());
  for (size_t b = 0; b < total; ++b) out[b] = b < rest.size() ? rest[b] : kIdentityChannels;
  for (const InitialPose& p : m.initial_pose)
    if (InRange(p.bone, total) && p.channel >= 0 && p.channel < kChannelCount)
      out[size_t(p.bone)][size_t(p.channel)] = p.value;
  for (const Curve& c : m.forward)
    if (c.key_count > 0 && c.channel() < kChannelCount && m.AnimatesJoint(c, false) && size_t(c.joint) < total)
      out[size_t(c.joint)][size_t(c.channel())] = EvaluateCurve(m, c, t);
  for (const Curve& c : m.inverse)
    if (c.key_count > 0 && c.channel() < kChannelCount && m.AnimatesJoint(c, true) &&
        size_t(m.bone_count) + size_t(c.joint) < total)
      out[size_t(m.bone_count) + size_t(c.joint)][size_t(c.channel())] = EvaluateCurve(m, c, t);
}

// Joint j's active constraints, in table order (a later one overrides an earlier one).
void PoseJob::ApplyConstraints(int j) const {
  const std::span<const uint32_t> list(plan->constraint_list.data() + plan->constraint_first[size_t(j)],
                                       plan->constraint_list.data() + plan->constraint_first[size_t(j) + 1]);
  for (const uint32_t i : list) {
    const Constraint& c = motion->constraints[i];
    if (!detail::ConstraintActive(*motion, c, key_time)) continue;
    if (!detail::ApplyConstraint(*motion, c, model[size_t(c.source)], model[size_t(j)]) && warnings)
      warnings->push_back(detail::ConstraintName(*motion, i) + " at key time " + std::to_string(key_time) +
                          ": the result is not finite; the joint keeps its pose before it");
  }
}

bool PoseJob::Run() const {
  if (!Validate()) return false;
  EvaluatePose(*motion, key_time, plan->base, channels);
  if (plan->expressions) detail::RunExpressions(*plan, *motion, key_time, channels);
  for (size_t k = 0; k < plan->order.size(); ++k) {
    const int j = plan->order[k];
    if (!plan->calculated.empty() && plan->calculated[size_t(j)]) continue;  // its IK chain placed it
    const TransformTRS local = TransformFromChannels(channels[size_t(j)]);
    const int p = plan->parents[size_t(j)];
    model[size_t(j)] = p >= 0 ? ComposePerAxis(model[size_t(p)], local) : local;
    if (!plan->settings.constraints) continue;
    ApplyConstraints(j);
    detail::ApplyIk(*motion, *plan, k, j, key_time, channels, model);
  }
  return true;
}

}  // namespace animkit::kh2
