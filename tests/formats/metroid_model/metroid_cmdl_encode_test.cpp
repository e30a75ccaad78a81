// The CMDL writer: a scene's meshes as CMDL records in the documented layout (version 2,
// float arrays, triangle lists, the stock material values), the CSKR's weight groups over
// the positions in order, a TXTR per texture; read back and decoded, the input again.
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_model.hpp>
#include <animkit/formats/metroid_txtr.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace animkit {
extern const FormatDescriptor kMetroidCmdlFormat;
namespace {

using namespace metroid_model;

// FNV-1a, 32 bits, as the id rule states it.
uint32_t Fnv(const std::string& text) {
  uint32_t h = 0x811C9DC5;
  for (unsigned char c : text) h = (h ^ c) * 0x01000193;
  return h;
}

// Colours RGB565 holds exactly.
Image Checker(uint32_t side, uint8_t alpha_of_first = 255) {
  Image img;
  img.name = "checker";
  img.width = img.height = side;
  for (uint32_t y = 0; y < side; ++y)
    for (uint32_t x = 0; x < side; ++x) {
      const bool odd = ((x / 2) + (y / 2)) % 2;
      const std::array<uint8_t, 4> c = y == 0 && x == 0 ? std::array<uint8_t, 4>{255, 0, 0, alpha_of_first}
                                       : odd           ? std::array<uint8_t, 4>{0, 0, 255, 255}
                                                       : std::array<uint8_t, 4>{255, 255, 255, 255};
      img.rgba.insert(img.rgba.end(), c.begin(), c.end());
    }
  return img;
}

// Two joints ("root" at the origin, "tip" 1 up in z) and a skinned strip of two quads: the
// bottom row on root, the middle half and half, the top on tip; textured.
Scene SkinnedStrip() {
  Scene s;
  s.skeleton.joints = {{"root", -1, {}}, {"tip", 0, {{0, 0, 1}, {0, 0, 0, 1}, {1, 1, 1}}}};
  Mesh m;
  m.name = "strip";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 0, 2}, {1, 0, 2}};
  m.normals.assign(6, {0, -1, 0});
  m.uvs = {{0, 1}, {1, 1}, {0, 0.5f}, {1, 0.5f}, {0, 0}, {1, 0}};
  m.joints.assign(6, {0, 1, 0, 0});
  m.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.5f, 0.5f, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}};
  m.triangles = {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5};
  m.material = 0;
  s.meshes.push_back(m);
  Material mat;
  mat.name = "skin";
  mat.texture = 0;
  s.materials.push_back(mat);
  s.textures.push_back(Checker(8));
  return s;
}

uint32_t Be32(const Bytes& b, size_t at) {
  return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}

