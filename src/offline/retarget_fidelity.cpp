// How much of the source's motion a retargeted clip keeps: rotation from rest per mapped joint,
// and the feet's slide where the source's feet are planted (docs/retarget.md, "Measured").
#include <animkit/offline/retarget.hpp>

#include <animkit/core/math.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace animkit {

namespace {

float Length(Vec3 a) { return std::sqrt(Dot(a, a)); }

float Extent(const std::vector<TransformTRS>& model, Vec3 up) {
  if (model.empty()) return 0;
  float lo = Dot(model[0].translation, up), hi = lo;
  for (const TransformTRS& m : model) lo = std::min(lo, Dot(m.translation, up)), hi = std::max(hi, Dot(m.translation, up));
  return hi - lo;
}

// The feet, as target joints: of the mapped source joints that end a chain of the map in the
// lowest quarter of the source's height at rest, the two lowest.
std::vector<size_t> Feet(const Skeleton& source, const Skeleton& target, const BoneMap& map,
                         const std::vector<TransformTRS>& s_rest, Vec3 up) {
  std::vector<bool> leaf(source.joints.size(), true);  // no mapped joint below it
  for (int j : map.source_of)
    for (int a = j >= 0 ? source.joints[static_cast<size_t>(j)].parent : -1; a >= 0; a = source.joints[static_cast<size_t>(a)].parent)
      leaf[static_cast<size_t>(a)] = false;
  float ground = 0;
  for (size_t i = 0; i < s_rest.size(); ++i) ground = i ? std::min(ground, Dot(s_rest[i].translation, up)) : Dot(s_rest[i].translation, up);
  const float extent = Extent(s_rest, up), low = ground + 0.25f * extent;
  // The legs hang from the hips: the first mapped joint standing above the ground.
  int hips = -1;
  for (size_t k = 0; k < target.joints.size() && hips < 0; ++k) {
    const int j = map.source_of[k];
    if (j >= 0 && Dot(s_rest[static_cast<size_t>(j)].translation, up) - ground > 1e-3f * extent) hips = j;
  }
  auto below_hips = [&](int j) {
    for (int a = source.joints[static_cast<size_t>(j)].parent; a >= 0; a = source.joints[static_cast<size_t>(a)].parent)
      if (a == hips) return true;
    return false;
  };
  std::vector<size_t> mapped;
  for (size_t k = 0; k < target.joints.size(); ++k) {
    const int j = map.source_of[k];
    if (j >= 0 && leaf[static_cast<size_t>(j)] && below_hips(j) && Dot(s_rest[static_cast<size_t>(j)].translation, up) <= low)
      mapped.push_back(k);
  }
  std::sort(mapped.begin(), mapped.end(), [&](size_t a, size_t b) {
    return Dot(s_rest[static_cast<size_t>(map.source_of[a])].translation, up) <
           Dot(s_rest[static_cast<size_t>(map.source_of[b])].translation, up);
  });
  if (mapped.size() > 2) mapped.resize(2);
  return mapped;
}

// The model pose of a clip at frame f over a skeleton.
class ModelFrames {
 public:
  ModelFrames(const Clip& clip, const Skeleton& skeleton) : clip_(clip), skeleton_(skeleton), pose_(clip, skeleton), sampled_(clip.tracks.size()) {}
  std::span<const TransformTRS> At(size_t f) {
    SampleClipJob{&clip_, &skeleton_, FrameTime(f, clip_.frame_rate), sampled_}.Run();
    pose_.Compose(sampled_);
    return pose_.transforms();
  }

 private:
  const Clip& clip_;
  const Skeleton& skeleton_;
  ClipModelPose pose_;
  std::vector<TransformTRS> sampled_;
};

}  // namespace

RetargetFidelity MeasureRetarget(const Clip& source_clip, const Skeleton& source, const Clip& target_clip,
                                 const Skeleton& target, const BoneMap& map, const RetargetSettings& settings,
                                 const Limits& limits) {
  RetargetFidelity out;
  // What RetargetJob::Validate asks of the map and skeletons: nothing to measure otherwise.
  const auto valid = [&](int j) { return j >= -1 && j < static_cast<int>(source.joints.size()); };
  if (map.source_of.size() != target.joints.size() || !std::all_of(map.source_of.begin(), map.source_of.end(), valid) ||
      !source.ParentsFirst() || !target.ParentsFirst())
    return out;
  const QuatXYZW align = AxisAlignment(settings.source_axes, settings.target_axes);
  const std::vector<TransformTRS> s_rest = RestModelPose(source, source_clip.scale_inheritance);
  const std::vector<TransformTRS> t_rest = RestModelPose(target, target_clip.scale_inheritance);
  const Vec3 s_up = settings.source_axes.up, t_up = settings.target_axes.up;
  const std::vector<size_t> feet = Feet(source, target, map, s_rest, s_up);
  for (size_t k : feet) out.feet.push_back(target.joints[k].name);
  const float planted = 0.005f * Extent(s_rest, s_up);
  const size_t frames = SampleFrameCount(source_clip, 0, limits);
  ModelFrames s_frames(source_clip, source), t_frames(target_clip, target);
  std::vector<Vec3> s_previous(feet.size()), t_previous(feet.size());
  double slide_sum = 0, source_sum = 0;
  const float scale = settings.translation_scale ? *settings.translation_scale : RootHeightRatio(source, target, map, settings);
  uint64_t slides = 0;
  for (size_t f = 0; f < frames; ++f) {
    const std::span<const TransformTRS> s = s_frames.At(f);
    const std::span<const TransformTRS> t = t_frames.At(f);
    for (size_t k = 0; k < target.joints.size(); ++k) {
      const int j = map.source_of[k];
      if (j < 0) continue;
      const QuatXYZW from_rest_s = Multiply(s[static_cast<size_t>(j)].rotation, Conjugate(s_rest[static_cast<size_t>(j)].rotation));
      const QuatXYZW aligned = Multiply(Multiply(align, from_rest_s), Conjugate(align));
      const QuatXYZW from_rest_t = Multiply(t[k].rotation, Conjugate(t_rest[k].rotation));
      const double angle = AngleBetween(Normalize(aligned), Normalize(from_rest_t));
      if (angle > out.rotation_from_rest) out.rotation_from_rest = angle, out.worst_joint = target.joints[k].name;
    }
    for (size_t i = 0; i < feet.size(); ++i) {
      const Vec3 sp = s[static_cast<size_t>(map.source_of[feet[i]])].translation, tp = t[feet[i]].translation;
      if (f > 0 && Length(sp - s_previous[i]) < planted) {
        Vec3 moved = tp - t_previous[i];
        moved = moved - t_up * Dot(moved, t_up);  // on the ground plane
        const double slide = Length(moved);
        out.foot_slide_max = std::max(out.foot_slide_max, slide);
        slide_sum += slide;
        Vec3 own = sp - s_previous[i];
        own = own - s_up * Dot(own, s_up);
        const double source_slide = Length(own) * scale;
        out.source_slide_max = std::max(out.source_slide_max, source_slide);
        source_sum += source_slide;
        ++slides;
      }
      s_previous[i] = sp, t_previous[i] = tp;
    }
  }
  out.planted_frames = slides;
  out.foot_slide_mean = slides ? slide_sum / static_cast<double>(slides) : 0;
  out.source_slide_mean = slides ? source_sum / static_cast<double>(slides) : 0;
  return out;
}

}  // namespace animkit
