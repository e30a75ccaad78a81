// KH2 decoding as the game plays a motion: the played frames (frame start to frame end),
// the evaluated pose as per-axis locals, the kh2-constraints option, and the encoder
// keeping the curves of the joints a template drives. Motions are built with the layout
// (docs/formats/kh2.md); expected values are worked out by hand.
#include <animkit/formats/kh2.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace animkit {
extern const FormatDescriptor kKh2MotionFormat;
extern const FormatDescriptor kKh2BarFormat;
namespace {

using namespace kh2;

// Bones 0 and 1 (roots: no skeleton), translation X of bone 0 linear from 0 at key time 0
// to 40 at key time 40; bone 1 sits at (1, 2, 3) by its initial pose.
Motion TwoBones(float frame_start, float frame_end) {
  Motion m;
  InterpolatedMotion& im = m.interpolated;
  im.bone_count = im.total_bone_count = 2;
  im.fps = 30;
  im.frame_loop = frame_start;
  im.frame_end = frame_end;
  im.key_times = {0, 40};
  im.values = {0, 40};
  im.keys = {{uint16_t((0 << 2) | uint16_t(KeyType::Linear)), 0, 0, 0},
             {uint16_t((1 << 2) | uint16_t(KeyType::Linear)), 1, 0, 0}};
  Curve c;
  c.joint = 0;
  c.packed = uint8_t(Channel::TranslateX);
  c.key_count = 2;
  im.forward = {c};
  im.initial_pose = {{1, 6, 1}, {1, 7, 2}, {1, 8, 3}};
  im.joints = {{0, 0}, {1, 0}};
  LayoutMotion(m);
  return m;
}

// One key per played frame (these tests read the evaluated frames; StoredKeys tests the curves as keys).
Clip Decode(const Motion& m, bool constraints = true) {
  DecodeSettings s;
  s.evaluation.constraints = constraints;
  s.stored_keys = false;
  return DecodeMotion(ParseMotion(SerializeMotion(m)), {}, {}, s);
}

TEST(Kh2Frames, PlayedFromFrameStartToFrameEndIncluded) {
  const Clip clip = Decode(TwoBones(4, 10));
  ASSERT_EQ(clip.frame_count, 7u);  // 10 - 4 + 1
  EXPECT_NEAR(clip.duration, 6.0 / 30, 1e-6);
  EXPECT_EQ(clip.scale_inheritance, ScaleInheritance::PerAxis);
  const auto& x = clip.tracks[0].translation.values;
  ASSERT_EQ(x.size(), 7u);
  for (size_t k = 0; k < 7; ++k) EXPECT_FLOAT_EQ(x[k].x, 2 * (4 + float(k))) << k;  // key time 2 (4 + k)
  EXPECT_EQ(clip.metadata[metadata_keys::kFrameLoop], 4.0);
}

TEST(Kh2Frames, FrameEndZeroOrStartPastEndStillDecode) {
  Motion m = TwoBones(0, 0);
  m.interpolated.total_frames = 20;  // frame end 0: total frames x 30 / 60 = 10 -> frames 0..10
  EXPECT_EQ(Decode(m).frame_count, 11u);
  m = TwoBones(12, 10);  // a start past the end reads as 0
  EXPECT_EQ(Decode(m).frame_count, 11u);
  m = TwoBones(2, 7.5f);  // frames 2..7 (the end is not a whole frame)
  const Clip clip = Decode(m);
  EXPECT_EQ(clip.frame_count, 6u);
  EXPECT_FLOAT_EQ(clip.tracks[0].translation.values.back().x, 14);
}

TEST(Kh2Frames, InfoGivesPlayedFramesAndEvaluation) {
  Motion m = TwoBones(4, 10);
  m.interpolated.constraints = {{0, 1, 1, 0, -1, 0, 0}, {13, 1, 0, 1, -1, 0, 0}};
  LayoutMotion(m);
  const Value info = kKh2MotionFormat.read(SerializeMotion(m), {})->Info();
  EXPECT_EQ(info["played_frames"], 7);
  EXPECT_EQ(info["played_from"], 4.0);
  EXPECT_NEAR(info["duration"].get<double>(), 0.2, 1e-9);
  const Value& e = info["evaluation"];
  EXPECT_EQ(e["constraints"]["position"], 1);
  EXPECT_EQ(e["constraints"]["rotation_limit"], 1);
  EXPECT_EQ(e["driven_joints"], 1);  // the rotation limit has no limiter: skipped, it drives nothing
}

// What the evaluation cannot do reaches the user once per motion, as reader warnings
// naming the entry: here an expression whose target joint the motion does not have.
TEST(Kh2Evaluated, PlanWarningsAreReaderWarningsOncePerMotion) {
  Motion m = TwoBones(0, 10);
  ExpressionNode node;
  node.type = uint8_t(ExpressionNodeType::ConstantNum);
  node.value = 1;
  m.interpolated.expression_nodes = {node};
  m.interpolated.expressions = {{99, 0, 0, 0}};
  LayoutMotion(m);
  const Motion parsed = ParseMotion(SerializeMotion(m));
  const std::vector<std::string> plan = PlanEvaluation(parsed.interpolated, {}, {}).warnings;
  EXPECT_FALSE(plan.empty());
  EXPECT_EQ(kKh2MotionFormat.read(SerializeMotion(m), {})->Warnings(), plan);
  Bar bar;
  for (const char* name : {"A000", "A001"}) {  // two entries, one payload each
    BarEntry e;
    e.type = kEntryMotion;
    std::copy_n(name, 4, e.name.begin());
    e.motion = std::make_shared<Motion>(parsed);
    bar.entries.push_back(e);
  }
  LayoutBar(bar);
  std::vector<std::string> expected;
  for (const std::string& w : plan) expected.push_back("entry 0 (A000): " + w);
  for (const std::string& w : plan) expected.push_back("entry 1 (A001): " + w);
  EXPECT_EQ(kKh2BarFormat.read(SerializeBar(bar), {})->Warnings(), expected);
}

// Bone 1's Position constraint from bone 0: its model translation is bone 0's.
TEST(Kh2Evaluated, ConstraintSetsTheLocalAndTheOptionTurnsItOff) {
  Motion m = TwoBones(0, 10);
  m.interpolated.constraints = {{uint8_t(ConstraintType::Position), 1, 1, 0, -1, 0, 0}};
  LayoutMotion(m);
  const Clip on = Decode(m);
  const Clip off = Decode(m, false);
  ASSERT_EQ(on.frame_count, 11u);
  for (size_t k : {size_t(0), size_t(5), size_t(10)}) {
    EXPECT_FLOAT_EQ(on.tracks[1].translation.values[k].x, 2.0f * float(k)) << k;  // bone 0's, a root
    EXPECT_FLOAT_EQ(on.tracks[1].translation.values[k].y, 0);
    EXPECT_EQ(off.tracks[1].translation.values[k], (Vec3{1, 2, 3}));  // the curves alone
  }
  // The option reaches the decoder from the format options.
  DecodeContext context;
  context.options.Set("kh2-constraints", "off");
  const Scene scene = kKh2MotionFormat.read(SerializeMotion(m), {})->Decode(context);
  EXPECT_EQ(SampleTrack(scene.clips.at(0).tracks[1].translation, FrameTime(5, 30)), (Vec3{1, 2, 3}));
}

// A child of a non-uniformly scaled parent: the local is the per-axis relative transform,
// which composes back without shear.
TEST(Kh2Evaluated, LocalsArePerAxisRelativeToTheParent) {
  Motion m = TwoBones(0, 2);
  m.interpolated.initial_pose.push_back({0, 0, 2});  // bone 0 scale X 2
  m.interpolated.initial_pose.push_back({0, 5, 1.5707963f});  // bone 0 rotation Z 90 degrees
  LayoutMotion(m);
  Skeleton skeleton;
  skeleton.joints = {{"root", -1, {}}, {"child", 0, {}}};
  DecodeSettings s;
  const Clip clip = DecodeMotion(ParseMotion(SerializeMotion(m)), skeleton, RestChannels(skeleton, {}), s);
  // Not driven: the local is bone 1's channels, scale 1 (per axis: S_w = S_p * S_l = (2, 1, 1)).
  EXPECT_NEAR(clip.tracks[1].translation.values[1].x, 1, 1e-5);
  EXPECT_NEAR(clip.tracks[1].translation.values[1].y, 2, 1e-5);
  EXPECT_NEAR(clip.tracks[1].scale.values[1].x, 1, 1e-6);
}

// Raw motions with a skeleton: the local is RelativePerAxis of the decomposed matrices.
TEST(Kh2Evaluated, RawLocalsArePerAxis) {
  Motion m;
  m.raw = true;
  m.header.type = kMotionRaw;
  RawMotion& r = m.raw_motion;
  r.bone_count = 2;
  r.total_frames = 1;
  r.fps = 30;
  // Bone 0: scale (2, 1, 1), no rotation, at the origin. Bone 1: scale (2, 1, 1) too (per
  // axis it inherits it), at (4, 1, 0): its local translation is (2, 1, 0), scale 1.
  r.matrices = {{2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 1, 0, 1}};
  LayoutMotion(m);
  Skeleton skeleton;
  skeleton.joints = {{"root", -1, {}}, {"child", 0, {}}};
  const Clip clip = DecodeMotion(ParseMotion(SerializeMotion(m)), skeleton, {}, {});
  EXPECT_EQ(clip.scale_inheritance, ScaleInheritance::PerAxis);
  EXPECT_NEAR(clip.tracks[1].translation.values[0].x, 2, 1e-6);
  EXPECT_NEAR(clip.tracks[1].translation.values[0].y, 1, 1e-6);
  EXPECT_NEAR(clip.tracks[1].scale.values[0].x, 1, 1e-6);
}

// --template: a joint the template's constraint drives keeps its curves; an edit to it is
// reported by name, never dropped silently.
TEST(Kh2EncodeTemplate, DrivenJointKeepsItsCurvesAndAnEditIsReported) {
  Motion templ = TwoBones(0, 10);
  templ.interpolated.constraints = {{uint8_t(ConstraintType::Position), 1, 1, 0, -1, 0, 0}};
  LayoutMotion(templ);
  templ = ParseMotion(SerializeMotion(templ));
  Clip clip = Decode(templ);
  EncodeReport report;
  Motion again = EncodeMotion(clip, {}, {}, &report, &templ);
  EXPECT_TRUE(report.unchanged);
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(SerializeMotion(again), SerializeMotion(templ));
  for (Vec3& t : clip.tracks[1].translation.values) t.z += 5;  // moves the driven joint
  again = EncodeMotion(clip, {}, {}, &report, &templ);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("#1"), std::string::npos) << report.warnings[0];
  EXPECT_NE(report.warnings[0].find("constraint (position) from #0"), std::string::npos) << report.warnings[0];
  EXPECT_EQ(SerializeMotion(again), SerializeMotion(templ));  // nothing else moved: the template
}

