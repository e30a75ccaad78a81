// KH2 IK on hand-built motions: aim (kind 1) and two-bone chains (kinds 2/3) toward the
// target of the effector's Position constraint, unreachable and degenerate targets, the
// per-axis scale rule, and what is left as forward kinematics with a warning. Expected
// positions are worked out by hand (3-4-5 and 6-8-10 triangles).
#include "support/test_support.hpp"

#include <animkit/formats/kh2.hpp>

#include <cmath>
#include <iterator>

namespace animkit {
namespace {

constexpr kh2::ChannelValues kIdentity{1, 1, 1, 0, 0, 0, 0, 0, 0};

kh2::ChannelValues At(float x, float y, float z) { return {1, 1, 1, 0, 0, 0, x, y, z}; }

float Distance(Vec3 a, Vec3 b) {
  const Vec3 d = a - b;
  return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

struct Rig {
  kh2::InterpolatedMotion motion;
  std::vector<kh2::ChannelValues> base;
  std::vector<int> parents;
  kh2::EvaluationPlan plan;
  std::vector<kh2::ChannelValues> channels;
  std::vector<TransformTRS> model;

  void Plan() {
    plan = kh2::PlanEvaluation(motion, base, parents);
    channels.assign(plan.joint_count(), {});
    model.assign(plan.joint_count(), {});
  }
  void Run(float key_time = 0) {
    ASSERT_TRUE((kh2::PoseJob{&motion, &plan, key_time, channels, model}.Run()));
    for (const TransformTRS& t : model) {
      ASSERT_TRUE(std::isfinite(t.translation.x) && std::isfinite(t.translation.y) && std::isfinite(t.translation.z));
      ASSERT_TRUE(std::isfinite(t.rotation.x) && std::isfinite(t.rotation.w));
    }
  }
  // Where joint `joint` would sit composed from its parent's model pose (before its constraints).
  Vec3 Composed(int joint) const {
    return ComposePerAxis(model[size_t(parents[size_t(joint)])], kh2::TransformFromChannels(channels[size_t(joint)]))
        .translation;
  }
};

kh2::Constraint Position(int16_t joint, int16_t source) {
  kh2::Constraint c;
  c.type = uint8_t(kh2::ConstraintType::Position);
  c.temporary_active = 1;
  c.joint = joint;
  c.source = source;
  return c;
}

// Bones 0 (root), 1 (3 units along 0's x, bent 0.3 rad about z), 2 (4 units along 1's x);
// helper 3 the target. Joint table: 3, 0 (two-bone), 1 (calculated), 2 (translation and
// rotation from outside); joint 2 follows helper 3's position.
Rig TwoBone(Vec3 target, int kind = 2) {
  Rig r;
  r.motion.bone_count = 3;
  r.motion.total_bone_count = 4;
  r.motion.joints = {{3, 0}, {0, int16_t(kind)}, {1, 0x20}, {2, 0xC}, {0, 0}};
  r.motion.constraints = {Position(2, 3)};
  r.base = {kIdentity, {1, 1, 1, 0, 0, 0.3f, 3, 0, 0}, At(4, 0, 0), At(target.x, target.y, target.z)};
  r.parents = {-1, 0, 1, -1};
  return r;
}

TEST(Kh2Ik, TwoBoneReachesTheTargetKeepingLengths) {
  for (int kind : {2, 3}) {
    Rig r = TwoBone({0, 5, 0}, kind);
    r.Plan();
    EXPECT_TRUE(r.plan.warnings.empty()) << r.plan.warnings.front();
    EXPECT_TRUE(r.plan.driven[0] && r.plan.driven[1] && r.plan.driven[2]);
    r.Run();
    // Law of cosines: cos = (9 + 25 - 16) / (2 * 3 * 5) = 0.6 at the root, so the knee sits
    // 3 * 0.6 along the target direction (+y) and 3 * 0.8 across it, toward +x as the pose
    // bends (its plane's normal is +z).
    test::ExpectVec(r.model[1].translation, 2.4, 1.8, 0, 1e-5);
    const Vec3 end = r.Composed(2);
    test::ExpectVec(end, 0, 5, 0, 1e-5);
    EXPECT_NEAR(Distance(r.model[1].translation, r.model[0].translation), 3, 1e-5);
    EXPECT_NEAR(Distance(end, r.model[1].translation), 4, 1e-5);
    test::ExpectVec(r.model[2].translation, 0, 5, 0, 1e-5);
    EXPECT_EQ(r.model[0].translation, (Vec3{0, 0, 0}));
  }
}

TEST(Kh2Ik, UnreachableTargetStraightensTheChainTowardIt) {
  Rig r = TwoBone({0, 20, 0});
  r.Plan();
  r.Run();
  test::ExpectVec(r.model[1].translation, 0, 3, 0, 1e-5);
  test::ExpectVec(r.Composed(2), 0, 7, 0, 1e-5);
  test::ExpectVec(Rotate(r.model[0].rotation, {1, 0, 0}), 0, 1, 0, 1e-5);
  test::ExpectVec(Rotate(r.model[1].rotation, {1, 0, 0}), 0, 1, 0, 1e-5);
  test::ExpectVec(r.model[2].translation, 0, 20, 0, 1e-6);  // the constraint still places the effector
}

TEST(Kh2Ik, TooCloseTargetFoldsTheChain) {
  // 0.5 from the root, nearer than |3 - 4|: the reach clamps to 1, the chain folds.
  // At the fold the root's angle is acos(-1 + rounding): its sine grows as the square root
  // of float rounding, hence the looser tolerance.
  Rig r = TwoBone({0, 0.5f, 0});
  r.Plan();
  r.Run();
  test::ExpectVec(r.model[1].translation, 0, -3, 0, 2e-3);
  test::ExpectVec(r.Composed(2), 0, 1, 0, 2e-3);
  EXPECT_NEAR(Distance(r.model[1].translation, r.model[0].translation), 3, 1e-5);
  EXPECT_NEAR(Distance(r.Composed(2), r.model[1].translation), 4, 1e-5);
}

TEST(Kh2Ik, DegenerateChainsKeepThePose) {
  // Target at the root: no direction. The pose is forward kinematics: joint 1 at (3, 0, 0).
  Rig r = TwoBone({0, 0, 0});
  r.Plan();
  r.Run();
  test::ExpectVec(r.model[1].translation, 3, 0, 0, 1e-6);
  test::ExpectQuat(r.model[1].rotation, 0, 0, std::sin(0.15), std::cos(0.15), 1e-6);
  // A zero-length upper bone: nothing to bend.
  Rig z = TwoBone({0, 5, 0});
  z.base[1] = kIdentity;
  z.Plan();
  z.Run();
  test::ExpectVec(z.model[1].translation, 0, 0, 0, 1e-6);
  test::ExpectVec(z.Composed(2), 4, 0, 0, 1e-6);
  // A straight pose bends in the root's xy plane (its z axis the normal).
  Rig s = TwoBone({0, 5, 0});
  s.base[1] = At(3, 0, 0);
  s.Plan();
  s.Run();
  test::ExpectVec(s.model[1].translation, 2.4, 1.8, 0, 1e-5);
  test::ExpectVec(s.Composed(2), 0, 5, 0, 1e-5);
}

TEST(Kh2Ik, PerAxisScaleSetsTheBoneLengths) {
  // Root scale (2, 1, 1): under the per-axis rule the bones are 6 and 8 long (both lie
  // along their parents' x axes), so a target 10 away is the 6-8-10 triangle.
  Rig r = TwoBone({0, 10, 0});
  r.base[0] = {2, 1, 1, 0, 0, 0, 0, 0, 0};
  r.Plan();
  r.Run();
  test::ExpectVec(r.model[1].translation, 6 * 0.8, 6 * 0.6, 0, 1e-5);
  test::ExpectVec(r.Composed(2), 0, 10, 0, 1e-5);
  test::ExpectVec(r.model[1].scale, 2, 1, 1, 1e-6);
}

// Bone 0 at (1, 1, 1) turned 0.5 rad about z, bone 1 ten units along its x; helper 2 the
// target; bone 0 aims (kind 1) at its child's Position target.
Rig Aim(Vec3 target) {
  Rig r;
  r.motion.bone_count = 2;
  r.motion.total_bone_count = 3;
  r.motion.joints = {{2, 0}, {0, 1}, {1, 0}, {0, 0}};
  r.motion.constraints = {Position(1, 2)};
  r.base = {{1.5f, 1, 1, 0, 0, 0.5f, 1, 1, 1}, At(10, 0, 0), At(target.x, target.y, target.z)};
  r.parents = {-1, 0, -1};
  return r;
}

TEST(Kh2Ik, AimPointsTheXAxisExactlyAtTheTarget) {
  Rig r = Aim({4, 5, 13});  // (3, 4, 12) from the joint: 13 long
  r.Plan();
  EXPECT_TRUE(r.plan.warnings.empty());
  EXPECT_TRUE(r.plan.driven[0]);
  r.Run();
  test::ExpectVec(Rotate(r.model[0].rotation, {1, 0, 0}), 3.0 / 13, 4.0 / 13, 12.0 / 13, 1e-6);
  test::ExpectVec(r.model[0].translation, 1, 1, 1, 0);
  test::ExpectVec(r.model[0].scale, 1.5, 1, 1, 0);
  // Its child lies 15 along the aimed axis (10 scaled by 1.5); the constraint then puts it on the target.
  test::ExpectVec(r.Composed(1), 1 + 15 * 3.0 / 13, 1 + 15 * 4.0 / 13, 1 + 15 * 12.0 / 13, 1e-5);
  test::ExpectVec(r.model[1].translation, 4, 5, 13, 0);
}

TEST(Kh2Ik, AimFollowsTheConstraintsActivation) {
  // Off from key time 0, on from 30: before 30 the joint keeps its own rotation.
  Rig r = Aim({4, 5, 13});
  r.motion.constraints[0].activation_count = 2;
  r.motion.constraints[0].activation_start = 1;
  r.motion.activations = {{0, 1}, {0, 0}, {30, 1}};
  r.Plan();
  r.Run(10);
  test::ExpectQuat(r.model[0].rotation, 0, 0, std::sin(0.25), std::cos(0.25), 1e-6);
  r.Run(30);
  test::ExpectVec(Rotate(r.model[0].rotation, {1, 0, 0}), 3.0 / 13, 4.0 / 13, 12.0 / 13, 1e-6);
  // A target on the joint itself: no direction, the rotation stays.
  Rig same = Aim({1, 1, 1});
  same.Plan();
  same.Run();
  test::ExpectQuat(same.model[0].rotation, 0, 0, std::sin(0.25), std::cos(0.25), 1e-6);
}

TEST(Kh2Ik, WhatCannotBeSolvedIsSaid) {
  Rig none = TwoBone({0, 5, 0});
  none.motion.constraints.clear();  // no target
  none.Plan();
  ASSERT_EQ(none.plan.warnings.size(), 2u);
  EXPECT_NE(none.plan.warnings[0].find("joint 0 (flags 0x2): its effector, joint 2, has no Position constraint"),
            std::string::npos)
      << none.plan.warnings[0];
  EXPECT_NE(none.plan.warnings[1].find("joint 1 (flags 0x20) is marked calculated but no IK chain places it"),
            std::string::npos)
      << none.plan.warnings[1];
  EXPECT_FALSE(none.plan.driven[1]);
  none.Run();
  test::ExpectVec(none.model[1].translation, 3, 0, 0, 1e-6);  // forward kinematics

  Rig childless = Aim({4, 5, 13});
  childless.motion.joints = {{2, 0}, {1, 0}, {0, 1}, {0, 0}};  // the child comes before it
  childless.Plan();
  ASSERT_EQ(childless.plan.warnings.size(), 1u);
  EXPECT_NE(childless.plan.warnings[0].find("asks for aim IK but the joint table has no child"), std::string::npos);

  Rig late = Aim({4, 5, 13});
  late.motion.joints = {{0, 1}, {1, 0}, {2, 0}, {0, 0}};  // the target is evaluated after the joint
  late.Plan();
  // The constraint itself is skipped (its source comes later), then the IK says why it has no target.
  ASSERT_EQ(late.plan.warnings.size(), 3u);
  EXPECT_NE(late.plan.warnings[0].find("is not evaluated before the joint"), std::string::npos);
  EXPECT_NE(late.plan.warnings[1].find("is not evaluated before it"), std::string::npos);

  Rig external = TwoBone({0, 5, 0});
  external.motion.joints[1].flags = 0x82;
  external.Plan();
  ASSERT_EQ(external.plan.warnings.size(), 1u);
  EXPECT_NE(external.plan.warnings[0].find("external-effector table"), std::string::npos);
  external.Run();
  test::ExpectVec(external.Composed(2), 0, 5, 0, 1e-5);

  Rig off = TwoBone({0, 5, 0});  // the curves alone: no IK
  off.plan = kh2::PlanEvaluation(off.motion, off.base, off.parents, kh2::EvaluationSettings{false});
  off.channels.assign(4, {});
  off.model.assign(4, {});
  off.Run();
  test::ExpectVec(off.model[1].translation, 3, 0, 0, 1e-6);
}

TEST(Kh2Ik, ExternalEffectorGivesTheTarget) {
  // Flag 0x80: entry 0 of the external-effector table names helper 4 (at (0, 5, 0)), whose
  // own position is the target; the foot's Position constraint (helper 3, far away) is not.
  Rig r = TwoBone({0, 20, 0});
  r.motion.total_bone_count = 5;
  r.motion.joints = {{3, 0}, {4, 0}, {0, 0x82}, {1, 0x20}, {2, 0xC}, {0, 0}};
  r.motion.effectors = {4};
  r.base.push_back(At(0, 5, 0));
  r.parents.push_back(-1);
  r.Plan();
  EXPECT_TRUE(r.plan.warnings.empty()) << r.plan.warnings.front();
  r.Run();
  test::ExpectVec(r.model[1].translation, 2.4, 1.8, 0, 1e-5);
  test::ExpectVec(r.Composed(2), 0, 5, 0, 1e-5);
  // The external effector's own Position constraint, when it has one, gives the target instead.
  r.motion.constraints.push_back(Position(4, 3));
  r.base[3] = At(0, 10, 0);
  r.Plan();
  r.Run();
  test::ExpectVec(r.Composed(2), 0, 7, 0, 1e-5);  // 3 + 4 < 10: straight toward it
  test::ExpectVec(r.model[1].translation, 0, 3, 0, 1e-5);
  // An entry naming no joint: the chain's own effector, with a warning.
  r.motion.effectors = {99};
  r.Plan();
  ASSERT_EQ(r.plan.warnings.size(), 1u);
  EXPECT_NE(r.plan.warnings[0].find("entry 0 of the external-effector table, which names joint 99, out of range"),
            std::string::npos)
      << r.plan.warnings[0];
}

TEST(Kh2Ik, ExternalEffectorTableReadsAndWritesBackExactly) {
  kh2::Motion m;
  kh2::InterpolatedMotion& im = m.interpolated;
  im.bone_count = 2;
  im.frame_end = 1;
  kh2::BoneRecord h;
  h.index = 2;
  im.ik_helpers = {h};
  im.joints = {{2, 0}, {0, 0x81}, {1, 0}};
  im.effectors = {2, -3, 0x1234};
  kh2::LayoutMotion(m);
  EXPECT_EQ(im.effector_count, 3);
  const Bytes bytes = kh2::SerializeMotion(m);
  const size_t at = kh2::kReservedSize + size_t(im.effector_offset);
  ASSERT_LE(at + 6, bytes.size());
  EXPECT_EQ(bytes[at], 2);  // i16 little-endian each
  EXPECT_EQ(bytes[at + 2], 0xFD);
  EXPECT_EQ(bytes[at + 3], 0xFF);
  EXPECT_EQ(bytes[at + 4], 0x34);
  EXPECT_EQ(bytes[at + 5], 0x12);
  const kh2::Motion read = kh2::ParseMotion(bytes);
  EXPECT_EQ(read.interpolated.effectors, im.effectors);
  EXPECT_EQ(kh2::SerializeMotion(read), bytes);
}

// A real moveset's legs (interpolated.motion with Sora's model): thigh (kind 2), knee
// (calculated), foot (Position from a helper). At every frame the solved chain keeps its
// bone lengths and puts the foot on the helper wherever the helper is within reach.
TEST(Kh2Ik, RealLegsReachTheirTargets) {
  const std::string motion_path = test::FixturePath("kh2/interpolated.motion");
  const std::string model_path = test::FixturePath("kh2/P_EX100.mdlx");
  if (motion_path.empty() || model_path.empty()) GTEST_SKIP() << "../shared/fixtures/kh2 absent";
  const kh2::Motion motion = kh2::ParseMotion(ReadFileBytes(motion_path));
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(model_path));
  const kh2::InterpolatedMotion& im = motion.interpolated;
  const kh2::BarEntry* entry = nullptr;
  for (const kh2::BarEntry& e : bar.entries)
    if (e.model) entry = &e;
  ASSERT_NE(entry, nullptr);
  const Skeleton skeleton = kh2::SkeletonFromModel(*entry->model);
  Rig r;
  r.motion = im;
  r.base = kh2::RestChannels(skeleton, Value::object());
  for (const Joint& j : skeleton.joints) r.parents.push_back(j.parent);
  r.base.resize(size_t(im.bone_count), kIdentity);
  r.parents.resize(size_t(im.bone_count), -1);
  for (const kh2::BoneRecord& h : im.ik_helpers) {
    r.base.push_back(kh2::ChannelsFromBone(h));
    r.parents.push_back(h.parent);
  }
  r.Plan();
  for (const std::string& w : r.plan.warnings)  // unverified rules are said, not failures
    if (w.find("is not verified against the game") == std::string::npos) ADD_FAILURE() << w;
  size_t reached = 0;
  for (float t = im.frame_loop; t <= im.frame_end; t += 1) {
    r.Run(t);
    for (const auto& [thigh, knee, foot, helper] : {std::array{11, 12, 13, 236}, std::array{40, 41, 42, 237}}) {
      ASSERT_TRUE(r.plan.calculated[size_t(knee)]);
      const float upper = Distance(r.Composed(knee), r.model[size_t(thigh)].translation);
      EXPECT_NEAR(Distance(r.model[size_t(knee)].translation, r.model[size_t(thigh)].translation), upper, 1e-3);
      const Vec3 end = r.Composed(foot);
      const float lower = Distance(end, r.model[size_t(knee)].translation);
      const Vec3 target = r.model[size_t(helper)].translation;
      const float d = Distance(target, r.model[size_t(thigh)].translation);
      if (d < upper + lower - 1e-2f && d > std::fabs(upper - lower) + 1e-2f) {
        EXPECT_LT(Distance(end, target), 1e-2) << "frame " << t << " joint " << foot;
        ++reached;
      }
    }
  }
  EXPECT_GT(reached, 0u);
}

}  // namespace
}  // namespace animkit
