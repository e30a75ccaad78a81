// KH2 constraints, activations and limiters, hand-built: each motion is laid out, written
// and read back, then evaluated; expected values are worked out by hand from the records.
#include <animkit/formats/kh2.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <tuple>

namespace animkit {
extern const FormatDescriptor kKh2MotionFormat;
namespace {

using namespace kh2;

const double kHalf = std::sqrt(0.5);

// A motion of root bones placed by initial pose values (channel -> value per bone),
// evaluated in bone order; constraints, activations and limiters as given.
struct Rig {
  std::vector<std::vector<std::pair<int, float>>> bones;
  std::vector<Constraint> constraints;
  std::vector<Activation> activations;
  std::vector<Limiter> limiters;
  std::vector<int> parents;

  Motion Build() const {
    Motion m;
    InterpolatedMotion& im = m.interpolated;
    im.bone_count = int16_t(bones.size());
    for (size_t b = 0; b < bones.size(); ++b)
      for (const auto& [channel, value] : bones[b]) im.initial_pose.push_back({int16_t(b), int16_t(channel), value});
    im.constraints = constraints;
    im.activations = activations;
    im.limiters = limiters;
    for (size_t b = 0; b < bones.size(); ++b) im.joints.push_back({int16_t(b), 0});
    LayoutMotion(m);
    return ParseMotion(SerializeMotion(m));
  }
};

struct Evaluated {
  std::vector<TransformTRS> model;
  std::vector<std::string> plan_warnings, run_warnings;
};

Evaluated Evaluate(const Rig& rig, float key_time) {
  const Motion m = rig.Build();
  // The readings of the unverified types are what these tests check: applied.
  const EvaluationPlan plan = PlanEvaluation(m.interpolated, {}, rig.parents, {.unverified_constraints = true});
  Evaluated out;
  std::vector<ChannelValues> channels(plan.joint_count());
  out.model.resize(plan.joint_count());
  PoseJob job{&m.interpolated, &plan, key_time, channels, out.model};
  job.warnings = &out.run_warnings;
  EXPECT_TRUE(job.Run());
  out.plan_warnings = plan.warnings;
  return out;
}

void ExpectVec(Vec3 got, double x, double y, double z, double tol = 1e-5) {
  EXPECT_NEAR(got.x, x, tol);
  EXPECT_NEAR(got.y, y, tol);
  EXPECT_NEAR(got.z, z, tol);
}

Constraint Make(ConstraintType type, int joint, int source, int limiter = -1) {
  Constraint c;
  c.type = uint8_t(type);
  c.temporary_active = 1;
  c.joint = int16_t(joint);
  c.source = int16_t(source);
  c.limiter = int16_t(limiter);
  return c;
}

// Channels: 0-2 scale, 3-5 rotation, 6-8 translation.
// Bone 0: rotated 90 degrees about z, at (1, 2, 3), scale (1, 3, 1); bone 1: at (5, 0, 0), scale 2.
Rig TwoBones() {
  Rig r;
  r.bones = {{{1, 3}, {5, float(std::numbers::pi / 2)}, {6, 1}, {7, 2}, {8, 3}}, {{0, 2}, {1, 2}, {2, 2}, {6, 5}}};
  return r;
}

TEST(Kh2Constraints, PositionOrientationScalePathAndTwoPoints) {
  Rig r = TwoBones();
  r.constraints = {Make(ConstraintType::Position, 1, 0)};
  Evaluated e = Evaluate(r, 0);
  ExpectVec(e.model[1].translation, 1, 2, 3);
  test::ExpectQuat(e.model[1].rotation, 0, 0, 0, 1, 1e-6);
  ExpectVec(e.model[1].scale, 2, 2, 2);
  EXPECT_TRUE(e.plan_warnings.empty());

  r.constraints = {Make(ConstraintType::Orientation, 1, 0)};
  e = Evaluate(r, 0);
  test::ExpectQuat(e.model[1].rotation, 0, 0, kHalf, kHalf, 1e-6);
  ExpectVec(e.model[1].scale, 2, 2, 2);  // own scale kept
  ExpectVec(e.model[1].translation, 5, 0, 0);

  r.constraints = {Make(ConstraintType::Scale, 1, 0)};
  e = Evaluate(r, 0);
  ExpectVec(e.model[1].scale, 1, 3, 1);
  ASSERT_EQ(e.plan_warnings.size(), 1u);  // unverified rule, said once
  EXPECT_NE(e.plan_warnings[0].find("joint 1: Scale constraint (type 6)"), std::string::npos) << e.plan_warnings[0];

  r.constraints = {Make(ConstraintType::Path, 1, 0)};
  ExpectVec(Evaluate(r, 0).model[1].translation, 1, 2, 3);

  r.constraints = {Make(ConstraintType::TwoPoints, 1, 0)};  // midway: (5 + 1, 0 + 2, 0 + 3) / 2
  ExpectVec(Evaluate(r, 0).model[1].translation, 3, 1, 1.5);
}

TEST(Kh2Constraints, DirectionAndUpVectorTurnTheJointsAxes) {
  Rig r;
  r.bones = {{{7, 5}}, {{8, 4}}, {}};  // bone 0 at (0, 5, 0), bone 1 at (0, 0, 4), bone 2 at the origin
  r.constraints = {Make(ConstraintType::Direction, 2, 0)};
  Evaluated e = Evaluate(r, 0);
  test::ExpectQuat(e.model[2].rotation, 0, 0, kHalf, kHalf, 1e-6);  // x turned onto +y: 90 degrees about z
  ExpectVec(Rotate(e.model[2].rotation, {1, 0, 0}), 0, 1, 0);

  r.constraints = {Make(ConstraintType::UpVector, 2, 1)};
  e = Evaluate(r, 0);
  test::ExpectQuat(e.model[2].rotation, kHalf, 0, 0, kHalf, 1e-6);  // y turned onto +z about x
  ExpectVec(Rotate(e.model[2].rotation, {1, 0, 0}), 1, 0, 0);

  // Direction, then Up Vector: x at bone 0 (+y), then y toward bone 1 (+z) about the new x.
  r.constraints = {Make(ConstraintType::Direction, 2, 0), Make(ConstraintType::UpVector, 2, 1)};
  e = Evaluate(r, 0);
  ExpectVec(Rotate(e.model[2].rotation, {1, 0, 0}), 0, 1, 0);
  ExpectVec(Rotate(e.model[2].rotation, {0, 1, 0}), 0, 0, 1);
}

Limiter MakeLimiter(uint32_t type, bool global, uint32_t bounds, Vec4f min, Vec4f max) {
  Limiter l;
  l.flags = type | (global ? 8u : 0u) | (bounds << 4);
  l.min = min;
  l.max = max;
  return l;
}

TEST(Kh2Constraints, PositionLimitBoxAndSphere) {
  Rig r;
  r.bones = {{{6, 10}}, {{6, 3}, {7, -4}, {8, 7}}};  // bone 0 at (10, 0, 0), bone 1 at (3, -4, 7)
  // Box, global: x max 1.5 (bit 1), y min -1 (bit 2): (3, -4, 7) -> (1.5, -1, 7).
  r.limiters = {MakeLimiter(2, true, 0b000110, {0, -1, 0, 0}, {1.5f, 0, 0, 0})};
  r.constraints = {Make(ConstraintType::PositionLimit, 1, 0, 0)};
  ExpectVec(Evaluate(r, 0).model[1].translation, 1.5, -1, 7);
  // Sphere, local to bone 0: offset (-7, -4, 7), length 10.6771, x max 2 -> scaled by 2 / 10.6771.
  r.limiters = {MakeLimiter(1, false, 0b000010, {}, {2, 0, 0, 0})};
  const double k = 2 / std::sqrt(49.0 + 16 + 49);
  ExpectVec(Evaluate(r, 0).model[1].translation, 10 - 7 * k, -4 * k, 7 * k);
  // Damping (unverified): x max 1, width 0.5, strength 1: x = 3 eases to 1 - 0.5 e^-5.
  r.limiters = {MakeLimiter(2, true, 0b000010, {}, {1, 0, 0, 0})};
  r.limiters[0].damping_width = 0.5f;
  r.limiters[0].damping_strength = 1;
  ExpectVec(Evaluate(r, 0).model[1].translation, 1 - 0.5 * std::exp(-5.0), -4, 7);
}

TEST(Kh2Constraints, RotationLimitRelativeToItsSource) {
  Rig r;
  r.bones = {{{5, 0.5f}}, {{5, 1.2f}}};  // about z: bone 0 at 0.5 rad, bone 1 at 1.2 rad
  r.limiters = {MakeLimiter(0, false, 0b100000, {}, {0, 0, 0.3f, 0})};  // z max 0.3 relative to bone 0
  r.constraints = {Make(ConstraintType::RotationLimit, 1, 0, 0)};
  test::ExpectQuat(Evaluate(r, 0).model[1].rotation, 0, 0, std::sin(0.4), std::cos(0.4), 1e-6);  // 0.8 rad
  r.limiters[0].flags |= 8;  // global: z at most 0.3 in model space
  test::ExpectQuat(Evaluate(r, 0).model[1].rotation, 0, 0, std::sin(0.15), std::cos(0.15), 1e-6);
  // Sphere: the angle relative to bone 0 (0.7) at most 0.25.
  r.limiters = {MakeLimiter(1, false, 0b000010, {}, {0.25f, 0, 0, 0})};
  test::ExpectQuat(Evaluate(r, 0).model[1].rotation, 0, 0, std::sin(0.375), std::cos(0.375), 1e-6);
}

TEST(Kh2Constraints, ActivationsSwitchAtTheirKeyTimes) {
  Rig r = TwoBones();
  r.constraints = {Make(ConstraintType::Position, 1, 0), Make(ConstraintType::Orientation, 1, 0)};
  r.constraints[0].activation_count = 2;  // on at 10, off at 20
  r.constraints[0].activation_start = 1;
  r.constraints[1].activation_count = 1;  // on from 4; off before
  r.constraints[1].activation_start = 0;
  r.activations = {{4, 1}, {10, 1}, {20, 0}};
  for (const auto& [t, position_on, orientation_on] :
       {std::tuple{0.f, false, false}, {5.f, false, true}, {9.99f, false, true}, {10.f, true, true},
        {15.f, true, true}, {20.f, false, true}, {100.f, false, true}}) {
    const Evaluated e = Evaluate(r, t);
    if (position_on) ExpectVec(e.model[1].translation, 1, 2, 3);
    else ExpectVec(e.model[1].translation, 5, 0, 0);
    if (orientation_on) test::ExpectQuat(e.model[1].rotation, 0, 0, kHalf, kHalf, 1e-6);
    else test::ExpectQuat(e.model[1].rotation, 0, 0, 0, 1, 1e-6);
  }
}

TEST(Kh2Constraints, ALaterConstraintOverridesAnEarlierOne) {
  Rig r = TwoBones();
  r.bones.push_back({{6, -8}});
  r.constraints = {Make(ConstraintType::Position, 2, 0), Make(ConstraintType::Position, 2, 1)};
  ExpectVec(Evaluate(r, 0).model[2].translation, 5, 0, 0);
}

TEST(Kh2Constraints, BadReferencesAreSkippedWithAWarning) {
  Rig r = TwoBones();
  r.constraints = {Make(ConstraintType::Position, 7, 0),     Make(ConstraintType::Position, 1, -3),
                   Make(ConstraintType::Position, 0, 1),     Make(ConstraintType::Position, 1, 0, 4),
                   Make(ConstraintType::Camera, 1, 0),       Make(ConstraintType::RotationLimit, 1, 0),
                   Make(ConstraintType::Position, 1, 1),     Make(ConstraintType(200), 1, 0)};
  const Evaluated e = Evaluate(r, 0);
  ASSERT_EQ(e.plan_warnings.size(), 8u);
  for (const char* want : {"joint 7: Position constraint (type 0): the joint is not one of the motion's 2",
                           "joint 1: Position constraint (type 0): source joint -3 is not one",
                           "joint 0: Position constraint (type 0): source joint 1 is not evaluated before the joint",
                           "joint 1: Position constraint (type 0): limiter 4 is not one of the motion's 0",
                           "joint 1: Camera constraint (type 7): the game's rule for this type is not known",
                           "joint 1: Rotation Limit constraint (type 13): a limit without a limiter",
                           "joint 1: Position constraint (type 0): source joint 1 is not evaluated before the joint",
                           "joint 1: unknown constraint (type 200): the game's rule for this type is not known"}) {
    bool found = false;
    for (const std::string& w : e.plan_warnings) found = found || w.find(want) != std::string::npos;
    EXPECT_TRUE(found) << want;
  }
  ExpectVec(e.model[1].translation, 5, 0, 0);  // forward kinematics
  ExpectVec(e.model[0].translation, 1, 2, 3);
}

TEST(Kh2Constraints, ANonFiniteResultKeepsThePoseBeforeIt) {
  Rig r = TwoBones();
  r.bones[0] = {{6, std::numeric_limits<float>::infinity()}};
  // Position would move bone 1 to infinity; Direction's aim at it normalizes to no turn.
  r.constraints = {Make(ConstraintType::Position, 1, 0), Make(ConstraintType::Direction, 1, 0)};
  const Evaluated e = Evaluate(r, 0);
  ExpectVec(e.model[1].translation, 5, 0, 0);
  test::ExpectQuat(e.model[1].rotation, 0, 0, 0, 1, 1e-6);
  ASSERT_EQ(e.run_warnings.size(), 1u);
  EXPECT_NE(e.run_warnings[0].find("joint 1: Position constraint (type 0) at key time 0"), std::string::npos)
      << e.run_warnings[0];
}

// ---------------------------------------------------------------------------
// The activation table as laid out and read.

Bytes WithActivations() {
  Rig r = TwoBones();
  r.constraints = {Make(ConstraintType::Position, 1, 0), Make(ConstraintType::Orientation, 1, 0)};
  r.constraints[0].activation_count = 2;
  r.constraints[0].activation_start = 1;
  r.constraints[1].activation_count = 1;
  r.activations = {{4, 1}, {10, 1}, {20, 0}};
  return SerializeMotion(r.Build());
}

template <class T>
T At(const Bytes& b, size_t pos) {
  T v;
  std::memcpy(&v, b.data() + pos, sizeof v);
  return v;
}

TEST(Kh2Activations, ReadFromTheTableAtHeader0x48) {
  const Bytes b = WithActivations();
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, b);
  const size_t constraints = 0x90 + size_t(At<int32_t>(b, 0xA0 + 0x40));
  const size_t table = 0x90 + size_t(At<int32_t>(b, 0xA0 + 0x48));
  EXPECT_EQ(table, constraints + 2 * 12);  // laid out after the constraints
  EXPECT_EQ(At<int16_t>(b, constraints + 8), 2);  // constraint 0: count 2, start 1
  EXPECT_EQ(At<int16_t>(b, constraints + 10), 1);
  EXPECT_EQ(At<float>(b, table + 8), 10.f);
  EXPECT_EQ(At<int32_t>(b, table + 20), 0);
  const Motion m = ParseMotion(b);
  ASSERT_EQ(m.interpolated.activations.size(), 3u);
  EXPECT_EQ(m.interpolated.activations[0].time, 4.f);
  EXPECT_EQ(m.interpolated.activations[1].active, 1);
  EXPECT_EQ(m.interpolated.activations[2].time, 20.f);
  EXPECT_EQ(m.interpolated.activations[2].active, 0);
  EXPECT_GE(size_t(m.interpolated.limiter_offset) + 0x90, table + 24);
}

TEST(Kh2Activations, BadRangesAreErrorsAtTheConstraint) {
  const Bytes good = WithActivations();
  const size_t constraints = 0x90 + size_t(At<int32_t>(good, 0xA0 + 0x40));
  Bytes b = good;
  b[constraints + 8] = 0xFF, b[constraints + 9] = 0xFF;  // count -1
  std::string e = test::ReadError(kKh2MotionFormat, b);
  EXPECT_NE(e.find("offset " + Hex(constraints + 8)), std::string::npos) << e;
  EXPECT_NE(e.find("activation count -1 is negative"), std::string::npos) << e;
  b = good;
  b[constraints + 11] = 0x80;  // start negative
  e = test::ReadError(kKh2MotionFormat, b);
  EXPECT_NE(e.find("offset " + Hex(constraints + 10)), std::string::npos) << e;
  b = good;
  b[constraints + 11] = 0x40;  // start 0x4001: past the entry
  e = test::ReadError(kKh2MotionFormat, b);
  EXPECT_NE(e.find("offset " + Hex(constraints + 8)), std::string::npos) << e;
  EXPECT_NE(e.find("run past the end of the entry"), std::string::npos) << e;
}

// Found by fuzzing: with no activation in use, the reader does not check the table's offset
// (the game never reads it), so the writer must not place an empty table there either.
TEST(Kh2Activations, AnEmptyTableAnywhereWritesBackItsOwnBytes) {
  Bytes b = WithActivations();
  const size_t constraints = 0x90 + size_t(At<int32_t>(b, 0xA0 + 0x40));
  for (size_t c = 0; c < 2; ++c) b[constraints + c * 12 + 8] = 0, b[constraints + c * 12 + 9] = 0;  // counts 0
  const int32_t far = 0x10000000;
  std::memcpy(b.data() + 0xA0 + 0x48, &far, 4);
  EXPECT_TRUE(ParseMotion(b).interpolated.activations.empty());
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, b);
}

TEST(Kh2Activations, EveryTruncationFailsWithAPlace) {
  const Bytes data = WithActivations();
  static size_t full;
  full = data.size();
  test::ExpectEveryTruncationFails(kKh2MotionFormat, data, [](size_t n) { return n + 16 > full; });
}

}  // namespace
}  // namespace animkit
