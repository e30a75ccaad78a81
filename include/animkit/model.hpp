// The common animation model every format decodes to and encodes from.
// Time is in seconds (type Seconds), rotations are QuatXYZW, transforms are local
// (parent-relative) unless a Clip says Space::Model.
#pragma once

#include <animkit/math.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animkit {

using Seconds = float;

struct Joint {
  std::string name;
  int parent = -1;     // index into Skeleton::joints, -1 for a root
  TransformTRS rest;   // local (parent-relative) rest pose
};

struct Skeleton {
  std::vector<Joint> joints;  // parents come before their children
  int Find(std::string_view name) const;  // -1 when absent
  bool empty() const { return joints.empty(); }
};

enum class Interpolation { Step, Linear, Hermite };

// Keys of one property. Hermite keys carry tangents as derivatives per second
// (dvalue/dt, as glTF CUBICSPLINE stores them); step and linear leave them empty.
template <class T>
struct Track {
  Interpolation interpolation = Interpolation::Linear;
  std::vector<Seconds> times;
  std::vector<T> values;
  std::vector<T> in_tangents;
  std::vector<T> out_tangents;
  bool empty() const { return times.empty(); }
  size_t size() const { return times.size(); }
};

enum class Space { Local, Model };

struct JointTrack {
  std::string joint;  // joint name, or "#N" with N the file's own bone id
  Track<Vec3> translation;
  Track<QuatXYZW> rotation;
  Track<Vec3> scale;
  // Per-frame visibility (frame i at i / frame_rate); empty means always visible.
  std::vector<bool> visible;
};

struct Event {
  Seconds time = 0;
  std::string name;
  std::vector<double> params;
  std::optional<Seconds> end_time;  // set for range events
};

struct Clip {
  std::string name;
  double frame_rate = 30;   // frames per second of the file's own frames
  size_t frame_count = 0;   // frame i is at time i / frame_rate
  Seconds duration = 0;     // seconds
  bool loop = false;
  Space space = Space::Local;
  std::vector<JointTrack> tracks;  // in the file's own joint order
  std::vector<Event> events;
  nlohmann::json metadata = nlohmann::json::object();  // source format, raw header fields

  const JointTrack* FindTrack(std::string_view joint) const;
};

// What a file decodes to: an optional skeleton and any number of clips.
struct Scene {
  Skeleton skeleton;
  std::vector<Clip> clips;
  nlohmann::json metadata = nlohmann::json::object();
};

}  // namespace animkit
