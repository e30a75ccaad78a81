// KH2 inverse kinematics: joints the joint table flags as IK (docs/formats/kh2.md, "IK").
// Kind 1 turns a joint so its x axis points at its effector's target; kinds 2 and 3 solve
// a two-bone chain (joint, middle, effector) with the law of cosines in the plane the
// pose bends in. The target is the source of the effector's active Position constraint.
#include "formats/kh2/evaluation/kh2_evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace animkit::kh2 {

struct IkChains {
  struct Chain {
    int kind = 0;                 // 1 aim, 2 or 3 two-bone
    int middle = -1;              // two-bone: the joint between root and effector
    int effector = -1;            // the chain's last joint
    std::vector<size_t> targets;  // the Position constraints that give the target (table order)
    int external = -1;            // flag 0x80 without such a constraint: the external effector's own position
  };
  std::vector<int> chain_of_root;  // per joint: index in chains, -1 none
  std::vector<Chain> chains;
};

namespace {

constexpr int kFlagKind = 3, kFlagCalculated = 0x20, kFlagExternalEffector = 0x80;
constexpr float kTiny = 1e-6f;

float Dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
float Length(Vec3 a) { return std::sqrt(Dot3(a, a)); }

// The shortest rotation taking direction a to direction b (both non-zero).
QuatXYZW RotationBetween(Vec3 a, Vec3 b) {
  a = a * (1 / Length(a));
  b = b * (1 / Length(b));
  const float d = Dot3(a, b);
  if (d < -1 + 1e-7f) {  // opposite: half a turn about any axis across a
    Vec3 axis = Cross(a, std::fabs(a.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0});
    return AxisAngle(axis * (1 / Length(axis)), 3.14159265f);
  }
  const Vec3 c = Cross(a, b);
  return Normalize(QuatXYZW{c.x, c.y, c.z, 1 + d});
}

// Turns a model-space transform about its own position.
void Turn(TransformTRS& t, QuatXYZW q) { t.rotation = Normalize(Multiply(q, t.rotation)); }

std::string JointName(int joint, int flags) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "joint %d (flags 0x%X)", joint, unsigned(flags) & 0xFFFF);
  return buf;
}

// The first joint after step `from` of the evaluation order whose parent is `parent`.
int NextChild(const EvaluationPlan& plan, const std::vector<size_t>& step, int parent) {
  for (size_t k = step[size_t(parent)] + 1; k < plan.order.size(); ++k)
    if (plan.parents[size_t(plan.order[k])] == parent) return plan.order[k];
  return -1;
}

}  // namespace

