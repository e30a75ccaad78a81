#include <animkit/offline/sampling.hpp>
#include <animkit/offline/model_pose.hpp>

#include <animkit/core/error.hpp>
#include <animkit/core/math.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

namespace animkit {

Seconds FrameTime(size_t frame, double frame_rate) {
  return frame_rate > 0 ? static_cast<Seconds>(static_cast<double>(frame) / frame_rate) : 0.0f;
}

size_t ClipFrameCount(const Clip& clip, double rate, const Limits& limits) {
  if (clip.frame_count > 0) {
    CheckLimit(clip.frame_count, &Limits::max_frames, limits, "clip '" + clip.name + "': the frame count");
    return clip.frame_count;
  }
  return static_cast<size_t>(CheckedFrameCount(clip.duration, rate, limits, "clip '" + clip.name + "'"));
}

namespace {

// Index k of the segment [times[k], times[k+1]) holding t; times has >= 2 keys and
// times.front() <= t < times.back().
size_t FindSegment(const std::vector<Seconds>& times, Seconds t, size_t* cursor) {
  if (cursor && *cursor + 1 < times.size()) {
    size_t k = *cursor;
    if (times[k] <= t && t < times[k + 1]) return k;
    if (k + 2 < times.size() && times[k + 1] <= t && t < times[k + 2]) return *cursor = k + 1;
  }
  size_t k = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
  if (cursor) *cursor = k;
  return k;
}

Vec3 Hermite(Vec3 p0, Vec3 m0, Vec3 p1, Vec3 m1, float u, float dt) {
  float u2 = u * u, u3 = u2 * u;
  float h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  return p0 * h00 + m0 * (h10 * dt) + p1 * h01 + m1 * (h11 * dt);
}

QuatXYZW Hermite(QuatXYZW p0, QuatXYZW m0, QuatXYZW p1, QuatXYZW m1, float u, float dt) {
  Vec3 xyz = Hermite(Vec3{p0.x, p0.y, p0.z}, Vec3{m0.x, m0.y, m0.z}, Vec3{p1.x, p1.y, p1.z}, Vec3{m1.x, m1.y, m1.z}, u, dt);
  Vec3 w = Hermite(Vec3{p0.w, 0, 0}, Vec3{m0.w, 0, 0}, Vec3{p1.w, 0, 0}, Vec3{m1.w, 0, 0}, u, dt);
  return Normalize({xyz.x, xyz.y, xyz.z, w.x});
}

Vec3 Blend(Vec3 a, Vec3 b, float u) { return Lerp(a, b, u); }
QuatXYZW Blend(QuatXYZW a, QuatXYZW b, float u) { return Slerp(a, b, u); }

template <class T>
T Sample(const Track<T>& track, Seconds t, size_t* cursor, T fallback) {
  const size_t n = std::min(track.times.size(), track.values.size());
  if (n == 0) return fallback;
  if (n == 1 || !(t > track.times.front())) return track.values.front();
  if (t >= track.times[n - 1]) return track.values[n - 1];
  size_t k = FindSegment(track.times, t, cursor);
  if (k + 1 >= n) return track.values[n - 1];
  const Seconds t0 = track.times[k], t1 = track.times[k + 1];
  const float dt = t1 - t0;
  const float u = dt > 0 ? (t - t0) / dt : 0.0f;
  switch (track.interpolation) {
    case Interpolation::Step:
      return track.values[k];
    case Interpolation::Linear:
      return Blend(track.values[k], track.values[k + 1], u);
    case Interpolation::Hermite:
      if (track.out_tangents.size() < n || track.in_tangents.size() < n) {
        return Blend(track.values[k], track.values[k + 1], u);
      }
      return Hermite(track.values[k], track.out_tangents[k], track.values[k + 1], track.in_tangents[k + 1], u, dt);
  }
  return track.values[k];
}

}  // namespace

Vec3 SampleTrack(const Track<Vec3>& track, Seconds t, size_t* cursor) {
  return Sample(track, t, cursor, Vec3{0, 0, 0});
}

QuatXYZW SampleTrack(const Track<QuatXYZW>& track, Seconds t, size_t* cursor) {
  return Sample(track, t, cursor, QuatXYZW{0, 0, 0, 1});
}

namespace {

bool Finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool Finite(QuatXYZW q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

template <class T>
std::vector<T> SampleEveryFrame(const Track<T>& track, size_t frames, double rate) {
  std::vector<T> out;
  if (track.empty()) return out;
  out.reserve(frames);
  size_t cursor = 0;
  for (size_t f = 0; f < frames; ++f) out.push_back(SampleTrack(track, FrameTime(f, rate), &cursor));
  return out;
}

}  // namespace

FrameSamples SampleFrames(const Clip& clip, const JointTrack& track, size_t frames, double rate) {
  FrameSamples s;
  s.translation = SampleEveryFrame(track.translation, frames, rate);
  s.rotation = SampleEveryFrame(track.rotation, frames, rate);
  for (QuatXYZW& q : s.rotation) q = Normalize(q);
  s.scale = SampleEveryFrame(track.scale, frames, rate);
  const bool finite = std::all_of(s.translation.begin(), s.translation.end(), [](Vec3 v) { return Finite(v); }) &&
                      std::all_of(s.rotation.begin(), s.rotation.end(), [](QuatXYZW q) { return Finite(q); }) &&
                      std::all_of(s.scale.begin(), s.scale.end(), [](Vec3 v) { return Finite(v); });
  if (!finite) {
    throw Error::General("joint '" + track.joint + "' of clip '" + clip.name +
                         "' samples to a value that is not finite (keys near the float limit interpolate past it)");
  }
  return s;
}

bool IsVisible(const JointTrack& track, size_t frame) {
  return frame >= track.visible.size() || track.visible[frame];
}

bool SampleClipJob::Validate() const { return clip && output.size() >= clip->tracks.size(); }

bool SampleClipJob::Run() const {
  if (!Validate()) return false;
  for (size_t i = 0; i < clip->tracks.size(); ++i) {
    const JointTrack& track = clip->tracks[i];
    TransformTRS rest;
    if (rest_skeleton) {
      int j = rest_skeleton->Find(track.joint);
      if (j >= 0) rest = rest_skeleton->joints[static_cast<size_t>(j)].rest;
    }
    TransformTRS& out = output[i];
    out.translation = track.translation.empty() ? rest.translation : SampleTrack(track.translation, time);
    out.rotation = track.rotation.empty() ? rest.rotation : SampleTrack(track.rotation, time);
    out.scale = track.scale.empty() ? rest.scale : SampleTrack(track.scale, time);
  }
  return true;
}

bool LocalToModel(const Skeleton& skeleton, std::span<const TransformTRS> local, std::span<Mat4> model) {
  return !model.empty() && LocalToModel(skeleton, local, ScaleInheritance::Matrix, model, {});
}

PoseDifference ComparePoses(const Clip& a, const Clip& b, const Skeleton* rest_skeleton, const Limits& limits) {
  // One row per joint name either clip keys: its track index in a and in b (or none).
  struct Row {
    std::string joint;
    std::optional<size_t> in_a, in_b;
  };
  std::vector<Row> rows;
  std::map<std::string, size_t> row_of;
  auto add = [&](const Clip& clip, std::optional<size_t> Row::*which) {
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
      auto [it, inserted] = row_of.try_emplace(clip.tracks[i].joint, rows.size());
      if (inserted) rows.push_back({clip.tracks[i].joint, {}, {}});
      if (!(rows[it->second].*which)) rows[it->second].*which = i;
    }
  };
  add(a, &Row::in_a);
  add(b, &Row::in_b);
  PoseDifference out;
  out.frames = SampleFrameCount(a, 0, limits);
  std::vector<TransformTRS> pose_a(a.tracks.size()), pose_b(b.tracks.size());
  for (uint64_t f = 0; f < out.frames; ++f) {
    const Seconds t = FrameTime(static_cast<size_t>(f), a.frame_rate);
    (void)SampleClipJob{&a, rest_skeleton, t, pose_a}.Run();
    (void)SampleClipJob{&b, rest_skeleton, t, pose_b}.Run();
    for (const Row& row : rows) {
      TransformTRS rest;
      if (rest_skeleton) {
        const int j = rest_skeleton->Find(row.joint);
        if (j >= 0) rest = rest_skeleton->joints[static_cast<size_t>(j)].rest;
      }
      const TransformTRS& x = row.in_a ? pose_a[*row.in_a] : rest;
      const TransformTRS& y = row.in_b ? pose_b[*row.in_b] : rest;
      out.rotation = std::max(out.rotation, AngleBetween(x.rotation, y.rotation));
      const Vec3 dt = x.translation - y.translation, ds = x.scale - y.scale;
      out.translation = std::max(out.translation, std::sqrt(double(dt.x) * dt.x + double(dt.y) * dt.y + double(dt.z) * dt.z));
      out.scale = std::max({out.scale, double(std::abs(ds.x)), double(std::abs(ds.y)), double(std::abs(ds.z))});
    }
  }
  return out;
}

uint64_t SampleFrameCount(const Clip& clip, double rate, const Limits& limits) {
  const std::string what = "clip '" + clip.name + "'";
  uint64_t frames = clip.frame_count;
  if (rate > 0 || !std::isfinite(rate)) frames = CheckedFrameCount(clip.duration, rate, limits, what);
  else CheckLimit(frames, &Limits::max_frames, limits, what + ": the frame count");
  const uint64_t joints = std::max<uint64_t>(clip.tracks.size(), 1);
  CheckLimit(joints, &Limits::max_joints, limits, what + ": the joint count");
  CheckLimit(frames * joints, &Limits::max_values, limits, what + ": frames x joints sampled");
  return frames;
}

}  // namespace animkit
