// KH2 motions' curves as stored curves (formats/kh2/curves.hpp): golden channels worked out
// from the layout of hand-built motions, the curves against the decoder's pose at every
// frame, and curves written back (every other byte kept).
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/curves.hpp>

#include "formats/kh2/kh2_test_motion.hpp"
#include "support/test_support.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace animkit {
namespace {

using namespace kh2;
using namespace kh2_test;

// Two bones (1 the child of 0) at 30 fps, frames 0..10 (key times 0..20). Bone 0: translation X
// Hermite at key times 0, 6, 20 (values 1, 4, 2; tangents per key-time unit in/out 0.5/0.5,
// -0.25/0.1, 0/0); translation Y linear 0 -> 10 over key times 4..16; scale X constant 1 then 2
// from key time 10. Bone 1: rotation Z Hermite 0 -> pi/2 over 0..20 (zero tangents) repeating
// after; rotation X: a Zero key at 0 (value 3, read as 0) then 1 at key time 12; an initial
// pose of translation Z 0.5.
Motion TwoBones() {
  Motion m = kh2_test::InterpolatedMotionOf(2, 30, 10);
  InterpolatedMotion& im = m.interpolated;
  im.key_times = {0, 6, 20, 4, 16, 10, 12};
  im.values = {1, 4, 2, 0, 10, std::numbers::pi_v<float> / 2, 2, 3};
  im.tangents = {0.5f, -0.25f, 0.1f, 0};
  im.keys = {{PackKey(0, KeyType::Hermite), 0, 0, 0},  // 0: bone 0 translation X
             {PackKey(1, KeyType::Hermite), 1, 1, 2},
             {PackKey(2, KeyType::Hermite), 2, 3, 3},
             {PackKey(3, KeyType::Linear), 3, 0, 0},  // 3: bone 0 translation Y
             {PackKey(4, KeyType::Linear), 4, 0, 0},
             {PackKey(0, KeyType::Hermite), 3, 3, 3},  // 5: bone 1 rotation Z: 0 -> pi/2
             {PackKey(2, KeyType::Hermite), 5, 3, 3},
             {PackKey(0, KeyType::Constant), 0, 3, 3},  // 7: bone 0 scale X: 1, then 2
             {PackKey(5, KeyType::Constant), 6, 3, 3},
             {PackKey(0, KeyType::Zero), 7, 3, 3},  // 9: bone 1 rotation X: 0 (Zero), then 1
             {PackKey(6, KeyType::Linear), 0, 3, 3}};
  im.forward = {CurveOf(0, Channel::TranslateX, 0, 3), CurveOf(0, Channel::TranslateY, 3, 2),
                CurveOf(1, Channel::RotateZ, 5, 2, CycleType::Clamp, CycleType::Repeat),
                CurveOf(0, Channel::ScaleX, 7, 2), CurveOf(1, Channel::RotateX, 9, 2)};
  im.initial_pose = {{1, int16_t(Channel::TranslateZ), 0.5f}};
  im.joints = {{0, 0}, {1, 0}};
  LayoutMotion(m);
  return m;
}

Skeleton TwoBoneSkeleton() {
  Skeleton s;
  s.joints.resize(2);
  s.joints[0].name = NumberedJointName(0);
  s.joints[1].name = NumberedJointName(1);
  s.joints[1].parent = 0;
  return s;
}

const StoredChannel* Find(const StoredCurves& c, int joint, CurveProperty p, int axis) {
  for (const StoredChannel& s : c.channels)
    if (s.joint == joint && s.property == p && s.axis == axis) return &s;
  return nullptr;
}

void ExpectKey(const CurveKey& k, float frame, float value, float in, float out, CurveInterpolation i) {
  EXPECT_FLOAT_EQ(k.frame, frame);
  EXPECT_FLOAT_EQ(k.value, value);
  EXPECT_FLOAT_EQ(k.in_slope, in);
  EXPECT_FLOAT_EQ(k.out_slope, out);
  EXPECT_EQ(int(k.interpolation), int(i));
}

TEST(Kh2StoredCurves, GoldenChannelsFromTheLayout) {
  const StoredCurves c = StoredCurvesOf(TwoBones(), TwoBoneSkeleton(), {});
  EXPECT_EQ(c.rotation_mode, "XYZ");
  EXPECT_TRUE(c.driven.empty());
  ASSERT_EQ(c.channels.size(), 5u);
  EXPECT_EQ(c.KeyCount(), 11u);
  // Key time 6 at 30 fps is frame 3; slopes per key-time unit x 2 are per frame.
  const StoredChannel* tx = Find(c, 0, CurveProperty::Location, 0);
  ASSERT_NE(tx, nullptr);
  EXPECT_EQ(tx->joint_name, NumberedJointName(0));
  ASSERT_EQ(tx->keys.size(), 3u);
  ExpectKey(tx->keys[0], 0, 1, 1, 1, CurveInterpolation::Hermite);
  ExpectKey(tx->keys[1], 3, 4, -0.5f, 0.2f, CurveInterpolation::Hermite);
  ExpectKey(tx->keys[2], 10, 2, 0, 0, CurveInterpolation::Hermite);
  const StoredChannel* ty = Find(c, 0, CurveProperty::Location, 1);
  ASSERT_NE(ty, nullptr);
  ExpectKey(ty->keys[0], 2, 0, 1, 1, CurveInterpolation::Linear);
  ExpectKey(ty->keys[1], 8, 10, 1, 1, CurveInterpolation::Linear);
  const StoredChannel* sx = Find(c, 0, CurveProperty::Scale, 0);
  ASSERT_NE(sx, nullptr);
  ExpectKey(sx->keys[0], 0, 1, 0, 0, CurveInterpolation::Constant);
  ExpectKey(sx->keys[1], 5, 2, 0, 0, CurveInterpolation::Constant);
  const StoredChannel* rz = Find(c, 1, CurveProperty::RotationEuler, 2);
  ASSERT_NE(rz, nullptr);
  EXPECT_EQ(rz->post, CurveCycle::Repeat);
  EXPECT_EQ(rz->pre, CurveCycle::Clamp);
  const StoredChannel* rx = Find(c, 1, CurveProperty::RotationEuler, 0);
  ASSERT_NE(rx, nullptr);
  ExpectKey(rx->keys[0], 0, 0, 0, 0, CurveInterpolation::Constant);  // the Zero key: 0 until the next
  ExpectKey(rx->keys[1], 6, 1, 0, 0, CurveInterpolation::Linear);
  // Constants: the other axes of keyed properties: bone 0 location Z, scale Y and Z; bone 1
  // rotation Y (bone 1's translation has no curve: its initial pose is the glTF's to give).
  ASSERT_EQ(c.constants.size(), 4u);
  EXPECT_EQ(c.constants[0].joint, 0);
  EXPECT_EQ(c.constants[0].property, CurveProperty::Location);
  EXPECT_EQ(c.constants[0].axis, 2);
  EXPECT_EQ(c.constants[1].property, CurveProperty::Scale);
  EXPECT_EQ(c.constants[1].value, 1.0f);
  EXPECT_EQ(c.constants[3].joint, 1);
  EXPECT_EQ(c.constants[3].property, CurveProperty::RotationEuler);
  EXPECT_EQ(c.constants[3].axis, 1);
}

// rotation_mode "XYZ" in Blender's naming: X applied first, q = qz * qy * qx, which is how the
// evaluator composes a joint's Euler channels.
TEST(Kh2StoredCurves, RotationModeXyzAppliesXFirst) {
  const double x = 0.3, y = -0.7, z = 1.1;
  struct Q {
    double x, y, z, w;
  };
  auto mul = [](Q a, Q b) {
    return Q{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
             a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
  };
  const Q qx{std::sin(x / 2), 0, 0, std::cos(x / 2)}, qy{0, std::sin(y / 2), 0, std::cos(y / 2)},
      qz{0, 0, std::sin(z / 2), std::cos(z / 2)};
  const Q want = mul(qz, mul(qy, qx));
  const TransformTRS t = TransformFromChannels({1, 1, 1, float(x), float(y), float(z), 0, 0, 0});
  test::ExpectQuat(t.rotation, want.x, want.y, want.z, want.w, 1e-6);
  EXPECT_EQ(StoredCurvesOf(TwoBones(), {}, {}).rotation_mode, "XYZ");
}

// The channels at every frame compose to the pose the decoder gives every joint that is not driven.
void ExpectCurvesArePose(const Motion& m, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                         const StoredCurves& curves, size_t* compared = nullptr) {
  DecodeSettings s;
  s.stored_keys = false;
  const Clip clip = DecodeMotion(m, skeleton, rest, s);
  std::vector<ChannelValues> channels(clip.tracks.size(), ChannelValues{1, 1, 1, 0, 0, 0, 0, 0, 0});
  for (size_t j = 0; j < rest.size() && j < channels.size(); ++j) channels[j] = rest[j];
  auto slot = [](CurveProperty p, int axis) {
    return size_t((p == CurveProperty::Scale ? 0 : p == CurveProperty::RotationEuler ? 3 : 6) + axis);
  };
  for (const StoredConstant& k : curves.constants) channels[size_t(k.joint)][slot(k.property, k.axis)] = k.value;
  std::vector<std::array<bool, 3>> keyed(clip.tracks.size(), {false, false, false});  // location, rotation, scale
  for (const StoredChannel& ch : curves.channels) keyed[size_t(ch.joint)][size_t(ch.property)] = true;
  size_t n = 0;
  for (size_t f = 0; f < clip.frame_count; ++f) {
    for (const StoredChannel& ch : curves.channels)
      channels[size_t(ch.joint)][slot(ch.property, ch.axis)] = float(EvaluateStoredChannel(ch, double(f)));
    for (size_t j = 0; j < clip.tracks.size(); ++j) {
      if (curves.Driven(int(j))) continue;
      const TransformTRS x = TransformFromChannels(channels[j]);
      const JointTrack& t = clip.tracks[j];
      const Vec3 tr = t.translation.values[f], sc = t.scale.values[f];
      const QuatXYZW q = t.rotation.values[f];
      auto near = [](float a, float b) { return std::abs(double(a) - b) <= 1e-5 * (1 + std::abs(double(b))); };
      // Each property the curves key (all three axes: curves and constants).
      if (keyed[j][0]) {
        ASSERT_TRUE(near(x.translation.x, tr.x) && near(x.translation.y, tr.y) && near(x.translation.z, tr.z))
            << "joint " << j << " frame " << f;
      }
      if (keyed[j][2]) {
        ASSERT_TRUE(near(x.scale.x, sc.x) && near(x.scale.y, sc.y) && near(x.scale.z, sc.z)) << "joint " << j << " frame " << f;
      }
      if (keyed[j][1]) {
        ASSERT_LE(AngleBetween(x.rotation, q), 1e-5) << "joint " << j << " frame " << f;
      }
      n += size_t(keyed[j][0]) + size_t(keyed[j][1]) + size_t(keyed[j][2]);
    }
  }
  if (compared) *compared = n;
}

TEST(Kh2StoredCurves, EvaluatedAtEveryFrameTheyAreTheDecodersPose) {
  size_t compared = 0;
  ExpectCurvesArePose(TwoBones(), TwoBoneSkeleton(), {}, StoredCurvesOf(TwoBones(), TwoBoneSkeleton(), {}), &compared);
  EXPECT_EQ(compared, 33u);  // (bone 0 location and scale, bone 1 rotation) x 11 frames
}

// The edits of a clip as JSON-free channels.
CurveEdit Edit(const std::string& clip, const StoredChannel& c) { return {clip, c}; }

TEST(Kh2StoredCurves, AnUneditedSubmissionIsTheFilesBytes) {
  const Bytes file = SerializeMotion(TwoBones());
  std::vector<CurveEdit> edits;
  for (const StoredChannel& c : StoredCurvesOf(TwoBones(), {}, {}).channels) edits.push_back(Edit("motion", c));
  ReplaceCurvesReport report;
  EXPECT_EQ(ReplaceCurves(file, edits, &report), file);
  EXPECT_EQ(report.unchanged, 5u);
  EXPECT_EQ(report.replaced, 0u);
}

TEST(Kh2StoredCurves, OneReplacedCurveReadsBackAndNothingElseChanges) {
  const Motion before = TwoBones();
  const Bytes file = SerializeMotion(before);
  const StoredCurves curves = StoredCurvesOf(before, {}, {});
  StoredChannel tx = *Find(curves, 0, CurveProperty::Location, 0);
  tx.keys[1].value = 7.25f;                                               // a new value
  tx.keys.push_back({12, 5, 0.75f, -1.5f, CurveInterpolation::Linear});  // new time, value, tangents
  tx.keys[2].interpolation = CurveInterpolation::Constant;
  tx.post = CurveCycle::Offset;
  ReplaceCurvesReport report;
  const Bytes out = ReplaceCurves(file, {Edit("motion", tx)}, &report);
  EXPECT_EQ(report.replaced, 1u);
  EXPECT_EQ(report.appended_keys, 4u);
  EXPECT_EQ(report.appended_times, 1u);      // key time 24 (frame 12)
  EXPECT_EQ(report.appended_values, 2u);     // 7.25 and 5
  EXPECT_EQ(report.appended_tangents, 2u);   // 0.375 and -0.75 per key-time unit
  EXPECT_EQ(out.size() % 16, file.size() % 16);
  const Motion after = ParseMotion(out);
  EXPECT_TRUE(after.warnings.empty());
  const StoredCurves back = StoredCurvesOf(after, {}, {});
  const StoredChannel* got = Find(back, 0, CurveProperty::Location, 0);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->keys, tx.keys);
  EXPECT_EQ(got->post, CurveCycle::Offset);
  ASSERT_EQ(back.channels.size(), curves.channels.size());
  for (size_t i = 0; i < curves.channels.size(); ++i) {
    if (&curves.channels[i] == Find(curves, 0, CurveProperty::Location, 0)) continue;
    EXPECT_EQ(back.channels[i].keys, curves.channels[i].keys) << i;
  }
  // Every table but the four grown ones is the same; the old entries keep their places.
  const InterpolatedMotion &a = before.interpolated, &b = after.interpolated;
  EXPECT_EQ(b.key_times.size(), a.key_times.size() + 1);
  EXPECT_TRUE(std::equal(a.key_times.begin(), a.key_times.end(), b.key_times.begin()));
  EXPECT_TRUE(std::equal(a.values.begin(), a.values.end(), b.values.begin()));
  EXPECT_TRUE(std::equal(a.tangents.begin(), a.tangents.end(), b.tangents.begin()));
  EXPECT_EQ(b.forward.size(), a.forward.size());
  EXPECT_EQ(b.initial_pose.size(), a.initial_pose.size());
  EXPECT_EQ(b.joints.size(), a.joints.size());
  // Replacing it again with the original keys finds them where they are: no table grows.
  ReplaceCurvesReport again;
  const Bytes restored = ReplaceCurves(out, {Edit("motion", *Find(curves, 0, CurveProperty::Location, 0))}, &again);
  EXPECT_EQ(again.appended_keys + again.appended_times + again.appended_values + again.appended_tangents, 0u);
  EXPECT_EQ(restored.size(), out.size());
  EXPECT_EQ(Find(StoredCurvesOf(ParseMotion(restored), {}, {}), 0, CurveProperty::Location, 0)->keys,
            Find(curves, 0, CurveProperty::Location, 0)->keys);
}

TEST(Kh2StoredCurves, ReplacedInAnArchiveTheOtherEntriesKeepTheirBytes) {
  Bar bar;
  BarEntry motion;
  motion.type = kEntryMotion;
  motion.name = {'A', '0', '0', '0'};
  motion.motion = std::make_shared<Motion>(TwoBones());
  BarEntry other;
  other.type = 5;
  other.name = {'X', 'X', 'X', 'X'};
  other.raw = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  bar.entries = {motion, other};
  LayoutBar(bar);
  const Bytes file = SerializeBar(bar);
  StoredChannel ry = *Find(StoredCurvesOf(TwoBones(), {}, {}), 1, CurveProperty::RotationEuler, 2);
  ry.keys[1].value = 1.0f;
  ry.joint = -1;  // by name
  ry.joint_name = NumberedJointName(1);
  const Bytes out = ReplaceCurves(file, {Edit("A000", ry)});
  const Bar back = ParseBar(out);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[1].raw, other.raw);
  EXPECT_EQ(Find(StoredCurvesOf(*back.entries[0].motion, {}, {}), 1, CurveProperty::RotationEuler, 2)->keys[1].value, 1.0f);
}

