#include <animkit/core/elementary.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

// Each function reduces its argument exactly (or to within a part in 2^-90) with constants
// split into parts whose products with a small integer are exact (Cody and Waite), then
// sums a Taylor series long enough that its truncation is below 2^-60 of the result. Only
// operations IEEE 754 rounds correctly are used (+ - * /, std::sqrt, std::frexp, std::fmod):
// the same bits on every platform.

namespace animkit {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// pi/2 in three parts of at most 20 significant bits (the last in full), 2/pi, pi/6 and pi/2.
constexpr double kHalfPi1 = 1.5707950592041016, kHalfPi2 = 1.2675900507019833e-06, kHalfPi3 = 7.443547480486623e-13;
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kHalfPi = 1.5707963267948966, kHalfPiLow = 6.123233995736766e-17;
constexpr double kSixthPi = 0.5235987755982989, kSixthPiLow = -5.360408832255455e-17;
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kLn2High = 0.6931467056274414, kLn2Low = 4.7493250390316726e-07;
constexpr double kInvLn2 = 1.4426950408889634;
// Beyond this, sin and cos reduce by fmod with the double nearest 2 pi first (rare in animation).
constexpr double kDirectReduction = 1 << 20;

// The coefficients 1/n (every odd n up to 41) and 1/n! (n up to 17), rounded once by the compiler.
struct Coefficients {
  double inverse[42] = {};
  double inverse_factorial[18] = {};
  constexpr Coefficients() {
    for (int n = 1; n < 42; ++n) inverse[n] = 1.0 / n;
    double factorial = 1;
    for (int n = 0; n < 18; ++n) {
      if (n > 0) factorial *= n;  // exact: 17! < 2^53
      inverse_factorial[n] = 1.0 / factorial;
    }
  }
};
constexpr Coefficients kCoefficients;

// 2^n for -1022 <= n <= 1023, from its bits.
double PowerOfTwo(int64_t n) { return std::bit_cast<double>(static_cast<uint64_t>(n + 1023) << 52); }

// The integer nearest x (ties to even) for |x| < 2^51, by arithmetic alone.
double Nearest(double x) {
  constexpr double kShift = 6755399441055744.0;  // 1.5 * 2^52
  return (x + kShift) - kShift;
}

// sin(r) and cos(r) for |r| <= pi/4: Taylor series to r^19 and r^20 (truncation < 2^-62 of the result).
double SinSeries(double r) {
  const double r2 = r * r;
  double p = -1.0 / 121645100408832000.0;  // -1/19!
  p = p * r2 + 1.0 / 355687428096000.0;     // 1/17!
  p = p * r2 - 1.0 / 1307674368000.0;
  p = p * r2 + 1.0 / 6227020800.0;
  p = p * r2 - 1.0 / 39916800.0;
  p = p * r2 + 1.0 / 362880.0;
  p = p * r2 - 1.0 / 5040.0;
  p = p * r2 + 1.0 / 120.0;
  p = p * r2 - 1.0 / 6.0;
  return r + r * r2 * p;
}

double CosSeries(double r) {
  const double r2 = r * r;
  double p = 1.0 / 2432902008176640000.0;  // 1/20!
  p = p * r2 - 1.0 / 6402373705728000.0;
  p = p * r2 + 1.0 / 20922789888000.0;
  p = p * r2 - 1.0 / 87178291200.0;
  p = p * r2 + 1.0 / 479001600.0;
  p = p * r2 - 1.0 / 3628800.0;
  p = p * r2 + 1.0 / 40320.0;
  p = p * r2 - 1.0 / 720.0;
  p = p * r2 + 1.0 / 24.0;
  return 1.0 - 0.5 * r2 + r2 * r2 * p;
}

// x = k pi/2 + r, |r| <= pi/4 (a little more where x is near a multiple); the quadrant k mod 4.
double Reduce(double x, int& quadrant) {
  if (std::fabs(x) > kDirectReduction) x = std::fmod(x, 4 * kHalfPi);
  const double k = Nearest(x * kTwoOverPi);
  quadrant = static_cast<int>(static_cast<long long>(k) & 3);
  return ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;
}

// sin(q pi/2 + r).
double SinOfQuadrant(double r, int q) {
  switch (q & 3) {
    case 0: return SinSeries(r);
    case 1: return CosSeries(r);
    case 2: return -SinSeries(r);
    default: return -CosSeries(r);
  }
}

// atan(t) for |t| <= tan(pi/12) = 0.268: series to t^41 (truncation < 2^-78).
double AtanSeries(double t) {
  const double t2 = t * t;
  double p = 0;
  for (int n = 41; n >= 3; n -= 2) p = p * t2 + ((n / 2) % 2 ? -kCoefficients.inverse[n] : kCoefficients.inverse[n]);
  return t + t * t2 * p;
}

// atan(x) for x >= 0.
double AtanPositive(double x) {
  if (x > 1) {
    if (x == kInf) return kHalfPi;
    return (kHalfPi - AtanPositive(1 / x)) + kHalfPiLow;
  }
  constexpr double kTanTwelfthPi = 0.2679491924311227;
  if (x <= kTanTwelfthPi) return AtanSeries(x);
  // atan(x) = pi/6 + atan((x sqrt3 - 1) / (x + sqrt3)): the second argument is within tan(pi/12).
  return kSixthPi + (AtanSeries((x * kSqrt3 - 1) / (x + kSqrt3)) + kSixthPiLow);
}

}  // namespace

