// KH2 model entries with a second (shadow) model, packets whose colour count is not their
// strip-node count, vertices of more than 4 bones: hand-built from the layout
// (docs/formats/kh2.md, "Meshes" and "The shadow model"), expected values from it; and
// every MDLX of ../shared/real/kh2 and ../shared/fixtures/kh2 decoding every model and group.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include "kh2_test_support.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <memory>

namespace animkit {
namespace {

using namespace kh2;

struct Builder {
  Bytes b;
  void U16(uint16_t v) { b.push_back(uint8_t(v)), b.push_back(uint8_t(v >> 8)); }
  void U32(uint32_t v) { U16(uint16_t(v)), U16(uint16_t(v >> 16)); }
  void F32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    U32(u);
  }
  void Pad16() {
    while (b.size() % 16) b.push_back(0);
  }
  void Set32(size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
};

struct Node {
  uint8_t index, flag;
  int16_t u = 0, v = 0;
};

// VIF codes (EE User's Manual): STCYCL 1,1; UNPACK kinds with the FLG bit as the game sets it.
constexpr uint32_t kStcycl = 0x01000101, kV4_32 = 0x6C000000, kV3_32Masked = 0x78000000, kS8Masked = 0x72000000;
constexpr uint32_t kV2_16 = 0x65000000, kV4_8 = 0x6E000000, kUnsigned = 0x4000;
uint32_t Unpack(uint32_t kind, size_t num, size_t qword) { return kind | uint32_t(num & 0xFF) << 16 | uint32_t(qword); }

// Strip nodes' vertex indices then flags: two masked S-8 unpacks at qword `at`.
void PutStrip(Builder& p, const std::vector<Node>& strip, size_t at) {
  for (int pass = 0; pass < 2; ++pass) {
    p.U32(0x20000000), p.U32(pass == 0 ? 0xCFCFCFCF : 0x3F3F3F3F);  // STMASK: z only, then w only
    p.U32(kStcycl), p.U32(Unpack(kS8Masked | kUnsigned, strip.size(), at));
    for (const Node& n : strip) p.b.push_back(pass == 0 ? n.index : n.flag);
    while (p.b.size() % 4) p.b.push_back(0);
  }
}

// V4-32 words from qword `at`.
void PutWords(Builder& p, const std::vector<uint32_t>& words, size_t at) {
  p.U32(kStcycl), p.U32(Unpack(kV4_32, words.size() / 4, at));
  for (uint32_t w : words) p.U32(w);
}

// Qword-padded words.
void Append(std::vector<uint32_t>& to, const std::vector<uint32_t>& words) {
  to.insert(to.end(), words.begin(), words.end());
  while (to.size() % 4) to.push_back(0);
}

// A shadow packet (3-qword header, type 2): strip nodes from qword 3, positions on one bone
// each (masked V3-32, w = 1 from STCOL), the per-slot position counts.
Bytes ShadowPacket(const std::vector<Node>& strip, const std::vector<Vec3>& positions,
                   const std::vector<uint32_t>& per_slot, uint32_t word10 = 0) {
  const size_t pos_at = 3 + strip.size(), table_at = pos_at + positions.size();
  const size_t matrices_at = table_at + (per_slot.size() + 3) / 4;
  Builder p;
  PutWords(p, {2, 0, 0, 0, uint32_t(strip.size()), 3, uint32_t(table_at), uint32_t(matrices_at),
               uint32_t(positions.size()), uint32_t(pos_at), word10, uint32_t(per_slot.size())}, 0);
  PutStrip(p, strip, 3);
  p.U32(0x31000000);  // STCOL 1.0 x 4
  for (int k = 0; k < 4; ++k) p.F32(1);
  p.U32(0x20000000), p.U32(0x80808080);  // STMASK: w from the column register
  p.U32(kStcycl), p.U32(Unpack(kV3_32Masked, positions.size(), pos_at));
  for (const Vec3& v : positions) p.F32(v.x), p.F32(v.y), p.F32(v.z);
  std::vector<uint32_t> table;
  Append(table, per_slot);
  PutWords(p, table, table_at);
  p.U32(0x17000000);  // MSCNT
  p.Pad16();
  return p.b;
}

// An object packet (4-qword header, type 1): strip nodes with u, v from qword 4, colours
// (color_count in the header), pre-weighted positions, per-slot counts and weight groups
// (groups[a]: the position indices of the vertices of a + 1 influences, flat).
Bytes ObjectPacket(const std::vector<Node>& strip, size_t color_count, const std::vector<std::array<float, 4>>& positions,
                   const std::vector<uint32_t>& per_slot, const std::vector<std::vector<uint32_t>>& groups) {
  const size_t color_at = 4 + strip.size(), pos_at = color_at + color_count, table_at = pos_at + positions.size();
  std::vector<uint32_t> table;
  Append(table, per_slot);
  const size_t groups_at = table_at + table.size() / 4;
  std::vector<uint32_t> counts;
  for (size_t a = 0; a < groups.size(); ++a) counts.push_back(uint32_t(groups[a].size() / (a + 1)));
  Append(table, counts);
  const size_t lists_at = table_at + table.size() / 4;
  for (const auto& g : groups) Append(table, g);
  const size_t matrices_at = table_at + table.size() / 4;
  Builder p;
  PutWords(p, {1, 0, 0, 0, uint32_t(strip.size()), 4, uint32_t(table_at), uint32_t(matrices_at), uint32_t(color_count),
               uint32_t(color_at), uint32_t(groups.size()), uint32_t(groups.empty() ? 0 : groups_at),
               uint32_t(positions.size()), uint32_t(pos_at), uint32_t(groups.empty() ? 0 : lists_at),
               uint32_t(per_slot.size())}, 0);
  p.U32(kStcycl), p.U32(Unpack(kV2_16, strip.size(), 4));
  for (const Node& n : strip) p.U16(uint16_t(n.u)), p.U16(uint16_t(n.v));
  PutStrip(p, strip, 4);
  if (color_count) {
    p.U32(kStcycl), p.U32(Unpack(kV4_8 | kUnsigned, color_count, color_at));
    for (size_t c = 0; c < color_count; ++c) p.b.insert(p.b.end(), {0x80, 0x40, 0x20, 0x80});
  }
  std::vector<uint32_t> words;
  for (const auto& q : positions)
    for (float f : q) {
      uint32_t u;
      std::memcpy(&u, &f, 4);
      words.push_back(u);
    }
  PutWords(p, words, pos_at);
  PutWords(p, table, table_at);
  p.U32(0x17000000);
  p.Pad16();
  return p.b;
}

struct Packet {
  Bytes vif;
  std::vector<uint32_t> bones;  // per matrix slot
};
struct Group {
  std::vector<Packet> packets;
  uint32_t texture = 0;
};
struct ModelSpec {
  int32_t type = 3;                // 3 object (with bones), 4 shadow (no bone table)
  std::vector<Group> groups;
};

// A model entry: 0x90 reserved bytes, then each model (its header, group headers, for the
// object model `bone_count` bones each 10 units above its parent, then per group its VIF
// packets, DMA tags and slot list), next = the model's size, offsets from its header.
Bytes Entry(const std::vector<ModelSpec>& models, uint16_t bone_count) {
  Bytes entry(0x90, 0);
  for (size_t m = 0; m < models.size(); ++m) {
    const ModelSpec& spec = models[m];
    const bool object = spec.type == 3;
    Builder b;
    b.U32(uint32_t(spec.type)), b.U32(0), b.U32(0), b.U32(0);  // next: set below
    b.U16(bone_count), b.U16(0), b.U32(0), b.U32(0), b.U32(uint32_t(spec.groups.size()));
    const size_t group_headers = b.b.size();
    b.b.resize(b.b.size() + 0x20 * spec.groups.size(), 0);
    if (object) {
      b.Set32(0x14, uint32_t(b.b.size()));
      for (uint16_t i = 0; i < bone_count; ++i) {
        b.U16(i), b.U16(0xFFFF), b.U16(i == 0 ? 0xFFFF : uint16_t(i - 1)), b.U16(0xFFFF), b.U32(0), b.U32(0);
        for (float f : {1.f, 1.f, 1.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, i == 0 ? 0.f : 10.f, 0.f, 0.f}) b.F32(f);
      }
    }
    for (size_t g = 0; g < spec.groups.size(); ++g) {
      b.Pad16();
      std::vector<size_t> vif_at;
      for (const Packet& p : spec.groups[g].packets) vif_at.push_back(b.b.size()), b.b.insert(b.b.end(), p.vif.begin(), p.vif.end());
      const size_t dma = b.b.size();
      for (size_t k = 0; k < spec.groups[g].packets.size(); ++k) {
        const Packet& p = spec.groups[g].packets[k];
        b.U32(0x30000000 | uint32_t(p.vif.size() / 16)), b.U32(uint32_t(vif_at[k])), b.U32(0), b.U32(0);
        for (size_t j = 0; j < p.bones.size(); ++j)
          b.U32(0x30000004), b.U32(p.bones[j]), b.U32(kStcycl), b.U32(0x6C048000 | uint32_t(0x80 + 4 * j));
        b.U32(0x10000000), b.U32(0), b.U32(0x17000000), b.U32(0);
      }
      const size_t slots = b.b.size();
      std::vector<int32_t> list;
      for (size_t k = 0; k < spec.groups[g].packets.size(); ++k) {
        if (k) list.push_back(-1);
        for (uint32_t bone : spec.groups[g].packets[k].bones) list.push_back(int32_t(bone));
      }
      b.U32(uint32_t(list.size()));
      for (int32_t v : list) b.U32(uint32_t(v));
      const size_t h = group_headers + 0x20 * g;
      b.Set32(h + 4, spec.groups[g].texture), b.Set32(h + 0x10, uint32_t(dma)), b.Set32(h + 0x14, uint32_t(slots));
    }
    if (m + 1 < models.size()) b.Pad16(), b.Set32(0x0C, uint32_t(b.b.size()));  // the last ends on its slot list
    entry.insert(entry.end(), b.b.begin(), b.b.end());
  }
  return entry;
}

// Four positions: three on bone 0, one on bone 1 ((0, 10, 0)); five strip nodes, the last
// drawing vertex 0 again: 5 nodes for 4 positions (the word the object layout reads as
// the colour count).
Bytes HandShadowPacket(uint32_t word10 = 0) {
  return ShadowPacket({{0, 0x10}, {1, 0x10}, {2, 0x20}, {3, 0x30}, {0, 0x20}},
                      {{1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {2, 0, 0}}, {3, 1}, word10);
}

// One textured triangle on bone 0.
Bytes HandObjectPacket(size_t color_count = 3) {
  return ObjectPacket({{0, 0x10, 0, 0}, {1, 0x10, 4096, 0}, {2, 0x20, 0, 4096}}, color_count,
                      {{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}}, {3}, {});
}

Bytes CharacterAndShadow(uint32_t word10 = 0) {
  return Entry({{3, {{{{HandObjectPacket(), {0}}}, 0}}}, {4, {{{{HandShadowPacket(word10), {0, 1}}}, 7}}}}, 2);
}

void ExpectAt(Vec3 a, float x, float y, float z) {
  EXPECT_NEAR(a.x, x, 1e-5f);
  EXPECT_NEAR(a.y, y, 1e-5f);
  EXPECT_NEAR(a.z, z, 1e-5f);
}

std::string First(const std::vector<std::string>& w) { return w.empty() ? "" : w[0]; }

TEST(Kh2Shadow, TheShadowModelDecodesAsItsOwnHiddenMesh) {
  const Model model = ParseModel(CharacterAndShadow());
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  EXPECT_TRUE(out.warnings.empty()) << First(out.warnings);
  EXPECT_EQ(out.models, 2u);
  EXPECT_EQ(out.shadow_models, 1u);
  ASSERT_EQ(out.meshes.size(), 2u);
  const Mesh& object = out.meshes[0];
  EXPECT_EQ(object.name, "model0_group0");
  EXPECT_EQ(object.metadata[kMeshModelRoleKey].get<std::string>(), "object");
  EXPECT_FALSE(object.metadata.contains(kMeshHiddenKey));
  EXPECT_EQ(object.colors.size(), 3u);
  const Mesh& shadow = out.meshes[1];
  EXPECT_EQ(shadow.name, "model1_shadow_group0");
  EXPECT_EQ(shadow.metadata[kMeshModelKey].get<int64_t>(), 1);
  EXPECT_EQ(shadow.metadata[kMeshModelRoleKey].get<std::string>(), "shadow");
  EXPECT_EQ(shadow.metadata[kMeshHiddenKey].get<bool>(), true);
  EXPECT_EQ(shadow.metadata["model_type"].get<int64_t>(), 4);
  EXPECT_EQ(shadow.material, -1);  // a shadow group's texture index (7 here) is not used
  EXPECT_TRUE(shadow.uvs.empty());
  EXPECT_TRUE(shadow.colors.empty());
  // Node 4 draws vertex 0 again: one mesh vertex per distinct vertex.
  ASSERT_EQ(shadow.positions.size(), 4u);
  ExpectAt(shadow.positions[0], 1, 0, 0);
  ExpectAt(shadow.positions[1], 0, 0, 1);
  ExpectAt(shadow.positions[2], 0, 0, -1);
  ExpectAt(shadow.positions[3], 2, 10, 0);  // slot 1 names bone 1, at (0, 10, 0)
  EXPECT_EQ(shadow.joints[3][0], 1);
  EXPECT_FLOAT_EQ(shadow.weights[3][0], 1);
  EXPECT_EQ(shadow.joints[0][0], 0);
  // 0x20 at node 2: (2, 0, 1); 0x30 at node 3: (3, 2, 1); 0x20 at node 4: (node 4, 2, 3).
  EXPECT_EQ(shadow.triangles, (std::vector<uint32_t>{2, 0, 1, 3, 2, 1, 0, 2, 3}));
}

TEST(Kh2Shadow, AShadowMeshIsWrittenAndReadBack) {
  const Model model = ParseModel(CharacterAndShadow());
  const ModelMeshes first = DecodeModelMeshes(model, SkeletonFromModel(model));
  ASSERT_EQ(first.meshes.size(), 2u);
  const Model again = ParseModel(WriteNewModelEntry(model.bones, first.meshes));
  const ModelMeshes back = DecodeModelMeshes(again, SkeletonFromModel(again));
  EXPECT_TRUE(back.warnings.empty()) << First(back.warnings);
  EXPECT_EQ(back.shadow_models, 1u);
  ASSERT_EQ(back.meshes.size(), 2u);
  const Mesh& a = first.meshes[1];
  const Mesh& b = back.meshes[1];
  EXPECT_EQ(b.name, "model1_shadow_group0");
  ASSERT_EQ(b.positions.size(), a.positions.size());
  for (size_t v = 0; v < a.positions.size(); ++v) ExpectAt(b.positions[v], a.positions[v].x, a.positions[v].y, a.positions[v].z);
  EXPECT_EQ(b.joints, a.joints);
  EXPECT_EQ(b.triangles.size(), a.triangles.size());
}

TEST(Kh2Shadow, AShadowMeshGetsNoMaterial) {
  const Model model = ParseModel(CharacterAndShadow());
  ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  Scene scene;
  std::vector<std::string> warnings;
  AttachMaterials(out.meshes, {}, scene, warnings);
  EXPECT_EQ(out.meshes[1].material, -1);  // no material, no "missing texture" for the shadow
  EXPECT_EQ(warnings.size(), 1u) << First(warnings);  // the object's texture 0: no texture entry
}

// An MDLX (a BAR holding the model entry) of the character and its shadow: info names the
// shadow's model line, and the glb marks its mesh hidden.
TEST(Kh2Shadow, InfoAndTheGlbNameTheShadowModel) {
  Bar bar;
  BarEntry e;
  e.type = 4;
  e.name = {'s', 'h', 'd', 'w'};
  e.model = std::make_shared<Model>(ParseModel(CharacterAndShadow()));
  e.offset = 0x20, e.size = uint32_t(e.model->bytes.size());  // after the header and the one entry record
  bar.size = e.offset + e.size;
  bar.entries.push_back(e);
  const std::filesystem::path dir = test::TempDir("kh2_shadow_info");
  const std::string file = (dir / "shadow.mdlx").string();
  WriteFileAtomic(file, SerializeBar(bar));
  std::string out, err;
  ASSERT_EQ(test::RunCli("info " + file, &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, "model \"model 0\": 1 meshes"));
  EXPECT_TRUE(test::Has(out, "model \"model 1\" (shadow): 1 meshes (1 skinned), 4 vertices, 3 triangles, 0 materials"));
  const std::string glb = (dir / "shadow.glb").string();
  ASSERT_EQ(test::RunCli("convert " + file + " " + glb, &out, &err), 0) << err;
  const Bytes bytes = ReadFileBytes(glb);
  const std::string text(bytes.begin(), bytes.end());
  EXPECT_TRUE(test::Has(text, "\"name\":\"model1_shadow_group0\""));
  EXPECT_TRUE(test::Has(text, "\"hidden\":true"));
  EXPECT_TRUE(test::Has(text, "\"model_role\":\"shadow\""));
}

TEST(Kh2Shadow, AShadowHeaderWordNotSeenInFilesIsAWarning) {
  const Model model = ParseModel(CharacterAndShadow(5));
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  ASSERT_EQ(out.meshes.size(), 2u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(out.warnings[0], "model 1 (shadow) group 0: offset 0x"));
  EXPECT_TRUE(test::Has(out.warnings[0], "word 10 is 5"));
}

// A group of an object packet then a shadow packet (not seen in files): both decode, the
// texture coordinates (the object packet's only) are left out with a warning.
TEST(Kh2Shadow, AGroupMixingPacketTypesSaysSo) {
  const Model model =
      ParseModel(Entry({{3, {{{{HandObjectPacket(0), {0}}, {HandShadowPacket(), {0, 1}}}, 0}}}}, 2));
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  ASSERT_EQ(out.meshes.size(), 1u) << First(out.warnings);
  EXPECT_EQ(out.meshes[0].positions.size(), 7u);  // 3 + 4
  EXPECT_TRUE(out.meshes[0].uvs.empty());
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(out.warnings[0], "model 0 group 0: the group mixes object and shadow packets"));
}

// An object packet whose colour count is not its strip-node count: the colours are not
// per node (OpenKH's reader applies them only when the counts match): left out, a warning.
TEST(Kh2Shadow, ColoursThatAreNotPerStripNodeAreLeftOutWithAWarning) {
  const Model model = ParseModel(Entry({{3, {{{{HandObjectPacket(2), {0}}}, 0}}}}, 1));
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  ASSERT_EQ(out.meshes.size(), 1u) << First(out.warnings);
  EXPECT_EQ(out.meshes[0].positions.size(), 3u);
  EXPECT_TRUE(out.meshes[0].colors.empty());
  EXPECT_EQ(out.meshes[0].uvs.size(), 3u);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(out.warnings[0], "2 colours for 3 strip nodes"));
}

// One vertex of 6 influences (weights 0.3, 0.25, 0.2, 0.15, 0.06, 0.04 on bones 0..5):
// its position is the full blend (every bone's x = 1 at its own height 10 i), the Mesh
// keeps the 4 heaviest renormalised, and the dropped share (0.1) is counted, no warning.
TEST(Kh2Shadow, AVertexOfMoreThanFourBonesKeepsItsPositionAndFourHeaviest) {
  const std::array<float, 6> w = {0.3f, 0.25f, 0.2f, 0.15f, 0.06f, 0.04f};
  // Positions in per-slot runs (3, 1, 1, 1, 1, 1): slot 0 holds bone 0's share of the
  // six-bone vertex and the two one-bone vertices; slots 1..5 the other bones' shares,
  // each (1, 0, 0) in its bone's space, pre-weighted (xyz times w, w the weight).
  std::vector<std::array<float, 4>> positions = {{w[0], 0, 0, w[0]}, {0, 0, 0, 1}, {0, 0, 1, 1}};
  for (size_t k = 1; k < 6; ++k) positions.push_back({w[k], 0, 0, w[k]});
  // Weight groups: one influence: positions 1, 2; six influences: 0, 3..7. The vertices
  // strip nodes index, in group order: 0 = position 1, 1 = position 2, 2 = the six-bone one.
  const Bytes packet = ObjectPacket({{0, 0x10}, {1, 0x10}, {2, 0x20}}, 0, positions, {3, 1, 1, 1, 1, 1},
                                    {{1, 2}, {}, {}, {}, {}, {0, 3, 4, 5, 6, 7}});
  const Model model = ParseModel(Entry({{3, {{{{packet, {0, 1, 2, 3, 4, 5}}}, 0}}}}, 6));
  const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
  EXPECT_TRUE(out.warnings.empty()) << First(out.warnings);
  ASSERT_EQ(out.meshes.size(), 1u);
  EXPECT_EQ(out.dropped_influences, 1u);
  EXPECT_NEAR(out.max_dropped_weight, 0.1, 1e-6);
  const Mesh& mesh = out.meshes[0];
  ASSERT_EQ(mesh.positions.size(), 3u);
  ExpectAt(mesh.positions[0], 0, 0, 0);
  ExpectAt(mesh.positions[1], 0, 0, 1);
  // Bone k is at (0, 10 k, 0): sum_k w_k (1, 10 k, 0) = (1, 10 (0.25 + 0.4 + 0.45 + 0.24 + 0.2), 0).
  ExpectAt(mesh.positions[2], 1, 15.4f, 0);
  EXPECT_EQ(mesh.joints[2], (std::array<uint16_t, 4>{0, 1, 2, 3}));
  EXPECT_NEAR(mesh.weights[2][0], 0.3 / 0.9, 1e-6);
  EXPECT_NEAR(mesh.weights[2][3], 0.15 / 0.9, 1e-6);
  // Every influence, as the game blends them, in the metadata.
  ASSERT_TRUE(mesh.metadata.contains("influences_over_4"));
  const Value& all = mesh.metadata["influences_over_4"];
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0]["vertex"].get<int64_t>(), 2);
  ASSERT_EQ(all[0]["joints"].size(), 6u);
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(all[0]["joints"][k].get<int64_t>(), int64_t(k));
    EXPECT_NEAR(all[0]["weights"][k].get<double>(), w[k], 1e-6);
  }
}

