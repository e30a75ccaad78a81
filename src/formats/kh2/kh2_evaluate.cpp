// KH2 pose evaluation: the game's composition, constraints and their activations.
#include "kh2_evaluate.hpp"

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
  if (!settings.constraints) return plan;
  for (const Constraint& c : motion.constraints)
    if (InRange(c.joint, joints)) plan.driven[size_t(c.joint)] = true;
  plan.expressions = detail::CompileExpressions(motion, joints, plan.driven, plan.warnings);
  detail::PlanIk(motion, plan);
  return plan;
}

bool PoseJob::Validate() const {
  return motion && plan && channels.size() >= plan->joint_count() && model.size() >= plan->joint_count();
}

bool PoseJob::Run() const {
  if (!Validate()) return false;
  const size_t joints = plan->joint_count();
  std::vector<ChannelValues> pose;
  EvaluatePose(*motion, key_time, plan->base, pose);
  std::copy_n(pose.begin(), std::min(pose.size(), joints), channels.begin());
  if (plan->expressions) detail::RunExpressions(*plan, *motion, key_time, channels);
  for (size_t k = 0; k < plan->order.size(); ++k) {
    const int j = plan->order[k];
    if (!plan->calculated.empty() && plan->calculated[size_t(j)]) continue;  // its IK chain placed it
    const TransformTRS local = TransformFromChannels(channels[size_t(j)]);
    const int p = plan->parents[size_t(j)];
    model[size_t(j)] = p >= 0 ? ComposePerAxis(model[size_t(p)], local) : local;
    if (!plan->settings.constraints) continue;
    for (const Constraint& c : motion->constraints) {
      if (c.joint != j || !InRange(c.source, joints)) continue;
      const TransformTRS& source = model[size_t(c.source)];
      if (c.type == 0) model[size_t(j)].translation = source.translation;
      else if (c.type == 2) model[size_t(j)].rotation = source.rotation;
    }
    detail::ApplyIk(*motion, *plan, k, j, key_time, channels, model);
  }
  return true;
}

}  // namespace animkit::kh2
