// Additive clips and root motion through glTF (the animation's animkit extras "additive" and
// "root_motion", docs/conventions.md), `--root-motion extract` (a root_motion node above the
// root), and the sample JSON's "additive", "base" and "root_motion" entries.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace animkit {
namespace {

using nlohmann::json;
constexpr float kPi = std::numbers::pi_v<float>;

// hips (root) -> arm, one unit along x. "walk" moves the hips 2 along x and turns them
// Rz90 over frames 0..1 (Z up); "wave_add" is a rotation-only delta turning the arm Rz90.
Scene MotionScene() {
  Scene scene;
  scene.skeleton.joints.push_back({"hips", -1, {}});
  scene.skeleton.joints.push_back({"arm", 0, {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}});
  Clip walk;
  walk.name = "walk";
  walk.SetFrames(2, 1);
  walk.root_motion = RootMotion{"hips", {0, 0, 1}};
  JointTrack hips;
  hips.joint = "hips";
  hips.translation.Add(0, {0, 0, 1});
  hips.translation.Add(1, {2, 0, 1});
  hips.rotation.Add(0, {0, 0, 0, 1});
  hips.rotation.Add(1, AxisAngle({0, 0, 1}, kPi / 2));
  walk.tracks.push_back(std::move(hips));
  scene.clips.push_back(std::move(walk));
  Clip wave;
  wave.name = "wave_add";
  wave.SetFrames(2, 1);
  wave.additive = Additive{"walk", true, 0.25f, 0.5f};
  JointTrack arm;
  arm.joint = "arm";
  arm.rotation.Add(0, AxisAngle({0, 0, 1}, kPi / 2));
  arm.rotation.Add(1, AxisAngle({0, 0, 1}, kPi / 2));
  wave.tracks.push_back(std::move(arm));
  scene.clips.push_back(std::move(wave));
  return scene;
}

json Extras(const Bytes& glb_or_gltf, size_t animation) {
  const std::string text(glb_or_gltf.begin(), glb_or_gltf.end());
  return json::parse(text)["animations"][animation]["extras"]["animkit"];
}

Bytes EncodeGltf(const Scene& scene, const Options& options = {}, std::vector<std::string>* warnings = nullptr) {
  EncodeRequest request;
  request.output_path = "motion.gltf";
  request.options = options;
  EncodeResult r = Encode(scene, *FindFormat("gltf"), request);
  if (warnings) *warnings = r.warnings;
  return r.bytes;
}

TEST(GltfMotion, ExtrasCarryAdditiveAndRootMotionBothWays) {
  const Bytes bytes = EncodeGltf(MotionScene());
  const json walk = Extras(bytes, 0), wave = Extras(bytes, 1);
  EXPECT_EQ(walk["root_motion"], json::parse(R"({"joint": "hips", "up": [0, 0, 1]})"));
  EXPECT_FALSE(walk.contains("additive"));
  EXPECT_EQ(wave["additive"],
            json::parse(R"({"reference": "clip", "clip": "walk", "rotation_only": true, "fade_in": 0.25, "fade_out": 0.5})"));
  const Scene back = ImportGltf(bytes, "");
  ASSERT_EQ(back.clips.size(), 2u);
  ASSERT_TRUE(back.clips[0].root_motion);
  EXPECT_EQ(back.clips[0].root_motion->joint, "hips");
  test::ExpectVec(back.clips[0].root_motion->up, 0, 0, 1);
  EXPECT_FALSE(back.clips[0].additive);
  ASSERT_TRUE(back.clips[1].additive);
  EXPECT_EQ(back.clips[1].additive->reference, "walk");
  EXPECT_TRUE(back.clips[1].additive->rotation_only);
  EXPECT_EQ(back.clips[1].additive->fade_in, 0.25f);
  EXPECT_EQ(back.clips[1].additive->fade_out, 0.5f);
  // Over the rest pose: "reference": "rest", no clip.
  Scene rest = MotionScene();
  rest.clips[1].additive->reference.clear();
  EXPECT_EQ(Extras(EncodeGltf(rest), 1)["additive"]["reference"], "rest");
  EXPECT_FALSE(Extras(EncodeGltf(rest), 1)["additive"].contains("clip"));
  EXPECT_EQ(ImportGltf(EncodeGltf(rest), "").clips[1].additive->reference, "");
}

TEST(GltfMotion, MalformedEntriesAreAbsent) {
  const std::string text = R"({"asset": {"version": "2.0", "extras": {"animkit": {"version": 1}}},
    "nodes": [{"name": "hips"}], "accessors": [], "animations": [{"name": "a", "channels": [], "samplers": [],
    "extras": {"animkit": {"additive": 3, "root_motion": {"joint": 7}}}},
    {"name": "b", "channels": [], "samplers": [], "extras": {"animkit": {"additive": {"fade_in": -1},
      "root_motion": {"joint": "hips", "up": [0, "z", 1]}}}}]})";
  const Scene scene = ImportGltf(Bytes(text.begin(), text.end()), "");
  ASSERT_EQ(scene.clips.size(), 2u);
  EXPECT_FALSE(scene.clips[0].additive);
  EXPECT_FALSE(scene.clips[0].root_motion);
  ASSERT_TRUE(scene.clips[1].additive);
  EXPECT_EQ(scene.clips[1].additive->fade_in, 0.0f);
  EXPECT_FALSE(scene.clips[1].additive->rotation_only);
  ASSERT_TRUE(scene.clips[1].root_motion);
  test::ExpectVec(scene.clips[1].root_motion->up, 0, 1, 0);  // the default where up is malformed
}

