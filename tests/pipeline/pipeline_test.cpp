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

// Each case: a folder of empty files, the animation, and the companion expected ("" = none).
struct CompanionCase {
  std::vector<std::string> files;
  std::string animation;
  std::string_view format;
  std::string expected;
  std::string note_says;
};

TEST(PipelineSkeleton, CompanionIsTheOneBesideTheFileNamedAfterItOrTheOnly) {
  const std::vector<CompanionCase> cases = {
      {{"walk.canm", "run.canm", "soldier.mdb"}, "walk.canm", "edf-canm", "soldier.mdb", "the only .mdb file"},
      {{"walk.canm", "walk.mdb", "other.mdb"}, "walk.canm", "edf-canm", "walk.mdb", "the same name"},
      {{"WALK.CANM", "Walk.MDB", "other.mdb"}, "WALK.CANM", "edf-canm", "Walk.MDB", "the same name"},
      {{"walk.anm", "walk.model.gltf", "other.glb"}, "walk.anm", "text-anm", "walk.model.gltf", "starts with walk"},
      {{"walk.anm", "walk.a.glb", "walk.b.glb"}, "walk.anm", "text-anm", "", "2 .glb or .gltf files"},
      {{"walk.anim", "a.cinf", "b.cinf"}, "walk.anim", "metroid-anim", "", "none is named after it"},
      {{"walk.anim"}, "walk.anim", "metroid-anim", "", "no .cinf file"},
      {{"p_ex00.mset", "ex00.mdlx"}, "p_ex00.mset", "kh2-bar", "ex00.mdlx", "the only .mdlx"},
      {{"wave.motion", "ex00.mdlx"}, "wave.motion", "kh2-motion", "ex00.mdlx", "the only .mdlx"},
      {{"ex00.mdlx", "ex01.mdlx"}, "ex00.mdlx", "kh2-bar", "", "is itself a .mdlx file"},
      {{"figure.anm", "figure.tmd"}, "figure.anm", "psx-anm", "figure.tmd", "the same name"},
      {{"orbit.anc", "figure.tmd"}, "orbit.anc", "psx-anc", "", "needs no skeleton file"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const CompanionCase& c = cases[i];
    const fs::path dir = TempDir("companion-" + std::to_string(i));
    for (const std::string& f : c.files) test::WriteText(dir / f, "x");
    const Companion found = FindCompanion((dir / c.animation).string(), *FindFormat(c.format));
    EXPECT_EQ(found.path, c.expected.empty() ? "" : (dir / c.expected).string()) << c.animation << " case " << i;
    EXPECT_NE(found.note.find(c.note_says), std::string::npos) << found.note;
  }
}

TEST(PipelineSkeleton, CompanionIgnoresFoldersAndLinksLeadingOut) {
  const fs::path outside = TempDir("companion-outside");
  test::WriteText(outside / "elsewhere.mdb", "x");
  const fs::path dir = TempDir("companion-links");
  test::WriteText(dir / "walk.canm", "x");
  fs::create_directories(dir / "folder.mdb");
  fs::create_symlink(outside / "elsewhere.mdb", dir / "walk.mdb");
  EXPECT_EQ(FindCompanion((dir / "walk.canm").string(), *FindFormat("edf-canm")).path, "");
  test::WriteText(dir / "inside.mdb", "x");
  fs::create_symlink(dir / "inside.mdb", dir / "link.mdb");
  // Two candidates now (the file and a link to it inside the folder), neither named walk.
  EXPECT_EQ(FindCompanion((dir / "walk.canm").string(), *FindFormat("edf-canm")).path, "");
}

TEST(PipelineSkeleton, ResolveSkeletonKeepsAGivenFileAndFindsTheCompanionForAuto) {
  const fs::path dir = TempDir("companion-resolve");
  LoadedFile loaded;
  loaded.path = (dir / "walk.canm").string();
  loaded.format = FindFormat("edf-canm");
  test::WriteText(dir / "walk.canm", "x");
  test::WriteText(dir / "rig.mdb", "x");
  EXPECT_EQ(ResolveSkeleton(loaded, "given.mdb").path, "given.mdb");
  EXPECT_EQ(ResolveSkeleton(loaded, "").path, "");
  EXPECT_EQ(ResolveSkeleton(loaded, std::string(kSkeletonAuto)).path, (dir / "rig.mdb").string());
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
