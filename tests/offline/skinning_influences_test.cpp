// Vertices of more than 4 bones, skinned with every influence: a hand-built mesh whose vertex
// 0 is on six joints (the mesh's own 4 heaviest plus metadata influences_over_4 listing all
// six), its posed position worked out by hand; the glTF it exports (JOINTS_1/WEIGHTS_1,
// accessor bytes from the glTF 2.0 layout), read back and through `animkit sample --skin`;
// and the real KH2 models whose vertices blend more than 4 (Sora's, H_EX690's): the error of
// the 4 heaviest in a pose, and none after a glTF round trip.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/offline/skinning.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numbers>

namespace animkit {
namespace {

using nlohmann::json;

// Vertex 0's influences in the source's order: joints 0..5 weighted .3 .2 .12 .05 .25 .08.
constexpr float kWeights[6] = {0.3f, 0.2f, 0.12f, 0.05f, 0.25f, 0.08f};

// Six root joints at the origin, one triangle: vertex 0 at (1, 0, 0) on all six joints,
// vertices 1 and 2 on joint 0. A clip of two frames (1 fps): the rest pose, then joint k
// (k < 5) moved by (0, 0, k) and joint 5 turned 90 degrees about +Z.
Scene SixInfluenceScene() {
  Scene s;
  for (int k = 0; k < 6; ++k) s.skeleton.joints.push_back({"j" + std::to_string(k), -1, {}});
  Mesh m;
  m.name = "six";
  m.positions = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.triangles = {0, 1, 2};
  const float kept = 0.3f + 0.25f + 0.2f + 0.12f;  // the 4 heaviest: joints 0, 4, 1, 2
  m.joints = {{0, 4, 1, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  m.weights = {{0.3f / kept, 0.25f / kept, 0.2f / kept, 0.12f / kept}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  Value joints = Value::array(), weights = Value::array();
  for (int k = 0; k < 6; ++k) joints.push_back(Value(int64_t(k))), weights.push_back(Value(double(kWeights[k])));
  m.metadata[kMeshInfluencesKey] = Value::array();
  m.metadata[kMeshInfluencesKey].push_back(Value{{"vertex", int64_t(0)}, {"joints", joints}, {"weights", weights}});
  s.meshes.push_back(m);
  Clip c;
  c.name = "pose";
  c.SetFrames(2, 1);
  for (int k = 0; k < 6; ++k) {
    JointTrack t;
    t.joint = "j" + std::to_string(k);
    t.translation.Add(0, {0, 0, 0});
    t.translation.Add(1, {0, 0, k < 5 ? float(k) : 0.f});
    t.rotation.Add(0, {});
    t.rotation.Add(1, k < 5 ? QuatXYZW{} : AxisAngle({0, 0, 1}, float(std::numbers::pi / 2)));
    c.tracks.push_back(t);
  }
  s.clips.push_back(c);
  return s;
}

// By hand: joints 0..4 take (1, 0, 0) to (1, 0, k), joint 5 to (0, 1, 0); weighted,
// x = .3 + .2 + .12 + .05 + .25 = .92, y = .08, z = .2 + .24 + .15 + 1.0 = 1.59.
constexpr Vec3 kPosedAll{0.92f, 0.08f, 1.59f};
// The 4 heaviest alone (joints 0, 4, 1, 2 over .87): (1, 0, (1.0 + .2 + .24) / .87).
constexpr Vec3 kPosedFour{1.f, 0.f, 1.44f / 0.87f};

void ExpectNear(Vec3 a, Vec3 b, const std::string& what, float tolerance = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, tolerance) << what;
  EXPECT_NEAR(a.y, b.y, tolerance) << what;
  EXPECT_NEAR(a.z, b.z, tolerance) << what;
}

// The skin matrices of frame 1 (bind = identity: every joint rests at the origin).
std::vector<Mat4> FrameOneSkin() {
  std::vector<Mat4> skin;
  for (int k = 0; k < 5; ++k) skin.push_back(MatrixFromTRS({{0, 0, float(k)}, {}, {1, 1, 1}}));
  skin.push_back(MatrixFromTRS({{0, 0, 0}, AxisAngle({0, 0, 1}, float(std::numbers::pi / 2)), {1, 1, 1}}));
  return skin;
}

TEST(SkinningInfluences, EveryInfluenceOfASixBoneVertexByHand) {
  const Scene s = SixInfluenceScene();
  const std::vector<VertexInfluences> more = MoreInfluences(s.meshes[0]);
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].vertex, 0u);
  EXPECT_EQ(more[0].joints, (std::vector<uint16_t>{0, 1, 2, 3, 4, 5})) << "in the source's order";
  const std::vector<Mat4> skin = FrameOneSkin();
  std::vector<Vec3> out(3);
  ASSERT_TRUE((SkinJob{&s.meshes[0], skin, skin, out, {}, more}.Run()));
  ExpectNear(out[0], kPosedAll, "every influence");
  ExpectNear(out[1], {0, 1, 0}, "vertex 1, on joint 0");
  ASSERT_TRUE((SkinJob{&s.meshes[0], skin, skin, out, {}, {}}.Run()));
  ExpectNear(out[0], kPosedFour, "the mesh's 4 alone");

  ClipMeshPose poser(s.clips[0], s.skeleton, s.meshes);
  std::vector<TransformTRS> pose;
  for (const JointTrack& t : s.clips[0].tracks) pose.push_back({t.translation.values[1], t.rotation.values[1], {1, 1, 1}});
  poser.Compose(pose);
  ExpectNear(poser.positions(0)[0], kPosedAll, "ClipMeshPose (sample --skin, clip.skin())");
}

TEST(SkinningInfluences, AListThatIsNotTheMeshsStandsAside) {
  Scene s = SixInfluenceScene();
  Mesh& m = s.meshes[0];
  m.joints[0] = {6, 5, 0, 0};  // the 4 edited after (a joint added): the list no longer holds them
  m.weights[0] = {0.5f, 0.5f, 0, 0};
  EXPECT_TRUE(MoreInfluences(m).empty());
  m = SixInfluenceScene().meshes[0];
  m.metadata[kMeshInfluencesKey][0]["vertex"] = Value(int64_t(3));  // no such vertex
  EXPECT_TRUE(MoreInfluences(m).empty());
  m = SixInfluenceScene().meshes[0];
  m.metadata[kMeshInfluencesKey][0]["weights"].push_back(Value(0.5));  // counts differ
  EXPECT_TRUE(MoreInfluences(m).empty());
  m = SixInfluenceScene().meshes[0];
  const std::vector<VertexInfluences> more = MoreInfluences(m);
  const std::vector<Mat4> skin(5);  // the mesh's 4 fit, joint 5 of the list does not
  std::vector<Vec3> out(3);
  EXPECT_FALSE((SkinJob{&m, skin, skin, out, {}, more}.Validate()));
}

TEST(SkinningInfluences, AnEditPastTheFourIsAnEditOfTheGroup) {
  const Mesh decoded = SixInfluenceScene().meshes[0];
  Mesh m = decoded;
  EXPECT_TRUE(kh2::SameGroupMesh(m, decoded));
  Value& list = m.metadata[kMeshInfluencesKey][0];
  std::swap(list["joints"][0], list["joints"][1]);  // the same influences in another order
  std::swap(list["weights"][0], list["weights"][1]);
  EXPECT_TRUE(kh2::SameGroupMesh(m, decoded)) << "the order of the list is no edit";
  list["weights"][3] = Value(0.08), list["weights"][5] = Value(0.05);  // joints 3 and 5 trade weights
  EXPECT_FALSE(kh2::SameGroupMesh(m, decoded)) << "the mesh's 4 are the same; the fifth and sixth are not";
}

// The glb's JSON and the bytes of an accessor (tightly packed: animkit writes no stride).
struct Glb {
  json doc;
  Bytes bin;
  Bytes Accessor(int index) const {
    const json& a = doc["accessors"][size_t(index)];
    const json& v = doc["bufferViews"][a["bufferView"].get<size_t>()];
    const size_t start = v.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
    const size_t component = a["componentType"] == 5121 ? 1 : a["componentType"] == 5123 ? 2 : 4;
    return Bytes(bin.begin() + std::ptrdiff_t(start), bin.begin() + std::ptrdiff_t(start + a["count"].get<size_t>() * 4 * component));
  }
};

Glb ParseGlb(const Bytes& b) {
  uint32_t length = 0;
  std::memcpy(&length, b.data() + 12, 4);
  Glb g;
  g.doc = json::parse(b.begin() + 20, b.begin() + 20 + length);
  g.bin.assign(b.begin() + 20 + length + 8, b.end());
  return g;
}

Bytes Floats(std::initializer_list<float> values) {
  Bytes out;
  for (float v : values) {
    uint8_t b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
  }
  return out;
}

TEST(GltfInfluences, ExportWritesJointsOneWithTheFourHeaviestInSetZero) {
  const Bytes glb = ExportGltf(SixInfluenceScene(), {.binary = true});
  const Glb g = ParseGlb(glb);
  const json& attributes = g.doc["meshes"][0]["primitives"][0]["attributes"];
  ASSERT_TRUE(attributes.contains("JOINTS_1") && attributes.contains("WEIGHTS_1")) << attributes.dump();
  EXPECT_FALSE(attributes.contains("JOINTS_2"));
  // Set 0: joints 0 4 1 2 weighted .3 .25 .2 .12; set 1: joints 5 3 weighted .08 .05; all
  // of them summing to 1. Vertices 1 and 2: joint 0 alone, set 1 empty.
  EXPECT_EQ(g.Accessor(attributes["JOINTS_0"].get<int>()), (Bytes{0, 4, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(g.Accessor(attributes["JOINTS_1"].get<int>()), (Bytes{5, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(g.Accessor(attributes["WEIGHTS_0"].get<int>()), Floats({0.3f, 0.25f, 0.2f, 0.12f, 1, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(g.Accessor(attributes["WEIGHTS_1"].get<int>()), Floats({0.08f, 0.05f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  const json& mesh = g.doc["meshes"][0];
  const json metadata = mesh.contains("extras") ? mesh["extras"].value("animkit", json::object()).value("metadata", json::object())
                                                : json::object();
  EXPECT_FALSE(metadata.contains(kMeshInfluencesKey)) << "JOINTS_n carry them, once";

  // Read back: the mesh's 4 heaviest and every influence, and the same posed vertex.
  const Scene back = ImportGltf(glb, "six.glb");
  ASSERT_EQ(back.meshes.size(), 1u);
  const std::vector<VertexInfluences> more = MoreInfluences(back.meshes[0]);
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].joints.size(), 6u);
  ClipMeshPose poser(back.clips.at(0), back.skeleton, back.meshes);
  std::vector<TransformTRS> pose;
  for (const JointTrack& t : back.clips[0].tracks) pose.push_back({t.translation.values.back(), t.rotation.values.back(), {1, 1, 1}});
  ASSERT_EQ(pose.size(), 6u);
  poser.Compose(pose);
  ExpectNear(poser.positions(0)[0], kPosedAll, "read back from the glb");

  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::filesystem::path file = test::TempDir("gltf-influences-validator") / "six.glb";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  std::string output;
  EXPECT_EQ(test::RunGltfValidator({file}, &output), 0) << output;
  EXPECT_EQ(test::CleanValidatorReports(output), 1u) << output;
}

TEST(GltfInfluences, AFileWrittenBeforeTheSetsStillReads) {
  // The extras' list alone (no JOINTS_1), as animkit wrote it before: the mesh keeps it.
  Glb g = ParseGlb(ExportGltf(SixInfluenceScene(), {.binary = true}));
  json& attributes = g.doc["meshes"][0]["primitives"][0]["attributes"];
  attributes.erase("JOINTS_1"), attributes.erase("WEIGHTS_1");
  json list = json::array({{{"vertex", 0}, {"joints", {0, 1, 2, 3, 4, 5}}, {"weights", json::array()}}});
  for (float w : kWeights) list[0]["weights"].push_back(double(w));
  g.doc["meshes"][0]["extras"]["animkit"]["metadata"][kMeshInfluencesKey] = list;
  std::string text = g.doc.dump();
  while (text.size() % 4) text += ' ';
  Bytes glb;
  auto u32 = [&](uint32_t v) {
    for (int k = 0; k < 4; ++k) glb.push_back(uint8_t(v >> (8 * k)));
  };
  u32(0x46546C67u), u32(2), u32(uint32_t(12 + 8 + text.size() + 8 + g.bin.size()));
  u32(uint32_t(text.size())), u32(0x4E4F534Au);
  glb.insert(glb.end(), text.begin(), text.end());
  u32(uint32_t(g.bin.size())), u32(0x004E4942u);
  glb.insert(glb.end(), g.bin.begin(), g.bin.end());
  const Scene back = ImportGltf(glb, "old.glb");
  const std::vector<VertexInfluences> more = MoreInfluences(back.meshes.at(0));
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].joints, (std::vector<uint16_t>{0, 1, 2, 3, 4, 5}));
}

TEST(GltfInfluences, SampleSkinBlendsEveryInfluence) {
  const std::filesystem::path file = test::TempDir("cli-sample-skin-six") / "six.glb";
  const Bytes glb = ExportGltf(SixInfluenceScene(), {.binary = true});
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample " + file.string() + " --skin", &out, &err), 0) << err;
  const json frames = json::parse(out)["clips"].at(0)["mesh_frames"];
  ASSERT_EQ(frames.size(), 2u);
  const json& v = frames[1][0];
  ExpectNear({v[0].get<float>(), v[1].get<float>(), v[2].get<float>()}, kPosedAll, "sample --skin frame 1 vertex 0");
}

// A real KH2 model, or "" when ../shared lacks it.
std::string Shared(const std::string& relative) {
  const std::filesystem::path p = std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared" / relative;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

// A pose of every joint: its rest turned by 0.5 radians about an axis that changes from
// joint to joint (what a motion does to a character, without a motion file).
std::vector<Mat4> TurnedPose(const Skeleton& skeleton) {
  std::vector<TransformTRS> local;
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    TransformTRS t = skeleton.joints[j].rest;
    const float a = float(j) * 0.7f;
    const Vec3 axis{std::cos(a) / 1.118034f, std::sin(a) / 1.118034f, 0.5f / 1.118034f};  // unit: |(c, s, .5)| = 1.118
    t.rotation = Multiply(t.rotation, AxisAngle(axis, 0.5f));
    local.push_back(t);
  }
  std::vector<Mat4> model(local.size());
  EXPECT_TRUE(LocalToModel(skeleton, local, ScaleInheritance::PerAxis, model, {}));
  return model;
}

// Per mesh, its vertices skinned under the pose with every influence (or the 4 alone).
std::vector<std::vector<Vec3>> Posed(const Scene& s, std::span<const Mat4> posed, bool every) {
  const std::vector<Mat4> bind = BindMatrices(s.skeleton, ScaleInheritance::PerAxis);
  std::vector<Mat4> skin(bind.size());
  EXPECT_TRUE(SkinMatrices(bind, posed, skin));
  std::vector<std::vector<Vec3>> out;
  for (const Mesh& m : s.meshes) {
    const std::vector<VertexInfluences> more = every ? MoreInfluences(m) : std::vector<VertexInfluences>{};
    out.emplace_back(m.positions.size());
    EXPECT_TRUE((SkinJob{&m, skin, posed, out.back(), {}, more}.Run())) << m.name;
  }
  return out;
}

double Farthest(const std::vector<std::vector<Vec3>>& a, const std::vector<std::vector<Vec3>>& b) {
  double worst = 0;
  for (size_t m = 0; m < a.size(); ++m)
    for (size_t v = 0; v < a[m].size(); ++v) {
      const Vec3 d = a[m][v] - b[m][v];
      worst = std::max(worst, std::sqrt(double(d.x * d.x + d.y * d.y + d.z * d.z)));
    }
  return worst;
}

class RealInfluences : public ::testing::TestWithParam<std::pair<const char*, size_t>> {};

// The vertices of more than 4 bones each real model has; the largest error of the 4 heaviest
// in a pose against every influence (the game's rule), and the error after a glTF round trip.
TEST_P(RealInfluences, EveryInfluenceSurvivesGltf) {
  const auto [relative, vertices] = GetParam();
  const std::string path = Shared(relative);
  if (path.empty()) GTEST_SKIP() << "../shared/" << relative << " absent";
  const Scene scene = DecodeDocument(LoadBytes(ReadFileBytes(path), path, "", {}), DecodeContext{});
  size_t listed = 0;
  for (const Mesh& m : scene.meshes) listed += MoreInfluences(m).size();
  EXPECT_EQ(listed, vertices) << relative;
  const std::vector<Mat4> pose = TurnedPose(scene.skeleton);
  const auto every = Posed(scene, pose, true);
  const double four = Farthest(Posed(scene, pose, false), every);
  const Bytes glb = ExportGltf(scene, {.binary = true});
  Scene back = ImportGltf(glb, "model.glb");
  back.skeleton = scene.skeleton;  // the same joints, the rest as the file gives it
  ASSERT_EQ(back.meshes.size(), scene.meshes.size());
  const double after = Farthest(Posed(back, pose, true), every);
  std::printf("%s: %zu vertices of more than 4 bones; in a pose the 4 heaviest are off by up to %.4f units, "
              "every influence through glTF by %.6f\n", relative, listed, four, after);
  EXPECT_GT(four, 0.01) << "the pose moves those vertices apart";
  EXPECT_LT(after, 1e-3) << relative;
  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) return;
  const std::filesystem::path file = test::TempDir("gltf-influences-real") / "model.glb";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  std::string output;
  EXPECT_EQ(test::RunGltfValidator({file}, &output), 0) << output;
  EXPECT_EQ(test::CleanValidatorReports(output), 1u) << output;
}

INSTANTIATE_TEST_SUITE_P(Kh2, RealInfluences,
                         ::testing::Values(std::pair{"fixtures/kh2/P_EX100.mdlx", size_t(6)},
                                           std::pair{"real/kh2/H_EX690.mdlx", size_t(16)}),
                         [](const auto& info) { return info.index == 0 ? std::string("Sora") : std::string("H_EX690"); });

}  // namespace
}  // namespace animkit
