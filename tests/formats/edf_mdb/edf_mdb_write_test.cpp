// The MDB writer: a small model's bytes against the layout (docs/formats/edf_mdb.md "Writing
// models"), the stock order reproduced from a real file's records, edits read back, limits.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace animkit {
extern const FormatDescriptor kEdfMdbFormat;
extern const FormatDescriptor kEdfRabFormat;
namespace {

using test::ErrorOf;


// Decoded as the format reads it: no damaged record, no warning but missing textures.
// path: where its textures are looked for ("": nowhere).
Scene Read(const Bytes& bytes, const std::string& path = "") {
  auto doc = kEdfMdbFormat.read(bytes, ReadContext{{}, path, {}});
  EXPECT_TRUE(doc->Damaged().empty()) << doc->Damaged().front();
  for (const std::string& w : doc->Warnings())
    if (w.find("texture") != 0) ADD_FAILURE() << w;
  return doc->Decode(DecodeContext{});
}

// Index and vertex buffers 16-aligned, and the file laid out in the stock order (writing its
// records again gives the same bytes: pools sorted and unique, tables in order).
void ExpectStockLayout(const Bytes& bytes) {
  const edf_mdb::File f = edf_mdb::Parse(bytes);
  const edf_mdb::Model model = edf_mdb::ParseModel(f);
  EXPECT_TRUE(model.damaged.empty());
  for (const auto& o : model.objects)
    for (const auto& m : o.meshes) {
      EXPECT_EQ((m.at + m.vertex_at) % 16, 0u);
      EXPECT_EQ((m.at + m.index_at) % 16, 0u);
    }
  EXPECT_EQ(edf_mdb::WriteStored(edf_mdb::ReadStored(f)), bytes);
}

}  // namespace

// A material parameter, 0x20 bytes: f32[4] values, two more words, the offset of its 8-bit
// name from the record, the type word (component count << 8 | kind: 2 = float3/colour).
TEST(EdfMdbWrite, AParameterRecordIsItsLayout) {
  edf_mdb::StoredFile s;
  edf_mdb::StoredMaterial m;
  m.shader = u"sh";
  edf_mdb::StoredParameter p;
  p.values = {1.0f, 0.5f, 0.25f, -2.0f};
  p.extra = {0x11223344u, 5u};
  p.name = "diffuse";
  p.type = 0x402;
  m.parameters = {p};
  s.materials = {m};
  s.names = {u"m"};
  const Bytes bytes = edf_mdb::WriteStored(s);
  const uint32_t material = le::Load32At(bytes, 0x24), at = material + le::Load32At(bytes, material + 0x0C);
  EXPECT_EQ(le::Load32At(bytes, material + 0x10), 1u);  // parameter count
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(le::LoadF32At(bytes, at + 4 * i), p.values[i]);
  EXPECT_EQ(le::Load32At(bytes, at + 0x10), 0x11223344u);
  EXPECT_EQ(le::Load32At(bytes, at + 0x14), 5u);
  const uint32_t name = at + le::Load32At(bytes, at + 0x18);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data() + name)), "diffuse");
  EXPECT_EQ(le::Load32At(bytes, at + 0x1C), 0x402u);

  const edf_mdb::File f = edf_mdb::Parse(bytes);
  const edf_mdb::Model model = edf_mdb::ParseModel(f);
  ASSERT_TRUE(model.damaged.empty()) << model.damaged.front();
  const edf_mdb::StoredParameter& q = model.materials.at(0).parameters.at(0);
  EXPECT_EQ(q.values, p.values);
  EXPECT_EQ(q.extra, p.extra);
  EXPECT_EQ(q.name, "diffuse");
  EXPECT_EQ(q.Count(), 4u);
  EXPECT_EQ(edf_mdb::WriteStored(edf_mdb::ReadStored(f)), bytes);
  // The decoded material lists the first Count() values.
  const Scene decoded = Read(bytes);
  const Value& values = decoded.materials.at(0).metadata["parameters"]["diffuse"];
  ASSERT_EQ(values.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(values[i].get<float>(), p.values[i]);
}

