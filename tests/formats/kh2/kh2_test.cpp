#include <animkit/formats/kh2.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <cstring>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kKh2BarFormat;
extern const FormatDescriptor kKh2MotionFormat;
namespace {

using namespace kh2;

#define KH2_FIXTURE(var, name)                                                            \
  const Bytes var = test::FixtureBytes("kh2/" name);                                      \
  if (var.empty()) GTEST_SKIP() << "fixture kh2/" name " not found beside the checkout"

void ExpectQuat(QuatXYZW q, double x, double y, double z, double w, double tol = 1e-5) {
  test::ExpectQuat(q, x, y, z, w, tol);
}

std::vector<TransformTRS> Pose(const Clip& clip, size_t frame, const Skeleton* rest = nullptr) {
  std::vector<TransformTRS> pose(clip.tracks.size());
  SampleClipJob{&clip, rest, FrameTime(frame, clip.frame_rate), pose}.Run();
  return pose;
}

// ---------------------------------------------------------------------------
// Real files

TEST(Kh2Fixtures, RawMotionDecodesToModelSpaceMatrices) {
  KH2_FIXTURE(data, "raw.motion");
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, data);
  const Motion m = ParseMotion(data);
  ASSERT_TRUE(m.raw);
  EXPECT_EQ(m.raw_motion.bone_count, 3);
  EXPECT_EQ(m.raw_motion.total_frames, 4);
  EXPECT_FLOAT_EQ(m.raw_motion.fps, 30);
  EXPECT_EQ(m.raw_motion.second_table_offset, 0x360);
  EXPECT_EQ(m.raw_motion.second_table.size(), 4u * 64u);  // four identity matrices, kept verbatim
  const Clip clip = DecodeMotion(m, {}, {}, {});
  EXPECT_EQ(clip.space, Space::Model);
  EXPECT_EQ(clip.frame_count, 4u);
  EXPECT_DOUBLE_EQ(clip.frame_rate, 30);
  ASSERT_EQ(clip.tracks.size(), 3u);
  EXPECT_EQ(clip.tracks[2].joint, "#2");
  const auto pose = Pose(clip, 0);
  EXPECT_NEAR(pose[0].translation.x, 0.0993, 1e-4);
  EXPECT_NEAR(pose[0].translation.y, 77.7526, 1e-4);
  EXPECT_NEAR(pose[0].translation.z, -9.7962, 1e-4);
  ExpectQuat(pose[0].rotation, 0, 0, 0, 1);
  // Bone 1, frame 0: first row (-4.37e-8, 0, -1) is +X rotated 90 degrees about +Y.
  const double h = std::sqrt(0.5);
  ExpectQuat(pose[1].rotation, 0, h, 0, h);
  // Bone 0, frame 1: a small rotation about X with sin = -0.0126 (matrix rows 1 and 2).
  const auto pose1 = Pose(clip, 1);
  EXPECT_NEAR(pose1[0].translation.y, 78.6335, 1e-3);
  EXPECT_NEAR(2 * std::asin(std::abs(pose1[0].rotation.x)), std::asin(0.0126), 1e-3);
}

