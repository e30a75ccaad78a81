#include "support/test_support.hpp"

#include <cstring>
#include <numbers>

namespace animkit {
namespace {

Track<Vec3> Ramp(Interpolation interp) {
  Track<Vec3> t;
  t.interpolation = interp;
  t.times = {0, 1, 3};
  t.values = {{0, 0, 0}, {10, 0, 0}, {10, 20, 0}};
  return t;
}

TEST(Sampling, LinearStepAndClamp) {
  const Track<Vec3> lin = Ramp(Interpolation::Linear), step = Ramp(Interpolation::Step);
  EXPECT_EQ(SampleTrack(lin, -1).x, 0);
  EXPECT_EQ(SampleTrack(lin, 0.5f).x, 5);
  EXPECT_EQ(SampleTrack(lin, 2).y, 10);
  EXPECT_EQ(SampleTrack(lin, 9).y, 20);
  EXPECT_EQ(SampleTrack(step, 0.99f).x, 0);
  EXPECT_EQ(SampleTrack(step, 1).x, 10);
  EXPECT_EQ(SampleTrack(step, 2.9f).y, 0);
}

TEST(Sampling, CursorGivesTheSameAnswers) {
  const Track<Vec3> lin = Ramp(Interpolation::Linear);
  size_t cursor = 12345;  // any value is safe
  for (float t : {0.0f, 0.2f, 1.5f, 2.9f, 0.1f, 3.0f, 2.0f}) {
    EXPECT_EQ(SampleTrack(lin, t, &cursor), SampleTrack(lin, t)) << t;
  }
}

TEST(Sampling, HermiteUsesTangentsPerSecond) {
  Track<Vec3> h;
  h.interpolation = Interpolation::Hermite;
  h.times = {0, 2};
  h.values = {{0, 0, 0}, {0, 0, 0}};
  h.in_tangents = {{0, 0, 0}, {0, 0, 0}};
  h.out_tangents = {{1, 0, 0}, {0, 0, 0}};
  // p(u) = h10(u) * dt * m0 with dt = 2, m0 = 1; at u = 0.5: h10 = 0.125.
  EXPECT_NEAR(SampleTrack(h, 1).x, 0.25, 1e-6);
}

TEST(Sampling, QuaternionSlerp) {
  Track<QuatXYZW> r;
  r.times = {0, 1};
  r.values = {{0, 0, 0, 1}, AxisAngle({0, 1, 0}, std::numbers::pi_v<float> / 2)};
  const QuatXYZW mid = SampleTrack(r, 0.5f);
  EXPECT_LT(AngleBetween(mid, AxisAngle({0, 1, 0}, std::numbers::pi_v<float> / 4)), 1e-5);
}

TEST(Sampling, ClipJobUsesRestPoseForMissingTracks) {
  Skeleton s;
  s.joints.push_back({"a", -1, {{1, 2, 3}, {0, 0, 0, 1}, {2, 2, 2}}});
  Clip c;
  JointTrack t;
  t.joint = "a";
  t.rotation.times = {0};
  t.rotation.values = {AxisAngle({1, 0, 0}, 1)};
  c.tracks.push_back(t);
  std::vector<TransformTRS> out(1);
  SampleClipJob job{&c, &s, 0.5f, out};
  ASSERT_TRUE(job.Validate());
  ASSERT_TRUE(job.Run());
  EXPECT_EQ(out[0].translation, (Vec3{1, 2, 3}));
  EXPECT_EQ(out[0].scale, (Vec3{2, 2, 2}));
  EXPECT_FALSE((SampleClipJob{&c, &s, 0, {}}.Validate()));
}

TEST(Sampling, LocalToModelMatchesMatrixProducts) {
  SyntheticSpec spec;
  spec.joints = 12;
  const Skeleton s = SyntheticSkeleton(spec);
  std::vector<TransformTRS> local;
  for (const Joint& j : s.joints) local.push_back(j.rest);
  std::vector<Mat4> model(s.joints.size());
  ASSERT_TRUE(LocalToModel(s, local, model));
  for (size_t i = 0; i < s.joints.size(); ++i) {
    Mat4 expected = MatrixFromTRS(local[i]);
    for (int p = s.joints[i].parent; p >= 0; p = s.joints[static_cast<size_t>(p)].parent) {
      expected = Multiply(MatrixFromTRS(local[static_cast<size_t>(p)]), expected);
    }
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(model[i].m[c][r], expected.m[c][r], 1e-4);
  }
  // Too few outputs, or a joint before its parent: false, nothing written.
  EXPECT_FALSE(LocalToModel(s, local, std::span<Mat4>(model.data(), 3)));
  Skeleton reversed = s;
  reversed.joints[1].parent = 5;
  std::vector<Mat4> untouched(s.joints.size());
  EXPECT_FALSE(LocalToModel(reversed, local, untouched));
  const Mat4 fresh{};
  for (const Mat4& m : untouched) EXPECT_EQ(std::memcmp(&m, &fresh, sizeof m), 0);
}

TEST(Sampling, FramesOfOneJointLeaveUnkeyedPropertiesEmptyAndNormalizeRotations) {
  Clip clip;
  clip.name = "walk";
  clip.SetFrames(3, 2);
  JointTrack t;
  t.joint = "hip";
  t.translation.Add(0, {0, 0, 0});
  t.translation.Add(1, {4, 0, 0});
  t.rotation.Add(0, {0, 0, 0, 2});  // not unit length
  const FrameSamples s = SampleFrames(clip, t, 3, 2);
  ASSERT_EQ(s.translation.size(), 3u);
  EXPECT_EQ(s.translation[1].x, 2);  // frame 1 at 0.5 s: halfway
  EXPECT_EQ(s.translation[2].x, 4);
  ASSERT_EQ(s.rotation.size(), 3u);
  EXPECT_EQ(s.rotation[0], (QuatXYZW{0, 0, 0, 1}));
  EXPECT_TRUE(s.scale.empty());
}

TEST(Sampling, FramesThatReachInfinityAreAnErrorNamingJointAndClip) {
  Clip clip;
  clip.name = "swing";
  JointTrack t;
  t.joint = "arm";
  // Two finite keys whose difference overflows a float: halfway lies past the float range.
  t.translation.Add(0, {-3e38f, 0, 0});
  t.translation.Add(1, {3e38f, 0, 0});
  try {
    SampleFrames(clip, t, 3, 2);
    FAIL() << "sampling to infinity must be an error";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("joint 'arm' of clip 'swing'"), std::string::npos) << message;
    EXPECT_NE(message.find("not finite"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace animkit
