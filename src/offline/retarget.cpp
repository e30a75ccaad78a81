// Retargeting: clips replayed on another skeleton through a bone map, in model space.
#include <animkit/offline/retarget.hpp>

#include <animkit/core/error.hpp>
#include <animkit/core/math.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>

namespace animkit {

std::optional<Vec3> ParseAxis(std::string_view axis) {
  if (axis.size() != 2 || (axis[0] != '+' && axis[0] != '-')) return std::nullopt;
  const float sign = axis[0] == '+' ? 1.0f : -1.0f;
  switch (axis[1]) {
    case 'X': case 'x': return Vec3{sign, 0, 0};
    case 'Y': case 'y': return Vec3{0, sign, 0};
    case 'Z': case 'z': return Vec3{0, 0, sign};
    default: return std::nullopt;
  }
}

namespace {


// The rotation whose columns are (right, up, forward) of a frame: model axes to the frame's.
Mat4 FrameMatrix(const AxisFrame& f) {
  const Vec3 right = Cross(f.up, f.forward);
  Mat4 m;
  m.m[0] = {right.x, right.y, right.z, 0};
  m.m[1] = {f.up.x, f.up.y, f.up.z, 0};
  m.m[2] = {f.forward.x, f.forward.y, f.forward.z, 0};
  return m;
}

}  // namespace

AxisFrame ParseAxisFrame(std::string_view text, std::string_view what) {
  const size_t comma = text.find(',');
  const std::optional<Vec3> up = comma == std::string_view::npos ? std::nullopt : ParseAxis(text.substr(0, comma));
  const std::optional<Vec3> forward = comma == std::string_view::npos ? std::nullopt : ParseAxis(text.substr(comma + 1));
  if (!up || !forward)
    throw Error::General(std::string(what) + ": expected UP,FORWARD as two signed axes (\"+Y,+Z\"), got \"" +
                         std::string(text) + "\"");
  if (std::abs(Dot(*up, *forward)) > 0.5f)
    throw Error::General(std::string(what) + ": the up and forward axes of \"" + std::string(text) + "\" are parallel");
  return {*up, *forward};
}

QuatXYZW AxisAlignment(const AxisFrame& from, const AxisFrame& to) {
  // to_frame * inverse(from_frame): from's axes onto to's.
  const Mat4 a = FrameMatrix(from), b = FrameMatrix(to);
  Mat4 a_inverse;  // a rotation's inverse is its transpose
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) a_inverse.m[c][r] = a.m[r][c];
  return Normalize(DecomposeTRS(Multiply(b, a_inverse)).rotation);
}

namespace {

std::vector<TransformTRS> RestLocals(const Skeleton& s) {
  std::vector<TransformTRS> out;
  out.reserve(s.joints.size());
  for (const Joint& j : s.joints) out.push_back(j.rest);
  return out;
}

// A target joint with no mapped ancestor: its position follows the source's travel.
std::vector<bool> MapRoots(const Skeleton& target, const BoneMap& map) {
  std::vector<bool> has_mapped_ancestor(target.joints.size(), false), root(target.joints.size(), false);
  for (size_t k = 0; k < target.joints.size(); ++k) {
    const int p = target.joints[k].parent;
    if (p >= 0) has_mapped_ancestor[k] = has_mapped_ancestor[static_cast<size_t>(p)] || map.source_of[static_cast<size_t>(p)] >= 0;
    root[k] = map.source_of[k] >= 0 && !has_mapped_ancestor[k];
  }
  return root;
}

float Height(const std::vector<TransformTRS>& model, size_t joint, Vec3 up) {
  float ground = 0;
  for (size_t i = 0; i < model.size(); ++i) ground = i == 0 ? Dot(model[i].translation, up) : std::min(ground, Dot(model[i].translation, up));
  return Dot(model[joint].translation, up) - ground;
}

float SafeRatio(float a, float b) { return std::abs(b) > 1e-12f ? a / b : 1.0f; }
Vec3 Ratio(Vec3 a, Vec3 b) { return {SafeRatio(a.x, b.x), SafeRatio(a.y, b.y), SafeRatio(a.z, b.z)}; }

}  // namespace

float RootHeightRatio(const Skeleton& source, const Skeleton& target, const BoneMap& map, const RetargetSettings& settings) {
  if (map.source_of.size() != target.joints.size() || !source.ParentsFirst() || !target.ParentsFirst()) return 1;
  const std::vector<TransformTRS> s_rest = RestModelPose(source, ScaleInheritance::Matrix);
  const std::vector<TransformTRS> t_rest = RestModelPose(target, ScaleInheritance::Matrix);
  for (size_t k = 0; k < target.joints.size(); ++k) {
    if (map.source_of[k] < 0 || static_cast<size_t>(map.source_of[k]) >= source.joints.size()) continue;
    const float ht = Height(t_rest, k, settings.target_axes.up);
    const float hs = Height(s_rest, static_cast<size_t>(map.source_of[k]), settings.source_axes.up);
    if (ht > 1e-6f && hs > 1e-6f && std::isfinite(ht / hs)) return ht / hs;
  }
  return 1;
}

