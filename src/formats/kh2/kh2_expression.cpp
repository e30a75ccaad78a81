// KH2 expressions: a channel set by a formula of other channels (docs/formats/kh2.md).
#include "kh2_evaluate.hpp"

namespace animkit::kh2 {

struct CompiledExpressions {};

namespace detail {

std::shared_ptr<const CompiledExpressions> CompileExpressions(const InterpolatedMotion& motion, size_t,
                                                              std::vector<bool>&, std::vector<std::string>& warnings) {
  if (!motion.expressions.empty())
    warnings.push_back(std::to_string(motion.expressions.size()) + " expressions are not evaluated yet");
  return nullptr;
}

void RunExpressions(const CompiledExpressions&, const InterpolatedMotion&, float, std::span<ChannelValues>) {}

}  // namespace detail
}  // namespace animkit::kh2
