#include "support/test_support.hpp"

#include <numbers>

namespace animkit {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

TEST(Math, EulerXYZAppliesXFirst) {
  // X then Y, 90 degrees each: the X axis goes to -Z (by Y), the Y axis goes to Z (by X) then to X (by Y).
  const QuatXYZW q = QuatFromEuler({kPi / 2, kPi / 2, 0}, EulerOrder::XYZ);
  const Vec3 y = Rotate(q, {0, 1, 0});
  EXPECT_NEAR(y.x, 1, 1e-6);
  EXPECT_NEAR(y.y, 0, 1e-6);
  EXPECT_NEAR(y.z, 0, 1e-6);
  const QuatXYZW r = QuatFromEuler({kPi / 2, kPi / 2, 0}, EulerOrder::ZYX);  // Y first, then X
  const Vec3 y2 = Rotate(r, {0, 1, 0});
  EXPECT_NEAR(y2.z, 1, 1e-6);
}

TEST(Math, EulerNearestIsTheSameRotationClosestToThePreviousAngles) {
  for (EulerOrder order : {EulerOrder::XYZ, EulerOrder::ZYX}) {
    // Past the pole: Y at 3 rad is the other solution of (pi, pi - 3, pi).
    const QuatXYZW q = QuatFromEuler({0.1f, 3.0f, -0.2f}, order);
    const auto e = EulerNearest(q, order, {0.1, 2.9, -0.2});
    EXPECT_NEAR(e[0], 0.1, 1e-5);
    EXPECT_NEAR(e[1], 3.0, 1e-5);
    EXPECT_NEAR(e[2], -0.2, 1e-5);
    // Whole turns follow the previous angles: 1.5 turns about X.
    const auto wound = EulerNearest(QuatFromEuler({0.5f, 0, 0}, order), order, {2 * kPi + 0.4, 0, 0});
    EXPECT_NEAR(wound[0], 2 * kPi + 0.5, 1e-5);
    // Always the same rotation.
    for (int i = 0; i < 50; ++i) {
      const Vec3 a{0.13f * float(i) - 3, 0.07f * float(i) - 1.5f, 2.5f - 0.11f * float(i)};
      const std::array<double, 3> previous{0.3 * i, -0.2 * i, 0.1 * i};
      const auto n = EulerNearest(QuatFromEuler(a, order), order, previous);
      EXPECT_LT(AngleBetween(QuatFromEuler({float(n[0]), float(n[1]), float(n[2])}, order), QuatFromEuler(a, order)),
                1e-5);
    }
  }
}

TEST(Math, EulerRoundTripsBothOrders) {
  for (EulerOrder order : {EulerOrder::XYZ, EulerOrder::ZYX}) {
    for (Vec3 e : {Vec3{0.3f, -0.2f, 1.1f}, Vec3{-2.5f, 1.2f, 0.4f}, Vec3{0, 0, 0}}) {
      const QuatXYZW q = QuatFromEuler(e, order);
      const Vec3 back = EulerFromQuat(q, order);
      EXPECT_LT(AngleBetween(q, QuatFromEuler(back, order)), 1e-5);
    }
  }
}

TEST(Math, SlerpTakesTheShortestPath) {
  const QuatXYZW a{0, 0, 0, 1};
  const QuatXYZW b = AxisAngle({0, 0, 1}, kPi / 2);
  const QuatXYZW nb{-b.x, -b.y, -b.z, -b.w};
  const QuatXYZW m = Slerp(a, nb, 0.5f);
  EXPECT_NEAR(AngleBetween(m, AxisAngle({0, 0, 1}, kPi / 4)), 0, 1e-5);
}

TEST(Math, MatrixDecomposeInverts) {
  TransformTRS t;
  t.translation = {1, -2, 3};
  t.rotation = Normalize({0.1f, 0.7f, -0.2f, 0.6f});
  t.scale = {2, 0.5f, 1.5f};
  const TransformTRS back = DecomposeTRS(MatrixFromTRS(t));
  EXPECT_NEAR(back.translation.y, -2, 1e-6);
  EXPECT_NEAR(back.scale.x, 2, 1e-5);
  EXPECT_NEAR(back.scale.y, 0.5, 1e-5);
  EXPECT_LT(AngleBetween(back.rotation, t.rotation), 1e-4);
  const Mat4 id = Multiply(MatrixFromTRS(t), InverseAffine(MatrixFromTRS(t)));
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(id.m[c][r], c == r ? 1 : 0, 1e-5);
}

}  // namespace
}  // namespace animkit
