// The game's pose against the game's own baking: every frame of every raw clip of
// M_EX660_RAW.mset against the evaluation of its interpolated twin in M_EX660.mset
// (../shared/fixtures/kh2-baked/README.md pairs them).
#include "support/test_support.hpp"

#include <animkit/formats/kh2.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <cmath>
#include <cstdio>
#include <iterator>

namespace animkit {
namespace {

// Raw entry -> interpolated entry, from the README's table (pairs by content).
const std::vector<std::pair<int, int>> kPairs = {
    {0, 0},     {4, 4},     {5, 5},     {10, 10},   {11, 11},   {13, 11},   {14, 11},   {16, 11},
    {17, 11},   {12, 12},   {15, 15},   {18, 18},   {19, 19},   {20, 19},   {21, 19},   {45, 19},
    {46, 19},   {47, 232},  {201, 201}, {202, 202}, {203, 203}, {204, 204}, {205, 205}, {206, 206}};

const kh2::Motion& MotionOf(const kh2::Bar& bar, int entry) {
  const kh2::BarEntry& e = bar.entries.at(size_t(entry));
  if (e.motion) return *e.motion;
  for (const kh2::BarEntry& inner : e.bar->entries)
    if (inner.motion) return *inner.motion;
  throw std::runtime_error("entry " + std::to_string(entry) + " has no motion");
}

struct Worst {
  double linear = 0, translation = 0;
  std::string where;
};

// Largest differences over every frame of one pair.
void ComparePair(const kh2::Motion& raw, const kh2::Motion& interpolated, const Skeleton& skeleton,
                 const kh2::EvaluationSettings& settings, Worst& worst, const std::string& what) {
  const kh2::InterpolatedMotion& im = interpolated.interpolated;
  const kh2::RawMotion& rm = raw.raw_motion;
  std::vector<kh2::ChannelValues> base = kh2::RestChannels(skeleton, Value::object());
  base.resize(size_t(im.bone_count), {1, 1, 1, 0, 0, 0, 0, 0, 0});
  std::vector<int> parents;
  for (const Joint& j : skeleton.joints) parents.push_back(j.parent);
  parents.resize(size_t(im.bone_count), -1);
  for (const kh2::BoneRecord& h : im.ik_helpers) {
    base.push_back(kh2::ChannelsFromBone(h));
    parents.push_back(h.parent);
  }
  const kh2::EvaluationPlan plan = kh2::PlanEvaluation(im, base, parents, settings);
  std::vector<kh2::ChannelValues> channels(plan.joint_count());
  std::vector<TransformTRS> model(plan.joint_count());
  const size_t bones = size_t(rm.bone_count);
  ASSERT_EQ(rm.total_frames, int(im.frame_end - im.frame_loop) + 1) << what;
  for (size_t k = 0; k < size_t(rm.total_frames); ++k) {
    const float key_time = float((double(im.frame_loop) + double(k)) * kh2::kEngineRate / im.fps);
    ASSERT_TRUE((kh2::PoseJob{&im, &plan, key_time, channels, model}.Run()));
    for (size_t b = 0; b < bones; ++b) {
      const auto& want = rm.matrices[k * bones + b];
      const Mat4 got = MatrixFromTRS(model[b]);
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) {
          const double d = std::fabs(double(got.m[c][r]) - double(want[size_t(c * 4 + r)]));
          double& slot = c == 3 ? worst.translation : worst.linear;
          if (d > slot) {
            slot = d;
            worst.where = what + " frame " + std::to_string(k) + " bone " + std::to_string(b);
          }
        }
    }
  }
}

Worst CompareAll(const kh2::EvaluationSettings& settings) {
  const std::string dir = test::FixturePath("kh2-baked");
  const Bytes interpolated_bytes = ReadFileBytes(dir + "/M_EX660.mset");
  const Bytes raw_bytes = ReadFileBytes(dir + "/M_EX660_RAW.mset");
  const kh2::Bar interpolated = kh2::ParseBar(interpolated_bytes), raw = kh2::ParseBar(raw_bytes);
  const Scene rig = LoadReference(dir + "/M_EX660.skeleton.gltf", Options{});
  Worst worst;
  for (const auto& [r, i] : kPairs)
    ComparePair(MotionOf(raw, r), MotionOf(interpolated, i), rig.skeleton, settings, worst,
                "raw entry " + std::to_string(r) + " / interpolated entry " + std::to_string(i));
  return worst;
}

TEST(Kh2BakedTwin, EveryRawFrameIsTheEvaluatedInterpolatedFrame) {
  if (test::FixturePath("kh2-baked/M_EX660.mset").empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  const Worst worst = CompareAll({});
  std::printf("kh2 baked twin: largest difference %.3g (rotation x scale), %.3g units (translation) at %s\n",
              worst.linear, worst.translation, worst.where.c_str());
  EXPECT_LE(worst.linear, 1e-4) << worst.where;
  EXPECT_LE(worst.translation, 1e-3) << worst.where;
}

TEST(Kh2BakedTwin, TheCurvesAloneMissTheGamesPose) {
  if (test::FixturePath("kh2-baked/M_EX660.mset").empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  const Worst worst = CompareAll({.constraints = false});
  std::printf("kh2 baked twin, constraints off: %.3g, %.3g units at %s\n", worst.linear, worst.translation,
              worst.where.c_str());
  EXPECT_GT(worst.translation, 100.0);  // the root is placed by constraints in every clip
}

}  // namespace
}  // namespace animkit
