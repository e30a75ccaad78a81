#include <animkit/core/error.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/skinning.hpp>

#include <cmath>

namespace animkit {
namespace {

Vec3 TransformVector(const Mat4& m, Vec3 v) {
  return {m.m[0][0] * v.x + m.m[1][0] * v.y + m.m[2][0] * v.z, m.m[0][1] * v.x + m.m[1][1] * v.y + m.m[2][1] * v.z,
          m.m[0][2] * v.x + m.m[1][2] * v.y + m.m[2][2] * v.z};
}

Vec3 Unit(Vec3 v) {
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  return length > 0 ? v * (1.0f / length) : v;
}

}  // namespace

std::vector<Mat4> BindMatrices(const Skeleton& skeleton, ScaleInheritance rule) {
  std::vector<TransformTRS> rest;
  rest.reserve(skeleton.joints.size());
  for (const Joint& joint : skeleton.joints) rest.push_back(joint.rest);
  std::vector<Mat4> model(skeleton.joints.size());
  if (!LocalToModel(skeleton, rest, rule, model, {}))
    throw Error::General("the skeleton lists a joint before its parent; no bind pose");
  return model;
}

bool SkinMatrices(std::span<const Mat4> bind, std::span<const Mat4> posed, std::span<Mat4> skin) {
  if (bind.size() != posed.size() || skin.size() != posed.size()) return false;
  for (size_t j = 0; j < bind.size(); ++j) skin[j] = Multiply(posed[j], InverseAffine(bind[j]));
  return true;
}

bool SkinJob::Validate() const {
  if (!mesh) return false;
  const size_t count = mesh->positions.size();
  if (positions.size() < count) return false;
  if (!normals.empty() && !mesh->normals.empty() && normals.size() < count) return false;
  if (mesh->Skinned()) {
    if (mesh->weights.size() != count || mesh->joints.size() != count) return false;
    for (const auto& joints : mesh->joints)
      for (uint16_t j : joints)
        if (j >= skin.size()) return false;
  } else if (mesh->joint >= 0 && static_cast<size_t>(mesh->joint) >= posed.size()) {
    return false;
  }
  return true;
}

bool SkinJob::Run() const {
  if (!Validate()) return false;
  const Mesh& m = *mesh;
  const bool with_normals = !normals.empty() && m.normals.size() == m.positions.size();
  for (size_t v = 0; v < m.positions.size(); ++v) {
    Mat4 blend;
    if (m.Skinned()) {
      for (auto& column : blend.m) column.fill(0);
      for (int k = 0; k < 4; ++k) {
        const float w = m.weights[v][k];
        if (w == 0) continue;
        const Mat4& s = skin[m.joints[v][k]];
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) blend.m[c][r] += w * s.m[c][r];
      }
    } else if (m.joint >= 0) {
      blend = posed[static_cast<size_t>(m.joint)];
    }
    positions[v] = TransformPoint(blend, m.positions[v]);
    // The blend's linear part, renormalised: exact for rotations and uniform scale.
    if (with_normals) normals[v] = Unit(TransformVector(blend, m.normals[v]));
  }
  return true;
}

ClipMeshPose::ClipMeshPose(const Clip& clip, const Skeleton& skeleton, std::span<const Mesh> meshes)
    : meshes_(meshes), model_(clip, skeleton), bind_(BindMatrices(skeleton, clip.scale_inheritance)),
      skin_(bind_.size()), positions_(meshes.size()) {
  const std::vector<Mat4> identity(bind_.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    positions_[m].resize(meshes[m].positions.size());
    if (!SkinJob{&meshes[m], identity, identity, positions_[m], {}}.Validate())
      throw Error::General("mesh '" + meshes[m].name + "' names a joint the skeleton (" +
                           std::to_string(skeleton.joints.size()) + " joints) lacks, or its joints or weights " +
                           "are not one per vertex");
  }
}

void ClipMeshPose::Compose(std::span<const TransformTRS> pose) {
  model_.Compose(pose);
  SkinMatrices(bind_, model_.matrices(), skin_);
  for (size_t m = 0; m < meshes_.size(); ++m) SkinJob{&meshes_[m], skin_, model_.matrices(), positions_[m], {}}.Run();
}

}  // namespace animkit
