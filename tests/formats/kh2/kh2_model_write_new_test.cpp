// `animkit convert char.glb new.mdlx` without a template: the glTF's skeleton (--kh2-skeleton
// gltf) or a --skeleton model's bones matched by name; what the format cannot hold is a
// warning or an error naming the mesh and the limit.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/test_support.hpp"

#include <filesystem>

namespace animkit {
namespace {

// Two joints ("root", "arm"), a quad on them, a 4x4 texture.
Scene Quad() {
  Scene s;
  Joint root;
  root.name = "root";
  Joint arm;
  arm.name = "arm", arm.parent = 0, arm.rest.translation = {0, 1, 0};
  s.skeleton.joints = {root, arm};
  Mesh m;
  m.name = "quad";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 2, 0}, {0, 2, 0}};
  m.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  m.joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  m.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
  m.triangles = {0, 1, 2, 0, 2, 3};
  m.material = 0;
  s.meshes.push_back(m);
  Image im;
  im.name = "checker", im.width = 4, im.height = 4;
  for (int i = 0; i < 16; ++i) im.rgba.insert(im.rgba.end(), {uint8_t(i % 2 ? 255 : 0), 0, 0, 255});
  s.textures.push_back(im);
  Material mat;
  mat.texture = 0;
  s.materials.push_back(mat);
  return s;
}

std::string WriteGlb(const Scene& scene, const std::filesystem::path& dir, const char* name) {
  const std::string path = (dir / name).string();
  EncodeRequest request;
  request.output_path = path;
  const EncodeResult r = Encode(scene, *FindFormat("gltf"), request);
  WriteFileAtomic(path, r.bytes);
  return path;
}

ConvertResult ToMdlx(const std::string& in, const std::string& out, const std::vector<std::pair<std::string, std::string>>& options,
                     const std::string& skeleton = {}) {
  ConvertRequest request;
  request.input = in, request.output = out;
  for (const auto& [k, v] : options) SetOption(request.options, k, v);
  if (!skeleton.empty()) request.skeleton = SkeletonSource::File(skeleton);
  return Convert(request);
}

TEST(Kh2ModelWriteNew, AGltfsOwnSkeletonMakesAModelThatReadsBack) {
  const auto dir = test::TempDir("kh2_model_write_new");
  const std::string glb = WriteGlb(Quad(), dir, "quad.glb"), out = (dir / "quad.mdlx").string();
  const ConvertResult r = ToMdlx(glb, out, {{"kh2-skeleton", "gltf"}});
  EXPECT_TRUE(r.warnings.empty()) << (r.warnings.empty() ? "" : r.warnings.front());
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(out));
  ASSERT_EQ(bar.entries.size(), 2u);
  EXPECT_EQ(bar.entries[0].type, kh2::kEntryModel);
  EXPECT_EQ(bar.entries[1].type, kh2::kEntryTexture);
  const kh2::Model& model = *bar.entries[0].model;
  EXPECT_EQ(model.bones.size(), 2u);
  EXPECT_FLOAT_EQ(model.bones[1].translation[1], 1.f);
  const kh2::ModelMeshes meshes = kh2::DecodeModelMeshes(model, kh2::SkeletonFromModel(model));
  EXPECT_TRUE(meshes.warnings.empty());
  ASSERT_EQ(meshes.meshes.size(), 1u);
  EXPECT_EQ(meshes.meshes[0].triangles.size(), 6u);
  const kh2::TextureSet tex = kh2::DecodeTextures(bar.entries[1].raw);
  ASSERT_EQ(tex.images.size(), 1u);
  EXPECT_EQ(tex.images[0].rgba, Quad().textures[0].rgba);
}

TEST(Kh2ModelWriteNew, ASkeletonModelsBonesAreMatchedByName) {
  const auto dir = test::TempDir("kh2_model_write_new_match");
  const std::string glb = WriteGlb(Quad(), dir, "quad.glb"), model = (dir / "model.mdlx").string();
  ToMdlx(glb, model, {{"kh2-skeleton", "gltf"}});  // its joints are "#0", "#1"
  Scene renamed = Quad();
  renamed.skeleton.joints[0].name = "#0", renamed.skeleton.joints[1].name = "#1";
  std::swap(renamed.skeleton.joints[0], renamed.skeleton.joints[1]);  // other order, same names
  renamed.skeleton.joints[0].parent = 1, renamed.skeleton.joints[1].parent = -1;
  for (auto& j : renamed.meshes[0].joints) j[0] = uint16_t(1 - j[0]), j[1] = uint16_t(1 - j[1]);
  const std::string glb2 = WriteGlb(renamed, dir, "renamed.glb"), out = (dir / "out.mdlx").string();
  ToMdlx(glb2, out, {}, model);
  const kh2::Model& m = *kh2::ParseBar(ReadFileBytes(out)).entries[0].model;
  const kh2::ModelMeshes back = kh2::DecodeModelMeshes(m, kh2::SkeletonFromModel(m));
  ASSERT_EQ(back.meshes.size(), 1u);
  for (size_t v = 0; v < back.meshes[0].positions.size(); ++v)  // the vertices at y 0 are on bone 0
    if (back.meshes[0].positions[v].y < 0.5f) EXPECT_EQ(back.meshes[0].joints[v][0], 0);
  // A weighted joint the model lacks is an error naming mesh and joint.
  Scene extra = Quad();
  extra.skeleton.joints[1].name = "tail";
  extra.skeleton.joints[0].name = "#0";
  const std::string glb3 = WriteGlb(extra, dir, "extra.glb");
  const std::string e = test::ErrorOf([&] { ToMdlx(glb3, (dir / "bad.mdlx").string(), {}, model); });
  EXPECT_TRUE(test::Has(e, "'quad'") && test::Has(e, "'tail'")) << e;
}

TEST(Kh2ModelWriteNew, LimitsAreWarningsOrErrorsNamingMeshAndLimit) {
  const auto dir = test::TempDir("kh2_model_write_new_limits");
  Scene odd = Quad();
  odd.textures[0].width = 3;
  odd.textures[0].rgba.resize(3 * 4 * 4);
  std::string e = test::ErrorOf([&] { ToMdlx(WriteGlb(odd, dir, "odd.glb"), (dir / "odd.mdlx").string(), {{"kh2-skeleton", "gltf"}}); });
  EXPECT_TRUE(test::Has(e, "3x4") && test::Has(e, "powers of two up to 512")) << e;
  Scene lines = Quad();
  lines.meshes[0].lines = {0, 1, 1, 2};
  const ConvertResult r = ToMdlx(WriteGlb(lines, dir, "lines.glb"), (dir / "lines.mdlx").string(), {{"kh2-skeleton", "gltf"}});
  bool warned = false;
  for (const std::string& w : r.warnings) warned = warned || (test::Has(w, "quad") && test::Has(w, "lines left out"));
  EXPECT_TRUE(warned);
  e = test::ErrorOf([&] { ToMdlx(WriteGlb(Quad(), dir, "plain.glb"), (dir / "none.mdlx").string(), {}); });
  EXPECT_TRUE(test::Has(e, "--kh2-skeleton gltf")) << e;
}

}  // namespace
}  // namespace animkit
