#include <animkit/offline/model_pose.hpp>

#include <animkit/core/error.hpp>
#include <animkit/core/math.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace animkit {

namespace {

using Mat3d = std::array<std::array<double, 3>, 3>;  // [column][row]

Mat3d InverseTranspose(const Mat3d& x) {
  const double det = x[0][0] * (x[1][1] * x[2][2] - x[2][1] * x[1][2]) - x[1][0] * (x[0][1] * x[2][2] - x[2][1] * x[0][2]) +
                     x[2][0] * (x[0][1] * x[1][2] - x[1][1] * x[0][2]);
  Mat3d out{};  // the cofactors over det: inverse transposed
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) {
      const int c1 = (c + 1) % 3, c2 = (c + 2) % 3, r1 = (r + 1) % 3, r2 = (r + 2) % 3;
      out[c][r] = (x[c1][r1] * x[c2][r2] - x[c1][r2] * x[c2][r1]) / det;
    }
  return out;
}

double Dot3(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// The rotation R and axis scales S whose product R S is nearest (least squares) a matrix's
// 3x3 part, with its translation: what a TRS can hold of a sheared matrix. Without shear
// (or mirrored, or singular) it is DecomposeTRS. Alternates R = polar(A S) (Newton's
// iteration) and s_i = r_i . a_i, each step the best for the other fixed.
TransformTRS ClosestTRS(const Mat4& m) {
  const TransformTRS plain = DecomposeTRS(m);
  Mat3d a{};
  std::array<double, 3> scale{};
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) a[c][r] = m.m[c][r];
    scale[c] = std::sqrt(Dot3(a[c], a[c]));
    if (!(scale[c] > 0) || !std::isfinite(scale[c])) return plain;
  }
  double shear = 0;
  for (int c = 0; c < 3; ++c) shear = std::max(shear, std::abs(Dot3(a[c], a[(c + 1) % 3])) / (scale[c] * scale[(c + 1) % 3]));
  if (shear < 1e-6 || plain.scale.x < 0) return plain;
  Mat3d rotation{};
  for (int step = 0; step < 8; ++step) {
    Mat3d x{};
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) x[c][r] = a[c][r] * scale[c];
    for (int k = 0; k < 12; ++k) {  // scaled Newton: converges whatever the spread of the scales
      const Mat3d y = InverseTranspose(x);
      double nx = 0, ny = 0;
      for (int c = 0; c < 3; ++c) nx += Dot3(x[c], x[c]), ny += Dot3(y[c], y[c]);
      const double gamma = std::sqrt(std::sqrt(ny / nx));
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) x[c][r] = 0.5 * (gamma * x[c][r] + y[c][r] / gamma);
    }
    rotation = x;
    for (int c = 0; c < 3; ++c) scale[c] = Dot3(rotation[c], a[c]);
    if (!(scale[0] > 0 && scale[1] > 0 && scale[2] > 0)) return plain;
  }
  Mat4 r;
  for (int c = 0; c < 3; ++c)
    for (int row = 0; row < 3; ++row) r.m[c][row] = static_cast<float>(rotation[c][row]);
  TransformTRS out = plain;
  out.rotation = DecomposeTRS(r).rotation;
  out.scale = {static_cast<float>(scale[0]), static_cast<float>(scale[1]), static_cast<float>(scale[2])};
  return out;
}

// One joint's model transform from its parent's (none for a root, or a joint whose
// transform is model-space already) under a rule; trs only when wanted (Matrix).
void ComposeJoint(ScaleInheritance rule, const Mat4* parent, const TransformTRS* parent_trs, const TransformTRS& local,
                  Mat4& model, TransformTRS* model_trs) {
  if (rule == ScaleInheritance::PerAxis) {
    const TransformTRS trs = parent_trs ? ComposePerAxis(*parent_trs, local) : local;
    model = MatrixFromTRS(trs);
    if (model_trs) *model_trs = trs;
    return;
  }
  model = parent ? Multiply(*parent, MatrixFromTRS(local)) : MatrixFromTRS(local);
  if (model_trs) *model_trs = parent ? ClosestTRS(model) : local;
}

}  // namespace