// Every prefix of a character-and-shadow entry: an error, or what survives with a warning.
TEST(Kh2Shadow, EveryTruncationIsAnErrorOrAWarning) {
  const Bytes full = CharacterAndShadow();
  const size_t second = 0x90 + [&] {
    uint32_t next;
    std::memcpy(&next, full.data() + 0x9C, 4);
    return size_t(next);
  }();
  test::ExpectEveryPrefixIsAnErrorOrRead(full, [&](ByteView cut, size_t n) {
    const Model model = ParseModel(cut);
    const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
    EXPECT_LT(out.meshes.size(), 2u) << n;
    EXPECT_FALSE(out.warnings.empty()) << n;
    if (n > second) {  // the shadow's header is read: the warning names an offset in the entry
      EXPECT_TRUE(test::Has(First(out.warnings), "offset 0x")) << n;
    }
  });
}

// Each word of the shadow model (header, group header, packet, DMA tags, slot list) set to
// a large or negative value: an error or warnings, never a crash; the character survives.
TEST(Kh2Shadow, CorruptedShadowWordsAreErrorsOrWarnings) {
  const Bytes full = CharacterAndShadow();
  uint32_t next;
  std::memcpy(&next, full.data() + 0x9C, 4);
  const size_t second = 0x90 + next;
  for (size_t at = second; at + 4 <= full.size(); at += 4)
    for (uint32_t value : {0xFFFFFFFFu, 0x7FFFFFFFu, 0x00010000u, 0x00000100u}) {
      Bytes bad = full;
      std::memcpy(bad.data() + at, &value, 4);
      try {
        const Model model = ParseModel(bad);
        const ModelMeshes out = DecodeModelMeshes(model, SkeletonFromModel(model));
        ASSERT_GE(out.meshes.size(), 1u) << at;
        EXPECT_EQ(out.meshes[0].name, "model0_group0");
        if (out.meshes.size() < 2) {
          EXPECT_FALSE(out.warnings.empty()) << at;
        }
      } catch (const Error&) {
      }
    }
}

