// KH2 model meshes (VIF packets) and textures (TIM2): expected values written from the
// layout (docs/formats/kh2.md, "Meshes" and "Textures"), not from the decoder.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>
#include <animkit/offline/skinning.hpp>

#include "kh2_test_support.hpp"
#include "support/test_support.hpp"

#include <chrono>
#include <cmath>
#include <cstring>

namespace animkit {
namespace {

using namespace kh2;

void Pad16(Bytes& b) {
  while (b.size() % 16) b.push_back(0);
}

// A bone record (0x40 bytes): index, sibling, parent, child, reserved, flags, scale, rotation, translation.
void PutBone(Bytes& b, int16_t index, int16_t parent, float ty) {
  le::Append16(b, uint16_t(index)), le::Append16(b, 0xFFFF), le::Append16(b, uint16_t(parent)), le::Append16(b, 0xFFFF);
  le::Append32(b, 0), le::Append32(b, 0);
  for (float f : {1.f, 1.f, 1.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, ty, 0.f, 0.f}) le::AppendF32(b, f);
}

// A VIF packet as the game writes one (V2-16 UVs, masked S-8 indices and flags, V4-8
// colours, V4-32 positions and tables). Four vertices: three on one bone, one shared.
Bytes HandPacket() {
  Bytes p;
  le::Append32(p, 0x01000101);  // STCYCL 1, 1
  le::Append32(p, 0x6C040000);  // UNPACK V4-32, 4 qwords at 0: the header
  for (uint32_t w : {1u, 0u, 0u, 0u, 4u, 4u, 17u, 21u, 4u, 8u, 2u, 18u, 5u, 12u, 0u, 2u}) le::Append32(p, w);
  le::Append32(p, 0x65044004);  // UNPACK V2-16 unsigned, 4 at qword 4: u, v
  for (uint16_t s : {0, 0, 4096, 0, 0, 4096, 2048, 2048}) le::Append16(p, s);
  le::Append32(p, 0x20000000), le::Append32(p, 0xCFCFCFCF);  // STMASK: write z only
  le::Append32(p, 0x72044004);                        // UNPACK S-8 masked: vertex indices
  for (uint8_t i : {0, 1, 2, 3}) p.push_back(i);
  le::Append32(p, 0x20000000), le::Append32(p, 0x3F3F3F3F);  // STMASK: write w only
  le::Append32(p, 0x72044004);                        // strip flags
  for (uint8_t f : {0x10, 0x10, 0x20, 0x30}) p.push_back(f);
  le::Append32(p, 0x6E044008);  // UNPACK V4-8 unsigned, 4 colours at qword 8
  for (uint8_t c : {0x80, 0x80, 0x80, 0x80, 0x40, 0x00, 0x00, 0x80, 0x00, 0x40, 0x00, 0x40, 0xFF, 0x00, 0x20, 0x00})
    p.push_back(c);
  le::Append32(p, 0x6C05000C);  // UNPACK V4-32, 5 positions at qword 12 (slot 0: three, slot 1: two)
  for (float f : {1.f, 0.f, 0.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 2.5f, 0.f, 0.5f, 1.f, 0.f, 0.f, 0.f, 0.f, -2.5f, 0.f, 0.5f})
    le::AppendF32(p, f);
  le::Append32(p, 0x6C040011);  // UNPACK V4-32, 4 qwords at 17: per-slot counts, weight groups, their lists
  for (uint32_t w : {3u, 2u, 0u, 0u, 3u, 1u, 0u, 0u, 0u, 1u, 3u, 0u, 2u, 4u, 0u, 0u}) le::Append32(p, w);
  le::Append32(p, 0x17000000);  // MSCNT
  Pad16(p);
  return p;
}

// A model entry of two bones (#1 at (0, 10, 0) under #0) and one group holding packet.
Bytes HandModel(const Bytes& packet, int32_t texture_index = 0) {
  Bytes m(0x90, 0);
  Bytes b;  // from 0x90
  le::Append32(b, 3), le::Append32(b, 0), le::Append32(b, 0), le::Append32(b, 0);  // type, two fields, next model
  le::Append16(b, 2), le::Append16(b, 0), le::Append32(b, 0x40), le::Append32(b, 0), le::Append32(b, 1);  // bones at 0x40, 1 group
  const size_t group = b.size();
  b.resize(b.size() + 0x20, 0);
  PutBone(b, 0, -1, 0), PutBone(b, 1, 0, 10);
  const size_t vif = b.size();
  b.insert(b.end(), packet.begin(), packet.end());
  const size_t dma = b.size();
  le::Append32(b, uint32_t(packet.size() / 16) | 0x30000000), le::Append32(b, uint32_t(vif)), le::Append32(b, 0), le::Append32(b, 0);
  for (uint32_t bone : {0u, 1u}) le::Append32(b, 0x30000004), le::Append32(b, bone), le::Append32(b, 0x01000101), le::Append32(b, 0);
  le::Append32(b, 0x10000000), le::Append32(b, 0), le::Append32(b, 0x17000000), le::Append32(b, 0);
  const size_t slots = b.size();
  le::Append32(b, 2), le::Append32(b, 0), le::Append32(b, 1);  // the entry ends here: every byte is needed
  auto at = [&](size_t pos, uint32_t v) { le::Store32At(b, pos, v); };
  at(group + 4, uint32_t(texture_index)), at(group + 0x10, uint32_t(dma)), at(group + 0x14, uint32_t(slots));
  m.insert(m.end(), b.begin(), b.end());
  return m;
}

void ExpectNear3(Vec3 a, float x, float y, float z) {
  EXPECT_NEAR(a.x, x, 1e-5f);
  EXPECT_NEAR(a.y, y, 1e-5f);
  EXPECT_NEAR(a.z, z, 1e-5f);
}

TEST(Kh2Mesh, AHandBuiltPacketDecodesAsItsLayoutSays) {
  const Model model = ParseModel(HandModel(HandPacket()));
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  ASSERT_EQ(out.meshes.size(), 1u) << (out.warnings.empty() ? "" : out.warnings[0]);
  EXPECT_EQ(out.models, 1u);
  const Mesh& mesh = out.meshes[0];
  ASSERT_EQ(mesh.positions.size(), 4u);
  ExpectNear3(mesh.positions[0], 1, 0, 0);
  ExpectNear3(mesh.positions[1], 0, 0, 1);
  ExpectNear3(mesh.positions[2], 1, 10, 0);  // bone 1's (1, 0, 0)
  ExpectNear3(mesh.positions[3], 0, 5, 0);   // half of bone 0's (0, 5, 0), half of bone 1's (0, -5, 0)
  EXPECT_EQ(mesh.joints[2][0], 1);
  EXPECT_FLOAT_EQ(mesh.weights[2][0], 1);
  EXPECT_EQ(mesh.joints[3][0], 0);
  EXPECT_EQ(mesh.joints[3][1], 1);
  EXPECT_FLOAT_EQ(mesh.weights[3][0], 0.5f);
  EXPECT_FLOAT_EQ(mesh.weights[3][1], 0.5f);
  EXPECT_NEAR(out.max_bone_disagreement, 0, 1e-5);
  // Flag 0x20 at node 2: (newest, oldest, middle); 0x30 at node 3: (newest, middle, oldest).
  EXPECT_EQ(mesh.triangles, (std::vector<uint32_t>{2, 0, 1, 3, 2, 1}));
  ASSERT_EQ(mesh.uvs.size(), 4u);
  EXPECT_FLOAT_EQ(mesh.uvs[1][0], 1);
  EXPECT_FLOAT_EQ(mesh.uvs[1][1], 0);
  EXPECT_FLOAT_EQ(mesh.uvs[2][0], 0);
  EXPECT_FLOAT_EQ(mesh.uvs[2][1], 1);
  EXPECT_FLOAT_EQ(mesh.uvs[3][0], 0.5f);
  ASSERT_EQ(mesh.colors.size(), 4u);
  EXPECT_FLOAT_EQ(mesh.colors[1][0], 0.5f);   // 0x40 / 0x80
  EXPECT_FLOAT_EQ(mesh.colors[2][3], 0.5f);
  EXPECT_FLOAT_EQ(mesh.colors[3][0], 1.0f);   // 0xFF clamps to 1
  EXPECT_EQ(mesh.material, 0);
}

TEST(Kh2Mesh, WrittenMeshesDecodeBack) {
  const Model hand = ParseModel(HandModel(HandPacket()));
  const Mesh original = DecodeModelMeshes(hand, SkeletonFromModel(hand)).meshes.at(0);
  Mesh mesh = original;
  mesh.material = 2;
  const Model model = ParseModel(WriteNewModelEntry(hand.bones, {mesh, mesh}));
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  ASSERT_EQ(out.meshes.size(), 2u);
  const Mesh& back = out.meshes[1];
  ASSERT_EQ(back.positions.size(), 4u);
  for (size_t v = 0; v < 4; ++v) {
    ExpectNear3(back.positions[v], original.positions[v].x, original.positions[v].y, original.positions[v].z);
    EXPECT_EQ(back.uvs[v], original.uvs[v]);
  }
  EXPECT_EQ(back.triangles, original.triangles);
  EXPECT_EQ(back.material, 2);
  EXPECT_FLOAT_EQ(back.weights[3][1], 0.5f);
}

// A second model chained after the first (its own header, no bone table) decodes against
// the first model's bones.
TEST(Kh2Mesh, TheNextModelChainIsFollowed) {
  Bytes entry = HandModel(HandPacket());
  Pad16(entry);
  Bytes second(entry.begin() + 0x90, entry.end());
  const uint32_t next = uint32_t(second.size());
  ASSERT_GT(second.size(), 0x20u);
  for (size_t k : {0x10, 0x11}) second.at(k) = 0;              // no bones
  for (size_t k : {0x14, 0x15, 0x16, 0x17}) second.at(k) = 0;  // no bone table
  for (size_t k = 0; k < 4; ++k) entry.at(0x90 + 0x0C + k) = uint8_t(next >> (8 * k));
  entry.insert(entry.end(), second.begin(), second.end());
  const Model model = ParseModel(entry);
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  EXPECT_EQ(out.models, 2u);
  ASSERT_EQ(out.meshes.size(), 2u);
  EXPECT_EQ(out.meshes[1].name, "model1_group0");
  ExpectNear3(out.meshes[1].positions[3], 0, 5, 0);
}

// Every prefix of an entry decodes to an error or to what survives, with a warning.
TEST(Kh2Mesh, EveryTruncationIsAnErrorOrAWarning) {
  test::ExpectEveryPrefixIsAnErrorOrRead(HandModel(HandPacket()), [](ByteView cut, size_t n) {
    const Model model = ParseModel(cut);
    const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
    EXPECT_TRUE(out.meshes.empty()) << n;
    EXPECT_FALSE(out.warnings.empty()) << n;
  });
}

// A 4-bit TIM2 of 2x2 pixels with a 16-colour 32-bit CLUT (PS2 alpha).
Bytes Tim2Four() {
  Bytes t = {'T', 'I', 'M', '2', 4, 0, 1, 0};
  t.resize(16, 0);
  le::Append32(t, 0x30 + 16 + 64), le::Append32(t, 64), le::Append32(t, 16);
  le::Append16(t, 0x30), le::Append16(t, 16);
  t.insert(t.end(), {0, 1, 3, 4});  // format, mipmaps, CLUT type 32-bit, 4-bit indexed
  le::Append16(t, 2), le::Append16(t, 2);
  t.resize(t.size() + 0x18, 0);
  Bytes pixels = {0x10, 0x32};  // low nibble first: 0, 1, 2, 3
  pixels.resize(16, 0);
  t.insert(t.end(), pixels.begin(), pixels.end());
  Bytes clut(64, 0);
  const uint8_t colours[4][4] = {{255, 0, 0, 0x80}, {0, 255, 0, 0x40}, {0, 0, 255, 0}, {10, 20, 30, 0x80}};
  for (size_t i = 0; i < 4; ++i) std::memcpy(clut.data() + 4 * i, colours[i], 4);
  t.insert(t.end(), clut.begin(), clut.end());
  return t;
}

// An 8-bit TIM2 of 2x1 pixels (indices 8 and 16) with a 256-colour CLUT in CSM1 order.
Bytes Tim2Eight() {
  Bytes t = {'T', 'I', 'M', '2', 4, 0, 1, 0};
  t.resize(16, 0);
  le::Append32(t, 0x30 + 16 + 1024), le::Append32(t, 1024), le::Append32(t, 16);
  le::Append16(t, 0x30), le::Append16(t, 256);
  t.insert(t.end(), {0, 1, 3, 5});
  le::Append16(t, 2), le::Append16(t, 1);
  t.resize(t.size() + 0x18, 0);
  Bytes pixels = {8, 16};
  pixels.resize(16, 0);
  t.insert(t.end(), pixels.begin(), pixels.end());
  Bytes clut(1024, 0);
  const uint8_t a[4] = {1, 2, 3, 0x80}, b[4] = {4, 5, 6, 0x20};
  std::memcpy(clut.data() + 16 * 4, a, 4);  // index 8 is stored at 16 (bits 3 and 4 swapped)
  std::memcpy(clut.data() + 8 * 4, b, 4);   // index 16 at 8
  t.insert(t.end(), clut.begin(), clut.end());
  return t;
}

TEST(Kh2Texture, FourBitTim2GivesThePaletteColours) {
  const TextureSet set = DecodeTextures(Tim2Four());
  ASSERT_EQ(set.images.size(), 1u);
  const Image& img = set.images[0];
  ASSERT_FALSE(img.Missing()) << img.missing;
  EXPECT_EQ(img.width, 2u);
  EXPECT_EQ(img.source_format, "TIM2 4-bit indexed");
  const std::vector<uint8_t> expected = {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 255};
  EXPECT_EQ(img.rgba, expected);
}

TEST(Kh2Texture, EightBitTim2ReadsItsClutInCsm1Order) {
  const TextureSet set = DecodeTextures(Tim2Eight());
  ASSERT_EQ(set.images.size(), 1u);
  const std::vector<uint8_t> expected = {1, 2, 3, 255, 4, 5, 6, 64};  // 0x20 -> 64
  EXPECT_EQ(set.images[0].rgba, expected);
}

TEST(Kh2Texture, ANewTim2DecodesBack) {
  Image img;
  img.name = "t";
  img.width = 4, img.height = 1;
  img.rgba = {9, 8, 7, 255, 1, 2, 3, 0, 9, 8, 7, 255, 1, 2, 3, 0};
  const TextureSet two = DecodeTextures(WriteNewTextureEntry({img}, TextureForm::Tim2).entry);
  ASSERT_EQ(two.images.size(), 1u);
  EXPECT_EQ(two.images[0].rgba, img.rgba);
  Image many = img;  // 40 colours: 8-bit, CSM1 order
  many.width = 64;
  many.rgba.clear();
  for (int i = 0; i < 64; ++i) many.rgba.insert(many.rgba.end(), {uint8_t(i % 40), uint8_t(i % 40 * 2), 0, 255});
  const TextureSet eight = DecodeTextures(WriteNewTextureEntry({many, img}, TextureForm::Tim2).entry);
  ASSERT_EQ(eight.images.size(), 2u);
  EXPECT_EQ(eight.images[0].source_format, "TIM2 8-bit indexed");
  EXPECT_EQ(eight.images[0].rgba, many.rgba);
  EXPECT_EQ(eight.images[1].rgba, img.rgba);
}

// KH2 raw textures and texture sets: kh2_texture_test.cpp.

TEST(Kh2Texture, EveryTruncationIsAnErrorOrAMissingImage) {
  test::ExpectEveryPrefixIsAnErrorOrRead(Tim2Eight(), [](ByteView cut, size_t n) {
    const TextureSet set = DecodeTextures(cut);
    ASSERT_EQ(set.images.size(), 1u) << n;
    EXPECT_TRUE(set.images[0].Missing()) << n;
    EXPECT_FALSE(set.warnings.empty()) << n;
  });
}

TEST(Kh2Texture, AMissingTextureKeepsItsNameAndSaysWhy) {
  const Model model = ParseModel(HandModel(HandPacket(), 5));
  ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  Scene scene;
  std::vector<std::string> warnings;
  AttachMaterials(out.meshes, DecodeTextures(Tim2Four()), scene, warnings);
  ASSERT_EQ(scene.materials.size(), 2u);  // the entry's one texture, and index 5's
  EXPECT_EQ(out.meshes[0].material, 1);
  EXPECT_EQ(scene.materials[1].name, "texture 5");
  EXPECT_TRUE(scene.textures[1].Missing());
  EXPECT_NE(scene.textures[1].missing.find("past the 1 textures"), std::string::npos);
  EXPECT_EQ(warnings.size(), 1u);
}

// The sample (tools/make_samples/kh2_samples.cpp): a ribbon of 7 rows of 2 vertices along
// 4 bones (a row at each joint, one halfway along each bone), 12 triangles, a 4x4 checker.
TEST(Kh2Mesh, TheSampleModelHasItsRibbonAndChecker) {
  const Bytes data = ReadFileBytes(test::SourcePath("samples/kh2_bar/ex00.mdlx"));
  const Scene scene = DecodeBar(ParseBar(data), nullptr, {});
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& m = scene.meshes[0];
  EXPECT_EQ(m.positions.size(), 14u);
  EXPECT_EQ(m.triangles.size(), 36u);
  size_t shared = 0;
  for (const auto& w : m.weights) shared += w[1] > 0 ? 1 : 0;
  EXPECT_EQ(shared, 6u);
  const std::vector<Mat4> bind = BindMatrices(scene.skeleton, ScaleInheritance::PerAxis);
  const Vec3 joint2 = TransformPoint(bind[2], {0, 0, 0});
  bool found = false;  // the row at joint 2: its position +- 5 along x
  for (const Vec3& p : m.positions) found |= std::fabs(p.x - (joint2.x + 5)) < 1e-3f && std::fabs(p.y - joint2.y) < 1e-3f;
  EXPECT_TRUE(found);
  ASSERT_EQ(scene.textures.size(), 1u);
  const Image& img = scene.textures[0];
  EXPECT_EQ(img.source_format, "TIM2 8-bit indexed");
  ASSERT_EQ(img.rgba.size(), 64u);
  EXPECT_EQ(std::vector<uint8_t>(img.rgba.begin(), img.rgba.begin() + 8), (std::vector<uint8_t>{40, 60, 140, 255, 230, 200, 90, 128}));
  ASSERT_EQ(scene.materials.size(), 1u);
  EXPECT_EQ(m.material, 0);
}

// ---------------------------------------------------------------------------
// Sora's model

TEST(Kh2Mesh, SorasModelDecodesWithinItsSkeleton) {
  const std::string path = test::FixturePath("kh2/P_EX100.mdlx");
  if (path.empty()) GTEST_SKIP() << "fixture kh2/P_EX100.mdlx not found beside the checkout";
  const Bytes data = ReadFileBytes(path);
  const auto start = std::chrono::steady_clock::now();
  const Bar bar = ParseBar(data);
  const Scene scene = DecodeBar(bar, nullptr, {});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Model* model = nullptr;
  for (const BarEntry& e : bar.entries)
    if (e.model) model = e.model.get();
  ASSERT_NE(model, nullptr);
  const ModelMeshes meshes = DecodeModelMeshes(*model, SkeletonFromModel(*model));
  size_t vertices = 0, triangles = 0;
  for (const Mesh& m : scene.meshes) vertices += m.positions.size(), triangles += m.triangles.size() / 3;
  std::printf("P_EX100.mdlx: %zu models, %zu meshes, %zu vertices, %zu triangles, %zu textures, %zu materials; "
              "max per-bone disagreement %.6g; %zu vertices over 4 bones; parse+decode %.3f s\n",
              meshes.models, scene.meshes.size(), vertices, triangles, scene.textures.size(), scene.materials.size(),
              meshes.max_bone_disagreement, meshes.dropped_influences, seconds);
  for (const std::string& w : meshes.warnings) std::printf("  warning: %s\n", w.c_str());
  EXPECT_EQ(scene.meshes.size(), 3u);  // one model (next offset 0) of 3 groups
  ASSERT_EQ(scene.textures.size(), 3u);  // 3 GS infos; TEX0 sizes 256x256, 256x256, 128x64
  EXPECT_EQ(scene.textures[2].width, 128u);
  EXPECT_EQ(scene.textures[2].height, 64u);
  for (const Image& img : scene.textures) EXPECT_FALSE(img.Missing()) << img.name << ": " << img.missing;
  EXPECT_GT(triangles, 1000u);
  EXPECT_TRUE(meshes.warnings.empty()) << meshes.warnings[0];
  // Every vertex lies within the joints' box, grown by half its size.
  const std::vector<Mat4> bind = BindMatrices(scene.skeleton, ScaleInheritance::PerAxis);
  Vec3 lo{1e9f, 1e9f, 1e9f}, hi{-1e9f, -1e9f, -1e9f};
  for (const Mat4& m : bind) {
    const Vec3 p = TransformPoint(m, {0, 0, 0});
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  const Vec3 grow = (hi - lo) * 0.5f;
  lo = lo - grow, hi = hi + grow;
  Vec3 vlo{1e9f, 1e9f, 1e9f}, vhi{-1e9f, -1e9f, -1e9f};
  for (const Mesh& m : scene.meshes)
    for (const Vec3& p : m.positions) {
      vlo = {std::min(vlo.x, p.x), std::min(vlo.y, p.y), std::min(vlo.z, p.z)};
      vhi = {std::max(vhi.x, p.x), std::max(vhi.y, p.y), std::max(vhi.z, p.z)};
    }
  std::printf("  vertices span (%.1f, %.1f, %.1f) to (%.1f, %.1f, %.1f)\n", vlo.x, vlo.y, vlo.z, vhi.x, vhi.y, vhi.z);
  for (const Mesh& m : scene.meshes)
    for (const Vec3& p : m.positions) {
      ASSERT_TRUE(p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z)
          << m.name << " (" << p.x << ", " << p.y << ", " << p.z << ")";
    }
  EXPECT_LT(meshes.max_bone_disagreement, 0.5);
}

}  // namespace
}  // namespace animkit
