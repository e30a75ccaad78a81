// EDF's MDB models as the skeleton source of CANM animations: the bone table read, written
// back byte for byte and encoded from a skeleton.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

#include <cmath>

namespace animkit {
extern const FormatDescriptor kEdfMdbFormat;
namespace {

using Builder = test::LittleEndianBuilder;
using test::ExpectQuat;
using test::ExpectVec;
using test::Has;

// One root "hips" at (0, 1, 0) and a child "leg" at (0, -0.5, 0) rotated 90 degrees about X,
// followed by 16 bytes of mesh data that the reader keeps as they are.
Bytes GoldenMdb() {
  Builder w;
  w.b = {'M', 'D', 'B', '0'};
  // version, names 2 at 0x30, bones 2 at 0x38, objects 1 at 0x1B8, no materials/textures.
  for (uint32_t v : {0x14u, 2u, 0x30u, 2u, 0x38u, 1u, 0x1B8u, 0u, 0x1C8u, 0u, 0x1C8u}) w.U32(v);
  w.U32(0x1C8 - 0x30), w.U32(0x1D2 - 0x34);
  auto bone = [&](uint32_t index, int32_t parent, int32_t sibling, int32_t child, uint32_t children,
                  std::array<float, 16> local) {
    w.U32(index), w.U32(uint32_t(parent)), w.U32(uint32_t(sibling)), w.U32(uint32_t(child)), w.U32(index);
    w.U32(children);
    w.b.insert(w.b.end(), {3, 7, 1, 0, 0, 0, 0, 0});
    for (float v : local) w.F32(v);
    for (int i = 0; i < 16; ++i) w.F32(i % 5 == 0 ? 1.0f : 0.0f);  // identity inverse bind
    for (int i = 0; i < 8; ++i) w.F32(float(i));
  };
  bone(0, -1, -1, 1, 1, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1});
  bone(1, 0, -1, -1, 0, {1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, -0.5f, 0, 1});  // columns: x, y -> z, z -> -y
  EXPECT_EQ(w.size(), 0x1B8u);
  for (int i = 0; i < 16; ++i) w.b.push_back(uint8_t(0xA0 + i));
  w.Str("hips");
  w.Str("leg");
  EXPECT_EQ(w.size(), 0x1DAu);
  return w.b;
}

TEST(EdfMdb, DecodesTheSkeleton) {
  const edf_mdb::File f = edf_mdb::Parse(GoldenMdb());
  EXPECT_EQ(f.version, 0x14u);
  ASSERT_EQ(f.bones.size(), 2u);
  EXPECT_EQ(f.bones[1].parent, 0);
  EXPECT_EQ(f.bones[0].group, 3);
  EXPECT_EQ(f.bones[0].unknown1, 7);
  EXPECT_EQ(f.bones[1].unknown[7], 7.0f);
  const Skeleton s = edf_mdb::DecodeSkeleton(f);
  ASSERT_EQ(s.joints.size(), 2u);
  EXPECT_EQ(s.joints[0].name, "hips");
  EXPECT_EQ(s.joints[1].name, "leg");
  EXPECT_EQ(s.joints[1].parent, 0);
  ExpectVec(s.joints[0].rest.translation, 0, 1, 0);
  ExpectVec(s.joints[1].rest.translation, 0, -0.5, 0);
  const double h = std::sqrt(0.5);
  ExpectQuat(s.joints[1].rest.rotation, h, 0, 0, h);
  ExpectVec(s.joints[1].rest.scale, 1, 1, 1);
}

TEST(EdfMdb, WritesBackByteForByteAndFailsCleanly) {
  test::ExpectByteExactRoundTrip(kEdfMdbFormat, GoldenMdb());
  test::ExpectByteExactRoundTrip(kEdfMdbFormat, ReadFileBytes(test::SourcePath("samples/edf_mdb/soldier.mdb")));
  test::ExpectEveryTruncationFails(kEdfMdbFormat, GoldenMdb());
  Bytes bad = GoldenMdb();
  bad[3] = '1';
  Has(test::ReadError(kEdfMdbFormat, bad), "offset 0x0: expected the magic 'MDB0', found 'MDB1'");
  bad = GoldenMdb();
  bad[0x10] = 0xFF, bad[0x11] = 0xFF;
  Has(test::ReadError(kEdfMdbFormat, bad), "offset 0x38: bone table: count 65535 of 192-byte entries");
  bad = GoldenMdb();
  bad[0x38 + 0xC0 + 4] = 1;  // bone 1 is its own parent
  Has(test::ReadError(kEdfMdbFormat, bad), "offset 0xfc: bone 1 has parent 1");
  bad = GoldenMdb();
  bad[0x1E] = 0x01;  // object table past the end
  Has(test::ReadError(kEdfMdbFormat, bad), "offset 0x1c: object table offset points to 0x101b8, past the end");
  bad = GoldenMdb();
  bad.resize(bad.size() - 2);
  Has(test::ReadError(kEdfMdbFormat, bad), "offset 0x1d2: name 1 is not terminated");
  for (size_t i = 0; i < 0x40; ++i) {
    for (int v : {0x00, 0x01, 0x7F, 0xFF}) {
      Bytes c = GoldenMdb();
      c[i] = uint8_t(v);
      test::ExpectErrorOrValid(kEdfMdbFormat, c);
    }
  }
}

TEST(EdfMdb, EncodedSkeletonDecodesToTheSame) {
  SyntheticSpec spec;
  spec.joints = 9;
  const Skeleton s = SyntheticSkeleton(spec);
  const edf_mdb::File f = edf_mdb::EncodeSkeleton(s);
  const Skeleton d = edf_mdb::DecodeSkeleton(f);
  ASSERT_EQ(d.joints.size(), s.joints.size());
  for (size_t i = 0; i < s.joints.size(); ++i) {
    EXPECT_EQ(d.joints[i].name, s.joints[i].name);
    EXPECT_EQ(d.joints[i].parent, s.joints[i].parent);
    ExpectVec(d.joints[i].rest.translation, s.joints[i].rest.translation.x, s.joints[i].rest.translation.y,
              s.joints[i].rest.translation.z, 1e-5);
    EXPECT_LE(AngleBetween(d.joints[i].rest.rotation, s.joints[i].rest.rotation), 1e-5);
  }
  // The inverse bind matrix undoes the model-space rest matrix.
  std::vector<Mat4> model(s.joints.size());
  std::vector<TransformTRS> local;
  for (const Joint& j : s.joints) local.push_back(j.rest);
  ASSERT_TRUE(LocalToModel(s, local, model));
  const Mat4 product = Multiply(model[8], edf_mdb::MatrixFrom(f.bones[8].inverse_bind));
  for (size_t c = 0; c < 4; ++c)
    for (size_t r = 0; r < 4; ++r) EXPECT_NEAR(product.m[c][r], c == r ? 1 : 0, 1e-5);
  EXPECT_EQ(f.bones[0].first_child, 1);
  EXPECT_EQ(f.bones[1].next_sibling, 2);
}

}  // namespace
}  // namespace animkit
