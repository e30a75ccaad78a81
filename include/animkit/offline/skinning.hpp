// Linear blend skinning of the common model's meshes (core/model.hpp, Mesh): the one rule
// the Python module, `animkit sample --skin`, the tests of the Blender add-on and of the
// preview page check their own skinning against.
#pragma once

#include <animkit/core/model.hpp>
#include <animkit/offline/model_pose.hpp>

#include <span>
#include <vector>

namespace animkit {

// Each joint's rest (bind) pose in model space under a scale rule: the matrices a skinned
// mesh's positions are bound to (glTF's inverse bind matrices are their inverses). Error
// when a joint comes before its parent.
std::vector<Mat4> BindMatrices(const Skeleton& skeleton, ScaleInheritance rule = ScaleInheritance::Matrix);

// Every influence of a vertex of more than 4 bones (mesh metadata kMeshInfluencesKey): the
// joints (Skeleton::joints indices) and weights (summing to 1) the game blends, in the
// source's order.
struct VertexInfluences {
  size_t vertex = 0;
  std::vector<uint16_t> joints;
  std::vector<float> weights;
};

// A mesh's vertices of more than 4 bones, by vertex. An entry that is not one (no such
// vertex, joints and weights of different counts, no positive weight) or that no longer
// holds the mesh's own 4 joints (they were edited after) is left out: that vertex blends
// its 4. The one reading of kMeshInfluencesKey: skinning, glTF's JOINTS_n, the writers.
std::vector<VertexInfluences> MoreInfluences(const Mesh& mesh);

// skin[j] = posed[j] * inverse(bind[j]): what moves a bind-pose vertex bound to joint j.
// False when the spans' sizes differ.
bool SkinMatrices(std::span<const Mat4> bind, std::span<const Mat4> posed, std::span<Mat4> skin);

// Deforms one mesh: a skinned mesh's vertices by sum_k w_k * skin[j_k] * p, a rigid mesh's
// by posed[joint] (its vertices are in the joint's space), a static mesh's not at all.
// A vertex listed in `more` (MoreInfluences of the mesh) blends every one of its influences.
// Normals (when the mesh has them and `normals` is not empty) by the same matrices'
// linear parts, renormalised. Allocates nothing.
struct SkinJob {
  const Mesh* mesh = nullptr;
  std::span<const Mat4> skin;   // one per skeleton joint (SkinMatrices)
  std::span<const Mat4> posed;  // one per skeleton joint: model-space pose (rigid meshes)
  std::span<Vec3> positions;    // output, one per mesh position
  std::span<Vec3> normals;      // output, empty or one per mesh position
  std::span<const VertexInfluences> more;  // empty, or MoreInfluences(*mesh)
  // False when a span is too short, a vertex names a joint outside the spans, or `more` is
  // not sorted by vertex.
  bool Validate() const;
  bool Run() const;
};

// A clip's meshes deformed frame after frame: ClipModelPose over the skeleton, bind matrices
// under the clip's scale rule (so that the rest pose leaves every vertex where it is), then
// SkinJob per mesh. The one rule of `animkit sample --skin` and the bindings.
class ClipMeshPose {
 public:
  // Error (naming the mesh) when a mesh's joints lie outside the skeleton, or when the
  // skeleton lists a joint before its parent.
  ClipMeshPose(const Clip& clip, const Skeleton& skeleton, std::span<const Mesh> meshes);
  // pose: one transform per clip track (SampleClipJob's output).
  void Compose(std::span<const TransformTRS> pose);
  // Mesh m's deformed positions after Compose, one per mesh position.
  std::span<const Vec3> positions(size_t mesh) const { return positions_[mesh]; }
  size_t mesh_count() const { return meshes_.size(); }

 private:
  std::span<const Mesh> meshes_;
  ClipModelPose model_;
  std::vector<Mat4> bind_, skin_;
  std::vector<std::vector<VertexInfluences>> more_;
  std::vector<std::vector<Vec3>> positions_;
};

}  // namespace animkit