TEST(Kh2Fixtures, InterpolatedMotionTablesAndCurves) {
  KH2_FIXTURE(data, "interpolated.motion");
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, data);
  const Motion m = ParseMotion(data);
  ASSERT_FALSE(m.raw);
  const InterpolatedMotion& im = m.interpolated;
  EXPECT_EQ(im.bone_count, 228);
  EXPECT_EQ(im.total_bone_count, 239);
  EXPECT_EQ(im.total_frames, 300);
  EXPECT_EQ(im.key_time_count, 143);
  EXPECT_EQ(im.initial_pose.size(), 475u);
  EXPECT_EQ(im.forward.size(), 194u);
  EXPECT_EQ(im.inverse.size(), 26u);
  EXPECT_EQ(im.keys.size(), (0x52a8u - 0x14b0u) / 8);
  EXPECT_EQ(im.tangents.size(), (0x9270u - 0x7154u) / 4);
  EXPECT_EQ(im.constraints.size(), 6u);
  EXPECT_EQ(im.ik_helpers.size(), 11u);
  EXPECT_EQ(im.joints.size(), 240u);
  EXPECT_FLOAT_EQ(im.fps, 30);
  EXPECT_FLOAT_EQ(im.frame_end, 150);
  EXPECT_EQ(im.constraints[0].joint, 10);
  EXPECT_EQ(im.constraints[0].source, 234);
  EXPECT_EQ(im.ik_helpers[1].parent, 228);
  EXPECT_EQ(im.initial_pose[1].bone, 1);
  EXPECT_EQ(im.initial_pose[1].channel, 3);
  EXPECT_NEAR(im.initial_pose[1].value, -1.5706781, 1e-6);
  // Forward curve 0: bone 0 rotation X, 10 hermite keys; at key time 10 (frame 5 at 30 fps)
  // the segment 0..32 gives 0.429425743 (worked out by hand from the tables).
  EXPECT_EQ(im.forward[0].joint, 0);
  EXPECT_EQ(im.forward[0].channel(), 3);
  EXPECT_EQ(im.forward[0].key_count, 10);
  EXPECT_NEAR(EvaluateCurve(im, im.forward[0], 10), 0.429425743, 1e-6);
  EXPECT_NEAR(EvaluateCurve(im, im.forward[0], 0), 0.4317662716, 1e-7);
  EXPECT_NEAR(EvaluateCurve(im, im.forward[0], 300), 0.4317663014, 1e-7);
  EXPECT_NEAR(EvaluateCurve(im, im.forward[0], 32), 0.4393218458, 1e-7);

  const Clip clip = DecodeMotion(m, {}, {}, {});
  EXPECT_EQ(clip.frame_count, 151u);  // frames 0..150 (frame end 150 at 30 fps = key time 300)
  EXPECT_FLOAT_EQ(clip.duration, 5.0f);
  ASSERT_EQ(clip.tracks.size(), 239u);  // 228 bones + 11 IK helpers
  EXPECT_EQ(clip.tracks[238].joint, "#238");
  std::vector<ChannelValues> rest, pose;
  EvaluatePose(im, 10, rest, pose);
  EXPECT_NEAR(pose[0][3], 0.429425743, 1e-6);
  EXPECT_NEAR(pose[1][3], -1.5706781, 1e-6);  // initial pose only
  const auto sampled = Pose(clip, 5);
  const TransformTRS expect = TransformFromChannels(pose[0]);
  EXPECT_LT(AngleBetween(sampled[0].rotation, expect.rotation), 1e-5);
}

TEST(Kh2Fixtures, AnbHoldsMotionAndTriggers) {
  KH2_FIXTURE(data, "test-0000.anb");
  test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
  const Bar bar = ParseBar(data);
  ASSERT_EQ(bar.entries.size(), 2u);
  EXPECT_EQ(bar.entries[0].type, kEntryMotion);
  EXPECT_EQ(bar.entries[0].Name(), "OpKH");
  EXPECT_EQ(bar.entries[0].offset, 0x30u);
  EXPECT_EQ(bar.entries[0].size, 0x1E0u);
  EXPECT_EQ(bar.entries[1].type, kEntryTriggers);
  ASSERT_TRUE(bar.entries[0].motion && bar.entries[1].triggers);
  const InterpolatedMotion& im = bar.entries[0].motion->interpolated;
  EXPECT_EQ(im.bone_count, 2);
  EXPECT_FLOAT_EQ(im.fps, 60);
  EXPECT_EQ(im.keys.size(), 2u);
  EXPECT_TRUE(im.tangents.empty());  // constant and linear keys with tangent index 0: accepted
  const Triggers& t = *bar.entries[1].triggers;
  ASSERT_EQ(t.ranges.size(), 1u);
  EXPECT_EQ(t.ranges[0].start, 0);
  EXPECT_EQ(t.ranges[0].end, -1);
  EXPECT_EQ(t.ranges[0].id, 0);
  ASSERT_EQ(t.frames.size(), 2u);
  EXPECT_EQ(t.frame_list_offset, 0x0A);
  EXPECT_EQ(t.frames[0].frame, 56);
  EXPECT_EQ(t.frames[0].id, 19);
  EXPECT_EQ(t.frames[0].params, std::vector<int16_t>{9});
  EXPECT_EQ(t.frames[1].frame, 112);
  EXPECT_EQ(t.frames[1].params, std::vector<int16_t>{8});

  const Scene scene = kKh2BarFormat.read(data, {})->Decode({});
  ASSERT_EQ(scene.clips.size(), 1u);
  const Clip& clip = scene.clips[0];
  EXPECT_EQ(clip.name, "OpKH");
  EXPECT_EQ(clip.frame_count, 11u);
  ASSERT_EQ(clip.events.size(), 3u);
  EXPECT_EQ(clip.events[0].name, "STATE: Grounded");
  EXPECT_EQ(clip.events[0].params, (std::vector<double>{0, -1}));  // id 0, range end -1 (to the end)
  EXPECT_EQ(clip.events[1].name, "Apply footstep effect (Footprint, water splashes…)");
  EXPECT_FLOAT_EQ(clip.events[1].time, 56.0f / 60.0f);
  EXPECT_EQ(clip.events[1].params, (std::vector<double>{19, 9}));
  // Triggers re-encoded from the events give the same bytes.
  Triggers back = EncodeTriggers(clip.events, 60);
  EXPECT_EQ(SerializeTriggers(back), SerializeTriggers(t));
}

