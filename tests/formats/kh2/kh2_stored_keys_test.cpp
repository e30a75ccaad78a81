// KH2 interpolated motions decoded with their curves as keys (kh2-keys stored, the default for glTF):
// hand-built motions whose expected keys are worked out from the layout
// (docs/formats/kh2.md, "Keys as stored"), and the poses they give against one key per frame.
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/kh2.hpp>
#include <animkit/offline/sampling.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "formats/kh2/kh2_test_motion.hpp"
#include "support/test_support.hpp"

#include <cmath>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kKh2BarFormat;
namespace {

using namespace kh2;
using namespace kh2_test;

// One bone at 30 fps, frames 0..10 (key times 0..20, two per frame). Translation X: Hermite
// keys at key times 0, 6 and 20 (values 1, 4, 2; tangents per key-time unit 0.5, -0.25 / 0.1, 0);
// Translation Y: linear 0 -> 10 over key times 4..16 (clamped before and after); rotation Z:
// Hermite 0 -> pi/2 over key times 0..20 with zero tangents; scale and the rest at the identity.
Motion OneBone() {
  Motion m = kh2_test::InterpolatedMotionOf(1, 30, 10);
  InterpolatedMotion& im = m.interpolated;
  im.key_times = {0, 6, 20, 4, 16};
  im.values = {1, 4, 2, 0, 10, std::numbers::pi_v<float> / 2};
  im.tangents = {0.5f, -0.25f, 0.1f, 0};
  im.keys = {{PackKey(0, KeyType::Hermite), 0, 0, 0},  // translation X
             {PackKey(1, KeyType::Hermite), 1, 1, 2},
             {PackKey(2, KeyType::Hermite), 2, 3, 3},
             {PackKey(3, KeyType::Linear), 3, 0, 0},  // translation Y
             {PackKey(4, KeyType::Linear), 4, 0, 0},
             {PackKey(0, KeyType::Hermite), 3, 3, 3},  // rotation Z: 0 -> pi/2
             {PackKey(2, KeyType::Hermite), 5, 3, 3}};
  im.forward = {CurveOf(0, Channel::TranslateX, 0, 3), CurveOf(0, Channel::TranslateY, 3, 2),
                CurveOf(0, Channel::RotateZ, 5, 2)};
  im.joints = {{0, 0}};
  LayoutMotion(m);
  return m;
}

Clip Decode(const Motion& m, bool stored) {
  DecodeSettings s;
  s.stored_keys = stored;
  return DecodeMotion(ParseMotion(SerializeMotion(m)), {}, {}, s);
}

TEST(Kh2StoredKeys, TranslationIsTheCurvesKeysOverThePlayedRange) {
  const Clip clip = Decode(OneBone(), true);
  ASSERT_EQ(clip.frame_count, 11u);
  const Track<Vec3>& t = clip.tracks.at(0).translation;
  ASSERT_EQ(t.interpolation, Interpolation::Hermite);
  // The union of both channels' keys inside the range (4, 6, 16) and its ends (0, 20), in
  // seconds: key time / 60.
  const std::vector<float> expected_times = {0, 4 / 60.f, 6 / 60.f, 16 / 60.f, 20 / 60.f};
  ASSERT_EQ(t.size(), expected_times.size());
  for (size_t k = 0; k < t.size(); ++k) EXPECT_NEAR(t.times[k], expected_times[k], 1e-7) << k;
  // X at its own keys: the stored values; tangents per second = stored slope x 60.
  EXPECT_FLOAT_EQ(t.values[0].x, 1);
  EXPECT_FLOAT_EQ(t.out_tangents[0].x, 0.5f * 60);
  EXPECT_FLOAT_EQ(t.values[2].x, 4);
  EXPECT_FLOAT_EQ(t.in_tangents[2].x, -0.25f * 60);
  EXPECT_FLOAT_EQ(t.out_tangents[2].x, 0.1f * 60);
  EXPECT_FLOAT_EQ(t.values[4].x, 2);
  EXPECT_FLOAT_EQ(t.in_tangents[4].x, 0);
  // Y: 0 until key time 4 (clamped: zero slope), then 10/12 per key-time unit, 10 after 16.
  EXPECT_FLOAT_EQ(t.values[0].y, 0);
  EXPECT_FLOAT_EQ(t.out_tangents[0].y, 0);
  EXPECT_FLOAT_EQ(t.in_tangents[1].y, 0);
  EXPECT_FLOAT_EQ(t.out_tangents[1].y, 10.f / 12 * 60);
  EXPECT_FLOAT_EQ(t.values[2].y, 10.f / 12 * 2);
  EXPECT_FLOAT_EQ(t.values[3].y, 10);
  EXPECT_FLOAT_EQ(t.out_tangents[3].y, 0);
  // X at key time 4, inside its first Hermite segment (0..6, u = 2/3): h00 v0 + h10 d m0 + h01 v1 + h11 d m1.
  const double u = 4.0 / 6, d = 6;
  const double x4 = (2 * u * u * u - 3 * u * u + 1) * 1 + (u * u * u - 2 * u * u + u) * d * 0.5 +
                    (-2 * u * u * u + 3 * u * u) * 4 + (u * u * u - u * u) * d * -0.25;
  EXPECT_NEAR(t.values[1].x, x4, 1e-6);
  // The scale never moves: the curves' keys are the range's ends at the identity.
  EXPECT_EQ(clip.tracks[0].scale.values.front(), (Vec3{1, 1, 1}));
}

TEST(Kh2StoredKeys, RotationSplineStaysWithinItsToleranceOfTheEulerCurves) {
  // The same bone over 61 frames (key times 0..120): a spline of fewer keys than half the
  // frames (else one key per frame is kept).
  Motion m = OneBone();
  m.interpolated.frame_end = 60;
  m.interpolated.key_times[2] = 120;
  LayoutMotion(m);
  const Clip clip = Decode(m, true);
  const Track<QuatXYZW>& r = clip.tracks.at(0).rotation;
  ASSERT_EQ(r.interpolation, Interpolation::Hermite);
  EXPECT_GE(r.size(), 2u);
  EXPECT_LE(r.size(), 20u);
  // Z follows 0 -> pi/2 with zero end tangents: z(s) = pi/2 (3s^2 - 2s^3), s = key time / 120.
  // The tolerance holds where it is checked (frames and half frames: every 4th of 240 steps
  // is a frame, every 2nd a half frame), and nearly so between them.
  const double tolerance = DecodeSettings{}.rotation_tolerance;
  double at_checks = 0, between = 0;
  for (int step = 0; step <= 240; ++step) {
    const double s = step / 240.0, angle = std::numbers::pi / 2 * (3 * s * s - 2 * s * s * s);
    const QuatXYZW exact = AxisAngle({0, 0, 1}, float(angle));
    const double err = AngleBetween(exact, SampleTrack(r, float(s * 120 / 60)));
    (step % 2 == 0 ? at_checks : between) = std::max(step % 2 == 0 ? at_checks : between, err);
  }
  EXPECT_LE(at_checks, tolerance + 2e-6);  // float rounding of the sampled spline
  EXPECT_LE(between, 1.5 * tolerance);
}

TEST(Kh2StoredKeys, PosesEqualOneKeyPerFrame) {
  const Clip stored = Decode(OneBone(), true), frames = Decode(OneBone(), false);
  EXPECT_EQ(frames.tracks.at(0).translation.size(), 11u);
  const PoseDifference d = ComparePoses(stored, frames, nullptr, Limits{});
  EXPECT_LE(d.rotation, DecodeSettings{}.rotation_tolerance + 1e-6);
  EXPECT_LE(d.translation, 1e-5);
}

// A Position constraint moves bone 1 onto bone 0: its translation is the game's, one key per
// frame; its rotation, which nothing drives, stays the curves' keys.
TEST(Kh2StoredKeys, DrivenPropertiesKeepOneKeyPerFrame) {
  Motion m = OneBone();
  InterpolatedMotion& im = m.interpolated;
  im.bone_count = im.total_bone_count = 2;
  im.initial_pose = {{1, 6, 5}};
  im.joints = {{0, 0}, {1, 0}};
  im.constraints = {{uint8_t(ConstraintType::Position), 1, 1, 0, -1, 0, 0}};
  LayoutMotion(m);
  const Clip clip = Decode(m, true);
  ASSERT_EQ(clip.tracks.size(), 2u);
  EXPECT_EQ(clip.tracks[1].translation.interpolation, Interpolation::Linear);
  EXPECT_EQ(clip.tracks[1].translation.size(), 11u);
  EXPECT_EQ(clip.tracks[1].rotation.interpolation, Interpolation::Hermite);
  EXPECT_EQ(clip.tracks[0].translation.interpolation, Interpolation::Hermite);
}

// What glTF gets: the curves' keys as CUBICSPLINE, no channel for a property at its rest.
TEST(Kh2StoredKeys, GltfCarriesTheKeysAndLeavesTheRestOut) {
  Scene scene;
  scene.skeleton.joints.push_back(Joint{"#0", -1, {}});
  scene.clips.push_back(Decode(OneBone(), true));
  const Bytes glb = ExportGltf(scene, {});
  const Scene back = ImportGltf(glb, "one.glb");
  const Clip& clip = back.clips.at(0);
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_EQ(clip.tracks[0].translation.interpolation, Interpolation::Hermite);
  EXPECT_EQ(clip.tracks[0].translation.size(), 5u);
  // The scale is the identity throughout: no channel, one key of the rest after import.
  ASSERT_EQ(clip.tracks[0].scale.size(), 1u);
  EXPECT_EQ(clip.tracks[0].scale.values[0], (Vec3{1, 1, 1}));
  const PoseDifference d = ComparePoses(scene.clips[0], clip, &back.skeleton, Limits{});
  EXPECT_LE(d.rotation, 1e-6);
  EXPECT_LE(d.translation, 1e-5);
}

// The real moveset: the curves as keys give the pose of one key per frame at every frame,
// with far fewer keys.
TEST(Kh2StoredKeys, RealMovesetPosesEqualOneKeyPerFrame) {
  const std::string dir = test::FixturePath("kh2-baked");
  if (dir.empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  const Scene rig = LoadReference(dir + "/M_EX660.skeleton.gltf", Options{});
  auto decode = [&](const char* keys) {
    DecodeContext context{&rig, {}};
    context.options.Set("kh2-keys", keys);
    return kKh2BarFormat.read(ReadFileBytes(dir + "/M_EX660.mset"), {})->Decode(context);
  };
  const Scene stored = decode("stored"), frames = decode("frames");
  ASSERT_EQ(stored.clips.size(), frames.clips.size());
  size_t stored_keys = 0, frame_keys = 0;
  double rotation = 0, translation = 0;
  for (size_t c = 0; c < stored.clips.size(); ++c) {
    const PoseDifference d = ComparePoses(stored.clips[c], frames.clips[c], &stored.skeleton, Limits{});
    rotation = std::max(rotation, d.rotation);
    translation = std::max(translation, d.translation);
    for (const JointTrack& t : stored.clips[c].tracks) stored_keys += t.translation.size() + t.rotation.size() + t.scale.size();
    for (const JointTrack& t : frames.clips[c].tracks) frame_keys += t.translation.size() + t.rotation.size() + t.scale.size();
  }
  std::printf("M_EX660 stored keys: %zu (one per frame: %zu), within %.3g rad, %.3g units\n", stored_keys, frame_keys,
              rotation, translation);
  EXPECT_LE(rotation, DecodeSettings{}.rotation_tolerance + 1e-5);
  EXPECT_LE(translation, 1e-3);
  EXPECT_LT(stored_keys * 2, frame_keys);
}

}  // namespace
}  // namespace animkit
