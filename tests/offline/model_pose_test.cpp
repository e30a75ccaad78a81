// The two scale inheritance rules, a clip's model-space pose under them and the
// conversion between them (docs/conventions.md). Expected values are worked by hand.
#include "support/expect_same.hpp"
#include "support/test_support.hpp"

#include <animkit/offline/runtime_build.hpp>
#include <animkit/runtime/sampling_job.hpp>
#include <synthetic/synthetic_clips.hpp>

#include <numbers>

namespace animkit {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// root -> child -> tip (1 along x), the joints of ScaledChainClip (root scaled 2 along x,
// child 1 along x turned `angle` about z) and a tip to pose.
Skeleton Chain() {
  Skeleton s;
  s.joints.push_back({"root", -1, {}});
  s.joints.push_back({"child", 0, {}});
  s.joints.push_back({"tip", 1, {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}});
  return s;
}

std::vector<TransformTRS> Pose(const Clip& clip, const Skeleton& skeleton) {
  std::vector<TransformTRS> pose(clip.tracks.size());
  EXPECT_TRUE((SampleClipJob{&clip, &skeleton, 0, pose}.Run()));
  return pose;
}

TEST(ModelPose, TwoJointChainUnderBothRules) {
  const Skeleton s = Chain();
  const float h = std::sqrt(0.5f);  // Rz(90 deg) = (0, 0, h, h)
  // Matrix: diag(2,1,1) * [Rz90 | (1,0,0)]: origin (2,0,0), axes (0,1,0) and (-2,0,0): Rz90, scale (1,2,1);
  // the tip, (1,0,0) in the child's frame, is (0,1,0) scaled by diag(2,1,1): (0,1,0) from (2,0,0).
  // PerAxis: S = (2,1,1) * (1,1,1), R = Rz90, T = R_p (S_p * (1,0,0)) = (2,0,0); the tip is
  // Rz90 * ((2,1,1) * (1,0,0)) = (0,2,0) from (2,0,0).
  struct Expected {
    ScaleInheritance rule;
    Vec3 scale, tip;
  };
  for (const Expected& e : {Expected{ScaleInheritance::Matrix, {1, 2, 1}, {2, 1, 0}},
                            Expected{ScaleInheritance::PerAxis, {2, 1, 1}, {2, 2, 0}}}) {
    SCOPED_TRACE(e.rule == ScaleInheritance::Matrix ? "matrix" : "per axis");
    const Clip clip = ScaledChainClip(kPi / 2, e.rule, 2);
    ClipModelPose model(clip, s);
    model.Compose(Pose(clip, s));
    test::ExpectVec(model.OfTrack(1).translation, 2, 0, 0);
    test::ExpectQuat(model.OfTrack(1).rotation, 0, 0, h, h);
    test::ExpectVec(model.OfTrack(1).scale, e.scale.x, e.scale.y, e.scale.z);
    test::ExpectVec(model.transforms()[2].translation, e.tip.x, e.tip.y, e.tip.z);
    // The plain function agrees, with matrices that are MatrixFromTRS of the transforms.
    std::vector<Mat4> m(3);
    std::vector<TransformTRS> t(3);
    ASSERT_TRUE(LocalToModel(s, model.locals(), e.rule, m, t));
    test::ExpectVec(t[2].translation, e.tip.x, e.tip.y, e.tip.z);
    test::ExpectVec(TransformPoint(m[2], {0, 0, 0}), e.tip.x, e.tip.y, e.tip.z);
  }
}

TEST(ModelPose, ModelSpaceClipKeepsItsKeyedJoints) {
  const Skeleton s = Chain();
  Clip clip = ScaledChainClip(kPi / 2, ScaleInheritance::PerAxis, 2);
  clip.space = Space::Model;
  ClipModelPose model(clip, s);
  model.Compose(Pose(clip, s));
  test::ExpectVec(model.OfTrack(1).translation, 1, 0, 0);  // as keyed
  test::ExpectVec(model.OfTrack(1).scale, 1, 1, 1);
  // tip is not keyed: composed on the child's model pose, (1,0,0) turned 90 deg from (1,0,0).
  test::ExpectVec(model.transforms()[2].translation, 1, 1, 0);
}

TEST(ModelPose, SkeletonOutOfOrderIsAnError) {
  Skeleton s = Chain();
  s.joints[0].parent = 2;
  EXPECT_THROW((ClipModelPose(ScaledChainClip(0, ScaleInheritance::Matrix, 2), s)), Error);
  std::vector<TransformTRS> local(3);
  std::vector<Mat4> m(3);
  EXPECT_FALSE(LocalToModel(s, local, ScaleInheritance::Matrix, m, {}));
}

TEST(ScaleInheritanceConversion, ExactWhereNoShearArises) {
  // Per-axis child model: T(2,0,0) Rz90 diag(2,1,1). Relative to diag(2,1,1):
  // diag(.5,1,1) Rz90 diag(2,1,1) has columns (0,2,0), (-.5,0,0), (0,0,1): Rz90, scale (2,.5,1),
  // and the translation diag(.5,1,1) (2,0,0) = (1,0,0).
  const Skeleton s = Chain();
  const Clip original = ScaledChainClip(kPi / 2, ScaleInheritance::PerAxis, 2);
  Clip clip = original;
  ConvertScaleInheritance(s, clip, ScaleInheritance::Matrix);
  EXPECT_EQ(clip.scale_inheritance, ScaleInheritance::Matrix);
  const float h = std::sqrt(0.5f);
  const JointTrack& child = *clip.FindTrack("child");
  ASSERT_EQ(child.scale.size(), 2u);
  test::ExpectVec(child.scale.values[0], 2, 0.5, 1, 1e-6);
  test::ExpectQuat(child.rotation.values[0], 0, 0, h, h);
  test::ExpectVec(SampleTrack(child.translation, 0), 1, 0, 0, 1e-6);
  // tip: the child's new model is its per-axis model exactly, so the tip's per-axis model
  // T(2,2,0) relative to it is diag(.5,1,1) Rz-90 (0,2,0) = (1,0,0), its rest: no track.
  EXPECT_EQ(clip.FindTrack("tip"), nullptr);
  const ModelPoseDifference d = CompareModelPoses(s, original, clip);
  EXPECT_LT(d.linear, 1e-6);
  EXPECT_LT(d.translation, 1e-6);
  // And back: the per-axis locals again.
  ConvertScaleInheritance(s, clip, ScaleInheritance::PerAxis);
  test::ExpectVec(clip.FindTrack("child")->scale.values[0], 1, 1, 1, 1e-6);
  test::ExpectVec(clip.FindTrack("child")->translation.values[0], 1, 0, 0, 1e-6);
}

TEST(ScaleInheritanceConversion, ClosestLocalsWhereShearWouldArise) {
  // Turned 45 deg, the per-axis child has axes (2c,2s,0) and (-s,c,0) (c = s = 0.7071);
  // relative to diag(2,1,1) that is (c,2s,0), (-s/2,c,0): sheared (dot 0.75), which a glTF
  // local cannot hold. The closest local keeps the origin exactly and the tip within the shear.
  const Skeleton s = Chain();
  const Clip original = ScaledChainClip(kPi / 4, ScaleInheritance::PerAxis, 2);
  Clip clip = original;
  ConvertScaleInheritance(s, clip, ScaleInheritance::Matrix);
  test::ExpectVec(clip.FindTrack("child")->translation.values[0], 1, 0, 0, 1e-6);
  const ModelPoseDifference d = CompareModelPoses(s, original, clip);
  EXPECT_GT(d.linear, 0.1);  // the shear is real
  EXPECT_LT(d.translation, 1.0);  // the tip is off by less than its own length
  EXPECT_LT(d.rotation, 0.5);
  // The reader's inverse returns per-axis locals within the same error.
  Clip back = clip;
  ConvertScaleInheritance(s, back, ScaleInheritance::PerAxis);
  const ModelPoseDifference r = CompareModelPoses(s, original, back);
  EXPECT_LE(r.translation, d.translation + 1e-5);
  test::ExpectVec(back.FindTrack("child")->translation.values[0], 1, 0, 0, 1e-5);
}

TEST(ScaleInheritanceConversion, UniformScaleLeavesTheClipAsItIs) {
  const Skeleton s = Chain();
  Clip clip = ScaledChainClip(kPi / 4, ScaleInheritance::PerAxis, 2);
  clip.tracks[0].scale.values = {{2, 2, 2}, {3, 3, 3}};
  const Clip before = clip;
  ConvertScaleInheritance(s, clip, ScaleInheritance::Matrix);
  EXPECT_EQ(clip.scale_inheritance, ScaleInheritance::Matrix);
  test::ExpectSameKeyValues(clip, before);
}

// The playback runtime composes matrices: it plays a per-axis clip's closest matrix-rule
// locals, the child's (1,0,0), Rz90, (2,.5,1) as above.
TEST(ScaleInheritanceConversion, RuntimePlaysTheMatrixRuleLocals) {
  const Skeleton s = Chain();
  const runtime::Animation a = BuildRuntimeAnimation(ScaledChainClip(kPi / 2, ScaleInheritance::PerAxis, 2), s);
  runtime::SamplingContext context(a.num_tracks);
  std::vector<runtime::SoaTransform> pose(size_t(a.num_soa_tracks()));
  ASSERT_TRUE((runtime::SamplingJob{&a, &context, 0, pose}.Run()));
  const runtime::Transform child = runtime::GetTransform(pose.data(), 1);
  const float h = std::sqrt(0.5f);
  test::ExpectVec({child.t[0], child.t[1], child.t[2]}, 1, 0, 0, 1e-6);
  test::ExpectQuat({child.r[0], child.r[1], child.r[2], child.r[3]}, 0, 0, h, h);
  test::ExpectVec({child.s[0], child.s[1], child.s[2]}, 2, 0.5, 1, 1e-6);
}

TEST(ScaleInheritanceConversion, GltfRoundTripReturnsPerAxisLocals) {
  Scene scene;
  scene.skeleton = Chain();
  scene.clips.push_back(ScaledChainClip(kPi / 2, ScaleInheritance::PerAxis, 2));
  const Bytes gltf = ExportGltf(scene, {false, {}});
  const std::string text(gltf.begin(), gltf.end());
  EXPECT_TRUE(test::Has(text, "\"scale_inheritance\": \"per_axis\""));
  const Scene back = ImportGltf(gltf, "");
  ASSERT_EQ(back.clips.size(), 1u);
  EXPECT_EQ(back.clips[0].scale_inheritance, ScaleInheritance::PerAxis);
  const JointTrack* child = back.clips[0].FindTrack("child");
  ASSERT_NE(child, nullptr);
  test::ExpectVec(SampleTrack(child->scale, 0), 1, 1, 1, 1e-6);
  test::ExpectVec(SampleTrack(child->translation, 0), 1, 0, 0, 1e-6);
  const ModelPoseDifference d = CompareModelPoses(scene.skeleton, scene.clips[0], back.clips[0]);
  EXPECT_LT(d.translation, 1e-5);
  EXPECT_LT(d.linear, 1e-5);
  // A matrix-rule clip says nothing of the rule.
  scene.clips[0].scale_inheritance = ScaleInheritance::Matrix;
  const Bytes plain = ExportGltf(scene, {false, {}});
  EXPECT_EQ(std::string(plain.begin(), plain.end()).find("scale_inheritance"), std::string::npos);
}

}  // namespace
}  // namespace animkit
