// Metroid Prime 1/2 PAK archives: hand-built bytes with expected values from the layout
// (docs/formats/metroid_pak.md), MP1 zlib and MP2 segmented LZO members, the builder, member
// replacement, probing against Vib-Ribbon's PAK, every truncation and corrupted counts,
// offsets and streams.
#include <animkit/formats/metroid_pak.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/archive.hpp>

#include "support/test_support.hpp"

#include <lzo/lzo1x.h>

namespace animkit {
namespace {

using test::Has;

struct Builder {
  Bytes b;
  void U16(uint16_t v) { b.push_back(uint8_t(v >> 8)), b.push_back(uint8_t(v)); }
  void U32(uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
  }
  void Text(std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }
  void Raw(std::initializer_list<uint8_t> v) { b.insert(b.end(), v); }
  void Append(ByteView v) { b.insert(b.end(), v.begin(), v.end()); }
  void PadTo(size_t at) { b.resize(at, 0xFF); }
};

// "HELLO" as a zlib stream of one stored block: header 78 01, block 01 (final, stored),
// LEN 5, NLEN ~5, the bytes, Adler-32 0x044C0175 (a = 1 + sum = 373, b = 1100).
const std::initializer_list<uint8_t> kHelloZlib = {0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF, 'H', 'E',
                                                   'L',  'L',  'O',  0x04, 0x4C, 0x01, 0x75};

// MP1: 0x00 version, 0x04 0, 0x08 one name; 0x0C {"ANCS", 0x11223344, 5, "Samus"} (17 bytes);
// 0x1D two resources; 0x21 {0, "ANCS", 0x11223344, 0x20, 0x60}; 0x35 {1, "TXTR", 0xAABBCCDD,
// 0x20, 0x80}; tables end at 0x49, 0xFF to 0x60; 0x60 "ANCSDATA" + 24 x 0xFF; 0x80 size 5 and the
// zlib stream (20 bytes) + 12 x 0xFF; 0xA0 bytes in all.
Bytes Mp1() {
  Builder w;
  w.U32(0x00030005);
  w.U32(0);
  w.U32(1);
  w.Text("ANCS");
  w.U32(0x11223344);
  w.U32(5);
  w.Text("Samus");
  w.U32(2);
  w.U32(0), w.Text("ANCS"), w.U32(0x11223344), w.U32(0x20), w.U32(0x60);
  w.U32(1), w.Text("TXTR"), w.U32(0xAABBCCDD), w.U32(0x20), w.U32(0x80);
  w.PadTo(0x60);
  w.Text("ANCSDATA");
  w.PadTo(0x80);
  w.U32(5);
  w.Raw(kHelloZlib);
  w.PadTo(0xA0);
  return w.b;
}

// 0x4000 bytes LZO shrinks: a counting pattern.
Bytes Block() {
  Bytes out(metroid_pak::kSegmentBlock);
  for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(i % 251);
  return out;
}

Bytes LzoOf(ByteView bytes) {
  EXPECT_EQ(lzo_init(), LZO_E_OK);
  std::vector<uint8_t> work(LZO1X_1_MEM_COMPRESS);
  Bytes out(bytes.size() + bytes.size() / 16 + 67);
  lzo_uint n = out.size();
  EXPECT_EQ(lzo1x_1_compress(bytes.data(), bytes.size(), out.data(), &n, work.data()), LZO_E_OK);
  out.resize(n);
  return out;
}

// MP2's segments for Block() + "abc" + "xyz": an LZO1X segment made by liblzo2 (0x4000 bytes), a
// raw one (length -3, "abc") and a hand-written LZO1X one: 0x14 = 17 + 3 literals, "xyz", then the
// end marker 11 00 00.
Bytes Mp2Stream() {
  Builder w;
  w.U32(0x4006);
  const Bytes lzo = LzoOf(Block());
  w.U16(uint16_t(lzo.size()));
  w.Append(lzo);
  w.U16(uint16_t(int16_t(-3)));
  w.Text("abc");
  w.U16(7);
  w.Raw({0x14, 'x', 'y', 'z', 0x11, 0x00, 0x00});
  return w.b;
}

// MP2: no names, one compressed resource {1, "ANIM", 0x00000042, padded size, 0x40}; the tables
// end at 0x24, 0xFF to 0x40, the stream, 0xFF to the next 32.
Bytes Mp2() {
  const Bytes stream = Mp2Stream();
  const uint32_t size = uint32_t((stream.size() + 31) / 32 * 32);
  Builder w;
  w.U32(0x00030005);
  w.U32(0);
  w.U32(0);
  w.U32(1);
  w.U32(1), w.Text("ANIM"), w.U32(0x42), w.U32(size), w.U32(0x40);
  w.PadTo(0x40);
  w.Append(stream);
  w.PadTo(0x40 + size);
  return w.b;
}

Bytes Mp2Expected() {
  Bytes out = Block();
  for (char c : std::string("abcxyz")) out.push_back(uint8_t(c));
  return out;
}

const FormatDescriptor& Pak() { return *FindFormat("metroid-pak"); }

std::unique_ptr<Document> Read(ByteView bytes, Limits limits = {}) {
  ReadContext context;
  context.options.SetLimits(limits);
  return Pak().read(bytes, context);
}

uint32_t U32At(const Bytes& b, size_t at) {
  return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}

LoadedFile Loaded(const Bytes& bytes) {
  LoadedFile f;
  f.path = "Metroid1.pak";
  f.format = &Pak();
  f.document = Read(bytes);
  return f;
}

TEST(MetroidPak, ParseReadsEveryFieldAndSerializeGivesTheBytesBack) {
  const Bytes bytes = Mp1();
  ASSERT_EQ(bytes.size(), 0xA0u);
  const metroid_pak::File f = metroid_pak::Parse(bytes);
  EXPECT_EQ(f.header.version, 0x00030005u);
  EXPECT_EQ(f.header.named_count, 1u);
  ASSERT_EQ(f.names.size(), 1u);
  EXPECT_EQ(f.names[0].at, 0x0Cu);
  EXPECT_EQ(f.names[0].id, 0x11223344u);
  EXPECT_EQ(f.names[0].name, "Samus");
  EXPECT_EQ(f.resource_count_at, 0x1Du);
  ASSERT_EQ(f.resources.size(), 2u);
  EXPECT_EQ(f.resources[1].compressed, 1u);
  EXPECT_EQ(f.resources[1].id, 0xAABBCCDDu);
  EXPECT_EQ(f.resources[1].size, 0x20u);
  EXPECT_EQ(f.resources[1].offset, 0x80u);
  EXPECT_TRUE(f.warnings.empty()) << f.warnings[0];
  EXPECT_EQ(metroid_pak::PackingOf(f, 0), metroid_pak::Packing::Raw);
  EXPECT_EQ(metroid_pak::PackingOf(f, 1), metroid_pak::Packing::Zlib);
  EXPECT_EQ(metroid_pak::Serialize(f), bytes);
  metroid_pak::File g = f;  // a field changed in the parsed file lands at its place
  g.resources[1].id = 0x01020304;
  EXPECT_EQ(U32At(metroid_pak::Serialize(g), 0x35 + 8), 0x01020304u);
}

TEST(MetroidPak, MembersAreNamedByIdAndTypeWithTheirNamedTableNames) {
  const Bytes bytes = Mp1();
  const auto doc = Read(bytes);
  const std::vector<ArchiveMember> m = doc->Members();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "11223344.ANCS");
  EXPECT_EQ(m[0].names, std::vector<std::string>{"Samus"});
  EXPECT_EQ(m[0].size, 0x20u);
  EXPECT_EQ(m[0].stored_size, 0x20u);
  EXPECT_FALSE(m[0].compressed);
  EXPECT_EQ(m[1].name, "AABBCCDD.TXTR");
  EXPECT_TRUE(m[1].names.empty());
  EXPECT_EQ(m[1].size, 5u);
  EXPECT_EQ(m[1].stored_size, 0x20u);
  EXPECT_TRUE(m[1].compressed);
  Bytes raw(0x20, 0xFF);  // a raw entry's bytes are its stored size, padding included
  std::copy_n("ANCSDATA", 8, raw.begin());
  EXPECT_EQ(doc->MemberBytes(0), raw);
  EXPECT_EQ(doc->MemberBytes(1), (Bytes{'H', 'E', 'L', 'L', 'O'}));
  EXPECT_THROW(doc->MemberBytes(2), Error);
  EXPECT_EQ(doc->Write(), bytes);
  EXPECT_EQ(doc->Info()["resources"][1]["packing"].get<std::string>(), "zlib");
  EXPECT_EQ(doc->Info()["names"][0]["name"].get<std::string>(), "Samus");
}

TEST(MetroidPak, AMemberIsFoundByItsNameAnyNameOfItInAnyCaseOrItsId) {
  const LoadedFile f = Loaded(Mp1());
  EXPECT_EQ(FindMember(f, "AABBCCDD.TXTR"), 1u);
  EXPECT_EQ(FindMember(f, "samus"), 0u);
  EXPECT_EQ(FindMember(f, "SAMUS"), 0u);
  EXPECT_EQ(FindMember(f, "aabbccdd"), 1u);
  EXPECT_EQ(FindMember(f, "11223344"), 0u);
  EXPECT_THROW(FindMember(f, "1122334"), Error);
  EXPECT_THROW(FindMember(f, "Samu"), Error);
  const Value listed = MembersValue(f);
  EXPECT_EQ(listed[0]["names"][0].get<std::string>(), "Samus");
  EXPECT_FALSE(listed[1].contains("names"));
  EXPECT_EQ(listed[1]["index"].get<uint64_t>(), 1u);
}

TEST(MetroidPak, ARepeatedIdIsKeptAsStoredAndLookupPicksTheFirst) {
  const Bytes a(32, 1), b(32, 2);
  const Bytes pak = metroid_pak::Build({{{'M', 'R', 'E', 'A'}, 7, a}, {{'M', 'R', 'E', 'A'}, 7, b}});
  const LoadedFile f = Loaded(pak);
  const std::vector<ArchiveMember> m = f.document->Members();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "00000007.MREA");
  EXPECT_EQ(m[1].name, "00000007.MREA");
  EXPECT_EQ(FindMember(f, "00000007.MREA"), 0u);
  EXPECT_EQ(f.document->MemberBytes(1), b);
  EXPECT_EQ(f.document->Write(), pak);
}

