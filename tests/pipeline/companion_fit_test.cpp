// SkeletonMisfit and DecodeWithSkeleton's use of it: a companion that does not fit the
// animation beside it is not used (docs/cli.md, "The companion skeleton").
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>
#include <animkit/formats/kh2.hpp>

#include <gtest/gtest.h>

#include <filesystem>

namespace animkit {
namespace {

namespace fs = std::filesystem;

Scene SkeletonOf(const std::vector<std::string>& names) {
  Scene s;
  for (const std::string& n : names) s.skeleton.joints.push_back({n, -1, {}});
  return s;
}

Clip ClipOf(const std::string& name, const std::vector<std::string>& joints) {
  Clip c;
  c.name = name;
  for (const std::string& j : joints) c.tracks.push_back(JointTrack{j, {}, {}, {}, {}});
  return c;
}

Scene Animation(std::vector<Clip> clips) {
  Scene s;
  s.clips = std::move(clips);
  s.source.file = "dir/walk.anb";
  return s;
}

TEST(CompanionFit, AStatedBoneCountMustBeTheCompanionsJointCount) {
  const Scene model = SkeletonOf({"#0", "#1", "#2", "#3"});
  Clip four = ClipOf("A000", {"#0", "#1"});
  four.metadata[kh2::metadata_keys::kBoneCount] = 4;
  Clip three = ClipOf("A001", {"#0", "#1"});
  three.metadata[kh2::metadata_keys::kBoneCount] = 3;
  EXPECT_EQ(SkeletonMisfit(Animation({four}), model, "rig.mdlx"), "");
  EXPECT_EQ(SkeletonMisfit(Animation({three}), model, "rig.mdlx"),
            "rig.mdlx (4 joints) does not fit walk.anb: clip 'A001' was made for a skeleton of 3 bones");
  // A moveset with a few clips for another rig still fits (most clips do); a tie fits.
  EXPECT_EQ(SkeletonMisfit(Animation({four, four, three}), model, "rig.mdlx"), "");
  EXPECT_EQ(SkeletonMisfit(Animation({four, three}), model, "rig.mdlx"), "");
  EXPECT_EQ(SkeletonMisfit(Animation({three, three, four}), model, "rig.mdlx"),
            "rig.mdlx (4 joints) does not fit walk.anb: clip 'A001' was made for a skeleton of 3 bones "
            "(2 of 3 clips do not fit)");
}

TEST(CompanionFit, NumberedJointsMustNotOutnumberTheCompanions) {
  const Scene model = SkeletonOf({"root", "spine", "head"});
  EXPECT_EQ(SkeletonMisfit(Animation({ClipOf("anm", {"#0", "#1", "#2"})}), model, "m.tmd"), "");
  EXPECT_EQ(SkeletonMisfit(Animation({ClipOf("anm", {"#0", "#1", "#2", "#3"})}), model, "m.tmd"),
            "m.tmd (3 joints) does not fit walk.anb: clip 'anm' keys 4 joints");
}

TEST(CompanionFit, NamedJointsMustMostlyBeTheCompanions) {
  const Scene model = SkeletonOf({"root", "joint_1", "joint_2"});
  // EDF's Scene_Root is keyed but is no MDB bone: half or more known still fits.
  EXPECT_EQ(SkeletonMisfit(Animation({ClipOf("walk", {"Scene_Root", "root", "joint_1"})}), model, "m.mdb"), "");
  EXPECT_EQ(SkeletonMisfit(Animation({ClipOf("walk", {"hips", "spine", "root"})}), model, "m.mdb"),
            "m.mdb (3 joints) does not fit walk.anb: clip 'walk' names 3 joints, 1 of them the skeleton's");
  // Clips that key nothing and say nothing do not count.
  EXPECT_EQ(SkeletonMisfit(Animation({ClipOf("empty", {})}), SkeletonOf({}), "m.mdb"), "");
}

// Samples: the KH2 moveset and its 4-bone model fit; a PS1 ANM keying an object its TMD
// lacks does not (the decode against it fails), in a single decode and in a folder run.
TEST(CompanionFit, DecodeWithSkeletonLeavesOutACompanionThatDoesNotFit) {
  const LoadedFile mset = LoadFile(test::SourcePath("samples/kh2_bar/p_ex00.mset"), "", Options{});
  const DecodedScene fits = DecodeWithSkeleton(mset, SkeletonSource(), Options{});
  EXPECT_EQ(fits.use, SkeletonUse::Companion);
  EXPECT_EQ(fs::path(fits.skeleton.path).filename(), "ex00.mdlx");
  EXPECT_EQ(fits.warning, "");
  EXPECT_EQ(fits.scene.source.skeleton_use, "companion");
  EXPECT_EQ(SkeletonLabel(fits.scene.source), "ex00.mdlx (companion)");

  const fs::path dir = test::TempDir("companion-fit");
  fs::create_directories(dir / "in");
  fs::copy_file(test::SourcePath("samples/psx_tmd/figure.anm"), dir / "in" / "figure.anm");  // 8 objects
  fs::copy_file(test::SourcePath("samples/psx_anm/wave.anm"), dir / "in" / "figure.tmd");   // not even a TMD
  const LoadedFile anm = LoadFile((dir / "in" / "figure.anm").string(), "", Options{});
  const DecodedScene alone = DecodeWithSkeleton(anm, SkeletonSource(), Options{});
  EXPECT_EQ(alone.use, SkeletonUse::None);
  EXPECT_EQ(alone.skeleton.path, "");
  EXPECT_EQ(alone.warning.rfind("figure.tmd", 0), 0u) << alone.warning;
  EXPECT_NE(alone.warning.find("does not fit figure.anm"), std::string::npos) << alone.warning;
  EXPECT_EQ(alone.scene.clips.size(), 1u);
  EXPECT_EQ(SkeletonLabel(alone.scene.source), "none");
  // Given explicitly, the same file is used as asked: no fit is judged.
  const DecodedScene given = DecodeWithSkeleton(anm, SkeletonSource::File((dir / "in" / "figure.tmd").string()), Options{});
  EXPECT_EQ(given.use, SkeletonUse::Given);
  EXPECT_EQ(given.warning, "");

  BatchConvertJob job;
  job.input_dir = (dir / "in").string();
  job.output_dir = (dir / "out").string();
  job.to = "glb";
  const BatchReport report = job.Run();
  bool seen = false;
  for (const BatchFileResult& f : report.files) {
    if (f.path != "figure.anm") continue;
    seen = true;
    EXPECT_EQ(f.status, BatchStatus::Converted) << f.error;
    EXPECT_EQ(f.skeleton, "");
    EXPECT_EQ(f.skeleton_use, "none");
    ASSERT_EQ(f.warnings.size(), 1u);
    EXPECT_NE(f.warnings[0].find("does not fit figure.anm"), std::string::npos) << f.warnings[0];
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace animkit
