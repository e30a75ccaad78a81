// Additive clips composed over a base (docs/conventions.md, "Additive clips"): rotation =
// base * slerp(identity, delta, weight), translation = base + weight * delta unless
// rotation-only (Metroid, facts 7.6), scale the base's. Expected poses are worked by hand.
#include "support/test_support.hpp"

#include <animkit/offline/model_pose.hpp>

#include <cmath>
#include <numbers>

namespace animkit {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// root at the origin, child one unit along x, tip one unit along x from the child.
Skeleton Arm(QuatXYZW child_rest = {0, 0, 0, 1}) {
  Skeleton s;
  s.joints.push_back({"root", -1, {}});
  s.joints.push_back({"child", 0, {{1, 0, 0}, child_rest, {1, 1, 1}}});
  s.joints.push_back({"tip", 1, {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}});
  return s;
}

// One frame: the child turned `angle` about z, moved by `offset`, scaled by 3.
Clip DeltaClip(bool rotation_only, float angle, Vec3 offset, bool key_translation = true) {
  Clip clip;
  clip.name = "flinch_add";
  clip.SetFrames(1, 30);
  clip.additive = Additive{"", rotation_only, 0.25f, 0.5f};
  JointTrack t;
  t.joint = "child";
  t.rotation.Add(0, AxisAngle({0, 0, 1}, angle));
  if (key_translation) t.translation.Add(0, offset);
  t.scale.Add(0, {3, 3, 3});
  clip.tracks.push_back(std::move(t));
  return clip;
}

std::vector<TransformTRS> Sampled(const Clip& clip, const Skeleton& s) {
  std::vector<TransformTRS> pose(clip.tracks.size());
  EXPECT_TRUE((SampleClipJob{&clip, &s, 0, pose}.Run()));
  return pose;
}

TEST(Additive, RotationOnlyKeepsTheRestOffsetsAndTurnsAfterTheBase) {
  const Skeleton s = Arm();
  const Clip clip = DeltaClip(true, kPi / 2, {5, 5, 5});
  ClipModelPose model(clip, s);
  model.Compose(Sampled(clip, s));
  // child: rest offset (1,0,0) (the clip's (5,5,5) is dropped), rotation I * Rz90, scale the rest's 1.
  test::ExpectVec(model.transforms()[1].translation, 1, 0, 0);
  const float h = std::sqrt(0.5f);
  test::ExpectQuat(model.transforms()[1].rotation, 0, 0, h, h);
  test::ExpectVec(model.transforms()[1].scale, 1, 1, 1);
  // tip: (1,0,0) + Rz90 (1,0,0) = (1,1,0).
  test::ExpectVec(model.transforms()[2].translation, 1, 1, 0, 1e-6);
  test::ExpectVec(model.OfTrack(0).translation, 1, 0, 0);
}

TEST(Additive, TranslationAddsWhenNotRotationOnly) {
  const Skeleton s = Arm();
  const Clip clip = DeltaClip(false, 0, {5, 5, 5});
  ClipModelPose model(clip, s);
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[1].translation, 6, 5, 5);  // (1,0,0) + (5,5,5)
  test::ExpectVec(model.transforms()[2].translation, 7, 5, 5);  // one more along x, unturned
  test::ExpectVec(model.transforms()[1].scale, 1, 1, 1);        // never the clip's 3
}

TEST(Additive, UnkeyedTranslationIsNoChange) {
  // The sampler fills the unkeyed translation with the rest (1,0,0): it must not add twice.
  const Skeleton s = Arm();
  const Clip clip = DeltaClip(false, kPi / 2, {}, false);
  ClipModelPose model(clip, s);
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[1].translation, 1, 0, 0);
  test::ExpectVec(model.transforms()[2].translation, 1, 1, 0, 1e-6);
}

TEST(Additive, DeltaTurnsInTheJointsOwnFrame) {
  // child rest Rx90; rotation = Rx90 * Rz90. Rz90 takes x to y, Rx90 takes y to z: tip (1,0,1).
  const float h = std::sqrt(0.5f);
  const Skeleton s = Arm({h, 0, 0, h});
  const Clip clip = DeltaClip(true, kPi / 2, {});
  ClipModelPose model(clip, s);
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[2].translation, 1, 0, 1, 1e-6);
}

TEST(Additive, WeightSlerpsFromIdentityAndIsClamped) {
  const Skeleton s = Arm();
  const Clip clip = DeltaClip(true, kPi / 2, {});
  ClipModelPose model(clip, s);
  model.SetWeight(0.5f);  // Rz45: tip at (1 + cos 45, sin 45, 0)
  model.Compose(Sampled(clip, s));
  const float c = std::sqrt(0.5f);
  test::ExpectVec(model.transforms()[2].translation, 1 + c, c, 0, 1e-6);
  model.SetWeight(-3);  // clamped to 0: the base alone
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[2].translation, 2, 0, 0);
  model.SetWeight(7);  // clamped to 1
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[2].translation, 1, 1, 0, 1e-6);
}

TEST(Additive, OverAnotherClipsPose) {
  // Base: the child already turned Rz90; the delta adds another Rz90: Rz180, tip at (0,0,0).
  const Skeleton s = Arm();
  const Clip clip = DeltaClip(true, kPi / 2, {});
  std::vector<TransformTRS> base;
  for (const Joint& j : s.joints) base.push_back(j.rest);
  base[1].rotation = AxisAngle({0, 0, 1}, kPi / 2);
  base[1].translation = {2, 0, 0};  // rotation-only keeps the base's offsets, not the rest's
  ClipModelPose model(clip, s);
  model.SetBase(base);
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[1].translation, 2, 0, 0);
  test::ExpectVec(model.transforms()[2].translation, 1, 0, 0, 1e-6);
  EXPECT_THROW(model.SetBase(std::vector<TransformTRS>(2)), Error);
  model.SetBase({});  // back to the rest
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[2].translation, 1, 1, 0, 1e-6);
}

TEST(Additive, AClipThatIsNotAdditiveIgnoresBaseAndWeight) {
  const Skeleton s = Arm();
  Clip clip = DeltaClip(false, kPi / 2, {5, 5, 5});
  clip.additive.reset();
  ClipModelPose model(clip, s);
  model.SetWeight(0);
  model.SetBase(std::vector<TransformTRS>(3));
  model.Compose(Sampled(clip, s));
  test::ExpectVec(model.transforms()[1].translation, 5, 5, 5);  // the keys as they are
  test::ExpectVec(model.transforms()[1].scale, 3, 3, 3);
}

}  // namespace
}  // namespace animkit
