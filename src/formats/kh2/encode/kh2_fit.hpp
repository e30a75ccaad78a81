// KH2 key reduction: hermite segments fitted to a channel's samples, and the shared
// value, tangent and key time tables of a motion being built.
#pragma once

#include "formats/kh2/kh2_internal.hpp"

#include <map>

namespace animkit::kh2::detail {

struct FittedKey {
  size_t frame = 0;
  float in_tangent = 0, out_tangent = 0;
};

// Hermite keys through a subset of the samples (times t, values v): each segment is
// extended greedily while its best tangents keep every sample within tol.
std::vector<FittedKey> FitHermite(const std::vector<double>& t, const std::vector<float>& v, double tol);

// Shared tables of an interpolated motion being built: each distinct float stored once.
// A table past what the encoder indexes (32768 values or tangents: the indices are
// unsigned 16-bit, kept where readers that take them as signed agree; 16383 key times:
// 14 bits) sets full() instead of failing; the encoder then fits again with a looser
// tolerance.
class Tables {
 public:
  static constexpr size_t kMaxValues = 0x8000, kMaxTimes = 0x3FFF;
  explicit Tables(InterpolatedMotion& m) : m_(m) {}
  uint16_t Value(float v) { return static_cast<uint16_t>(Index(values_, m_.values, v, kMaxValues)); }
  uint16_t Tangent(float v) { return static_cast<uint16_t>(Index(tangents_, m_.tangents, v, kMaxValues)); }
  uint16_t Time(float v) { return static_cast<uint16_t>(Index(times_, m_.key_times, v, kMaxTimes)); }
  bool full() const { return full_; }

 private:
  size_t Index(std::map<uint32_t, size_t>& index, std::vector<float>& table, float v, size_t capacity);
  InterpolatedMotion& m_;
  std::map<uint32_t, size_t> values_, tangents_, times_;
  bool full_ = false;
};

// A curve's first key is unsigned 16-bit (docs/formats/kh2.md), but readers that take it
// as signed exist: the encoder keeps it below 32768, where both read the same.
constexpr size_t kMaxKeys = 0x7FFF;

// Copies a template curve, its keys re-indexed into the new tables (the same key types,
// times, values and tangents, so it evaluates bit for bit as before).
Curve CopyCurve(const InterpolatedMotion& from, const Curve& c, InterpolatedMotion& to, Tables& tables);

}  // namespace animkit::kh2::detail
