// The public CMDLs of ../shared/real/metroid: each parses, writes back byte for byte and
// decodes to triangles whose count the display lists give by the GX rules.
#include <animkit/formats/metroid_model.hpp>
#include <animkit/io/io.hpp>

#include "support/shared_files.hpp"
#include "support/test_support.hpp"
#include "formats/metroid_model/metroid_txtr_image.hpp"

#include <cmath>

namespace animkit {
extern const FormatDescriptor kMetroidCmdlFormat;
namespace {

using namespace metroid_model;

// Triangles and line segments a primitive of n vertices makes, by kind.
size_t TrianglesOf(uint8_t opcode, size_t n) {
  switch (opcode & 0xF8) {
    case 0x90: return n / 3;
    case 0x98: case 0xA0: return n >= 3 ? n - 2 : 0;
    case 0x80: return n / 4 * 2;
    default: return 0;
  }
}
size_t LinesOf(uint8_t opcode, size_t n) {
  switch (opcode & 0xF8) {
    case 0xA8: return n / 2;
    case 0xB0: return n >= 2 ? n - 1 : 0;
    default: return 0;
  }
}

std::vector<std::string> RealModels() { return test::SharedFiles({"real/metroid"}, {".cmdl"}); }

TEST(MetroidCmdlReal, every_file_reads_writes_back_and_decodes) {
  const auto files = RealModels();
  if (files.empty()) GTEST_SKIP() << "no CMDL under ../shared/real/metroid";
  for (const std::string& relative : files) {
    SCOPED_TRACE(relative);
    const std::string path = test::SharedPath(relative);
    const Bytes bytes = ReadFileBytes(path);
    const CmdlFile f = ParseCmdl(bytes);
    EXPECT_EQ(SerializeCmdl(f), bytes);
    ReadContext context;
    context.path = path;
    auto doc = kMetroidCmdlFormat.read(bytes, context);
    EXPECT_EQ(doc->Write(), bytes);
    const Scene scene = doc->Decode({});
    size_t triangles = 0, lines = 0, list_vertices = 0;
    for (const Surface& s : f.surfaces) {
      for (const Primitive& p : s.primitives) {
        triangles += TrianglesOf(p.opcode, p.vertex_count);
        lines += LinesOf(p.opcode, p.vertex_count);
        list_vertices += p.vertex_count;
      }
    }
    size_t decoded_triangles = 0, decoded_lines = 0, vertices = 0;
    for (const Mesh& m : scene.meshes) {
      decoded_triangles += m.triangles.size() / 3;
      decoded_lines += m.lines.size() / 2;
      vertices += m.positions.size();
      for (uint32_t i : m.triangles) ASSERT_LT(i, m.positions.size());
      for (uint32_t i : m.lines) ASSERT_LT(i, m.positions.size());
      EXPECT_TRUE(m.normals.empty() || m.normals.size() == m.positions.size());
      EXPECT_TRUE(m.uvs.empty() || m.uvs.size() == m.positions.size());
      for (const Vec3& p : m.positions) {  // inside the header's bounds
        const auto& b = f.header.bounds;
        EXPECT_TRUE(p.x >= b[0] - 1e-3f && p.y >= b[1] - 1e-3f && p.z >= b[2] - 1e-3f);
        EXPECT_TRUE(p.x <= b[3] + 1e-3f && p.y <= b[4] + 1e-3f && p.z <= b[5] + 1e-3f);
      }
    }
    EXPECT_EQ(decoded_triangles, triangles);
    EXPECT_EQ(decoded_lines, lines);
    EXPECT_GT(vertices, 0u);
    EXPECT_LE(vertices, list_vertices);
  }
}

// OWN counts of the facts: EFDFFB8C 73 fans + 2 strips, 318 list vertices, 168 triangles;
// randovania_gamecube 372 triangles.
TEST(MetroidCmdlReal, known_models_have_their_counts) {
  const std::string door = test::SharedPath("real/metroid/EFDFFB8C/EFDFFB8C.CMDL");
  const std::string rando = test::SharedPath("real/metroid/randovania_gamecube/randovania_gamecube.CMDL");
  if (door.empty() || rando.empty()) GTEST_SKIP() << "../shared/real/metroid is absent";
  const CmdlFile f = ParseCmdl(ReadFileBytes(door));
  EXPECT_EQ(f.header.flags, 6u);
  EXPECT_EQ(f.material_sets[0].texture_ids,
            (std::vector<uint32_t>{0x5B97098E, 0x5C7B215C, 0x6E09EA6B, 0xFA0C2AE8, 0xFDE0023A}));
  EXPECT_EQ(f.material_sets[0].materials.size(), 3u);
  EXPECT_EQ(f.material_sets[0].materials[2].vertex_attributes, 0x30Fu);
  EXPECT_EQ(f.surfaces.size(), 3u);
  size_t fans = 0, strips = 0, list = 0;
  for (const Surface& s : f.surfaces)
    for (const Primitive& p : s.primitives) {
      fans += (p.opcode & 0xF8) == 0xA0, strips += (p.opcode & 0xF8) == 0x98, list += p.vertex_count;
      EXPECT_EQ(p.opcode & 7, 1);  // VAT1
    }
  EXPECT_EQ(fans, 73u);
  EXPECT_EQ(strips, 2u);
  EXPECT_EQ(list, 318u);
  auto count = [](const std::string& path) {
    ReadContext context;
    context.path = path;
    size_t n = 0;
    for (const Mesh& m : kMetroidCmdlFormat.read(ReadFileBytes(path), context)->Decode({}).meshes) n += m.triangles.size() / 3;
    return n;
  };
  EXPECT_EQ(count(door), 168u);
  EXPECT_EQ(count(rando), 372u);
}

// Every stored normal the randomprime models use is a unit vector at 14 fraction bits.
TEST(MetroidCmdlReal, short_normals_are_unit_at_14_fraction_bits) {
  const std::string door = test::SharedPath("real/metroid/EFDFFB8C/EFDFFB8C.CMDL");
  if (door.empty()) GTEST_SKIP() << "../shared/real/metroid is absent";
  const CmdlFile f = ParseCmdl(ReadFileBytes(door));
  size_t used = 0;
  for (const Surface& s : f.surfaces) {
    const VertexLayout layout = LayoutOf(f.material_sets[0].materials.at(s.header.material).vertex_attributes, 0);
    const int nrm = layout.Find(Attribute::Normal);
    ASSERT_GE(nrm, 0);
    for (const Primitive& p : s.primitives)
      for (size_t v = 0; v < p.vertex_count; ++v) {
        const auto& n = f.short_normals.values.at(p.values[v * layout.attributes.size() + size_t(nrm)]);
        const double len = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]) / 16384.0;
        EXPECT_NEAR(len, 1.0, 0.01);
        ++used;
      }
  }
  EXPECT_EQ(used, 318u);
  // (e435, 160f, 3542) of the facts: 0.434/0.345/0.832 after the sign.
  bool found = false;
  for (const auto& n : f.short_normals.values) {
    if (uint16_t(n[0]) == 0xE435 && uint16_t(n[1]) == 0x160F && uint16_t(n[2]) == 0x3542) {
      found = true;
      const double len = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]) / 16384.0;
      EXPECT_NEAR(len, 1.0, 0.01);
    }
  }
  EXPECT_TRUE(found);
}