TEST(Kh2Fixtures, GltfExportImportsBackWithTheSamePoses) {
  KH2_FIXTURE(data, "interpolated.motion");
  const Scene scene = kKh2MotionFormat.read(data, {})->Decode({});
  const Bytes glb = ExportGltf(scene, {});
  const Scene back = ImportGltf(glb, "interpolated.glb");
  ASSERT_EQ(back.clips.size(), 1u);
  const Clip& a = scene.clips[0];
  const Clip& b = back.clips[0];
  EXPECT_EQ(b.name, "motion");
  for (size_t frame : {0u, 7u, 150u}) {
    const auto pa = Pose(a, frame);
    std::vector<TransformTRS> pb(b.tracks.size());
    SampleClipJob{&b, &back.skeleton, FrameTime(frame, a.frame_rate), pb}.Run();
    for (size_t j = 0; j < a.tracks.size(); j += 17) {
      const JointTrack* tb = b.FindTrack(a.tracks[j].joint);
      ASSERT_NE(tb, nullptr) << a.tracks[j].joint;
      const TransformTRS& x = pb[size_t(tb - b.tracks.data())];
      EXPECT_NEAR(x.translation.y, pa[j].translation.y, 1e-4);
      EXPECT_LT(AngleBetween(x.rotation, pa[j].rotation), 1e-4);
    }
  }
}

TEST(Kh2Fixtures, CorruptedValueIndexNamesTheAbsoluteOffset) {
  KH2_FIXTURE(data, "test-0000.anb");
  // Key 1 of the motion at 0x30: keys at 0x30 + 0x90 + 0xBE; key 1's value index at +8 + 2.
  // Value 0x4040 lies past the end of the file: the motion entry is damaged, the file reads.
  Bytes bad = data;
  const size_t at = 0x30 + 0x90 + 0xBE + 8 + 2;
  bad[at] = 0x40, bad[at + 1] = 0x40;
  const auto doc = kKh2BarFormat.read(bad, {});
  const std::vector<std::string> damaged = doc->Damaged();
  ASSERT_EQ(damaged.size(), 1u);
  EXPECT_NE(damaged[0].find("offset " + Hex(at)), std::string::npos) << damaged[0];
  EXPECT_NE(damaged[0].find("value 16448 lies past the end of the file"), std::string::npos) << damaged[0];
  EXPECT_EQ(doc->Write(), bad);
}

// ---------------------------------------------------------------------------
// Curves, hand-built: keys at times 0 and 10, values 1 and 3 (or 0 and 1 for hermite).

InterpolatedMotion TwoKeys(KeyType type, float v0, float v1, float out0 = 0, float in1 = 0) {
  InterpolatedMotion m;
  m.bone_count = m.total_bone_count = 1;
  m.key_times = {0, 10};
  m.values = {v0, v1};
  m.tangents = {out0, in1};
  m.keys = {{static_cast<uint16_t>((0 << 2) | uint16_t(type)), 0, 1, 0},
            {static_cast<uint16_t>((1 << 2) | uint16_t(type)), 1, 1, 0}};
  return m;
}

