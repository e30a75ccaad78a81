// glTF export and import of skinned meshes, materials and textures (docs/gltf.md), on
// SkinnedArmScene (tools/synthetic): the numbers expected come from its layout.
#include "support/expect_same.hpp"
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>

#include <synthetic/synthetic.hpp>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

namespace animkit {
namespace {

using fields::Field;
using nlohmann::json;

// A GLB's JSON and BIN chunks.
struct Glb {
  json doc;
  Bytes bin;
};

Glb SplitGlb(const Bytes& glb) {
  uint32_t json_length = 0, bin_length = 0;
  std::memcpy(&json_length, glb.data() + 12, 4);
  Glb out;
  out.doc = json::parse(glb.begin() + 20, glb.begin() + 20 + json_length);
  const size_t bin = 20 + json_length;
  if (bin + 8 <= glb.size()) {
    std::memcpy(&bin_length, glb.data() + bin, 4);
    out.bin.assign(glb.begin() + std::ptrdiff_t(bin + 8), glb.begin() + std::ptrdiff_t(bin + 8 + bin_length));
  }
  return out;
}

// Accessor `index` as numbers (float, unsigned byte or short; tightly packed, as animkit writes).
std::vector<double> Numbers(const Glb& glb, int index) {
  const json& a = glb.doc["accessors"][size_t(index)];
  const json& view = glb.doc["bufferViews"][a["bufferView"].get<size_t>()];
  const size_t width = std::map<std::string, size_t>{{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}}
                           .at(a["type"].get<std::string>());
  const int type = a["componentType"];
  const size_t size = type == 5126 ? 4 : type == 5123 ? 2 : 1;
  const size_t start = view.value("byteOffset", size_t{0}) + a.value("byteOffset", size_t{0});
  std::vector<double> out;
  for (size_t k = 0; k < a["count"].get<size_t>() * width; ++k) {
    const uint8_t* p = glb.bin.data() + start + k * size;
    if (type == 5126) {
      float f;
      std::memcpy(&f, p, 4);
      out.push_back(f);
    } else {
      out.push_back(size == 2 ? double(p[0] | p[1] << 8) : double(p[0]));
    }
  }
  return out;
}

const json& MeshNamed(const json& doc, const std::string& name) {
  for (const json& m : doc["meshes"])
    if (m["name"] == name) return m;
  throw std::runtime_error("no mesh " + name);
}

TEST(GltfSkin, TheArmIsWrittenAsItsLayoutSays) {
  const Glb glb = SplitGlb(ExportGltf(SkinnedArmScene(), {.binary = true}));
  const json& doc = glb.doc;
  const json& arm = MeshNamed(doc, "arm")["primitives"][0];
  for (const char* key : {"POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"})
    EXPECT_TRUE(arm["attributes"].contains(key)) << key;
  EXPECT_FALSE(arm["attributes"].contains("COLOR_0"));
  EXPECT_EQ(doc["accessors"][arm["attributes"]["JOINTS_0"].get<size_t>()]["componentType"], 5121)
      << "two joints: unsigned bytes";
  const std::vector<double> joints = Numbers(glb, arm["attributes"]["JOINTS_0"]);
  const std::vector<double> weights = Numbers(glb, arm["attributes"]["WEIGHTS_0"]);
  EXPECT_EQ(joints, (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(weights, (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, .5, .5, 0, 0, .5, .5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(Numbers(glb, arm["attributes"]["TEXCOORD_0"]), (std::vector<double>{0, 0, 1, 0, 0, .5, 1, .5, 0, 1, 1, 1}));

  // The arm's node: a scene root with skin 0 and no transform.
  const json& nodes = doc["nodes"];
  size_t arm_node = nodes.size();
  for (size_t n = 0; n < nodes.size(); ++n)
    if (nodes[n].contains("mesh") && doc["meshes"][nodes[n]["mesh"].get<size_t>()]["name"] == "arm") arm_node = n;
  ASSERT_LT(arm_node, nodes.size());
  EXPECT_EQ(nodes[arm_node]["skin"], 0);
  EXPECT_FALSE(nodes[arm_node].contains("translation") || nodes[arm_node].contains("rotation"));
  const json& roots = doc["scenes"][0]["nodes"];
  EXPECT_NE(std::find(roots.begin(), roots.end(), json(arm_node)), roots.end());
  // The badge rides on "lower" (node 1); inverse bind of "lower" moves 2 down.
  EXPECT_EQ(doc["meshes"][nodes[1]["mesh"].get<size_t>()]["name"], "badge");
  const std::vector<double> ibm = Numbers(glb, doc["skins"][0]["inverseBindMatrices"]);
  ASSERT_EQ(ibm.size(), 32u);
  EXPECT_EQ(std::vector<double>(ibm.begin() + 28, ibm.end()), (std::vector<double>{0, -2, 0, 1}));

  // Materials: the textured skin, and the badge whose texture is missing.
  const json& skin = doc["materials"][0];
  EXPECT_EQ(skin["name"], "skin");
  EXPECT_EQ(skin["pbrMetallicRoughness"]["baseColorTexture"]["index"], 0);
  EXPECT_EQ(skin["alphaMode"], "MASK");
  EXPECT_NEAR(skin["alphaCutoff"].get<double>(), 0.25, 1e-7);
  EXPECT_FALSE(skin.value("doubleSided", false));
  const json& badge = doc["materials"][1];
  EXPECT_EQ(badge["alphaMode"], "BLEND");
  EXPECT_FALSE(badge["pbrMetallicRoughness"].contains("baseColorTexture"));
  EXPECT_EQ(badge["pbrMetallicRoughness"]["baseColorFactor"], (json{1.0, 0.5, 0.25, 1.0}));
  EXPECT_EQ(badge["extras"]["animkit"]["texture_missing"]["name"], "lost.dds");
  EXPECT_EQ(badge["extras"]["animkit"]["texture_missing"]["reason"], "no file lost.dds beside the model");

  // One image (the missing one has none), a PNG in the buffer.
  ASSERT_EQ(doc["images"].size(), 1u);
  EXPECT_EQ(doc["images"][0]["mimeType"], "image/png");
  const json& view = doc["bufferViews"][doc["images"][0]["bufferView"].get<size_t>()];
  const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  EXPECT_EQ(std::memcmp(glb.bin.data() + view.value("byteOffset", 0), png, 8), 0);
  EXPECT_EQ(doc["asset"]["extras"]["animkit"]["missing_images"][0]["index"], 1);
}

// What an export and import must keep of a mesh, a material and a texture.
constexpr auto kMeshMembers = fields::List(
    Field{"name", &Mesh::name}, Field{"joint", &Mesh::joint}, Field{"positions", &Mesh::positions},
    Field{"normals", &Mesh::normals}, Field{"uvs", &Mesh::uvs}, Field{"colors", &Mesh::colors},
    Field{"joints", &Mesh::joints}, Field{"weights", &Mesh::weights}, Field{"triangles", &Mesh::triangles},
    Field{"lines", &Mesh::lines}, Field{"material", &Mesh::material}, Field{"metadata", &Mesh::metadata});
constexpr auto kMaterialMembers = fields::List(
    Field{"name", &Material::name}, Field{"texture", &Material::texture}, Field{"alpha", &Material::alpha},
    Field{"base_color", &Material::base_color}, Field{"double_sided", &Material::double_sided});
// PNG pixels come back exactly.
constexpr auto kImageMembers = fields::List(
    Field{"name", &Image::name}, Field{"width", &Image::width}, Field{"height", &Image::height},
    Field{"rgba", &Image::rgba}, Field{"source_format", &Image::source_format}, Field{"missing", &Image::missing});

void ExpectSameMeshes(const Scene& out, const Scene& in) {
  ASSERT_EQ(out.meshes.size(), in.meshes.size());
  for (size_t m = 0; m < in.meshes.size(); ++m) {
    test::ExpectSameMembers(out.meshes[m], in.meshes[m], in.meshes[m].name, kMeshMembers);
  }
}

void ExpectSameLooks(const Scene& out, const Scene& in) {
  ASSERT_EQ(out.materials.size(), in.materials.size());
  for (size_t m = 0; m < in.materials.size(); ++m) {
    const Material &a = in.materials[m], &b = out.materials[m];
    test::ExpectSameMembers(b, a, a.name, kMaterialMembers);
    if (a.alpha == AlphaMode::Mask) {
      EXPECT_EQ(b.alpha_cutoff, a.alpha_cutoff) << a.name;
    }
  }
  ASSERT_EQ(out.textures.size(), in.textures.size());
  for (size_t t = 0; t < in.textures.size(); ++t) {
    test::ExpectSameMembers(out.textures[t], in.textures[t], in.textures[t].name, kImageMembers);
  }
}

TEST(GltfSkin, RoundTripKeepsMeshesMaterialsAndTextures) {
  const Scene in = SkinnedArmScene();
  for (bool binary : {true, false}) {
    SCOPED_TRACE(binary ? "glb" : "gltf");
    const Scene out = ImportGltf(ExportGltf(in, {.binary = binary}), binary ? "arm.glb" : "arm.gltf");
    ASSERT_EQ(out.skeleton.joints.size(), 2u);
    EXPECT_EQ(out.skeleton.joints[1].name, "lower");
    ExpectSameMeshes(out, in);
    ExpectSameLooks(out, in);
    ASSERT_EQ(out.clips.size(), 1u);
    // And again: what was read back writes the same file.
    EXPECT_EQ(ExportGltf(out, {.binary = binary}), ExportGltf(ImportGltf(ExportGltf(out, {.binary = binary}), "x"), {.binary = binary}));
  }
}

Bytes JoinGlb(const Glb& glb) {
  std::string text = glb.doc.dump();
  while (text.size() % 4) text += ' ';
  Bytes out(12);
  auto u32 = [&](uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
  };
  u32(uint32_t(text.size()));
  u32(0x4E4F534Au);
  out.insert(out.end(), text.begin(), text.end());
  u32(uint32_t(glb.bin.size()));
  u32(0x004E4942u);
  out.insert(out.end(), glb.bin.begin(), glb.bin.end());
  const uint32_t header[3] = {0x46546C67u, 2, uint32_t(out.size())};
  std::memcpy(out.data(), header, 12);
  return out;
}

// Another program's file bound in another pose: "lower" rests at y = 3 while its inverse
// bind matrix still says 2. Import moves each vertex to the rest pose by
// sum_k w_k * rest[j] * inverse_bind[j]: lower's part moves 1 up.
TEST(GltfSkin, ImportMovesVerticesBoundInAnotherPoseToTheRestPose) {
  Glb glb = SplitGlb(ExportGltf(SkinnedArmScene(), {.binary = true}));
  glb.doc["nodes"][1]["translation"] = {0.0, 3.0, 0.0};
  glb.doc["asset"].erase("extras");  // not animkit's own file
  const Scene scene = ImportGltf(JoinGlb(glb), "moved.glb");
  ASSERT_EQ(scene.meshes.size(), 3u);
  const Mesh& arm = scene.meshes[0];
  ASSERT_TRUE(arm.Skinned());
  EXPECT_EQ(arm.positions[0], (Vec3{-0.5f, 0, 0})) << "all upper: stays";
  EXPECT_EQ(arm.positions[2], (Vec3{-0.5f, 2.5f, 0})) << "half lower: half of 1 up";
  EXPECT_EQ(arm.positions[5], (Vec3{0.5f, 5, 0})) << "all lower: 1 up";
  EXPECT_EQ(arm.joints[2], (std::array<uint16_t, 4>{0, 1, 0, 0}));
  EXPECT_EQ(scene.meshes[1].joint, 1) << "the badge rides on lower";
}

TEST(GltfSkin, WeightsAreNormalisedAndEachJointUsedOnce) {
  Scene scene = SkinnedArmScene();
  Mesh& arm = scene.meshes[0];
  arm.joints[0] = {1, 1, 0, 0};
  arm.weights[0] = {0.25f, 0.25f, 0, 0};  // one joint twice, summing to 0.5
  arm.joints[1] = {0, 1, 1, 0};
  arm.weights[1] = {0.5f, 0, -1, 0};  // a zero weight on joint 1, a negative one
  const Glb glb = SplitGlb(ExportGltf(scene, {.binary = true}));
  const json& attributes = MeshNamed(glb.doc, "arm")["primitives"][0]["attributes"];
  const std::vector<double> joints = Numbers(glb, attributes["JOINTS_0"]);
  const std::vector<double> weights = Numbers(glb, attributes["WEIGHTS_0"]);
  EXPECT_EQ(std::vector<double>(joints.begin(), joints.begin() + 8), (std::vector<double>{1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(std::vector<double>(weights.begin(), weights.begin() + 8), (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(GltfSkin, MissingTexturesKeepTheirNamesAndReasons) {
  Scene scene = SkinnedArmScene();
  scene.textures[0].rgba.clear();
  scene.textures[0].missing = "TIM2 entry 3 has a palette past its end";
  const Bytes glb = ExportGltf(scene, {.binary = true});
  const json doc = SplitGlb(glb).doc;
  EXPECT_FALSE(doc.contains("images"));
  EXPECT_FALSE(doc["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
  EXPECT_EQ(doc["materials"][0]["extras"]["animkit"]["texture_missing"]["reason"], "TIM2 entry 3 has a palette past its end");
  const Scene out = ImportGltf(glb, "arm.glb");
  ExpectSameLooks(out, scene);
  EXPECT_TRUE(out.textures[0].Missing());
}

TEST(GltfSkin, ASkinnedMeshNeedsASkeleton) {
  Scene scene = SkinnedArmScene();
  scene.skeleton.joints.clear();
  scene.clips.clear();
  EXPECT_THROW(ExportGltf(scene, {.binary = true}), Error);
  scene = SkinnedArmScene();
  scene.meshes[0].joints[4][0] = 9;  // a joint the skeleton lacks
  EXPECT_THROW(ExportGltf(scene, {.binary = true}), Error);
}

// Damaged skinned glbs: every truncation and every byte of the BIN chunk set to 0xFF (joint
// indices, weights, PNG bytes, index lists) gives a scene or an animkit::Error, nothing else.
TEST(GltfSkin, DamagedMeshesAndImagesAreErrorsOrSkipped) {
  const Bytes glb = ExportGltf(SkinnedArmScene(), {.binary = true});
  auto import = [](const Bytes& bytes, const std::string& what) {
    try {
      (void)ImportGltf(bytes, "damaged.glb");
    } catch (const Error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": " << e.what();
    }
  };
  for (size_t n = 0; n < glb.size(); n += 7) import(Bytes(glb.begin(), glb.begin() + std::ptrdiff_t(n)), "cut at " + std::to_string(n));
  uint32_t json_length = 0;
  std::memcpy(&json_length, glb.data() + 12, 4);
  for (size_t at = 28 + json_length; at < glb.size(); ++at) {
    Bytes damaged = glb;
    damaged[at] = 0xFF;
    import(damaged, "byte " + std::to_string(at));
  }
}

TEST(GltfSkin, ValidatorReportsNothing) {
  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::filesystem::path dir = test::TempDir("gltf-skin-validator");
  Scene untidy = SkinnedArmScene();
  untidy.meshes[0].weights[2] = {0.3f, 0.3f, 0, 0};
  untidy.meshes[0].joints[3] = {1, 1, 0, 1};
  untidy.meshes[0].normals[4] = {0, 0, 2};  // not unit length
  untidy.clips[0].scale_inheritance = ScaleInheritance::PerAxis;
  Scene missing = SkinnedArmScene();
  missing.textures[0].rgba.clear();
  std::vector<std::filesystem::path> files;
  for (const auto& [name, scene] : {std::pair{"arm", SkinnedArmScene()}, {"untidy", untidy}, {"missing", missing}})
    for (bool binary : {true, false}) {
      const std::filesystem::path file = dir / (std::string(name) + (binary ? ".glb" : ".gltf"));
      const Bytes bytes = ExportGltf(scene, {.binary = binary});
      std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
      files.push_back(file);
    }
  std::string output;
  EXPECT_EQ(test::RunGltfValidator(files, &output), 0) << output;
  EXPECT_EQ(test::CleanValidatorReports(output), files.size()) << output;
}

}  // namespace
}  // namespace animkit
