// TXTR: hand-built textures whose expected RGBA comes from the layout (GX tiles, bit
// replication, the CMPR 3/8 blend), mips, row order, damaged headers.
#include <animkit/formats/metroid_txtr.hpp>

#include "formats/metroid_model/metroid_txtr_image.hpp"
#include "support/test_support.hpp"

namespace animkit {
extern const FormatDescriptor kMetroidTxtrFormat;
namespace {

using namespace metroid_txtr;
using Rgba = std::array<int, 4>;

// Header (+ palette) + data, big-endian, as the layout states.
Bytes Txtr(uint32_t format, uint16_t w, uint16_t h, uint32_t mips, const Bytes& data,
           const std::vector<uint16_t>& palette = {}, uint32_t palette_format = 1, uint16_t pw = 0, uint16_t ph = 1) {
  ByteWriter b(Endian::Big);
  b.U32(format), b.U16(w), b.U16(h), b.U32(mips);
  if (format == 4 || format == 5 || format == 6) {
    b.U32(palette_format), b.U16(pw ? pw : uint16_t(palette.size())), b.U16(ph);
    for (uint16_t e : palette) b.U16(e);
  }
  b.Append(data);
  return b.Take();
}

Rgba At(const Image& img, uint32_t x, uint32_t y) {
  const uint8_t* p = &img.rgba[(size_t{y} * img.width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}
int W4(int v) { return v * 17; }
int W5(int v) { return (v << 3) | (v >> 2); }
int W6(int v) { return (v << 2) | (v >> 4); }
int W3(int v) { return (v << 5) | (v << 2) | (v >> 1); }
Rgba From565(int v) { return {W5(v >> 11), W6((v >> 5) & 63), W5(v & 31), 255}; }

Image Level0(const Bytes& file) { return DecodeLevel(ParseTxtr(file), 0); }

TEST(MetroidTxtr, I4TwoTilesHighNibbleLeft) {
  // 16x8: tile 0 holds x 0-7, tile 1 x 8-15; 4 bytes a tile row, high nibble = left texel.
  Bytes data(64);
  auto nibble = [](int x, int y) { return (x * 3 + y * 5) & 15; };
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 8; ++y) {
      const size_t byte = size_t(x / 8) * 32 + size_t(y) * 4 + size_t(x % 8) / 2;
      data[byte] |= uint8_t(nibble(x, y) << (x % 2 ? 0 : 4));
    }
  const Image img = Level0(Txtr(0, 16, 8, 1, data));
  ASSERT_EQ(img.width, 16u);
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 8; ++y) {
      const int v = W4(nibble(x, y));
      EXPECT_EQ(At(img, x, y), (Rgba{v, v, v, v})) << x << "," << y;
    }
  EXPECT_EQ(img.source_format, "I4");
}

TEST(MetroidTxtr, I8AndIa4AndIa8) {
  Bytes i8(32), ia4(32), ia8(32);
  for (int i = 0; i < 32; ++i) i8[i] = uint8_t(i * 7), ia4[i] = uint8_t(i * 11 + 3);
  for (int i = 0; i < 16; ++i) ia8[2 * i] = uint8_t(200 - i), ia8[2 * i + 1] = uint8_t(i * 9);
  const Image a = Level0(Txtr(1, 8, 4, 1, i8)), b = Level0(Txtr(2, 8, 4, 1, ia4)), c = Level0(Txtr(3, 4, 4, 1, ia8));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      const int v = i8[y * 8 + x], p = ia4[y * 8 + x];
      EXPECT_EQ(At(a, x, y), (Rgba{v, v, v, v}));
      EXPECT_EQ(At(b, x, y), (Rgba{W4(p & 15), W4(p & 15), W4(p & 15), W4(p >> 4)}));
      if (x < 4) {
        const int i = ia8[(y * 4 + x) * 2 + 1], al = ia8[(y * 4 + x) * 2];
        EXPECT_EQ(At(c, x, y), (Rgba{i, i, i, al}));
      }
    }
}

TEST(MetroidTxtr, Rgb565AndRgb5a3) {
  const std::vector<uint16_t> values = {0xF800, 0x07E0, 0x001F, 0x8410, 0xFC00, 0x7F00, 0x3840, 0x0123,
                                        0xFFFF, 0x0000, 0x8001, 0x7FFF, 0x1234, 0xABCD, 0x5555, 0xAAAA};
  Bytes data;
  for (uint16_t v : values) data.push_back(uint8_t(v >> 8)), data.push_back(uint8_t(v));
  const Image a = Level0(Txtr(7, 4, 4, 1, data)), b = Level0(Txtr(8, 4, 4, 1, data));
  for (int i = 0; i < 16; ++i) {
    const int v = values[i];
    EXPECT_EQ(At(a, i % 4, i / 4), From565(v));
    const Rgba expect5a3 = v & 0x8000 ? Rgba{W5((v >> 10) & 31), W5((v >> 5) & 31), W5(v & 31), 255}
                                      : Rgba{W4((v >> 8) & 15), W4((v >> 4) & 15), W4(v & 15), W3((v >> 12) & 7)};
    EXPECT_EQ(At(b, i % 4, i / 4), expect5a3) << i;
  }
  EXPECT_EQ(At(a, 3, 0), (Rgba{132, 130, 132, 255}));  // 0x8410: 16, 32, 16 widened
  EXPECT_EQ(At(b, 2, 1), (Rgba{136, 68, 0, 109}));     // 0x3840: alpha 3, 8, 4, 0
}

TEST(MetroidTxtr, Rgba8ArPairsThenGbPairs) {
  Bytes data(64);
  for (int i = 0; i < 16; ++i) {
    data[2 * i] = uint8_t(i), data[2 * i + 1] = uint8_t(100 + i);            // A, R
    data[32 + 2 * i] = uint8_t(50 + i), data[32 + 2 * i + 1] = uint8_t(200 + i);  // G, B
  }
  const Image img = Level0(Txtr(9, 4, 4, 1, data));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(At(img, i % 4, i / 4), (Rgba{100 + i, 50 + i, 200 + i, i}));
}

// One GX CMPR block: big-endian colours, one index byte per row, leftmost texel in bits 7-6.
void Block(Bytes& out, uint16_t c0, uint16_t c1, const std::array<uint8_t, 4>& rows) {
  out.insert(out.end(), {uint8_t(c0 >> 8), uint8_t(c0), uint8_t(c1 >> 8), uint8_t(c1)});
  out.insert(out.end(), rows.begin(), rows.end());
}

TEST(MetroidTxtr, CmprBlocksAndBlend) {
  Bytes data;
  Block(data, 0xF800, 0x001F, {0x1B, 0x1B, 0x1B, 0x1B});  // TL: c0 > c1, indices 0,1,2,3 per row
  Block(data, 0x001F, 0xF800, {0x1B, 0xE4, 0x00, 0xFF});  // TR: c0 <= c1: 2 = average, 3 transparent
  Block(data, 0x07E0, 0x07E0, {0x00, 0x00, 0x00, 0x00});  // BL: all colour 0
  Block(data, 0xFFFF, 0x0000, {0xAA, 0xAA, 0xAA, 0xAA});  // BR: all index 2
  const Image img = Level0(Txtr(10, 8, 8, 1, data));
  const Rgba red{255, 0, 0, 255}, blue{0, 0, 255, 255};
  EXPECT_EQ(At(img, 0, 0), red);
  EXPECT_EQ(At(img, 1, 0), blue);
  EXPECT_EQ(At(img, 2, 0), (Rgba{(5 * 255) >> 3, 0, (3 * 255) >> 3, 255}));
  EXPECT_EQ(At(img, 3, 3), (Rgba{(3 * 255) >> 3, 0, (5 * 255) >> 3, 255}));
  EXPECT_EQ(At(img, 4, 0), blue);
  EXPECT_EQ(At(img, 5, 0), red);
  EXPECT_EQ(At(img, 6, 0), (Rgba{127, 0, 127, 255}));
  EXPECT_EQ(At(img, 7, 0)[3], 0);
  EXPECT_EQ(At(img, 4, 1)[3], 0);  // row 0xE4: 3,2,1,0
  EXPECT_EQ(At(img, 7, 1), blue);
  EXPECT_EQ(At(img, 7, 3)[3], 0);
  EXPECT_EQ(At(img, 2, 6), (Rgba{0, 255, 0, 255}));
  EXPECT_EQ(At(img, 5, 5), (Rgba{(5 * 255) >> 3, (5 * 255) >> 3, (5 * 255) >> 3, 255}));
}

TEST(MetroidTxtr, PalettedFormats) {
  std::vector<uint16_t> rgb565(256), rgb5a3(16), ia8(16);
  for (int i = 0; i < 256; ++i) rgb565[i] = uint16_t(i * 257);
  for (int i = 0; i < 16; ++i) rgb5a3[i] = uint16_t(i % 2 ? 0x8000 | (i * 2047) : 0x1000 * (i / 2) + i), ia8[i] = uint16_t(0x1100 * i + 0x0F);
  Bytes c8(32), c4(32);
  for (int i = 0; i < 32; ++i) c8[i] = uint8_t(255 - i * 3), c4[i] = uint8_t(i * 37);
  const Image a = Level0(Txtr(5, 8, 4, 1, c8, rgb565, 1));
  const Image b = Level0(Txtr(4, 8, 8, 1, c4, rgb5a3, 2));
  const Image c = Level0(Txtr(4, 8, 8, 1, c4, ia8, 0));
  for (int i = 0; i < 32; ++i) EXPECT_EQ(At(a, i % 8, i / 8), From565(rgb565[c8[i]]));
  for (int i = 0; i < 64; ++i) {
    const int index = (c4[i / 2] >> (i % 2 ? 0 : 4)) & 15;
    const int v = rgb5a3[index];
    const Rgba e = v & 0x8000 ? Rgba{W5((v >> 10) & 31), W5((v >> 5) & 31), W5(v & 31), 255}
                              : Rgba{W4((v >> 8) & 15), W4((v >> 4) & 15), W4(v & 15), W3((v >> 12) & 7)};
    EXPECT_EQ(At(b, i % 8, i / 8), e);
    const int in = ia8[index] & 0xFF, al = ia8[index] >> 8;  // IA8 entries alpha first, as the texel
    EXPECT_EQ(At(c, i % 8, i / 8), (Rgba{in, in, in, al}));
  }
  EXPECT_EQ(a.source_format, "C8 (RGB565 palette)");
}

TEST(MetroidTxtr, C14x2IndexLow14Bits) {
  std::vector<uint16_t> palette(16384);
  for (size_t i = 0; i < palette.size(); ++i) palette[i] = uint16_t(i);
  Bytes data;
  for (int i = 0; i < 16; ++i) {
    const uint16_t v = uint16_t(0xC000 | (i * 1000));
    data.push_back(uint8_t(v >> 8)), data.push_back(uint8_t(v));
  }
  const Image img = Level0(Txtr(6, 4, 4, 1, data, palette, 1, 128, 128));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(At(img, i % 4, i / 4), From565(i * 1000));
}

TEST(MetroidTxtr, SidesNotMultiplesOfTheTile) {
  // RGB565 6x5: each side rounded to 4 -> 8x8 = 2x2 tiles of 4x4, 128 bytes.
  Bytes data(128);
  for (size_t i = 0; i < 64; ++i) data[2 * i] = uint8_t(i), data[2 * i + 1] = uint8_t(i * 3);
  const Image img = Level0(Txtr(7, 6, 5, 1, data));
  ASSERT_EQ(img.width, 6u);
  ASSERT_EQ(img.height, 5u);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 6; ++x) {
      const size_t texel = size_t((y / 4) * 2 + x / 4) * 16 + size_t(y % 4) * 4 + size_t(x % 4);
      EXPECT_EQ(At(img, x, y), From565(data[2 * texel] << 8 | data[2 * texel + 1]));
    }
}

