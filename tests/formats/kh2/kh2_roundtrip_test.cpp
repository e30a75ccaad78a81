// KH2 round trips that change only what was edited: the Euler fit at gimbal lock, the
// triggers' stored order, raw matrices kept from a template, and the encoder staying
// within the format's tables on any input.
#include <animkit/formats/kh2.hpp>
#include <animkit/offline/sampling.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace animkit {
namespace {

using namespace kh2;

constexpr double kPi = std::numbers::pi;

// R = Rz(z) Ry(y) Rx(x) as a quaternion, in double (the math, not the library).
QuatXYZW EulerXYZ(double x, double y, double z) {
  const double cx = std::cos(x / 2), sx = std::sin(x / 2), cy = std::cos(y / 2), sy = std::sin(y / 2);
  const double cz = std::cos(z / 2), sz = std::sin(z / 2);
  return {float(sx * cy * cz - cx * sy * sz), float(cx * sy * cz + sx * cy * sz), float(cx * cy * sz - sx * sy * cz),
          float(cx * cy * cz + sx * sy * sz)};
}

// Euler angles of frame f: Y reaches 90 degrees at frame 17 and stays there to frame 23
// (gimbal lock: X and Z turn about one axis), while X and Z keep moving.
std::array<double, 3> LockAngles(size_t f) {
  const double s = double(f) / 30;
  const double off = std::max(0.0, std::abs(double(f) - 20) - 3);
  return {0.3 + 0.9 * s, kPi / 2 - 0.02 * off, -0.2 + 0.6 * s};
}

Clip ThroughGimbalLock() {
  Clip clip;
  clip.SetFrames(41, 30);
  JointTrack t;
  t.joint = "#0";
  for (size_t f = 0; f < clip.frame_count; ++f) {
    const auto [x, y, z] = LockAngles(f);
    t.rotation.Add(FrameTime(f, 30), EulerXYZ(x, y, z));
  }
  clip.tracks = {t};
  return clip;
}

TEST(Kh2GimbalLock, EulerFitStaysWithinTheBoundAtAndNearYOf90Degrees) {
  const Clip clip = ThroughGimbalLock();
  EncodeReport report;
  const Motion m = EncodeMotion(clip, {}, {}, &report);
  const InterpolatedMotion& im = m.interpolated;
  std::vector<ChannelValues> pose;
  double worst = 0;
  for (size_t f = 0; f < clip.frame_count; ++f) {
    EvaluatePose(im, float(f) * 2, {}, pose);
    const auto [x, y, z] = LockAngles(f);
    const double error = AngleBetween(TransformFromChannels(pose[0]).rotation, EulerXYZ(x, y, z));
    worst = std::max(worst, error);
    EXPECT_LE(error, 3e-4) << "frame " << f;
    if (f > 0) {  // the X/Z split continues from the frames before: no jump at the lock
      std::vector<ChannelValues> before;
      EvaluatePose(im, float(f - 1) * 2, {}, before);
      EXPECT_LT(std::abs(pose[0][3] - before[0][3]), 0.1) << "frame " << f;
      EXPECT_LT(std::abs(pose[0][5] - before[0][5]), 0.1) << "frame " << f;
    }
  }
  std::printf("gimbal lock: largest error %.3g rad, %zu keys\n", worst, im.keys.size());
  EXPECT_LT(im.keys.size(), 40u);  // smooth channels: few keys

  // Back through the template it came from, unedited: the template's own bytes.
  const Clip decoded = DecodeMotion(m, {}, {}, {});
  EncodeReport again;
  const Motion same = EncodeMotion(decoded, {}, {}, &again, &m);
  EXPECT_TRUE(again.unchanged);
  EXPECT_EQ(SerializeMotion(same), SerializeMotion(m));
}

TEST(Kh2GimbalLock, EulerFromQuatIsExactAtTheLock) {
  for (const double y : {kPi / 2, -kPi / 2, kPi / 2 - 1e-5, kPi / 2 - 3e-4, -kPi / 2 + 2e-6}) {
    const QuatXYZW q = EulerXYZ(0.4, y, -1.1);
    const Vec3 e = EulerFromQuat(q, EulerOrder::XYZ);
    EXPECT_LT(AngleBetween(EulerXYZ(e.x, e.y, e.z), q), 1e-6) << y;
    // Nearest to given angles at the lock: the split of the given angles is kept.
    const auto n = EulerNearest(q, EulerOrder::XYZ, {0.4, y, -1.1});
    EXPECT_NEAR(n[0], 0.4, 1e-5) << y;
    EXPECT_NEAR(n[1], y, 1e-5) << y;
    EXPECT_NEAR(n[2], -1.1, 1e-5) << y;
  }
}

// ---------------------------------------------------------------------------
// Triggers keep their stored order

// An ANB whose triggers are stored out of time order: ranges at frames 10, 2; frames 8, 3, 8.
Bar AnbWithUnsortedTriggers() {
  Clip clip = ThroughGimbalLock();
  Bar anb = EncodeAnb(clip, {}, {});
  Triggers& t = *anb.entries[1].triggers;
  t.ranges = {{10, 20, 3, {}}, {2, -1, 0, {}}};
  t.frames = {{8, 2, {7}}, {3, 2, {1}}, {8, 10, {}}};
  LayoutTriggers(t);
  LayoutBar(anb);
  return ParseBar(SerializeBar(anb));
}

TEST(Kh2TriggerOrder, EqualTriggersInAnyOrderKeepTheTemplatesBytes) {
  const Bar templ = AnbWithUnsortedTriggers();
  const Bytes templ_bytes = SerializeBar(templ);
  Clip clip = DecodeMotion(*templ.entries[0].motion, {}, {}, {});
  clip.events = DecodeTriggers(*templ.entries[1].triggers, 30, clip.duration);
  ASSERT_EQ(clip.events.size(), 5u);
  // As a glTF editor may carry them: sorted by time, and reversed.
  std::stable_sort(clip.events.begin(), clip.events.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
  for (int pass = 0; pass < 2; ++pass) {
    bool unchanged = false;
    const Bar out = EncodeAnbFromTemplate(clip, {}, {}, templ, nullptr, &unchanged);
    EXPECT_TRUE(unchanged) << pass;
    EXPECT_EQ(SerializeBar(out), templ_bytes) << pass;
    std::reverse(clip.events.begin(), clip.events.end());
  }
}

TEST(Kh2TriggerOrder, AnEditedSetKeepsTheStoredOrderOfTheTriggersThatRemain) {
  const Bar templ = AnbWithUnsortedTriggers();
  Clip clip = DecodeMotion(*templ.entries[0].motion, {}, {}, {});
  clip.events = DecodeTriggers(*templ.entries[1].triggers, 30, clip.duration);
  // Remove the frame trigger at frame 3 (the 4th event), add one at frame 1, sort by time.
  clip.events.erase(clip.events.begin() + 3);
  Event added;
  added.time = 1.0 / 30;
  added.name = TriggerEventName(false, 2);
  added.params = {2, 5};
  clip.events.push_back(added);
  std::stable_sort(clip.events.begin(), clip.events.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
  bool unchanged = true;
  const Bar out = ParseBar(SerializeBar(EncodeAnbFromTemplate(clip, {}, {}, templ, nullptr, &unchanged)));
  EXPECT_FALSE(unchanged);
  const Triggers& t = *out.entries[1].triggers;
  ASSERT_EQ(t.ranges.size(), 2u);
  EXPECT_EQ(t.ranges[0].start, 10);  // stored order, not time order
  EXPECT_EQ(t.ranges[1].start, 2);
  ASSERT_EQ(t.frames.size(), 3u);
  EXPECT_EQ(t.frames[0].frame, 8);
  EXPECT_EQ(t.frames[0].id, 2);
  EXPECT_EQ(t.frames[1].frame, 8);
  EXPECT_EQ(t.frames[1].id, 10);
  EXPECT_EQ(t.frames[2].frame, 1);  // the new one after those that remain
  EXPECT_EQ(t.frames[2].params, std::vector<int16_t>{5});
  // The motion is the template's own.
  EXPECT_EQ(SerializeMotion(*out.entries[0].motion), SerializeMotion(*templ.entries[0].motion));
}

// ---------------------------------------------------------------------------
// Without a template the encoder never fails on table capacity

// 24 joints x 250 frames of noisy motion on every channel: at the default tolerance
// about 54,000 keys with as many distinct values and tangents, past the 32,767 keys and
// 32,768 values and tangents a motion indexes.
Clip NoisyClip() {
  Clip clip;
  clip.SetFrames(250, 30);
  std::mt19937 random(31);
  std::uniform_real_distribution<float> noise(-0.02f, 0.02f);
  for (int j = 0; j < 24; ++j) {
    JointTrack t;
    t.joint = "#" + std::to_string(j);
    for (size_t f = 0; f < clip.frame_count; ++f) {
      const float s = float(f) / 30;
      t.translation.Add(FrameTime(f, 30), {std::sin(s + float(j)) + noise(random), 5 + noise(random), noise(random)});
      t.rotation.Add(FrameTime(f, 30), EulerXYZ(0.5 * std::sin(s) + noise(random), noise(random), 0.3 * j + noise(random)));
      t.scale.Add(FrameTime(f, 30), {1 + noise(random), 1 + noise(random), 1 + noise(random)});
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

TEST(Kh2TableCapacity, ABigNoisyClipFitsWithARaisedToleranceThatIsReported) {
  const Clip clip = NoisyClip();
  EncodeReport report;
  const Motion m = ParseMotion(SerializeMotion(EncodeMotion(clip, {}, {}, &report)));
  const InterpolatedMotion& im = m.interpolated;
  EXPECT_LE(im.keys.size(), 32767u);
  EXPECT_LE(im.values.size(), 32768u);
  EXPECT_LE(im.tangents.size(), 32768u);
  EXPECT_LE(im.key_times.size(), 16383u);
  EXPECT_GT(report.table_tolerance, 1e-4f);  // raised, and said so
  EXPECT_GE(report.tolerance_used, report.table_tolerance);
  std::printf("noisy clip: %zu keys, %zu values, %zu tangents; tolerance raised to %g\n", im.keys.size(),
              im.values.size(), im.tangents.size(), double(report.table_tolerance));
  // Every frame within the tolerance used: 3x per rotation (three channels), and per
  // translation component relative to the channel's magnitude (at least 1).
  const double tol = report.tolerance_used;
  std::vector<ChannelValues> pose;
  for (size_t f = 0; f < clip.frame_count; ++f) {
    EvaluatePose(im, float(f) * 2, {}, pose);
    for (size_t j = 0; j < clip.tracks.size(); ++j) {
      const JointTrack& t = clip.tracks[j];
      const TransformTRS got = TransformFromChannels(pose[j]);
      EXPECT_LE(AngleBetween(got.rotation, t.rotation.values[f]), 3 * tol + 1e-6) << j << " frame " << f;
      EXPECT_NEAR(got.translation.x, t.translation.values[f].x, 1.1 * tol + 1e-6) << j << " frame " << f;
      EXPECT_NEAR(got.translation.y, t.translation.values[f].y, 5.1 * tol + 1e-6) << j << " frame " << f;
    }
  }
}

}  // namespace
}  // namespace animkit
