// Root motion and additive clips through the CLI (docs/cli.md, "Root motion and additive
// clips in sample"): the Metroid sample's deltas in `sample`, `convert --root-motion
// extract` keeping every model-space pose, `sample --base`'s error.
#include "support/test_support.hpp"

#include <nlohmann/json.hpp>

#include <map>

namespace animkit {
namespace {

using nlohmann::json;
using test::RunCli;

std::string Sample(const std::string& rel) { return test::SourcePath("samples/" + rel); }

json SampleOf(const std::string& args) {
  std::string out, err;
  EXPECT_EQ(RunCli("sample " + args, &out, &err), 0) << err;
  return json::parse(out);
}

Vec3 V(const json& a) { return {a[0].get<float>(), a[1].get<float>(), a[2].get<float>()}; }
QuatXYZW Q(const json& a) { return {a[0].get<float>(), a[1].get<float>(), a[2].get<float>(), a[3].get<float>()}; }

TEST(MotionCli, MetroidSampleListsItsRootDeltas) {
  const json doc = SampleOf(Sample("metroid_anim/run.anim"));
  const json& clip = doc["clips"][0];
  ASSERT_TRUE(clip.contains("root_motion"));
  const json& motion = clip["root_motion"];
  EXPECT_EQ(motion["up"], json::parse("[0, 0, 1]"));
  const std::string joint = motion["joint"];  // bone 3, named by the CINF beside it
  const auto column = std::find(clip["joints"].begin(), clip["joints"].end(), joint) - clip["joints"].begin();
  ASSERT_LT(size_t(column), clip["joints"].size());
  ASSERT_EQ(motion["deltas"].size(), clip["frames"].size());
  EXPECT_EQ(motion["deltas"][0], json::parse(R"({"t": [0, 0, 0], "r": [0, 0, 0, 1]})"));
  // Each step from the frames printed beside it: R1 R0^-1 and R1^-1 (T1 - T0).
  for (size_t f = 1; f < clip["frames"].size(); ++f) {
    const json &a = clip["frames"][f - 1][column], &b = clip["frames"][f][column];
    const QuatXYZW r = Multiply(Q(b["r"]), Conjugate(Q(a["r"])));
    const Vec3 t = Rotate(Conjugate(Q(b["r"])), V(b["t"]) - V(a["t"]));
    test::ExpectQuat(Q(motion["deltas"][f]["r"]), r.x, r.y, r.z, r.w, 1e-5);
    test::ExpectVec(V(motion["deltas"][f]["t"]), t.x, t.y, t.z, 1e-5);
  }
}

TEST(MotionCli, ExtractKeepsEveryModelPose) {
  const auto dir = test::TempDir("motion-cli");
  const std::string glb = (dir / "run.glb").string();
  std::string out, err;
  ASSERT_EQ(RunCli("convert " + Sample("metroid_anim/run.anim") + " " + glb + " --root-motion extract", &out, &err), 0)
      << err;
  const json before = SampleOf(Sample("metroid_anim/run.anim") + " --space model");
  const json after = SampleOf(glb + " --space model");
  const json& a = before["clips"][0];
  const json& b = after["clips"][0];
  EXPECT_EQ(b["root_motion"]["joint"], "root_motion");
  std::map<std::string, size_t> column;
  for (size_t j = 0; j < b["joints"].size(); ++j) column[b["joints"][j]] = j;
  ASSERT_TRUE(column.count("root_motion"));
  ASSERT_EQ(a["frames"].size(), b["frames"].size());
  for (size_t f = 0; f < a["frames"].size(); ++f)
    for (size_t j = 0; j < a["joints"].size(); ++j) {
      ASSERT_TRUE(column.count(a["joints"][j])) << a["joints"][j];
      const json &x = a["frames"][f][j], &y = b["frames"][f][column[a["joints"][j]]];
      const Vec3 t = V(x["t"]);
      const QuatXYZW r = Q(x["r"]);
      test::ExpectVec(V(y["t"]), t.x, t.y, t.z, 1e-4);
      test::ExpectQuat(Q(y["r"]), r.x, r.y, r.z, r.w, 1e-4);
    }
  // The root_motion node moves on the ground only: z stays 0 at every frame.
  for (const json& frame : b["frames"]) EXPECT_NEAR(frame[column["root_motion"]]["t"][2].get<double>(), 0, 1e-6);
}

TEST(MotionCli, BaseNamesAClipOfTheFile) {
  std::string out, err;
  EXPECT_EQ(RunCli("sample " + Sample("metroid_anim/run.anim") + " --space model --base nope", &out, &err), 1);
  EXPECT_TRUE(test::Has(err, "no clip 'nope'")) << err;
  EXPECT_EQ(RunCli("convert " + Sample("metroid_anim/run.anim") + " x.glb --root-motion sideways", &out, &err), 1);
  EXPECT_TRUE(test::Has(err, "keep|extract")) << err;
}

}  // namespace
}  // namespace animkit