Curve CurveWith(int pre, int post) {
  Curve c;
  c.joint = 0;
  c.packed = static_cast<uint8_t>(6 | (pre << 4) | (post << 6));  // translation X
  c.key_count = 2;
  c.first_key = 0;
  return c;
}

TEST(Kh2Curves, EveryKeyType) {
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Constant, 1, 3), CurveWith(0, 0), 5), 1);
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Constant, 1, 3), CurveWith(0, 0), 10), 3);
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Linear, 1, 3), CurveWith(0, 0), 5), 2);
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Linear, 1, 3), CurveWith(0, 0), 2.5f), 1.5f);
  // Hermite 0 -> 1 over 10 key units; out-tangent 0.1 per unit, so m0 = 10 * 0.1 = 1, m1 = 0.
  // u = 0.5: h10 = 0.125, h01 = 0.5 -> 0.625.
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Hermite, 0, 1, 0.1f, 0), CurveWith(0, 0), 5), 0.625f);
  // u = 0.25 with m1 = 10 * 0.2 = 2: h00=0.84375 h10=0.140625 h01=0.15625 h11=-0.046875
  // -> 0.140625 * 1 + 0.15625 * 1 - 0.046875 * 2 = 0.203125
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Hermite, 0, 1, 0.1f, 0.2f), CurveWith(0, 0), 2.5f), 0.203125f);
  EXPECT_FLOAT_EQ(EvaluateCurve(TwoKeys(KeyType::Zero, 1, 3), CurveWith(0, 0), 5), 0);
}

TEST(Kh2Curves, EveryCycleType) {
  const InterpolatedMotion m = TwoKeys(KeyType::Linear, 1, 3);
  // Post cycles at t = 15 (half way through the second cycle).
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 0), 15), 3);  // clamp
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 1), 15), 4);  // offset: 2 + (3 - 1)
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 2), 15), 2);  // repeat
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 3), 15), 0);  // zero
  // t = 32.5: three whole cycles past the keys, 2.5 into the fourth: 1.5 + 3 * (3 - 1).
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 1), 32.5f), 7.5f);
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 2), 32.5f), 1.5f);
  // Pre cycles at t = -5.
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(0, 0), -5), 1);
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(1, 0), -5), 0);  // offset: 2 - (3 - 1)
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(2, 0), -5), 2);
  EXPECT_FLOAT_EQ(EvaluateCurve(m, CurveWith(3, 0), -5), 0);
}

// A hand-built motion written with the layout, read back, decoded at its frames.
Motion HandMotion() {
  Motion m;
  InterpolatedMotion& im = m.interpolated;
  im = TwoKeys(KeyType::Hermite, 0, 1, 0.1f, 0);
  im.bone_count = 2;
  im.fps = 30;  // frame i at key time 2i
  im.frame_end = 5;
  im.forward = {CurveWith(0, 0)};
  im.forward[0].joint = 1;
  im.initial_pose = {{0, 5, static_cast<float>(std::numbers::pi / 2)}};  // bone 0 rotation Z 90 degrees
  BoneRecord helper;
  helper.index = 2;
  helper.parent = 0;
  helper.translation = {0, 7, 0, 0};
  im.ik_helpers = {helper};
  LayoutMotion(m);
  return m;
}

TEST(Kh2Motion, HandBuiltInterpolatedMotionDecodes) {
  const Bytes bytes = SerializeMotion(HandMotion());
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
  const Motion m = ParseMotion(bytes);
  EXPECT_EQ(m.interpolated.total_bone_count, 3);
  EXPECT_EQ(m.header.byte_count, static_cast<int32_t>(bytes.size() - 0x90));
  const Clip clip = DecodeMotion(m, {}, {}, {});
  EXPECT_EQ(clip.frame_count, 6u);
  ASSERT_EQ(clip.tracks.size(), 3u);
  const auto p = Pose(clip, 1);  // key time 2: u = 0.2, h10 = 0.128, h01 = 0.104 -> 0.232
  EXPECT_NEAR(p[1].translation.x, 0.232, 1e-6);
  const double h = std::sqrt(0.5);
  ExpectQuat(p[0].rotation, 0, 0, h, h);
  // IK helper rest, relative to its parent by the per-axis rule (float rounding of the rotation).
  test::ExpectVec(p[2].translation, 0, 7, 0, 1e-5);
  // A skeleton's rest pose fills channels without curve or initial pose.
  Skeleton s;
  s.joints = {{"root", -1, {}}, {"arm", 0, {{0, 0, 4}, {}, {2, 2, 2}}}};
  const Clip with = DecodeMotion(m, s, RestChannels(s, {}), {});
  EXPECT_EQ(with.tracks[1].joint, "arm");
  const auto q = Pose(with, 1);
  EXPECT_NEAR(q[1].translation.x, 0.232, 1e-6);
  EXPECT_FLOAT_EQ(q[1].translation.z, 4);
  EXPECT_FLOAT_EQ(q[1].scale.y, 2);
}

