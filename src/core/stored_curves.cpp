// Stored curves: evaluation as the game's curves evaluate (KH2's rule: docs/formats/kh2.md,
// "Evaluation"), and the names the import file uses.
#include <animkit/core/names.hpp>
#include <animkit/core/stored_curves.hpp>

#include <algorithm>
#include <cmath>

namespace animkit {

size_t StoredCurves::KeyCount() const {
  size_t n = 0;
  for (const StoredChannel& c : channels) n += c.keys.size();
  return n;
}

bool StoredCurves::Driven(int joint) const { return std::find(driven.begin(), driven.end(), joint) != driven.end(); }

namespace {

// Inside [first frame, last frame]: the segment starting at the last key at or before frame.
double Inside(const std::vector<CurveKey>& k, double frame) {
  const int n = int(k.size());
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (k[size_t(mid)].frame <= frame) lo = mid;
    else hi = mid - 1;
  }
  const CurveKey& a = k[size_t(lo)];
  if (lo >= n - 1) return a.value;
  const CurveKey& b = k[size_t(lo) + 1];
  const double d = double(b.frame) - a.frame;
  if (!(d > 0)) return a.value;
  const double u = (frame - a.frame) / d;
  switch (a.interpolation) {
    case CurveInterpolation::Constant: return a.value;
    case CurveInterpolation::Linear: return a.value + (double(b.value) - a.value) * u;
    case CurveInterpolation::Hermite: {
      const double m0 = d * a.out_slope, m1 = d * b.in_slope, u2 = u * u, u3 = u2 * u;
      return (2 * u3 - 3 * u2 + 1) * a.value + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * b.value + (u3 - u2) * m1;
    }
  }
  return a.value;
}

}  // namespace

double EvaluateStoredChannel(const StoredChannel& c, double frame) {
  const std::vector<CurveKey>& k = c.keys;
  if (k.empty()) return 0;
  if (k.size() == 1) return k[0].value;
  const double f0 = k.front().frame, fn = k.back().frame;
  if (frame >= f0 && frame <= fn) return Inside(k, frame);
  const CurveCycle cycle = frame < f0 ? c.pre : c.post;
  const double period = fn - f0;
  if (cycle == CurveCycle::Zero) return 0;
  if (cycle == CurveCycle::Clamp || !(period > 0) || !std::isfinite(frame)) return frame < f0 ? k.front().value : k.back().value;
  const double cycles = std::floor((frame - f0) / period);
  const double local = std::min(std::max(frame - cycles * period, f0), fn);
  double v = Inside(k, local);
  if (cycle == CurveCycle::Offset) v += cycles * (double(k.back().value) - k.front().value);
  return v;
}

namespace {

constexpr NameTable<CurveProperty, 3> kPropertyNames{
    {{{CurveProperty::Location, "location"}, {CurveProperty::RotationEuler, "rotation_euler"}, {CurveProperty::Scale, "scale"}}}};
constexpr NameTable<CurveCycle, 4> kCycleNames{{{{CurveCycle::Clamp, "clamp"},
                                                 {CurveCycle::Offset, "offset"},
                                                 {CurveCycle::Repeat, "repeat"},
                                                 {CurveCycle::Zero, "zero"}}}};

}  // namespace

std::string_view ToString(CurveProperty p) { return kPropertyNames.Name(p); }
std::string_view ToString(CurveCycle c) { return kCycleNames.Name(c); }
std::optional<CurveProperty> ParseCurveProperty(std::string_view text) { return kPropertyNames.Parse(text); }
std::optional<CurveCycle> ParseCurveCycle(std::string_view text) { return kCycleNames.Parse(text); }

}  // namespace animkit
