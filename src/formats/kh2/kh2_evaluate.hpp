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
// Sets every expression's target channel at key_time (channels: one per joint).
void RunExpressions(const CompiledExpressions& expressions, const InterpolatedMotion& motion, float key_time,
                    std::span<ChannelValues> channels);

// IK (kh2_ik.cpp): marks the joints IK sets in plan.driven and notes what it cannot solve.
void PlanIk(const InterpolatedMotion& motion, EvaluationPlan& plan);
// After joint `joint` (joint-table entry `entry`) is composed and constrained: the IK its
// joint-table flags ask for, on the model-space pose of every joint evaluated so far.
void ApplyIk(const InterpolatedMotion& motion, const EvaluationPlan& plan, size_t entry, int joint,
             std::span<TransformTRS> model);

// Constraints (kh2_constraints.cpp): the ones that can be evaluated, per joint in table
// order (plan.constraint_first/list), their joints marked in driven; each one skipped or
// evaluated by an unverified rule has a line in plan.warnings.
void PlanConstraints(const InterpolatedMotion& motion, EvaluationPlan& plan);
// "constraint 3 (type 5 Two Points, joint 12)", for messages.
std::string ConstraintName(const InterpolatedMotion& motion, size_t index);
// Whether the constraint is on at key_time: the state of its last activation entry at or
// before it; no entries: always on; before its first entry: off.
bool ConstraintActive(const InterpolatedMotion& motion, const Constraint& constraint, float key_time);
// Applies one planned constraint to the joint's model-space transform. A result that is not
// finite (from a finite one) is undone: false.
bool ApplyConstraint(const InterpolatedMotion& motion, const Constraint& constraint, const TransformTRS& source,
                     TransformTRS& joint);

}  // namespace animkit::kh2::detail