TEST(Kh2Motion, IndicesPastTheFileAreErrorsWithOffsets) {
  Motion m = HandMotion();
  const size_t curve_at = 0x90 + size_t(m.interpolated.forward_offset);
  m.interpolated.forward[0].first_key = 4000;
  std::string e = test::ReadError(kKh2MotionFormat, SerializeMotion(m));
  EXPECT_NE(e.find("offset " + Hex(curve_at + 4)), std::string::npos) << e;
  EXPECT_NE(e.find("past the end of the file"), std::string::npos) << e;

  m = HandMotion();
  m.interpolated.keys[1].value = 9000;
  e = test::ReadError(kKh2MotionFormat, SerializeMotion(m));
  EXPECT_NE(e.find("offset " + Hex(0x90 + size_t(m.interpolated.key_offset) + 8 + 2)), std::string::npos) << e;
  EXPECT_NE(e.find("value 9000"), std::string::npos) << e;

  m = HandMotion();
  m.interpolated.keys[0].packed = static_cast<uint16_t>((5000 << 2) | 2);
  e = test::ReadError(kKh2MotionFormat, SerializeMotion(m));
  EXPECT_NE(e.find("key time 5000"), std::string::npos) << e;

  m = HandMotion();
  m.interpolated.keys[0].out_tangent = 7000;
  e = test::ReadError(kKh2MotionFormat, SerializeMotion(m));
  EXPECT_NE(e.find("offset " + Hex(0x90 + size_t(m.interpolated.key_offset) + 6)), std::string::npos) << e;

  // Channel 9 is read and kept (a warning): it moves no known channel (kh2_nested_damage_test.cpp).
  m = HandMotion();
  m.interpolated.forward[0].packed = 9;
  const Motion channel9 = ParseMotion(SerializeMotion(m));
  ASSERT_FALSE(channel9.warnings.empty());
  EXPECT_NE(channel9.warnings.back().find("channel 9 is none of the 9 known channels"), std::string::npos)
      << channel9.warnings.back();

  Bytes b = SerializeMotion(HandMotion());
  b[0xA0 + 0x30 + 3] = 0x7F;  // key table offset far past the end
  e = test::ReadError(kKh2MotionFormat, b);
  EXPECT_NE(e.find("offset 0xd0"), std::string::npos) << e;

  b = SerializeMotion(HandMotion());
  b[0x90] = 7;
  e = test::ReadError(kKh2MotionFormat, b);
  EXPECT_NE(e.find("offset 0x90: motion type 7"), std::string::npos) << e;
}

TEST(Kh2Motion, EveryTruncationOfEverySampleFails) {
  for (const char* name : {"wave.motion", "wave_raw.motion"}) {
    const Bytes data = ReadFileBytes(test::SourcePath(std::string("samples/kh2_motion/") + name));
    test::ExpectByteExactRoundTrip(kKh2MotionFormat, data);
    static size_t full;
    full = data.size();
    // The alignment padding at the end is not needed by any table.
    test::ExpectEveryTruncationFails(kKh2MotionFormat, data, [](size_t n) { return n + 16 > full; });
  }
}

// ---------------------------------------------------------------------------
// Triggers

const Bytes kTriggers = {
    1, 1, 12, 0,                     // 1 range, 1 frame trigger, frame list at 12
    5, 0, 20, 0, 4, 1, 7, 0,         // range 5..20, id 4 (enable collision), 1 param: 7
    10, 0, 2, 1, 3, 0,               // frame 10, id 2 (footstep sound), 1 param: 3
};

