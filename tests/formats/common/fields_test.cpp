// Field lists: one declaration read, written and described in file order.
#include "formats/common/fields.hpp"

#include "support/test_support.hpp"

namespace animkit {
namespace {

struct Record {
  uint32_t count = 0;
  int16_t offset = 0;
  uint8_t flag = 0;
  float scale = 0;
  std::array<uint16_t, 2> pair{};
};

using fields::Field;
constexpr auto kRecord = fields::List(Field{"count", &Record::count}, Field{"offset", &Record::offset},
                                      Field{"flag", &Record::flag}, Field{"scale", &Record::scale},
                                      Field{"pair", &Record::pair});

// count 0x01020304, offset -2, flag 7, scale 1.5 (0x3FC00000), pair {0x0A0B, 0x0C0D}: little endian.
const Bytes kLittle = {0x04, 0x03, 0x02, 0x01, 0xFE, 0xFF, 0x07, 0x00, 0x00, 0xC0, 0x3F, 0x0B, 0x0A, 0x0D, 0x0C};

TEST(Fields, ReadInFileOrderWithEachMembersWidth) {
  ByteReader r(kLittle, Endian::Little);
  Record rec;
  fields::ReadAll(r, rec, kRecord);
  EXPECT_EQ(rec.count, 0x01020304u);
  EXPECT_EQ(rec.offset, -2);
  EXPECT_EQ(rec.flag, 7);
  EXPECT_EQ(rec.scale, 1.5f);
  EXPECT_EQ(rec.pair, (std::array<uint16_t, 2>{0x0A0B, 0x0C0D}));
  EXPECT_EQ(r.tell(), kLittle.size());
}

TEST(Fields, WriteGivesTheBytesBackInEitherByteOrder) {
  ByteReader r(kLittle, Endian::Little);
  Record rec;
  fields::ReadAll(r, rec, kRecord);
  ByteWriter little(Endian::Little);
  fields::WriteAll(little, rec, kRecord);
  EXPECT_EQ(little.Take(), kLittle);
  ByteWriter big(Endian::Big);
  fields::WriteAll(big, rec, kRecord);
  EXPECT_EQ(big.Take(), (Bytes{0x01, 0x02, 0x03, 0x04, 0xFF, 0xFE, 0x07, 0x3F, 0xC0, 0x00, 0x00, 0x0A, 0x0B, 0x0C, 0x0D}));
}

TEST(Fields, ATruncatedRecordIsAnErrorNamingTheField) {
  ByteReader r(ByteView(kLittle).first(8), Endian::Little);
  Record rec;
  try {
    fields::ReadAll(r, rec, kRecord);
    FAIL() << "a record cut at byte 8 must not read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "offset 0x7: scale runs past the end of the data (needs 0x4 bytes, 0x1 left)");
  }
}

TEST(Fields, WriteAtPatchesTheImageAndRefusesWhatDoesNotFit) {
  Record rec;
  ByteReader r(kLittle, Endian::Little);
  fields::ReadAll(r, rec, kRecord);
  Bytes image(20, 0xEE);
  fields::WriteAt(image, 2, Endian::Little, rec, kRecord);
  EXPECT_EQ(Bytes(image.begin() + 2, image.begin() + 17), kLittle);
  EXPECT_EQ(image[0], 0xEE);
  EXPECT_EQ(image[17], 0xEE);
  Bytes small(16, 0);
  EXPECT_THROW(fields::WriteAt(small, 2, Endian::Little, rec, kRecord), Error);
  EXPECT_THROW(fields::WriteAt(small, 100, Endian::Little, rec, kRecord), Error);
  EXPECT_EQ(small, Bytes(16, 0));  // nothing written when the record does not fit
}

TEST(Fields, DescribeSetsOneKeyPerField) {
  Record rec;
  ByteReader r(kLittle, Endian::Little);
  fields::ReadAll(r, rec, kRecord);
  Value info = Value::object();
  fields::Describe(info, rec, kRecord);
  EXPECT_EQ(DumpJson(info), R"({"count":16909060,"flag":7,"offset":-2,"pair":[2571,3085],"scale":1.5})");
}

TEST(Fields, SizeIsTheSumOfTheMembersWidths) {
  static_assert(fields::Size(kRecord) == 15);  // 4 + 2 + 1 + 4 + 2 * 2
  EXPECT_EQ(fields::Size(kRecord), kLittle.size());
}

TEST(Fields, ATableReadsWritesAndDescribesEachRecord) {
  Bytes two = kLittle;
  two.insert(two.end(), kLittle.begin(), kLittle.end());
  two[15] = 0x05;  // the second record's count: 0x01020305
  ByteReader r(two, Endian::Little);
  const std::vector<Record> table = fields::ReadTable<Record>(r, 2, kRecord, "records");
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[0].count, 0x01020304u);
  EXPECT_EQ(table[1].count, 0x01020305u);
  EXPECT_EQ(table[1].pair, (std::array<uint16_t, 2>{0x0A0B, 0x0C0D}));
  ByteWriter w(Endian::Little);
  fields::WriteTable(w, table, kRecord);
  EXPECT_EQ(w.Take(), two);
  const Value described = fields::DescribeTable(table, kRecord);
  ASSERT_EQ(described.size(), 2u);
  EXPECT_EQ(described[1]["count"].get<uint64_t>(), 0x01020305u);
  EXPECT_EQ(described[0]["offset"].get<int64_t>(), -2);
}

TEST(Fields, ATableCountPastTheDataIsRefusedBeforeAllocating) {
  ByteReader r(kLittle, Endian::Little);
  try {
    (void)fields::ReadTable<Record>(r, 0x40000000, kRecord, "records");
    FAIL() << "a count of 2^30 records in 15 bytes must not read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("records: count 1073741824 of 15-byte entries does not fit"), std::string::npos)
        << e.what();
  }
}

struct Outer {
  uint16_t id = 0;
  Record inner;
};
constexpr auto kOuter = fields::List(Field{"id", &Outer::id}, fields::Sub{"inner", &Outer::inner, kRecord});

TEST(Fields, ASubRecordIsReadInPlaceThroughItsOwnList) {
  static_assert(fields::Size(kOuter) == 2 + 15);
  Bytes bytes = {0x34, 0x12};
  bytes.insert(bytes.end(), kLittle.begin(), kLittle.end());
  ByteReader r(bytes, Endian::Little);
  Outer o;
  fields::ReadAll(r, o, kOuter);
  EXPECT_EQ(o.id, 0x1234);
  EXPECT_EQ(o.inner.count, 0x01020304u);
  EXPECT_EQ(o.inner.scale, 1.5f);
  ByteWriter w(Endian::Little);
  fields::WriteAll(w, o, kOuter);
  EXPECT_EQ(w.Take(), bytes);
  Value info = Value::object();
  fields::Describe(info, o, kOuter);
  EXPECT_EQ(DumpJson(info), R"({"count":16909060,"flag":7,"id":4660,"offset":-2,"pair":[2571,3085],"scale":1.5})");
}

struct Axes {
  std::array<int16_t, 2> initial{};
  std::array<uint8_t, 2> bits{};
};
constexpr auto kAxes = fields::List(fields::Interleaved{"initial", &Axes::initial, "bits", &Axes::bits});

TEST(Fields, InterleavedArraysAlternateElementByElement) {
  static_assert(fields::Size(kAxes) == 2 * (2 + 1));
  // initial[0] = -2, bits[0] = 7, initial[1] = 0x0102, bits[1] = 9 (big endian).
  const Bytes bytes = {0xFF, 0xFE, 0x07, 0x01, 0x02, 0x09};
  ByteReader r(bytes, Endian::Big);
  Axes a;
  fields::ReadAll(r, a, kAxes);
  EXPECT_EQ(a.initial, (std::array<int16_t, 2>{-2, 0x0102}));
  EXPECT_EQ(a.bits, (std::array<uint8_t, 2>{7, 9}));
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, a, kAxes);
  EXPECT_EQ(w.Take(), bytes);
  Value info = Value::object();
  fields::Describe(info, a, kAxes);
  EXPECT_EQ(DumpJson(info), R"({"bits":[7,9],"initial":[-2,258]})");
}