TEST(MetroidPak, Mp2SegmentsUnpackLzoRawAndHandWrittenLzo) {
  const Bytes bytes = Mp2();
  const auto doc = Read(bytes);
  const metroid_pak::File f = metroid_pak::Parse(bytes);
  EXPECT_EQ(metroid_pak::PackingOf(f, 0), metroid_pak::Packing::Segments);
  ASSERT_EQ(doc->Members().size(), 1u);
  EXPECT_EQ(doc->Members()[0].name, "00000042.ANIM");
  EXPECT_EQ(doc->Members()[0].size, 0x4006u);
  EXPECT_EQ(doc->MemberBytes(0), Mp2Expected());
  EXPECT_EQ(doc->Write(), bytes);
}

TEST(MetroidPak, ASegmentMayHoldZlib) {
  Builder w;
  w.U32(5);
  w.U16(16);
  w.Raw(kHelloZlib);
  EXPECT_EQ(metroid_pak::Decompress(w.b, Limits{}), (Bytes{'H', 'E', 'L', 'L', 'O'}));
  // LZO1X that starts like a zlib header: 0x78 = 17 + 103 literals, the first 0x9C; end 11 00 00.
  Bytes literals(103, 'L');
  literals[0] = 0x9C;
  Builder lzo;
  lzo.U32(103);
  lzo.U16(uint16_t(1 + 103 + 3));
  lzo.Raw({0x78});
  lzo.Append(literals);
  lzo.Raw({0x11, 0x00, 0x00});
  EXPECT_EQ(metroid_pak::Decompress(lzo.b, Limits{}), literals);
}

