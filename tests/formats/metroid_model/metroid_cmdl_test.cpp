#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_model.hpp>
#include <animkit/io/io.hpp>

#include "support/shared_files.hpp"
#include "support/test_support.hpp"

#include <cmath>
#include <fstream>
#include <map>

namespace animkit {
extern const FormatDescriptor kMetroidCmdlFormat;
namespace {

using namespace metroid_model;

// Big-endian bytes, written field by field as the layout states.
struct Be {
  Bytes b;
  void U8(uint8_t v) { b.push_back(v); }
  void U16(uint16_t v) { U8(uint8_t(v >> 8)), U8(uint8_t(v)); }
  void U32(uint32_t v) { U16(uint16_t(v >> 16)), U16(uint16_t(v)); }
  void F32(float v) { U32(std::bit_cast<uint32_t>(v)); }
  void Pad32() { while (b.size() % 32) U8(0); }
  void Put32At(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (24 - 8 * i));
  }
  size_t size() const { return b.size(); }
};

// The positions, short normals, float and short UVs of the hand-built model.
constexpr float kPositions[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 0, 0}, {2, 1, 0}};
constexpr int16_t kNormals[2][3] = {{0, 0, 16384}, {16384, 0, 0}};  // 14 fraction bits: +Z, +X
constexpr float kFloatUvs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {0.5f, 0.25f}};
constexpr uint16_t kShortUvs[3][2] = {{0, 0}, {32768, 0}, {16384, 8192}};  // 15 fraction bits

// One display-list vertex: position, normal, tex0 (index16 each), tex1 (index8).
struct Vtx {
  uint16_t pos, nrm, uv0;
  uint8_t uv1;
};
const std::vector<Vtx> kStrip = {{0, 0, 0, 0}, {1, 0, 1, 1}, {2, 1, 2, 2}, {3, 1, 1, 3}};
const std::vector<Vtx> kFan = {{1, 0, 0, 0}, {4, 0, 1, 1}, {5, 1, 2, 2}, {3, 1, 0, 3}};
const std::vector<Vtx> kList = {{0, 0, 2, 3}, {2, 1, 1, 2}, {4, 0, 0, 1}};

// A version-2 CMDL: short normals and a short-UV section (flags 6), one material set of one
// texture and one material (tex0 index16 from short or float UVs by material_flags, tex1
// index8), the 5 arrays, one surface with a strip, a fan and a triangle list.
Bytes HandBuiltCmdl(uint32_t material_flags) {
  Be f;
  f.U32(0xDEADBABE), f.U32(2), f.U32(6);
  for (float v : {0.f, 0.f, 0.f, 2.f, 1.f, 0.f}) f.F32(v);
  f.U32(8), f.U32(1);  // sections: set, 5 arrays, surface table, 1 surface
  const size_t sizes_at = f.size();
  for (int i = 0; i < 8; ++i) f.U32(0);
  f.Pad32();
  std::vector<size_t> starts;
  auto begin = [&] { starts.push_back(f.size()); };
  begin();  // material set
  f.U32(1), f.U32(0x11223344);  // texture ids
  f.U32(1);
  const size_t end_at = f.size();
  f.U32(0);
  const size_t first = f.size();
  f.U32(material_flags);
  f.U32(1), f.U32(0);  // texture slots: set texture 0
  f.U32(0x3 | 0x3 << 2 | 0x3 << 8 | 0x2 << 10);  // pos, nrm, tex0 index16; tex1 index8
  f.U32(0);  // group
  f.U16(0), f.U16(1);  // blend dst, src
  f.U32(1), f.U32(1);  // colour channels
  f.U32(1);  // TEV stages
  f.U32(0x7A14F), f.U32(0x3BF), f.U32(0), f.U32(0), f.U8(0), f.U8(0), f.U8(0), f.U8(0);
  f.U16(0), f.U8(0), f.U8(0);  // stage 0 samples slot 0 through texgen 0
  f.U32(1), f.U32(4 << 4 | 30 << 9 | 61 << 15);  // texgen from UV set 0, identity matrices
  f.U32(4), f.U32(0);  // UV animations: size, count
  f.Put32At(end_at, uint32_t(f.size() - first));
  f.Pad32();
  begin();
  for (const auto& p : kPositions) f.F32(p[0]), f.F32(p[1]), f.F32(p[2]);
  f.Pad32();
  begin();
  for (const auto& n : kNormals) f.U16(uint16_t(n[0])), f.U16(uint16_t(n[1])), f.U16(uint16_t(n[2]));
  f.Pad32();
  begin();  // colours: empty
  begin();
  for (const auto& t : kFloatUvs) f.F32(t[0]), f.F32(t[1]);
  f.Pad32();
  begin();
  for (const auto& t : kShortUvs) f.U16(t[0]), f.U16(t[1]);
  f.Pad32();
  begin();  // surface table
  f.U32(1);
  const size_t surface_end_at = f.size();
  f.U32(0);
  f.Pad32();
  begin();
  const size_t surface = f.size();
  f.F32(1), f.F32(0.5f), f.F32(0), f.U32(0);  // centre, material 0
  const size_t list_size_at = f.size();
  f.U32(0), f.U32(0), f.U32(0), f.U32(0);  // list size, parent, next, extra size
  f.F32(0), f.F32(0), f.F32(1);  // normal
  f.Pad32();  // the list starts at align32(0x2C)
  const size_t list = f.size();
  auto primitive = [&](uint8_t opcode, const std::vector<Vtx>& vs) {
    f.U8(opcode), f.U16(uint16_t(vs.size()));
    for (const Vtx& v : vs) f.U16(v.pos), f.U16(v.nrm), f.U16(v.uv0), f.U8(v.uv1);
  };
  primitive(0x9A, kStrip);  // VAT2
  primitive(0xA2, kFan);
  primitive(0x92, kList);
  f.U8(0);
  f.Pad32();
  f.Put32At(list_size_at, uint32_t(f.size() - list));
  f.Put32At(surface_end_at, uint32_t(f.size() - surface));
  starts.push_back(f.size());
  for (size_t i = 0; i < 8; ++i) f.Put32At(sizes_at + 4 * i, uint32_t(starts[i + 1] - starts[i]));
  return f.b;
}

