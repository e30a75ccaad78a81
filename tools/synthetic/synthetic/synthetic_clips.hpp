// Small clips that tests, sample writers and the fuzz corpus build alike.
#pragma once

#include <animkit/core/model.hpp>

#include <functional>

namespace animkit {

// "chain", `frames` frames at 30 per second, its locals in `rule`: "root" scaled (2, 1, 1)
// (keyed at every frame) and "child" one unit along x, turned `angle` about z (keyed at 0).
// Under a parent's non-uniform scale the two scale inheritance rules pose "child" apart.
Clip ScaledChainClip(float angle, ScaleInheritance rule, size_t frames);

// "timeline": frames 0..100 at 24 per second, every joint of skeleton (in order) keyed every
// `step` frames from 0; key(joint index, frame, time, track) adds that frame's keys.
using TimelineKey = std::function<void(size_t joint, int frame, Seconds time, JointTrack& track)>;
Clip FigureTimeline(const Skeleton& skeleton, int step, const TimelineKey& key);

// One camera key: where the eye is, the point it looks at, its roll and vertical field of
// view (radians).
struct CameraKey {
  Vec3 position, target;
  float roll = 0, yfov = 0;
};
// "camera": `frames` frames at 30 per second, one camera "camera" keyed at every frame by key(frame).
Clip CameraClip(size_t frames, const std::function<CameraKey(size_t frame)>& key);

}  // namespace animkit