std::vector<TransformTRS> RestModelPose(const Skeleton& skeleton, ScaleInheritance rule) {
  std::vector<TransformTRS> local, model(skeleton.joints.size());
  local.reserve(skeleton.joints.size());
  for (const Joint& j : skeleton.joints) local.push_back(j.rest);
  if (!LocalToModel(skeleton, local, rule, {}, model)) model.clear();
  return model;
}

bool LocalToModel(const Skeleton& skeleton, std::span<const TransformTRS> local, ScaleInheritance rule,
                  std::span<Mat4> model, std::span<TransformTRS> model_trs) {
  const size_t n = skeleton.joints.size();
  const bool want_trs = !model_trs.empty() || rule == ScaleInheritance::PerAxis;
  if (local.size() < n || (!model.empty() && model.size() < n) || (!model_trs.empty() && model_trs.size() < n) ||
      !skeleton.ParentsFirst())
    return false;
  std::vector<Mat4> matrices(model.empty() ? n : 0);
  std::vector<TransformTRS> transforms(want_trs && model_trs.empty() ? n : 0);
  const std::span<Mat4> m = model.empty() ? std::span<Mat4>(matrices) : model;
  const std::span<TransformTRS> t = model_trs.empty() ? std::span<TransformTRS>(transforms) : model_trs;
  for (size_t i = 0; i < n; ++i) {
    const int p = skeleton.joints[i].parent;
    const auto parent = static_cast<size_t>(p);
    ComposeJoint(rule, p < 0 ? nullptr : &m[parent], p < 0 || !want_trs ? nullptr : &t[parent], local[i], m[i],
                 want_trs ? &t[i] : nullptr);
  }
  return true;
}

ClipModelPose::ClipModelPose(const Clip& clip, const Skeleton& skeleton)
    : clip_(clip),
      skeleton_(skeleton),
      local_(skeleton.joints.size()),
      transforms_(skeleton.joints.size()),
      pose_(clip.tracks.size()),
      matrices_(skeleton.joints.size()),
      keyed_(skeleton.joints.size()) {
  if (!skeleton.ParentsFirst()) throw Error::General("the skeleton lists a joint before its parent");
  for (const JointTrack& t : clip.tracks) joint_of_.push_back(skeleton.Find(t.joint));
}

namespace {

// One joint of an additive clip over its base: the delta's keyed properties only (one the
// clip does not key is no change), scale always the base's.
TransformTRS AddDelta(const TransformTRS& base, const JointTrack& track, const TransformTRS& delta, const Additive& rule,
                      float weight) {
  TransformTRS out = base;
  if (weight <= 0) return out;
  if (!track.rotation.empty())
    out.rotation = Multiply(base.rotation, weight >= 1 ? delta.rotation : Slerp({0, 0, 0, 1}, delta.rotation, weight));
  if (!rule.rotation_only && !track.translation.empty()) out.translation = base.translation + delta.translation * weight;
  return out;
}

}  // namespace

void ClipModelPose::SetBase(std::span<const TransformTRS> base) {
  if (!base.empty() && base.size() != skeleton_.joints.size())
    throw Error::General("the base pose of clip '" + clip_.name + "' has " + std::to_string(base.size()) +
                         " joints, the skeleton " + std::to_string(skeleton_.joints.size()));
  base_.assign(base.begin(), base.end());
}

void ClipModelPose::SetWeight(float weight) { weight_ = std::clamp(std::isnan(weight) ? 0.0f : weight, 0.0f, 1.0f); }

