#include <animkit/formats/metroid_model.hpp>
#include <animkit/formats/metroid_anim.hpp>

#include "support/test_support.hpp"

namespace animkit {
extern const FormatDescriptor kMetroidCskrFormat;
namespace {

using namespace metroid_model;

struct Be {
  Bytes b;
  void U16(uint16_t v) { b.push_back(uint8_t(v >> 8)), b.push_back(uint8_t(v)); }
  void U32(uint32_t v) { U16(uint16_t(v >> 16)), U16(uint16_t(v)); }
  void F32(float v) { U32(std::bit_cast<uint32_t>(v)); }
};

// MP1: 2 groups (bone 3 alone over 2 positions; bones 4 and 5 half each over 1), then the
// footer: positions -1 then 3, normals 1 then one copied normal (3 u32).
Bytes Mp1Skin() {
  Be f;
  f.U32(2);
  f.U32(1), f.U32(3), f.F32(1), f.U32(2);
  f.U32(2), f.U32(4), f.F32(0.5f), f.U32(5), f.F32(0.5f), f.U32(1);
  f.U32(0xFFFFFFFF), f.U32(3);
  f.U32(1), f.U32(0x3F800000), f.U32(0), f.U32(0);
  return f.b;
}

// Echoes: the same groups, a matrix-index list of 3 (one unused) and a map of 3 positions.
Bytes Mp2Skin() {
  Be f;
  f.U32(2);
  f.U32(1), f.U32(3), f.F32(1), f.U32(2);
  f.U32(2), f.U32(4), f.F32(0.5f), f.U32(5), f.F32(0.5f), f.U32(1);
  f.U32(3), f.U16(0), f.U16(1), f.U16(0xFFFF);
  f.U32(3);
  f.b.insert(f.b.end(), {1, 0, 1});
  return f.b;
}

TEST(MetroidCskr, mp1_groups_and_footer) {
  const Bytes bytes = Mp1Skin();
  const CskrFile f = ParseCskr(bytes);
  ASSERT_EQ(f.groups.size(), 2u);
  EXPECT_FALSE(f.mp2);
  EXPECT_EQ(f.groups[1].weights[1].bone_id, 5u);
  EXPECT_FLOAT_EQ(f.groups[1].weights[1].weight, 0.5f);
  EXPECT_EQ(f.positions.Count(), 3u);
  EXPECT_EQ(f.normals.Count(), 1u);
  EXPECT_EQ(f.normals.copy.size(), 3u);
  EXPECT_EQ(GroupOfPositions(f, 3), (std::vector<uint32_t>{0, 0, 1}));
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { GroupOfPositions(f, 4); }), "cover 3 positions"));
  EXPECT_EQ(SerializeCskr(f), bytes);
}

TEST(MetroidCskr, mp2_matrix_indices_and_map) {
  const Bytes bytes = Mp2Skin();
  const CskrFile f = ParseCskr(bytes);
  EXPECT_TRUE(f.mp2);
  EXPECT_EQ(f.matrix_indices, (std::vector<int16_t>{0, 1, -1}));
  EXPECT_EQ(GroupOfPositions(f, 3), (std::vector<uint32_t>{1, 0, 1}));
  EXPECT_EQ(SerializeCskr(f), bytes);
}

TEST(MetroidCskr, truncations_and_counts_fail) {
  test::ExpectEveryTruncationFails(kMetroidCskrFormat, Mp1Skin());
  Bytes bad = Mp1Skin();
  bad[3] = 0xFF;  // 255 groups
  EXPECT_TRUE(test::Has(test::ReadError(kMetroidCskrFormat, bad), "weight groups"));
  test::ExpectEveryByteCorruptionHandled(kMetroidCskrFormat, Mp1Skin());
  test::ExpectEveryByteCorruptionHandled(kMetroidCskrFormat, Mp2Skin());
}

}  // namespace
}  // namespace animkit