// The real EDF5 model's parameters: "diffuse" a colour of 4 components (0x402), "specular_pow"
// a float (0x100), the two words after the values zero.
TEST(EdfMdbWrite, TheRealModelsParametersReadByTheLayout) {
  const std::string path = test::FixturePath("edf/airtortoise_missile.mdb");
  if (path.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  const edf_mdb::Model model = edf_mdb::ParseModel(edf_mdb::Parse(ReadFileBytes(path)));
  ASSERT_EQ(model.materials.size(), 1u);
  const auto& params = model.materials[0].parameters;
  ASSERT_EQ(params.size(), 9u);
  EXPECT_EQ(params[0].name, "diffuse");
  EXPECT_EQ(params[0].type, 0x402u);
  EXPECT_EQ(params[0].values, (std::array<float, 4>{1, 1, 1, 0}));
  EXPECT_EQ(params[2].name, "specular_pow");
  EXPECT_EQ(params[2].type, 0x100u);
  EXPECT_EQ(params[2].values[0], 100.0f);
  for (const auto& q : params) EXPECT_EQ(q.extra, (std::array<uint32_t, 2>{0, 0})) << q.name;
}

namespace {

Scene Triangle() {
  Scene s;
  s.skeleton.joints = {{"root", -1, {}}};
  Mesh m;
  m.name = "tri";
  m.joint = 0;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  m.uvs = {{0, 0}, {1, 0}, {0, 1}};
  m.triangles = {0, 1, 2};
  m.material = 0;
  s.meshes.push_back(m);
  s.materials.push_back(Material{.name = "m"});
  return s;
}

// Offsets from the stock order: header 0x30, 3 names, 1 bone (0xC0), no textures, 1 material
// (0x20), 1 object (0x10), 1 mesh (0x28) and its 6 elements (0x60), indices at 0x1C0,
// vertices (48 bytes each) at 0x1D0, the 8-bit pool at 0x260, the UTF-16 pool at 0x28A.
TEST(EdfMdbWrite, ANewEdf6ModelHasTheStockLayoutByteForByte) {
  edf_mdb::WriteOptions options;
  options.version = edf_mdb::kVersionEdf6;
  const edf_mdb::WriteResult r = edf_mdb::WriteModel(Triangle(), options);
  const Bytes& b = r.mdb;
  ASSERT_EQ(b.size(), 0x2C6u);
  EXPECT_EQ(std::memcmp(b.data(), "MDB0", 4), 0);
  const uint32_t header[] = {0x20, 3, 0x30, 1, 0x3C, 1, 0x11C, 1, 0xFC, 0, 0xFC};
  for (size_t i = 0; i < 11; ++i) EXPECT_EQ(le::Load32At(b, 4 + 4 * i), header[i]) << "header word " << i;
  EXPECT_EQ(le::Load32At(b, 0x30), 0x28Eu - 0x30);  // "root"
  EXPECT_EQ(le::Load32At(b, 0x34), 0x28Au - 0x34);  // "m"
  EXPECT_EQ(le::Load32At(b, 0x38), 0x28Eu - 0x38);  // the object's name slot: its bone's name
  EXPECT_EQ(le::Load32At(b, 0x3C + 4), 0xFFFFFFFFu);  // no parent
  EXPECT_EQ(b[0x3C + 0x18], 1);                 // kind: a rigid mesh's bone
  EXPECT_EQ(b[0x3C + 0x19], 0);                 // last bone: its own depth
  EXPECT_EQ(b[0x3C + 0x1A], 1);                 // bounded
  EXPECT_EQ(le::LoadF32At(b, 0x3C + 0xA0), 0.5f);       // half size x
  EXPECT_EQ(le::LoadF32At(b, 0x3C + 0xB4), 0.5f);       // centre y
  EXPECT_EQ(le::Load32At(b, 0xFC + 8), 0x298u - 0xFC);  // shader
  EXPECT_EQ(le::Load32At(b, 0xFC + 0xC), 0x20u);
  EXPECT_EQ(le::Load32At(b, 0xFC + 0x1C), 3u);
  EXPECT_EQ(le::Load32At(b, 0x11C), 2u);  // EDF 6: the object's name slot
  EXPECT_EQ(le::Load32At(b, 0x11C + 0xC), 0x10u);
  const size_t mesh = 0x12C;
  EXPECT_EQ(le::Load32At(b, mesh + 0xC), 0x28u);
  EXPECT_EQ(le::Load16At(b, mesh + 0x10), 48u);
  EXPECT_EQ(le::Load16At(b, mesh + 0x12), 6u);
  EXPECT_EQ(le::Load32At(b, mesh + 0x14), 3u);
  EXPECT_EQ(le::Load32At(b, mesh + 0x1C), 0x1D0u - mesh);
  EXPECT_EQ(le::Load32At(b, mesh + 0x20), 3u);
  EXPECT_EQ(le::Load32At(b, mesh + 0x24), 0x1C0u - mesh);
  EXPECT_EQ(le::Load32At(b, 0x154), 7u);                   // position half4
  EXPECT_EQ(le::Load32At(b, 0x154 + 0xC), 0x270u - 0x154);  // "position" after "binormal", "normal"
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&b[0x260])), "binormal");
  EXPECT_EQ(le::Load16At(b, 0x1C2), 1u);
  const size_t v1 = 0x1D0 + 48;
  const uint16_t halves[] = {0x3C00, 0, 0, 0x3C00, 0, 0, 0x3C00, 0x3C00, 0, 0xBC00, 0, 0x3C00, 0x3C00, 0, 0, 0x3C00};
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(le::Load16At(b, v1 + 2 * i), halves[i]) << "half " << i;  // EDF 6: binormal -dP/dv
  EXPECT_EQ(le::LoadF32At(b, v1 + 32), 1.0f);
  EXPECT_EQ(le::LoadF32At(b, v1 + 40), 1.0f);  // texcoord 1: the same uv
  EXPECT_EQ(le::Load16At(b, 0x28A), 'm');
  ExpectStockLayout(b);
  const Scene s = Read(b);
  ASSERT_EQ(s.meshes.size(), 1u);
  EXPECT_EQ(s.meshes[0].positions, Triangle().meshes[0].positions);
}