void ClipModelPose::Compose(std::span<const TransformTRS> pose) {
  const size_t n = skeleton_.joints.size();
  const Additive* additive = clip_.additive && clip_.space == Space::Local ? &*clip_.additive : nullptr;
  const bool over_base = additive && !base_.empty();
  for (size_t j = 0; j < n; ++j) local_[j] = over_base ? base_[j] : skeleton_.joints[j].rest, keyed_[j] = false;
  for (size_t i = 0; i < joint_of_.size() && i < pose.size(); ++i) {
    // A joint the skeleton lacks is a root: an additive one's base is the identity.
    pose_[i] = additive ? AddDelta({}, clip_.tracks[i], pose[i], *additive, weight_) : pose[i];
    if (joint_of_[i] < 0) continue;
    const auto j = static_cast<size_t>(joint_of_[i]);
    local_[j] = additive ? AddDelta(local_[j], clip_.tracks[i], pose[i], *additive, weight_) : pose[i];
    keyed_[j] = true;
  }
  for (size_t j = 0; j < n; ++j) {
    const int p = skeleton_.joints[j].parent;
    const bool as_is = p < 0 || (clip_.space == Space::Model && keyed_[j]);  // model-space keys compose with nothing
    const auto parent = static_cast<size_t>(p);
    ComposeJoint(clip_.scale_inheritance, as_is ? nullptr : &matrices_[parent], as_is ? nullptr : &transforms_[parent],
                 local_[j], matrices_[j], &transforms_[j]);
  }
  for (size_t i = 0; i < joint_of_.size(); ++i)
    if (joint_of_[i] >= 0) pose_[i] = transforms_[static_cast<size_t>(joint_of_[i])];
}

const TransformTRS& ClipModelPose::OfTrack(size_t track) const { return pose_[track]; }

namespace {

bool Uniform(Vec3 s) {
  const float m = std::max({std::abs(s.x), std::abs(s.y), std::abs(s.z)});
  return std::abs(s.x - s.y) <= 1e-6f * m && std::abs(s.y - s.z) <= 1e-6f * m;
}

bool UniformTrack(const Track<Vec3>& t) {
  auto all = [](const std::vector<Vec3>& v) { return std::all_of(v.begin(), v.end(), Uniform); };
  return all(t.values) && all(t.in_tangents) && all(t.out_tangents);
}

bool RulesAgreeImpl(const Skeleton& skeleton, const Clip& clip) {
  std::vector<bool> has_child(skeleton.joints.size());
  for (const Joint& j : skeleton.joints)
    if (j.parent >= 0) has_child[static_cast<size_t>(j.parent)] = true;
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    if (!has_child[j]) continue;
    bool keyed = false;
    for (const JointTrack& t : clip.tracks) {
      if (t.joint != skeleton.joints[j].name || t.scale.empty()) continue;
      keyed = true;
      if (!UniformTrack(t.scale)) return false;
    }
    if (!keyed && !Uniform(skeleton.joints[j].rest.scale)) return false;
  }
  return true;
}

double Determinant3(const Mat4& m) {
  const auto& a = m.m;
  return double(a[0][0]) * (double(a[1][1]) * a[2][2] - double(a[2][1]) * a[1][2]) -
         double(a[1][0]) * (double(a[0][1]) * a[2][2] - double(a[2][1]) * a[0][2]) +
         double(a[2][0]) * (double(a[0][1]) * a[1][2] - double(a[1][1]) * a[0][2]);
}

double Distance(Vec3 a, Vec3 b) {
  const Vec3 d = a - b;
  return std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z);
}

double ScaleDistance(Vec3 a, Vec3 b) {
  return std::max({std::abs(double(a.x) - b.x), std::abs(double(a.y) - b.y), std::abs(double(a.z) - b.z)});
}

// Which properties of a joint the conversion rewrites.
struct Changed {
  bool translation = false, rotation = false, scale = false;
  bool any() const { return translation || rotation || scale; }
};

// Converts one frame: the locals under `to` that give `pose`'s model transforms, each
// relative to its parent's converted model. Properties not in `changed` keep the original.
class FrameConverter {
 public:
  FrameConverter(const Skeleton& skeleton, ScaleInheritance to)
      : skeleton_(skeleton), to_(to), model_(skeleton.joints.size()), model_trs_(skeleton.joints.size()) {}

