#include "support/test_support.hpp"

namespace animkit {
namespace {

TEST(ByteReader, ReadsBothByteOrders) {
  const Bytes data = {0x12, 0x34, 0x56, 0x78, 0x3F, 0x80, 0x00, 0x00};
  ByteReader le(data, Endian::Little), be(data, Endian::Big);
  EXPECT_EQ(le.U16(), 0x3412);
  EXPECT_EQ(be.U16(), 0x1234);
  EXPECT_EQ(le.U16(), 0x7856);
  EXPECT_EQ(be.I16(), 0x5678);
  EXPECT_EQ(be.F32(), 1.0f);
  EXPECT_EQ(be.remaining(), 0u);
}

TEST(ByteReader, FailsWithOffsetAndExpectation) {
  const Bytes data = {1, 2, 3};
  ByteReader r(data, Endian::Little, 0x100);
  r.U16();
  try {
    r.U32("the bone count");
    FAIL() << "read past the end";
  } catch (const Error& e) {
    EXPECT_EQ(e.byte_offset(), 0x102u);
    EXPECT_EQ(std::string(e.what()), "offset 0x102: the bone count runs past the end of the data (needs 0x4 bytes, 0x1 left)");
  }
}

TEST(ByteReader, CountIsCheckedBeforeAllocation) {
  const Bytes data(16, 0);
  ByteReader r(data, Endian::Little);
  EXPECT_EQ(r.Count(4, 4, "keys"), 4u);
  EXPECT_THROW(r.Count(5, 4, "keys"), Error);
  EXPECT_THROW(r.Count(UINT64_MAX, 8, "keys"), Error);  // no overflow of count * size
}

TEST(ByteReader, SubReaderKeepsFileOffsets) {
  const Bytes data = {0, 0, 0, 0, 9, 8, 7};
  ByteReader r(data, Endian::Little);
  ByteReader sub = r.Sub(4, 2, "entry");
  EXPECT_EQ(sub.U8(), 9);
  EXPECT_EQ(sub.U8(), 8);
  try {
    sub.U8("a flag");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.byte_offset(), 6u);
  }
  EXPECT_THROW(r.Sub(5, 3, "entry"), Error);
  EXPECT_THROW(r.Sub(UINT64_MAX, 1, "entry"), Error);
}

TEST(ByteReader, CStringNeedsATerminator) {
  const Bytes ok = {'a', 'b', 0, 'c'}, bad = {'a', 'b'};
  ByteReader r(ok, Endian::Little);
  EXPECT_EQ(r.CString("name"), "ab");
  EXPECT_EQ(r.tell(), 3u);
  ByteReader r2(bad, Endian::Little);
  EXPECT_THROW(r2.CString("name"), Error);
}

TEST(ByteWriter, WritesAndPatches) {
  ByteWriter w(Endian::Big);
  w.U16(0x1234);
  w.U32(0);
  w.F32(1.0f);
  w.AlignTo(16, 0xEE);
  w.PatchU32(2, 0xAABBCCDD);
  const Bytes expected = {0x12, 0x34, 0xAA, 0xBB, 0xCC, 0xDD, 0x3F, 0x80, 0, 0, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE};
  EXPECT_EQ(w.bytes(), expected);
}

TEST(Error, NamesFileOffsetOrLine) {
  EXPECT_STREQ(Error::AtOffset(0x1c4, "bad").InFile("walk.canm").what(), "walk.canm: offset 0x1c4: bad");
  EXPECT_STREQ(Error::AtLine(3, 7, "unknown directive").InFile("a.anm").what(), "a.anm: line 3, column 7: unknown directive");
  EXPECT_STREQ(Error::General("x").InFile("a").InFile("b").what(), "a: x");
}

}  // namespace
}  // namespace animkit