TEST(Kh2Triggers, HandBuiltTriggersDecodeToEvents) {
  const Triggers t = ParseTriggers(kTriggers);
  EXPECT_EQ(SerializeTriggers(t), kTriggers);
  const auto events = DecodeTriggers(t, 30, 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].name, "Enable collision");  // the table's word for range id 4
  EXPECT_FLOAT_EQ(events[0].time, 5.0f / 30);
  EXPECT_FLOAT_EQ(*events[0].end_time, 20.0f / 30);
  EXPECT_EQ(events[0].params, (std::vector<double>{4, 20, 7}));  // id, stored end, parameter
  EXPECT_EQ(events[1].name, "Play footstep sound");
  EXPECT_EQ(events[1].params, (std::vector<double>{2, 3}));
  EXPECT_FLOAT_EQ(events[1].time, 10.0f / 30);
  EXPECT_EQ(SerializeTriggers(EncodeTriggers(events, 30)), kTriggers);
}

TEST(Kh2Triggers, ParamsPastTheEntryAreErrors) {
  Bytes bad = kTriggers;
  bad[17 - 2] = 9;  // the frame trigger claims 9 params
  bad.resize(18);
  EXPECT_THROW(ParseTriggers(bad), Error);
  try {
    ParseTriggers(bad, 0x200);
  } catch (const Error& e) {
    EXPECT_EQ(e.byte_offset(), std::optional<uint64_t>(0x200 + 16)) << e.what();
    EXPECT_NE(std::string(e.what()).find("frame trigger 0 parameters"), std::string::npos) << e.what();
  }
  Bytes bad2 = kTriggers;
  bad2[2] = 0x40;  // frame list past the end
  EXPECT_THROW(ParseTriggers(bad2), Error);
}

// ---------------------------------------------------------------------------
// BAR

// Outer BAR: [0] ANB holding one triggers entry, [1] empty slot, [2] duplicate of [0].
Bytes HandBar() {
  ByteWriter inner(Endian::Little);
  inner.Append(ByteView(reinterpret_cast<const uint8_t*>("BAR\x01"), 4));
  inner.U32(1), inner.U32(0), inner.I32(0);
  inner.U16(kEntryTriggers), inner.U16(0);
  inner.Append(ByteView(reinterpret_cast<const uint8_t*>("A000"), 4));
  inner.U32(0x20), inner.U32(uint32_t(kTriggers.size()));
  inner.Append(kTriggers);
  const Bytes anb = inner.Take();
  ByteWriter w(Endian::Little);
  w.Append(ByteView(reinterpret_cast<const uint8_t*>("BAR\x01"), 4));
  w.U32(3), w.U32(0), w.I32(2);
  auto entry = [&](uint16_t type, uint16_t dup, const char* name, uint32_t off, uint32_t size) {
    w.U16(type), w.U16(dup);
    w.Append(ByteView(reinterpret_cast<const uint8_t*>(name), 4));
    w.U32(off), w.U32(size);
  };
  entry(kEntryAnb, 0, "A000", 0x40, uint32_t(anb.size()));
  entry(kEntryAnb, 0, "A001", 0x40 + uint32_t(anb.size()), 0);
  entry(kEntryAnb, 1, "A000", 0x40, uint32_t(anb.size()));
  w.Append(anb);
  w.Fill(6, 0xEE);  // trailing bytes no entry covers
  return w.Take();
}

TEST(Kh2Bar, NestedDuplicateAndEmptyEntries) {
  const Bytes data = HandBar();
  test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
  const Bar bar = ParseBar(data);
  EXPECT_EQ(bar.mset_type, 2);
  ASSERT_EQ(bar.entries.size(), 3u);
  ASSERT_TRUE(bar.entries[0].bar);
  ASSERT_EQ(bar.entries[0].bar->entries.size(), 1u);
  ASSERT_TRUE(bar.entries[0].bar->entries[0].triggers);
  EXPECT_EQ(bar.entries[0].bar->entries[0].triggers->ranges[0].params, std::vector<int16_t>{7});
  EXPECT_EQ(bar.entries[1].size, 0u);
  EXPECT_FALSE(bar.entries[1].bar);
  EXPECT_EQ(bar.entries[2].duplicate, 1);
  EXPECT_TRUE(bar.entries[2].bar);
  ASSERT_EQ(bar.gaps.size(), 1u);
  EXPECT_EQ(bar.gaps[0].bytes, Bytes(6, 0xEE));
  EXPECT_EQ(test::ReadError(kKh2BarFormat, data), "");
}

