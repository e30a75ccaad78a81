// `animkit sample --skin` (docs/cli.md): the deformed vertices of SkinnedArmScene's meshes,
// read back from its glb; the expected positions are worked out by hand in
// tests/offline/skinning_test.cpp.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>

#include <synthetic/synthetic.hpp>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <fstream>

namespace animkit {
namespace {

std::string WriteArm(const std::string& dir_name) {
  const std::filesystem::path file = test::TempDir(dir_name) / "arm.glb";
  const Bytes bytes = ExportGltf(SkinnedArmScene(), {.binary = true});
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return file.string();
}

TEST(CliSkin, SampleSkinAddsEachMeshsDeformedVertices) {
  const std::string file = WriteArm("cli-sample-skin");
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample " + file + " --skin", &out, &err), 0) << err;
  const nlohmann::json clip = nlohmann::json::parse(out)["clips"].at(0);
  ASSERT_EQ(clip["meshes"].size(), 3u);
  EXPECT_EQ(clip["meshes"][0], (nlohmann::json{{"name", "arm"}, {"skinning", "skinned"}, {"vertices", 6}}));
  EXPECT_EQ(clip["meshes"][1]["skinning"], "rigid");
  EXPECT_EQ(clip["meshes"][2]["skinning"], "static");
  ASSERT_EQ(clip["mesh_frames"].size(), 3u);
  const auto expect = [&](size_t frame, size_t mesh, std::vector<double> xyz) {
    const nlohmann::json& got = clip["mesh_frames"][frame][mesh];
    ASSERT_EQ(got.size(), xyz.size()) << "frame " << frame << " mesh " << mesh;
    for (size_t k = 0; k < xyz.size(); ++k) EXPECT_NEAR(got[k].get<double>(), xyz[k], 1e-5) << frame << " " << mesh << " " << k;
  };
  expect(0, 0, {-0.5, 0, 0, 0.5, 0, 0, -0.5, 2, 0, 0.5, 2, 0, -0.5, 4, 0, 0.5, 4, 0});
  expect(2, 0, {1.5, 0, 0, 2.5, 0, 0, 1.75, 1.75, 0, 2.25, 2.25, 0, 0, 1.5, 0, 0, 2.5, 0});
  expect(2, 1, {2, 2, 0, 2, 3, 0, 1, 2, 0});
  expect(2, 2, {-3, -1, -3, 3, -1, -3, 0, -1, 3});
  // The same numbers whatever --space says; the poses themselves are unchanged by --skin.
  std::string model_out;
  ASSERT_EQ(test::RunCli("sample " + file + " --skin --space model", &model_out, &err), 0) << err;
  EXPECT_EQ(nlohmann::json::parse(model_out)["clips"][0]["mesh_frames"], clip["mesh_frames"]);
  std::string plain;
  ASSERT_EQ(test::RunCli("sample " + file, &plain, &err), 0) << err;
  const nlohmann::json plain_clip = nlohmann::json::parse(plain)["clips"].at(0);
  EXPECT_FALSE(plain_clip.contains("meshes"));
  EXPECT_FALSE(plain_clip.contains("mesh_frames"));
  EXPECT_EQ(plain_clip["frames"], clip["frames"]);
}

}  // namespace
}  // namespace animkit
