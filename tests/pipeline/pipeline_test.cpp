// The pipeline's shared policies: which skeleton a file decodes against, the rest
// pose, the --clip check, and `info` built by the library.
#include <nlohmann/json.hpp>

#include "support/batch_tree.hpp"
#include "support/test_support.hpp"

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

Scene TwoClips() {
  Scene s;
  s.skeleton.joints.push_back({"own", -1, {}});
  Clip a;
  a.name = "walk";
  Clip b;
  b.name = "run";
  s.clips = {a, b};
  return s;
}

TEST(PipelineSkeleton, ExplicitThenCompanionThenOwn) {
  const fs::path dir = TempDir("pipeline-companion");
  test::WriteText(dir / "walk.anb", "x");
  test::WriteText(dir / "walk.skeleton", "  rig/model.mdlx\n(ignored)");
  test::WriteText(dir / "alone.anb", "x");
  test::WriteText(dir / "empty.anb", "x");
  test::WriteText(dir / "empty.skeleton", " \n");
  const std::string walk = (dir / "walk.anb").string();
  EXPECT_EQ(CompanionSkeleton(walk), (dir / "rig/model.mdlx").string());
  EXPECT_EQ(ChooseSkeleton(walk, "given.glb", true), "given.glb");
  EXPECT_EQ(ChooseSkeleton(walk, "", true), (dir / "rig/model.mdlx").string());
  EXPECT_EQ(ChooseSkeleton(walk, "", false), "");
  EXPECT_EQ(ChooseSkeleton((dir / "alone.anb").string(), "", true), "");
  EXPECT_THROW(CompanionSkeleton((dir / "empty.anb").string()), Error);
}

TEST(PipelineSkeleton, RestSkeletonIsTheReferencesWhenItHasJoints) {
  const Scene scene = TwoClips();
  Scene reference;
  EXPECT_EQ(&RestSkeleton(scene, nullptr), &scene.skeleton);
  EXPECT_EQ(&RestSkeleton(scene, &reference), &scene.skeleton);  // no joints: the scene's own
  reference.skeleton.joints.push_back({"ref", -1, {}});
  EXPECT_EQ(&RestSkeleton(scene, &reference), &reference.skeleton);
}

TEST(PipelineSkeleton, DecodeWithSkeletonUsesTheSharedReferenceFirst) {
  const fs::path dir = TempDir("pipeline-decode-with");
  test::WriteBytes(dir / "a.anm", test::SyntheticPsxAnm(4, 10, 1));
  test::WriteBytes(dir / "rig.glb", test::SyntheticGltf(4, 0, 4, true, true));
  const LoadedFile loaded = LoadFile((dir / "a.anm").string(), "", Options{});
  const DecodedScene own = DecodeWithSkeleton(loaded, "", Options{});
  EXPECT_EQ(own.reference_used(), nullptr);
  EXPECT_EQ(own.scene.clips.at(0).tracks.at(0).joint, "#0");
  const DecodedScene with_file = DecodeWithSkeleton(loaded, (dir / "rig.glb").string(), Options{});
  ASSERT_NE(with_file.reference_used(), nullptr);
  EXPECT_EQ(with_file.scene.clips.at(0).tracks.at(0).joint, "root");
  EXPECT_EQ(&with_file.rest(), &with_file.reference.skeleton);
  // Moved, it still points at its own copy.
  const DecodedScene moved = DecodeWithSkeleton(loaded, (dir / "rig.glb").string(), Options{});
  EXPECT_EQ(moved.reference_used(), &moved.reference);
  // An already decoded reference wins over the path (which is then not read).
  const DecodedScene shared = DecodeWithSkeleton(loaded, (dir / "missing.glb").string(), Options{}, &with_file.reference);
  EXPECT_EQ(shared.reference_used(), &with_file.reference);
  EXPECT_EQ(shared.scene.clips.at(0).tracks.at(0).joint, "root");
}

TEST(PipelineClip, RequireClipNamesTheFile) {
  const Scene scene = TwoClips();
  EXPECT_EQ(&RequireClip(scene, "run", "f.bin"), &scene.clips[1]);
  try {
    (void)RequireClip(scene, "jump", "f.bin");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "f.bin: no clip named 'jump'");
  }
}

TEST(PipelineInfo, VersionIsPrintedOnlyWhenTheFormatHasOne) {
  // A KH2 motion has no version field: the summary prints none (it printed "version: null").
  const std::string kh2 = test::SourcePath("samples/kh2_motion/wave.motion");
  const std::string text = InfoText(kh2, InfoRequest{});
  EXPECT_EQ(text.find("version"), std::string::npos) << text;
  EXPECT_EQ(text.rfind(kh2 + ": kh2-motion", 0), 0u) << text;
  const nlohmann::json j = nlohmann::json::parse(InfoJson(kh2, InfoRequest{}));
  EXPECT_TRUE(j.at("version").is_null());
  EXPECT_FALSE(j.at("fields").contains("version"));
  // A Metroid ANIM has one: both print it.
  const std::string anim = test::SourcePath("samples/metroid_anim/run.anim");
  const nlohmann::json aj = nlohmann::json::parse(InfoJson(anim, InfoRequest{}));
  ASSERT_FALSE(aj.at("version").is_null());
  EXPECT_NE(InfoText(anim, InfoRequest{}).find("  version: " + aj.at("version").dump() + "\n"), std::string::npos);
}

}  // namespace
}  // namespace animkit