// ---------------------------------------------------------------------------
// Real files: every model and group of every MDLX decodes, without a warning.

std::vector<std::filesystem::path> RealModels() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {"../real/kh2", "kh2"}) {
    const std::string path = test::FixturePath(dir);
    if (path.empty()) continue;
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.path().extension() == ".mdlx") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Kh2Shadow, EveryRealModelDecodesEveryModelAndGroup) {
  const std::vector<std::filesystem::path> files = RealModels();
  if (files.empty()) GTEST_SKIP() << "no .mdlx in ../shared/real/kh2 or ../shared/fixtures/kh2 beside the checkout";
  for (const auto& path : files) {
    const Bytes data = ReadFileBytes(path.string());
    const Bar bar = ParseBar(data);
    const BarEntry* entry = nullptr;
    for (const BarEntry& e : bar.entries)
      if (e.model && !entry) entry = &e;
    ASSERT_NE(entry, nullptr) << path;
    // The chain and its group counts, read here from the headers' bytes.
    const Bytes& bytes = entry->model->bytes;
    size_t models = 0, groups = 0, shadows = 0;
    for (size_t at = 0x90; at + 0x20 <= bytes.size();) {
      uint32_t type, next, count;
      std::memcpy(&type, bytes.data() + at, 4), std::memcpy(&next, bytes.data() + at + 12, 4);
      std::memcpy(&count, bytes.data() + at + 28, 4);
      ++models, groups += count, shadows += type == 4;
      if (next == 0) break;
      at += next;
    }
    const ModelMeshes out = DecodeModelMeshes(*entry->model, SkeletonFromModel(*entry->model), entry->offset);
    size_t vertices = 0, triangles = 0, shadow_meshes = 0;
    for (const Mesh& m : out.meshes) {
      vertices += m.positions.size(), triangles += m.triangles.size() / 3;
      shadow_meshes += m.metadata[kMeshModelRoleKey].get<std::string>() == "shadow";
    }
    std::printf("%s: %zu models (%zu shadow), %zu meshes of %zu groups (%zu shadow), %zu vertices, %zu triangles; "
                "%zu vertices over 4 bones (largest share left out %.4f); %zu warnings\n",
                path.filename().c_str(), out.models, out.shadow_models, out.meshes.size(), groups, shadow_meshes,
                vertices, triangles, out.dropped_influences, out.max_dropped_weight, out.warnings.size());
    for (const std::string& w : out.warnings) std::printf("  warning: %s\n", w.c_str());
    EXPECT_EQ(out.models, models) << path;
    EXPECT_EQ(out.shadow_models, shadows) << path;
    EXPECT_EQ(out.meshes.size(), groups) << path;
    EXPECT_TRUE(out.warnings.empty()) << path << ": " << First(out.warnings);
    for (const Mesh& m : out.meshes) EXPECT_FALSE(m.triangles.empty()) << path << " " << m.name;
    // The shadow is the character's outline: its vertices lie within the character's box,
    // grown by a quarter of its size (a wrong table or bone would scatter them).
    Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
    for (const Mesh& m : out.meshes)
      if (m.metadata[kMeshModelRoleKey].get<std::string>() == "object")
        for (const Vec3& p : m.positions)
          lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)},
          hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    const Vec3 grow = (hi - lo) * 0.25f;
    lo = lo - grow, hi = hi + grow;
    for (const Mesh& m : out.meshes) {
      if (m.metadata[kMeshModelRoleKey].get<std::string>() != "shadow") continue;
      size_t outside = 0;
      for (const Vec3& p : m.positions)
        outside += !(p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z);
      EXPECT_EQ(outside, 0u) << path << " " << m.name << ": of " << m.positions.size() << " vertices";
    }
  }
}

}  // namespace
}  // namespace animkit
