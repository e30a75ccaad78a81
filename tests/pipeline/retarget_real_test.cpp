// The real cases, end to end through Retarget (docs/retarget.md, "Measured"): Sora's
// 228-bone moveset of one mod onto the 229-joint Sora of another, written as an MSET that reads
// back with that model as its companion; the EDF soldier onto Sora and back; the Metroid Sentry
// onto the glTF humanoid. Skipped, saying so, without ../shared.
#include "support/shared_files.hpp"
#include "support/test_support.hpp"

#include <animkit/offline/model_pose.hpp>

#include <cmath>

namespace animkit {
namespace {

namespace fs = std::filesystem;

// The largest model-space distance between two clips' joints of the same name at every frame.
double LargestDistance(const Clip& a, const Skeleton& sa, const Clip& b, const Skeleton& sb, const std::string& skip = "") {
  ClipModelPose pa(a, sa), pb(b, sb);
  std::vector<TransformTRS> xa(a.tracks.size()), xb(b.tracks.size());
  double worst = 0;
  for (size_t f = 0; f < a.frame_count && f < b.frame_count; ++f) {
    SampleClipJob{&a, &sa, FrameTime(f, a.frame_rate), xa}.Run();
    SampleClipJob{&b, &sb, FrameTime(f, b.frame_rate), xb}.Run();
    pa.Compose(xa);
    pb.Compose(xb);
    for (size_t k = 0; k < sb.joints.size(); ++k) {
      const int j = sa.Find(sb.joints[k].name);
      if (j < 0 || sb.joints[k].name == skip) continue;
      const Vec3 d = pa.transforms()[static_cast<size_t>(j)].translation - pb.transforms()[k].translation;
      worst = std::max(worst, std::sqrt(static_cast<double>(Dot(d, d))));
    }
  }
  return worst;
}

TEST(RetargetReal, TheKh2MovesetOfOneModOntoThe229JointSoraOfAnotherIsAnMsetThatFits) {
  const std::string moveset = test::SharedPath("real/kh2/airslide/P_EX100.mset");
  const std::string model = test::SharedPath("fixtures/kh2/P_EX100.mdlx");
  if (moveset.empty() || model.empty()) GTEST_SKIP() << "../shared/real/kh2/airslide/P_EX100.mset or fixtures/kh2/P_EX100.mdlx is absent";
  const fs::path dir = test::TempDir("retarget_real_kh2");
  fs::copy_file(model, dir / "P_EX100.mdlx");
  RetargetRequest request;
  request.source = moveset;
  request.target = model;
  request.output = (dir / "sora.mset").string();
  const RetargetResult result = Retarget(request);
  EXPECT_EQ(result.clips, 101u);
  EXPECT_EQ(result.mapped, 228u);
  ASSERT_EQ(result.unmapped, std::vector<std::string>{"#228"});
  EXPECT_FALSE(result.source_skeleton_note.empty());

  // Read back: the model beside it is its companion now (229 bones), every clip there.
  const Options options;
  const LoadedFile written = LoadFile(request.output, "", options);
  const DecodedScene back = DecodeWithSkeleton(written, SkeletonSource::Auto(), options);
  EXPECT_EQ(back.use, SkeletonUse::Companion) << back.warning;
  ASSERT_EQ(back.scene.clips.size(), 101u);
  // Each clip as the moveset decoded against the model itself plays it, within the MSET fitting.
  const Scene sora = LoadReference(model, options);
  const LoadedFile source = LoadFile(moveset, "", options);
  const DecodedScene forced = DecodeWithSkeleton(source, SkeletonSource::Decoded(sora, model), options);
  ASSERT_EQ(forced.scene.clips.size(), 101u);
  for (size_t c : {size_t{0}, size_t{77}}) {
    SCOPED_TRACE(forced.scene.clips[c].name);
    EXPECT_LT(LargestDistance(forced.scene.clips[c], sora.skeleton, back.scene.clips[c], sora.skeleton, "#228"), 0.05);
  }
}

TEST(RetargetReal, TheEdfSoldierOntoSoraAndBackKeepsItsPose) {
  const std::string sora = test::SharedPath("fixtures/kh2/P_EX100.mdlx");
  if (sora.empty()) GTEST_SKIP() << "../shared/fixtures/kh2/P_EX100.mdlx is absent";
  const fs::path dir = test::TempDir("retarget_real_edf");
  RetargetRequest there;
  there.source = test::SourcePath("samples/edf_cas/soldier5.cas");
  there.target = sora;
  there.map = test::SourcePath("tests/data/retarget/soldier_to_sora.json");
  there.output = (dir / "on_sora.glb").string();
  EXPECT_EQ(Retarget(there).mapped, 11u);
  RetargetRequest back = there;
  back.source = there.output;
  back.target = test::SourcePath("samples/edf_cas/soldier.rab");
  back.map = test::SourcePath("tests/data/retarget/sora_to_soldier.csv");
  back.output = (dir / "back.glb").string();
  EXPECT_EQ(Retarget(back).mapped, 11u);

  const Options options;
  const LoadedFile original = LoadFile(there.source, "", options);
  const DecodedScene a = DecodeWithSkeleton(original, SkeletonSource::Auto(), options);
  const LoadedFile returned = LoadFile(back.output, "", options);
  const DecodedScene b = DecodeWithSkeleton(returned, SkeletonSource::None(), options);
  ASSERT_EQ(a.scene.clips.size(), b.scene.clips.size());
  for (size_t c = 0; c < a.scene.clips.size(); ++c)
    EXPECT_LT(LargestDistance(a.scene.clips[c], a.rest(), b.scene.clips[c], b.rest()), 1e-4) << a.scene.clips[c].name;
}

TEST(RetargetReal, TheMetroidSentryOntoTheGltfHumanoidMapsByNameAndScalesItsTravel) {
  const fs::path dir = test::TempDir("retarget_real_metroid");
  RetargetRequest request;
  request.source = test::SourcePath("samples/metroid_character/Character.pak");
  request.target = test::SourcePath("samples/retarget/humanoid.glb");
  request.output = (dir / "sentry.glb").string();
  request.map_out = (dir / "map.json").string();
  request.measure = true;
  const RetargetResult result = Retarget(request);
  EXPECT_EQ(result.clips, 3u);
  EXPECT_EQ(result.mapped, 4u);  // root, hips, chest, head
  EXPECT_NEAR(result.translation_scale, 0.95 / 0.5, 1e-5);  // the hips' heights, Z up and Y up
  for (const Value& clip : result.report["fidelity"]) EXPECT_LT(clip["rotation_from_rest"].get<double>(), 1e-5);
  const Options options;
  const LoadedFile written = LoadFile(request.output, "", options);
  const Scene scene = DecodeDocument(written, DecodeContext{nullptr, options});
  ASSERT_EQ(scene.clips.size(), 3u);
  EXPECT_TRUE(scene.clips[2].additive);  // Nod_additive stays additive
  ASSERT_TRUE(scene.clips[1].root_motion);
  EXPECT_EQ(scene.clips[1].root_motion->joint, "Root");
}

}  // namespace
}  // namespace animkit
