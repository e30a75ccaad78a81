// KH2 constraints: which ones a motion's pose can evaluate (planned once), their
// activations, and the rule of each type (docs/formats/kh2.md, "Evaluation").
#include "formats/kh2/evaluation/kh2_evaluate.hpp"

#include <algorithm>
#include <animkit/core/elementary.hpp>

#include <cmath>
#include <numbers>
#include <string>

namespace animkit::kh2::detail {
namespace {

constexpr float kTiny = 1e-12f;

const char* TypeName(int type) {
  static constexpr const char* kNames[] = {"Position",       "Path",    "Orientation", "Direction",
                                           "Up Vector",      "Two Points", "Scale",    "Camera",
                                           "Camera Path",    "Int Path", "Int",        "Camera Up Vector",
                                           "Position Limit", "Rotation Limit"};
  return type >= 0 && type < 14 ? kNames[type] : "unknown";
}

bool Finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool Finite(const TransformTRS& t) {
  return Finite(t.translation) && Finite(t.scale) && std::isfinite(t.rotation.x) && std::isfinite(t.rotation.y) &&
         std::isfinite(t.rotation.z) && std::isfinite(t.rotation.w);
}
float Length(Vec3 v) { return std::sqrt(Dot(v, v)); }

// The rotation that turns unit vector a onto unit vector b by the shortest arc
// (opposite vectors: half a turn about `fallback`, a unit vector perpendicular to a).
QuatXYZW Arc(Vec3 a, Vec3 b, Vec3 fallback) {
  const Vec3 axis = Cross(a, b);
  const float s = Length(axis), c = Dot(a, b);
  if (s <= 1e-7f) return c > 0 ? QuatXYZW{} : AxisAngle(fallback, std::numbers::pi_v<float>);
  return AxisAngle(axis * (1 / s), Atan2(s, c));
}

// Direction: the joint's x axis aimed at the source, by the shortest rotation.
void Aim(TransformTRS& joint, const TransformTRS& source) {
  const Vec3 d = source.translation - joint.translation;
  const float n = Length(d);
  if (!(n > kTiny)) return;
  const Vec3 x = Rotate(joint.rotation, {1, 0, 0});
  joint.rotation = Normalize(Multiply(Arc(x, d * (1 / n), Rotate(joint.rotation, {0, 1, 0})), joint.rotation));
}

// Up Vector: a turn about the joint's own x axis that brings its y axis toward the source.
void TurnUp(TransformTRS& joint, const TransformTRS& source) {
  const Vec3 x = Rotate(joint.rotation, {1, 0, 0});
  const Vec3 d = source.translation - joint.translation;
  const Vec3 p = d - x * Dot(x, d);
  if (!(Length(p) > kTiny)) return;
  const Vec3 y = Rotate(joint.rotation, {0, 1, 0});
  const float angle = Atan2(Dot(x, Cross(y, p)), Dot(y, p));
  joint.rotation = Normalize(Multiply(AxisAngle(x, angle), joint.rotation));
}

// One bound with the limiter's damping (unverified): within width of the bound the value
// eases toward it instead of stopping; strength (0..1) blends the eased value in.
float Bound(float v, float bound, float sign, const Limiter& l) {
  const float over = (v - bound) * sign;  // > 0: past the bound
  const float w = l.damping_width, s = std::clamp(l.damping_strength, 0.0f, 1.0f);
  const float hard = over > 0 ? bound : v;
  if (!(w > 0) || !(s > 0)) return hard;
  const float into = over + w;  // how far past the start of the damping zone
  if (into <= 0) return v;
  const float soft = bound - sign * w * Exp(-into / w);
  return hard + s * (soft - hard);
}

float Clamp(float v, int axis, const Limiter& l) {
  const float lo = l.min[size_t(axis)], hi = l.max[size_t(axis)];
  if (l.Bounds(axis * 2 + 1)) v = Bound(v, hi, 1, l);
  if (l.Bounds(axis * 2)) v = Bound(v, lo, -1, l);
  return v;
}

// Position Limit: the translation relative to the source's frame (global: model space)
// kept in the limiter's box, or for a sphere limiter its distance within [min.x, max.x].
void LimitPosition(TransformTRS& joint, const TransformTRS& source, const Limiter& l) {
  TransformTRS rel = l.global() ? joint : RelativePerAxis(source, joint);
  Vec3& t = rel.translation;
  if (l.type() == 1) {
    const float n = Length(t);
    const float limited = Clamp(n, 0, l);
    if (n > kTiny && limited != n) t = t * (limited / n);
  } else {
    t = {Clamp(t.x, 0, l), Clamp(t.y, 1, l), Clamp(t.z, 2, l)};
  }
  joint.translation = l.global() ? rel.translation : ComposePerAxis(source, rel).translation;
}

// Rotation Limit: the rotation relative to the source (global: model space) as XYZ Euler
// angles, each kept within the limiter's bounds; a sphere limiter bounds the angle.
void LimitRotation(TransformTRS& joint, const TransformTRS& source, const Limiter& l) {
  const QuatXYZW rel = l.global() ? joint.rotation : Multiply(Conjugate(source.rotation), joint.rotation);
  QuatXYZW limited;
  if (l.type() == 1) {
    const QuatXYZW q = rel.w < 0 ? QuatXYZW{-rel.x, -rel.y, -rel.z, -rel.w} : rel;
    const float s = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    const float angle = 2 * Atan2(s, q.w);
    if (!(s > kTiny)) return;
    limited = AxisAngle({q.x / s, q.y / s, q.z / s}, Clamp(angle, 0, l));
  } else {
    const Vec3 e = EulerFromQuat(rel, EulerOrder::XYZ);
    limited = QuatFromEuler({Clamp(e.x, 0, l), Clamp(e.y, 1, l), Clamp(e.z, 2, l)}, EulerOrder::XYZ);
  }
  joint.rotation = Normalize(l.global() ? limited : Multiply(source.rotation, limited));
}

bool Verified(int type) { return type == int(ConstraintType::Position) || type == int(ConstraintType::Orientation); }
bool Implemented(int type) {
  return type <= int(ConstraintType::Scale) || type == int(ConstraintType::PositionLimit) ||
         type == int(ConstraintType::RotationLimit);
}

}  // namespace

std::string ConstraintName(const InterpolatedMotion& motion, size_t index) {
  const Constraint& c = motion.constraints[index];
  // The joint first and no table index (a moveset's motions number their constraints each
  // its own way): the same constraint in every clip says the same, and folds into one line.
  return "joint " + std::to_string(c.joint) + ": " + TypeName(c.type) + " constraint (type " + std::to_string(c.type) + ")";
}

void PlanConstraints(const InterpolatedMotion& motion, EvaluationPlan& plan) {
  const size_t joints = plan.joint_count();
  std::vector<size_t> rank(joints);
  for (size_t k = 0; k < plan.order.size(); ++k) rank[size_t(plan.order[k])] = k;
  std::vector<std::vector<uint32_t>> by_joint(joints);
  bool unverified[14] = {};
  for (size_t i = 0; i < motion.constraints.size(); ++i) {
    const Constraint& c = motion.constraints[i];
    const std::string name = ConstraintName(motion, i);
    auto skip = [&](const std::string& why) { plan.warnings.push_back(name + ": " + why + "; skipped"); };
    const bool limit =
        c.type == uint8_t(ConstraintType::PositionLimit) || c.type == uint8_t(ConstraintType::RotationLimit);
    if (c.joint < 0 || size_t(c.joint) >= joints) {
      skip("the joint is not one of the motion's " + std::to_string(joints));
    } else if (c.source < 0 || size_t(c.source) >= joints) {
      skip("source joint " + std::to_string(c.source) + " is not one of the motion's " + std::to_string(joints));
    } else if (rank[size_t(c.source)] >= rank[size_t(c.joint)]) {
      skip("source joint " + std::to_string(c.source) + " is not evaluated before the joint (joint-table order)");
    } else if (c.limiter >= 0 && size_t(c.limiter) >= motion.limiters.size()) {
      skip("limiter " + std::to_string(c.limiter) + " is not one of the motion's " +
           std::to_string(motion.limiters.size()));
    } else if (limit && c.limiter < 0) {
      skip("a limit without a limiter");
    } else if (!Implemented(c.type)) {
      skip("the game's rule for this type is not known; the joint keeps forward kinematics");
    } else if (!Verified(c.type) && !plan.settings.unverified_constraints) {
      skip("animkit's reading of " + std::string(TypeName(c.type)) +
           " constraints is not verified against the game: the joint keeps forward kinematics "
           "(--kh2-unverified-constraints on applies it)");
    } else {
      if (!Verified(c.type) && !unverified[c.type]) {
        unverified[c.type] = true;
        plan.warnings.push_back(name + ": the rule for " + TypeName(c.type) +
                                " constraints is not verified against the game (docs/formats/kh2.md)");
      }
      by_joint[size_t(c.joint)].push_back(uint32_t(i));
      plan.driven[size_t(c.joint)] = true;
    }
  }
  plan.constraint_first.assign(joints + 1, 0);
  plan.constraint_list.clear();
  for (size_t j = 0; j < joints; ++j) {
    plan.constraint_first[j] = uint32_t(plan.constraint_list.size());
    plan.constraint_list.insert(plan.constraint_list.end(), by_joint[j].begin(), by_joint[j].end());
  }
  plan.constraint_first[joints] = uint32_t(plan.constraint_list.size());
}

bool ConstraintActive(const InterpolatedMotion& motion, const Constraint& c, float key_time) {
  if (c.activation_count <= 0) return true;
  const size_t first = size_t(c.activation_start);
  const size_t end = std::min(first + size_t(c.activation_count), motion.activations.size());
  bool active = false;  // before the first entry: off
  // The last entry (in list order) at or before key_time; lists need not be sorted.
  for (size_t i = first; i < end; ++i)
    if (motion.activations[i].time <= key_time) active = motion.activations[i].active != 0;
  return active;
}

bool ApplyConstraint(const InterpolatedMotion& motion, const Constraint& c, const TransformTRS& source,
                     TransformTRS& joint) {
  const TransformTRS before = joint;
  switch (ConstraintType(c.type)) {
    case ConstraintType::Position:
    case ConstraintType::Path: joint.translation = source.translation; break;
    case ConstraintType::Orientation: joint.rotation = source.rotation; break;
    case ConstraintType::Direction: Aim(joint, source); break;
    case ConstraintType::UpVector: TurnUp(joint, source); break;
    case ConstraintType::TwoPoints: joint.translation = (joint.translation + source.translation) * 0.5f; break;
    case ConstraintType::Scale: joint.scale = source.scale; break;
    case ConstraintType::PositionLimit: LimitPosition(joint, source, motion.limiters[size_t(c.limiter)]); break;
    case ConstraintType::RotationLimit: LimitRotation(joint, source, motion.limiters[size_t(c.limiter)]); break;
    default: return true;
  }
  if (Finite(joint) || !Finite(before)) return true;
  joint = before;
  return false;
}

}  // namespace animkit::kh2::detail