// Facts §3.4: in GX order every triangle of the randomprime models winds counter-clockwise
// around its stored normals, which glTF keeps: each face normal points the vertex normals' way.
TEST(MetroidCmdlReal, triangles_wind_counter_clockwise_around_their_normals) {
  for (const char* relative : {"real/metroid/EFDFFB8C/EFDFFB8C.CMDL", "real/metroid/randovania_gamecube/randovania_gamecube.CMDL"}) {
    SCOPED_TRACE(relative);
    const std::string path = test::SharedPath(relative);
    if (path.empty()) GTEST_SKIP() << "../shared/real/metroid is absent";
    size_t faces = 0, along = 0;
    for (const Mesh& m : kMetroidCmdlFormat.read(ReadFileBytes(path), {})->Decode({}).meshes) {
      ASSERT_EQ(m.normals.size(), m.positions.size());
      for (size_t t = 0; t + 2 < m.triangles.size(); t += 3) {
        const uint32_t a = m.triangles[t], b = m.triangles[t + 1], c = m.triangles[t + 2];
        const Vec3 u = m.positions[b] - m.positions[a], v = m.positions[c] - m.positions[a];
        const Vec3 face{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
        const Vec3 n = m.normals[a] + m.normals[b] + m.normals[c];
        ++faces;
        along += face.x * n.x + face.y * n.y + face.z * n.z > 0;
      }
    }
    EXPECT_GT(faces, 0u);
    EXPECT_EQ(along, faces);
  }
}

// With its TXTRs beside it a model's textures decode; where the decoder flipped a texture's
// rows the UVs are v' = 1 - v of the same model decoded without its textures.
TEST(MetroidCmdlReal, textures_beside_the_model_decode_and_flip_the_uvs_with_the_rows) {
  const std::string path = test::SharedPath("real/metroid/randovania_gamecube/randovania_gamecube.CMDL");
  if (path.empty()) GTEST_SKIP() << "../shared/real/metroid is absent";
  const Bytes bytes = ReadFileBytes(path);
  ReadContext beside;
  beside.path = path;
  const Scene textured = kMetroidCmdlFormat.read(bytes, beside)->Decode({});
  ReadContext alone;
  const Scene plain = kMetroidCmdlFormat.read(bytes, alone)->Decode({});
  ASSERT_EQ(textured.textures.size(), 2u);
  ASSERT_EQ(textured.meshes.size(), plain.meshes.size());
  for (size_t m = 0; m < textured.meshes.size(); ++m) {
    const Mesh& a = textured.meshes[m];
    const Mesh& b = plain.meshes[m];
    ASSERT_GE(a.material, 0);
    const Image& image = textured.textures.at(size_t(textured.materials[size_t(a.material)].texture));
    EXPECT_FALSE(image.Missing()) << image.missing;
    EXPECT_EQ(image.rgba.size(), size_t{image.width} * image.height * 4);
    const bool flipped = TxtrRowsFlipped(ReadFileBytes(test::SharedPath("real/metroid/randovania_gamecube/" + image.name + ".TXTR")));
    ASSERT_EQ(a.uvs.size(), b.uvs.size());
    for (size_t v = 0; v < a.uvs.size(); ++v) {
      EXPECT_FLOAT_EQ(a.uvs[v][0], b.uvs[v][0]);
      EXPECT_FLOAT_EQ(a.uvs[v][1], flipped ? 1 - b.uvs[v][1] : b.uvs[v][1]);
    }
  }
  EXPECT_TRUE(plain.textures[0].Missing());
}

}  // namespace
}  // namespace animkit