TEST(MetroidPak, StreamsThatGiveMoreOrFewerBytesThanStatedAreErrors) {
  auto error_of = [](const Bytes& stored) { return test::ErrorOf([&] { metroid_pak::Decompress(stored, Limits{}); }); };
  Builder more;  // zlib: "HELLO" where 4 bytes are stated
  more.U32(4);
  more.Raw(kHelloZlib);
  EXPECT_TRUE(Has(error_of(more.b), "more than the 4 bytes")) << error_of(more.b);
  Builder fewer;
  fewer.U32(6);
  fewer.Raw(kHelloZlib);
  EXPECT_TRUE(Has(error_of(fewer.b), "stated size")) << error_of(fewer.b);
  Builder cut;  // zlib cut inside its block
  cut.U32(5);
  cut.Append(ByteView(Bytes(kHelloZlib)).first(9));
  EXPECT_TRUE(Has(error_of(cut.b), "cut short")) << error_of(cut.b);
  Builder raw;  // a raw segment of 3 where 2 are stated
  raw.U32(2);
  raw.U16(uint16_t(int16_t(-3)));
  raw.Text("abc");
  EXPECT_TRUE(Has(error_of(raw.b), "offset 0x4") && Has(error_of(raw.b), "more than the 2")) << error_of(raw.b);
  Builder lzo;  // the hand-written LZO segment gives 3 where 2 are stated
  lzo.U32(2);
  lzo.U16(7);
  lzo.Raw({0x14, 'x', 'y', 'z', 0x11, 0x00, 0x00});
  EXPECT_TRUE(Has(error_of(lzo.b), "gives more than the 2")) << error_of(lzo.b);
  Builder short_segments;  // segments end after 3 of 10 bytes
  short_segments.U32(10);
  short_segments.U16(uint16_t(int16_t(-3)));
  short_segments.Text("abc");
  EXPECT_TRUE(Has(error_of(short_segments.b), "offset 0x9") && Has(error_of(short_segments.b), "end after 3"))
      << error_of(short_segments.b);
  Builder long_segment;  // a segment length past the data
  long_segment.U32(10);
  long_segment.U16(100);
  long_segment.Text("abc");
  EXPECT_FALSE(error_of(long_segment.b).empty());
  Builder damaged;  // an LZO segment that is no LZO1X
  damaged.U32(10);
  damaged.U16(3);
  damaged.Raw({0x00, 0x00, 0x00});
  EXPECT_FALSE(error_of(damaged.b).empty());
  // Within a PAK the error names the entry and the file's offset.
  Bytes pak = Mp1();
  pak[0x83] = 4;
  const std::string in_pak = test::ErrorOf([&] { Read(pak)->MemberBytes(1); });
  EXPECT_TRUE(Has(in_pak, "AABBCCDD.TXTR") && Has(in_pak, "more than")) << in_pak;
}

