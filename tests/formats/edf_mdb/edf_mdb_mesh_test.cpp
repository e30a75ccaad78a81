// EDF MDB meshes, materials and textures: hand-built bytes with expected values from the
// layout (docs/formats/edf_mdb.md), the model writer read back, and the real EDF5 fixture.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

#include <cstdio>
#include <fstream>

namespace animkit {
extern const FormatDescriptor kEdfMdbFormat;
namespace {

using test::ExpectVec;
using test::Has;

struct Builder : test::LittleEndianBuilder {
  void Patch(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
  }
  void Ascii(const char* s) {
    for (; *s; ++s) b.push_back(uint8_t(*s));
    b.push_back(0);
  }
  void Matrix(float tx, float ty, float tz) {
    for (int i = 0; i < 12; ++i) F32(i % 5 == 0 ? 1.0f : 0.0f);
    F32(tx), F32(ty), F32(tz), F32(1);
  }
};

// Bones "root" (identity) and "arm" (child, rest at y = 1; its inverse bind at y = -bind_y);
// object "body" of one mesh: three vertices, each element type once: half4 position, float3
// normal, float2 texcoord, ubyte4 colour, ubyte4 bone indices, float4 weights (stride 52).
// Material "skin" (shader "sh") whose "albedo" slot is texture 0, "tex.dds".
Bytes GoldenModel(float bind_y = 1, uint32_t version = 0x14, const char* texcoord = "texcoord") {
  Builder w;
  w.b = {'M', 'D', 'B', '0'};
  for (uint32_t v : {version, 4u, 0x30u, 2u, 0x40u, 1u, 0x1C0u, 1u, 0x258u, 1u, 0x294u}) w.U32(v);
  std::vector<std::pair<size_t, size_t>> wide, narrow;  // (field, record) of each string
  std::vector<std::string> wide_text, narrow_text;
  auto str16 = [&](size_t record, std::string s) { wide.push_back({w.size(), record}), wide_text.push_back(s), w.U32(0); };
  auto str8 = [&](size_t record, std::string s) { narrow.push_back({w.size(), record}), narrow_text.push_back(s), w.U32(0); };
  for (const char* s : {"root", "arm", "body", "skin"}) str16(w.size(), s);
  auto bone = [&](uint32_t i, int32_t parent, int32_t child, float local_y, float inv_y) {
    w.U32(i), w.U32(uint32_t(parent)), w.U32(0xFFFFFFFF), w.U32(uint32_t(child)), w.U32(i), w.U32(child < 0 ? 0 : 1);
    w.b.insert(w.b.end(), {3, 0, 0, 0, 0, 0, 0, 0});
    w.Matrix(0, local_y, 0), w.Matrix(0, inv_y, 0);
    for (int k = 0; k < 8; ++k) w.F32(0);
  };
  bone(0, -1, 1, 0, 0);
  bone(1, 0, -1, 1, -bind_y);
  EXPECT_EQ(w.size(), 0x1C0u);
  w.U32(0), w.U32(2), w.U32(1), w.U32(0x10);  // object: index, name "body", 1 mesh at +0x10
  EXPECT_EQ(w.size(), 0x1D0u);                 // mesh record
  w.b.insert(w.b.end(), {0, 1, 2, 0});
  w.U32(0), w.U32(0), w.U32(0x28), w.U16(52), w.U16(6), w.U32(3), w.U32(0);
  w.U32(0x300 - 0x1D0), w.U32(3), w.U32(0x39C - 0x1D0);
  const std::pair<uint32_t, const char*> elements[] = {{7, "position"}, {4, "normal"}, {12, texcoord},
                                                       {21, "color"}, {21, "BLENDINDICES"}, {1, "BLENDWEIGHT"}};
  const uint32_t offsets[] = {0, 8, 20, 28, 32, 36};
  for (size_t i = 0; i < 6; ++i) {
    const size_t rec = w.size();
    w.U32(elements[i].first), w.U32(offsets[i]), w.U32(0);
    str8(rec, elements[i].second);
  }
  EXPECT_EQ(w.size(), 0x258u);  // material
  w.U16(0), w.U16(0), w.U32(3);
  str16(0x258, "sh");
  w.U32(0x20), w.U32(0), w.U32(0x20), w.U32(1), w.U32(0);
  w.U32(0);  // slot: texture 0, "albedo", sampler zeros
  str8(0x278, "albedo");
  for (int k = 0; k < 5; ++k) w.U32(0);
  EXPECT_EQ(w.size(), 0x294u);  // texture record
  w.U32(0);
  str16(0x294, "tex");
  str16(0x294, "tex.dds");
  w.U32(0);
  while (w.size() < 0x300) w.b.push_back(0);
  const uint16_t halves[3][4] = {{0x3C00, 0x4000, 0xB800, 0x3C00}, {0x3800, 0, 0x3C00, 0x3C00}, {0, 0x3400, 0, 0x3C00}};
  for (int v = 0; v < 3; ++v) {
    for (uint16_t h : halves[v]) w.U16(h);
    w.F32(0), w.F32(0), w.F32(2);               // normal
    w.F32(0.25f), w.F32(0.75f);                 // uv
    w.b.insert(w.b.end(), {255, 0, 51, 255});   // colour
    w.b.insert(w.b.end(), {1, 0, 1, 0});        // bones arm, root, (arm with weight 0)
    w.F32(3), w.F32(1), w.F32(0), w.F32(0);     // weights 3:1
  }
  EXPECT_EQ(w.size(), 0x39Cu);
  w.U16(0), w.U16(1), w.U16(2), w.U16(0);
  for (size_t i = 0; i < wide.size(); ++i) w.Patch(wide[i].first, uint32_t(w.size() - wide[i].second)), w.Str(wide_text[i].c_str());
  for (size_t i = 0; i < narrow.size(); ++i)
    w.Patch(narrow[i].first, uint32_t(w.size() - narrow[i].second)), w.Ascii(narrow_text[i].c_str());
  return w.b;
}

Scene DecodeBytes(ByteView bytes, const std::string& path = "", std::vector<std::string>* warnings = nullptr) {
  auto doc = kEdfMdbFormat.read(bytes, ReadContext{{}, path, {}});
  EXPECT_TRUE(doc->Damaged().empty()) << (doc->Damaged().empty() ? "" : doc->Damaged()[0]);
  if (warnings) *warnings = doc->Warnings();
  return doc->Decode(DecodeContext{});
}

TEST(EdfMdbMesh, DecodesEachStoredTypeOfTheLayout) {
  std::vector<std::string> warnings;
  const Scene s = DecodeBytes(GoldenModel(), "", &warnings);
  ASSERT_EQ(s.meshes.size(), 1u);
  const Mesh& m = s.meshes[0];
  EXPECT_EQ(m.name, "body");
  EXPECT_EQ(m.joint, -1);
  ASSERT_EQ(m.positions.size(), 3u);
  ExpectVec(m.positions[0], 1, 2, -0.5);
  ExpectVec(m.positions[1], 0.5, 0, 1);
  ExpectVec(m.positions[2], 0, 0.25, 0);
  ExpectVec(m.normals[1], 0, 0, 1);
  EXPECT_FLOAT_EQ(m.uvs[2][0], 0.25f);
  EXPECT_FLOAT_EQ(m.uvs[2][1], 0.75f);
  EXPECT_FLOAT_EQ(m.colors[0][2], 0.2f);
  EXPECT_FLOAT_EQ(m.colors[0][3], 1.0f);
  EXPECT_EQ(m.joints[0], (std::array<uint16_t, 4>{1, 0, 0, 0}));  // the zero-weight third points at 0
  EXPECT_FLOAT_EQ(m.weights[0][0], 0.75f);
  EXPECT_FLOAT_EQ(m.weights[0][1], 0.25f);
  EXPECT_EQ(m.triangles, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(m.material, 0);
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.materials[0].name, "skin");
  EXPECT_EQ(s.materials[0].texture, 0);
  EXPECT_EQ(s.materials[0].metadata["shader"], "sh");
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.textures[0].name, "tex.dds");
  EXPECT_TRUE(s.textures[0].Missing());
  ASSERT_EQ(warnings.size(), 1u);
  Has(warnings[0], "texture 'tex.dds'");
}

// EDF6 (0x20) by the add-on: the same records, element names upper case. Hand-built: no real
// EDF6 model was at hand.
TEST(EdfMdbMesh, ReadsTheEdf6VersionWithUpperCaseElementNames) {
  const Scene s = DecodeBytes(GoldenModel(1, 0x20, "TEXCOORD"));
  ASSERT_EQ(s.meshes.size(), 1u);
  ASSERT_EQ(s.meshes[0].uvs.size(), 3u);
  EXPECT_FLOAT_EQ(s.meshes[0].uvs[0][1], 0.75f);
  EXPECT_EQ(s.metadata["mdb_version"], 0x20);
}

TEST(EdfMdbMesh, MovesVerticesFromTheStoredBindPoseToTheRestPose) {
  // arm bound at y = 2, rest at y = 1: a vertex 3/4 on arm moves down by 0.75.
  const Scene s = DecodeBytes(GoldenModel(2));
  ASSERT_EQ(s.meshes.size(), 1u);
  ExpectVec(s.meshes[0].positions[0], 1, 1.25, -0.5, 1e-5);
  EXPECT_EQ(s.meshes[0].metadata["moved_to_rest"], true);
}

TEST(EdfMdbMesh, BytesStayAsReadAndEveryTruncationIsAnErrorOrADamagedMesh) {
  const Bytes golden = GoldenModel();
  test::ExpectByteExactRoundTrip(kEdfMdbFormat, golden);
  for (size_t len = 0; len < golden.size(); ++len) {
    const Bytes prefix(golden.begin(), golden.begin() + std::ptrdiff_t(len));
    try {
      auto doc = kEdfMdbFormat.read(prefix, {});
      EXPECT_FALSE(doc->Damaged().empty()) << "a truncation to " << len << " read without complaint";
      (void)doc->Decode(DecodeContext{});
    } catch (const Error& e) {
      EXPECT_TRUE(e.byte_offset().has_value()) << e.what();
    }
  }
  Bytes bad = golden;
  bad[0x1D0 + 0x14] = 0xFF;  // vertex count 255: the buffer runs past the file
  auto doc = kEdfMdbFormat.read(bad, {});
  ASSERT_EQ(doc->Damaged().size(), 1u);
  Has(doc->Damaged()[0], "offset 0x300: vertex buffer: count 255 of 52-byte entries");
  EXPECT_TRUE(doc->Decode(DecodeContext{}).meshes.empty());
  bad = golden;
  bad[0x39C + 2] = 9;  // index 9 of 3 vertices
  doc = kEdfMdbFormat.read(bad, {});
  ASSERT_EQ(doc->Damaged().size(), 1u);
  Has(doc->Damaged()[0], "offset 0x39e: index 9 past the 3 vertices");
  test::ExpectEveryByteCorruptionHandled(kEdfMdbFormat, golden, 0x300);
}

// One BC1 block: colour 0 red (0xF800), colour 1 blue (0x001F), row 0 uses indices 0..3.
Bytes Bc1Dds(const char fourcc[4] = "DXT1") {
  Builder w;
  w.b = {'D', 'D', 'S', ' '};
  w.U32(124), w.U32(0x81007), w.U32(4), w.U32(4), w.U32(8), w.U32(0), w.U32(1);
  for (int i = 0; i < 11; ++i) w.U32(0);
  w.U32(32), w.U32(4);
  for (int i = 0; i < 4; ++i) w.b.push_back(uint8_t(fourcc[i]));
  for (int i = 0; i < 5; ++i) w.U32(0);
  w.U32(0x1000);
  for (int i = 0; i < 4; ++i) w.U32(0);
  w.U16(0xF800), w.U16(0x001F);
  w.b.insert(w.b.end(), {0xE4, 0, 0, 0});
  return w.b;
}

TEST(EdfMdbDds, DecodesABc1BlockToItsColours) {
  const Image image = edf_mdb::DecodeDds(Bc1Dds(), "red.dds");
  ASSERT_EQ(image.rgba.size(), 64u);
  EXPECT_EQ(image.source_format, "BC1");
  const int expected[4][3] = {{255, 0, 0}, {0, 0, 255}, {170, 0, 85}, {85, 0, 170}};  // c0, c1, 2/3 c0, 1/3 c0
  for (int x = 0; x < 4; ++x)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(image.rgba[size_t(x * 4 + c)], expected[x][c], 1) << x << "," << c;
  EXPECT_EQ(image.rgba[4 * 4 + 0], 255);  // row 1: index 0
  EXPECT_EQ(image.rgba[3], 255);
}

TEST(EdfMdbDds, DecodesMaskedPixelsAndNamesWhatItCannotDecode) {
  Builder w;
  w.b = {'D', 'D', 'S', ' '};
  w.U32(124), w.U32(0x100F), w.U32(1), w.U32(2), w.U32(6), w.U32(0), w.U32(1);
  for (int i = 0; i < 11; ++i) w.U32(0);
  w.U32(32), w.U32(0x40), w.U32(0), w.U32(24), w.U32(0xFF0000), w.U32(0xFF00), w.U32(0xFF), w.U32(0);  // BGR 24-bit
  w.U32(0x1000);
  for (int i = 0; i < 4; ++i) w.U32(0);
  w.b.insert(w.b.end(), {10, 20, 30, 40, 50, 60});
  const Image image = edf_mdb::DecodeDds(w.b, "bgr.dds");
  EXPECT_EQ(image.rgba, (std::vector<uint8_t>{30, 20, 10, 255, 60, 50, 40, 255}));
  Bytes truncated = w.b;
  truncated.pop_back();
  try {
    edf_mdb::DecodeDds(truncated, "bgr.dds");
    ADD_FAILURE() << "a short pixel block was accepted";
  } catch (const Error& e) {
    Has(e.what(), "offset 0x80");
  }
  Bytes bc7 = Bc1Dds("DX10");
  bc7.insert(bc7.begin() + 128, {98, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0});
  const Image missing = edf_mdb::DecodeDds(bc7, "bc7.dds");
  EXPECT_TRUE(missing.Missing());
  Has(missing.missing, "BC7");
  const Bytes bc1 = Bc1Dds();
  for (size_t len = 0; len < bc1.size(); ++len) {
    EXPECT_THROW(edf_mdb::DecodeDds(ByteView(bc1.data(), len), "cut.dds"), Error) << len;
  }
}

TEST(EdfMdbDds, EveryCorruptedByteIsAnErrorAnImageOrAMissingReason) {
  const Bytes bc1 = Bc1Dds();
  for (size_t i = 0; i < bc1.size(); ++i)
    for (uint8_t v : {0x00, 0x01, 0x7F, 0x80, 0xFF}) {
      Bytes bad = bc1;
      bad[i] = v;
      try {
        const Image image = edf_mdb::DecodeDds(bad, "bad.dds");
        EXPECT_TRUE(image.Missing() ? !image.missing.empty() : image.rgba.size() == size_t(image.width) * image.height * 4)
            << "byte " << i << " = " << int(v);
      } catch (const Error&) {
      }
    }
}

TEST(EdfMdbMesh, TheSampleSoldierIsSkinnedAndTextured) {
  const std::string path = test::SourcePath("samples/edf_mdb/soldier.mdb");
  std::vector<std::string> warnings;
  const Scene s = DecodeBytes(ReadFileBytes(path), path, &warnings);
  EXPECT_TRUE(warnings.empty());
  ASSERT_EQ(s.meshes.size(), 1u);
  const size_t bones = s.skeleton.joints.size() - 1;  // a ribbon quad per bone with a parent
  EXPECT_EQ(s.meshes[0].positions.size(), 4 * bones);
  EXPECT_EQ(s.meshes[0].triangles.size(), 6 * bones);
  EXPECT_TRUE(s.meshes[0].Skinned());
  ASSERT_EQ(s.textures.size(), 1u);
  ASSERT_FALSE(s.textures[0].Missing()) << s.textures[0].missing;
  EXPECT_EQ(s.textures[0].source_format, "BC1");
  EXPECT_EQ(s.textures[0].width, 8u);
  // The checks' two colours, through BC1's 5:6:5 endpoints: olive (96, 112, 48) at (0, 0).
  EXPECT_NEAR(s.textures[0].rgba[0], 96, 8);
  EXPECT_NEAR(s.textures[0].rgba[1], 112, 8);
  EXPECT_NEAR(s.textures[0].rgba[2], 48, 8);
  EXPECT_EQ(s.materials[0].texture, 0);
}

TEST(EdfMdbMesh, FindsTexturesInTheModelsFolderOnly) {
  const auto dir = test::TempDir("edf_mdb_textures");
  std::filesystem::create_directories(dir / "model");
  Image red{"tex", 4, 4, std::vector<uint8_t>(64, 255), "", ""};
  for (size_t i = 0; i < 16; ++i) red.rgba[i * 4 + 1] = red.rgba[i * 4 + 2] = 0;
  const Bytes dds = edf_mdb::EncodeDds(red, edf_mdb::DdsEncoding::Bgra8);
  std::ofstream(dir / "tex.dds", std::ios::binary).write(reinterpret_cast<const char*>(dds.data()), std::streamsize(dds.size()));
  const std::string model = (dir / "model" / "m.mdb").string();
  Scene s = DecodeBytes(GoldenModel(), model);
  EXPECT_TRUE(s.textures[0].Missing()) << "a texture outside the model's folder was read";
  std::ofstream(dir / "model" / "TEX.DDS", std::ios::binary).write(reinterpret_cast<const char*>(dds.data()), std::streamsize(dds.size()));
  s = DecodeBytes(GoldenModel(), model);
  ASSERT_FALSE(s.textures[0].Missing()) << s.textures[0].missing;
  EXPECT_EQ(s.textures[0].rgba, red.rgba);
  EXPECT_EQ(s.textures[0].name, "tex.dds");
}

// The new-model writer (what `animkit convert x.glb y.mdb` runs) over the decoded golden model:
// every value the stock layout stores exactly comes back.
TEST(EdfMdbMesh, TheModelWriterReadsBack) {
  const Scene s = DecodeBytes(GoldenModel());
  ASSERT_EQ(s.meshes.size(), 1u);
  for (uint32_t version : {edf_mdb::kVersionEdf5, edf_mdb::kVersionEdf6}) {
    edf_mdb::WriteOptions options;
    options.version = version;
    const Scene b = DecodeBytes(edf_mdb::WriteModel(s, options).mdb);
    ASSERT_EQ(b.meshes.size(), 1u);
    EXPECT_EQ(b.meshes[0].positions, s.meshes[0].positions);  // halves: exact
    EXPECT_EQ(b.meshes[0].joints, s.meshes[0].joints);
    EXPECT_EQ(b.meshes[0].weights, s.meshes[0].weights);
    EXPECT_EQ(b.meshes[0].uvs, s.meshes[0].uvs);
    EXPECT_EQ(b.meshes[0].colors, s.meshes[0].colors);
    EXPECT_EQ(b.meshes[0].triangles, s.meshes[0].triangles);
    EXPECT_EQ(b.materials.size(), s.materials.size());
    for (size_t i = 0; i < std::min(b.materials.size(), s.materials.size()); ++i) {
      EXPECT_EQ(b.materials[i].name, s.materials[i].name);
      EXPECT_EQ(b.materials[i].texture, s.materials[i].texture);
      EXPECT_EQ(b.materials[i].metadata["shader"], s.materials[i].metadata["shader"]);
    }
    EXPECT_EQ(b.textures.size(), s.textures.size());
    if (!b.textures.empty() && !s.textures.empty()) {
      EXPECT_EQ(b.textures[0].name, s.textures[0].name);  // "tex.dds"
    }
  }
}

TEST(EdfMdbMesh, TheRealEdf5ModelDecodes) {
  const std::string path = test::FixturePath("edf/airtortoise_missile.mdb");
  if (path.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  auto doc = kEdfMdbFormat.read(ReadFileBytes(path), ReadContext{{}, path, {}});
  EXPECT_TRUE(doc->Damaged().empty());
  const Scene s = doc->Decode(DecodeContext{});
  size_t vertices = 0, triangles = 0;
  for (const Mesh& m : s.meshes) vertices += m.positions.size(), triangles += m.triangles.size() / 3;
  std::printf("airtortoise_missile.mdb: %zu meshes, %zu vertices, %zu triangles, %zu materials, %zu textures\n",
              s.meshes.size(), vertices, triangles, s.materials.size(), s.textures.size());
  for (const Image& t : s.textures) std::printf("  texture %s: %s\n", t.name.c_str(), t.Missing() ? t.missing.c_str() : "decoded");
  ASSERT_EQ(s.meshes.size(), 1u);
  EXPECT_EQ(vertices, 692u);   // mesh record: vertex count at +0x14
  EXPECT_EQ(triangles, 602u);  // 1806 indices
  EXPECT_EQ(s.meshes[0].joint, 1);  // object "airtortoise_missile" is bone 1's name: rigid
  EXPECT_EQ(s.meshes[0].uvs.size(), 692u);
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.materials[0].texture, 0);  // the "albedo" slot
  ASSERT_EQ(s.textures.size(), 3u);
  EXPECT_EQ(s.textures[0].name, "Air_Tortoisedf.dds");
}

}  // namespace
}  // namespace animkit