// The triangles by the GX rules, as position indices: strip i (odd swapped), fan (0, i, i+1), list.
std::vector<std::array<uint16_t, 3>> ExpectedTriangles() {
  return {{0, 1, 2}, {2, 1, 3}, {1, 4, 5}, {1, 5, 3}, {0, 2, 4}};
}

Scene DecodeBytes(const Bytes& bytes, const std::string& path = "") {
  ReadContext context;
  context.path = path;
  return kMetroidCmdlFormat.read(bytes, context)->Decode({});
}

TEST(MetroidCmdl, hand_built_parses_to_the_layout) {
  const Bytes bytes = HandBuiltCmdl(kMaterialShortUvTex0);
  const CmdlFile f = ParseCmdl(bytes);
  EXPECT_EQ(f.header.version, 2u);
  ASSERT_EQ(f.material_sets.size(), 1u);
  ASSERT_EQ(f.material_sets[0].materials.size(), 1u);
  const CmdlMaterial& m = f.material_sets[0].materials[0];
  EXPECT_EQ(m.vertex_attributes, 0xB0Fu);
  ASSERT_EQ(m.stages.size(), 1u);
  EXPECT_EQ(m.stages[0].color_inputs, 0x7A14Fu);
  EXPECT_EQ(f.material_sets[0].texture_ids, std::vector<uint32_t>{0x11223344});
  EXPECT_EQ(f.positions.values.size(), 8u);  // 72 bytes of positions padded to 96
  EXPECT_EQ(f.short_normals.values.size(), 5u);
  ASSERT_EQ(f.surfaces.size(), 1u);
  const Surface& s = f.surfaces[0];
  ASSERT_EQ(s.primitives.size(), 3u);
  EXPECT_EQ(s.primitives[0].opcode, 0x9A);
  EXPECT_EQ(s.primitives[1].vertex_count, 4u);
  EXPECT_EQ(s.primitives[2].values, (std::vector<uint16_t>{0, 0, 2, 3, 2, 1, 1, 2, 4, 0, 0, 1}));
  EXPECT_EQ(SerializeCmdl(f), bytes);
}

