// Linear blend skinning (offline/skinning.hpp) against positions worked out by hand on
// SkinnedArmScene (tools/synthetic): "upper" at the origin, "lower" 2 up; at the clip's
// last frame "upper" stands at (2, 0, 0) and "lower" has turned 90 degrees about +Z, which
// takes a point (x, y) of lower's space to (-y, x) + (2, 2).
#include <animkit/animkit.hpp>
#include <animkit/offline/skinning.hpp>

#include <synthetic/synthetic.hpp>

#include <gtest/gtest.h>

#include <numbers>

namespace animkit {
namespace {

void ExpectNear(Vec3 actual, Vec3 expected, const std::string& what) {
  EXPECT_NEAR(actual.x, expected.x, 1e-5f) << what;
  EXPECT_NEAR(actual.y, expected.y, 1e-5f) << what;
  EXPECT_NEAR(actual.z, expected.z, 1e-5f) << what;
}

// The posed model matrices of the last frame, built from the numbers above.
std::vector<Mat4> LastFramePose() {
  const Mat4 upper = MatrixFromTRS({{2, 0, 0}, {}, {1, 1, 1}});
  const Mat4 lower_local = MatrixFromTRS({{0, 2, 0}, AxisAngle({0, 0, 1}, float(std::numbers::pi / 2)), {1, 1, 1}});
  return {upper, Multiply(upper, lower_local)};
}

TEST(Skinning, BindMatricesAreTheRestPoseInModelSpace) {
  const Scene scene = SkinnedArmScene();
  const std::vector<Mat4> bind = BindMatrices(scene.skeleton);
  ASSERT_EQ(bind.size(), 2u);
  ExpectNear(TransformPoint(bind[0], {0, 0, 0}), {0, 0, 0}, "upper");
  ExpectNear(TransformPoint(bind[1], {0, 0, 0}), {0, 2, 0}, "lower");
  ExpectNear(TransformPoint(bind[1], {1, 0, 0}), {1, 2, 0}, "lower, unturned");
}

TEST(Skinning, SkinnedRigidAndStaticVerticesByHand) {
  const Scene scene = SkinnedArmScene();
  const std::vector<Mat4> bind = BindMatrices(scene.skeleton), posed = LastFramePose();
  std::vector<Mat4> skin(2);
  ASSERT_TRUE(SkinMatrices(bind, posed, skin));

  std::vector<Vec3> arm(6), arm_normals(6);
  ASSERT_TRUE((SkinJob{&scene.meshes[0], skin, posed, arm, arm_normals, {}}.Run()));
  ExpectNear(arm[0], {1.5f, 0, 0}, "v0: all upper, moved by (2, 0, 0)");
  ExpectNear(arm[1], {2.5f, 0, 0}, "v1");
  // Half each: upper gives (1.5, 2) and (2.5, 2); lower (2, 1.5) and (2, 2.5).
  ExpectNear(arm[2], {1.75f, 1.75f, 0}, "v2: half upper, half lower");
  ExpectNear(arm[3], {2.25f, 2.25f, 0}, "v3");
  // All lower: (-0.5, 2) and (0.5, 2) in lower's space.
  ExpectNear(arm[4], {0, 1.5f, 0}, "v4: all lower");
  ExpectNear(arm[5], {0, 2.5f, 0}, "v5");
  for (const Vec3& n : arm_normals) ExpectNear(n, {0, 0, 1}, "a normal along the turn's axis stays");

  std::vector<Vec3> badge(3);
  ASSERT_TRUE((SkinJob{&scene.meshes[1], skin, posed, badge, {}, {}}.Run()));
  ExpectNear(badge[0], {2, 2, 0}, "rigid: lower's origin");
  ExpectNear(badge[1], {2, 3, 0}, "rigid: lower's +X turned to +Y");
  ExpectNear(badge[2], {1, 2, 0}, "rigid: lower's +Y turned to -X");

  std::vector<Vec3> floor(3);
  ASSERT_TRUE((SkinJob{&scene.meshes[2], skin, posed, floor, {}, {}}.Run()));
  for (size_t v = 0; v < 3; ++v) EXPECT_EQ(floor[v], scene.meshes[2].positions[v]) << "static vertex " << v;
}

TEST(Skinning, TheRestPoseLeavesSkinnedVerticesWhereTheyAre) {
  const Scene scene = SkinnedArmScene();
  const std::vector<Mat4> bind = BindMatrices(scene.skeleton);
  std::vector<Mat4> skin(2);
  ASSERT_TRUE(SkinMatrices(bind, bind, skin));
  std::vector<Vec3> arm(6);
  ASSERT_TRUE((SkinJob{&scene.meshes[0], skin, bind, arm, {}, {}}.Run()));
  for (size_t v = 0; v < 6; ++v) ExpectNear(arm[v], scene.meshes[0].positions[v], "vertex " + std::to_string(v));
}

TEST(Skinning, ClipMeshPoseFollowsTheClipFrameByFrame) {
  const Scene scene = SkinnedArmScene();
  const Clip& clip = scene.clips[0];
  ClipMeshPose poser(clip, scene.skeleton, scene.meshes);
  std::vector<TransformTRS> pose(clip.tracks.size());
  SampleClipJob{&clip, &scene.skeleton, FrameTime(0, clip.frame_rate), pose}.Run();
  poser.Compose(pose);
  for (size_t v = 0; v < 6; ++v) ExpectNear(poser.positions(0)[v], scene.meshes[0].positions[v], "frame 0, arm");
  SampleClipJob{&clip, &scene.skeleton, FrameTime(2, clip.frame_rate), pose}.Run();
  poser.Compose(pose);
  ExpectNear(poser.positions(0)[2], {1.75f, 1.75f, 0}, "frame 2, arm v2");
  ExpectNear(poser.positions(0)[5], {0, 2.5f, 0}, "frame 2, arm v5");
  ExpectNear(poser.positions(1)[1], {2, 3, 0}, "frame 2, badge v1");
  ExpectNear(poser.positions(2)[0], {-3, -1, -3}, "frame 2, floor v0");
}

TEST(Skinning, JointsOutsideTheSkeletonAreRefused) {
  Scene scene = SkinnedArmScene();
  std::vector<Mat4> skin(2), posed(2);
  std::vector<Vec3> out(6);
  scene.meshes[0].joints[3][1] = 7;
  EXPECT_FALSE((SkinJob{&scene.meshes[0], skin, posed, out, {}, {}}.Run()));
  EXPECT_THROW(ClipMeshPose(scene.clips[0], scene.skeleton, scene.meshes), Error);
  std::vector<Vec3> short_output(2);
  EXPECT_FALSE((SkinJob{&scene.meshes[2], skin, posed, short_output, {}, {}}.Run()));
}

}  // namespace
}  // namespace animkit
