// Retargeting (offline/retarget.hpp): the expected target poses are worked from the rule as
// RetargetJob's comment states it, R_t(k) = A R_s(j) R_s_rest(j)^-1 A^-1 R_t_rest(k) in model
// space, the root at rest_t + s A (P_s - P_s_rest), unmapped joints at rest, with this file's
// own quaternion products in double precision; the library's output is composed by
// ClipModelPose and compared with them.
#include "support/test_support.hpp"

#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/retarget.hpp>
#include <animkit/offline/root_motion.hpp>
#include <animkit/offline/sampling.hpp>

#include <cmath>
#include <numbers>

namespace animkit {
namespace {

// Double-precision quaternions and vectors, composed here rather than by core/math.
struct DV {
  double x = 0, y = 0, z = 0;
};
struct DQ {
  double x = 0, y = 0, z = 0, w = 1;
};
DV operator+(DV a, DV b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
DV operator-(DV a, DV b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
DV operator*(DV a, double s) { return {a.x * s, a.y * s, a.z * s}; }
DQ Mul(DQ a, DQ b) {  // a * b, b applied first
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
DQ Inv(DQ q) { return {-q.x, -q.y, -q.z, q.w}; }
DV Rot(DQ q, DV v) {
  const DQ p = Mul(Mul(q, DQ{v.x, v.y, v.z, 0}), Inv(q));
  return {p.x, p.y, p.z};
}
DQ Turn(DV axis, double degrees) {
  const double h = degrees * std::numbers::pi / 360, n = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
  const double s = std::sin(h) / n;
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(h)};
}
const DV kX{1, 0, 0}, kY{0, 1, 0}, kZ{0, 0, 1};
DV D(Vec3 v) { return {v.x, v.y, v.z}; }
DQ D(QuatXYZW q) { return {q.x, q.y, q.z, q.w}; }
Vec3 F(DV v) { return {float(v.x), float(v.y), float(v.z)}; }
QuatXYZW F(DQ q) { return {float(q.x), float(q.y), float(q.z), float(q.w)}; }

struct DPose {
  DV t;
  DQ r;
};

void ExpectNear(const TransformTRS& got, const DPose& want, double tol, const std::string& what) {
  const double sign = got.rotation.x * want.r.x + got.rotation.y * want.r.y + got.rotation.z * want.r.z +
                      got.rotation.w * want.r.w < 0 ? -1 : 1;
  EXPECT_NEAR(got.rotation.x * sign, want.r.x, tol) << what;
  EXPECT_NEAR(got.rotation.y * sign, want.r.y, tol) << what;
  EXPECT_NEAR(got.rotation.z * sign, want.r.z, tol) << what;
  EXPECT_NEAR(got.rotation.w * sign, want.r.w, tol) << what;
  EXPECT_NEAR(got.translation.x, want.t.x, tol) << what;
  EXPECT_NEAR(got.translation.y, want.t.y, tol) << what;
  EXPECT_NEAR(got.translation.z, want.t.z, tol) << what;
}

// Model transforms from locals (unit scales: the rotation and offset compose alone).
std::vector<DPose> Compose(const Skeleton& s, const std::vector<DPose>& local) {
  std::vector<DPose> model(local.size());
  for (size_t k = 0; k < local.size(); ++k) {
    const int p = s.joints[k].parent;
    model[k] = p < 0 ? local[k] : DPose{model[size_t(p)].t + Rot(model[size_t(p)].r, local[k].t), Mul(model[size_t(p)].r, local[k].r)};
  }
  return model;
}
std::vector<DPose> RestLocals(const Skeleton& s) {
  std::vector<DPose> out;
  for (const Joint& j : s.joints) out.push_back({D(j.rest.translation), D(j.rest.rotation)});
  return out;
}

// The source: Y up, legs of 1, the hips 1 above the feet.
Skeleton Source() {
  Skeleton s;
  auto add = [&](const char* name, int parent, Vec3 t) { s.joints.push_back({name, parent, {t, {0, 0, 0, 1}, {1, 1, 1}}}); };
  add("Hips", -1, {0, 1, 0});
  add("LeftUpLeg", 0, {0.1f, 0, 0});
  add("LeftLeg", 1, {0, -0.5f, 0});
  add("LeftFoot", 2, {0, -0.5f, 0});
  add("RightUpLeg", 0, {-0.1f, 0, 0});
  add("RightLeg", 4, {0, -0.5f, 0});
  add("RightFoot", 5, {0, -0.5f, 0});
  add("Spine", 0, {0, 0.2f, 0});
  add("Head", 7, {0, 0.3f, 0});
  return s;
}

// The target, from model-space rests: renamed, legs 1.5x, rest rotations turned 90 degrees
// (the pelvis and spine about X, the legs about Z), and a joint the source lacks ("prop").
Skeleton Target() {
  struct ModelRest {
    const char* name;
    int parent;
    DV position;
    DQ rotation;
  };
  const DQ rx = Turn(kX, 90), rz = Turn(kZ, 90);
  const std::vector<ModelRest> rests = {
      {"pelvis", -1, {0, 1.5, 0}, rx},       {"thigh_L", 0, {0.1, 1.5, 0}, rz},   {"calf_L", 1, {0.1, 0.75, 0}, rz},
      {"foot_L", 2, {0.1, 0, 0}, rz},        {"thigh_R", 0, {-0.1, 1.5, 0}, rz},  {"calf_R", 4, {-0.1, 0.75, 0}, rz},
      {"foot_R", 5, {-0.1, 0, 0}, rz},       {"spine_01", 0, {0, 1.7, 0}, rx},    {"prop", 7, {0, 1.9, 0.1}, Turn(kY, 45)}};
  Skeleton s;
  for (const ModelRest& r : rests) {
    DPose local{r.position, r.rotation};
    if (r.parent >= 0) {
      const ModelRest& p = rests[size_t(r.parent)];
      local = {Rot(Inv(p.rotation), r.position - p.position), Mul(Inv(p.rotation), r.rotation)};
    }
    s.joints.push_back({r.name, r.parent, {F(local.t), F(local.r), {1, 1, 1}}});
  }
  return s;
}

// pelvis..spine_01 from the source's joints of the same place; prop unmapped.
BoneMap PairMap() {
  BoneMap m;
  m.source_of = {0, 1, 2, 3, 4, 5, 6, 7, -1};
  m.match.assign(9, BoneMatch::Given);
  m.match[8] = BoneMatch::None;
  return m;
}

// The source root's local transform turned by `frame` (the source standing in another frame).
DPose InFrame(DQ frame, DPose p) { return {Rot(frame, p.t), Mul(frame, p.r)}; }

// Three frames at 1/s: the hips travel and turn, legs and spine bend, the spine's offset changes.
Clip SourceClip(DQ frame = {}) {
  Clip clip;
  clip.name = "walk";
  clip.SetFrames(3, 1);
  auto track = [&](const char* joint) -> JointTrack& {
    clip.tracks.push_back({});
    clip.tracks.back().joint = joint;
    return clip.tracks.back();
  };
  JointTrack& hips = track("Hips");
  const std::vector<DPose> hip_keys = {{{0, 1, 0}, {}}, {{0.2, 1.05, 0.3}, Turn(kY, 30)}, {{0.4, 0.95, 0.7}, Mul(Turn(kY, 30), Turn(kX, 10))}};
  for (size_t f = 0; f < 3; ++f) {
    const DPose p = InFrame(frame, hip_keys[f]);
    hips.translation.Add(float(f), F(p.t));
    hips.rotation.Add(float(f), F(p.r));
  }
  auto rotations = [&](const char* joint, std::vector<DQ> keys) {
    JointTrack& t = track(joint);
    for (size_t f = 0; f < keys.size(); ++f) t.rotation.Add(float(f), F(keys[f]));
  };
  rotations("LeftUpLeg", {Turn(kX, -20), Turn(kX, 25), Mul(Turn(kZ, 15), Turn(kX, 10))});
  rotations("LeftLeg", {DQ{}, Turn(kX, 40), Turn(kX, 60)});
  rotations("RightUpLeg", {Turn(kX, 20), Turn(kX, -25), Turn(kY, 5)});
  rotations("Head", {Turn(kY, 10), Turn(kY, -10), DQ{}});
  JointTrack& spine = track("Spine");
  const std::vector<DV> spine_offsets = {{0, 0.2, 0}, {0, 0.25, 0.02}, {0.01, 0.2, 0}};
  for (size_t f = 0; f < 3; ++f) {
    spine.translation.Add(float(f), F(spine_offsets[f]));
    spine.rotation.Add(float(f), F(Turn(kZ, 10.0 * double(f))));
  }
  return clip;
}

// The source's locals at key frame f (every key sits on a frame); additive: deltas over rest.
std::vector<DPose> SourceLocals(const Skeleton& s, const Clip& clip, size_t f) {
  std::vector<DPose> local = RestLocals(s);
  for (const JointTrack& t : clip.tracks) {
    const size_t j = size_t(s.Find(t.joint));
    if (!t.translation.empty())
      local[j].t = clip.additive ? local[j].t + D(t.translation.values[f]) : D(t.translation.values[f]);
    if (!t.rotation.empty())
      local[j].r = clip.additive ? Mul(local[j].r, D(t.rotation.values[f])) : D(t.rotation.values[f]);
  }
  return local;
}

// The rule, frame f: the target's expected model pose.
std::vector<DPose> Expected(const Skeleton& source, const Clip& clip, const Skeleton& target, const BoneMap& map,
                            DQ a, double s, size_t f) {
  const std::vector<DPose> s_local = SourceLocals(source, clip, f);
  const std::vector<DPose> s_model = Compose(source, s_local), s_rest = Compose(source, RestLocals(source));
  const std::vector<DPose> t_rest_local = RestLocals(target), t_rest = Compose(target, t_rest_local);
  std::vector<DPose> t(target.joints.size());
  for (size_t k = 0; k < t.size(); ++k) {
    const int p = target.joints[k].parent, js = map.source_of[k];
    const DPose parent = p < 0 ? DPose{} : t[size_t(p)];
    if (js < 0) {
      t[k] = {parent.t + Rot(parent.r, t_rest_local[k].t), Mul(parent.r, t_rest_local[k].r)};
      continue;
    }
    const size_t j = size_t(js);
    t[k].r = Mul(Mul(Mul(Mul(a, s_model[j].r), Inv(s_rest[j].r)), Inv(a)), t_rest[k].r);
    if (p < 0 || map.source_of[size_t(p)] < 0) {
      t[k].t = t_rest[k].t + Rot(a, s_model[j].t - s_rest[j].t) * s;
    } else {
      const int ps = source.joints[j].parent;
      const DV change = s_local[j].t - D(source.joints[j].rest.translation);
      t[k].t = parent.t + Rot(parent.r, t_rest_local[k].t) + Rot(a, Rot(s_model[size_t(ps)].r, change)) * s;
    }
  }
  return t;
}

Clip RetargetOne(const Clip& clip, const Skeleton& source, const Skeleton& target, const BoneMap& map,
                 const RetargetSettings& settings = {}) {
  std::vector<Clip> out;
  EXPECT_TRUE((RetargetJob{std::span(&clip, 1), &source, &target, &map, settings, {}, &out}.Run()));
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? Clip{} : out[0];
}

// The model pose the library composes of a clip at frame f.
std::vector<TransformTRS> ModelAt(const Clip& clip, const Skeleton& s, size_t f) {
  ClipModelPose pose(clip, s);
  std::vector<TransformTRS> sampled(clip.tracks.size());
  EXPECT_TRUE((SampleClipJob{&clip, &s, FrameTime(f, clip.frame_rate), sampled}.Run()));
  pose.Compose(sampled);
  return {pose.transforms().begin(), pose.transforms().end()};
}

void ExpectRule(const Clip& clip, const Skeleton& source, const RetargetSettings& settings, DQ a, double s) {
  const Skeleton target = Target();
  const BoneMap map = PairMap();
  const Clip out = RetargetOne(clip, source, target, map, settings);
  EXPECT_EQ(out.name, "walk");
  EXPECT_EQ(out.frame_count, 3u);
  EXPECT_EQ(out.FindTrack("prop"), nullptr);  // unmapped: no track, the rest
  for (size_t f = 0; f < 3; ++f) {
    const std::vector<DPose> want = Expected(source, clip, target, map, a, s, f);
    const std::vector<TransformTRS> got = ModelAt(out, target, f);
    for (size_t k = 0; k < want.size(); ++k)
      ExpectNear(got[k], want[k], 2e-6, target.joints[k].name + " frame " + std::to_string(f));
  }
}

TEST(Retarget, RootHeightRatioIsTheHipsHeightsRatio) {
  EXPECT_NEAR(RootHeightRatio(Source(), Target(), PairMap(), {}), 1.5, 1e-6);
}

TEST(Retarget, SyntheticPairFollowsTheRule) {
  ExpectRule(SourceClip(), Source(), {}, DQ{}, 1.5);
}

TEST(Retarget, TranslationScaleReplacesTheHeightRatio) {
  RetargetSettings settings;
  settings.translation_scale = 2;
  ExpectRule(SourceClip(), Source(), settings, DQ{}, 2);
}

// A Z-up +Y-forward source: A takes up Z to Y, forward Y to Z (so right -X to X): a half
// turn about (0,1,1)/sqrt(2).
const DQ kZUpToYUp{0, std::sqrt(0.5), std::sqrt(0.5), 0};

Skeleton ZUpSource() {
  Skeleton s = Source();
  const DPose root = InFrame(Inv(kZUpToYUp), {D(s.joints[0].rest.translation), D(s.joints[0].rest.rotation)});
  s.joints[0].rest.translation = F(root.t);
  s.joints[0].rest.rotation = F(root.r);
  return s;
}

RetargetSettings ZUpSettings() {
  RetargetSettings settings;
  settings.source_axes = {{0, 0, 1}, {0, 1, 0}};
  settings.target_axes = {{0, 1, 0}, {0, 0, 1}};
  return settings;
}

TEST(Retarget, AxisAlignmentOfZUpYForwardOntoYUpZForward) {
  const QuatXYZW a = AxisAlignment({{0, 0, 1}, {0, 1, 0}}, {{0, 1, 0}, {0, 0, 1}});
  const double sign = a.y < 0 ? -1 : 1;
  test::ExpectQuat({float(a.x * sign), float(a.y * sign), float(a.z * sign), float(a.w * sign)}, 0, kZUpToYUp.y, kZUpToYUp.z, 0, 1e-6);
  test::ExpectVec(Rotate(a, {0, 0, 1}), 0, 1, 0, 1e-6);
  test::ExpectVec(Rotate(a, {0, 1, 0}), 0, 0, 1, 1e-6);
  const QuatXYZW same = AxisAlignment({}, {});
  EXPECT_NEAR(std::abs(same.w), 1, 1e-6);
}

TEST(Retarget, ZUpSourceOntoYUpTargetFollowsTheRule) {
  const Skeleton source = ZUpSource();
  const Clip clip = SourceClip(Inv(kZUpToYUp));
  EXPECT_NEAR(RootHeightRatio(source, Target(), PairMap(), ZUpSettings()), 1.5, 1e-6);
  ExpectRule(clip, source, ZUpSettings(), kZUpToYUp, 1.5);
  // The same motion, stood the other way up: the target moves as from the Y-up source.
  const Clip z = RetargetOne(clip, source, Target(), PairMap(), ZUpSettings());
  const Clip y = RetargetOne(SourceClip(), Source(), Target(), PairMap());
  const Skeleton target = Target();
  for (size_t f = 0; f < 3; ++f) {
    const std::vector<TransformTRS> a = ModelAt(z, target, f), b = ModelAt(y, target, f);
    for (size_t k = 0; k < a.size(); ++k) ExpectNear(a[k], {D(b[k].translation), D(b[k].rotation)}, 2e-6, target.joints[k].name);
  }
}

void ExpectSameKeys(const Clip& a, const Clip& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.frame_count, b.frame_count);
  EXPECT_EQ(a.frame_rate, b.frame_rate);
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (size_t i = 0; i < a.tracks.size(); ++i) {
    EXPECT_EQ(a.tracks[i].joint, b.tracks[i].joint);
    EXPECT_EQ(a.tracks[i].translation.times, b.tracks[i].translation.times);
    EXPECT_EQ(a.tracks[i].translation.values, b.tracks[i].translation.values);
    EXPECT_EQ(a.tracks[i].rotation.times, b.tracks[i].rotation.times);
    EXPECT_EQ(a.tracks[i].rotation.values, b.tracks[i].rotation.values);
    EXPECT_EQ(a.tracks[i].scale.values, b.tracks[i].scale.values);
  }
}

TEST(Retarget, OwnSkeletonGivesTheClipsExactly) {
  const Skeleton s = Source();
  const BoneMap map = AutoBoneMap(s, s);
  ASSERT_TRUE(map.IsIdentity(s.joints.size()));
  const Clip clip = SourceClip();
  ExpectSameKeys(RetargetOne(clip, s, s, map), clip);
}

TEST(Retarget, RenamedOwnSkeletonGivesTheSameModelPoses) {
  const Skeleton s = Source();
  Skeleton renamed = s;
  std::string json = "{";
  for (size_t k = 0; k < renamed.joints.size(); ++k) {
    renamed.joints[k].name = "bone_" + s.joints[k].name;
    json += (k ? "," : "") + ("\"" + renamed.joints[k].name + "\": \"" + s.joints[k].name + "\"");
  }
  const BoneMap map = ReadBoneMap(json + "}", "renamed.json", renamed, s);
  const Clip clip = SourceClip();
  const Clip out = RetargetOne(clip, s, renamed, map);
  for (size_t f = 0; f < 3; ++f) {
    const std::vector<TransformTRS> a = ModelAt(clip, s, f), b = ModelAt(out, renamed, f);
    for (size_t k = 0; k < a.size(); ++k) ExpectNear(b[k], {D(a[k].translation), D(a[k].rotation)}, 1e-5, s.joints[k].name);
  }
}

TEST(Retarget, AdditiveClipStaysAdditiveOverTheTargetsRest) {
  Clip clip;
  clip.name = "flinch";
  clip.SetFrames(2, 1);
  clip.additive = Additive{};
  JointTrack hips, leg;
  hips.joint = "Hips";
  hips.translation.Add(0, {0, 0, 0});
  hips.translation.Add(1, {0, 0.1f, 0.2f});
  hips.rotation.Add(0, {0, 0, 0, 1});
  hips.rotation.Add(1, F(Turn(kY, 20)));
  leg.joint = "LeftUpLeg";
  leg.rotation.Add(0, F(Turn(kX, 10)));
  leg.rotation.Add(1, F(Turn(kX, 30)));
  clip.tracks = {hips, leg};
  const Skeleton source = Source(), target = Target();
  const Clip out = RetargetOne(clip, source, target, PairMap());
  ASSERT_TRUE(out.additive.has_value());
  EXPECT_EQ(out.additive->reference, "");
  for (size_t f = 0; f < 2; ++f) {
    const std::vector<DPose> want = Expected(source, clip, target, PairMap(), DQ{}, 1.5, f);
    const std::vector<TransformTRS> got = ModelAt(out, target, f);
    for (size_t k = 0; k < want.size(); ++k) ExpectNear(got[k], want[k], 2e-6, target.joints[k].name);
  }
  // Frame 0 of the root moves nothing: its delta is the identity.
  const JointTrack* pelvis = out.FindTrack("pelvis");
  ASSERT_NE(pelvis, nullptr);
  test::ExpectQuat(pelvis->rotation.values[0], 0, 0, 0, 1, 1e-6);
}

TEST(Retarget, RootMotionFollowsTheMappedJointWithTheTargetsUp) {
  Clip clip = SourceClip(Inv(kZUpToYUp));
  clip.root_motion = RootMotion{"Hips", {0, 0, 1}};
  const Skeleton target = Target();
  const Clip out = RetargetOne(clip, ZUpSource(), target, PairMap(), ZUpSettings());
  ASSERT_TRUE(out.root_motion.has_value());
  EXPECT_EQ(out.root_motion->joint, "pelvis");
  test::ExpectVec(out.root_motion->up, 0, 1, 0);
  Scene scene;
  scene.skeleton = target;
  scene.clips = {out};
  EXPECT_TRUE(ExtractRootMotion(scene).empty());
  EXPECT_EQ(scene.clips[0].root_motion->joint, kRootMotionJointName);
  // Every joint of the target poses as before; the new joint above them carries the travel
  // (CompareModelPoses, over the whole skeleton, counts that joint's own motion too).
  for (size_t f = 0; f < 3; ++f) {
    const std::vector<TransformTRS> before = ModelAt(out, scene.skeleton, f), after = ModelAt(scene.clips[0], scene.skeleton, f);
    for (size_t k = 1; k < before.size(); ++k)
      ExpectNear(after[k], {D(before[k].translation), D(before[k].rotation)}, 2e-6, scene.skeleton.joints[k].name);
  }
  const ModelPoseDifference d = CompareModelPoses(scene.skeleton, out, scene.clips[0]);
  EXPECT_GT(d.translation, 0.1);  // the root_motion joint's travel
}

TEST(Retarget, MeasuredOnTheSyntheticPair) {
  const Clip clip = SourceClip();
  const Skeleton source = Source(), target = Target();
  const Clip out = RetargetOne(clip, source, target, PairMap());
  const RetargetFidelity m = MeasureRetarget(clip, source, out, target, PairMap(), {});
  EXPECT_LT(m.rotation_from_rest, 1e-5);
  ASSERT_EQ(m.feet.size(), 2u);
  EXPECT_TRUE((m.feet[0] == "foot_L" && m.feet[1] == "foot_R") || (m.feet[0] == "foot_R" && m.feet[1] == "foot_L"));
}

TEST(Retarget, MeasureOfAMapThatDoesNotFitIsEmpty) {
  const Clip clip = SourceClip();
  const Skeleton source = Source(), target = Target();
  const Clip out = RetargetOne(clip, source, target, PairMap());
  BoneMap wrong = PairMap();
  wrong.source_of[3] = 99;  // no such source joint
  const RetargetFidelity m = MeasureRetarget(clip, source, out, target, wrong, {});
  EXPECT_TRUE(m.feet.empty());
  EXPECT_EQ(m.planted_frames, 0u);
  EXPECT_EQ(m.rotation_from_rest, 0);
  wrong.source_of[3] = -2;
  EXPECT_TRUE(MeasureRetarget(clip, source, out, target, wrong, {}).feet.empty());
}

// A leg of 1 under hips at (0, cos a, sin a) turned a about X: the foot stays at the origin.
// On a leg of 1.5 moved by s = 1 the foot is at (0, 0.5 (1 - cos a), -0.5 sin a): with sin a
// 0, 0.1, 0.3 it slides 0.05 then 0.1 on the ground; by the height ratio 1.5 it stays.
TEST(Retarget, FootSlideOfAPlantedFootOnALongerLeg) {
  Skeleton source, target;
  source.joints = {{"Hips", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}}, {"LeftFoot", 0, {{0, -1, 0}, {0, 0, 0, 1}, {1, 1, 1}}}};
  target.joints = {{"pelvis", -1, {{0, 1.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}}, {"foot_L", 0, {{0, -1.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}}};
  Clip clip;
  clip.name = "plant";
  clip.SetFrames(3, 1);
  JointTrack hips;
  hips.joint = "Hips";
  for (size_t f = 0; f < 3; ++f) {
    const double sine = std::vector<double>{0, 0.1, 0.3}[f], a = std::asin(sine);
    hips.translation.Add(float(f), F(DV{0, std::cos(a), sine}));
    hips.rotation.Add(float(f), F(Turn(kX, a * 180 / std::numbers::pi)));
  }
  clip.tracks = {hips};
  BoneMap map;
  map.source_of = {0, 1};
  map.match = {BoneMatch::Given, BoneMatch::Given};
  RetargetSettings unscaled;
  unscaled.translation_scale = 1;
  const Clip out = RetargetOne(clip, source, target, map, unscaled);
  const RetargetFidelity m = MeasureRetarget(clip, source, out, target, map, unscaled);
  ASSERT_EQ(m.feet.size(), 1u);  // the chain's end below the hips: the hips are not a foot
  EXPECT_EQ(m.feet[0], "foot_L");
  EXPECT_EQ(m.planted_frames, 2u);  // the foot on frames 1 and 2; the hips move
  EXPECT_NEAR(m.foot_slide_max, 0.1, 1e-5);
  EXPECT_NEAR(m.foot_slide_mean, 0.075, 1e-5);
  EXPECT_LT(m.rotation_from_rest, 1e-5);
  const Clip scaled = RetargetOne(clip, source, target, map);
  const RetargetFidelity kept = MeasureRetarget(clip, source, scaled, target, map, {});
  EXPECT_EQ(kept.planted_frames, 2u);
  EXPECT_LT(kept.foot_slide_max, 1e-5);
}

}  // namespace
}  // namespace animkit
