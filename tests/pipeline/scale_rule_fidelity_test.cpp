// What glTF's matrix composition costs a per-axis clip (docs/fidelity.md): each clip of
// each sample and of the real KH2 set (../shared/fixtures/kh2-baked, skipped when absent),
// taken as per-axis, is exported; the glTF's own locals composed as glTF composes them are
// compared with the per-axis pose in model space, and the reader's per-axis locals too.
#include "support/test_support.hpp"

#include <animkit/pipeline/pipeline.hpp>

#include <cstdio>

namespace animkit {
namespace {

struct Errors {
  ModelPoseDifference gltf, read_back;
  size_t clips = 0;
};

void Widen(ModelPoseDifference& into, const ModelPoseDifference& d) {
  into.rotation = std::max(into.rotation, d.rotation);
  into.translation = std::max(into.translation, d.translation);
  into.scale = std::max(into.scale, d.scale);
  into.linear = std::max(into.linear, d.linear);
}

Errors Measure(const std::string& path, const std::string& skeleton) {
  const DecodedScene decoded = DecodeWithSkeleton(LoadFile(path, "", {}), skeleton, {});
  Scene scene = decoded.scene;
  std::erase_if(scene.clips, [](const Clip& c) { return c.space == Space::Model; });
  for (Clip& clip : scene.clips) clip.scale_inheritance = ScaleInheritance::PerAxis;
  const Bytes bytes = ExportGltf(scene, {false, {}});
  std::string text(bytes.begin(), bytes.end());
  const Scene read_back = ImportGltf(bytes, "");
  // The same glTF with the rule's mark taken away: its locals as glTF composes them.
  const std::string mark = "\"scale_inheritance\": \"per_axis\"";
  for (size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at))
    text.replace(at, mark.size(), "\"scale_inheritance\": \"matrix\"");
  const Scene as_gltf = ImportGltf(Bytes(text.begin(), text.end()), "");
  Errors e;
  for (size_t c = 0; c < scene.clips.size(); ++c, ++e.clips) {
    EXPECT_EQ(as_gltf.clips[c].scale_inheritance, ScaleInheritance::Matrix);
    EXPECT_EQ(read_back.clips[c].scale_inheritance, ScaleInheritance::PerAxis);
    Widen(e.gltf, CompareModelPoses(scene.skeleton, scene.clips[c], as_gltf.clips[c]));
    Widen(e.read_back, CompareModelPoses(scene.skeleton, scene.clips[c], read_back.clips[c]));
  }
  std::printf("%s: %zu clips; glTF vs per-axis: %.3g rad, %.3g units, scale %.3g, matrix %.3g; "
              "read back: %.3g rad, %.3g units\n",
              path.c_str(), e.clips, e.gltf.rotation, e.gltf.translation, e.gltf.scale, e.gltf.linear,
              e.read_back.rotation, e.read_back.translation);
  return e;
}

// No sample scales a joint with children non-uniformly: their glTF is what it was.
TEST(ScaleRuleFidelity, SamplesWithoutNonUniformScaleExportExactly) {
  for (const char* file : {"edf_canm/soldier5.canm", "edf_canm/soldier6.canm", "kh2_bar/p_ex00.mset", "kh2_bar/walk.anb",
                           "kh2_motion/wave.motion", "metroid_anim/run.anim", "metroid_anim/hologram_v0.anim",
                           "psx_anm/dance.anm", "psx_tmd/figure.anm", "psx_anc/orbit.anc"}) {
    const Errors e = Measure(test::SourcePath(std::string("samples/") + file), std::string(kSkeletonAuto));
    EXPECT_LT(e.gltf.translation, 1e-4) << file;
    EXPECT_LT(e.gltf.rotation, 1e-5) << file;
    EXPECT_LT(e.gltf.linear, 1e-5) << file;
    EXPECT_LT(e.read_back.translation, 1e-4) << file;
  }
}

// M_EX660 scales some bones non-uniformly (their children shear under matrix products).
TEST(ScaleRuleFidelity, RealKh2SetWithinItsMeasuredError) {
  const std::string dir = test::FixturePath("kh2-baked");
  if (dir.empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked is absent";
  const Errors e = Measure(dir + "/M_EX660.mset", dir + "/M_EX660.skeleton.gltf");
  EXPECT_GT(e.clips, 0u);
  // Measured: 6.2e-5 units (joint origins are kept exactly but for float error, over
  // coordinates up to 1300), 0.0023 rad, 0.091 scale, 0.31 per matrix element (the shear
  // itself, which no TRS holds); read back 3.2e-5 units, 0.0023 rad.
  EXPECT_LT(e.gltf.translation, 1e-3);
  EXPECT_LT(e.gltf.rotation, 0.005);
  EXPECT_LT(e.gltf.linear, 0.35);
  EXPECT_LT(e.read_back.translation, 1e-3);
  EXPECT_LT(e.read_back.rotation, 0.005);
}

}  // namespace
}  // namespace animkit
