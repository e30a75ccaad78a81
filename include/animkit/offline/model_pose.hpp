// A clip's model-space pose under its scale inheritance rule (docs/conventions.md), and
// the conversion of a clip's local tracks from one rule to the other.
#pragma once

#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>

#include <span>
#include <vector>

namespace animkit {

// Model-space transforms from local ones (one per joint) over a skeleton under a rule:
// Matrix multiplies matrices (model may shear; model_trs is the rotation and axis scales
// nearest it, shear dropped: DecomposeTRS where there is no shear), PerAxis composes with ComposePerAxis (model is MatrixFromTRS of model_trs).
// Either output span may be empty. False, outputs untouched, when a span is shorter
// than the skeleton or a joint comes before its parent.
bool LocalToModel(const Skeleton& skeleton, std::span<const TransformTRS> local, ScaleInheritance rule,
                  std::span<Mat4> model, std::span<TransformTRS> model_trs);

// The skeleton's rest pose in model space under a rule (LocalToModel of the rest locals); empty
// when a joint comes before its parent.
std::vector<TransformTRS> RestModelPose(const Skeleton& skeleton, ScaleInheritance rule);

// The model-space pose of one clip over a skeleton, frame after frame: the one rule every
// front end composes with (`sample --space model`, Python's world(), the glTF export).
// Joints the clip does not key hold the skeleton's rest pose; a Space::Model clip's keyed
// joints are model-space already (only the others compose); a track whose joint the
// skeleton lacks is a root. An additive clip (Clip::additive) composes its deltas over a
// base as the games do (docs/conventions.md, "Additive clips"): per keyed joint, rotation =
// base * slerp(identity, delta, weight), translation = base + weight * delta (the base's
// alone when rotation_only, as Metroid overwrites the offsets with the rest), scale the base's.
class ClipModelPose {
 public:
  // Error when the skeleton lists a joint before its parent.
  ClipModelPose(const Clip& clip, const Skeleton& skeleton);
  // pose: one transform per clip track (SampleClipJob's output).
  void Compose(std::span<const TransformTRS> pose);
  // The base an additive clip composes over: local transforms, one per skeleton joint
  // (another clip's locals() at the same time); empty: the skeleton's rest pose. Ignored
  // for a clip that is not additive. Error when it is neither empty nor one per joint.
  void SetBase(std::span<const TransformTRS> base);
  // An additive clip's weight, clamped to [0, 1] as the games clamp it; 1 unless set.
  void SetWeight(float weight);
  // One per skeleton joint, after Compose.
  std::span<const Mat4> matrices() const { return matrices_; }
  std::span<const TransformTRS> transforms() const { return transforms_; }
  // The local transforms composed: the pose's, else the rest pose.
  std::span<const TransformTRS> locals() const { return local_; }
  // Track i's joint in model space (TRS; under the Matrix rule shear is dropped).
  const TransformTRS& OfTrack(size_t track) const;

 private:
  const Clip& clip_;
  const Skeleton& skeleton_;
  std::vector<int> joint_of_;  // per track: its skeleton joint, -1 when none
  std::vector<TransformTRS> local_, transforms_, pose_, base_;
  std::vector<Mat4> matrices_;
  float weight_ = 1;
  std::vector<bool> keyed_;
};

// Rewrites a clip's local tracks so that under rule `to` they give the model-space pose
// they gave under the clip's own rule, at the clip's frames (SampleFrameCount), then sets
// clip.scale_inheritance = to. PerAxis -> Matrix writes the closest matrix-rule locals:
// local = the TRS nearest inverse(parent's converted model) * model, shear dropped, each
// joint relative to its parent's converted model so errors do not accumulate; Matrix ->
// PerAxis decomposes each model matrix and takes RelativePerAxis the same way. Only
// properties that change are rewritten, as one linear key per frame (joints the clip
// does not key get a track when they move); a clip whose joints with children never
// scale non-uniformly is left as it is (the two rules agree), as is a Space::Model clip.
// Error when the skeleton lists a joint before its parent.
void ConvertScaleInheritance(const Skeleton& skeleton, Clip& clip, ScaleInheritance to, const Limits& limits = {});
// True when no joint with children ever scales non-uniformly in clip: then every model scale
// a child inherits is uniform, which commutes with rotation, and the two rules agree.
bool ScaleRulesAgree(const Skeleton& skeleton, const Clip& clip);
// Every clip of the scene, over its own skeleton.
void ConvertScaleInheritance(Scene& scene, ScaleInheritance to, const Limits& limits = {});

// The largest model-space distance between a clip's pose under its rule and the pose of
// `converted` under its rule, over the skeleton's joints at a's frames (a joint hidden
// in a frame is skipped there): what a conversion costs (docs/fidelity.md).
struct ModelPoseDifference {
  double rotation = 0;     // radians
  double translation = 0;  // model units
  double scale = 0;        // largest difference of a scale component
  double linear = 0;       // largest difference of an element of the 3x3 matrices (shear included)
};
ModelPoseDifference CompareModelPoses(const Skeleton& skeleton, const Clip& a, const Clip& converted,
                                      const Limits& limits = {});

}  // namespace animkit