TEST(Kh2StoredCurves, EditsThatCannotBeWrittenNameTheClipAndJoint) {
  const Bytes file = SerializeMotion(TwoBones());
  StoredChannel c = *Find(StoredCurvesOf(TwoBones(), {}, {}), 0, CurveProperty::Location, 0);
  auto error = [&](const std::string& clip, const StoredChannel& ch) {
    return test::ErrorOf([&] { ReplaceCurves(file, {Edit(clip, ch)}); });
  };
  EXPECT_TRUE(test::Has(error("walk", c), "clip walk")) << error("walk", c);
  StoredChannel none = c;
  none.property = CurveProperty::Scale;
  none.axis = 2;
  EXPECT_TRUE(test::Has(error("motion", none), "clip motion, joint 0")) << error("motion", none);
  EXPECT_TRUE(test::Has(error("motion", none), "stores no curve there"));
  StoredChannel unsorted = c;
  std::swap(unsorted.keys[0], unsorted.keys[1]);
  EXPECT_TRUE(test::Has(error("motion", unsorted), "key 1")) << error("motion", unsorted);
  StoredChannel named = c;
  named.joint = -1;
  named.joint_name = "hand_L";
  EXPECT_TRUE(test::Has(error("motion", named), "hand_L")) << error("motion", named);
}

}  // namespace
}  // namespace animkit
