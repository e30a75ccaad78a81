// The glTF of every model with meshes, as `animkit convert` writes it, passes the Khronos
// validator with no error and no warning: the samples' models and animations over them, and
// the real models of ../shared/fixtures when present.
#include <animkit/formats/gltf.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include "support/test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace animkit {
namespace {

TEST(GltfModels, EveryModelValidatesClean) {
  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) GTEST_SKIP() << reason;
  std::vector<std::string> inputs = {test::SourcePath("samples/kh2_bar/ex00.mdlx"),
                                     test::SourcePath("samples/kh2_bar/walk.anb"),
                                     test::SourcePath("samples/edf_mdb/soldier.mdb"),
                                     test::SourcePath("samples/edf_canm/soldier5.canm")};
  for (const char* real : {"kh2/P_EX100.mdlx", "kh2/interpolated.motion", "edf/airtortoise_missile.mdb"})
    if (const std::string path = test::FixturePath(real); !path.empty()) inputs.push_back(path);
  const std::filesystem::path dir = test::TempDir("gltf-models-validator");
  std::vector<std::filesystem::path> files;
  for (const std::string& input : inputs) {
    const LoadedFile loaded = LoadFile(input, "", {});
    // interpolated.motion's model is Sora's, not beside it under the companion's name.
    const bool sora_motion = input.ends_with("interpolated.motion");
    const SkeletonSource skeleton = sora_motion ? SkeletonSource::File(test::FixturePath("kh2/P_EX100.mdlx")) : SkeletonSource();
    const Scene scene = DecodeWithSkeleton(loaded, skeleton, {}).scene;
    ASSERT_FALSE(scene.meshes.empty()) << input << " shows no mesh";
    const Bytes glb = ExportGltf(scene, {.binary = true});
    files.push_back(dir / (std::filesystem::path(input).filename().string() + ".glb"));
    std::ofstream(files.back(), std::ios::binary)
        .write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  }
  std::string output;
  EXPECT_EQ(test::RunGltfValidator(files, &output), 0) << output;
  EXPECT_EQ(test::CleanValidatorReports(output), files.size()) << output;
}

}  // namespace
}  // namespace animkit