void ExpectModel(const Scene& scene, bool short_uvs) {
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& mesh = scene.meshes[0];
  const auto expected = ExpectedTriangles();
  ASSERT_EQ(mesh.triangles.size(), expected.size() * 3);
  // Corner by corner: the display-list vertex each corner stands for.
  const std::vector<std::vector<Vtx>> corners = {{kStrip[0], kStrip[1], kStrip[2]}, {kStrip[2], kStrip[1], kStrip[3]},
                                                 {kFan[0], kFan[1], kFan[2]},       {kFan[0], kFan[2], kFan[3]},
                                                 {kList[0], kList[1], kList[2]}};
  for (size_t t = 0; t < expected.size(); ++t) {
    for (size_t k = 0; k < 3; ++k) {
      const uint32_t i = mesh.triangles[3 * t + k];
      ASSERT_LT(i, mesh.positions.size());
      const Vtx& v = corners[t][k];
      ASSERT_EQ(v.pos, expected[t][k]);
      const float* p = kPositions[v.pos];
      test::ExpectVec(mesh.positions[i], p[0], p[1], p[2]);
      const int16_t* n = kNormals[v.nrm];
      test::ExpectVec(mesh.normals[i], n[0] / 16384.0, n[1] / 16384.0, n[2] / 16384.0);
      const float u = short_uvs ? kShortUvs[v.uv0][0] / 32768.0f : kFloatUvs[v.uv0][0];
      const float w = short_uvs ? kShortUvs[v.uv0][1] / 32768.0f : kFloatUvs[v.uv0][1];
      EXPECT_FLOAT_EQ(mesh.uvs[i][0], u);
      EXPECT_FLOAT_EQ(mesh.uvs[i][1], w);
    }
  }
  // Vertices are the distinct (position, normal, UV) triples of the list.
  std::map<std::tuple<int, int, int>, int> distinct;
  for (const auto* vs : {&kStrip, &kFan, &kList})
    for (const Vtx& v : *vs) distinct[{v.pos, v.nrm, v.uv0}] = 0;
  EXPECT_EQ(mesh.positions.size(), distinct.size());
  ASSERT_EQ(scene.materials.size(), 1u);
  ASSERT_EQ(scene.textures.size(), 1u);
  EXPECT_EQ(scene.materials[0].texture, 0);
  EXPECT_EQ(scene.textures[0].name, "11223344");
  EXPECT_TRUE(scene.textures[0].Missing());
}

TEST(MetroidCmdl, hand_built_decodes_short_uvs) { ExpectModel(DecodeBytes(HandBuiltCmdl(kMaterialShortUvTex0)), true); }
TEST(MetroidCmdl, hand_built_decodes_float_uvs) { ExpectModel(DecodeBytes(HandBuiltCmdl(0)), false); }

TEST(MetroidCmdl, a_missing_texture_is_a_warning) {
  const Bytes bytes = HandBuiltCmdl(0);
  const auto dir = test::TempDir("metroid_cmdl_missing_texture");
  const std::string path = (dir / "model.CMDL").string();
  ReadContext context;
  context.path = path;
  auto doc = kMetroidCmdlFormat.read(bytes, context);
  const auto warnings = doc->Warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(test::Has(warnings[0], "11223344.TXTR"));
  EXPECT_TRUE(doc->Decode({}).textures[0].Missing());
}

// The hand-built file is laid out as LayOutCmdl lays out records: the same bytes again; a
// primitive dropped in code gives a file that reads back with the rest.
TEST(MetroidCmdl, lay_out_gives_the_layout_of_the_records) {
  const Bytes bytes = HandBuiltCmdl(0);
  CmdlFile f = ParseCmdl(bytes);
  LayOutCmdl(f);
  EXPECT_EQ(SerializeCmdl(f), bytes);
  f.surfaces[0].primitives.erase(f.surfaces[0].primitives.begin());
  f.positions.values.resize(6);
  LayOutCmdl(f);
  const CmdlFile again = ParseCmdl(SerializeCmdl(f));
  ASSERT_EQ(again.surfaces.at(0).primitives.size(), 2u);
  EXPECT_EQ(again.surfaces[0].primitives[1].values, f.surfaces[0].primitives[1].values);
  EXPECT_EQ(again.positions.values.size(), 8u);  // 72 bytes padded to 96
}