TEST(Fields, ACountedTableReadsItsCountThenTheRecords) {
  // count 2 (big endian), then id 0x0001 and id 0x0203.
  struct Id {
    uint16_t id = 0;
  };
  constexpr auto kId = fields::List(Field{"id", &Id::id});
  const Bytes bytes = {0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x02, 0x03};
  ByteReader r(bytes, Endian::Big);
  const std::vector<Id> ids = fields::ReadCounted<Id>(r, kId, "ids");
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[1].id, 0x0203);
  ByteWriter w(Endian::Big);
  fields::WriteCounted(w, ids, kId);
  EXPECT_EQ(w.Take(), bytes);
  ByteReader values(bytes, Endian::Big);
  EXPECT_EQ(fields::ReadCountedValues<uint16_t>(values, "values"), (std::vector<uint16_t>{0x0001, 0x0203}));
  ByteWriter vw(Endian::Big);
  fields::WriteCountedValues(vw, std::vector<uint16_t>{0x0001, 0x0203});
  EXPECT_EQ(vw.Take(), bytes);
}

TEST(Fields, ACountPastTheDataIsRefusedBeforeAllocating) {
  // Two bytes, then a count of 3 two-byte ids with 4 bytes left.
  const Bytes bytes = {0xAA, 0xBB, 0x00, 0x00, 0x00, 0x03, 0x00, 0x01, 0x02, 0x03};
  ByteReader r(bytes, Endian::Big);
  r.Skip(2, "the lead-in");
  try {
    (void)fields::ReadCountedValues<uint16_t>(r, "ids");
    FAIL() << "three ids in four bytes must not read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("offset 0x6: ids: count 3 of 2-byte entries does not fit"), std::string::npos)
        << e.what();
  }
  ByteReader cut(ByteView(bytes).first(4), Endian::Big);
  EXPECT_THROW((void)fields::ReadCount(cut, 1, "ids"), Error);
  ByteReader values(ByteView(bytes).subspan(6), Endian::Big);
  EXPECT_THROW((void)fields::ReadValues<uint32_t>(values, 2, "words"), Error);
}

TEST(Bytes, LittleEndianLoadsAndStoresAtAnOffsetAreChecked) {
  Bytes b = {0x01, 0x02, 0x03, 0x04, 0x05};
  EXPECT_EQ(le::Load32At(b, 1), 0x05040302u);
  EXPECT_EQ(le::Load16At(b, 0), 0x0201u);
  le::Store32At(b, 0, 0xAABBCCDD);
  EXPECT_EQ(b, (Bytes{0xDD, 0xCC, 0xBB, 0xAA, 0x05}));
  EXPECT_THROW((void)le::Load32At(b, 2), Error);
  EXPECT_THROW(le::Store16At(b, 4, 1), Error);
  EXPECT_THROW((void)le::Load32At(b, SIZE_MAX - 1), Error);
  Bytes out;
  le::Append16(out, 0x0102);
  le::AppendF32(out, 1.5f);
  EXPECT_EQ(out, (Bytes{0x02, 0x01, 0x00, 0x00, 0xC0, 0x3F}));
  EXPECT_EQ(le::LoadF32(out.data() + 2), 1.5f);
}

}  // namespace
}  // namespace animkit
