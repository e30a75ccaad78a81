// A clip's curves as its file stores them, whatever the format: per channel of a joint its
// keys, with their interpolation and slopes, so that an editor can key exactly what the game
// keys (docs/blender.md, "The import file"). A document whose format stores curves gives them
// and takes edits back (Document::StoredCurves, WithCurves: core/format.hpp); frames are the
// clip's (seconds * frame_rate).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

enum class CurveProperty : uint8_t { Location, RotationEuler, Scale };
// Outside the keys: hold the end value, repeat, repeat shifted by the end-to-start change, zero.
enum class CurveCycle : uint8_t { Clamp, Offset, Repeat, Zero };
// The segment from a key to the next (codes as the import file stores them).
enum class CurveInterpolation : uint8_t { Constant = 0, Linear = 1, Hermite = 2 };

struct CurveKey {
  float frame = 0;  // clip frames
  float value = 0;
  float in_slope = 0, out_slope = 0;  // value per frame (Hermite: the segment's end and start slopes)
  CurveInterpolation interpolation = CurveInterpolation::Linear;
  bool operator==(const CurveKey&) const = default;
};

struct StoredChannel {
  int joint = 0;           // the clip's track index
  std::string joint_name;  // the track's joint
  CurveProperty property = CurveProperty::Location;
  int axis = 0;  // 0..2
  CurveCycle pre = CurveCycle::Clamp, post = CurveCycle::Clamp;
  std::vector<CurveKey> keys;  // sorted by frame in files the game plays
};

// An axis no curve moves of a property a curve moves on another axis: its value all clip long.
struct StoredConstant {
  int joint = 0;
  std::string joint_name;
  CurveProperty property = CurveProperty::Location;
  int axis = 0;
  float value = 0;
};

struct StoredCurves {
  // The Euler order rotation_euler composes in, as Blender names it ("XYZ": X applied first).
  std::string rotation_mode = "XYZ";
  std::vector<StoredChannel> channels;
  std::vector<StoredConstant> constants;
  // Joints whose pose something besides their curves sets (a constraint, IK, a limiter, an
  // expression): their channels are listed too, but the clip's pose of them is not these curves.
  std::vector<int> driven;
  size_t KeyCount() const;
  bool Driven(int joint) const;
};

// One clip's curves: what a document gives per clip, and what an edit of one clip carries.
struct ClipCurves {
  std::string clip;
  StoredCurves curves;
};

// What writing edited curves back did (Document::WithCurves).
struct CurvesReplaceReport {
  size_t replaced = 0;   // channels written with new keys
  size_t unchanged = 0;  // channels equal to the file's
  // What the file's tables grew by: keys, key times, values and tangents appended.
  size_t appended_keys = 0, appended_times = 0, appended_values = 0, appended_tangents = 0;
  std::vector<std::string> notes;  // e.g. a motion shared by several clips
};

// A channel's value at a frame, as the game evaluates its curve (cycles outside the keys).
double EvaluateStoredChannel(const StoredChannel& channel, double frame);

std::string_view ToString(CurveProperty property);
std::string_view ToString(CurveCycle cycle);
std::optional<CurveProperty> ParseCurveProperty(std::string_view text);
std::optional<CurveCycle> ParseCurveCycle(std::string_view text);

}  // namespace animkit
