// `animkit convert char.glb new.mdlx` without a template: the glTF's skeleton (--kh2-skeleton
// gltf) or a --skeleton model's bones matched by name; what the format cannot hold is a
// warning or an error naming the mesh and the limit.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
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
  im.name = "checker", im.width = 16, im.height = 4;
  for (int i = 0; i < 64; ++i) im.rgba.insert(im.rgba.end(), {uint8_t(i % 2 ? 255 : 0), 0, 0, 255});
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
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(out));
  const kh2::Model& m = *bar.entries[0].model;
  const kh2::ModelMeshes back = kh2::DecodeModelMeshes(m, kh2::SkeletonFromModel(m));
  ASSERT_EQ(back.meshes.size(), 1u);
  for (size_t v = 0; v < back.meshes[0].positions.size(); ++v)  // the vertices at y 0 are on bone 0
    if (back.meshes[0].positions[v].y < 0.5f) {
      EXPECT_EQ(back.meshes[0].joints[v][0], 0);
    }
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
  odd.textures[0].rgba.resize(3 * 4 * 4);  // 3x4
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

// A true-colour texture (a 64x64 gradient of 4096 colours, as an ordinary PNG gives): a new
// MDLX quantises it to 8 bits as the template path does, with the same result, within the
// quantiser's error; a texture over the side limit is refused naming the limit.
TEST(Kh2ModelWriteNew, ATrueColourTextureIsQuantisedAsOverATemplate) {
  const auto dir = test::TempDir("kh2_model_write_new_true_colour");
  Scene scene = Quad();
  scene.skeleton.joints[0].name = "#0", scene.skeleton.joints[1].name = "#1";  // the names a new model's bones get
  Image& im = scene.textures[0];
  im.width = im.height = 64;
  im.rgba.clear();
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) im.rgba.insert(im.rgba.end(), {uint8_t(4 * x), uint8_t(4 * y), uint8_t(2 * (x + y)), 255});
  const std::string glb = WriteGlb(scene, dir, "true.glb"), out = (dir / "true.mdlx").string();
  const ConvertResult r = ToMdlx(glb, out, {{"kh2-skeleton", "gltf"}});
  EXPECT_TRUE(r.warnings.empty()) << (r.warnings.empty() ? "" : r.warnings.front());
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(out));
  ASSERT_EQ(bar.entries.size(), 2u);
  const kh2::TextureSet fresh = kh2::DecodeTextures(bar.entries[1].raw);
  ASSERT_EQ(fresh.images.size(), 1u);
  EXPECT_EQ(fresh.images[0].source_format, "KH2 raw texture, 8-bit indexed");
  ASSERT_EQ(fresh.images[0].rgba.size(), im.rgba.size());
  double total = 0, most = 0;
  for (size_t i = 0; i < im.rgba.size(); ++i) {
    const double d = std::abs(double(fresh.images[0].rgba[i]) - double(im.rgba[i]));
    total += d, most = std::max(most, d);
  }
  // A smooth gradient is the quantiser's hard case (4096 colours in 256): measured mean 2.6,
  // against 0.3-1.1 for the real textures' edits (kh2_texture_write_test.cpp).
  EXPECT_LT(total / double(im.rgba.size()), 4.0);
  EXPECT_LT(most, 32.0) << most;
  // Over a template of the 16x4 texture (Quad's), the same picture re-encoded (another size:
  // the layout rebuilt, 8-bit as the template's) decodes to the same texels.
  const std::string templ = (dir / "templ.mdlx").string(), over = (dir / "over.mdlx").string();
  ToMdlx(WriteGlb(Quad(), dir, "quad.glb"), templ, {{"kh2-skeleton", "gltf"}});
  ConvertRequest request;
  request.input = glb, request.output = over;
  request.template_path = templ;
  Convert(request);
  const kh2::Bar edited = kh2::ParseBar(ReadFileBytes(over));
  const kh2::TextureSet again = kh2::DecodeTextures(edited.entries.at(1).raw);
  ASSERT_EQ(again.images.size(), 1u);
  EXPECT_EQ(again.images[0].rgba, fresh.images[0].rgba);
  // Over the limit: refused, naming it.
  Scene big = Quad();
  big.textures[0].width = 1024, big.textures[0].height = 4;
  big.textures[0].rgba.assign(size_t(1024) * 4 * 4, 200);
  const std::string e = test::ErrorOf([&] { ToMdlx(WriteGlb(big, dir, "big.glb"), (dir / "big.mdlx").string(), {{"kh2-skeleton", "gltf"}}); });
  EXPECT_TRUE(test::Has(e, "1024x4") && test::Has(e, "powers of two up to 512")) << e;
}