TEST(EdfMdbWrite, TheRealFilesRecordsGiveItsBytesInTheStockOrder) {
  const Bytes bytes = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (bytes.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  EXPECT_EQ(edf_mdb::WriteStored(edf_mdb::ReadStored(edf_mdb::Parse(bytes))), bytes);
}

// The stock bounds of a rigid mesh's bone are the box of its vertices (as stored, before
// half rounding: within one half step).
TEST(EdfMdbWrite, TheRealFilesBoneBoundsAreItsVerticesBox) {
  const Bytes bytes = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (bytes.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  const Mesh m = Read(bytes).meshes[0];
  Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (const Vec3& p : m.positions) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  const size_t at = 0x11C + 0xA0;  // bone 1 (its object's bone)
  EXPECT_NEAR(le::LoadF32At(bytes, at), (hi.x - lo.x) / 2, 5e-4);
  EXPECT_NEAR(le::LoadF32At(bytes, at + 8), (hi.z - lo.z) / 2, 5e-4);
  EXPECT_NEAR(le::LoadF32At(bytes, at + 24), (hi.z + lo.z) / 2, 5e-4);
}

TEST(EdfMdbWrite, AnUneditedSceneWritesTheTemplateByteForByte) {
  const Bytes bytes = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (bytes.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  const edf_mdb::WriteResult r = edf_mdb::WriteModel(Read(bytes), edf_mdb::Parse(bytes), {});
  EXPECT_EQ(r.mdb, bytes);
  EXPECT_EQ(r.kept_meshes, 1u);
  EXPECT_TRUE(r.textures.empty());
}

TEST(EdfMdbWrite, MovedVerticesAndAChangedUvAreRebuiltInTheDeclaredLayout) {
  const Bytes bytes = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (bytes.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  const Scene original = Read(bytes);
  Scene edited = original;
  Mesh& m = edited.meshes[0];
  for (size_t v = 0; v < 10; ++v) m.positions[v].x += 0.25f;
  m.uvs[20] = {0.125f, 0.5f};
  const edf_mdb::WriteResult r = edf_mdb::WriteModel(edited, edf_mdb::Parse(bytes), {});
  EXPECT_EQ(r.rebuilt_meshes, 1u);
  ASSERT_EQ(r.mdb.size(), bytes.size());  // same counts and layout: same places
  ExpectStockLayout(r.mdb);
  const Scene back = Read(r.mdb);
  const Mesh& b = back.meshes[0];
  for (size_t v = 0; v < 10; ++v) EXPECT_NEAR(b.positions[v].x, m.positions[v].x, 4.9e-4 * std::max(1.0f, std::fabs(m.positions[v].x)));
  EXPECT_EQ(b.uvs[20], m.uvs[20]);  // float2: exact
  EXPECT_EQ(b.triangles, m.triangles);
  // Every vertex not edited keeps its 40 bytes; everything before the buffers too, but the
  // bounds of the mesh's bone (0x11C + 0xA0: half size, centre), the box of its vertices.
  const edf_mdb::Model model = edf_mdb::ParseModel(edf_mdb::Parse(bytes));
  const edf_mdb::StoredMesh& mesh = model.objects[0].meshes[0];
  const size_t vertices = mesh.at + mesh.vertex_at, bounds = 0x11C + 0xA0;
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.begin() + ptrdiff_t(bounds), r.mdb.begin()));
  EXPECT_TRUE(std::equal(bytes.begin() + ptrdiff_t(bounds + 32), bytes.begin() + ptrdiff_t(vertices),
                         r.mdb.begin() + ptrdiff_t(bounds + 32)));
  float lo = INFINITY, hi = -INFINITY;
  for (const Vec3& p : b.positions) lo = std::min(lo, p.x), hi = std::max(hi, p.x);
  EXPECT_FLOAT_EQ(le::LoadF32At(r.mdb, bounds), (hi - lo) / 2);
  EXPECT_FLOAT_EQ(le::LoadF32At(r.mdb, bounds + 16), (hi + lo) / 2);
  EXPECT_EQ(le::LoadF32At(r.mdb, bounds + 12), 1.0f);
  for (size_t v = 10; v < 692; ++v) {
    if (v == 20) continue;
    const size_t at = vertices + 40 * v;
    EXPECT_TRUE(std::equal(bytes.begin() + ptrdiff_t(at), bytes.begin() + ptrdiff_t(at + 40), r.mdb.begin() + ptrdiff_t(at)))
        << "vertex " << v;
  }
}

TEST(EdfMdbWrite, ANewMeshMaterialAndTextureAndADeletedMesh) {
  const Bytes bytes = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (bytes.empty()) GTEST_SKIP() << "../shared/fixtures/edf/airtortoise_missile.mdb is absent";
  Scene s = Read(bytes);
  Mesh extra = Triangle().meshes[0];
  extra.name = "fin";
  extra.joint = 1;
  extra.material = 1;
  s.meshes.push_back(extra);
  s.materials.push_back(Material{.name = "fin_paint", .texture = 3});
  Image image{"fin_paint.png", 4, 4, std::vector<uint8_t>(64, 200), "", ""};
  image.rgba[3] = 10;  // alpha: BC3
  s.textures.push_back(image);
  const edf_mdb::WriteResult r = edf_mdb::WriteModel(s, edf_mdb::Parse(bytes), {});
  EXPECT_EQ(r.kept_meshes, 1u);
  EXPECT_EQ(r.new_meshes, 1u);
  ExpectStockLayout(r.mdb);
  ASSERT_EQ(r.textures.size(), 1u);
  EXPECT_EQ(r.textures[0].first, "fin_paint.dds");
  EXPECT_EQ(le::Load32At(r.textures[0].second, 84), 0x35545844u);  // "DXT5"
  Scene back = Read(r.mdb);
  ASSERT_EQ(back.meshes.size(), 2u);
  EXPECT_EQ(back.meshes[1].joint, 1);
  EXPECT_EQ(back.meshes[1].material, 1);
  EXPECT_EQ(back.meshes[1].positions, extra.positions);
  ASSERT_EQ(back.materials.size(), 2u);
  EXPECT_EQ(back.materials[1].name, "fin_paint");
  EXPECT_EQ(back.materials[1].texture, 3);
  ASSERT_EQ(back.textures.size(), 4u);
  EXPECT_EQ(back.textures[3].name, "fin_paint.dds");
  // The mesh deleted: the original's mesh gone, the new one kept.
  back.meshes.erase(back.meshes.begin());
  const edf_mdb::WriteResult d = edf_mdb::WriteModel(back, edf_mdb::Parse(r.mdb), {});
  EXPECT_EQ(d.deleted_meshes, 1u);
  ExpectStockLayout(d.mdb);
  const Scene after = Read(d.mdb);
  ASSERT_EQ(after.meshes.size(), 1u);
  EXPECT_EQ(after.meshes[0].positions, extra.positions);
}

TEST(EdfMdbWrite, ChangedWeightsOfTheSkinnedSampleReadBackWithin1Over255) {
  const Bytes bytes = ReadFileBytes(test::SourcePath("samples/edf_mdb/soldier.mdb"));
  Scene s = Read(bytes);
  ASSERT_TRUE(s.meshes[0].Skinned());
  // Unedited: the template's bytes, though the sample is not laid out in the stock order.
  const edf_mdb::WriteResult same = edf_mdb::WriteModel(s, edf_mdb::Parse(bytes), {});
  EXPECT_EQ(same.kept_meshes, 1u);
  EXPECT_EQ(same.mdb, bytes);
  Mesh& m = s.meshes[0];
  m.joints[0] = {1, 2, 0, 0}, m.weights[0] = {0.75f, 0.25f, 0, 0};
  const edf_mdb::WriteResult r = edf_mdb::WriteModel(s, edf_mdb::Parse(bytes), {});
  EXPECT_EQ(r.rebuilt_meshes, 1u);
  ExpectStockLayout(r.mdb);
  const Mesh b = Read(r.mdb).meshes[0];
  EXPECT_EQ(b.joints[0][0], 1);
  EXPECT_EQ(b.joints[0][1], 2);
  EXPECT_NEAR(b.weights[0][0], 0.75f, 1.0f / 255);
  EXPECT_NEAR(b.weights[0][1], 0.25f, 1.0f / 255);
  for (size_t v = 1; v < m.positions.size(); ++v) EXPECT_NEAR(b.positions[v].y, m.positions[v].y, 1e-5f);
}

TEST(EdfMdbWrite, ANewSkinnedModelFromTheSampleReadsBackInBothVersions) {
  const std::string path = test::SourcePath("samples/edf_mdb/soldier.mdb");
  const Scene s = Read(ReadFileBytes(path), path);
  ASSERT_FALSE(s.textures[0].Missing());
  for (uint32_t version : {edf_mdb::kVersionEdf5, edf_mdb::kVersionEdf6}) {
    edf_mdb::WriteOptions options;
    options.version = version;
    const edf_mdb::WriteResult r = edf_mdb::WriteModel(s, options);
    ExpectStockLayout(r.mdb);
    const Scene back = Read(r.mdb);
    ASSERT_EQ(back.meshes.size(), 1u);
    const Mesh& a = s.meshes[0];
    const Mesh& b = back.meshes[0];
    ASSERT_EQ(b.positions.size(), a.positions.size());
    for (size_t v = 0; v < a.positions.size(); ++v) {
      EXPECT_NEAR(b.positions[v].x, a.positions[v].x, 4.9e-4 * std::max(1.0f, std::fabs(a.positions[v].x)));
      for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(b.weights[v][k], a.weights[v][k], 1.0f / 255);
    }
    EXPECT_EQ(b.triangles, a.triangles);
    EXPECT_EQ(back.skeleton.joints.size(), s.skeleton.joints.size());
    ASSERT_EQ(r.textures.size(), 1u);  // the decoded texture as a DDS beside the model
    EXPECT_EQ(r.textures[0].first, "soldier.dds");
  }
}

// Bones in depth-first pre-order (root, a, a.child, b for root, a, b, a.child), the mesh's
// bone indices following them; with a skeleton given, bones are taken from it by name.
TEST(EdfMdbWrite, BonesInPreOrderAndFromAGivenSkeletonByName) {
  Scene s = Triangle();
  s.skeleton.joints = {{"root", -1, {}}, {"a", 0, {}}, {"b", 0, {}}, {"a.child", 1, {}}};
  Mesh& m = s.meshes[0];
  m.joint = -1;
  m.joints.assign(3, {3, 2, 0, 0}), m.weights.assign(3, {0.5f, 0.5f, 0, 0});
  const Scene back = Read(edf_mdb::WriteModel(s, {}).mdb);
  ASSERT_EQ(back.skeleton.joints.size(), 4u);
  EXPECT_EQ(back.skeleton.joints[2].name, "a.child");
  EXPECT_EQ(back.skeleton.joints[3].name, "b");
  EXPECT_EQ(back.skeleton.joints[2].parent, 1);
  EXPECT_EQ(back.meshes[0].joints[0][0], 2);  // a.child
  EXPECT_EQ(back.meshes[0].joints[0][1], 3);  // b

  Skeleton given;  // the game's: other order, one more bone
  given.joints = {{"root", -1, {}}, {"b", 0, {}}, {"extra", 0, {}}, {"a", 0, {}}, {"a.child", 3, {}}};
  edf_mdb::WriteOptions options;
  options.skeleton = &given;
  const Scene mapped = Read(edf_mdb::WriteModel(s, options).mdb);
  ASSERT_EQ(mapped.skeleton.joints.size(), 5u);
  const Mesh& x = mapped.meshes[0];
  EXPECT_EQ(mapped.skeleton.joints[x.joints[0][0]].name, "a.child");
  EXPECT_EQ(mapped.skeleton.joints[x.joints[0][1]].name, "b");
  s.skeleton.joints[2].name = "tail";
  const std::string e = ErrorOf([&] { edf_mdb::WriteModel(s, options); });
  EXPECT_NE(e.find("'tri'"), std::string::npos) << e;
  EXPECT_NE(e.find("'tail'"), std::string::npos) << e;
}

TEST(EdfMdbWrite, LimitsAreErrorsOrWarningsNamingTheMesh) {
  Scene big = Triangle();
  big.meshes[0].positions.assign(65537, {0, 0, 0});
  big.meshes[0].normals.clear(), big.meshes[0].uvs.clear();
  std::string e = ErrorOf([&] { edf_mdb::WriteModel(big, {}); });
  EXPECT_NE(e.find("'tri'"), std::string::npos) << e;
  EXPECT_NE(e.find("65536"), std::string::npos) << e;

  Scene many = Triangle();
  many.skeleton.joints.clear();
  for (int i = 0; i < 300; ++i) many.skeleton.joints.push_back({"b" + std::to_string(i), i - 1, {}});
  Mesh& m = many.meshes[0];
  m.joint = -1;
  m.joints.assign(3, {299, 0, 0, 0}), m.weights.assign(3, {1, 0, 0, 0});
  e = ErrorOf([&] { edf_mdb::WriteModel(many, {}); });
  EXPECT_NE(e.find("'tri'"), std::string::npos) << e;
  EXPECT_NE(e.find("255"), std::string::npos) << e;

  Scene lines = Triangle();
  lines.meshes[0].lines = {0, 1};
  const edf_mdb::WriteResult r = edf_mdb::WriteModel(lines, {});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("'tri'"), std::string::npos);
}

// The model inside a RAB: written into the archive's member (CMPL-packed as it was), changed
// textures replace their members; unedited, the archive's bytes.
TEST(EdfMdbWrite, TheModelAndItsTextureWrittenIntoTheirArchive) {
  const std::string path = test::SourcePath("samples/edf_rab/soldier.rab");
  const Bytes bytes = ReadFileBytes(path);
  const auto doc = kEdfRabFormat.read(bytes, ReadContext{{}, path, {}});
  Scene s = doc->Decode(DecodeContext{});
  ASSERT_FALSE(s.textures[0].Missing());
  const EncodeTemplate templ{path, bytes, doc.get()};
  EncodeContext context;
  context.templ = &templ;
  EXPECT_EQ(kEdfRabFormat.encode(s, context)->Write(), bytes);

  s.meshes[0].positions[0].x += 0.5f;
  for (size_t p = 0; p < 16; ++p) s.textures[0].rgba[p * 4] = 255;  // a red top row
  const Bytes written = kEdfRabFormat.encode(s, context)->Write();
  const auto back = kEdfRabFormat.read(written, ReadContext{{}, "", {}});
  EXPECT_TRUE(back->Damaged().empty());
  const Scene b = back->Decode(DecodeContext{});
  EXPECT_NEAR(b.meshes[0].positions[0].x, s.meshes[0].positions[0].x, 4.9e-4f);  // a half4 position
  ASSERT_FALSE(b.textures[0].Missing());
  EXPECT_NEAR(b.textures[0].rgba[0], 255, 8);
  const std::vector<ArchiveMember> members = back->Members();
  const std::vector<ArchiveMember> before = doc->Members();
  ASSERT_EQ(members.size(), before.size());
  for (size_t i = 0; i < members.size(); ++i) {
    EXPECT_EQ(members[i].name, before[i].name);
    EXPECT_EQ(members[i].compressed, before[i].compressed) << members[i].name;
  }
}

}  // namespace
}  // namespace animkit
