// An extracted root motion (`--root-motion extract`, a glb's root_motion joint) written back into a
// game file: Encode folds it into the joint it came from (FoldRootMotion), so the travel is kept.
#include "support/test_support.hpp"

#include <cmath>

namespace animkit {
namespace {

namespace fs = std::filesystem;

TEST(RootMotionFold, AnExtractedGlbWrittenBackIntoItsPakKeepsTheTravel) {
  const fs::path dir = test::TempDir("root_motion_fold");
  const std::string pak = test::SourcePath("samples/metroid_character/Character.pak");
  ConvertRequest to_glb;
  to_glb.input = pak;
  to_glb.output = (dir / "walk.glb").string();
  SetOption(to_glb.options, "root-motion", "extract");
  (void)Convert(to_glb);
  ConvertRequest back;
  back.input = to_glb.output;
  back.output = (dir / "back.pak").string();
  back.template_path = pak;
  const ConvertResult result = Convert(back);
  EXPECT_LE(result.report["anim_members_replaced"].get<uint64_t>(), 1u);  // Walk alone moves its root

  const Options options;
  const LoadedFile original = LoadFile(pak, "", options), written = LoadFile(back.output, "", options);
  const Scene a = DecodeDocument(original, DecodeContext{nullptr, options});
  const Scene b = DecodeDocument(written, DecodeContext{nullptr, options});
  ASSERT_EQ(a.clips.size(), b.clips.size());
  EXPECT_LT(b.skeleton.Find("root_motion"), 0);
  for (size_t c = 0; c < a.clips.size(); ++c) {
    SCOPED_TRACE(a.clips[c].name);
    const ModelPoseDifference d = CompareModelPoses(a.skeleton, a.clips[c], b.clips[c]);
    EXPECT_LT(d.translation, 1e-4);
    EXPECT_LT(d.rotation, 1e-4);
  }
}

}  // namespace
}  // namespace animkit
