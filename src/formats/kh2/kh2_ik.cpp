// KH2 inverse kinematics: joints the joint table flags as IK (docs/formats/kh2.md).
#include "kh2_evaluate.hpp"

namespace animkit::kh2::detail {

void PlanIk(const InterpolatedMotion&, EvaluationPlan&) {}

void ApplyIk(const InterpolatedMotion&, const EvaluationPlan&, size_t, int, std::span<TransformTRS>) {}

}  // namespace animkit::kh2::detail