  void Run(const ClipModelPose& pose, const std::vector<Changed>* changed, std::vector<TransformTRS>& out) {
    const std::span<const TransformTRS> original = pose.locals();
    for (size_t j = 0; j < skeleton_.joints.size(); ++j) {
      const int p = skeleton_.joints[j].parent;
      TransformTRS local = original[j];
      if (p >= 0) local = Relative(static_cast<size_t>(p), pose.matrices()[j], pose.transforms()[j], original[j]);
      if (changed) {
        const Changed& c = (*changed)[j];
        if (!c.translation) local.translation = original[j].translation;
        if (!c.rotation) local.rotation = original[j].rotation;
        if (!c.scale) local.scale = original[j].scale;
      }
      ComposeJoint(to_, p < 0 ? nullptr : &model_[static_cast<size_t>(p)], p < 0 ? nullptr : &model_trs_[static_cast<size_t>(p)],
                   local, model_[j], to_ == ScaleInheritance::PerAxis ? &model_trs_[j] : nullptr);
      out[j] = local;
    }
  }

 private:
  TransformTRS Relative(size_t parent, const Mat4& model, const TransformTRS& model_trs, const TransformTRS& original) const {
    if (to_ == ScaleInheritance::PerAxis) return RelativePerAxis(model_trs_[parent], model_trs);
    if (Determinant3(model_[parent]) == 0) return original;  // a parent scaled to zero: nothing to be relative to
    TransformTRS local = ClosestTRS(Multiply(InverseAffine(model_[parent]), model));
    local.rotation = Normalize(local.rotation);
    return local;
  }

  const Skeleton& skeleton_;
  ScaleInheritance to_;
  std::vector<Mat4> model_;
  std::vector<TransformTRS> model_trs_;
};

template <class T>
Track<T> LinearKeys(const std::vector<T>& values, double rate) {
  Track<T> track;
  track.interpolation = Interpolation::Linear;
  for (size_t f = 0; f < values.size(); ++f) track.Add(FrameTime(f, rate), values[f]);
  return track;
}

}  // namespace

bool ScaleRulesAgree(const Skeleton& skeleton, const Clip& clip) { return RulesAgreeImpl(skeleton, clip); }

void ConvertScaleInheritance(const Skeleton& skeleton, Clip& clip, ScaleInheritance to, const Limits& limits) {
  if (clip.scale_inheritance == to) return;
  if (clip.space == Space::Model || ScaleRulesAgree(skeleton, clip)) {
    clip.scale_inheritance = to;
    return;
  }
  const size_t frames = SampleFrameCount(clip, 0, limits), n = skeleton.joints.size();
  ClipModelPose pose(clip, skeleton);
  std::vector<TransformTRS> sampled(clip.tracks.size()), converted(n);
  FrameConverter converter(skeleton, to);
  auto each_frame = [&](auto&& fn) {
    for (size_t f = 0; f < frames; ++f) {
      (void)SampleClipJob{&clip, &skeleton, FrameTime(f, clip.frame_rate), sampled}.Run();
      pose.Compose(sampled);
      fn(f);
    }
  };
  // Pass 1: which properties move beyond float noise; pass 2 converts with those fixed,
  // so every joint is relative to the model its parent really gets.
  std::vector<Changed> changed(n);
  FrameConverter first(skeleton, to);
  each_frame([&](size_t) {
    first.Run(pose, nullptr, converted);
    for (size_t j = 0; j < n; ++j) {
      const TransformTRS& a = converted[j];
      const TransformTRS& b = pose.locals()[j];
      Changed& c = changed[j];
      // Float noise of the composition grows with how far the joint is from the origin.
      const double reach = Distance(b.translation, {}) + Distance(pose.transforms()[j].translation, {});
      c.translation = c.translation || Distance(a.translation, b.translation) > 1e-6 * (1 + reach);
      c.rotation = c.rotation || AngleBetween(a.rotation, b.rotation) > 1e-6;
      c.scale = c.scale || ScaleDistance(a.scale, b.scale) > 1e-6 * (1 + ScaleDistance(b.scale, {}));
    }
  });
  std::vector<std::vector<TransformTRS>> written(n);
  each_frame([&](size_t) {
    converter.Run(pose, &changed, converted);
    for (size_t j = 0; j < n; ++j) {
      if (!changed[j].any()) continue;
      TransformTRS local = converted[j];
      if (!written[j].empty() && Dot(written[j].back().rotation, local.rotation) < 0)  // the short way between frames
        local.rotation = {-local.rotation.x, -local.rotation.y, -local.rotation.z, -local.rotation.w};
      written[j].push_back(local);
    }
  });
  const double rate = clip.frame_rate;
  for (size_t j = 0; j < n; ++j) {
    if (!changed[j].any()) continue;
    JointTrack* track = nullptr;
    for (JointTrack& t : clip.tracks)
      if (t.joint == skeleton.joints[j].name) track = &t;  // the last, as ClipModelPose takes it
    if (!track) track = &clip.tracks.emplace_back(JointTrack{skeleton.joints[j].name, {}, {}, {}, {}});
    std::vector<Vec3> t, s;
    std::vector<QuatXYZW> r;
    for (const TransformTRS& x : written[j]) t.push_back(x.translation), r.push_back(x.rotation), s.push_back(x.scale);
    if (changed[j].translation) track->translation = LinearKeys(t, rate);
    if (changed[j].rotation) track->rotation = LinearKeys(r, rate);
    if (changed[j].scale) track->scale = LinearKeys(s, rate);
  }
  clip.scale_inheritance = to;
}

