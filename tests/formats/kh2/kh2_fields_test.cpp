// KH2's fixed records as field lists: each read from a byte image written here from the
// layout (docs/formats/kh2.md), written back byte for byte, and cut short: the error names
// the field the image ends in.
#include "formats/kh2/kh2_fields.hpp"

#include "support/test_support.hpp"

#include <tuple>

namespace animkit {
namespace {

using namespace kh2;
using namespace kh2::detail;

// Little-endian words and halves, as a byte image is written out by hand.
void Word(Bytes& b, uint32_t v) { le::Append32(b, v); }
void Half(Bytes& b, uint16_t v) { le::Append16(b, v); }
void Float(Bytes& b, float v) { le::AppendF32(b, v); }

template <class S, class List>
S ReadImage(const Bytes& image, const List& list) {
  EXPECT_EQ(image.size(), fields::Size(list));
  ByteReader r(image, Endian::Little);
  S s;
  fields::ReadAll(r, s, list);
  EXPECT_EQ(r.remaining(), 0u);
  return s;
}

template <class S, class List>
Bytes WriteImage(const S& s, const List& list) {
  ByteWriter w(Endian::Little);
  fields::WriteAll(w, s, list);
  return w.Take();
}

// The image cut to `keep` bytes fails in the field that starts at `keep` (or runs past it).
template <class S, class List>
std::string CutError(const Bytes& image, size_t keep, const List& list) {
  ByteReader r(ByteView(image).first(keep), Endian::Little, 0x1000);
  S s;
  try {
    fields::ReadAll(r, s, list);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

void ExpectNamed(const std::string& error, const std::string& expected) {
  EXPECT_NE(error.find(expected), std::string::npos) << error;
}

TEST(Kh2Fields, ModelHeader) {
  Bytes image;
  Word(image, 3), Word(image, 1), Word(image, 0x20), Word(image, 0x1A80);  // type, subtype, attributes, next
  Half(image, 0x9B), Half(image, 5);                                       // bones, textures
  Word(image, 0x1E0), Word(image, 0xC0), Word(image, 2);                   // bone table, skeleton data, groups
  const ModelHeader h = ReadImage<ModelHeader>(image, kModelHeader);
  EXPECT_EQ(std::tuple(h.type, h.subtype, h.attributes, h.next_offset, h.bone_count, h.texture_count, h.bone_offset,
                       h.skeleton_data_offset, h.group_count),
            std::tuple(3, 1, 0x20, 0x1A80u, uint16_t(0x9B), uint16_t(5), 0x1E0u, 0xC0u, 2u));
  EXPECT_EQ(fields::Size(kModelHeader), 0x20u);
  EXPECT_EQ(WriteImage(h, kModelHeader), image);
  ExpectNamed(CutError<ModelHeader>(image, 0x1E, kModelHeader), "offset 0x101c: group_count runs past the end");
  ExpectNamed(CutError<ModelHeader>(image, 0x11, kModelHeader), "offset 0x1010: bone_count runs past the end");
  // `info --full` shows the header's first seven fields, as it did before they were a list.
  Value info = Value::object();
  fields::Describe(info, h, kModelHeaderShown);
  EXPECT_EQ(info.size(), 7u);
  EXPECT_EQ(info["next_offset"].get<uint64_t>(), 0x1A80u);
}

TEST(Kh2Fields, GroupHeader) {
  Bytes image;
  Word(image, 1), Word(image, 4), Word(image, 312), Word(image, 0);  // flags, texture, polygons, field
  Word(image, 0x400), Word(image, 0x9F0), Word(image, 12), Word(image, 0xFFFFFFFF);
  const GroupHeader g = ReadImage<GroupHeader>(image, kGroupHeader);
  EXPECT_EQ(std::tuple(g.render_flags, g.texture_index, g.polygon_count, g.dma_offset, g.slot_table_offset, g.dma_length,
                       g.unknown1c),
            std::tuple(1, 4, 312, 0x400u, 0x9F0u, 12u, 0xFFFFFFFFu));
  EXPECT_EQ(WriteImage(g, kGroupHeader), image);
  ExpectNamed(CutError<GroupHeader>(image, 0x16, kGroupHeader), "offset 0x1014: group matrix slot table offset");
}

TEST(Kh2Fields, SkeletonDataIsItsWords) {
  EXPECT_EQ(fields::Size(kSkeletonData), 0x120u);
  Bytes image;
  for (uint32_t i = 0; i < 0x48; ++i) Word(image, i * 0x01010101u);
  const SkeletonData d = ReadImage<SkeletonData>(image, kSkeletonData);
  EXPECT_EQ(d.words[0x47], 0x47474747u);
  EXPECT_EQ(WriteImage(d, kSkeletonData), image);
  ExpectNamed(CutError<SkeletonData>(image, 0x11F, kSkeletonData), "offset 0x111c: skeleton data runs past the end");
}

TEST(Kh2Fields, JointEntryAndRootPosition) {
  Bytes joint;
  Half(joint, 0x12), Half(joint, 0x81);
  const JointEntry j = ReadImage<JointEntry>(joint, kJointEntry);
  EXPECT_EQ(std::tuple(j.joint, j.flags), std::tuple(int16_t(0x12), int16_t(0x81)));
  EXPECT_EQ(WriteImage(j, kJointEntry), joint);
  ExpectNamed(CutError<JointEntry>(joint, 3, kJointEntry), "offset 0x1002: flags runs past the end");

  Bytes root;
  for (float f : {1.f, 2.f, 3.f, 0.f, 0.5f, -0.5f, 0.25f, 0.f, 10.f, 20.f, 30.f, 1.f}) Float(root, f);
  for (int k = 0; k < 9; ++k) Word(root, uint32_t(k == 4 ? 7 : -1));
  const RootPosition p = ReadImage<RootPosition>(root, kRootPosition);
  EXPECT_EQ(fields::Size(kRootPosition), 0x54u);
  EXPECT_EQ(p.scale, (Vec4f{1, 2, 3, 0}));
  EXPECT_EQ(p.rotation, (Vec4f{0.5f, -0.5f, 0.25f, 0}));
  EXPECT_EQ(p.translation, (Vec4f{10, 20, 30, 1}));
  EXPECT_EQ(p.unknown[4], 7);
  EXPECT_EQ(p.unknown[8], -1);
  EXPECT_EQ(WriteImage(p, kRootPosition), root);
  ExpectNamed(CutError<RootPosition>(root, 0x30, kRootPosition), "offset 0x1030: fields runs past the end");
}

TEST(Kh2Fields, ConstraintAndActivation) {
  const Bytes image = {2, 1, 0x05, 0x00, 0xFE, 0xFF, 0xFF, 0xFF, 0x03, 0x00, 0x10, 0x00};
  const Constraint c = ReadImage<Constraint>(image, kConstraintRecord);
  EXPECT_EQ(std::tuple(int(c.type), int(c.temporary_active), c.joint, c.source, c.limiter, c.activation_count,
                       c.activation_start),
            std::tuple(int(ConstraintType::Orientation), 1, int16_t(5), int16_t(-2), int16_t(-1), int16_t(3), int16_t(16)));
  EXPECT_EQ(WriteImage(c, kConstraintRecord), image);
  ExpectNamed(CutError<Constraint>(image, 3, kConstraintRecord), "offset 0x1002: joint runs past the end");
  ExpectNamed(CutError<Constraint>(image, 11, kConstraintRecord), "offset 0x100a: activation_start runs past the end");

  Bytes activation;
  Float(activation, 12.5f), Word(activation, 1);
  const Activation a = ReadImage<Activation>(activation, kActivationRecord);
  EXPECT_EQ(std::tuple(a.time, a.active), std::tuple(12.5f, 1));
  EXPECT_EQ(WriteImage(a, kActivationRecord), activation);
}

TEST(Kh2Fields, Limiter) {
  Bytes image;
  Word(image, 0x3F1), Word(image, 0), Float(image, 0.1f), Float(image, 0.75f);
  for (float f : {-1.f, -2.f, -3.f, 0.f, 1.f, 2.f, 3.f, 0.f}) Float(image, f);
  const Limiter l = ReadImage<Limiter>(image, kLimiterRecord);
  EXPECT_EQ(fields::Size(kLimiterRecord), 0x30u);
  EXPECT_EQ(l.type(), 1);
  EXPECT_FALSE(l.global());
  EXPECT_TRUE(l.Bounds(5));
  EXPECT_EQ(l.damping_width, 0.1f);
  EXPECT_EQ(l.damping_strength, 0.75f);
  EXPECT_EQ(l.min, (Vec4f{-1, -2, -3, 0}));
  EXPECT_EQ(l.max, (Vec4f{1, 2, 3, 0}));
  EXPECT_EQ(WriteImage(l, kLimiterRecord), image);
  ExpectNamed(CutError<Limiter>(image, 0x2E, kLimiterRecord), "offset 0x102c: max runs past the end");
}

TEST(Kh2Fields, ExpressionAndNode) {
  Bytes expression;
  Half(expression, 7), Half(expression, uint16_t(Channel::RotateY)), Half(expression, 0), Half(expression, 3);
  const Expression e = ReadImage<Expression>(expression, kExpressionRecord);
  EXPECT_EQ(std::tuple(e.joint, e.channel, e.node), std::tuple(int16_t(7), int16_t(Channel::RotateY), int16_t(3)));
  EXPECT_EQ(WriteImage(e, kExpressionRecord), expression);
  ExpectNamed(CutError<Expression>(expression, 7, kExpressionRecord), "offset 0x1006: node runs past the end");

  Bytes node = {uint8_t(ExpressionNodeType::Mul), 1};
  Half(node, 0xFFFF), Float(node, 2.5f), Half(node, 4), Half(node, 0xFFFF);
  const ExpressionNode n = ReadImage<ExpressionNode>(node, kExpressionNodeRecord);
  EXPECT_EQ(std::tuple(int(n.type), int(n.flags), n.element, n.value, n.car, n.cdr),
            std::tuple(int(ExpressionNodeType::Mul), 1, int16_t(-1), 2.5f, int16_t(4), int16_t(-1)));
  EXPECT_EQ(WriteImage(n, kExpressionNodeRecord), node);
  ExpectNamed(CutError<ExpressionNode>(node, 6, kExpressionNodeRecord), "offset 0x1004: value runs past the end");
}

TEST(Kh2Fields, BarEntryIsOneType) {
  Bytes image;
  Half(image, kEntryMotion), Half(image, 0);
  for (char c : {'A', '1', '0', '1'}) image.push_back(uint8_t(c));
  Word(image, 0x40), Word(image, 0x1234);
  const BarEntry e = ReadImage<BarEntry>(image, kBarEntry);
  EXPECT_EQ(std::tuple(e.type, e.Name(), e.offset, e.size), std::tuple(kEntryMotion, std::string("A101"), 0x40u, 0x1234u));
  EXPECT_EQ(WriteImage(e, kBarEntry), image);
  ExpectNamed(CutError<BarEntry>(image, 10, kBarEntry), "offset 0x1008: offset runs past the end");
  // `info` keys the entry as the list names its fields; the name is shown as text.
  Value info = Value::object();
  fields::Describe(info, e, kBarEntry);
  EXPECT_EQ(info["size"].get<uint64_t>(), 0x1234u);
  EXPECT_EQ(info["duplicate"].get<uint64_t>(), 0u);
}

TEST(Kh2Fields, RigTablesReadAndWriteAsTables) {
  Bytes image = {0, 1, 0, 0, 1, 0, 0xFF, 0xFF, 0, 0, 0, 0,   // position constraint of joint 0 on 1
                 6, 1, 2, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0};  // scale constraint of joint 2 on 0
  ByteReader r(image, Endian::Little);
  const std::vector<Constraint> table = fields::ReadTable<Constraint>(r, 2, kConstraintRecord, "constraint table");
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[1].type, uint8_t(ConstraintType::Scale));
  EXPECT_EQ(table[1].joint, 2);
  ByteWriter w(Endian::Little);
  fields::WriteTable(w, table, kConstraintRecord);
  EXPECT_EQ(w.Take(), image);
  const Value described = fields::DescribeTable(table, kConstraintRecord);
  ASSERT_EQ(described.size(), 2u);
  EXPECT_EQ(described[0]["source"].get<int64_t>(), 1);
  EXPECT_EQ(described[1]["limiter"].get<int64_t>(), -1);
  ByteReader short_reader(ByteView(image).first(20), Endian::Little);
  try {
    (void)fields::ReadTable<Constraint>(short_reader, 2, kConstraintRecord, "constraint table");
    FAIL() << "two 12-byte constraints do not fit in 20 bytes";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint table: count 2 of 12-byte entries"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace animkit
