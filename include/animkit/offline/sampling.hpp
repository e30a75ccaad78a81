// Offline clip evaluation: exact, simple, and the reference the runtime is checked against.
#pragma once

#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>

#include <span>
#include <vector>

namespace animkit {

// Evaluates a track at time t (seconds). Before the first key the first value
// holds, after the last the last. cursor (optional) caches the last segment so
// that playback forward costs O(1); any value is safe.
Vec3 SampleTrack(const Track<Vec3>& track, Seconds t, size_t* cursor = nullptr);
QuatXYZW SampleTrack(const Track<QuatXYZW>& track, Seconds t, size_t* cursor = nullptr);

// Time of frame i at a rate, computed one way everywhere so keys land exactly on frames.
Seconds FrameTime(size_t frame, double frame_rate);

// A clip's frames for an encoder: frame_count, or when 0 those from 0 to its
// duration at rate (CheckedFrameCount: NaN, infinite, negative and over
// max-frames are errors naming the clip).
size_t ClipFrameCount(const Clip& clip, double rate, const Limits& limits = {});

// The frames sampling writes for a clip: its own frame count, or those from 0 to
// its duration at rate (> 0); checked against max-frames, and frames x joints
// against max-values. Every sampler (JSON, glTF, encoders) counts frames here.
uint64_t SampleFrameCount(const Clip& clip, double rate, const Limits& limits);

// One joint's local transform at frames 0..frames-1 at rate, for the encoders that store
// frames (the quantizing ones); a property without keys stays empty. Finite keys can still
// sample to infinity (two keys near the float limit interpolate past it), which no encoder
// can quantize: Error naming the joint and the clip when any sample is not finite.
struct FrameSamples {
  std::vector<Vec3> translation;
  std::vector<QuatXYZW> rotation;  // normalized
  std::vector<Vec3> scale;
};
FrameSamples SampleFrames(const Clip& clip, const JointTrack& track, size_t frames, double rate);

// Samples every track of a clip at one time. A property without keys takes the
// rest pose of the joint of the same name in rest_skeleton, else identity.
struct SampleClipJob {
  const Clip* clip = nullptr;
  const Skeleton* rest_skeleton = nullptr;  // optional
  Seconds time = 0;
  std::span<TransformTRS> output;           // one per clip->tracks
  bool Validate() const;
  bool Run() const;
};

// Model-space matrices from local transforms (one per joint) over a skeleton under the
// Matrix rule (model_pose.hpp has either rule and a clip's pose), for the offline formats
// (the playback runtime's SoA version is runtime::LocalToModelJob). False, model
// untouched, when a span is shorter than the skeleton or a joint comes before its parent.
bool LocalToModel(const Skeleton& skeleton, std::span<const TransformTRS> local, std::span<Mat4> model);

// How far apart two clips' local poses are: every joint either clip keys (by name; one
// without a track holds the rest pose), at frames 0..frame_count-1 of `a` at a's rate.
// Used to tell an edited clip from the one a file holds, and by the fidelity tests.
struct PoseDifference {
  double rotation = 0;     // radians: the largest angle between the two rotations
  double translation = 0;  // model units: the largest distance between the translations
  double scale = 0;        // the largest difference of a scale component
  uint64_t frames = 0;     // frames compared
};
PoseDifference ComparePoses(const Clip& a, const Clip& b, const Skeleton* rest_skeleton, const Limits& limits = {});

// True when the frame is visible (tracks without a visibility list always are).
bool IsVisible(const JointTrack& track, size_t frame);

}  // namespace animkit
