// glTF features a game model cannot hold as they are: a vertex with more than 4 influences
// (JOINTS_1/WEIGHTS_1) keeps its 4 heaviest, renormalised, and lists all of them in its
// metadata; KH2 models write them all (the game blends every one), EDF MDB files warn that
// they drop them. Line strips and loops arrive as lines (the writers then say they leave them
// out). The glTF here is written by hand from the glTF 2.0 layout.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace animkit {
namespace {

using nlohmann::json;

// Whether some warning holds every part.
bool Warned(const std::vector<std::string>& warnings, std::initializer_list<const char*> parts) {
  return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
    return std::all_of(parts.begin(), parts.end(), [&](const char* p) { return w.find(p) != std::string::npos; });
  });
}

// Vertex 0 of the triangle: joints 0..5 weighted .3 .2 .12 .05 (set 0) and .25 .08 (set 1).
constexpr float kWeights[6] = {0.3f, 0.2f, 0.12f, 0.05f, 0.25f, 0.08f};

// A chain of six joints, one triangle over three vertices and a line strip over the same ones.
Bytes SixInfluenceGlb() {
  Bytes bin;
  auto f32 = [&](float v) {
    uint8_t b[4];
    std::memcpy(b, &v, 4);
    bin.insert(bin.end(), b, b + 4);
  };
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) f32(v);  // POSITION at 0
  bin.insert(bin.end(), {0, 1, 2, 3, 1, 0, 0, 0, 2, 0, 0, 0});          // JOINTS_0 at 36
  for (float v : {kWeights[0], kWeights[1], kWeights[2], kWeights[3], 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f}) f32(v);  // 48
  bin.insert(bin.end(), {4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});          // JOINTS_1 at 96
  for (float v : {kWeights[4], kWeights[5], 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f}) f32(v);  // WEIGHTS_1 at 108
  bin.insert(bin.end(), {0, 0, 1, 0, 2, 0, 0, 0});                      // triangle indices at 156
  json views = json::array(), accessors = json::array();
  auto add = [&](size_t offset, size_t length, int type, const char* shape, size_t count) {
    views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}});
    accessors.push_back({{"bufferView", views.size() - 1}, {"componentType", type}, {"type", shape}, {"count", count}});
    return int(accessors.size() - 1);
  };
  const int position = add(0, 36, 5126, "VEC3", 3);
  accessors[size_t(position)]["min"] = {0, 0, 0}, accessors[size_t(position)]["max"] = {1, 1, 0};
  const int j0 = add(36, 12, 5121, "VEC4", 3), w0 = add(48, 48, 5126, "VEC4", 3);
  const int j1 = add(96, 12, 5121, "VEC4", 3), w1 = add(108, 48, 5126, "VEC4", 3);
  const int tri = add(156, 6, 5123, "SCALAR", 3);
  const json attributes = {{"POSITION", position}, {"JOINTS_0", j0}, {"WEIGHTS_0", w0}, {"JOINTS_1", j1}, {"WEIGHTS_1", w1}};
  json nodes = json::array();
  for (int k = 0; k < 6; ++k) {
    json n = {{"name", "j" + std::to_string(k)}, {"translation", {0, 1, 0}}};
    if (k < 5) n["children"] = {k + 1};
    nodes.push_back(n);
  }
  nodes.push_back({{"name", "skinned"}, {"mesh", 0}, {"skin", 0}});
  json triangles = {{"attributes", attributes}, {"indices", tri}, {"mode", 4}};
  json strip = {{"attributes", attributes}, {"mode", 3}};  // LINE_STRIP over the same vertices
  json mesh = {{"name", "six"}};
  mesh["primitives"] = json::array({triangles, strip});
  json skin;
  skin["joints"] = {0, 1, 2, 3, 4, 5};
  json scene;
  scene["nodes"] = {0, 6};
  json buffer;
  buffer["byteLength"] = bin.size();
  json doc;
  doc["asset"] = {{"version", "2.0"}};
  doc["scene"] = 0;
  doc["scenes"] = json::array({scene});
  doc["nodes"] = nodes;
  doc["skins"] = json::array({skin});
  doc["meshes"] = json::array({mesh});
  doc["buffers"] = json::array({buffer});
  doc["bufferViews"] = views;
  doc["accessors"] = accessors;
  std::string text = doc.dump();
  while (text.size() % 4) text += ' ';
  Bytes out;
  auto u32 = [&](uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
  };
  u32(0x46546C67u), u32(2), u32(uint32_t(12 + 8 + text.size() + 8 + bin.size()));
  u32(uint32_t(text.size())), u32(0x4E4F534Au);
  out.insert(out.end(), text.begin(), text.end());
  u32(uint32_t(bin.size())), u32(0x004E4942u);
  out.insert(out.end(), bin.begin(), bin.end());
  return out;
}

