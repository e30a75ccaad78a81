// KH2 clips after a glTF round trip (kh2_encode_round_trip.hpp).
#include "formats/kh2/encode/kh2_encode_round_trip.hpp"

#include <animkit/core/elementary.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace animkit::kh2 {

double RotationDifference(QuatXYZW a, QuatXYZW b) {
  // The angle of conj(a) * b, from its vector part and scalar (exact for tiny angles).
  const double w = double(a.w) * b.w + double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z;
  const double vx = double(a.w) * b.x - double(b.w) * a.x - (double(a.y) * b.z - double(a.z) * b.y);
  const double vy = double(a.w) * b.y - double(b.w) * a.y - (double(a.z) * b.x - double(a.x) * b.z);
  const double vz = double(a.w) * b.z - double(b.w) * a.z - (double(a.x) * b.y - double(a.y) * b.x);
  return 2 * Atan2(std::sqrt(vx * vx + vy * vy + vz * vz), std::abs(w));
}

}  // namespace animkit::kh2

namespace animkit::kh2::detail {

Clip GltfRoundTrip(Clip clip, const Skeleton& rig, const Limits& limits) {
  ConvertScaleInheritance(rig, clip, ScaleInheritance::Matrix, limits);
  ConvertScaleInheritance(rig, clip, ScaleInheritance::PerAxis, limits);
  return clip;
}

bool KeyAt(const Clip& clip, size_t b, size_t f, TransformTRS& out) {
  if (b >= clip.tracks.size() || f >= clip.frame_count) return false;
  const JointTrack& track = clip.tracks[b];
  if (track.rotation.empty() || track.translation.empty() || track.scale.empty()) return false;
  const Seconds t = FrameTime(f, clip.frame_rate);  // keys per frame, or the curves as stored
  out = {SampleTrack(track.translation, t), SampleTrack(track.rotation, t), SampleTrack(track.scale, t)};
  return true;
}

std::vector<std::vector<TransformTRS>> RoundTrippedLocals(const InterpolatedMotion& t, const Skeleton& skeleton,
                                                          const std::vector<ChannelValues>& rest, size_t frames) {
  Motion m;
  m.interpolated = t;
  DecodeSettings ds;
  ds.limits.max_values = std::numeric_limits<decltype(ds.limits.max_values)>::max();
  Clip clip = DecodeMotion(m, skeleton, rest, ds);
  // The skeleton the decoded scene had: the bones, then the IK helpers under their parents
  // (DecodeBar adds them so), which the conversion composes the helpers with.
  Skeleton rig = skeleton;
  const size_t bones = size_t(std::max<int>(t.bone_count, 0));
  if (rig.joints.size() >= bones) {
    rig.joints.resize(bones);
    for (size_t i = 0; i < t.ik_helpers.size(); ++i) {
      const BoneRecord& h = t.ik_helpers[i];
      rig.joints.push_back({NumberedJointName(bones + i), h.parent >= 0 && size_t(h.parent) < bones + i ? h.parent : -1,
                            TransformFromChannels(ChannelsFromBone(h))});
    }
  }
  clip = GltfRoundTrip(std::move(clip), rig, ds.limits);
  // The decoded clip's tracks are its joints in order (DecodeMotion).
  const size_t joints = std::min(clip.tracks.size(), size_t(std::max<int>(t.total_bone_count, 0)));
  std::vector<std::vector<TransformTRS>> out(std::min(frames, clip.frame_count));
  for (size_t f = 0; f < out.size(); ++f) {
    out[f].resize(joints);
    for (size_t j = 0; j < joints; ++j)
      if (!KeyAt(clip, j, f, out[f][j])) out[f][j] = TransformTRS{};
  }
  return out;
}

bool Within(const TransformTRS& a, const TransformTRS& b, const EncodeSettings& s, float size) {
  auto close = [&](float x, float y) {
    return std::abs(x - y) <= s.relative_tolerance * std::max({size, std::abs(x), std::abs(y)});
  };
  return close(a.translation.x, b.translation.x) && close(a.translation.y, b.translation.y) &&
         close(a.translation.z, b.translation.z) && close(a.scale.x, b.scale.x) && close(a.scale.y, b.scale.y) &&
         close(a.scale.z, b.scale.z) && RotationDifference(a.rotation, b.rotation) <= s.tolerance;
}

}  // namespace animkit::kh2::detail
