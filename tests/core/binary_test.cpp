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

TEST(ByteWriter, CStringWritesTheTextAndOneZero) {
  ByteWriter w(Endian::Big);
  w.CString("ab");
  w.CString("");
  EXPECT_EQ(w.bytes(), (Bytes{'a', 'b', 0, 0}));
  ByteReader r(w.bytes(), Endian::Big);
  EXPECT_EQ(r.CString("a name"), "ab");
  EXPECT_EQ(r.CString("a name"), "");
  EXPECT_THROW(w.CString(std::string_view("a\0b", 3)), Error);
}

TEST(ByteReader, CStringNeedsATerminator) {
  const Bytes ok = {'a', 'b', 0, 'c'}, bad = {'a', 'b'};
  ByteReader r(ok, Endian::Little);
  EXPECT_EQ(r.CString("name"), "ab");
  EXPECT_EQ(r.tell(), 3u);
  ByteReader r2(bad, Endian::Little);
  EXPECT_THROW(r2.CString("name"), Error);
}

using test::ErrorOf;

TEST(ByteReader, TableChecksOffsetAndCountBeforeAllocating) {
  // 0x10 bytes: a table of three 4-byte entries at 0x4 fits; at 0x8 it does not.
  Bytes data(0x10, 0);
  data[4] = 0xAA, data[8] = 0xBB;
  const ByteReader r(data, Endian::Little);
  ByteReader t = r.Table(4, 3, 4, 0, "entry table");
  EXPECT_EQ(t.base(), 4u);
  EXPECT_EQ(t.size(), 0xCu);
  EXPECT_EQ(t.U32(), 0xAAu);
  EXPECT_EQ(t.U32(), 0xBBu);
  EXPECT_EQ(r.Table(0x10, 0, 4, 0, "empty table").size(), 0u);  // at the very end, no entries
  EXPECT_EQ(ErrorOf([&] { (void)r.Table(8, 3, 4, 0x2, "entry table"); }),
            "offset 0x8: entry table: count 3 of 4-byte entries does not fit in the 0x8 bytes left");
  EXPECT_EQ(ErrorOf([&] { (void)r.Table(0x11, 0, 4, 0x2, "entry table"); }),
            "offset 0x2: entry table offset points to 0x11, past the end of the file (0x10)");
  EXPECT_EQ(ErrorOf([&] { (void)r.Table(-4, 1, 4, 0x2, "entry table"); }),
            "offset 0x2: entry table offset points before the start of the file");
  // A huge count from a file is refused before anything is allocated for it.
  EXPECT_THROW((void)r.Table(0, uint64_t{1} << 62, 4, 0, "entry table"), Error);
  // In a sub-reader (an archive entry) offsets and the end are the file's.
  const ByteReader entry = r.Sub(8, 8, "entry");
  EXPECT_EQ(ErrorOf([&] { (void)entry.Table(9, 0, 4, 0, "bone table"); }),
            "offset 0x8: bone table offset points to 0x11, past the end of the entry (0x10)");
}

TEST(ByteReader, Utf16zReadsBothByteOrdersAndNamesTheFault) {
  // "A", U+00E9, U+1F600 (a surrogate pair), then a terminator; an unpaired surrogate after.
  const Bytes le = {'A', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0, 0x00, 0xD8, 0, 0};
  const ByteReader r(le, Endian::Little);
  EXPECT_EQ(r.Utf16z(0, 0, "name"), "A\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(r.Utf16z(10, 0, "name"), "\xEF\xBF\xBD");  // U+FFFD
  EXPECT_EQ(r.Utf16z(8, 0, "name"), "");
  const Bytes be = {0, 'h', 0, 'i', 0, 0};
  EXPECT_EQ(ByteReader(be, Endian::Big).Utf16z(0, 0, "name"), "hi");
  EXPECT_EQ(ErrorOf([&] { (void)r.Utf16z(14, 0x4, "bone name 1"); }),
            "offset 0x4: bone name 1 points to 0xe, outside the file (0xe bytes)");
  EXPECT_EQ(ErrorOf([&] { (void)r.Utf16z(-2, 0x4, "bone name 1"); }),
            "offset 0x4: bone name 1 points before the start of the file");
  const Bytes open = {'a', 0, 'b'};
  EXPECT_EQ(ErrorOf([&] { (void)ByteReader(open, Endian::Little).Utf16z(0, 0x4, "bone name 1"); }),
            "offset 0x0: bone name 1 is not terminated: no zero UTF-16 unit before the end of the file");
}

TEST(Utf16, RoundTripsThroughUtf8) {
  const std::string text = "Scene_Root \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
  const std::vector<uint16_t> units = Utf16FromUtf8(text);
  EXPECT_EQ(units, (std::vector<uint16_t>{'S', 'c', 'e', 'n', 'e', '_', 'R', 'o', 'o', 't', ' ', 0xE9, ' ', 0x20AC, ' ',
                                          0xD83D, 0xDE00}));
  EXPECT_EQ(Utf8FromUtf16(units), text);
  EXPECT_EQ(Utf16FromUtf8("\xFF"), (std::vector<uint16_t>{0xFFFD}));  // not UTF-8
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

TEST(BigEndian, LoadsAndStoresHighByteFirst) {
  const uint8_t bytes[4] = {0x12, 0x34, 0x56, 0x78};
  EXPECT_EQ(be::Load16(bytes), 0x1234);
  EXPECT_EQ(be::Load32(bytes), 0x12345678u);
  uint8_t out[2] = {};
  be::Store16(out, 0xABCD);
  EXPECT_EQ(out[0], 0xAB);
  EXPECT_EQ(out[1], 0xCD);
}

TEST(Error, NamesFileOffsetOrLine) {
  EXPECT_STREQ(Error::AtOffset(0x1c4, "bad").InFile("walk.canm").what(), "walk.canm: offset 0x1c4: bad");
  EXPECT_STREQ(Error::AtLine(3, 7, "unknown directive").InFile("a.anm").what(), "a.anm: line 3, column 7: unknown directive");
  EXPECT_STREQ(Error::General("x").InFile("a").InFile("b").what(), "a: x");
}

// Without an owner the bytes are copied and the copy owns them; with one, the view is kept.
TEST(KeepAlive, CopiesWithoutAnOwnerAndViewsWithOne) {
  Bytes source = {1, 2, 3};
  std::shared_ptr<const void> owner;
  const ByteView copied = KeepAlive(source, owner);
  ASSERT_NE(owner, nullptr);
  EXPECT_NE(copied.data(), source.data());
  source[0] = 9;
  EXPECT_EQ(copied[0], 1);
  const std::shared_ptr<const void> held = owner;
  const ByteView viewed = KeepAlive(source, owner);
  EXPECT_EQ(viewed.data(), source.data());
  EXPECT_EQ(owner, held);
}

}  // namespace
}  // namespace animkit
