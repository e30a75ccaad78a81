// GltfSceneView: what `animkit import-data` hands an importer from the glTF.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace animkit {
namespace {

// The nodes an importer rebuilds: a PS1 ANC camera node and its motion sampled at the clip's
// frames (the eye at frame 0 is the camera's first position), a TMD's meshes on their joints.
TEST(GltfSceneView, NodesMeshesAndTheCameraMotionAtTheClipsFrames) {
  const Options options;
  const LoadedFile anc = LoadFile(test::SourcePath("samples/psx_anc/orbit.anc"), "", options);
  const Scene scene = DecodeDocument(anc, {nullptr, options});
  ASSERT_EQ(scene.clips.size(), 1u);
  ASSERT_FALSE(scene.clips[0].cameras.empty());
  const size_t frames = ClipFrameCount(scene.clips[0], scene.clips[0].frame_rate);
  Bytes data;
  const Value view =
      GltfSceneView(ExportGltf(scene, {}), "", {{frames, scene.clips[0].frame_rate}}, data, options.limits());
  ASSERT_EQ(view["animations"].size(), 1u);
  const Value& root = view["root"];
  ASSERT_FALSE(root.is_null());
  EXPECT_EQ(view["nodes"][root.get<size_t>()]["name"].as_string(), "animkit_root");
  EXPECT_TRUE(view["joints"].empty());
  EXPECT_EQ(view["cameras"].size(), 1u);
  size_t camera_node = 0;
  for (size_t i = 0; i < view["nodes"].size(); ++i)
    if (!view["nodes"][i]["camera"].is_null()) camera_node = i;
  const Value& motion = view["animations"][0]["nodes"][std::to_string(camera_node)];
  ASSERT_TRUE(motion.contains("translation"));
  EXPECT_EQ(motion["translation"]["count"].get<size_t>(), frames);
  float eye[3];
  std::memcpy(eye, data.data() + motion["translation"]["offset"].get<size_t>(), sizeof eye);
  const Vec3 first = scene.clips[0].cameras[0].positions[0];
  EXPECT_NEAR(eye[0], first.x, 1e-4);
  EXPECT_NEAR(eye[1], first.y, 1e-4);
  EXPECT_NEAR(eye[2], first.z, 1e-4);

  const LoadedFile tmd = LoadFile(test::SourcePath("samples/psx_tmd/figure.tmd"), "", options);
  const Scene model = DecodeDocument(tmd, {nullptr, options});
  Bytes mesh_data;
  const Value meshes = GltfSceneView(ExportGltf(model, {}), "", {}, mesh_data, options.limits())["meshes"];
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

}  // namespace
}  // namespace animkit