TEST(MetroidPak, TheStatedSizeIsCheckedAgainstTheLimitBeforeAllocating) {
  Limits limits;
  limits.max_member_bytes = 4;
  const std::string small = test::ErrorOf([&] { Read(Mp1(), limits)->MemberBytes(1); });
  EXPECT_TRUE(Has(small, "max-member-bytes") && Has(small, "offset 0x80")) << small;
  EXPECT_EQ(Read(Mp1(), limits)->MemberBytes(0).size(), 0x20u);  // raw: no unpacking
  Bytes huge = Mp1();
  for (size_t i = 0x80; i < 0x84; ++i) huge[i] = 0xFF;
  const std::string stated = test::ErrorOf([&] { Read(huge)->MemberBytes(1); });
  EXPECT_TRUE(Has(stated, "max-member-bytes")) << stated;
  // Within the limit, but more than 28 bytes of zlib (the stream and its padding; 1032:1 at most) or
  // 6 of segments can give.
  Bytes big = Mp1();
  big[0x81] = 0x01;  // 0x10005 bytes stated
  const std::string too_many = test::ErrorOf([&] { Read(big)->MemberBytes(1); });
  EXPECT_TRUE(Has(too_many, "offset 0x80") && Has(too_many, "28 bytes can give")) << too_many;
  Builder segments;
  segments.U32(2 * 0x4000 + 1);
  segments.U16(uint16_t(int16_t(-3)));
  segments.Text("abcd");  // 6 bytes of segments: 2 at most, 0x8000 bytes
  const std::string short_segments = test::ErrorOf([&] { metroid_pak::Decompress(segments.b, Limits{}); });
  EXPECT_TRUE(Has(short_segments, "32768 bytes a stream of 6 bytes")) << short_segments;
}

