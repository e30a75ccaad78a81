// Sampling an animation at a time: playback (the context moves forward or backward
// from the last time) and random access (a jump restarts from the nearest seek marker).
#pragma once

#include <animkit/runtime/animation.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace animkit::runtime {

// Per-instance sampling state: for every track and channel, the two keys around the
// last sampled time, already unpacked in structure-of-arrays form. Reuse one context
// per playing instance; it binds itself to the animation it is used with.
class SamplingContext {
 public:
  SamplingContext() = default;
  explicit SamplingContext(int max_tracks) { Resize(max_tracks); }
  // Room for animations of up to max_tracks tracks (allocates).
  void Resize(int max_tracks);
  int max_tracks() const { return max_tracks_; }
  // Forgets the cached state: the next sample seeks.
  void Invalidate() { animation_ = nullptr; }

 private:
  friend struct SamplingJob;
  struct ChannelState {
    uint32_t cursor = 0;  // keys [0, cursor) have been taken in
    // Per 4 tracks, 4 floats each: t0, t1 (times of the left and right keys),
    // a[width] (left values), b[width] (right values).
    std::vector<float> blocks;
  };
  const Animation* animation_ = nullptr;
  float time_ = 0;
  int max_tracks_ = 0;
  ChannelState channels_[3];
  std::vector<uint32_t> rights_;  // scratch for seeking: each track's right key
};

struct SamplingJob {
  const Animation* animation = nullptr;
  SamplingContext* context = nullptr;
  float time = 0;                 // seconds; clamped to the first / last key of each track
  std::span<SoaTransform> output; // at least animation->num_soa_tracks()
  bool Validate() const;
  // Samples every track at time. False (output untouched) when Validate() fails.
  bool Run() const;
};

}  // namespace animkit::runtime
