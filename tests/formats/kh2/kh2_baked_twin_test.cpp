// The game's pose against the game's own baking: every frame of every raw clip of
// M_EX660_RAW.mset against the evaluation of its interpolated twin in M_EX660.mset
// (../shared/fixtures/kh2-baked/README.md pairs them).
#include "support/test_support.hpp"

#include <animkit/formats/kh2.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <span>

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

// What every front end samples (`sample --space model`, Python's world(), the preview): the
// archive decoded through the pipeline against the skeleton, each clip's model pose at each
// of its frames, against the raw twin's matrices. Largest rotation (radians) and translation
// (units) error per interpolated entry, over every frame and bone.
struct ClipError {
  double rotation = 0, translation = 0;
  std::string where;
};

std::map<int, ClipError> SampledErrors(const Options& options) {
  const std::string dir = test::FixturePath("kh2-baked");
  const kh2::Bar raw = kh2::ParseBar(ReadFileBytes(dir + "/M_EX660_RAW.mset"));
  const kh2::Bar interpolated = kh2::ParseBar(ReadFileBytes(dir + "/M_EX660.mset"));
  const LoadedFile loaded = LoadFile(dir + "/M_EX660.mset", "", options);
  const DecodedScene decoded =
      DecodeWithSkeleton(loaded, SkeletonSource::File(dir + "/M_EX660.skeleton.gltf"), options);
  std::map<int, ClipError> errors;
  for (const auto& [r, i] : kPairs) {
    const Clip& clip =
        RequireClip(decoded.scene, kh2::SlotName(size_t(i), interpolated.entries.at(size_t(i))), "M_EX660.mset");
    const kh2::RawMotion& rm = MotionOf(raw, r).raw_motion;
    const size_t bones = size_t(rm.bone_count);
    EXPECT_EQ(clip.frame_count, size_t(rm.total_frames)) << clip.name;
    ClipError& e = errors[i];
    SampleRequest request;
    request.rest = &decoded.rest();
    request.space = Space::Model;
    ForEachSampleFrame(clip, request, [&](size_t f, std::span<const TransformTRS> pose, std::span<const bool>) {
      if (f >= size_t(rm.total_frames)) return;
      for (size_t b = 0; b < bones && b < pose.size(); ++b) {
        const auto& m = rm.matrices[f * bones + b];
        Mat4 want;
        for (int c = 0; c < 4; ++c)
          for (int k = 0; k < 4; ++k) want.m[c][k] = m[size_t(c * 4 + k)];
        const TransformTRS game = DecomposeTRS(want);
        const double angle = kh2::RotationDifference(game.rotation, pose[b].rotation);
        const Vec3 d = game.translation - pose[b].translation;
        const double distance = std::max({std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
        if (angle > e.rotation || distance > e.translation)
          e.where = "frame " + std::to_string(f) + " bone " + std::to_string(b);
        e.rotation = std::max(e.rotation, angle);
        e.translation = std::max(e.translation, distance);
      }
    });
  }
  return errors;
}

// The front ends' sampling is the game's pose: no refit between the curves and the frames.
TEST(Kh2BakedTwin, SampledModelPoseIsTheBakedPoseInEveryClip) {
  if (test::FixturePath("kh2-baked/M_EX660.mset").empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  ClipError all;
  for (const auto& [entry, e] : SampledErrors(Options{})) {
    std::printf("kh2 baked twin, sampled entry %d: %.3g rad, %.3g units (%s)\n", entry, e.rotation, e.translation,
                e.where.c_str());
    EXPECT_LE(e.rotation, 1e-4) << "entry " << entry << " " << e.where;
    EXPECT_LE(e.translation, 1e-3) << "entry " << entry << " " << e.where;
    all.rotation = std::max(all.rotation, e.rotation), all.translation = std::max(all.translation, e.translation);
  }
  std::printf("kh2 baked twin, sampled: largest %.3g rad, %.3g units over every frame of every clip\n", all.rotation,
              all.translation);
}

// glTF's keys (--kh2-keys stored, the refit) against the same frames: the bound
// docs/fidelity.md states for the glb (2e-5 rad per joint, which adds up along a chain: in
// model space 1e-4 rad and 2e-3 units on this model some 180 units tall).
TEST(Kh2BakedTwin, TheGltfKeysStayWithinTheirStatedBound) {
  if (test::FixturePath("kh2-baked/M_EX660.mset").empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  Options stored;
  stored.SetKeyUse(KeyUse::Interchange);
  ClipError all;
  for (const auto& [entry, e] : SampledErrors(stored)) {
    std::printf("kh2 baked twin, glTF keys, entry %d: %.3g rad, %.3g units (%s)\n", entry, e.rotation, e.translation,
                e.where.c_str());
    all.rotation = std::max(all.rotation, e.rotation), all.translation = std::max(all.translation, e.translation);
  }
  std::printf("kh2 baked twin, glTF keys: largest %.3g rad, %.3g units\n", all.rotation, all.translation);
  EXPECT_LE(all.rotation, 1e-4);
  EXPECT_LE(all.translation, 2e-3);
}

}  // namespace
}  // namespace animkit