TEST(MetroidTxtr, MipLevelsAndTheirOffsets) {
  // I8 16x8, 4 levels: 16x8 (128 bytes), 8x4 (32), 4x2 -> 4x4 (16), 2x1 -> 4x4 (16).
  Bytes data(128 + 32 + 16 + 16 + 8);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i);
  const TxtrFile f = ParseTxtr(Txtr(1, 16, 8, 4, data));
  const std::vector<MipLevel> levels = MipLevels(f.header, DataOffset(f));
  ASSERT_EQ(levels.size(), 4u);
  const size_t offsets[] = {12, 140, 172, 188}, sizes[] = {128, 32, 16, 16};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(levels[i].offset, offsets[i]);
    EXPECT_EQ(levels[i].size, sizes[i]);
  }
  EXPECT_EQ(levels[2].width, 4u);
  EXPECT_EQ(levels[2].height, 2u);
  EXPECT_EQ(levels[3].width, 2u);
  const Image l1 = DecodeLevel(f, 1);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(At(l1, i % 8, i / 8)[0], 128 + i);
  // A 4x2 level reads an 8x4 tile: its rows are 8 bytes apart.
  const Image l2 = DecodeLevel(f, 2);
  EXPECT_EQ(At(l2, 3, 1)[0], 160 + 8 + 3);
  const Image l3 = DecodeLevel(f, 3);  // its tile runs past the file's end: zeros there
  EXPECT_EQ(At(l3, 1, 0)[0], 176 + 1);
  const Value info = kMetroidTxtrFormat.read(Txtr(1, 16, 8, 4, data), {})->Info();
  EXPECT_EQ(info["mips"].size(), 4u);
  EXPECT_EQ(info["mips"][3]["offset"], 188);
  EXPECT_EQ(info["trailing_bytes"], 8);
  EXPECT_EQ(info["format_name"], "I8");
}