bool RetargetJob::Validate() const {
  if (!source || !target || !map || !output || !source->ParentsFirst() || !target->ParentsFirst()) return false;
  if (map->source_of.size() != target->joints.size()) return false;
  return std::all_of(map->source_of.begin(), map->source_of.end(),
                     [&](int j) { return j >= -1 && j < static_cast<int>(source->joints.size()); });
}

namespace {

bool SameSkeleton(const Skeleton& a, const Skeleton& b) {
  if (a.joints.size() != b.joints.size()) return false;
  for (size_t i = 0; i < a.joints.size(); ++i)
    if (a.joints[i].name != b.joints[i].name || a.joints[i].parent != b.joints[i].parent || !(a.joints[i].rest == b.joints[i].rest))
      return false;
  return true;
}

// What a retarget writes of one target joint, frame after frame.
struct JointKeys {
  std::vector<Vec3> translation, scale;
  std::vector<QuatXYZW> rotation;
};

class ClipRetarget {
 public:
  ClipRetarget(const RetargetJob& job, const Clip& clip)
      : job_(job), clip_(clip), source_(*job.source), target_(*job.target), map_(*job.map),
        rule_(clip.scale_inheritance), align_(AxisAlignment(job.settings.source_axes, job.settings.target_axes)),
        scale_(job.settings.translation_scale ? *job.settings.translation_scale
                                              : RootHeightRatio(source_, target_, map_, job.settings)),
        s_rest_(RestModelPose(source_, rule_)), t_rest_(RestModelPose(target_, rule_)), t_rest_local_(RestLocals(target_)),
        roots_(MapRoots(target_, map_)) {}

  Clip Run() {
    const size_t frames = SampleFrameCount(clip_, 0, job_.limits);
    Clip out = Header();
    std::vector<JointKeys> keys(target_.joints.size());
    ClipModelPose pose(clip_, source_);
    std::vector<TransformTRS> sampled(clip_.tracks.size()), t_model(target_.joints.size());
    for (size_t f = 0; f < frames; ++f) {
      const Seconds t = FrameTime(f, clip_.frame_rate);
      SampleClipJob{&clip_, &source_, t, sampled}.Run();
      pose.Compose(sampled);
      Frame(pose, t_model, keys);
    }
    for (size_t k = 0; k < target_.joints.size(); ++k)
      if (map_.source_of[k] >= 0) AddTracks(out, k, keys[k], frames);
    return out;
  }

 private:
  Clip Header() const {
    Clip out;
    out.name = clip_.name;
    out.frame_rate = clip_.frame_rate;
    out.frame_count = clip_.frame_count;
    out.duration = clip_.duration;
    out.loop = clip_.loop;
    out.scale_inheritance = rule_;
    out.events = clip_.events;
    out.additive = clip_.additive;
    out.metadata = clip_.metadata;
    if (out.metadata.is_object()) out.metadata.erase(kClipJointCountKey);
    if (clip_.root_motion) {
      const int j = source_.Find(clip_.root_motion->joint);
      for (size_t k = 0; j >= 0 && k < target_.joints.size(); ++k)
        if (map_.source_of[k] == j) out.root_motion = RootMotion{target_.joints[k].name, job_.settings.target_axes.up};
    }
    return out;
  }

