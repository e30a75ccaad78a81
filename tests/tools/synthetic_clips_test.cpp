// The small clips of tools/synthetic/synthetic_clips.hpp, as their comments describe them,
// and the record comparisons of tests/support/expect_same.hpp.
#include "support/expect_same.hpp"
#include "support/test_support.hpp"

#include <animkit/offline/sampling.hpp>
#include <synthetic/synthetic_clips.hpp>

#include <gtest/gtest-spi.h>

namespace animkit {
namespace {

using fields::Field;

TEST(SyntheticClips, ScaledChainScalesTheRootAtEveryFrameAndTurnsTheChild) {
  const Clip clip = ScaledChainClip(0.5f, ScaleInheritance::PerAxis, 3);
  EXPECT_EQ(clip.name, "chain");
  EXPECT_EQ(clip.scale_inheritance, ScaleInheritance::PerAxis);
  EXPECT_EQ(clip.frame_count, 3u);
  EXPECT_EQ(clip.frame_rate, 30);
  ASSERT_EQ(clip.tracks.size(), 2u);
  const JointTrack &root = clip.tracks[0], &child = clip.tracks[1];
  EXPECT_EQ(root.joint, "root");
  EXPECT_EQ(root.scale.times, (std::vector<Seconds>{0, FrameTime(1, 30), FrameTime(2, 30)}));
  EXPECT_EQ(root.scale.values, (std::vector<Vec3>(3, {2, 1, 1})));
  EXPECT_TRUE(root.translation.empty() && root.rotation.empty());
  EXPECT_EQ(child.joint, "child");
  EXPECT_EQ(child.translation.values, (std::vector<Vec3>{{1, 0, 0}}));
  EXPECT_EQ(child.rotation.values, (std::vector<QuatXYZW>{AxisAngle({0, 0, 1}, 0.5f)}));
  EXPECT_TRUE(child.scale.empty());
}

TEST(SyntheticClips, FigureTimelineKeysEveryJointEveryStepFrames) {
  const Skeleton figure = FigureSkeleton();
  std::vector<int> frames;
  const Clip clip = FigureTimeline(figure, 25, [&](size_t joint, int frame, Seconds time, JointTrack& t) {
    if (joint == 0) frames.push_back(frame);
    t.translation.Add(time, {float(frame), float(joint), 0});
  });
  EXPECT_EQ(clip.name, "timeline");
  EXPECT_EQ(clip.frame_count, 101u);
  EXPECT_EQ(clip.frame_rate, 24);
  EXPECT_EQ(frames, (std::vector<int>{0, 25, 50, 75, 100}));
  ASSERT_EQ(clip.tracks.size(), figure.joints.size());
  for (size_t j = 0; j < figure.joints.size(); ++j) {
    EXPECT_EQ(clip.tracks[j].joint, figure.joints[j].name);
    ASSERT_EQ(clip.tracks[j].translation.size(), 5u);
    EXPECT_FLOAT_EQ(clip.tracks[j].translation.times[4], float(100 / 24.0));
    EXPECT_EQ(clip.tracks[j].translation.values[1], (Vec3{25, float(j), 0}));
  }
}

TEST(SyntheticClips, CameraClipKeysOneCameraAtEveryFrame) {
  const Clip clip = CameraClip(4, [](size_t f) { return CameraKey{{float(f), 0, 0}, {0, float(f), 0}, 0.5f, 0.9f}; });
  EXPECT_EQ(clip.name, "camera");
  EXPECT_EQ(clip.frame_count, 4u);
  ASSERT_EQ(clip.cameras.size(), 1u);
  const CameraTrack& cam = clip.cameras[0];
  EXPECT_EQ(cam.name, "camera");
  EXPECT_EQ(cam.times, (std::vector<Seconds>{0, FrameTime(1, 30), FrameTime(2, 30), FrameTime(3, 30)}));
  EXPECT_EQ(cam.positions[3], (Vec3{3, 0, 0}));
  EXPECT_EQ(cam.targets[2], (Vec3{0, 2, 0}));
  EXPECT_EQ(cam.roll, (std::vector<float>(4, 0.5f)));
  EXPECT_EQ(cam.yfov, (std::vector<float>(4, 0.9f)));
}

TEST(ExpectSame, MembersNameTheOneThatDiffers) {
  constexpr auto kEventMembers = fields::List(Field{"time", &Event::time}, Field{"name", &Event::name});
  const Event step{0.5, "step", {}, {}};
  test::ExpectSameMembers(step, step, "step", kEventMembers);
  Event later = step;
  later.time = 0.75;
  EXPECT_NONFATAL_FAILURE(test::ExpectSameMembers(later, step, "the event", kEventMembers), "the event: time");
}

TEST(ExpectSame, KeyValuesNameTheClipJointAndProperty) {
  const Clip a = ScaledChainClip(0.5f, ScaleInheritance::Matrix, 2);
  test::ExpectSameKeyValues(a, a);
  Clip b = a;
  b.tracks[1].rotation.values[0] = {0, 0, 0, 1};
  EXPECT_NONFATAL_FAILURE(test::ExpectSameKeyValues(b, a), "chain child rotation");
}

}  // namespace
}  // namespace animkit
