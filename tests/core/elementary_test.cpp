// core/elementary.hpp: within a few units in the last place of the C library's double
// functions (glibc's are within 1 of the exact value) over the arguments animation meets,
// the special values IEEE 754 gives them, and values written from the definitions.
#include <animkit/core/elementary.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <random>

namespace animkit {
namespace {

// Within 2 units in the last place of the C library's (4 and 32 where the header says).
// The distance between a and b in units in the last place (0 when both are the same NaN kind).
double Ulps(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e30;
  if (a == b) return 0;
  const double ulp = std::nextafter(std::fabs(b), std::numeric_limits<double>::infinity()) - std::fabs(b);
  return std::fabs(a - b) / ulp;
}

void ExpectClose(const char* name, const std::function<double(double)>& ours, double (*theirs)(double), double lo,
                 double hi, double bound = 2) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> pick(lo, hi);
  double worst = 0, at = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = pick(random);
    const double u = Ulps(ours(x), theirs(x));
    if (u > worst) worst = u, at = x;
  }
  EXPECT_LE(worst, bound) << name << " at " << at << ": " << ours(at) << " against " << theirs(at);
}

TEST(Elementary, WithinAFewUlpsOfTheCLibrary) {
  ExpectClose("sin", [](double x) { return Sin(x); }, std::sin, -20, 20);
  ExpectClose("cos", [](double x) { return Cos(x); }, std::cos, -20, 20);
  ExpectClose("sin large", [](double x) { return Sin(x); }, std::sin, -1e5, 1e5);
  ExpectClose("tan", [](double x) { return Tan(x); }, std::tan, -1.5, 1.5, 4);
  ExpectClose("atan", [](double x) { return Atan(x); }, std::atan, -50, 50);
  ExpectClose("asin", [](double x) { return Asin(x); }, std::asin, -1, 1, 4);
  ExpectClose("acos", [](double x) { return Acos(x); }, std::acos, -1, 1, 4);
  ExpectClose("exp", [](double x) { return Exp(x); }, std::exp, -700, 700);
  ExpectClose("log", [](double x) { return Log(x); }, std::log, 1e-300, 1e300);
  ExpectClose("log near 1", [](double x) { return Log(x); }, std::log, 0.5, 2);
  ExpectClose("atan2", [](double x) { return Atan2(x, 0.75); }, [](double x) { return std::atan2(x, 0.75); }, -10, 10);
  ExpectClose("atan2 left", [](double x) { return Atan2(x, -0.75); }, [](double x) { return std::atan2(x, -0.75); },
              -10, 10);
  ExpectClose("pow", [](double x) { return Pow(x, 2.4); }, [](double x) { return std::pow(x, 2.4); }, 0, 1, 32);
  ExpectClose("pow 1/2.4", [](double x) { return Pow(x, 1 / 2.4); }, [](double x) { return std::pow(x, 1 / 2.4); }, 0,
              1, 32);
  ExpectClose("hypot", [](double x) { return Hypot(x, 3.5); }, [](double x) { return std::hypot(x, 3.5); }, -100, 100);
}

TEST(Elementary, ValuesFromTheDefinitions) {
  constexpr double kPi = std::numbers::pi;
  EXPECT_EQ(Sin(0.0), 0.0);
  EXPECT_EQ(Cos(0.0), 1.0);
  EXPECT_NEAR(Sin(kPi / 6), 0.5, 2.3e-16);
  EXPECT_NEAR(Cos(kPi / 3), 0.5, 2.3e-16);
  EXPECT_NEAR(Tan(kPi / 4), 1.0, 2e-16);
  EXPECT_NEAR(Atan(1.0), kPi / 4, 1e-16);
  EXPECT_EQ(Atan2(0.0, -1.0), kPi);
  EXPECT_EQ(Atan2(1.0, 0.0), kPi / 2);
  EXPECT_EQ(Atan2(-1.0, 0.0), -kPi / 2);
  EXPECT_EQ(Acos(-1.0), kPi);
  EXPECT_EQ(Acos(1.0), 0.0);
  EXPECT_EQ(Asin(1.0), kPi / 2);
  EXPECT_EQ(Exp(0.0), 1.0);
  EXPECT_NEAR(Exp(1.0), std::numbers::e, 4.5e-16);
  EXPECT_EQ(Log(1.0), 0.0);
  EXPECT_NEAR(Log(2.0), std::numbers::ln2, 1.2e-16);
  EXPECT_EQ(Pow(2.0, 10.0), 1024.0);
  EXPECT_EQ(Pow(-2.0, 3.0), -8.0);
  EXPECT_EQ(Pow(2.0, -2.0), 0.25);
  EXPECT_EQ(Hypot(3.0, 4.0), 5.0);
}

TEST(Elementary, SpecialValuesAsIeee754) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(Sin(inf)));
  EXPECT_TRUE(std::isnan(Cos(nan)));
  EXPECT_TRUE(std::isnan(Acos(1.5)));
  EXPECT_TRUE(std::isnan(Log(-1.0)));
  EXPECT_TRUE(std::isnan(Pow(-2.0, 0.5)));
  EXPECT_EQ(Log(0.0), -inf);
  EXPECT_EQ(Exp(-inf), 0.0);
  EXPECT_EQ(Exp(1000.0), inf);
  EXPECT_EQ(Atan(inf), std::numbers::pi / 2);
  EXPECT_TRUE(std::signbit(Atan2(-0.0, 1.0)));
  EXPECT_EQ(Atan2(-0.0, -1.0), -std::numbers::pi);
  EXPECT_EQ(Pow(0.0, -1.0), inf);
  EXPECT_EQ(Pow(5.0, 0.0), 1.0);
  EXPECT_TRUE(std::signbit(Sin(-0.0)));
}

TEST(Elementary, FloatsAreTheDoubleResultRoundedOnce) {
  for (float x = -10; x < 10; x += 0.001f) {
    ASSERT_EQ(Sin(x), static_cast<float>(Sin(double{x})));
    ASSERT_EQ(Atan2(x, 0.5f), static_cast<float>(Atan2(double{x}, 0.5)));
  }
}

}  // namespace
}  // namespace animkit