TEST(GltfInfluences, TheFourHeaviestAreKeptAndEveryOneListed) {
  const Scene scene = ImportGltf(SixInfluenceGlb(), "six.glb");
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& m = scene.meshes[0];
  ASSERT_TRUE(m.Skinned());
  const std::array<int, 4> heaviest = {0, 4, 1, 2};  // .3 .25 .2 .12, summing to .87
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(scene.skeleton.joints[m.joints[0][k]].name, "j" + std::to_string(heaviest[k])) << k;
    EXPECT_NEAR(m.weights[0][k], kWeights[heaviest[k]] / 0.87f, 1e-6) << k;
  }
  EXPECT_EQ(m.weights[1], (std::array<float, 4>{1, 0, 0, 0})) << "a vertex of one set stays as it is";
  const Value& over = m.metadata[kMeshInfluencesKey];
  ASSERT_TRUE(over.is_array());
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0]["vertex"].get<int64_t>(), 0);
  ASSERT_EQ(over[0]["joints"].size(), 6u);
  const std::array<int, 6> order = {0, 4, 1, 2, 5, 3};
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(scene.skeleton.joints[size_t(over[0]["joints"][k].get<int64_t>())].name, "j" + std::to_string(order[k]));
    EXPECT_NEAR(over[0]["weights"][k].get<double>(), kWeights[order[k]], 1e-6);
  }
  EXPECT_EQ(m.triangles, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(m.lines, (std::vector<uint32_t>{0, 1, 1, 2})) << "the line strip arrives as lines";
}

TEST(GltfInfluences, KhTwoWritesThemAllAndMdbSaysItDropsThem) {
  const auto dir = test::TempDir("gltf_influences");
  const std::string glb = (dir / "six.glb").string();
  WriteFileAtomic(glb, SixInfluenceGlb());
  ConvertRequest kh2;
  kh2.input = glb, kh2.output = (dir / "six.mdlx").string();
  SetOption(kh2.options, "kh2-skeleton", "gltf");
  const ConvertResult r = Convert(kh2);
  EXPECT_TRUE(Warned(r.warnings, {"mesh 'six'", "lines left out"}));
  const Scene back = DecodeDocument(LoadBytes(ReadFileBytes(kh2.output), kh2.output, "", {}), DecodeContext{});
  ASSERT_FALSE(back.meshes.empty());
  size_t six = 0;
  for (const Mesh& m : back.meshes)
    if (m.metadata.contains(kMeshInfluencesKey))
      for (const Value& e : m.metadata[kMeshInfluencesKey]) six += e["joints"].size() == 6 ? 1 : 0;
  EXPECT_EQ(six, 1u) << "the game blends every influence: the model keeps all six";

  ConvertRequest mdb;
  mdb.input = glb, mdb.output = (dir / "six.mdb").string();
  const ConvertResult m = Convert(mdb);
  EXPECT_TRUE(Warned(m.warnings, {"mesh 'six'", "1 vertices have more than 4 influences"}))
      << "an MDB vertex holds 4: the writer says so";
  EXPECT_TRUE(Warned(m.warnings, {"mesh 'six'", "lines not written"}));
}

}  // namespace
}  // namespace animkit
