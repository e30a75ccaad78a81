// The parts of the KH2 pose evaluation that live in their own files (kh2_evaluate.cpp
// calls them): expressions and IK.
#pragma once

#include <animkit/formats/kh2.hpp>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace animkit::kh2::detail {

// Expressions (kh2_expression.cpp): compiled once; a target's channel is marked in driven,
// and what cannot be evaluated is left out with a line in warnings. Null when there are none.
std::shared_ptr<const CompiledExpressions> CompileExpressions(const InterpolatedMotion& motion, size_t joints,
                                                              std::vector<bool>& driven,
                                                              std::vector<std::string>& warnings);
// Sets every expression's target channel at key_time, in table order (channels: one per
// joint, the curves' values; plan: its base and parents, for FCURVE reads at other times
// and in model space).
void RunExpressions(const EvaluationPlan& plan, const InterpolatedMotion& motion, float key_time,
                    std::span<ChannelValues> channels);

// IK (kh2_ik.cpp): finds the chains the joint table's flags ask for, marks the joints they
// set in plan.driven (and plan.calculated), and notes what it cannot solve.
void PlanIk(const InterpolatedMotion& motion, EvaluationPlan& plan);
// After joint `joint` (evaluation step `entry`) is composed and constrained: the IK its
// joint-table flags ask for, on the model-space pose of every joint evaluated so far; a
// two-bone chain also places its middle joint (from channels), which is then not composed.
void ApplyIk(const InterpolatedMotion& motion, const EvaluationPlan& plan, size_t entry, int joint, float key_time,
             std::span<const ChannelValues> channels, std::span<TransformTRS> model);

// Constraints (kh2_constraints.cpp): the ones that can be evaluated, per joint in table
// order (plan.constraint_first/list), their joints marked in driven; each one skipped or
// evaluated by an unverified rule has a line in plan.warnings.
void PlanConstraints(const InterpolatedMotion& motion, EvaluationPlan& plan);
// "joint 12: Two Points constraint (type 5)", for messages.
std::string ConstraintName(const InterpolatedMotion& motion, size_t index);
// Whether the constraint is on at key_time: the state of its last activation entry at or
// before it; no entries: always on; before its first entry: off.
bool ConstraintActive(const InterpolatedMotion& motion, const Constraint& constraint, float key_time);
// Applies one planned constraint to the joint's model-space transform. A result that is not
// finite (from a finite one) is undone: false.
bool ApplyConstraint(const InterpolatedMotion& motion, const Constraint& constraint, const TransformTRS& source,
                     TransformTRS& joint);

}  // namespace animkit::kh2::detail