TEST(Kh2Bar, MalformedArchivesGiveErrorsWithOffsets) {
  Bytes bad = HandBar();
  bad[2] = 'X';
  EXPECT_NE(test::ReadError(kKh2BarFormat, bad).find("offset 0x0: expected the BAR magic"), std::string::npos);

  bad = HandBar();
  bad[7] = 0x10;  // entry count 0x10000003
  std::string e = test::ReadError(kKh2BarFormat, bad);
  EXPECT_NE(e.find("offset 0x10"), std::string::npos) << e;
  EXPECT_NE(e.find("BAR entry table"), std::string::npos) << e;
}

std::vector<std::string> BarSamples() { return {"walk.anb", "raw.anb", "p_ex00.mset", "ex00.mdlx"}; }

// Truncations: Kh2LenientRead.EveryTruncationFailsOrKeepsWhatItHolds.
TEST(Kh2Bar, SamplesRoundTrip) {
  for (const std::string& name : BarSamples()) {
    const Bytes data = ReadFileBytes(test::SourcePath("samples/kh2_bar/" + name));
    test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
  }
}

TEST(Kh2Bar, MsetSlotsAndModelSkeleton) {
  const Bytes mset = ReadFileBytes(test::SourcePath("samples/kh2_bar/p_ex00.mset"));
  const Bytes mdlx = ReadFileBytes(test::SourcePath("samples/kh2_bar/ex00.mdlx"));
  const Scene skeleton = kKh2BarFormat.read(mdlx, {})->Decode({});
  ASSERT_EQ(skeleton.skeleton.joints.size(), 4u);
  EXPECT_TRUE(skeleton.clips.empty());
  EXPECT_EQ(skeleton.skeleton.joints[0].parent, -1);
  // The bone table at 0x90 + 0x20: records of 0x40 bytes, parent at +4 (i16); the sample's
  // synthetic skeleton hangs its other joints from the root, with unit scale.
  ASSERT_GE(mdlx.size(), 0x20 + 0x90 + 4 * 0x40);
  for (size_t b = 1; b < 4; ++b) {
    const size_t record = 0x20 + 0x90 + 0x20 + b * 0x40;  // BAR header + entry table, reserved, bone offset
    EXPECT_EQ(int16_t(mdlx[record + 4] | (mdlx[record + 5] << 8)), 0) << "bone " << b;
    EXPECT_EQ(skeleton.skeleton.joints[b].parent, 0) << "bone " << b;
    EXPECT_FLOAT_EQ(skeleton.skeleton.joints[b].rest.scale.x, 1.0f) << "bone " << b;
  }
  const Scene scene = kKh2BarFormat.read(mset, {})->Decode(DecodeContext{&skeleton, {}});
  ASSERT_EQ(scene.clips.size(), 3u);  // slot 1 is empty
  EXPECT_EQ(scene.clips[0].name, "000_A000");
  EXPECT_EQ(scene.clips[1].name, "002_A000");
  EXPECT_EQ(scene.clips[2].name, "003_A000");
  EXPECT_EQ(scene.clips[1].events.size(), 3u);
  EXPECT_EQ(scene.skeleton.joints.size(), 4u);
}

// ---------------------------------------------------------------------------
// Encoding