TEST(MetroidCmdlEncode, WritesTheDocumentedLayout) {
  const CmdlEncoded e = EncodeCmdl(SkinnedStrip(), SkinnedStrip().skeleton, {0x12345678, {}});
  const Bytes bytes = SerializeCmdl(e.model);
  EXPECT_EQ(Be32(bytes, 0), 0xDEADBABEu);
  EXPECT_EQ(Be32(bytes, 4), 2u);     // MP1
  EXPECT_EQ(Be32(bytes, 8), 1u);     // skinned; float normals; no short UVs
  EXPECT_EQ(Be32(bytes, 0x24), 7u);  // material set, 4 arrays, surface table, 1 surface
  EXPECT_EQ(Be32(bytes, 0x28), 1u);
  size_t total = 0x60;  // align32(0x2C + 7 x 4)
  for (size_t i = 0; i < 7; ++i) {
    const uint32_t size = Be32(bytes, 0x2C + 4 * i);
    EXPECT_EQ(size % 32, 0u) << i;
    total += size;
  }
  EXPECT_EQ(total, bytes.size());
  const size_t set = 0x60;
  EXPECT_EQ(Be32(bytes, set), 1u);  // one texture id
  EXPECT_EQ(Be32(bytes, set + 4), Fnv("12345678/TXTR0"));
  EXPECT_EQ(Be32(bytes, set + 8), 1u);           // one material
  EXPECT_EQ(Be32(bytes, set + 16), 0x11083u);    // its flags
  EXPECT_EQ(Be32(bytes, set + 20), 1u);          // one texture slot
  EXPECT_EQ(Be32(bytes, set + 28), 0x30Fu);      // position, normal, tex0 as index16
  // Positions: the 3 weight groups' vertices in group order, 2 each (72 bytes padded to 96).
  const size_t positions = set + Be32(bytes, 0x2C);
  EXPECT_EQ(Be32(bytes, 0x30), 96u);
  EXPECT_EQ(std::bit_cast<float>(Be32(bytes, positions + 12)), 1.0f);  // position 1 = (1, 0, 0)
  EXPECT_EQ(std::bit_cast<float>(Be32(bytes, positions + 6 * 12 - 4)), 2.0f);  // position 5 = (1, 0, 2)
  const CmdlFile f = ParseCmdl(bytes);
  ASSERT_EQ(f.surfaces.size(), 1u);
  ASSERT_EQ(f.surfaces[0].primitives.size(), 1u);
  const size_t list = f.surfaces[0].list_at;
  EXPECT_EQ(bytes[list], 0x90);  // triangle list, VAT0
  EXPECT_EQ(bytes[list + 1] << 8 | bytes[list + 2], 12);
  EXPECT_EQ(Be32(bytes, f.surfaces[0].at + 0x10) & 0x80000000u, 0x80000000u);  // the normal hint
  EXPECT_EQ(SerializeCmdl(f), bytes);  // the reader's records write the same bytes
  // The skin: group 0 (bone 3) covers positions 0-1, 1 (3 and 4 half each) 2-3, 2 (bone 4) 4-5.
  ASSERT_TRUE(e.skin.has_value());
  EXPECT_EQ(e.skin_id, Fnv("12345678/CSKR"));
  const Bytes skin = SerializeCskr(*e.skin);
  EXPECT_EQ(Be32(skin, 0), 3u);
  EXPECT_EQ(Be32(skin, 4), 1u);
  EXPECT_EQ(Be32(skin, 8), 3u);
  EXPECT_EQ(Be32(skin, 16), 2u);  // vertex count
  EXPECT_EQ(Be32(skin, 20), 2u);  // group 1: two weights
  EXPECT_EQ(std::bit_cast<float>(Be32(skin, 28)), 0.5f);
  EXPECT_EQ(Be32(skin, skin.size() - 16), 0xFFFFFFFFu);  // footer: -1, 6 positions; -1, 6 normals
  EXPECT_EQ(Be32(skin, skin.size() - 12), 6u);
  EXPECT_EQ(Be32(skin, skin.size() - 4), 6u);
  EXPECT_EQ(SerializeCskr(ParseCskr(skin)), skin);
  ASSERT_EQ(e.textures.size(), 1u);
  EXPECT_EQ(e.textures[0].format, "RGB565");  // opaque
  EXPECT_EQ(Be32(e.textures[0].bytes, 0), 7u);
}

// Decoded with the CINF the same skeleton makes: every corner of every triangle as given.
void ExpectSameModel(const Scene& in, const Scene& out) {
  ASSERT_EQ(out.meshes.size(), 1u);
  const Mesh& a = in.meshes[0];
  const Mesh& b = out.meshes[0];
  ASSERT_EQ(b.triangles.size(), a.triangles.size());
  for (size_t k = 0; k < a.triangles.size(); ++k) {
    SCOPED_TRACE(k);
    const uint32_t i = a.triangles[k], j = b.triangles[k];
    test::ExpectVec(b.positions[j], a.positions[i].x, a.positions[i].y, a.positions[i].z);
    test::ExpectVec(b.normals[j], a.normals[i].x, a.normals[i].y, a.normals[i].z);
    EXPECT_NEAR(b.uvs[j][0], a.uvs[i][0], 1e-6);
    EXPECT_NEAR(b.uvs[j][1], a.uvs[i][1], 1e-6);
    if (!a.Skinned()) continue;
    for (size_t w = 0; w < 2; ++w) {
      const std::string joint = in.skeleton.joints[a.joints[i][w]].name;
      float got = 0;
      for (size_t s = 0; s < 4; ++s)
        if (out.skeleton.joints[b.joints[j][s]].name == joint) got += b.weights[j][s];
      EXPECT_NEAR(got, a.weights[i][w], 1e-6) << joint;
    }
  }
}