// The real set and its game-baked twin, decoded as a user decodes them (with the skeleton):
// every clip has the raw twin's frame count, and every local matches the twin's.
TEST(Kh2Evaluated, DecodedSetMatchesItsBakedTwinFrameForFrame) {
  const std::string dir = test::FixturePath("kh2-baked");
  if (dir.empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  const Scene rig = LoadReference(dir + "/M_EX660.skeleton.gltf", Options{});
  auto decode = [&](const std::string& name) {
    return kKh2BarFormat.read(ReadFileBytes(dir + "/" + name), {})->Decode(DecodeContext{&rig, {}});
  };
  const Scene interpolated = decode("M_EX660.mset"), raw = decode("M_EX660_RAW.mset");
  auto clip = [](const Scene& scene, int slot) -> const Clip& {
    const std::string prefix = (slot < 10 ? "00" : slot < 100 ? "0" : "") + std::to_string(slot) + "_";
    for (const Clip& c : scene.clips)
      if (c.name.rfind(prefix, 0) == 0) return c;
    throw std::runtime_error("no slot " + prefix);
  };
  // Raw slot -> interpolated slot (../shared/fixtures/kh2-baked/README.md pairs them by content).
  const std::pair<int, int> pairs[] = {{0, 0},    {4, 4},     {5, 5},     {10, 10},   {11, 11},   {12, 12},
                                       {15, 15},  {18, 18},   {19, 19},   {47, 232},  {201, 201}, {206, 206}};
  double rotation = 0, translation = 0;
  for (const auto& [r, i] : pairs) {
    const Clip &a = clip(raw, r), &b = clip(interpolated, i);
    ASSERT_EQ(a.frame_count, b.frame_count) << a.name << " / " << b.name;
    for (size_t j = 0; j < a.tracks.size(); ++j)  // the raw twin holds the bones
      for (size_t f = 0; f < a.frame_count; ++f) {
        const Seconds t = FrameTime(f, b.frame_rate);  // the interpolated set's keys are its curves
        rotation = std::max(rotation, RotationDifference(a.tracks[j].rotation.values[f], SampleTrack(b.tracks[j].rotation, t)));
        const Vec3 d = a.tracks[j].translation.values[f] - SampleTrack(b.tracks[j].translation, t);
        translation = std::max(translation, double(std::max({std::abs(d.x), std::abs(d.y), std::abs(d.z)})));
      }
  }
  std::printf("decoded M_EX660 against its baked twin: locals within %.3g rad, %.3g units\n", rotation, translation);
  EXPECT_LE(rotation, 1e-3);
  EXPECT_LE(translation, 1e-3);
}

// The real set: its root bone is placed by constraints in every clip. Moving it in the
// clip and writing back with the template keeps the slot's curves and names the joint.
TEST(Kh2EncodeTemplate, RealSetEditToAConstrainedRootIsReported) {
  const std::string dir = test::FixturePath("kh2-baked");
  if (dir.empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  const Scene rig = LoadReference(dir + "/M_EX660.skeleton.gltf", Options{});
  const Bar set = ParseBar(ReadFileBytes(dir + "/M_EX660.mset"));
  const Bar& anb = *set.entries.at(0).bar;  // slot 0 (00A)
  const Motion& motion = *anb.entries.at(0).motion;
  Clip clip = DecodeMotion(motion, rig.skeleton, RestChannels(rig.skeleton, Value::object()), {});
  for (const BarEntry& e : anb.entries)
    if (e.triggers) clip.events = DecodeTriggers(*e.triggers, clip.frame_rate, clip.duration);
  EncodeReport report;
  bool unchanged = false;
  EncodeAnbFromTemplate(clip, rig.skeleton, {}, anb, &report, &unchanged);
  EXPECT_TRUE(unchanged);  // the evaluated pose is the template's: its bytes
  EXPECT_TRUE(report.warnings.empty());
  for (Vec3& t : clip.tracks[0].translation.values) t.y += 10;
  const Bar out = EncodeAnbFromTemplate(clip, rig.skeleton, {}, anb, &report, &unchanged);
  EXPECT_TRUE(unchanged);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings[0].rfind("joint #0 differs from the template's pose at frame 0, but a constraint (", 0), 0u)
      << report.warnings[0];
  EXPECT_EQ(SerializeMotion(*out.entries[0].motion), SerializeMotion(motion));
}

}  // namespace
}  // namespace animkit
