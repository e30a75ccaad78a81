#include <animkit/core/error.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/skinning.hpp>

#include <algorithm>
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

void AddWeighted(Mat4& blend, const Mat4& s, float w) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) blend.m[c][r] += w * s.m[c][r];
}

}  // namespace

std::vector<VertexInfluences> MoreInfluences(const Mesh& mesh) {
  std::vector<VertexInfluences> out;
  const auto list = mesh.metadata.find(kMeshInfluencesKey);
  if (list == mesh.metadata.end() || !list->is_array() || !mesh.Skinned()) return out;
  const size_t n = std::min(mesh.positions.size(), std::min(mesh.joints.size(), mesh.weights.size()));
  for (const Value& e : *list) {
    if (!e.is_object() || !e.contains("vertex") || !e.contains("joints") || !e.contains("weights")) continue;
    const Value &vertex = e["vertex"], &joints = e["joints"], &weights = e["weights"];
    if (!vertex.is_number_integer() || vertex.get<int64_t>() < 0 || uint64_t(vertex.get<int64_t>()) >= n ||
        !joints.is_array() || !weights.is_array() || joints.size() != weights.size())
      continue;
    VertexInfluences v{size_t(vertex.get<int64_t>()), {}, {}};
    bool whole = true;
    for (size_t k = 0; k < joints.size() && whole; ++k) {
      const bool joint = joints[k].is_number_integer() && joints[k].get<int64_t>() >= 0 && joints[k].get<int64_t>() <= 0xFFFF;
      whole = joint && weights[k].is_number();
      if (!whole) break;
      const double w = weights[k].get<double>();
      if (!(w > 0) || !std::isfinite(w)) continue;
      v.joints.push_back(uint16_t(joints[k].get<int64_t>()));
      v.weights.push_back(float(w));
    }
    if (!whole || v.joints.empty()) continue;
    bool holds_four = true;  // the mesh's own joints are among them: they were not edited after
    for (size_t k = 0; k < 4; ++k)
      if (mesh.weights[v.vertex][k] > 0)
        holds_four = holds_four && std::find(v.joints.begin(), v.joints.end(), mesh.joints[v.vertex][k]) != v.joints.end();
    if (holds_four) out.push_back(std::move(v));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.vertex < b.vertex; });
  // One entry per vertex: the first.
  out.erase(std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.vertex == b.vertex; }), out.end());
  return out;
}

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
  for (size_t k = 0; k < more.size(); ++k) {
    if (more[k].vertex >= count || more[k].joints.size() != more[k].weights.size() || !mesh->Skinned()) return false;
    if (k > 0 && more[k].vertex <= more[k - 1].vertex) return false;
    for (uint16_t j : more[k].joints)
      if (j >= skin.size()) return false;
  }
  return true;
}

bool SkinJob::Run() const {
  if (!Validate()) return false;
  const Mesh& m = *mesh;
  const bool with_normals = !normals.empty() && m.normals.size() == m.positions.size();
  size_t next = 0;  // into more
  for (size_t v = 0; v < m.positions.size(); ++v) {
    Mat4 blend;
    if (m.Skinned()) {
      for (auto& column : blend.m) column.fill(0);
      if (next < more.size() && more[next].vertex == v) {
        const VertexInfluences& all = more[next++];
        for (size_t k = 0; k < all.joints.size(); ++k) AddWeighted(blend, skin[all.joints[k]], all.weights[k]);
      } else {
        for (int k = 0; k < 4; ++k)
          if (m.weights[v][k] != 0) AddWeighted(blend, skin[m.joints[v][k]], m.weights[v][k]);
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
      skin_(bind_.size()), more_(meshes.size()), positions_(meshes.size()) {
  const std::vector<Mat4> identity(bind_.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    positions_[m].resize(meshes[m].positions.size());
    more_[m] = MoreInfluences(meshes[m]);
    if (!SkinJob{&meshes[m], identity, identity, positions_[m], {}, more_[m]}.Validate())
      throw Error::General("mesh '" + meshes[m].name + "' names a joint the skeleton (" +
                           std::to_string(skeleton.joints.size()) + " joints) lacks, or its joints or weights " +
                           "are not one per vertex");
  }
}

void ClipMeshPose::Compose(std::span<const TransformTRS> pose) {
  model_.Compose(pose);
  SkinMatrices(bind_, model_.matrices(), skin_);
  for (size_t m = 0; m < meshes_.size(); ++m) SkinJob{&meshes_[m], skin_, model_.matrices(), positions_[m], {}, more_[m]}.Run();
}

}  // namespace animkit