TEST(MetroidPak, ReplacingAMemberRecompressesItAndKeepsTheOthersBytes) {
  const Bytes bytes = Mp1();
  const auto doc = Read(bytes);
  // The raw entry grows from 0x20 to 40 bytes, padded to 0x40: the TXTR moves from 0x80 to 0xA0.
  const Bytes grown = doc->WithMember(0, Bytes(40, 'n'));
  ASSERT_EQ(grown.size(), 0xC0u);
  EXPECT_EQ(U32At(grown, 0x21 + 12), 0x40u);
  EXPECT_EQ(U32At(grown, 0x35 + 16), 0xA0u);
  EXPECT_EQ(Bytes(grown.begin(), grown.begin() + 0x21), Bytes(bytes.begin(), bytes.begin() + 0x21));
  EXPECT_EQ(Bytes(grown.begin() + 0x88, grown.begin() + 0x8C), (Bytes{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(Bytes(grown.begin() + 0xA0, grown.end()), Bytes(bytes.begin() + 0x80, bytes.end()));
  // The zlib entry is recompressed with zlib; the raw entry's bytes stay.
  const Bytes text(3000, 'q');
  const Bytes replaced = doc->WithMember(1, text);
  const auto back = Read(replaced);
  EXPECT_EQ(back->MemberBytes(1), text);
  EXPECT_EQ(metroid_pak::PackingOf(metroid_pak::Parse(replaced), 1), metroid_pak::Packing::Zlib);
  EXPECT_EQ(Bytes(replaced.begin(), replaced.begin() + 0x80), Bytes(bytes.begin(), bytes.begin() + 0x80));
  EXPECT_EQ(replaced.size() % 32, 0u);
  // MP2: recompressed as segments of 0x4000.
  const Bytes mp2 = Read(Mp2())->WithMember(0, Mp2Expected());
  EXPECT_EQ(metroid_pak::PackingOf(metroid_pak::Parse(mp2), 0), metroid_pak::Packing::Segments);
  EXPECT_EQ(Read(mp2)->MemberBytes(0), Mp2Expected());
  // Two entries sharing data cannot be replaced alone.
  Bytes shared = bytes;
  shared[0x35 + 19] = 0x60;
  EXPECT_THROW(Read(shared)->WithMember(0, Bytes{1}), Error);
}

TEST(MetroidPak, TheBuilderWritesTheStockLayoutForMp1AndMp2) {
  // Raw members only: the hand-built MP1 layout with a raw TXTR of 32 bytes.
  Bytes raw_pak = Mp1();
  raw_pak[0x38] = 0;
  Bytes ancs(0x20, 0xFF);
  std::copy_n("ANCSDATA", 8, ancs.begin());
  Bytes txtr(raw_pak.begin() + 0x80, raw_pak.end());
  EXPECT_EQ(metroid_pak::Build({{{'A', 'N', 'C', 'S'}, 0x11223344, ancs, metroid_pak::Packing::Raw, {"Samus"}},
                                {{'T', 'X', 'T', 'R'}, 0xAABBCCDD, txtr}}),
            raw_pak);
  const Bytes big = Mp2Expected();
  const Bytes pak = metroid_pak::Build({{{'A', 'N', 'I', 'M'}, 1, big, metroid_pak::Packing::Segments},
                                        {{'T', 'X', 'T', 'R'}, 2, big, metroid_pak::Packing::Zlib, {"a", "b"}}});
  const metroid_pak::File f = metroid_pak::Parse(pak);
  EXPECT_EQ(metroid_pak::PackingOf(f, 0), metroid_pak::Packing::Segments);
  EXPECT_EQ(metroid_pak::PackingOf(f, 1), metroid_pak::Packing::Zlib);
  for (const metroid_pak::Resource& e : f.resources) EXPECT_TRUE(e.offset % 32 == 0 && e.size % 32 == 0);
  EXPECT_EQ(metroid_pak::Unpack(f, 0, Limits{}), big);
  EXPECT_EQ(metroid_pak::Unpack(f, 1, Limits{}), big);
  EXPECT_EQ(Read(pak)->Members()[1].names, (std::vector<std::string>{"a", "b"}));
  // A block LZO does not shrink is stored raw, with a negative length.
  Bytes noise(100);
  uint32_t x = 1;
  for (uint8_t& c : noise) c = uint8_t((x = x * 1103515245u + 12345u) >> 24);
  const Bytes packed = metroid_pak::Compress(noise, metroid_pak::Packing::Segments);
  EXPECT_EQ(int16_t(uint16_t(packed[4] << 8 | packed[5])), -100);
  EXPECT_EQ(metroid_pak::Decompress(packed, Limits{}), noise);
}

TEST(MetroidPak, CorruptedCountsAndOffsetsAreErrorsNamingTheOffset) {
  const Bytes good = Mp1();
  auto error_of = [](Bytes b) { return test::ReadError(Pak(), b); };
  Bytes version = good;
  version[3] = 6;
  EXPECT_TRUE(Has(error_of(version), "0x00030005")) << error_of(version);
  Bytes names = good;
  names[8] = 0x10;
  EXPECT_TRUE(Has(error_of(names), "named-resource table")) << error_of(names);
  Bytes name_length = good;
  name_length[0x17] = 0xF0;
  EXPECT_TRUE(Has(error_of(name_length), "name of the named entry at 0xc")) << error_of(name_length);
  Bytes count = good;
  count[0x1D] = 0x10;
  EXPECT_TRUE(Has(error_of(count), "resource table")) << error_of(count);
  Bytes past = good;
  past[0x35 + 18] = 0x10;
  EXPECT_TRUE(Has(error_of(past), "offset 0x35") && Has(error_of(past), "past the end")) << error_of(past);
  Bytes size = good;
  size[0x35 + 14] = 0x10;
  EXPECT_TRUE(Has(error_of(size), "offset 0x35") && Has(error_of(size), "past the end")) << error_of(size);
  Bytes inside = good;
  inside[0x21 + 19] = 0x20;
  EXPECT_TRUE(Has(error_of(inside), "offset 0x21") && Has(error_of(inside), "inside the tables")) << error_of(inside);
  Bytes flag = good;
  flag[0x24] = 2;
  EXPECT_TRUE(Has(error_of(flag), "compressed flag")) << error_of(flag);
  Bytes unaligned = good;
  unaligned[0x21 + 15] = 0x1F;
  EXPECT_TRUE(Has(metroid_pak::Parse(unaligned).warnings.at(0), "multiple of 32"));
  test::ExpectEveryByteCorruptionHandled(Pak(), good);
  test::ExpectEveryByteCorruptionHandled(Pak(), Mp2(), 0x40);
}

TEST(MetroidPak, EveryTruncationFails) {
  test::ExpectEveryTruncationFails(Pak(), Mp1());
  test::ExpectEveryTruncationFails(Pak(), Mp2());
  const Bytes stream = Mp2Stream();  // and every cut of a stream
  for (size_t n = 0; n < stream.size(); ++n)
    EXPECT_THROW(metroid_pak::Decompress(ByteView(stream).first(n), Limits{}), Error) << n;
  Builder zlib;
  zlib.U32(5);
  zlib.Raw(kHelloZlib);
  for (size_t n = 0; n < zlib.b.size(); ++n)  // the Adler-32 is checked too
    EXPECT_THROW(metroid_pak::Decompress(ByteView(zlib.b).first(n), Limits{}), Error) << n;
}

TEST(MetroidPak, TheProbeTellsMetroidAndVibRibbonPaksApart) {
  EXPECT_EQ(Pak().probe(Mp1(), ".pak"), kProbeMagic);
  EXPECT_EQ(Pak().probe(Mp2(), ".bin"), kProbeMagic);
  EXPECT_EQ(Detect(Mp1(), "Metroid1.pak").format, &Pak());
  EXPECT_EQ(Detect(Mp2(), "Metroid2.PAK").format, &Pak());
  // Vib-Ribbon: u32 LE count 1, offset 8, "A.ANM" + NUL + 2 pad, length 4, "ANM1".
  test::LittleEndianBuilder vib;
  vib.U32(1);
  vib.U32(8);
  for (char c : std::string("A.ANM\0\0\0", 8)) vib.b.push_back(uint8_t(c));
  vib.U32(4);
  for (char c : std::string("ANM1")) vib.b.push_back(uint8_t(c));
  EXPECT_EQ(Pak().probe(vib.b, ".pak"), kProbeNone);
  EXPECT_EQ(Detect(vib.b, "FILES.PAK").format, FindFormat("psx-pak"));
  Bytes tables = Mp1();  // the version alone is not enough: the tables must fit
  tables[0x1D] = 0x10;
  EXPECT_EQ(Pak().probe(tables, ".pak"), kProbeNone);
}

TEST(MetroidPak, APakDecodesToAnEmptySceneAndSaysSo) {
  const auto doc = Read(Mp1());
  const Scene scene = doc->Decode(DecodeContext{});
  EXPECT_TRUE(scene.clips.empty());
  EXPECT_EQ(scene.metadata[metroid_pak::metadata_keys::kMemberCount].get<uint64_t>(), 2u);
  EXPECT_TRUE(Has(doc->Warnings().back(), "empty scene"));
  EXPECT_TRUE(Pak().archive_of_files);
}

}  // namespace
}  // namespace animkit
