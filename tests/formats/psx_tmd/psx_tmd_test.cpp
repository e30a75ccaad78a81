#include <animkit/formats/psx_anm.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/formats/psx_tmd.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include "formats/gltf/gltf_internal.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>

namespace animkit {
extern const FormatDescriptor kPsxTmdFormat;
extern const FormatDescriptor kPsxAnmFormat;
namespace {

using psx_tmd::Kind;
using psx_tmd::Primitive;

// Little-endian byte helpers for writing files by hand.
struct Hand {
  Bytes b;
  Hand& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
    return *this;
  }
  Hand& vtx(int16_t x, int16_t y, int16_t z, int16_t pad = 0) {
    for (int16_t v : {x, y, z, pad}) b.push_back(uint8_t(uint16_t(v))), b.push_back(uint8_t(uint16_t(v) >> 8));
    return *this;
  }
  Hand& bytes(std::initializer_list<uint8_t> v) {
    b.insert(b.end(), v);
    return *this;
  }
};

// Two objects as Vib-Ribbon draws them, laid out by hand from the format description:
// 0x00 header (id 0x41, flags 0, 2 objects), 0x0C object table (2 x 28 bytes),
// 0x44 object 0's 3 vertices, 0x5C its primitives (a red line 0-1 and a green flat
// triangle 0-1-2), 0x78 object 1's 4 vertices, 0x98 its blue flat quad 0-1-2-3; 0xA8 bytes.
Bytes Golden() {
  Hand h;
  h.u32(0x41).u32(0).u32(2);
  h.u32(0x38).u32(3).u32(0x50).u32(0).u32(0x50).u32(2).u32(0);  // offsets from 0x0C
  h.u32(0x6C).u32(4).u32(0x8C).u32(0).u32(0x8C).u32(1).u32(0);
  h.vtx(0, 0, 0).vtx(100, 0, 0).vtx(0, -50, 0);
  h.bytes({3, 2, 1, 0x40, 0xFF, 0, 0, 0x40, 0, 0, 1, 0});                     // line: red, vertices 0, 1
  h.bytes({4, 3, 1, 0x21, 0, 0xFF, 0, 0x21, 0, 0, 1, 0, 2, 0, 0, 0});          // flat triangle: green, 0 1 2
  h.vtx(-10, -10, 5).vtx(10, -10, 5).vtx(-10, 10, 5).vtx(10, 10, 5);
  h.bytes({5, 3, 1, 0x29, 0, 0, 0xFF, 0x29, 0, 0, 1, 0, 2, 0, 3, 0});          // flat quad: blue, 0 1 2 3
  return h.b;
}

TEST(PsxTmd, ParsesEveryFieldOfTheGoldenFile) {
  const Bytes data = Golden();
  ASSERT_EQ(data.size(), 0xA8u);
  const psx_tmd::File f = psx_tmd::Parse(data);
  EXPECT_EQ(f.id, 0x41u);
  EXPECT_EQ(f.flags, 0u);
  EXPECT_EQ(f.offset_base, 12u);
  ASSERT_EQ(f.objects.size(), 2u);
  const auto& o0 = f.objects[0];
  EXPECT_EQ(o0.vert_top, 0x38u);
  ASSERT_EQ(o0.vertices.size(), 3u);
  EXPECT_EQ(o0.vertices[1], (psx_tmd::Vertex{100, 0, 0, 0}));
  EXPECT_EQ(o0.vertices[2], (psx_tmd::Vertex{0, -50, 0, 0}));
  ASSERT_EQ(o0.primitives.size(), 2u);
  EXPECT_EQ(o0.primitives[0].mode, 0x40);
  EXPECT_EQ(o0.primitives[0].olen, 3);
  EXPECT_EQ(o0.primitives[0].flag, 1);
  EXPECT_EQ(o0.primitives[0].words, (std::vector<uint32_t>{0x400000FF, 0x00010000}));
  const auto line = psx_tmd::View(o0.primitives[0]);
  EXPECT_EQ(line.layout.kind, Kind::Line);
  EXPECT_EQ(line.vertices, (std::vector<uint16_t>{0, 1}));
  EXPECT_EQ(line.colors.at(0), (std::array<uint8_t, 3>{255, 0, 0}));
  const auto tri = psx_tmd::View(o0.primitives[1]);
  EXPECT_EQ(tri.layout.kind, Kind::Polygon);
  EXPECT_FALSE(tri.layout.lit);
  EXPECT_EQ(tri.vertices, (std::vector<uint16_t>{0, 1, 2}));
  EXPECT_EQ(tri.colors.at(0), (std::array<uint8_t, 3>{0, 255, 0}));
  const auto quad = psx_tmd::View(f.objects[1].primitives.at(0));
  EXPECT_EQ(quad.vertices, (std::vector<uint16_t>{0, 1, 2, 3}));
  EXPECT_EQ(quad.colors.at(0), (std::array<uint8_t, 3>{0, 0, 255}));
  EXPECT_TRUE(f.gaps.empty());
}

TEST(PsxTmd, DecodesObjectsToJointsAndMeshes) {
  const Scene s = psx_tmd::DecodeScene(psx_tmd::Parse(Golden()));
  ASSERT_EQ(s.skeleton.joints.size(), 2u);
  EXPECT_EQ(s.skeleton.joints[0].name, "#0");
  EXPECT_EQ(s.skeleton.joints[1].parent, -1);
  EXPECT_EQ(s.skeleton.joints[1].rest, TransformTRS{});
  ASSERT_EQ(s.meshes.size(), 2u);
  const Mesh& m0 = s.meshes[0];
  EXPECT_EQ(m0.joint, 0);
  // The red line's two corners, then the green triangle's three (colours differ: not shared).
  ASSERT_EQ(m0.positions.size(), 5u);
  EXPECT_EQ(m0.lines, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(m0.triangles, (std::vector<uint32_t>{2, 3, 4}));
  EXPECT_EQ(m0.positions[1], (Vec3{100, 0, 0}));
  EXPECT_EQ(m0.positions[4], (Vec3{0, -50, 0}));
  EXPECT_EQ(m0.colors[0], (std::array<float, 4>{1, 0, 0, 1}));
  EXPECT_EQ(m0.colors[2], (std::array<float, 4>{0, 1, 0, 1}));
  const Mesh& m1 = s.meshes[1];
  EXPECT_EQ(m1.joint, 1);
  ASSERT_EQ(m1.positions.size(), 4u);
  EXPECT_EQ(m1.triangles, (std::vector<uint32_t>{0, 1, 2, 1, 3, 2}));  // quad 0-1-2-3 as 0-1-2, 1-3-2
  EXPECT_TRUE(m1.lines.empty());
  EXPECT_EQ(m1.colors[3], (std::array<float, 4>{0, 0, 1, 1}));
}

// Every primitive kind with the word count (ilen) the PsyQ layout tables give it.
struct KindCase {
  uint8_t mode, flag, ilen;
  Kind kind;
  int vertices, normals, colors, uvs;
};
const KindCase kKinds[] = {
    {0x40, 1, 2, Kind::Line, 2, 0, 1, 0},     {0x50, 1, 3, Kind::Line, 2, 0, 2, 0},
    {0x21, 1, 3, Kind::Polygon, 3, 0, 1, 0},  {0x29, 1, 3, Kind::Polygon, 4, 0, 1, 0},
    {0x31, 1, 5, Kind::Polygon, 3, 0, 3, 0},  {0x39, 1, 6, Kind::Polygon, 4, 0, 4, 0},
    {0x20, 0, 3, Kind::Polygon, 3, 1, 1, 0},  {0x20, 4, 5, Kind::Polygon, 3, 1, 3, 0},
    {0x30, 0, 4, Kind::Polygon, 3, 3, 1, 0},  {0x30, 4, 6, Kind::Polygon, 3, 3, 3, 0},
    {0x28, 0, 4, Kind::Polygon, 4, 1, 1, 0},  {0x28, 4, 7, Kind::Polygon, 4, 1, 4, 0},
    {0x38, 0, 5, Kind::Polygon, 4, 4, 1, 0},  {0x38, 4, 8, Kind::Polygon, 4, 4, 4, 0},
    {0x24, 0, 5, Kind::Polygon, 3, 1, 0, 3},  {0x34, 0, 6, Kind::Polygon, 3, 3, 0, 3},
    {0x2C, 0, 7, Kind::Polygon, 4, 1, 0, 4},  {0x3C, 0, 8, Kind::Polygon, 4, 4, 0, 4},
    {0x25, 1, 6, Kind::Polygon, 3, 0, 1, 3},  {0x35, 1, 8, Kind::Polygon, 3, 0, 3, 3},
    {0x2D, 1, 7, Kind::Polygon, 4, 0, 1, 4},  {0x3D, 1, 10, Kind::Polygon, 4, 0, 4, 4},
    {0x26, 2, 5, Kind::Polygon, 3, 1, 0, 3},  {0x23, 3, 3, Kind::Polygon, 3, 0, 1, 0},
    // Sprites: free size {V0, TSB} {U V CBA} {W H}; fixed sizes (1x1, 8x8, 16x16) without {W H}.
    {0x64, 0, 3, Kind::Sprite, 1, 0, 0, 1},   {0x6C, 0, 2, Kind::Sprite, 1, 0, 0, 1},
    {0x74, 0, 2, Kind::Sprite, 1, 0, 0, 1},   {0x7C, 0, 2, Kind::Sprite, 1, 0, 0, 1},
};

// One object with 4 vertices, 4 normals and one primitive of every kind (index words 0).
Bytes AllKinds() {
  Hand body;
  body.vtx(0, 0, 0).vtx(64, 0, 0).vtx(0, 64, 0).vtx(64, 64, 0);
  body.vtx(0, 0, 4096).vtx(0, 0, 4096).vtx(0, 0, 4096).vtx(0, 0, 4096);
  for (const KindCase& k : kKinds) {
    body.bytes({uint8_t(k.ilen + 1), k.ilen, k.flag, k.mode});
    const bool sprite = k.kind == Kind::Sprite;  // its first word holds a vertex index
    for (int w = 0; w < k.ilen; ++w) body.u32(w == 0 && !sprite ? 0x00102030u | uint32_t(k.mode) << 24 : 0);
  }
  Hand h;
  h.u32(0x41).u32(0).u32(1);
  h.u32(0x1C).u32(4).u32(0x3C).u32(4).u32(0x5C).u32(uint32_t(std::size(kKinds))).u32(0);
  h.b.insert(h.b.end(), body.b.begin(), body.b.end());
  return h.b;
}

TEST(PsxTmd, EveryPrimitiveKindHasItsLayout) {
  for (const KindCase& k : kKinds) {
    const auto l = psx_tmd::LayoutOf(k.mode, k.flag);
    ASSERT_TRUE(l.has_value()) << int(k.mode);
    EXPECT_EQ(l->words, k.ilen) << l->name;
    EXPECT_EQ(l->kind, k.kind) << l->name;
    EXPECT_EQ(l->vertices, k.vertices) << l->name;
    EXPECT_EQ(l->normals, k.normals) << l->name;
    EXPECT_EQ(l->colors, k.colors) << l->name;
    EXPECT_EQ(l->uvs, k.uvs) << l->name;
  }
  EXPECT_FALSE(psx_tmd::LayoutOf(0x00, 0).has_value());
  EXPECT_FALSE(psx_tmd::LayoutOf(0x80, 0).has_value());
  EXPECT_EQ(psx_tmd::LayoutOf(0x74, 0)->name, "sprite 8x8");
  EXPECT_EQ(psx_tmd::LayoutOf(0x21, 1)->name, "flat triangle (unlit)");

  const Bytes data = AllKinds();
  const psx_tmd::File f = psx_tmd::Parse(data);
  ASSERT_EQ(f.objects.at(0).primitives.size(), std::size(kKinds));
  test::ExpectByteExactRoundTrip(kPsxTmdFormat, data);
  test::ExpectEveryTruncationFails(kPsxTmdFormat, data);
  const Scene s = psx_tmd::DecodeScene(f);
  // Polygons: 10 triangles + 10 quads (two triangles each) + 4 more triangles; lines: 2; sprites: none.
  size_t tris = 0, quads = 0;
  for (const KindCase& k : kKinds)
    if (k.kind == Kind::Polygon) (k.vertices == 3 ? tris : quads)++;
  EXPECT_EQ(s.meshes.at(0).triangles.size(), 3 * (tris + 2 * quads));
  EXPECT_EQ(s.meshes.at(0).lines.size(), 4u);
}

TEST(PsxTmd, ReadsFieldsOutOfEachLayout) {
  auto view = [](uint8_t mode, uint8_t flag, std::vector<uint32_t> words) {
    return psx_tmd::View(Primitive{0, flag, mode, std::move(words)});
  };
  // Lit flat triangle: colour word, {N0, V0}, {V1, V2}.
  auto v = view(0x20, 0, {0x20302010, 0x00010003, 0x00000002});
  EXPECT_EQ(v.normals, (std::vector<uint16_t>{3}));
  EXPECT_EQ(v.vertices, (std::vector<uint16_t>{1, 2, 0}));
  EXPECT_EQ(v.colors.at(0), (std::array<uint8_t, 3>{0x10, 0x20, 0x30}));
  // Lit gouraud triangle: {N0, V0} {N1, V1} {N2, V2}.
  v = view(0x30, 0, {0x30000000, 0x00050004, 0x00070006, 0x00090008});
  EXPECT_EQ(v.normals, (std::vector<uint16_t>{4, 6, 8}));
  EXPECT_EQ(v.vertices, (std::vector<uint16_t>{5, 7, 9}));
  // Lit gouraud textured quad: {U0 V0 CBA} {U1 V1 TSB} {U2 V2 -} {U3 V3 -}, then {N, V} x 4.
  v = view(0x3C, 0, {0x12340201, 0x56780403, 0x00000605, 0x00000807, 0x00010000, 0x00030002, 0x00050004, 0x00070006});
  EXPECT_EQ(v.cba, 0x1234);
  EXPECT_EQ(v.tsb, 0x5678);
  EXPECT_EQ(v.uvs, (std::vector<std::array<uint8_t, 2>>{{1, 2}, {3, 4}, {5, 6}, {7, 8}}));
  EXPECT_EQ(v.normals, (std::vector<uint16_t>{0, 2, 4, 6}));
  EXPECT_EQ(v.vertices, (std::vector<uint16_t>{1, 3, 5, 7}));
  // Unlit gouraud textured triangle: 3 UV words, 3 colours, {V0 V1} {V2 -}.
  v = view(0x35, 1, {0, 0, 0, 0x000000AA, 0x000000BB, 0x000000CC, 0x00020001, 0x00000003});
  EXPECT_TRUE(v.normals.empty());
  EXPECT_EQ(v.vertices, (std::vector<uint16_t>{1, 2, 3}));
  EXPECT_EQ(v.colors.at(2), (std::array<uint8_t, 3>{0xCC, 0, 0}));
  // Gradated line: two colours, {V0 V1}.
  v = view(0x50, 1, {0x50000011, 0x00000022, 0x00050004});
  EXPECT_EQ(v.vertices, (std::vector<uint16_t>{4, 5}));
  EXPECT_EQ(v.colors.at(1), (std::array<uint8_t, 3>{0x22, 0, 0}));
  // Sprite: {V0, TSB} {U0 V0 CBA} {W, H}.
  v = view(0x74, 0, {0x00AB0003, 0x00CD2010, 0x00080008});
  EXPECT_EQ(v.vertices, (std::vector<uint16_t>{3}));
  EXPECT_EQ(v.tsb, 0xAB);
  EXPECT_EQ(v.cba, 0xCD);
  EXPECT_EQ(v.uvs.at(0), (std::array<uint8_t, 2>{0x10, 0x20}));
  EXPECT_EQ(v.width, 8);
  EXPECT_EQ(v.height, 8);
}

// One object, one vertex, one sprite packet {olen, ilen, flag 0, mode} + words.
Bytes OneSprite(uint8_t mode, const std::vector<uint32_t>& words) {
  Hand h;
  h.u32(0x41).u32(0).u32(1);
  // Offsets count from the end of the 12-byte header: the vertex at 0x28, the packet at 0x30.
  h.u32(0x1C).u32(1).u32(0).u32(0).u32(0x24).u32(1).u32(0);
  h.vtx(0, 0, 0);
  h.bytes({uint8_t(words.size() + 1), uint8_t(words.size()), 0, mode});
  for (uint32_t w : words) h.u32(w);
  return h.b;
}

TEST(PsxTmd, FixedSizeSpritesTakeTheirLayoutFromIlen) {
  // mode bits 4..3: 1 = 1x1 (0x6C), 2 = 8x8 (0x74), 3 = 16x16 (0x7C); 0 = free size (0x64).
  const struct {
    uint8_t mode;
    uint16_t side;
  } fixed[] = {{0x6C, 1}, {0x74, 8}, {0x7C, 16}};
  for (const auto& f : fixed) {
    // ilen 2: {V0, TSB} {U V CBA}, no {W, H} word; the size comes from the mode.
    const Bytes two = OneSprite(f.mode, {0x00120000, 0x00345678});
    EXPECT_EQ(two.size(), 0x30u + 4 + 8);
    test::ExpectByteExactRoundTrip(kPsxTmdFormat, two);
    test::ExpectEveryTruncationFails(kPsxTmdFormat, two);
    const psx_tmd::File a = psx_tmd::Parse(two);
    const Primitive& p = a.objects.at(0).primitives.at(0);
    EXPECT_EQ(p.words.size(), 2u);
    const auto v = psx_tmd::View(p);
    EXPECT_EQ(v.tsb, 0x12);
    EXPECT_EQ(v.cba, 0x34);
    EXPECT_EQ(v.uvs.at(0), (std::array<uint8_t, 2>{0x78, 0x56}));
    EXPECT_EQ(v.width, f.side);
    EXPECT_EQ(v.height, f.side);
    EXPECT_FALSE(v.layout.size_word);
    // ilen 3: a {W, H} word is present; it is kept (bytes) but the mode's size still rules.
    const Bytes three = OneSprite(f.mode, {0x00120000, 0x00345678, 0x00300020});
    test::ExpectByteExactRoundTrip(kPsxTmdFormat, three);
    const auto w = psx_tmd::View(psx_tmd::Parse(three).objects.at(0).primitives.at(0));
    EXPECT_TRUE(w.layout.size_word);
    EXPECT_EQ(w.width, f.side);
    EXPECT_EQ(psx_tmd::Parse(three).objects.at(0).primitives.at(0).words.at(2), 0x00300020u);
    // Anything else is an error at the ilen byte (0x30 + 1).
    const std::string four = test::ReadError(kPsxTmdFormat, OneSprite(f.mode, {0, 0, 0, 0}));
    EXPECT_NE(four.find("offset 0x31: object 0 primitive 0 (mode " + Hex(f.mode) + ", sprite " +
                        std::to_string(f.side) + "x" + std::to_string(f.side) +
                        "): ilen 4, the layout has 2 words (3 with a {W, H} word)"),
              std::string::npos)
        << four;
  }
  // A free-size sprite needs its {W, H} word: ilen 3 reads W = 0x20, H = 0x30; ilen 2 is an error.
  const auto free3 = psx_tmd::View(psx_tmd::Parse(OneSprite(0x64, {0, 0, 0x00300020})).objects.at(0).primitives.at(0));
  EXPECT_EQ(free3.width, 0x20);
  EXPECT_EQ(free3.height, 0x30);
  const std::string free2 = test::ReadError(kPsxTmdFormat, OneSprite(0x64, {0, 0}));
  EXPECT_NE(free2.find("offset 0x31: object 0 primitive 0 (mode 0x64, sprite): ilen 2, the layout has 3 words"),
            std::string::npos)
      << free2;
}

TEST(PsxTmd, WritesBackByteForByte) {
  test::ExpectByteExactRoundTrip(kPsxTmdFormat, Golden());
  // Padding between blocks, trailing bytes, two objects sharing one vertex block and
  // unusual pad values all survive.
  Hand h;
  h.u32(0x41).u32(0).u32(2);
  h.u32(0x3C).u32(2).u32(0).u32(0).u32(0x4C).u32(1).u32(-7);
  h.u32(0x3C).u32(2).u32(0).u32(0).u32(0x4C).u32(1).u32(0);
  h.bytes({0xEE, 0xEE, 0xEE, 0xEE});                 // 0x44: a gap
  h.vtx(1, 2, 3, 0x7777).vtx(4, 5, 6, -1);           // 0x48: the shared vertices
  h.bytes({3, 2, 1, 0x40, 1, 2, 3, 0x40, 0, 0, 1, 0});  // 0x58
  h.bytes({0xAB, 0xCD});                              // trailing
  test::ExpectByteExactRoundTrip(kPsxTmdFormat, h.b);
  const psx_tmd::File f = psx_tmd::Parse(h.b);
  ASSERT_EQ(f.gaps.size(), 2u);
  EXPECT_EQ(f.gaps[0].offset, 0x44u);
  EXPECT_EQ(f.gaps[1].bytes, (Bytes{0xAB, 0xCD}));
  EXPECT_EQ(f.objects[0].scale, -7);
  EXPECT_EQ(f.objects[1].vertices[0].pad, 0x7777);
}

TEST(PsxTmd, FixpOffsetsFollowTheOption) {
  // FIXP = 1, offsets from the file start (the default reading).
  Hand h;
  h.u32(0x41).u32(1).u32(1);
  h.u32(0x28).u32(2).u32(0x38).u32(0).u32(0x38).u32(1).u32(0);
  h.vtx(1, 2, 3).vtx(4, 5, 6);
  h.bytes({3, 2, 1, 0x40, 1, 2, 3, 0x40, 0, 0, 1, 0});
  const psx_tmd::File f = psx_tmd::Parse(h.b);
  EXPECT_EQ(f.offset_base, 0u);
  EXPECT_EQ(f.objects[0].vertices[1], (psx_tmd::Vertex{4, 5, 6, 0}));
  test::ExpectByteExactRoundTrip(kPsxTmdFormat, h.b);
  // Read as counting from the table, the same offsets point 12 bytes on: the primitives run off the end.
  Options o;
  o.Set("psx-fixp", "table");
  EXPECT_THROW((void)kPsxTmdFormat.read(h.b, {o, "", {}}), Error);
  EXPECT_THROW(SetOption(o, "psx-fixp", "bogus"), Error);  // the library checks the value against the declaration
}

TEST(PsxTmd, EveryTruncationFails) { test::ExpectEveryTruncationFails(kPsxTmdFormat, Golden()); }

TEST(PsxTmd, CorruptedFieldsGiveErrorsWithOffsets) {
  auto error = [](const Bytes& b) { return test::ReadError(kPsxTmdFormat, b); };
  Bytes bad = Golden();
  bad[0] = 0x42;
  EXPECT_NE(error(bad).find("offset 0x0: expected the TMD id 0x41"), std::string::npos) << error(bad);

  bad = Golden();
  bad[8] = 0xFF, bad[9] = 0xFF, bad[10] = 0xFF, bad[11] = 0x0F;  // 268 million objects in 168 bytes
  EXPECT_NE(error(bad).find("offset 0xc: object table: count 268435455"), std::string::npos) << error(bad);

  bad = Golden();
  bad[0x10] = 200;  // object 0: 200 vertices
  EXPECT_NE(error(bad).find("offset 0x10: object 0: 200 vertices at 0x44 run past the end of the file"),
            std::string::npos)
      << error(bad);

  bad = Golden();
  bad[0x5D] = 9;  // object 0's line claims 9 words
  EXPECT_NE(error(bad).find("offset 0x5d: object 0 primitive 0 (mode 0x40, line): ilen 9, the layout has 2 words"),
            std::string::npos)
      << error(bad);

  bad = Golden();
  bad[0x74] = 7;  // the triangle's third vertex index (0x74): 7 of 3
  EXPECT_NE(error(bad).find("offset 0x68: object 0 primitive 1 (mode 0x21, flat triangle (unlit)): vertex index 7 is "
                            "out of range (the object has 3 vertices)"),
            std::string::npos)
      << error(bad);

  bad = Golden();
  bad[0x9B] = 0xE0;  // mode code 7
  EXPECT_NE(error(bad).find("offset 0x9b: object 1 primitive 0: mode 0xe0 has code 7"), std::string::npos) << error(bad);

  bad = Golden();
  bad[0x3C] = 2;  // object 1: 2 primitives, the second's packet would start at the end of the file
  EXPECT_NE(error(bad).find("object 1 primitive 1's header"), std::string::npos) << error(bad);

  bad = Golden();
  bad[0x3C] = 0xFF, bad[0x3D] = 0xFF;  // object 1: 65535 primitives
  EXPECT_NE(error(bad).find("offset 0x3c: object 1: 65535 primitives at 0x98 cannot fit"), std::string::npos)
      << error(bad);

  // A sprite whose packet runs past the end of the file.
  Hand h;
  h.u32(0x41).u32(0).u32(1);
  h.u32(0x1C).u32(1).u32(0).u32(0).u32(0x24).u32(1).u32(0);
  h.vtx(0, 0, 0);
  h.bytes({4, 3, 0, 0x64, 0, 0, 0, 0});
  EXPECT_NE(error(h.b).find("offset 0x30: object 0 primitive 0 (mode 0x64, sprite): the packet runs past the end"),
            std::string::npos)
      << error(h.b);

  // Many objects sharing one block cannot make the reader work without bound.
  Hand many;
  const uint32_t n = 2000;
  many.u32(0x41).u32(0).u32(n);
  const uint32_t block = n * 28;  // from the table: just after it; one vertex, then 256 lines
  for (uint32_t i = 0; i < n; ++i) many.u32(block).u32(1).u32(0).u32(0).u32(block + 8).u32(256).u32(0);
  many.vtx(0, 0, 0);
  for (int i = 0; i < 256; ++i) many.bytes({3, 2, 1, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0});
  EXPECT_NE(error(many.b).find("times the file's size"), std::string::npos) << error(many.b).substr(0, 200);

  // Every single-byte corruption of the header and table: an error or a valid file, nothing else.
  for (size_t i = 0; i < 0x44; ++i) {
    for (int value : {0x00, 0x01, 0x7F, 0x80, 0xFF}) {
      Bytes c = Golden();
      c[i] = uint8_t(value);
      test::ExpectErrorOrValid(kPsxTmdFormat, c);
    }
  }
}

TEST(PsxTmd, EncodeThenDecodeKeepsTheGeometry) {
  Scene s = psx_tmd::DecodeScene(psx_tmd::Parse(Golden()));
  const psx_tmd::File f = psx_tmd::EncodeScene(s);
  const Scene back = psx_tmd::DecodeScene(psx_tmd::Parse(psx_tmd::Serialize(f)));
  ASSERT_EQ(back.meshes.size(), 2u);
  for (size_t m = 0; m < 2; ++m) {
    EXPECT_EQ(back.meshes[m].triangles.size(), s.meshes[m].triangles.size());
    EXPECT_EQ(back.meshes[m].lines.size(), s.meshes[m].lines.size());
    // Same corners in the same order with the same colours (positions are integers already).
    for (size_t i = 0; i < s.meshes[m].triangles.size(); ++i) {
      EXPECT_EQ(back.meshes[m].positions[back.meshes[m].triangles[i]], s.meshes[m].positions[s.meshes[m].triangles[i]]);
      EXPECT_EQ(back.meshes[m].colors[back.meshes[m].triangles[i]], s.meshes[m].colors[s.meshes[m].triangles[i]]);
    }
  }
  s.meshes[0].positions[0].x = 40000;
  EXPECT_THROW(psx_tmd::EncodeScene(s), Error);
}

// The GPU's colour bytes are display (sRGB) colours; the scene's are linear (Colour.* tests
// the curve), and the byte comes back.
TEST(PsxTmd, ColourBytesAreSrgbAndTheSceneLinear) {
  Bytes tmd = Golden();
  const std::array<uint8_t, 4> red_line{0xFF, 0x00, 0x00, 0x40};  // the line's colour word, 0x400000FF
  auto at = std::search(tmd.begin(), tmd.end(), red_line.begin(), red_line.end());
  ASSERT_NE(at, tmd.end());
  *at = 0x80;
  const Scene s = psx_tmd::DecodeScene(psx_tmd::Parse(tmd));
  EXPECT_NEAR(s.meshes.at(0).colors.at(0)[0], 0.2158605f, 1e-6);
  const psx_tmd::File back = psx_tmd::EncodeScene(s);
  bool found = false;
  for (const auto& o : back.objects)
    for (const auto& p : o.primitives)
      if (psx_tmd::View(p).layout.kind == Kind::Line) found = psx_tmd::View(p).colors.at(0) == std::array<uint8_t, 3>{0x80, 0, 0};
  EXPECT_TRUE(found) << "the line's colour is not written back as 0x80";
}

TEST(PsxTmd, ProbeRecognisesTheFormat) {
  EXPECT_EQ(Detect(Golden(), "x.tmd").format, &kPsxTmdFormat);
  EXPECT_EQ(kPsxTmdFormat.probe(Golden(), ".bin"), kProbeMagic);
  EXPECT_EQ(kPsxTmdFormat.probe(Bytes{0x00, 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, ".tmd"), kProbeExtension);
  EXPECT_EQ(kPsxTmdFormat.probe(Bytes{0x00, 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, ".bin"), kProbeNone);
  // The id with a table that does not fit: a damaged TMD with its extension, nothing without.
  EXPECT_EQ(kPsxTmdFormat.probe(Bytes{0x41, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0}, ".tmd"), kProbeDamaged);
  EXPECT_EQ(kPsxTmdFormat.probe(Bytes{0x41, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0}, ".bin"), kProbeNone);
}

TEST(PsxTmd, SamplesReadAndWriteBack) {
  for (const char* name : {"psx_tmd/figure.tmd"}) {
    const Bytes data = ReadFileBytes(test::SourcePath("samples/" + std::string(name)));
    test::ExpectByteExactRoundTrip(kPsxTmdFormat, data);
    test::ExpectEveryTruncationFails(kPsxTmdFormat, data);
  }
}

// node + the Khronos validator, when installed (ANIMKIT_NODE_MODULES or /tmp/gv/node_modules).
std::string ValidatorCommand() {
  const char* env = std::getenv("ANIMKIT_NODE_MODULES");
  std::string modules = env && *env ? env : "/tmp/gv/node_modules";
  if (!std::filesystem::exists(std::filesystem::path(modules) / "gltf-validator")) return "";
  if (std::system("node --version > /dev/null 2>&1") != 0) return "";
  return "ANIMKIT_NODE_MODULES='" + modules + "' node '" + test::SourcePath("tools/gltf-validate/validate.mjs") + "' ";
}

// Runs the validator on a file; returns its JSON summary.
nlohmann::json Validate(const std::filesystem::path& file) {
  const std::string out = (file.parent_path() / "validator.json").string();
  const int status = std::system((ValidatorCommand() + "'" + file.string() + "' > '" + out + "'").c_str());
  std::ifstream in(out);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (status != 0) ADD_FAILURE() << "validator: " << j.dump();
  return j;
}

TEST(PsxTmd, AnmWithTmdExportsAnAnimatedModelToGltf) {
  const Bytes tmd = ReadFileBytes(test::SourcePath("samples/psx_tmd/figure.tmd"));
  const Scene model = kPsxTmdFormat.read(tmd, {})->Decode({});
  ASSERT_EQ(model.meshes.size(), 8u);
  // Decoded as every front end decodes it: the model's meshes join the animation's scene.
  const LoadedFile loaded = LoadFile(test::SourcePath("samples/psx_tmd/figure.anm"), "", {});
  const Scene scene = DecodeWithSkeleton(loaded, SkeletonSource::Decoded(model), {}).scene;
  ASSERT_EQ(scene.meshes.size(), 8u);
  const Bytes glb = ExportGltf(scene, {true});

  const tinygltf::Model g = gltf::LoadModel(glb, "figure.glb");
  // One node per object, named as the joints, each with its mesh.
  for (int i = 0; i < 8; ++i) {
    const tinygltf::Node& node = g.nodes.at(size_t(i));
    EXPECT_EQ(node.name, "#" + std::to_string(i));
    ASSERT_GE(node.mesh, 0) << i;
    const tinygltf::Mesh& mesh = g.meshes.at(size_t(node.mesh));
    const auto& source = model.meshes[size_t(i)];
    size_t lines = 0, tris = 0;
    for (const auto& p : mesh.primitives) {
      EXPECT_TRUE(p.attributes.count("COLOR_0"));
      const auto& pos = g.accessors.at(size_t(p.attributes.at("POSITION")));
      EXPECT_EQ(pos.count, source.positions.size());
      const size_t n = g.accessors.at(size_t(p.indices)).count;
      if (p.mode == TINYGLTF_MODE_LINE) lines += n;
      if (p.mode == TINYGLTF_MODE_TRIANGLES) tris += n;
    }
    EXPECT_EQ(lines, source.lines.size());
    EXPECT_EQ(tris, source.triangles.size());
  }
  // Object 0 is a quad (two triangles) outlined by four lines.
  EXPECT_EQ(model.meshes[0].triangles.size(), 6u);
  EXPECT_EQ(model.meshes[0].lines.size(), 8u);
  // The star (object 7) blinks: a STEP scale channel with 0 where it is hidden.
  ASSERT_EQ(g.animations.size(), 1u);
  bool star_scale = false;
  for (const auto& ch : g.animations[0].channels) {
    if (ch.target_node != 7 || ch.target_path != "scale") continue;
    const auto& sampler = g.animations[0].samplers.at(size_t(ch.sampler));
    EXPECT_EQ(sampler.interpolation, "STEP");
    const auto& out = g.accessors.at(size_t(sampler.output));
    const auto& view = g.bufferViews.at(size_t(out.bufferView));
    const float* values =
        reinterpret_cast<const float*>(g.buffers[0].data.data() + view.byteOffset + out.byteOffset);
    bool zero = false, one = false;
    for (size_t k = 0; k < out.count; ++k) (values[3 * k] == 0 ? zero : one) = true;
    EXPECT_TRUE(zero && one);
    star_scale = true;
  }
  EXPECT_TRUE(star_scale);
  // Every object is animated.
  std::set<int> animated;
  for (const auto& ch : g.animations[0].channels) animated.insert(ch.target_node);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(animated.count(i)) << i;

  if (ValidatorCommand().empty()) GTEST_SKIP() << "glTF validator not installed";
  const auto dir = test::TempDir("psx-tmd-gltf");
  {
    std::ofstream f(dir / "figure.glb", std::ios::binary);
    f.write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  }
  const nlohmann::json report = Validate(dir / "figure.glb");
  EXPECT_EQ(report.value("errors", -1), 0) << report.dump();
  EXPECT_EQ(report.value("warnings", -1), 0) << report.dump();
  // The model alone exports too (no animation).
  const Bytes alone = ExportGltf(model, {true});
  {
    std::ofstream f(dir / "model.glb", std::ios::binary);
    f.write(reinterpret_cast<const char*>(alone.data()), std::streamsize(alone.size()));
  }
  const nlohmann::json r2 = Validate(dir / "model.glb");
  EXPECT_EQ(r2.value("errors", -1), 0) << r2.dump();
  EXPECT_EQ(r2.value("warnings", -1), 0) << r2.dump();
}

TEST(PsxTmd, CliConvertsWithSkeletonAndPrintsInfo) {
  const auto dir = test::TempDir("psx-tmd-cli");
  std::string out, err;
  const std::string tmd = test::SourcePath("samples/psx_tmd/figure.tmd");
  ASSERT_EQ(test::RunCli("convert " + test::SourcePath("samples/psx_tmd/figure.anm") + " " +
                             (dir / "vibri.glb").string() + " --skeleton " + tmd,
                         &out, &err),
            0)
      << err;
  const Bytes glb = ReadFileBytes((dir / "vibri.glb").string());
  const tinygltf::Model g = gltf::LoadModel(glb, "vibri.glb");
  EXPECT_EQ(g.meshes.size(), 8u);
  EXPECT_EQ(g.animations.size(), 1u);

  ASSERT_EQ(test::RunCli("info " + tmd, &out, &err), 0) << err;
  EXPECT_NE(out.find("psx-tmd"), std::string::npos);
  EXPECT_NE(out.find("object_count: 8"), std::string::npos) << out;
  EXPECT_NE(out.find("0x40 line: 22"), std::string::npos) << out;
  EXPECT_NE(out.find("0x21 flat triangle (unlit): 3"), std::string::npos) << out;
  EXPECT_NE(out.find("0x29 flat quad (unlit): 1"), std::string::npos) << out;
  ASSERT_EQ(test::RunCli("info --json " + tmd, &out, &err), 0) << err;
  const auto summary = nlohmann::json::parse(out);
  EXPECT_EQ(summary["fields"]["vertex_count"], 4 + 4 + 4 * 3 + 8 + 3);
  EXPECT_EQ(summary["fields"]["objects"], nlohmann::json({{"count", 8}}));  // the object table: a count
  ASSERT_EQ(test::RunCli("info --json --full " + tmd, &out, &err), 0) << err;
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["fields"]["objects"][6]["primitives"]["0x40 line"], 7);
  EXPECT_EQ(j["joints"].size(), 8u);
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

TEST(PsxTmd, StaticMeshWithoutJointsExports) {
  Scene s;
  Mesh m;
  m.name = "ground";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  m.triangles = {0, 1, 2};
  s.meshes.push_back(m);
  const tinygltf::Model g = gltf::LoadModel(ExportGltf(s, {true}), "ground.glb");
  ASSERT_EQ(g.meshes.size(), 1u);
  ASSERT_EQ(g.scenes.size(), 1u);
  const auto& root = g.nodes.at(size_t(g.scenes[0].nodes.at(0)));
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(g.nodes.at(size_t(root.children[0])).mesh, 0);
}

}  // namespace
}  // namespace animkit
