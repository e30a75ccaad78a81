// TargetRig (pipeline/retarget.hpp): the target of a retarget as a rig, as the CLI's
// `--to` and the Python module's retarget() both take it.
#include <animkit/pipeline/retarget.hpp>

#include "support/test_support.hpp"

namespace animkit {
namespace {

Skeleton TwoJoints(const std::string& prefix) {
  Skeleton s;
  s.joints.push_back({prefix + "hips", -1, TransformTRS{{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}});
  s.joints.push_back({prefix + "leg", 0, TransformTRS{{0, -0.5f, 0}, {0, 0, 0, 1}, {1, 1, 1}}});
  return s;
}

TEST(RetargetRig, KeepsTheModelAndDropsTheClips) {
  Scene decoded;
  decoded.skeleton = TwoJoints("");
  decoded.meshes.emplace_back();
  decoded.meshes.back().name = "body";
  decoded.clips.emplace_back();
  decoded.source.format = "gltf";
  const Scene rig = TargetRig(decoded, nullptr, "model.glb");
  ASSERT_EQ(rig.skeleton.joints.size(), 2u);
  EXPECT_EQ(rig.skeleton.joints[1].name, "leg");
  ASSERT_EQ(rig.meshes.size(), 1u);
  EXPECT_EQ(rig.meshes[0].name, "body");
  EXPECT_TRUE(rig.clips.empty());
  EXPECT_EQ(rig.source.format, "gltf");
}

TEST(RetargetRig, TakesTheReferencesSkeleton) {
  Scene clips_only;
  clips_only.clips.emplace_back();
  Scene reference;
  reference.skeleton = TwoJoints("ref_");
  const Scene rig = TargetRig(clips_only, &reference, "clips.anm");
  ASSERT_EQ(rig.skeleton.joints.size(), 2u);
  EXPECT_EQ(rig.skeleton.joints[0].name, "ref_hips");
  EXPECT_TRUE(rig.clips.empty());
}

TEST(RetargetRig, NoSkeletonIsAnErrorNamingTheFile) {
  const std::string message = test::ErrorOf([] { (void)TargetRig(Scene{}, nullptr, "empty.glb"); });
  EXPECT_NE(message.find("empty.glb"), std::string::npos) << message;
  EXPECT_NE(message.find("no skeleton"), std::string::npos) << message;
}

}  // namespace
}  // namespace animkit
