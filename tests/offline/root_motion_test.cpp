// Root motion (docs/conventions.md, "Root motion"): VAdvanceView's per-frame deltas (facts
// 7.5: rotation R(t1) R(t0)^-1, translation R(t1)^-1 (T(t1) - T(t0)), nothing at the wrap)
// and the split of the root's ground travel and turn into a root_motion joint. The expected
// values are worked by hand from the keys.
#include "support/test_support.hpp"

#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/root_motion.hpp>

#include <cmath>
#include <numbers>

namespace animkit {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
const float kH = std::sqrt(0.5f);

// Frames at 0, 1, 2 s of the root ("hips"), Z up:
//   0: T (1,0,0), R identity;  1: T (1,2,0), R Rz90;  2: T (3,3,1), R Rz90 * Rx90.
Clip Walk() {
  Clip clip;
  clip.name = "walk";
  clip.SetFrames(3, 1);
  clip.loop = true;
  clip.root_motion = RootMotion{"hips", {0, 0, 1}};
  JointTrack t;
  t.joint = "hips";
  const QuatXYZW rz = AxisAngle({0, 0, 1}, kPi / 2), rx = AxisAngle({1, 0, 0}, kPi / 2);
  t.translation.Add(0, {1, 0, 0});
  t.translation.Add(1, {1, 2, 0});
  t.translation.Add(2, {3, 3, 1});
  t.rotation.Add(0, {0, 0, 0, 1});
  t.rotation.Add(1, rz);
  t.rotation.Add(2, Multiply(rz, rx));
  clip.tracks.push_back(std::move(t));
  JointTrack leg;
  leg.joint = "leg";
  leg.rotation.Add(0, AxisAngle({0, 1, 0}, 0.3f));
  clip.tracks.push_back(std::move(leg));
  return clip;
}

Skeleton Body() {
  Skeleton s;
  s.joints.push_back({"hips", -1, {}});
  s.joints.push_back({"leg", 0, {{0, 0, -1}, {0, 0, 0, 1}, {1, 1, 1}}});
  return s;
}

TEST(RootMotion, DeltasAsVAdvanceViewComputesThem) {
  const Clip clip = Walk();
  std::vector<RootMotionDelta> d(3);
  ASSERT_TRUE((RootMotionJob{&clip, nullptr, 0, d}.Run()));
  // Frame 0: no motion (the start, and the wrap of the looping clip).
  test::ExpectQuat(d[0].rotation, 0, 0, 0, 1);
  test::ExpectVec(d[0].translation, 0, 0, 0);
  // 0 -> 1: rotation Rz90 I^-1 = Rz90; translation Rz(-90) (0,2,0) = (2,0,0).
  test::ExpectQuat(d[1].rotation, 0, 0, kH, kH);
  test::ExpectVec(d[1].translation, 2, 0, 0, 1e-6);
  // 1 -> 2: Rz90 Rx90 Rz(-90) is 90 degrees about Rz90 x = y: Ry90. Translation
  // Rx(-90) Rz(-90) (2,1,1): Rz(-90) gives (1,-2,1), Rx(-90) (y,z) -> (z,-y): (1,1,2).
  test::ExpectQuat(d[2].rotation, 0, kH, 0, kH);
  test::ExpectVec(d[2].translation, 1, 1, 2, 1e-5);
}

TEST(RootMotion, ResampledAndUnkeyed) {
  Clip clip = Walk();
  std::vector<RootMotionDelta> d(5);  // 2 per second: frames at 0, 0.5, 1, 1.5, 2
  ASSERT_TRUE((RootMotionJob{&clip, nullptr, 2, d}.Run()));
  // 0 -> 0.5: T (1,1,0) - (1,0,0) = (0,1,0) under R = slerp(I, Rz90, 0.5) = Rz45: Rz(-45) (0,1,0).
  test::ExpectQuat(d[1].rotation, 0, 0, std::sin(kPi / 8), std::cos(kPi / 8), 1e-6);
  test::ExpectVec(d[1].translation, kH, kH, 0, 1e-6);
  // Without translation keys the root has no offsets: no translation delta.
  clip.tracks[0].translation = {};
  ASSERT_TRUE((RootMotionJob{&clip, nullptr, 0, std::span(d).first(3)}.Run()));
  test::ExpectVec(d[1].translation, 0, 0, 0);
  // A joint the clip does not key holds its rest: no motion at all.
  clip.root_motion->joint = "leg_ik";
  ASSERT_TRUE((RootMotionJob{&clip, nullptr, 0, std::span(d).first(3)}.Run()));
  test::ExpectQuat(d[2].rotation, 0, 0, 0, 1);
}

TEST(RootMotion, ValidateNeedsAJointAndAnOutput) {
  Clip clip = Walk();
  std::vector<RootMotionDelta> d(3);
  EXPECT_FALSE((RootMotionJob{nullptr, nullptr, 0, d}.Validate()));
  EXPECT_FALSE((RootMotionJob{&clip, nullptr, 0, {}}.Run()));
  EXPECT_FALSE((RootMotionJob{&clip, nullptr, -1, d}.Validate()));
  clip.root_motion.reset();
  EXPECT_FALSE((RootMotionJob{&clip, nullptr, 0, d}.Run()));
}

Scene BodyScene() {
  Scene scene;
  scene.skeleton = Body();
  scene.clips.push_back(Walk());
  Mesh rigid;
  rigid.name = "boot";
  rigid.joint = 1;
  scene.meshes.push_back(rigid);
  Mesh skinned;
  skinned.name = "skin";
  skinned.positions = {{0, 0, 0}};
  skinned.joints = {{0, 1, 0, 0}};
  skinned.weights = {{0.5f, 0.5f, 0, 0}};
  skinned.metadata[kMeshInfluencesKey] = Value::array({Value{{"vertex", 0}, {"joints", Value::array({0, 1})}}});
  scene.meshes.push_back(skinned);
  return scene;
}

// The two joints of BodyScene's first clip posed as in `before`, at each time; `shift`: where
// joint 0 of before is in after's skeleton (1 with root_motion above it).
void ExpectSameModelPoses(const Scene& before, const Scene& after, size_t shift, std::initializer_list<Seconds> times) {
  const Clip &a_clip = before.clips[0], &b_clip = after.clips[0];
  for (Seconds t : times) {
    std::vector<TransformTRS> a(a_clip.tracks.size()), b(b_clip.tracks.size());
    ASSERT_TRUE((SampleClipJob{&a_clip, &before.skeleton, t, a}.Run()));
    ASSERT_TRUE((SampleClipJob{&b_clip, &after.skeleton, t, b}.Run()));
    ClipModelPose pa(a_clip, before.skeleton), pb(b_clip, after.skeleton);
    pa.Compose(a);
    pb.Compose(b);
    for (size_t j = 0; j < 2; ++j) {
      const TransformTRS &x = pa.transforms()[j], &y = pb.transforms()[j + shift];
      test::ExpectVec(y.translation, x.translation.x, x.translation.y, x.translation.z, 1e-5);
      test::ExpectQuat(y.rotation, x.rotation.x, x.rotation.y, x.rotation.z, x.rotation.w, 1e-5);
    }
  }
}

TEST(RootMotion, ExtractMovesGroundTravelAndTurnAboveTheRoot) {
  Scene scene = BodyScene();
  const Scene before = scene;
  EXPECT_TRUE(ExtractRootMotion(scene).empty());
  ASSERT_EQ(scene.skeleton.joints.size(), 3u);
  EXPECT_EQ(scene.skeleton.joints[0].name, "root_motion");
  EXPECT_EQ(scene.skeleton.joints[0].parent, -1);
  EXPECT_EQ(scene.skeleton.joints[1].name, "hips");
  EXPECT_EQ(scene.skeleton.joints[1].parent, 0);
  EXPECT_EQ(scene.skeleton.joints[2].parent, 1);
  EXPECT_EQ(scene.meshes[0].joint, 2);
  EXPECT_EQ(scene.meshes[1].joints[0][0], 1);
  EXPECT_EQ(scene.meshes[1].joints[0][1], 2);
  EXPECT_EQ(scene.meshes[1].metadata[kMeshInfluencesKey][0]["joints"][1].get<int>(), 2);
  const Clip& clip = scene.clips[0];
  EXPECT_EQ(clip.root_motion->joint, "root_motion");
  const JointTrack* motion = clip.FindTrack("root_motion");
  const JointTrack* hips = clip.FindTrack("hips");
  ASSERT_TRUE(motion && hips);
  ASSERT_EQ(motion->translation.size(), 3u);
  // Frame 0: nothing has moved yet.
  test::ExpectVec(motion->translation.values[0], 0, 0, 0);
  test::ExpectQuat(motion->rotation.values[0], 0, 0, 0, 1);
  test::ExpectVec(hips->translation.values[0], 1, 0, 0);
  // Frame 1: travel (0,2,0), turn Rz90; the hips keep Rz(-90) ((1,2,0) - (0,2,0)) = (0,-1,0), R identity.
  test::ExpectVec(motion->translation.values[1], 0, 2, 0);
  test::ExpectQuat(motion->rotation.values[1], 0, 0, kH, kH);
  test::ExpectVec(hips->translation.values[1], 0, -1, 0, 1e-6);
  test::ExpectQuat(hips->rotation.values[1], 0, 0, 0, 1);
  // Frame 2: travel (2,3,0) (the rise of 1 stays), turn = twist about z of Rz90 Rx90 = Rz90;
  // hips Rz(-90) ((3,3,1) - (2,3,0)) = Rz(-90) (1,0,1) = (0,-1,1), rotation Rx90.
  test::ExpectVec(motion->translation.values[2], 2, 3, 0);
  test::ExpectQuat(motion->rotation.values[2], 0, 0, kH, kH);
  test::ExpectVec(hips->translation.values[2], 0, -1, 1, 1e-6);
  test::ExpectQuat(hips->rotation.values[2], kH, 0, 0, kH, 1e-6);
  // Every joint's model pose is as before, at every frame.
  ExpectSameModelPoses(before, scene, 1, {0.0f, 1.0f, 2.0f});
}

// Folding back (what a game format's writer gets): the skeleton, the meshes' joints and every
// model pose as before the extraction; the clip's root-motion joint the hips again.
TEST(RootMotion, FoldPutsTheExtractedMotionBackIntoTheRoot) {
  Scene scene = BodyScene();
  const Scene before = scene;
  ASSERT_TRUE(ExtractRootMotion(scene).empty());
  ASSERT_TRUE(FoldRootMotion(scene));
  ASSERT_EQ(scene.skeleton.joints.size(), 2u);
  EXPECT_EQ(scene.skeleton.joints[0].name, "hips");
  EXPECT_EQ(scene.skeleton.joints[0].parent, -1);
  EXPECT_EQ(scene.skeleton.joints[1].parent, 0);
  EXPECT_EQ(scene.meshes[0].joint, 1);
  EXPECT_EQ(scene.meshes[1].joints[0][0], 0);
  EXPECT_EQ(scene.meshes[1].joints[0][1], 1);
  EXPECT_EQ(scene.meshes[1].metadata[kMeshInfluencesKey][0]["joints"][1].get<int>(), 1);
  const Clip& clip = scene.clips[0];
  EXPECT_EQ(clip.root_motion->joint, "hips");
  EXPECT_EQ(clip.FindTrack("root_motion"), nullptr);
  // Frame 2 by hand: the hips at (3,3,1) turned Rz90 Rx90, as Walk keys them.
  const JointTrack* hips = clip.FindTrack("hips");
  ASSERT_TRUE(hips);
  test::ExpectVec(hips->translation.values[2], 3, 3, 1, 1e-5);
  ExpectSameModelPoses(before, scene, 0, {0.0f, 0.5f, 1.0f, 2.0f});
  EXPECT_FALSE(FoldRootMotion(scene));  // nothing left to fold
}

TEST(RootMotion, ExtractSaysWhatItLeaves) {
  Scene scene = BodyScene();
  Clip other = Walk();
  other.name = "crawl";
  other.root_motion->joint = "leg";
  scene.clips.push_back(other);
  Clip raw = Walk();
  raw.name = "raw";
  raw.space = Space::Model;
  scene.clips.push_back(raw);
  const std::vector<std::string> left = ExtractRootMotion(scene);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_TRUE(test::Has(left[0], "clip 'crawl'"));
  EXPECT_TRUE(test::Has(left[1], "model space"));
  EXPECT_EQ(scene.clips[1].root_motion->joint, "leg");
  EXPECT_EQ(scene.clips[1].tracks.size(), 2u);
  // A second extraction finds the joint already there and changes nothing more.
  const size_t joints = scene.skeleton.joints.size();
  (void)ExtractRootMotion(scene);
  EXPECT_EQ(scene.skeleton.joints.size(), joints);
  // Without the joint in the skeleton nothing changes.
  Scene bare;
  bare.clips.push_back(Walk());
  const std::vector<std::string> none = ExtractRootMotion(bare);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_TRUE(test::Has(none[0], "no such root joint"));
  EXPECT_TRUE(bare.skeleton.empty());
}

}  // namespace
}  // namespace animkit
