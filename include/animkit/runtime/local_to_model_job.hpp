// Local (parent-relative) SoA transforms to model-space matrices over a skeleton.
#pragma once

#include <animkit/runtime/animation.hpp>

#include <span>

namespace animkit::runtime {

struct LocalToModelJob {
  const Skeleton* skeleton = nullptr;
  const Float4x4* root = nullptr;      // optional: multiplies every root joint
  std::span<const SoaTransform> input; // at least skeleton->num_soa_joints()
  std::span<Float4x4> output;          // at least skeleton->num_joints()
  // Joint range [from, to); to < 0 means all joints. Parents of joints in the range
  // that lie before `from` are read from output (computed by an earlier run).
  int from = 0;
  int to = -1;
  bool Validate() const;
  bool Run() const;
};

}  // namespace animkit::runtime