SideFileReader Serve(const std::map<std::string, Bytes>& files) {
  return [files](const std::string& name, std::string& why) -> std::optional<Bytes> {
    const auto it = files.find(name);
    if (it == files.end()) why = "is not served";
    return it == files.end() ? std::nullopt : std::optional<Bytes>(it->second);
  };
}

TEST(MetroidCmdlEncode, DecodesBackToTheInput) {
  const Scene in = SkinnedStrip();
  const CmdlEncoded e = EncodeCmdl(in, in.skeleton, {0x12345678, {}});
  const CmdlFile f = ParseCmdl(SerializeCmdl(e.model));
  const CskrFile skin = ParseCskr(SerializeCskr(*e.skin));
  const Scene rig = metroid::DecodeCinf(metroid::EncodeCinf(in.skeleton), metroid::RestRule::Relative);
  std::vector<std::string> warnings;
  const Scene out = DecodeCmdl(f, {Serve({{TxtrFileName(e.textures[0].id), e.textures[0].bytes}}), &skin, &rig}, warnings);
  EXPECT_TRUE(warnings.empty());
  ExpectSameModel(in, out);
  ASSERT_EQ(out.textures.size(), 1u);
  EXPECT_EQ(out.textures[0].rgba, in.textures[0].rgba);  // the picture the right way up
  EXPECT_EQ(out.materials.at(0).texture, 0);
}

// Two meshes: a textured one whose picture has alpha (CMPR) on a blended material, and an
// untextured one; rigid on a joint its positions are moved from the joint's space.
TEST(MetroidCmdlEncode, MaterialsTexturesAndRigidMeshes) {
  Scene in = SkinnedStrip();
  in.textures[0] = Checker(8, 0);
  in.materials[0].alpha = AlphaMode::Blend;
  Mesh rigid;
  rigid.name = "cap";
  rigid.joint = 1;
  rigid.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  rigid.triangles = {0, 1, 2};
  in.meshes.push_back(rigid);
  const CmdlEncoded e = EncodeCmdl(in, in.skeleton, {7, {}});
  ASSERT_EQ(e.textures.size(), 1u);
  EXPECT_EQ(e.textures[0].format, "CMPR");
  const CmdlFile f = ParseCmdl(SerializeCmdl(e.model));
  ASSERT_EQ(f.material_sets[0].materials.size(), 2u);
  EXPECT_EQ(f.material_sets[0].materials[0].flags, 0x11083u | 0x10);
  EXPECT_EQ(f.material_sets[0].materials[1].flags, 0x1083u);
  EXPECT_EQ(f.material_sets[0].materials[1].vertex_attributes, 0xFu);  // no UVs
  const CskrFile skin = ParseCskr(SerializeCskr(*e.skin));
  ASSERT_EQ(skin.groups.size(), 3u);  // the cap shares the tip's group
  const Scene rig = metroid::DecodeCinf(metroid::EncodeCinf(in.skeleton), metroid::RestRule::Relative);
  std::vector<std::string> warnings;
  const Scene out = DecodeCmdl(f, {Serve({{TxtrFileName(e.textures[0].id), e.textures[0].bytes}}), &skin, &rig}, warnings);
  ASSERT_EQ(out.meshes.size(), 2u);
  EXPECT_EQ(out.materials[0].alpha, AlphaMode::Blend);
  EXPECT_EQ(out.materials[1].texture, -1);
  const Mesh& cap = out.meshes[1];
  ASSERT_EQ(cap.triangles.size(), 3u);
  test::ExpectVec(cap.positions[cap.triangles[1]], 1, 0, 1);  // (1, 0, 0) in the tip's space
  test::ExpectVec(cap.normals[cap.triangles[0]], 0, 0, 1);     // the face's normal, none given
  EXPECT_EQ(out.skeleton.joints[cap.joints[cap.triangles[0]][0]].name, "tip");
  EXPECT_EQ(out.textures[0].rgba[3], 0);  // CMPR's transparent texel
}

