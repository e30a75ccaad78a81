// KH2 key reduction: hermite segments fitted to samples, shared tables.
#include "formats/kh2/encode/kh2_fit.hpp"

#include <algorithm>
#include <cmath>
#include <bit>

namespace animkit::kh2::detail {
namespace {

// A hermite segment between two samples as the evaluator computes it (double, from floats).
double HermiteAt(double u, double d, float v0, float v1, float out0, float in1) {
  const double u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * v0 + (u3 - 2 * u2 + u) * d * out0 + (-2 * u3 + 3 * u2) * v1 + (u3 - u2) * d * in1;
}

// The out-tangent of a and in-tangent of e (slopes per key-time unit) that fit the samples
// between them best (least squares, pulled slightly towards the chord), rounded to float;
// true when every sample in between is then within tol.
bool FitSegment(const std::vector<double>& t, const std::vector<float>& v, size_t a, size_t e, double tol,
                float& out_a, float& in_e) {
  const double d = t[e] - t[a];
  const double chord = (double(v[e]) - v[a]) / d;
  double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
  for (size_t k = a + 1; k < e; ++k) {
    const double u = (t[k] - t[a]) / d, u2 = u * u, u3 = u2 * u;
    const double b1 = (u3 - 2 * u2 + u) * d, b2 = (u3 - u2) * d;
    const double r = v[k] - ((2 * u3 - 3 * u2 + 1) * v[a] + (-2 * u3 + 3 * u2) * v[e]);
    s11 += b1 * b1, s12 += b1 * b2, s22 += b2 * b2, r1 += b1 * r, r2 += b2 * r;
  }
  const double lambda = 1e-9 * (s11 + s22) + 1e-12 * d * d;  // regularizes 0 or 1 inner samples
  s11 += lambda, s22 += lambda, r1 += lambda * chord, r2 += lambda * chord;
  const double det = s11 * s22 - s12 * s12;
  double x1 = chord, x2 = chord;
  if (std::abs(det) > 1e-300) {
    x1 = (r1 * s22 - r2 * s12) / det;
    x2 = (s11 * r2 - s12 * r1) / det;
  }
  if (!std::isfinite(x1) || !std::isfinite(x2) || std::abs(x1) > 1e30 || std::abs(x2) > 1e30) return false;
  out_a = static_cast<float>(x1);
  in_e = static_cast<float>(x2);
  for (size_t k = a + 1; k < e; ++k) {
    const double value = static_cast<float>(HermiteAt((t[k] - t[a]) / d, d, v[a], v[e], out_a, in_e));
    if (!(std::abs(value - v[k]) <= tol)) return false;
  }
  return true;
}

}  // namespace

std::vector<FittedKey> FitHermite(const std::vector<double>& t, const std::vector<float>& v, double tol) {
  std::vector<FittedKey> keys;
  const size_t n = v.size();
  keys.push_back({0, 0, 0});
  if (n < 2) return keys;
  size_t a = 0;
  while (a + 1 < n) {
    float out_a = 0, in_e = 0;
    size_t best = a + 1;
    FitSegment(t, v, a, a + 1, tol, out_a, in_e);  // two samples always fit
    float best_out = out_a, best_in = in_e;
    for (size_t e = a + 2; e < n; ++e) {
      if (!FitSegment(t, v, a, e, tol, out_a, in_e)) break;
      best = e, best_out = out_a, best_in = in_e;
    }
    keys.back().out_tangent = best_out;
    keys.push_back({best, best_in, 0});
    a = best;
  }
  return keys;
}

size_t Tables::Index(std::map<uint32_t, size_t>& index, std::vector<float>& table, float v, size_t capacity) {
  auto [it, added] = index.emplace(std::bit_cast<uint32_t>(v), table.size());
  if (added) table.push_back(v);
  if (it->second >= capacity) {
    full_ = true;
    return 0;
  }
  return it->second;
}

Curve CopyCurve(const InterpolatedMotion& from, const Curve& c, InterpolatedMotion& to, Tables& tables) {
  Curve out = c;
  out.first_key = static_cast<uint16_t>(std::min(to.keys.size(), kMaxKeys));
  for (int k = 0; k < c.key_count; ++k) {
    const Key& key = from.keys[size_t(c.first_key) + size_t(k)];
    Key nk;
    const uint16_t time = tables.Time(from.key_times[size_t(key.time_index())]);
    nk.packed = static_cast<uint16_t>((time << 2) | (key.packed & 3));
    nk.value = tables.Value(from.values[size_t(key.value)]);
    const bool uses_out = key.type() == KeyType::Hermite && k + 1 < c.key_count;
    const bool uses_in = k > 0 && from.keys[size_t(c.first_key) + size_t(k) - 1].type() == KeyType::Hermite;
    nk.out_tangent = uses_out ? tables.Tangent(from.tangents[size_t(key.out_tangent)]) : 0;
    nk.in_tangent = uses_in ? tables.Tangent(from.tangents[size_t(key.in_tangent)]) : 0;
    to.keys.push_back(nk);
  }
  return out;
}

}  // namespace animkit::kh2::detail