double Sin(double x) {
  if (!std::isfinite(x)) return kNaN;
  if (std::fabs(x) < 1e-9) return x;  // sin x = x to the last bit
  int q = 0;
  const double r = Reduce(x, q);
  return SinOfQuadrant(r, q);
}

double Cos(double x) {
  if (!std::isfinite(x)) return kNaN;
  int q = 0;
  const double r = Reduce(x, q);
  return SinOfQuadrant(r, q + 1);  // cos x = sin(x + pi/2)
}

double Tan(double x) {
  if (!std::isfinite(x)) return kNaN;
  if (std::fabs(x) < 1e-9) return x;
  int q = 0;
  const double r = Reduce(x, q);
  const double s = SinSeries(r), c = CosSeries(r);
  return q % 2 == 0 ? s / c : -c / s;
}

double Atan(double x) {
  if (std::isnan(x)) return x;
  return x < 0 ? -AtanPositive(-x) : AtanPositive(x);
}

double Atan2(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  const double pi = 2 * kHalfPi;
  if (y == 0) {
    if (std::signbit(x)) return std::copysign(pi, y);  // x < 0 or x = -0
    return y;                                          // +-0
  }
  if (x == 0) return std::copysign(kHalfPi, y);
  if (std::isinf(x) && std::isinf(y)) return std::copysign(x > 0 ? kHalfPi / 2 : 3 * kHalfPi / 2, y);
  if (std::isinf(x)) return x > 0 ? std::copysign(0.0, y) : std::copysign(pi, y);
  if (std::isinf(y)) return std::copysign(kHalfPi, y);
  const double ay = std::fabs(y), ax = std::fabs(x);
  // The angle of (ax, ay) in [0, pi/2], from the smaller ratio for accuracy.
  double angle = ay <= ax ? AtanPositive(ay / ax) : (kHalfPi - AtanPositive(ax / ay)) + kHalfPiLow;
  if (x < 0) angle = (pi - angle) + 2 * kHalfPiLow;
  return std::copysign(angle, y);
}

double Asin(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return kNaN;
  return Atan2(x, std::sqrt((1 - x) * (1 + x)));
}

double Acos(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return kNaN;
  return Atan2(std::sqrt((1 - x) * (1 + x)), x);
}

double Exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return kInf;
  if (x < -745.1332191019412) return 0;
  const double k = Nearest(x * kInvLn2);
  const double r = (x - k * kLn2High) - k * kLn2Low;  // |r| <= 0.35
  // e^r: its series to r^17 (truncation < 2^-70).
  double e = kCoefficients.inverse_factorial[17];
  for (int n = 16; n >= 0; --n) e = e * r + kCoefficients.inverse_factorial[n];
  // e 2^k, as two powers of two (one could overflow where the product does not).
  const int64_t whole = static_cast<int64_t>(k), half = whole / 2;
  return e * PowerOfTwo(half) * PowerOfTwo(whole - half);
}

double Log(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  if (m < 0.7071067811865476) {
    m *= 2;
    --e;
  }
  // log m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.172: series to s^31 (truncation < 2^-78).
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double p = 0;
  for (int n = 31; n >= 3; n -= 2) p = p * s2 + kCoefficients.inverse[n];
  const double log_m = 2 * s + 2 * s * s2 * p;
  return e * kLn2High + (e * kLn2Low + log_m);
}

double Pow(double x, double y) {
  if (y == 0 || x == 1) return 1;
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  const bool odd_integer = std::fabs(y) < 9007199254740992.0 && std::fmod(std::fabs(y), 2) == 1;
  if (x == 0) return y < 0 ? (odd_integer ? std::copysign(kInf, x) : kInf) : (odd_integer ? x : 0.0);
  if (x < 0) {
    if (std::nearbyint(y) != y) return kNaN;
    const double magnitude = Pow(-x, y);
    return odd_integer ? -magnitude : magnitude;
  }
  if (std::isinf(y)) return (x > 1) == (y > 0) ? kInf : 0.0;
  if (std::isinf(x)) return y > 0 ? kInf : 0.0;
  if (y == 0.5) return std::sqrt(x);
  if (std::fabs(y) <= 64 && std::nearbyint(y) == y) {  // by squaring: exact while the result fits
    double result = 1, base = x;
    for (unsigned n = static_cast<unsigned>(std::fabs(y)); n; n >>= 1, base *= base) {
      if (n & 1) result *= base;
    }
    return y < 0 ? 1 / result : result;
  }
  return Exp(y * Log(x));
}

double Hypot(double x, double y) {
  if (std::isinf(x) || std::isinf(y)) return kInf;
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  double a = std::fabs(x), b = std::fabs(y);
  if (a < b) std::swap(a, b);
  if (a == 0) return 0;
  const double t = b / a;
  return a * std::sqrt(1 + t * t);
}

}  // namespace animkit