TEST(GltfMotion, ExtractWritesARootMotionNodeAboveTheRoot) {
  Options options;
  SetOption(options, "root-motion", "extract");
  const Bytes bytes = EncodeGltf(MotionScene(), options);
  const json doc = json::parse(std::string(bytes.begin(), bytes.end()));
  int motion = -1, hips = -1;
  for (size_t n = 0; n < doc["nodes"].size(); ++n) {
    if (doc["nodes"][n].value("name", "") == "root_motion") motion = int(n);
    if (doc["nodes"][n].value("name", "") == "hips") hips = int(n);
  }
  ASSERT_GE(motion, 0);
  ASSERT_GE(hips, 0);
  EXPECT_EQ(doc["nodes"][motion]["children"], json::array({hips}));
  const Scene back = ImportGltf(bytes, "");
  ASSERT_EQ(back.skeleton.Find("root_motion"), 0);
  EXPECT_EQ(back.skeleton.joints[size_t(back.skeleton.Find("hips"))].parent, 0);
  const Clip& walk = back.clips[0];
  EXPECT_EQ(walk.root_motion->joint, "root_motion");
  const JointTrack* node = walk.FindTrack("root_motion");
  const JointTrack* root = walk.FindTrack("hips");
  ASSERT_TRUE(node && root);
  // Frame 1: travel (2,0,0), turn Rz90; the hips keep Rz(-90) ((2,0,1) - (2,0,0)) = (0,0,1), no turn.
  const float h = std::sqrt(0.5f);
  test::ExpectVec(SampleTrack(node->translation, 1), 2, 0, 0);
  test::ExpectQuat(SampleTrack(node->rotation, 1), 0, 0, h, h);
  test::ExpectVec(SampleTrack(root->translation, 1), 0, 0, 1, 1e-6);
  test::ExpectQuat(SampleTrack(root->rotation, 1), 0, 0, 0, 1);
  // keep (the default) writes no such node.
  const Bytes kept = EncodeGltf(MotionScene());
  for (const json& n : json::parse(std::string(kept.begin(), kept.end()))["nodes"]) EXPECT_NE(n.value("name", ""), "root_motion");
  EXPECT_THROW(SetOption(options, "root-motion", "drop"), Error);
}

TEST(GltfMotion, ExtractWarnsWhereItCannot) {
  Scene scene = MotionScene();
  scene.clips[0].root_motion->joint = "pelvis";
  Options options;
  SetOption(options, "root-motion", "extract");
  std::vector<std::string> warnings;
  (void)EncodeGltf(scene, options, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(test::Has(warnings[0], "clip 'walk'"));
}

TEST(GltfMotion, SampleJsonHasTheDeltasTheAdditiveAndItsBase) {
  const Scene scene = MotionScene();
  SampleRequest request{0, {}, &scene.skeleton, {}};
  json doc = json::parse(SampleJson(scene, "gltf", request));
  const json& walk = doc["clips"][0];
  ASSERT_TRUE(walk.contains("root_motion"));
  EXPECT_EQ(walk["root_motion"]["joint"], "hips");
  EXPECT_EQ(walk["root_motion"]["up"], json::parse("[0, 0, 1]"));
  ASSERT_EQ(walk["root_motion"]["deltas"].size(), 2u);
  EXPECT_EQ(walk["root_motion"]["deltas"][0], json::parse(R"({"t": [0, 0, 0], "r": [0, 0, 0, 1]})"));
  // 0 -> 1: rotation Rz90; translation Rz(-90) (2,0,0) = (0,-2,0).
  const json& d = walk["root_motion"]["deltas"][1];
  EXPECT_NEAR(d["t"][0].get<double>(), 0, 1e-6);
  EXPECT_NEAR(d["t"][1].get<double>(), -2, 1e-6);
  EXPECT_NEAR(d["r"][2].get<double>(), std::sqrt(0.5), 1e-6);
  EXPECT_FALSE(walk.contains("additive"));
  const json& wave = doc["clips"][1];
  EXPECT_EQ(wave["additive"]["reference"], "clip");
  EXPECT_EQ(wave["additive"]["clip"], "walk");
  EXPECT_FALSE(wave.contains("base"));  // local space: the deltas as the clip holds them
  EXPECT_FALSE(wave.contains("root_motion"));
  // Model space: over its reference, walk, at the same time. Frame 1: hips at (2,0,1) turned
  // Rz90, arm at (2,0,1) + Rz90 (1,0,0) = (2,1,1), turned Rz90 * Rz90 = Rz180.
  request.space = Space::Model;
  doc = json::parse(SampleJson(scene, "gltf", request));
  EXPECT_EQ(doc["clips"][1]["base"], "walk");
  const json& arm = doc["clips"][1]["frames"][1][0];
  EXPECT_NEAR(arm["t"][0].get<double>(), 2, 1e-6);
  EXPECT_NEAR(arm["t"][1].get<double>(), 1, 1e-6);
  EXPECT_NEAR(arm["t"][2].get<double>(), 1, 1e-6);
  EXPECT_NEAR(std::abs(arm["r"][2].get<double>()), 1, 1e-6);
  // --base names another clip; an unknown one is an error before any output.
  request.base = "wave_add";  // the clip itself is no base: the rest pose then
  doc = json::parse(SampleJson(scene, "gltf", request));
  EXPECT_FALSE(doc["clips"][1].contains("base"));
  EXPECT_NEAR(doc["clips"][1]["frames"][1][0]["t"][0].get<double>(), 1, 1e-6);  // arm at its rest (1,0,0)
  request.base = "run";
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { (void)SampleJson(scene, "gltf", request); }), "no clip 'run'"));
}

}  // namespace
}  // namespace animkit