TEST(MetroidTxtr, RowOrderOption) {
  Bytes data(32);
  data[0] = 0xF8;  // texel (0,0) red
  const Bytes file = Txtr(7, 4, 4, 1, data);
  auto doc = kMetroidTxtrFormat.read(file, {});
  const Scene game = doc->Decode({});
  EXPECT_EQ(game.metadata["row_order"], "flipped");
  EXPECT_EQ(At(game.textures[0], 0, 3), (Rgba{255, 0, 0, 255}));  // the last row first: row 0 at the bottom
  DecodeContext stored;
  stored.options.Set("txtr-rows", "stored");
  const Scene s = doc->Decode(stored);
  EXPECT_EQ(s.metadata["row_order"], "stored");
  EXPECT_EQ(At(s.textures[0], 0, 0), (Rgba{255, 0, 0, 255}));
  EXPECT_TRUE(metroid_model::TxtrRowsFlipped(file));
  EXPECT_EQ(At(metroid_model::DecodeTxtrImage(file, "x.TXTR"), 0, 3), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(At(metroid_model::DecodeTxtrImage(file, "x.TXTR", false), 0, 0), (Rgba{255, 0, 0, 255}));
  // Paletted formats keep their rows in both.
  std::vector<uint16_t> palette(256, 0);
  palette[1] = 0xF800;
  Bytes c8(32);
  c8[0] = 1;
  const Bytes banner = Txtr(5, 8, 4, 1, c8, palette, 1);
  EXPECT_FALSE(metroid_model::TxtrRowsFlipped(banner));
  const Scene b = kMetroidTxtrFormat.read(banner, {})->Decode({});
  EXPECT_EQ(b.metadata["row_order"], "stored");
  std::set<std::string> keys, declared(metadata_keys::kTxtrScene.begin(), metadata_keys::kTxtrScene.end());
  for (auto item : b.metadata.items()) keys.insert(std::string(item.key()));
  EXPECT_EQ(keys, declared);  // the header declares every key a paletted TXTR writes
  EXPECT_EQ(At(b.textures[0], 0, 0), (Rgba{255, 0, 0, 255}));
}

TEST(MetroidTxtr, WritesBackAndRejectsEveryTruncation) {
  std::vector<uint16_t> palette(16, 0x1234);
  const Bytes files[] = {Txtr(0, 8, 8, 1, Bytes(32, 0x5A)), Txtr(4, 8, 8, 1, Bytes(32, 0x21), palette, 2),
                         Txtr(10, 16, 16, 2, Bytes(128 + 32, 0x77))};
  for (const Bytes& f : files) {
    test::ExpectByteExactRoundTrip(kMetroidTxtrFormat, f);
    test::ExpectEveryTruncationFails(kMetroidTxtrFormat, f);
  }
  Bytes padded = Txtr(7, 4, 4, 1, Bytes(32, 1));
  padded.insert(padded.end(), 20, 0);
  test::ExpectByteExactRoundTrip(kMetroidTxtrFormat, padded);
}

uint64_t OffsetOf(const Bytes& file) {
  try {
    (void)ParseTxtr(file);
  } catch (const Error& e) {
    return e.byte_offset().value_or(~uint64_t{0});
  }
  ADD_FAILURE() << "accepted";
  return 0;
}

TEST(MetroidTxtr, CorruptedHeadersNameTheOffset) {
  EXPECT_EQ(OffsetOf(Txtr(11, 8, 8, 1, Bytes(64))), 0u);
  EXPECT_EQ(OffsetOf(Txtr(1, 0, 8, 1, Bytes(64))), 4u);
  EXPECT_EQ(OffsetOf(Txtr(1, 8, 0, 1, Bytes(64))), 6u);
  EXPECT_EQ(OffsetOf(Txtr(1, 8, 4, 5, Bytes(64))), 8u);  // 8x4 has 4 levels
  EXPECT_EQ(OffsetOf(Txtr(1, 8, 4, 0xFFFFFFFF, Bytes(64))), 8u);
  EXPECT_EQ(OffsetOf(Txtr(5, 8, 4, 1, Bytes(32), std::vector<uint16_t>(256), 3)), 12u);
  EXPECT_EQ(OffsetOf(Txtr(5, 8, 4, 1, Bytes(32), std::vector<uint16_t>(16), 1)), 16u);  // C8 needs 256
  EXPECT_EQ(OffsetOf(Txtr(5, 8, 4, 1, Bytes(32), {}, 1, 0xFFFF, 0xFFFF)), 20u);  // entries past the end
  EXPECT_EQ(OffsetOf(Txtr(9, 64, 64, 1, Bytes(100))), 12u);  // mip 0 short
  EXPECT_EQ(OffsetOf(Txtr(9, 64, 64, 2, Bytes(64 * 64 * 4))), 12u + 64 * 64 * 4);  // mip 1 missing
  EXPECT_TRUE(test::Has(test::ReadError(kMetroidTxtrFormat, Txtr(9, 64, 64, 1, Bytes(100))), "mip level 0"));
  const std::string named = test::ErrorOf([] { (void)metroid_model::DecodeTxtrImage(Bytes(5), "dir/AB.TXTR"); });
  EXPECT_TRUE(test::Has(named, "dir/AB.TXTR"));
}

TEST(MetroidTxtr, APlaceholderOfNoLevelsDecodesToAMissingPicture) {
  const Bytes file = Txtr(7, 32, 32, 0, {});
  test::ExpectByteExactRoundTrip(kMetroidTxtrFormat, file);
  const Scene scene = kMetroidTxtrFormat.read(file, {})->Decode({});
  ASSERT_EQ(scene.textures.size(), 1u);
  EXPECT_TRUE(scene.textures[0].Missing());
  EXPECT_EQ(scene.textures[0].width, 32u);
  EXPECT_TRUE(metroid_model::DecodeTxtrImage(file, "p.TXTR").Missing());
  EXPECT_EQ(kMetroidTxtrFormat.read(file, {})->Info()["mips"].size(), 0u);
}

TEST(MetroidTxtr, EveryByteCorruptionIsAnErrorOrAFile) {
  std::vector<uint16_t> palette(16, 0x8123);
  test::ExpectEveryByteCorruptionHandled(kMetroidTxtrFormat, Txtr(4, 8, 8, 2, Bytes(32 + 8, 0x4B), palette, 2));
  test::ExpectEveryByteCorruptionHandled(kMetroidTxtrFormat, Txtr(10, 8, 8, 4, Bytes(56, 0x4B)), 12);
}

}  // namespace
}  // namespace animkit
