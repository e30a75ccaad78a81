// GltfSceneView: what `animkit import-data` hands an importer from the glTF.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>

#include <synthetic/synthetic.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace animkit {
namespace {

// The nodes an importer rebuilds: a PS1 ANC camera node and its motion as stored (the eye at
// the first key is the camera's first position), a TMD's meshes on their joints.
TEST(GltfSceneView, NodesMeshesAndTheCameraMotionAtTheClipsFrames) {
  const Options options;
  const LoadedFile anc = LoadFile(test::SourcePath("samples/psx_anc/orbit.anc"), "", options);
  const Scene scene = DecodeDocument(anc, {nullptr, options});
  ASSERT_EQ(scene.clips.size(), 1u);
  ASSERT_FALSE(scene.clips[0].cameras.empty());
  Bytes data;
  const Value view = GltfSceneView(ExportGltf(scene, {}), "", data, options.limits());
  ASSERT_EQ(view["animations"].size(), 1u);
  const Value& root = view["root"];
  ASSERT_FALSE(root.is_null());
  EXPECT_EQ(view["nodes"][root.get<size_t>()]["name"].as_string(), "animkit_root");
  EXPECT_TRUE(view["joints"].empty());
  EXPECT_EQ(view["cameras"].size(), 1u);
  size_t camera_node = 0;
  for (size_t i = 0; i < view["nodes"].size(); ++i)
    if (!view["nodes"][i]["camera"].is_null()) camera_node = i;
  const Value* motion = nullptr;
  for (const Value& ch : view["animations"][0]["channels"])
    if (ch["node"].get<size_t>() == camera_node && ch["path"].as_string() == "translation") motion = &ch;
  ASSERT_NE(motion, nullptr);
  EXPECT_EQ((*motion)["values"]["count"].get<size_t>(), (*motion)["times"]["count"].get<size_t>());
  float eye[3];
  std::memcpy(eye, data.data() + (*motion)["values"]["offset"].get<size_t>(), sizeof eye);
  const Vec3 first = scene.clips[0].cameras[0].positions[0];
  EXPECT_NEAR(eye[0], first.x, 1e-4);
  EXPECT_NEAR(eye[1], first.y, 1e-4);
  EXPECT_NEAR(eye[2], first.z, 1e-4);

  const LoadedFile tmd = LoadFile(test::SourcePath("samples/psx_tmd/figure.tmd"), "", options);
  const Scene model = DecodeDocument(tmd, {nullptr, options});
  Bytes mesh_data;
  const Value meshes = GltfSceneView(ExportGltf(model, {}), "", mesh_data, options.limits())["meshes"];
  ASSERT_FALSE(meshes.empty());
  for (const Value& mesh : meshes) {
    for (const Value& p : mesh["primitives"]) {
      const size_t vertices = p["positions"]["count"].get<size_t>();
      const size_t offset = p["indices"]["offset"].get<size_t>();
      for (size_t k = 0; k < p["indices"]["count"].get<size_t>(); ++k) {
        uint32_t index = 0;
        std::memcpy(&index, mesh_data.data() + offset + 4 * k, 4);
        EXPECT_LT(index, vertices);
      }
    }
  }
}

template <class T>
std::vector<T> Read(const Bytes& data, const Value& where, size_t width) {
  std::vector<T> out(where["count"].get<size_t>() * width);
  std::memcpy(out.data(), data.data() + where["offset"].get<size_t>(), out.size() * sizeof(T));
  return out;
}

// SkinnedArmScene's arm (tools/synthetic): joints as the nodes of "upper" (0) and "lower" (1),
// its weights, UVs and normals as written; its material's image as the PNG file's bytes.
TEST(GltfSceneView, SkinnedMeshesMaterialsAndImages) {
  Bytes data;
  const Value view = GltfSceneView(ExportGltf(SkinnedArmScene(), {}), "", data, Limits{});
  const Value& arm = view["meshes"][0];
  EXPECT_EQ(arm["name"].as_string(), "arm");
  const Value& p = arm["primitives"][0];
  EXPECT_EQ(Read<uint32_t>(data, p["joints"], 4),
            (std::vector<uint32_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(Read<float>(data, p["weights"], 4)[8], 0.5f);
  EXPECT_EQ(Read<float>(data, p["uvs"], 2), (std::vector<float>{0, 0, 1, 0, 0, .5f, 1, .5f, 0, 1, 1, 1}));
  EXPECT_EQ(Read<float>(data, p["normals"], 3)[2], 1.0f);
  EXPECT_EQ(p["material"], Value(0));
  bool skinned_node = false;
  for (const Value& node : view["nodes"].as_array())
    if (node["mesh"] == Value(0)) skinned_node = node["skin"] == Value(0);
  EXPECT_TRUE(skinned_node);
  const Value& material = view["materials"][0];
  EXPECT_EQ(material["name"].as_string(), "skin");
  EXPECT_EQ(material["image"], Value(0));
  EXPECT_EQ(material["alpha_mode"].as_string(), "MASK");
  EXPECT_EQ(view["materials"][1]["extras"]["texture_missing"]["name"].as_string(), "lost.dds");
  ASSERT_EQ(view["images"].size(), 1u);
  const std::vector<uint8_t> png = Read<uint8_t>(data, view["images"][0]["data"], 1);
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(std::memcmp(png.data(), "\x89PNG\r\n\x1a\n", 8), 0);
}

// A mesh's extras.animkit (its metadata: a KH2 shadow model's "hidden" and "model_role")
// reach the importer, which hides such a mesh.
TEST(GltfSceneView, MeshExtrasCarryTheHiddenFlag) {
  Scene scene = SkinnedArmScene();
  scene.meshes[0].metadata[kMeshHiddenKey] = true;
  scene.meshes[0].metadata[kMeshModelRoleKey] = "shadow";
  Bytes data;
  const Value view = GltfSceneView(ExportGltf(scene, {}), "", data, Limits{});
  const Value& extras = view["meshes"][0]["extras"];
  EXPECT_EQ(extras["metadata"]["hidden"], Value(true));
  EXPECT_EQ(extras["metadata"]["model_role"].as_string(), "shadow");
}


// Channels come as stored: a Hermite translation as CUBICSPLINE with (in, value, out) per
// key, a step scale as STEP, a joint without a track has no channel.
TEST(GltfSceneView, ChannelsAsStoredWithTheirInterpolationAndTangents) {
  Scene scene;
  scene.skeleton.joints = {{"root", -1, {}}, {"still", 0, {}}};
  Clip& clip = scene.clips.emplace_back();
  clip.name = "curve";
  clip.SetFrames(31, 30);
  JointTrack& root = clip.tracks.emplace_back();
  root.joint = "root";
  root.translation.interpolation = Interpolation::Hermite;
  root.translation.times = {0.0f, 0.5f, 1.0f};
  root.translation.values = {{0, 0, 0}, {1, 2, 3}, {0, 1, 0}};
  root.translation.in_tangents = {{0, 0, 0}, {4, 0, 0}, {0, 0, 5}};
  root.translation.out_tangents = {{1, 0, 0}, {0, 6, 0}, {0, 0, 0}};
  root.scale.interpolation = Interpolation::Step;
  root.scale.times = {0.0f, 0.5f};
  root.scale.values = {{1, 1, 1}, {2, 2, 2}};
  Bytes data;
  const Value view = GltfSceneView(ExportGltf(scene, {}), "", data, Limits{});
  const Value& channels = view["animations"][0]["channels"];
  size_t root_node = 0;
  for (size_t i = 0; i < view["nodes"].size(); ++i)
    if (view["nodes"][i]["name"].as_string() == "root") root_node = i;
  const Value* translation = nullptr;
  const Value* scale = nullptr;
  for (const Value& ch : channels) {
    EXPECT_EQ(ch["node"].get<size_t>(), root_node) << "only the root has tracks";
    if (ch["path"].as_string() == "translation") translation = &ch;
    if (ch["path"].as_string() == "scale") scale = &ch;
  }
  ASSERT_NE(translation, nullptr);
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ((*translation)["interpolation"].as_string(), "CUBICSPLINE");
  EXPECT_EQ(Read<float>(data, (*translation)["times"], 1), (std::vector<float>{0.0f, 0.5f, 1.0f}));
  EXPECT_EQ(Read<float>(data, (*translation)["values"], 3),
            (std::vector<float>{0, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0, 0, 1, 2, 3, 0, 6, 0, 0, 0, 5, 0, 1, 0, 0, 0, 0}));
  EXPECT_EQ((*scale)["interpolation"].as_string(), "STEP");
  EXPECT_EQ(Read<float>(data, (*scale)["values"], 3), (std::vector<float>{1, 1, 1, 2, 2, 2}));
}

}  // namespace
}  // namespace animkit