TEST(MetroidCmdlEncode, KeepsTheHeaviestThreeInfluencesAndNamesOtherProblems) {
  Scene in = SkinnedStrip();
  in.skeleton.joints.push_back({"a", 1, {}});
  in.skeleton.joints.push_back({"b", 1, {}});
  in.meshes[0].joints[0] = {0, 1, 2, 3};
  in.meshes[0].weights[0] = {0.1f, 0.4f, 0.3f, 0.2f};
  const CmdlEncoded e = EncodeCmdl(in, in.skeleton, {1, {{"tip", 9}}});
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(e.warnings[0], "heaviest 3"));
  const WeightGroup& g = e.skin->groups[0];
  ASSERT_EQ(g.weights.size(), 3u);
  EXPECT_EQ(g.weights[0].bone_id, 9u);  // named "tip"; root, a and b numbered after the highest: 10, 11, 12
  EXPECT_EQ(g.weights[1].bone_id, 11u);
  EXPECT_EQ(g.weights[2].bone_id, 12u);
  EXPECT_FLOAT_EQ(g.weights[0].weight, 0.4f / 0.9f);
  const CmdlEncoded unrigged = EncodeCmdl(in, Skeleton{}, {});
  EXPECT_FALSE(unrigged.skin.has_value());
  EXPECT_TRUE(test::Has(unrigged.warnings.at(0), "no skeleton"));
  in.meshes[0].weights.pop_back();
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { EncodeCmdl(in, in.skeleton, {}); }), "5 weight sets for 6 positions"));
  in.meshes[0].weights.push_back({1, 0, 0, 0});
  in.meshes[0].joints[0] = {7, 0, 0, 0};
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { EncodeCmdl(in, in.skeleton, {}); }), "joint 7"));
  in.meshes[0].triangles[0] = 60;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { EncodeCmdl(in, in.skeleton, {}); }), "position 60"));
  in.meshes.clear();
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { EncodeCmdl(in, in.skeleton, {}); }), "nothing to write"));
}

TEST(MetroidCmdlEncode, IdsOfNames) {
  EXPECT_EQ(ModelIdOfName("0a1B2c3D"), 0x0A1B2C3Du);
  EXPECT_EQ(ModelIdOfName("sentry"), Fnv("SENTRY"));
  EXPECT_EQ(DerivedId(0x0A1B2C3D, "CSKR"), Fnv("0A1B2C3D/CSKR"));
}

TEST(MetroidCmdlEncode, CliConvertsAGlbToACmdlWithItsSkinAndTexture) {
  const auto dir = test::TempDir("metroid_cmdl_encode_cli");
  const Scene in = SkinnedStrip();
  WriteFileAtomic((dir / "model.glb").string(), ExportGltf(in, {}));
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert '" + (dir / "model.glb").string() + "' '" + (dir / "out.cmdl").string() + "'", &out,
                         &err),
            0)
      << err;
  char model[16], skin[16], texture[16];
  std::snprintf(model, sizeof model, "%08X", Fnv("OUT"));  // the model id of out.cmdl
  std::snprintf(skin, sizeof skin, "%08X", Fnv(std::string(model) + "/CSKR"));
  std::snprintf(texture, sizeof texture, "%08X", Fnv(std::string(model) + "/TXTR0"));
  const std::string skin_name = std::string(skin) + ".CSKR", texture_name = std::string(texture) + ".TXTR";
  ASSERT_TRUE(std::filesystem::exists(dir / skin_name)) << skin_name;
  ASSERT_TRUE(std::filesystem::exists(dir / texture_name)) << texture_name;
  const Scene rig = metroid::DecodeCinf(metroid::EncodeCinf(in.skeleton), metroid::RestRule::Relative);
  ReadContext rc;
  rc.path = (dir / "out.cmdl").string();
  rc.options.Set("metroid-skin", skin_name);
  const Scene back = kMetroidCmdlFormat.read(ReadFileBytes(rc.path), rc)->Decode({&rig, {}});
  ExpectSameModel(in, back);
  EXPECT_EQ(back.textures.at(0).rgba, in.textures[0].rgba);
}

}  // namespace
}  // namespace animkit