// Sora through glTF: group 1's vertices moved in the glb; written over the template, the
// other groups' packets and every other entry keep their bytes, and group 1 reads back moved.
TEST(Kh2ModelWriteNew, AGlbEditOverTheTemplateRewritesThatGroupAlone) {
  const std::filesystem::path sora = std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared/fixtures/kh2/P_EX100.mdlx";
  if (!std::filesystem::exists(sora)) GTEST_SKIP() << "../shared/fixtures/kh2/P_EX100.mdlx absent";
  const auto dir = test::TempDir("kh2_model_write_glb_edit");
  const std::string glb = (dir / "sora.glb").string(), out = (dir / "sora.mdlx").string();
  ConvertRequest first;
  first.input = sora.string(), first.output = glb;
  Convert(first);
  const LoadedFile loaded = LoadFile(glb, "", {});
  Scene scene = DecodeDocument(loaded, DecodeContext{});
  size_t moved = 0;
  for (Mesh& m : scene.meshes)
    if (m.name == "model0_group1")
      for (Vec3& p : m.positions) p.x += 3.f, ++moved;
  ASSERT_GT(moved, 0u);
  const std::string edited = WriteGlb(scene, dir, "edited.glb");
  ConvertRequest back;
  back.input = edited, back.output = out, back.template_path = sora.string();
  const ConvertResult r = Convert(back);
  EXPECT_TRUE(r.warnings.empty()) << (r.warnings.empty() ? "" : r.warnings.front());
  const Bytes templ_bytes = ReadFileBytes(sora.string()), out_bytes = ReadFileBytes(out);
  const kh2::Bar a = kh2::ParseBar(templ_bytes), b = kh2::ParseBar(out_bytes);
  ASSERT_EQ(a.entries.size(), b.entries.size());
  for (size_t i = 0; i < a.entries.size(); ++i) {
    if (a.entries[i].type == kh2::kEntryModel) continue;
    EXPECT_EQ(kh2::SerializePayload(a.entries[i]), kh2::SerializePayload(b.entries[i])) << "entry " << i;
  }
  const kh2::Model& m = *b.entries[0].model;
  const kh2::ModelMeshes meshes = kh2::DecodeModelMeshes(m, kh2::SkeletonFromModel(m));
  EXPECT_TRUE(meshes.warnings.empty());
  const kh2::Model& t = *a.entries[0].model;
  const kh2::ModelMeshes before = kh2::DecodeModelMeshes(t, kh2::SkeletonFromModel(t));
  ASSERT_EQ(meshes.meshes.size(), before.meshes.size());
  for (size_t g : {size_t(0), size_t(2)}) {  // unedited groups decode exactly as before
    EXPECT_EQ(meshes.meshes[g].positions.size(), before.meshes[g].positions.size());
    EXPECT_EQ(meshes.meshes[g].triangles, before.meshes[g].triangles);
  }
  float low = 1e9f, low_before = 1e9f;  // group 1 moved by 3 along x
  for (const Vec3& p : meshes.meshes[1].positions) low = std::min(low, p.x);
  for (const Vec3& p : before.meshes[1].positions) low_before = std::min(low_before, p.x);
  EXPECT_NEAR(low, low_before + 3.f, 1e-3);
}

}  // namespace
}  // namespace animkit