void ConvertScaleInheritance(Scene& scene, ScaleInheritance to, const Limits& limits) {
  for (Clip& clip : scene.clips) ConvertScaleInheritance(scene.skeleton, clip, to, limits);
}

ModelPoseDifference CompareModelPoses(const Skeleton& skeleton, const Clip& a, const Clip& converted,
                                      const Limits& limits) {
  ModelPoseDifference out;
  const size_t frames = SampleFrameCount(a, 0, limits);
  ClipModelPose pose_a(a, skeleton), pose_b(converted, skeleton);
  std::vector<TransformTRS> sampled_a(a.tracks.size()), sampled_b(converted.tracks.size());
  // A joint hidden in a frame has no pose there to compare (glTF scales it to 0).
  std::vector<const JointTrack*> track_a(skeleton.joints.size()), track_b(skeleton.joints.size());
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    for (const JointTrack& t : a.tracks)
      if (t.joint == skeleton.joints[j].name) track_a[j] = &t;
    for (const JointTrack& t : converted.tracks)
      if (t.joint == skeleton.joints[j].name) track_b[j] = &t;
  }
  for (size_t f = 0; f < frames; ++f) {
    const Seconds t = FrameTime(f, a.frame_rate);
    (void)SampleClipJob{&a, &skeleton, t, sampled_a}.Run();
    (void)SampleClipJob{&converted, &skeleton, t, sampled_b}.Run();
    pose_a.Compose(sampled_a);
    pose_b.Compose(sampled_b);
    for (size_t j = 0; j < skeleton.joints.size(); ++j) {
      if ((track_a[j] && !IsVisible(*track_a[j], f)) || (track_b[j] && !IsVisible(*track_b[j], f))) continue;
      const TransformTRS &x = pose_a.transforms()[j], &y = pose_b.transforms()[j];
      out.rotation = std::max(out.rotation, AngleBetween(x.rotation, y.rotation));
      out.translation = std::max(out.translation, Distance(x.translation, y.translation));
      out.scale = std::max(out.scale, ScaleDistance(x.scale, y.scale));
      for (size_t c = 0; c < 3; ++c)
        for (size_t r = 0; r < 3; ++r)
          out.linear = std::max(out.linear, std::abs(double(pose_a.matrices()[j].m[c][r]) - pose_b.matrices()[j].m[c][r]));
    }
  }
  return out;
}

}  // namespace animkit
