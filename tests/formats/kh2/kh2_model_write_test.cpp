// KH2 model writer: a packet's bytes written from the layout (docs/formats/kh2.md, "Writing
// models"), the limits it keeps, and the errors that name the mesh and the limit.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include "formats/kh2/model/kh2_vif.hpp"
#include "support/test_support.hpp"

#include <cstring>

namespace animkit {
namespace {

using namespace kh2;

void W32(Bytes& b, uint32_t v) {
  for (int k = 0; k < 4; ++k) b.push_back(uint8_t(v >> (8 * k)));
}
void WF(Bytes& b, float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  W32(b, u);
}
void W16(Bytes& b, int16_t v) { b.push_back(uint8_t(uint16_t(v))), b.push_back(uint8_t(uint16_t(v) >> 8)); }
Vec3 CrossOf(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
float DotOf(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
uint32_t R32(const Bytes& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}

std::vector<BoneRecord> OneBone() {
  BoneRecord b;
  b.index = 0, b.parent = -1, b.sibling = -1, b.child = -1;
  return {b};
}

// One triangle (0, 1, 2) on bone 0.
Mesh Triangle() {
  Mesh m;
  m.name = "tri";
  m.positions = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  m.uvs = {{0.25f, 0.5f}, {1.f, 0.f}, {0.f, -0.125f}};
  m.joints.assign(3, {0, 0, 0, 0});
  m.weights.assign(3, {1, 0, 0, 0});
  m.triangles = {0, 1, 2};
  m.material = 2;
  return m;
}

TEST(Kh2ModelWrite, OneTrianglesPacketIsTheLayoutsBytes) {
  const Bytes entry = WriteNewModelEntry(OneBone(), {Triangle()});
  // Model header at 0x90: object model, one bone, bones after the group header and the
  // 0x120 bytes of skeleton data; the group's data 16-aligned after the bones.
  const size_t h = 0x90;
  EXPECT_EQ(R32(entry, h), 3u);
  EXPECT_EQ(R32(entry, h + 0x10) & 0xFFFF, 1u);
  EXPECT_EQ(R32(entry, h + 0x14), 0x160u);
  EXPECT_EQ(R32(entry, h + 0x18), 0x40u);
  EXPECT_EQ(R32(entry, h + 0x1C), 1u);
  const size_t vif_at = h + 0x1A0;  // 0x20 + 0x20 + 0x120 + 0x40
  // The strip: nodes 1, 2, 0 flagged stock, stock, draw; packet vertices in node order
  // (1 -> 0, 2 -> 1, 0 -> 2); 3 nodes from qword 4, positions from 7, counts table at 10,
  // matrices at 11.
  Bytes want;
  W32(want, 0x01000101), W32(want, 0x6C048000);
  for (uint32_t w : {1u, 0u, 0u, 0u, 3u, 4u, 10u, 11u, 0u, 0u, 0u, 0u, 3u, 7u, 0u, 1u}) W32(want, w);
  W32(want, 0x01000101), W32(want, 0x65038004);
  for (int16_t v : {4096, 0, 0, -512, 1024, 2048}) W16(want, v);  // u, v of vertices 1, 2, 0
  W32(want, 0x20000000), W32(want, 0xCFCFCFCF), W32(want, 0x01000101), W32(want, 0x7203C004);
  want.insert(want.end(), {0, 1, 2, 0});
  W32(want, 0x20000000), W32(want, 0x3F3F3F3F), W32(want, 0x01000101), W32(want, 0x7203C004);
  want.insert(want.end(), {0x10, 0x10, 0x20, 0});
  W32(want, 0x31000000);
  for (int k = 0; k < 4; ++k) WF(want, 1.f);
  W32(want, 0x20000000), W32(want, 0x80808080), W32(want, 0x01000101), W32(want, 0x78038007);
  for (float f : {4.f, 5.f, 6.f, 7.f, 8.f, 9.f, 1.f, 2.f, 3.f}) WF(want, f);
  W32(want, 0x01000101), W32(want, 0x6C01800A);
  for (uint32_t w : {3u, 0u, 0u, 0u}) W32(want, w);
  while (want.size() % 16) W32(want, 0);
  ASSERT_GE(entry.size(), vif_at + want.size());
  EXPECT_EQ(Bytes(entry.begin() + vif_at, entry.begin() + std::ptrdiff_t(vif_at + want.size())), want);
  // DMA: REF to the packet (from the model header), the bone's matrix to qword 11, CNT + MSCNT.
  const size_t dma = vif_at + want.size();
  const uint32_t tags[] = {0x30000000u | uint32_t(want.size() / 16), uint32_t(vif_at - h), 0, 0,
                           0x30000004, 0, 0x01000101, 0x6C04800B, 0x10000000, 0, 0x17000000, 0,
                           1, 0};  // slot list: 1 slot, bone 0
  for (size_t k = 0; k < std::size(tags); ++k) EXPECT_EQ(R32(entry, dma + 4 * k), tags[k]) << "word " << k;
  const size_t g = h + 0x20;
  EXPECT_EQ(R32(entry, g + 0x04), 2u);  // texture index: the material
  EXPECT_EQ(R32(entry, g + 0x08), 1u);  // one triangle
  EXPECT_EQ(R32(entry, g + 0x10), dma - h);
  EXPECT_EQ(R32(entry, g + 0x14), dma - h + 48);
  EXPECT_EQ(R32(entry, g + 0x18), 3u);  // DMA records
}

// Decodes a written entry: no warnings, the meshes.
ModelMeshes ReadBack(const Bytes& entry) {
  const Model m = ParseModel(entry);
  ModelMeshes out = DecodeModelMeshes(m, SkeletonFromModel(m));
  EXPECT_TRUE(out.warnings.empty()) << (out.warnings.empty() ? "" : out.warnings.front());
  return out;
}

TEST(Kh2ModelWrite, SharedWeightsAndColoursReadBack) {
  std::vector<BoneRecord> bones = OneBone();
  BoneRecord b1 = bones[0];
  b1.index = 1, b1.parent = 0, b1.translation = {0, 10, 0, 0};
  bones.push_back(b1);
  Mesh m = Triangle();
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}};
  m.joints = {{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};
  m.weights = {{0.25f, 0.75f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  m.colors = {{1, 0.5f, 0, 1}, {0, 0, 1, 1}, {0.5f, 0.5f, 0.5f, 0.5f}};
  const ModelMeshes back = ReadBack(WriteNewModelEntry(bones, {m}));
  ASSERT_EQ(back.meshes.size(), 1u);
  const Mesh& r = back.meshes[0];
  ASSERT_EQ(r.positions.size(), 3u);
  ASSERT_EQ(r.colors.size(), 3u);
  for (size_t v = 0; v < 3; ++v) {
    size_t j = 0;  // the input vertex at the same place
    while (j < 3 && std::fabs(m.positions[j].x - r.positions[v].x) > 1e-4f) ++j;
    ASSERT_LT(j, 3u);
    test::ExpectVec(r.positions[v], m.positions[j].x, m.positions[j].y, m.positions[j].z, 1e-4);
    EXPECT_NEAR(r.uvs[v][0], m.uvs[j][0], 1.0 / 4096);
    EXPECT_NEAR(r.uvs[v][1], m.uvs[j][1], 1.0 / 4096);
    for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(r.colors[v][k], m.colors[j][k], 1.0 / 128);
    float w1 = 0;  // bone 1's weight
    for (size_t k = 0; k < 4; ++k)
      if (r.joints[v][k] == 1) w1 += r.weights[v][k];
    const float want = j == 0 ? 0.75f : (j == 1 ? 1.f : 0.f);
    EXPECT_NEAR(w1, want, 1.0 / 255);
  }
  // The triangle keeps its winding.
  ASSERT_EQ(r.triangles.size(), 3u);
  const Vec3 a = r.positions[r.triangles[0]], b = r.positions[r.triangles[1]], c = r.positions[r.triangles[2]];
  const Vec3 n = CrossOf(b - a, c - a), want = CrossOf(m.positions[1] - m.positions[0], m.positions[2] - m.positions[0]);
  EXPECT_GT(DotOf(n, want), 0.f);
}

// Every packet of every group: within the limits (VU footprint, strip nodes, vertices).
void ExpectPacketsWithinLimits(const Bytes& entry, size_t budget = 0xE0) {
  const size_t h = 0x90;
  const uint32_t groups = R32(entry, h + 0x1C);
  for (uint32_t g = 0; g < groups; ++g) {
    const size_t gh = h + 0x20 + 0x20 * g;
    size_t tag = h + R32(entry, gh + 0x10);
    const size_t records = R32(entry, gh + 0x18);
    const size_t end = tag + 16 * records;
    while (tag < end) {
      const uint32_t qwc = R32(entry, tag) & 0xFFFF, at = R32(entry, tag + 4);
      const ByteView vif = ByteView(entry).subspan(h + at, qwc * 16);
      const detail::VuMemory mem = detail::UnpackVif(vif, 0);
      const detail::VertexBatch batch = detail::ReadVertexBatch(mem, 0);
      const size_t slots = mem.words[15];
      EXPECT_LT(mem.words[7] + 4 * slots, budget) << "group " << g;
      EXPECT_LE(mem.words[7] + 4 * slots, 0x100u);
      EXPECT_LE(batch.strip.size() + 3, 255u);
      EXPECT_LE(batch.vertices.size(), 256u);
      tag += 16 * (slots + 2);
    }
  }
}

// A grid of w x h quads on bone 0 (bone 1 shares the middle row).
Mesh Grid(size_t w, size_t h) {
  Mesh m;
  m.name = "grid";
  for (size_t y = 0; y <= h; ++y)
    for (size_t x = 0; x <= w; ++x) {
      m.positions.push_back({float(x), float(y), 0});
      m.uvs.push_back({float(x) / float(w), float(y) / float(h)});
      if (y == h / 2) m.joints.push_back({0, 1, 0, 0}), m.weights.push_back({0.5f, 0.5f, 0, 0});
      else m.joints.push_back({uint16_t(y < h / 2 ? 0 : 1), 0, 0, 0}), m.weights.push_back({1, 0, 0, 0});
    }
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint32_t a = y * uint32_t(w + 1) + x, b = a + 1, c = a + uint32_t(w + 1), d = c + 1;
      m.triangles.insert(m.triangles.end(), {a, b, d, a, d, c});
    }
  return m;
}

TEST(Kh2ModelWrite, ALargeMeshIsSplitIntoPacketsWithinTheLimits) {
  std::vector<BoneRecord> bones = OneBone();
  bones.push_back(bones[0]);
  bones[1].index = 1, bones[1].parent = 0;
  const Mesh grid = Grid(40, 40);
  ModelWriteReport report;
  const Bytes entry = WriteNewModelEntry(bones, {grid}, {}, &report);
  EXPECT_GT(report.packets, 10u);
  ExpectPacketsWithinLimits(entry);
  const ModelMeshes back = ReadBack(entry);
  ASSERT_EQ(back.meshes.size(), 1u);
  EXPECT_EQ(back.meshes[0].triangles.size(), grid.triangles.size());
  // A smaller budget gives more packets, still within it.
  ModelWriteSettings small;
  small.packet_qwords = 100;
  ModelWriteReport more;
  const Bytes tight = WriteNewModelEntry(bones, {grid}, small, &more);
  EXPECT_GT(more.packets, report.packets);
  ExpectPacketsWithinLimits(tight, 100);
  EXPECT_EQ(ReadBack(tight).meshes[0].triangles.size(), grid.triangles.size());
}

TEST(Kh2ModelWrite, ErrorsNameTheMeshAndTheLimit) {
  Mesh unskinned = Triangle();
  unskinned.joints.clear(), unskinned.weights.clear();
  std::string e = test::ErrorOf([&] { WriteNewModelEntry(OneBone(), {unskinned}); });
  EXPECT_TRUE(test::Has(e, "'tri'") && test::Has(e, "not skinned")) << e;
  Mesh past = Triangle();
  past.joints[1] = {5, 0, 0, 0};
  e = test::ErrorOf([&] { WriteNewModelEntry(OneBone(), {past}); });
  EXPECT_TRUE(test::Has(e, "'tri'") && test::Has(e, "bone 5") && test::Has(e, "1")) << e;
  Mesh cut = Triangle();
  cut.triangles.push_back(0);
  e = test::ErrorOf([&] { WriteNewModelEntry(OneBone(), {cut}); });
  EXPECT_TRUE(test::Has(e, "'tri'") && test::Has(e, "multiple of 3")) << e;
  ModelWriteSettings tiny;
  tiny.packet_qwords = 12;  // not even one triangle's packet
  e = test::ErrorOf([&] { WriteNewModelEntry(OneBone(), {Triangle()}, tiny); });
  EXPECT_TRUE(test::Has(e, "'tri'") && test::Has(e, "12 VU qwords")) << e;
  e = test::ErrorOf([&] { WriteNewModelEntry({}, {Triangle()}); });
  EXPECT_TRUE(test::Has(e, "bones")) << e;
}

TEST(Kh2ModelWrite, BonesFromASkeletonKeepTheRestPose) {
  Skeleton s;
  Joint root;
  root.name = "root";
  root.rest.translation = {1, 2, 3};
  root.rest.rotation = QuatFromEuler({0.1f, 0.2f, 0.3f}, EulerOrder::XYZ);
  s.joints.push_back(root);
  Joint child = root;
  child.name = "child", child.parent = 0, child.rest.scale = {2, 2, 2};
  s.joints.push_back(child);
  const std::vector<BoneRecord> bones = BonesFromSkeleton(s);
  ASSERT_EQ(bones.size(), 2u);
  EXPECT_EQ(bones[1].parent, 0);
  EXPECT_EQ(bones[0].child, 1);
  EXPECT_NEAR(bones[0].rotation[0], 0.1, 1e-5);
  EXPECT_NEAR(bones[0].rotation[2], 0.3, 1e-5);
  EXPECT_FLOAT_EQ(bones[1].scale[0], 2.f);
  EXPECT_FLOAT_EQ(bones[0].translation[2], 3.f);
}

}  // namespace
}  // namespace animkit