TEST(Kh2Encode, ClipToAnbAndBackWithinBounds) {
  SyntheticSpec spec;
  spec.joints = 5;
  spec.frames = 40;
  spec.frame_rate = 30;
  const Skeleton skeleton = SyntheticSkeleton(spec);
  Clip clip = SyntheticClip(skeleton, spec);
  clip.events.push_back({0.5f, "Magic cast", {17, 2}, std::nullopt});
  for (bool raw : {false, true}) {
    EncodeSettings s;
    s.raw = raw;
    const Bytes bytes = SerializeBar(EncodeAnb(clip, skeleton, s));
    test::ExpectByteExactRoundTrip(kKh2BarFormat, bytes);
    Scene ref;
    ref.skeleton = skeleton;
    DecodeContext ctx{&ref, {}};
    ctx.options.Set("kh2-raw-space", "local");
    const Scene back = kKh2BarFormat.read(bytes, {})->Decode(ctx);
    ASSERT_EQ(back.clips.size(), 1u);
    const Clip& c = back.clips[0];
    EXPECT_EQ(c.frame_count, clip.frame_count);
    ASSERT_EQ(c.events.size(), 1u);
    EXPECT_EQ(c.events[0].name, "Magic cast");
    EXPECT_EQ(c.events[0].params, (std::vector<double>{17, 2}));
    EXPECT_NEAR(c.events[0].time, 0.5, 1e-6);
    for (size_t f = 0; f < clip.frame_count; f += 3) {
      const auto a = Pose(clip, f, &skeleton);
      const auto b = Pose(c, f, &skeleton);
      for (size_t j = 0; j < a.size(); ++j) {
        EXPECT_NEAR(a[j].translation.x, b[j].translation.x, 1e-3) << raw << " " << f << " " << j;
        EXPECT_NEAR(a[j].translation.y, b[j].translation.y, 1e-3);
        EXPECT_NEAR(a[j].scale.y, b[j].scale.y, 1e-3);
        EXPECT_LT(AngleBetween(a[j].rotation, b[j].rotation), 1e-3) << raw << " " << f << " " << j;
      }
    }
  }
}

TEST(Kh2Encode, CliConvertsMsetToGlbAndBackToAnb) {
  const auto dir = test::TempDir("kh2_cli");
  std::string out, err;
  const std::string mset = test::SourcePath("samples/kh2_bar/p_ex00.mset");
  const std::string mdlx = test::SourcePath("samples/kh2_bar/ex00.mdlx");
  ASSERT_EQ(test::RunCli("convert " + mset + " " + (dir / "p.glb").string() + " --skeleton " + mdlx, &out, &err), 0)
      << err;
  ASSERT_EQ(test::RunCli("convert " + (dir / "p.glb").string() + " " + (dir / "a.anb").string() +
                             " --clip 002_A000 --skeleton " + mdlx,
                         &out, &err),
            0)
      << err;
  ASSERT_EQ(test::RunCli("sample " + (dir / "a.anb").string(), &out, &err), 0) << err;
  EXPECT_NE(out.find("Play footstep sound"), std::string::npos);
  ASSERT_EQ(test::RunCli("convert " + (dir / "p.glb").string() + " " + (dir / "r.anb").string() +
                             " --raw --clip 000_A000 --skeleton " + mdlx,
                         &out, &err),
            0)
      << err;
  ASSERT_EQ(test::RunCli("info " + (dir / "r.anb").string() + " --json", &out, &err), 0) << err;
  EXPECT_NE(out.find("\"kind\": \"raw\""), std::string::npos);
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

TEST(Kh2Regression, NonAsciiEntryNamesAndHugeBoneCounts) {
  // An entry name that is not UTF-8 is shown as %XX, so the info JSON can be written.
  Bytes bar = kh2::SerializeBar([] {
    kh2::Bar b;
    kh2::BarEntry e;
    e.type = 5;
    e.name = {'\xF9', 'x', '0', '\0'};
    e.raw = {1, 2, 3};
    b.entries.push_back(e);
    kh2::LayoutBar(b);
    return b;
  }());
  auto doc = kKh2BarFormat.read(bar, {});
  EXPECT_NE(DumpJson(doc->Info()).find("%F9x0"), std::string::npos);
  // A raw motion of 0 frames and 2^31 - 1 bones parses (no matrices) but does not decode.
  kh2::Motion m;
  m.raw = true;
  m.raw_motion.bone_count = 0x7FFFFFFF;
  m.raw_motion.total_frames = 0;
  kh2::LayoutMotion(m);
  m.raw_motion.bone_count = 0x7FFFFFFF;
  const Bytes bytes = kh2::SerializeMotion(m);
  auto motion = kKh2MotionFormat.read(bytes, {});
  EXPECT_THROW(motion->Decode({}), Error);
}

}  // namespace
}  // namespace animkit
