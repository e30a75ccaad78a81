// ScaledChainClip, FigureTimeline and CameraClip (synthetic/synthetic_clips.hpp).
#include <animkit/core/math.hpp>
#include <animkit/offline/sampling.hpp>
#include <synthetic/synthetic_clips.hpp>

namespace animkit {

Clip ScaledChainClip(float angle, ScaleInheritance rule, size_t frames) {
  Clip clip;
  clip.name = "chain";
  clip.scale_inheritance = rule;
  clip.SetFrames(frames, 30);
  JointTrack& root = clip.tracks.emplace_back();
  root.joint = "root";
  for (size_t f = 0; f < frames; ++f) root.scale.Add(FrameTime(f, 30), {2, 1, 1});
  JointTrack& child = clip.tracks.emplace_back();
  child.joint = "child";
  child.translation.Add(0, {1, 0, 0});
  child.rotation.Add(0, AxisAngle({0, 0, 1}, angle));
  return clip;
}

Clip FigureTimeline(const Skeleton& skeleton, int step, const TimelineKey& key) {
  Clip timeline;
  timeline.name = "timeline";
  timeline.SetFrames(101, 24);
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    JointTrack& track = timeline.tracks.emplace_back();
    track.joint = skeleton.joints[j].name;
    for (int f = 0; f <= 100; f += step) key(j, f, static_cast<Seconds>(f / 24.0), track);
  }
  return timeline;
}

Clip CameraClip(size_t frames, const std::function<CameraKey(size_t frame)>& key) {
  Clip clip;
  clip.name = "camera";
  clip.SetFrames(frames, 30);
  CameraTrack& cam = clip.cameras.emplace_back();
  cam.name = "camera";
  for (size_t f = 0; f < frames; ++f) {
    const CameraKey k = key(f);
    cam.times.push_back(FrameTime(f, 30));
    cam.positions.push_back(k.position);
    cam.targets.push_back(k.target);
    cam.roll.push_back(k.roll);
    cam.yfov.push_back(k.yfov);
  }
  return clip;
}

}  // namespace animkit