  // One frame: each target joint's local from its parent's model transform, in skeleton order.
  void Frame(const ClipModelPose& pose, std::vector<TransformTRS>& t_model, std::vector<JointKeys>& keys) const {
    const std::span<const TransformTRS> s_model = pose.transforms(), s_local = pose.locals();
    for (size_t k = 0; k < target_.joints.size(); ++k) {
      const int p = target_.joints[k].parent;
      const TransformTRS parent = p >= 0 ? t_model[static_cast<size_t>(p)] : TransformTRS{};
      TransformTRS local = t_rest_local_[k];
      const int js = map_.source_of[k];
      if (js >= 0) {
        const size_t j = static_cast<size_t>(js);
        const QuatXYZW from_rest = Multiply(s_model[j].rotation, Conjugate(s_rest_[j].rotation));
        const QuatXYZW aligned = Multiply(Multiply(align_, from_rest), Conjugate(align_));
        const QuatXYZW model_rotation = Normalize(Multiply(aligned, t_rest_[k].rotation));
        local.rotation = Normalize(Multiply(Conjugate(parent.rotation), model_rotation));
        if (roots_[k]) {
          const Vec3 travel = Rotate(align_, s_model[j].translation - s_rest_[j].translation) * scale_;
          TransformTRS model = ComposePerAxis(parent, local);
          model.translation = t_rest_[k].translation + travel;
          local.translation = RelativePerAxis(parent, model).translation;
        } else {
          // The source's change of offset, carried from its parent's frame to the target parent's.
          const int ps = source_.joints[j].parent;
          const QuatXYZW s_parent = ps >= 0 ? s_model[static_cast<size_t>(ps)].rotation : QuatXYZW{};
          const Vec3 change = s_local[j].translation - source_.joints[j].rest.translation;
          const Vec3 in_model = Rotate(align_, Rotate(s_parent, change)) * scale_;
          local.translation = t_rest_local_[k].translation + Rotate(Conjugate(parent.rotation), in_model);
        }
        local.scale = Mul(t_rest_local_[k].scale, Ratio(s_local[j].scale, source_.joints[j].rest.scale));
        if (clip_.additive) Delta(k, local);
        keys[k].rotation.push_back(local.rotation);
        keys[k].translation.push_back(local.translation);
        keys[k].scale.push_back(local.scale);
        if (clip_.additive) local = Undelta(k, local);
      }
      t_model[k] = rule_ == ScaleInheritance::PerAxis || p < 0 ? ComposePerAxis(parent, local)
                                                              : DecomposeTRS(Multiply(MatrixFromTRS(parent), MatrixFromTRS(local)));
    }
  }

  // An additive clip's keys are deltas over the target's rest (docs/conventions.md).
  void Delta(size_t k, TransformTRS& local) const {
    const TransformTRS& rest = t_rest_local_[k];
    local.rotation = Normalize(Multiply(Conjugate(rest.rotation), local.rotation));
    local.translation = local.translation - rest.translation;
    local.scale = {1, 1, 1};
  }
  TransformTRS Undelta(size_t k, TransformTRS delta) const {
    const TransformTRS& rest = t_rest_local_[k];
    return {rest.translation + delta.translation, Normalize(Multiply(rest.rotation, delta.rotation)), rest.scale};
  }

  void AddTracks(Clip& out, size_t k, const JointKeys& keys, size_t frames) const {
    JointTrack track;
    track.joint = target_.joints[k].name;
    const TransformTRS& rest = t_rest_local_[k];
    const Vec3 no_translation = clip_.additive ? Vec3{} : rest.translation;
    const Vec3 no_scale = clip_.additive ? Vec3{1, 1, 1} : rest.scale;
    auto differs = [](const std::vector<Vec3>& v, Vec3 from) {
      return std::any_of(v.begin(), v.end(), [&](Vec3 x) { return std::abs(x.x - from.x) + std::abs(x.y - from.y) + std::abs(x.z - from.z) > 1e-6f; });
    };
    const bool rotation_only = clip_.additive && clip_.additive->rotation_only;
    const bool translates = !rotation_only && differs(keys.translation, no_translation);
    const bool scales = !clip_.additive && differs(keys.scale, no_scale);
    for (size_t f = 0; f < frames; ++f) {
      const Seconds t = FrameTime(f, clip_.frame_rate);
      track.rotation.Add(t, keys.rotation[f]);
      if (translates) track.translation.Add(t, keys.translation[f]);
      if (scales) track.scale.Add(t, keys.scale[f]);
    }
    out.tracks.push_back(std::move(track));
  }

  const RetargetJob& job_;
  const Clip& clip_;
  const Skeleton& source_;
  const Skeleton& target_;
  const BoneMap& map_;
  const ScaleInheritance rule_;
  const QuatXYZW align_;
  const float scale_;
  const std::vector<TransformTRS> s_rest_, t_rest_, t_rest_local_;
  const std::vector<bool> roots_;
};

}  // namespace

bool RetargetJob::Run() const {
  if (!Validate()) return false;
  const bool same = SameSkeleton(*source, *target) && map->IsIdentity(source->joints.size()) &&
                    std::abs(Dot(settings.source_axes.up, settings.target_axes.up) - 1) < 1e-6f &&
                    std::abs(Dot(settings.source_axes.forward, settings.target_axes.forward) - 1) < 1e-6f &&
                    (!settings.translation_scale || *settings.translation_scale == 1);
  std::vector<Clip> out;
  out.reserve(clips.size());
  for (const Clip& clip : clips) {
    if (same) {
      out.push_back(clip);
      continue;
    }
    out.push_back(ClipRetarget(*this, clip).Run());
  }
  *output = std::move(out);
  return true;
}

}  // namespace animkit
