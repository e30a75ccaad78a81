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

}  // namespace animkit::kh2::detail