// Echoes (version 4): two u32s after the material's vertex flags, s16 matrix bank and u16
// group at surface 0x2C, the extra data at 0x30, the list at align32(0x30 + E).
TEST(MetroidCmdl, echoes_layout_reads_where_the_layout_puts_it) {
  CmdlFile f = ParseCmdl(HandBuiltCmdl(0));
  f.header.version = 4;
  f.material_sets[0].materials[0].mp2_unknown = {0xAAAA0001, 0xBBBB0002};
  f.surfaces[0].matrix_bank = -2;
  f.surfaces[0].group = 7;
  f.surfaces[0].extra = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
  LayOutCmdl(f);
  const Bytes bytes = SerializeCmdl(f);
  const CmdlFile again = ParseCmdl(bytes);
  EXPECT_EQ(SerializeCmdl(again), bytes);
  const size_t set = 0x60, surface = again.surfaces[0].at;
  auto be32 = [&](size_t at) { return uint32_t(bytes[at]) << 24 | uint32_t(bytes[at + 1]) << 16 | uint32_t(bytes[at + 2]) << 8 | bytes[at + 3]; };
  EXPECT_EQ(be32(set + 4 * 8), 0xAAAA0001u);  // after T, id, M, end, flags, n, slot, vertex flags
  EXPECT_EQ(be32(set + 4 * 9), 0xBBBB0002u);
  EXPECT_EQ(be32(surface + 0x2C), 0xFFFE0007u);
  EXPECT_EQ(bytes[surface + 0x30], 1);
  EXPECT_EQ(be32(surface + 0x1C), 20u);
  EXPECT_EQ(again.surfaces[0].list_at, surface + 0x60);  // align32(0x30 + 20)
  EXPECT_EQ(bytes[surface + 0x60], 0x9A);  // the strip
  ExpectModel(DecodeBytes(bytes), false);
}

TEST(MetroidCmdl, every_truncation_fails) {
  test::ExpectEveryTruncationFails(kMetroidCmdlFormat, HandBuiltCmdl(kMaterialShortUvTex0));
}

TEST(MetroidCmdl, every_corrupted_byte_is_an_error_or_valid) {
  test::ExpectEveryByteCorruptionHandled(kMetroidCmdlFormat, HandBuiltCmdl(kMaterialShortUvTex0));
}

void Put32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (24 - 8 * i));
}

// The error reading (and decoding) bytes gives, "" when none.
std::string ReadAndDecodeError(const Bytes& bytes) {
  return test::ErrorOf([&] { DecodeBytes(bytes); });
}