namespace detail {

void PlanIk(const InterpolatedMotion& motion, EvaluationPlan& plan) {
  const size_t joints = plan.joint_count();
  std::vector<int> flags(joints, 0);
  std::vector<bool> seen(joints, false);
  for (const JointEntry& e : motion.joints)  // a joint's first entry is the one evaluated
    if (e.joint >= 0 && size_t(e.joint) < joints && !seen[size_t(e.joint)]) {
      seen[size_t(e.joint)] = true;
      flags[size_t(e.joint)] = e.flags;
    }
  std::vector<size_t> step(joints, 0);
  for (size_t k = 0; k < plan.order.size(); ++k) step[size_t(plan.order[k])] = k;
  auto ik = std::make_shared<IkChains>();
  ik->chain_of_root.assign(joints, -1);
  std::vector<bool> calculated(joints, false);
  int externals = 0;  // IK joints flagged 0x80 so far
  for (const int j : plan.order) {
    const int f = flags[size_t(j)];
    if ((f & kFlagKind) == 0) continue;
    IkChains::Chain chain;
    chain.kind = f & kFlagKind;
    const std::string who = JointName(j, f);
    const int slot = (f & kFlagExternalEffector) ? externals++ : -1;  // the n-th such joint takes entry n (unverified)
    if (calculated[size_t(j)]) {
      plan.warnings.push_back(who + " is the middle of an earlier chain, which places it: its own IK is not solved");
      continue;
    }
    const int first = NextChild(plan, step, j);
    chain.middle = chain.kind == 1 ? -1 : first;
    chain.effector = chain.kind == 1 ? first : first >= 0 ? NextChild(plan, step, first) : -1;
    if (chain.effector < 0) {
      plan.warnings.push_back(who + " asks for " + (chain.kind == 1 ? "aim" : "two-bone") +
                              " IK but the joint table has no " + (chain.kind == 1 ? "child" : "child and grandchild") +
                              " of it after it: left as forward kinematics");
      continue;
    }
    int steering = chain.effector;  // the joint whose Position constraint gives the target
    if (slot >= 0) {
      const size_t n = size_t(slot);
      const int e = n < motion.effectors.size() ? motion.effectors[n] : -1;
      if (e >= 0 && size_t(e) < joints)
        steering = e;
      else
        plan.warnings.push_back(who + " takes its effector from entry " + std::to_string(n) +
                                " of the external-effector table, which " +
                                (n >= motion.effectors.size() ? "has no such entry"
                                                              : "names joint " + std::to_string(e) + ", out of range") +
                                ": its chain's own effector is used");
    }
    for (size_t c = 0; c < motion.constraints.size(); ++c) {
      const Constraint& con = motion.constraints[c];
      if (con.joint != steering || con.type != uint8_t(ConstraintType::Position)) continue;
      if (con.source < 0 || size_t(con.source) >= joints || step[size_t(con.source)] >= step[size_t(j)]) {
        plan.warnings.push_back(who + ": the target of its effector's Position constraint " + std::to_string(c) +
                                " is not evaluated before it: that constraint does not steer the IK");
        continue;
      }
      chain.targets.push_back(c);
    }
    if (chain.targets.empty() && steering != chain.effector && step[size_t(steering)] < step[size_t(j)])
      chain.external = steering;
    if (chain.targets.empty() && chain.external < 0) {
      plan.warnings.push_back(who + ": its effector, joint " + std::to_string(steering) +
                              ", has no Position constraint to give a target: left as forward kinematics");
      continue;
    }
    plan.driven[size_t(j)] = true;
    if (chain.middle >= 0) plan.driven[size_t(chain.middle)] = calculated[size_t(chain.middle)] = true;
    ik->chain_of_root[size_t(j)] = int(ik->chains.size());
    ik->chains.push_back(std::move(chain));
  }
  for (size_t j = 0; j < joints; ++j)
    if ((flags[j] & kFlagCalculated) && !calculated[j])
      plan.warnings.push_back(JointName(int(j), flags[j]) +
                              " is marked calculated but no IK chain places it: composed from its channels");
  if (ik->chains.empty()) return;
  plan.ik = std::move(ik);
  plan.calculated = std::move(calculated);
}

void ApplyIk(const InterpolatedMotion& motion, const EvaluationPlan& plan, size_t, int joint, float key_time,
             std::span<const ChannelValues> channels, std::span<TransformTRS> model) {
  if (!plan.ik || plan.ik->chain_of_root[size_t(joint)] < 0) return;
  const IkChains::Chain& chain = plan.ik->chains[size_t(plan.ik->chain_of_root[size_t(joint)])];
  int source = chain.external;  // a later active constraint overrides an earlier one
  for (size_t c : chain.targets)
    if (ConstraintActive(motion, motion.constraints[c], key_time)) source = motion.constraints[c].source;
  TransformTRS& root = model[size_t(joint)];
  if (chain.kind == 1) {
    if (source < 0) return;
    const Vec3 aim = model[size_t(source)].translation - root.translation;
    if (Length(aim) > kTiny) Turn(root, RotationBetween(Rotate(root.rotation, {1, 0, 0}), aim));
    return;
  }
  // Two-bone: the middle's pose as the channels give it, then turned toward the target.
  TransformTRS& middle = model[size_t(chain.middle)];
  middle = ComposePerAxis(root, TransformFromChannels(channels[size_t(chain.middle)]));
  if (source < 0) return;
  const TransformTRS end = ComposePerAxis(middle, TransformFromChannels(channels[size_t(chain.effector)]));
  const Vec3 target = model[size_t(source)].translation;
  const Vec3 upper = middle.translation - root.translation, lower = end.translation - middle.translation;
  const float l1 = Length(upper), l2 = Length(lower);
  const Vec3 to_target = target - root.translation;
  const float distance = Length(to_target);
  if (l1 < kTiny || l2 < kTiny || distance < kTiny) return;  // nothing to bend or no direction: keep the pose
  const Vec3 dir = to_target * (1 / distance);
  // The bend plane: the one the pose bends in, else the root's z axis (a straight pose).
  Vec3 normal = Cross(upper, lower);
  if (Length(normal) < kTiny * l1 * l2) normal = Rotate(root.rotation, {0, 0, 1});
  Vec3 side = Cross(dir, normal);  // in the plane, across dir, toward the bend
  if (Length(side) < kTiny) side = Cross(dir, Rotate(root.rotation, {0, 1, 0}));
  if (Length(side) < kTiny) return;
  side = side * (1 / Length(side));
  // Law of cosines, the reach clamped to what the bones span (unreachable: straight toward it).
  const float reach = std::clamp(distance, std::fabs(l1 - l2), l1 + l2);
  const float cos_root = std::clamp((l1 * l1 + reach * reach - l2 * l2) / (2 * l1 * reach), -1.0f, 1.0f);
  const float sin_root = std::sqrt(std::max(0.0f, 1 - cos_root * cos_root));
  const Vec3 new_upper = (dir * cos_root + side * sin_root) * l1;
  Turn(root, RotationBetween(upper, new_upper));
  const TransformTRS placed = ComposePerAxis(root, TransformFromChannels(channels[size_t(chain.middle)]));
  middle = placed;
  const Vec3 goal = root.translation + dir * reach;
  const TransformTRS end_now = ComposePerAxis(middle, TransformFromChannels(channels[size_t(chain.effector)]));
  const Vec3 lower_now = end_now.translation - middle.translation, lower_goal = goal - middle.translation;
  if (Length(lower_now) > kTiny && Length(lower_goal) > kTiny) Turn(middle, RotationBetween(lower_now, lower_goal));
}

}  // namespace detail
}  // namespace animkit::kh2
