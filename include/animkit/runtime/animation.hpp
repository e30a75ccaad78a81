// The playback runtime's data: an animation laid out for sampling and a skeleton laid
// out for local-to-model. Standard library only; built offline by
// animkit::BuildRuntimeAnimation / BuildRuntimeSkeleton (animkit/offline/runtime_build.hpp).
//
// Layout (see docs/runtime.md): each channel (translation, rotation, scale) is one
// array of keys sorted by the time the sampler needs them, so playing forward reads
// memory in order. Key i of a channel is {track, index of its time in timepoints}
// (KeyHeader), its full-precision value (3 or 4 floats) and the distance back to the
// previous key of the same track (for playing backward). The first 2 * num_tracks keys
// are the first and second key of every track, in track order. Seek markers record the
// sampler's state at regular times so that a jump costs a short scan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace animkit::runtime {

// Most tracks (joints) an animation or skeleton may have.
inline constexpr int kMaxTracks = 32767;
// Most distinct key times an animation may have.
inline constexpr size_t kMaxTimepoints = 65536;
// Marks a 16-bit distance too large to store; the pair is then in a "far" table.
inline constexpr uint16_t kFar = 0xFFFF;

struct KeyHeader {
  uint16_t track;  // joint index
  uint16_t time;   // index into Animation::timepoints
};

// A (key, value) pair for distances that do not fit 16 bits; sorted by key.
struct FarEntry {
  uint32_t key;
  uint32_t value;
};

struct Channel {
  explicit Channel(int floats_per_value = 3) : width(floats_per_value) {}
  int width = 3;                      // floats per value: 3 (translation, scale) or 4 (rotation x, y, z, w)
  std::vector<KeyHeader> keys;        // sorted by the time each key is needed
  std::vector<float> values;          // width floats per key
  std::vector<uint16_t> previous;     // key i's previous key (same track) is i - previous[i]; kFar: see far_previous
  std::vector<FarEntry> far_previous; // {key, previous key index}
  // Seek markers: marker m (1-based; marker 0 is the start) holds, for every track, the
  // distance from marker_cursor[m - 1] back to the track's right key.
  std::vector<uint32_t> marker_cursor;  // per marker
  std::vector<uint16_t> marker_right;   // per marker * num_tracks; kFar: see far_marker
  std::vector<FarEntry> far_marker;     // {(marker - 1) * num_tracks + track, right key index}

  size_t size() const { return keys.size(); }
  size_t SizeBytes() const;
};

struct Animation {
  std::string name;
  float duration = 0;        // seconds (time of the last key)
  int num_tracks = 0;        // joints
  float marker_interval = 0; // seconds between seek markers (0: none)
  std::vector<float> timepoints;     // distinct key times in seconds, increasing
  std::vector<float> marker_times;   // time of marker m at [m - 1]
  Channel translations{3}, rotations{4}, scales{3};

  int num_soa_tracks() const { return (num_tracks + 3) / 4; }
  size_t num_keys() const { return translations.size() + rotations.size() + scales.size(); }
  // Bytes of the animation's data (what a runtime keeps in memory).
  size_t SizeBytes() const;
  // Every invariant the sampler relies on (sizes, indices in range, key order); the
  // sampler never reads outside the arrays of an animation that passes.
  bool Validate() const;
};

// 4 joints' local transforms, structure of arrays.
struct alignas(16) SoaTransform {
  float tx[4], ty[4], tz[4];
  float rx[4], ry[4], rz[4], rw[4];
  float sx[4], sy[4], sz[4];
};

// Column-major 4x4 matrix (m[column * 4 + row]), column vectors, as animkit::Mat4.
struct alignas(16) Float4x4 {
  float m[16];
  static Float4x4 Identity() { return {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}; }
};

struct Skeleton {
  std::vector<int16_t> parents;          // -1 for a root; parents come before children
  std::vector<std::string> names;
  std::vector<SoaTransform> rest_poses;  // num_soa_joints() entries
  int num_joints() const { return static_cast<int>(parents.size()); }
  int num_soa_joints() const { return (num_joints() + 3) / 4; }
  bool Validate() const;
};

// One joint's transform out of SoA data.
struct Transform {
  float t[3];
  float r[4];  // x, y, z, w
  float s[3];
};
Transform GetTransform(const SoaTransform* soa, int joint);
void SetTransform(SoaTransform* soa, int joint, const Transform& t);

}  // namespace animkit::runtime