TEST(MetroidCmdl, corrupted_counts_and_offsets_name_the_offset) {
  const Bytes good = HandBuiltCmdl(0);
  const CmdlFile f = ParseCmdl(good);
  const size_t surface = f.surfaces[0].at, list = f.surfaces[0].list_at;
  const size_t set = 0x60;  // align32(0x2C + 8 x 4)
  struct Case {
    const char* what;
    size_t at;
    uint32_t value;
    size_t named;
    const char* says;
  };
  const Case cases[] = {
      {"magic", 0, 0xDEADBEEF, 0, "magic"},
      {"version", 4, 5, 4, "version 5"},
      {"section count", 0x24, 0x10000, 0x2c, "section sizes"},
      {"section count below the fixed sections", 0x24, 3, 0x24, "section count 3"},
      {"section size", 0x2C, 0x10000, 0x2c, "section 0"},
      {"texture id count", set, 0x1000000, set + 4, "texture id"},
      {"material end offset", set + 12, 0x1000, set + 12, "material 0 ends at 0x1000"},
      {"surface count", f.surfaces[0].at - 32, 2, f.surfaces[0].at - 32, "surface count 2"},
      {"surface material", surface + 0x0C, 1, surface + 0x0C, "material 1"},
      {"display list size", surface + 0x10, 0x1000, surface + 0x10, "display list"},
      {"extra size", surface + 0x1C, 0x1000, surface + 0x2C, "extra data"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Bytes bad = good;
    Put32(bad, c.at, c.value);
    const std::string error = ReadAndDecodeError(bad);
    EXPECT_TRUE(test::Has(error, Hex(c.named))) << error;
    EXPECT_TRUE(test::Has(error, c.says)) << error;
  }
  {  // an opcode that is no primitive
    Bytes bad = good;
    bad[list] = 0x50;
    const std::string error = ReadAndDecodeError(bad);
    EXPECT_TRUE(test::Has(error, Hex(list))) << error;
    EXPECT_TRUE(test::Has(error, "GX opcode 0x50")) << error;
  }
  {  // a vertex count past the list
    Bytes bad = good;
    bad[list + 1] = 0x40;
    EXPECT_TRUE(test::Has(ReadAndDecodeError(bad), "primitive vertices"));
  }
  {  // a position index past the array: the decode names the list
    Bytes bad = good;
    bad[list + 3] = 0x01;  // the strip's first position index: 0x0100
    const std::string error = ReadAndDecodeError(bad);
    EXPECT_TRUE(test::Has(error, Hex(list))) << error;
    EXPECT_TRUE(test::Has(error, "position 256")) << error;
  }
  {  // direct vertex data is not read
    Bytes bad = good;
    Put32(bad, set + 4 * 7, 0x1);
    EXPECT_TRUE(test::Has(ReadAndDecodeError(bad), "direct data"));
  }
}

void WriteFileBytes(const std::string& path, const Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A CINF of bones 3 (root, at the origin) and 4 (at x = 1); a CSKR whose group 0 (bone 3)
// covers positions 0-3 and group 1 (bone 3 a quarter, bone 4 three quarters) positions 4-5.
Bytes TwoBoneCinf() {
  Be c;
  c.U32(2);
  c.U32(3), c.U32(2), c.F32(0), c.F32(0), c.F32(0), c.U32(1), c.U32(4);
  c.U32(4), c.U32(3), c.F32(1), c.F32(0), c.F32(0), c.U32(1), c.U32(3);
  c.U32(2), c.U32(3), c.U32(4);
  c.U32(0);
  return c.b;
}
Bytes TwoGroupSkin() {
  Be s;
  s.U32(2);
  s.U32(1), s.U32(3), s.F32(1), s.U32(4);
  s.U32(2), s.U32(3), s.F32(0.25f), s.U32(4), s.F32(0.75f), s.U32(2);
  s.U32(0xFFFFFFFF), s.U32(6), s.U32(0xFFFFFFFF), s.U32(2);
  return s.b;
}

void ExpectSkinned(const Scene& scene) {
  ASSERT_EQ(scene.skeleton.joints.size(), 2u);
  const int bone3 = scene.skeleton.Find("#3"), bone4 = scene.skeleton.Find("#4");
  ASSERT_GE(bone3, 0);
  ASSERT_GE(bone4, 0);
  const Mesh& mesh = scene.meshes.at(0);
  ASSERT_EQ(mesh.joints.size(), mesh.positions.size());
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    SCOPED_TRACE(v);
    EXPECT_EQ(mesh.joints[v][0], bone3);
    if (mesh.positions[v].x == 2) {  // positions 4 and 5
      EXPECT_EQ(mesh.joints[v][1], bone4);
      EXPECT_FLOAT_EQ(mesh.weights[v][0], 0.25f);
      EXPECT_FLOAT_EQ(mesh.weights[v][1], 0.75f);
    } else {
      EXPECT_FLOAT_EQ(mesh.weights[v][0], 1);
      EXPECT_FLOAT_EQ(mesh.weights[v][1], 0);
    }
  }
}

TEST(MetroidCmdl, a_cskr_beside_the_model_skins_it_by_cinf_bone_ids) {
  const auto dir = test::TempDir("metroid_cmdl_skin");
  const Bytes model = HandBuiltCmdl(0);
  const Scene cinf = metroid::DecodeCinf(metroid::ParseCinf(TwoBoneCinf()), metroid::RestRule::Relative);
  WriteFileBytes((dir / "other.cskr").string(), TwoGroupSkin());
  ReadContext context;
  context.path = (dir / "model.CMDL").string();
  // Not named and no model.CSKR: unskinned.
  EXPECT_FALSE(kMetroidCmdlFormat.read(model, context)->Decode({&cinf, {}}).meshes[0].Skinned());
  context.options.Set("metroid-skin", "OTHER.CSKR");
  ExpectSkinned(kMetroidCmdlFormat.read(model, context)->Decode({&cinf, {}}));
  // Without the CINF there are no bones to name: unskinned.
  EXPECT_FALSE(kMetroidCmdlFormat.read(model, context)->Decode({}).meshes[0].Skinned());
  // The stem rule.
  WriteFileBytes((dir / "model.CSKR").string(), TwoGroupSkin());
  context.options = {};
  ExpectSkinned(kMetroidCmdlFormat.read(model, context)->Decode({&cinf, {}}));
}

TEST(MetroidCmdl, a_skin_of_too_few_positions_or_unknown_bones_is_an_error) {
  const CmdlFile f = ParseCmdl(HandBuiltCmdl(0));
  const Scene cinf = metroid::DecodeCinf(metroid::ParseCinf(TwoBoneCinf()), metroid::RestRule::Relative);
  CskrFile skin = ParseCskr(TwoGroupSkin());
  std::vector<std::string> warnings;
  ExpectSkinned(DecodeCmdl(f, {{}, &skin, &cinf}, warnings));
  skin.groups[1].vertex_count = 1;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { DecodeCmdl(f, {{}, &skin, &cinf}, warnings); }), "cover 5 positions"));
  skin = ParseCskr(TwoGroupSkin());
  skin.groups[1].weights[1].bone_id = 9;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { DecodeCmdl(f, {{}, &skin, &cinf}, warnings); }), "bone 9"));
}

}  // namespace
}  // namespace animkit
