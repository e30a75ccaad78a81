// The public TXTRs (../shared/real/metroid): every one reads, writes back byte for byte,
// decodes to its header's size, and encodes again in its own format within the bounds;
// a few texels checked against values worked out here from the file's bytes and the layout.
#include <animkit/formats/metroid_txtr.hpp>

#include "formats/metroid_model/metroid_txtr_image.hpp"
#include "support/shared_files.hpp"
#include "support/test_support.hpp"

namespace animkit {
extern const FormatDescriptor kMetroidTxtrFormat;
namespace {

using namespace metroid_txtr;
using Rgba = std::array<int, 4>;

Bytes Real(const std::string& relative) {
  const std::string path = test::SharedPath("real/metroid/" + relative);
  return path.empty() ? Bytes{} : ReadFileBytes(path);
}
#define REAL_OR_SKIP(var, relative)                                                        \
  const Bytes var = Real(relative);                                                        \
  if (var.empty()) GTEST_SKIP() << "../shared/real/metroid/" relative " is absent"

uint16_t Be16(const Bytes& b, size_t at) { return uint16_t(b[at] << 8 | b[at + 1]); }
Rgba At(const Image& img, uint32_t x, uint32_t y) {
  const uint8_t* p = &img.rgba[(size_t{y} * img.width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}
int W5(int v) { return (v << 3) | (v >> 2); }
int W6(int v) { return (v << 2) | (v >> 4); }
Rgba From565(int v) { return {W5(v >> 11), W6((v >> 5) & 63), W5(v & 31), 255}; }

TEST(MetroidTxtrReal, EveryFileReadsWritesBackAndDecodes) {
  const std::vector<std::string> files = test::SharedFiles({"real/metroid"}, {".txtr"});
  if (files.empty()) GTEST_SKIP() << "no TXTR under ../shared/real/metroid";
  for (const std::string& relative : files) {
    SCOPED_TRACE(relative);
    const Bytes bytes = ReadFileBytes(test::SharedPath(relative));
    test::ExpectByteExactRoundTrip(kMetroidTxtrFormat, bytes);
    const TxtrFile f = ParseTxtr(bytes);
    EXPECT_EQ(f.header.width, Be16(bytes, 4));
    EXPECT_EQ(f.header.height, Be16(bytes, 6));
    const Scene scene = kMetroidTxtrFormat.read(bytes, {})->Decode({});
    ASSERT_EQ(scene.textures.size(), 1u);
    EXPECT_EQ(scene.textures[0].width, f.header.width);
    EXPECT_EQ(scene.textures[0].rgba.size(), size_t{f.header.width} * f.header.height * 4);
    for (size_t level = 0; level < f.header.mip_count; ++level) (void)DecodeLevel(f, level);
    // Written again in its own format: exact for the lossless ones, bounded for CMPR.
    EncodeSettings s;
    s.format = f.header.format, s.palette = f.palette_header;
    const Image stored = DecodeLevel(f, 0);
    const Image back = DecodeLevel(ParseTxtr(SerializeTxtr(EncodeTxtr(stored, s))), 0);
    double sum = 0;
    for (size_t i = 0; i < stored.rgba.size(); ++i) sum += std::abs(int(stored.rgba[i]) - int(back.rgba[i]));
    const double mean = sum / double(stored.rgba.size());
    if (f.header.format == uint32_t(TexelFormat::CMPR))
      EXPECT_LE(mean, 3.0);
    else
      EXPECT_EQ(mean, 0.0) << Traits(f.header.format).name;
  }
}

// A one-level lossless file's own picture, as the game shows it, written over it as the
// template gives its bytes again (the padding too).
TEST(MetroidTxtrReal, AnUneditedPictureWritesTheTemplatesBytes) {
  const std::vector<std::string> files = test::SharedFiles({"real/metroid"}, {".txtr"});
  if (files.empty()) GTEST_SKIP() << "no TXTR under ../shared/real/metroid";
  size_t checked = 0;
  for (const std::string& relative : files) {
    const Bytes bytes = ReadFileBytes(test::SharedPath(relative));
    const TxtrFile f = ParseTxtr(bytes);
    if (f.header.mip_count != 1 || Traits(f.header.format).paletted || f.header.format == uint32_t(TexelFormat::CMPR)) continue;
    SCOPED_TRACE(relative);
    auto doc = kMetroidTxtrFormat.read(bytes, {});
    Scene picture;
    picture.textures = doc->Decode({}).textures;
    EncodeTemplate templ{relative, bytes, doc.get()};
    EncodeContext context;
    context.templ = &templ;
    EXPECT_EQ(kMetroidTxtrFormat.encode(picture, context)->Write(), bytes);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

TEST(MetroidTxtrReal, Rgb565FirstTexelIsTheLastGameRow) {
  REAL_OR_SKIP(bytes, "textures/flamethrower_color_body.TXTR");
  ASSERT_EQ(Be16(bytes, 0x4), 64);
  ASSERT_EQ(Be16(bytes, 0x6), 64);
  const Image game = metroid_model::DecodeTxtrImage(bytes, "flamethrower_color_body.TXTR");
  const Image stored = metroid_model::DecodeTxtrImage(bytes, "flamethrower_color_body.TXTR", false);
  // Tile (0,0) texel 0 is the first u16 at 0x0C; tile 1's first texel (x 4) at 0x0C + 32;
  // the second texel row of tile 0 (y 1) at 0x0C + 8.
  EXPECT_EQ(At(stored, 0, 0), From565(Be16(bytes, 0x0C)));
  EXPECT_EQ(At(stored, 4, 0), From565(Be16(bytes, 0x0C + 32)));
  EXPECT_EQ(At(stored, 0, 1), From565(Be16(bytes, 0x0C + 8)));
  EXPECT_EQ(At(game, 0, 63), From565(Be16(bytes, 0x0C)));
  EXPECT_TRUE(metroid_model::TxtrRowsFlipped(bytes));
}

TEST(MetroidTxtrReal, SaveBannerC8ThroughItsRgb565Palette) {
  REAL_OR_SKIP(bytes, "textures/save_banner.txtr");
  const Value info = kMetroidTxtrFormat.read(bytes, {})->Info();
  EXPECT_EQ(info["format_name"], "C8");
  EXPECT_EQ(info["palette_format_name"], "RGB565");
  EXPECT_EQ(info["palette_entries"], 256);
  EXPECT_EQ(info["mips"][0]["offset"], 12 + 8 + 512);
  EXPECT_EQ(info["trailing_bytes"], 3616 - (12 + 8 + 512 + 96 * 32));
  const Image img = metroid_model::DecodeTxtrImage(bytes, "save_banner.txtr");  // a banner: rows as stored
  EXPECT_FALSE(metroid_model::TxtrRowsFlipped(bytes));
  const size_t texels = 12 + 8 + 512;
  for (auto [x, y, at] : {std::tuple{0u, 0u, size_t{0}}, {7u, 3u, size_t{31}}, {8u, 0u, size_t{32}}, {0u, 4u, size_t{12 * 32}}})
    EXPECT_EQ(At(img, x, y), From565(Be16(bytes, 20 + 2 * size_t{bytes[texels + at]}))) << x << "," << y;
}

TEST(MetroidTxtrReal, CmprFirstBlockAndMipChain) {
  REAL_OR_SKIP(bytes, "textures/holorim_ai.txtr");
  // 0x0C: c0 0x1883 > c1 0x0000, every index 3: colour 3 = (3 c0 + 5 c1) >> 3 per channel.
  ASSERT_EQ(Be16(bytes, 0x0C), 0x1883);
  ASSERT_EQ(Be16(bytes, 0x0E), 0x0000);
  ASSERT_EQ(bytes[0x10], 0xFF);
  const Rgba c0 = From565(0x1883);
  const Image stored = metroid_model::DecodeTxtrImage(bytes, "holorim_ai.txtr", false);
  EXPECT_EQ(At(stored, 0, 0), (Rgba{(3 * c0[0]) >> 3, (3 * c0[1]) >> 3, (3 * c0[2]) >> 3, 255}));
  const Value info = kMetroidTxtrFormat.read(bytes, {})->Info();
  ASSERT_EQ(info["mips"].size(), 3u);
  EXPECT_EQ(info["mips"][1]["offset"], 12 + 256 * 32 / 2);
  EXPECT_EQ(info["mips"][2]["width"], 64);
  EXPECT_EQ(info["trailing_bytes"], 5408 - (12 + 4096 + 1024 + 256));
}

TEST(MetroidTxtrReal, Rgba8AndRgb5a3AndI4FirstTexels) {
  REAL_OR_SKIP(rgba8, "textures/morph_ball_bombs_metal_trim.TXTR");
  REAL_OR_SKIP(rgb5a3, "textures/charge_beam_glow_border.TXTR");
  REAL_OR_SKIP(i4, "textures/map_pickupdot.txtr");
  const Image a = metroid_model::DecodeTxtrImage(rgba8, "a", false);
  EXPECT_EQ(At(a, 1, 0), (Rgba{rgba8[0x0C + 3], rgba8[0x0C + 32 + 2], rgba8[0x0C + 32 + 3], rgba8[0x0C + 2]}));
  const Image b = metroid_model::DecodeTxtrImage(rgb5a3, "b", false);
  const int v = Be16(rgb5a3, 0x0C);  // 0x8822: opaque RGB555
  ASSERT_TRUE(v & 0x8000);
  EXPECT_EQ(At(b, 0, 0), (Rgba{W5((v >> 10) & 31), W5((v >> 5) & 31), W5(v & 31), 255}));
  const TxtrFile f = ParseTxtr(i4);
  EXPECT_EQ(f.header.mip_count, 4u);
  const Image level3 = DecodeLevel(f, 3);  // 8x8: one tile of 32 bytes at 12 + 2048 + 512 + 128
  const size_t at = 12 + 2048 + 512 + 128;
  for (uint32_t x = 0; x < 8; ++x) {
    const int n = (i4[at + 4 * 3 + x / 2] >> (x % 2 ? 0 : 4)) & 15;  // row 3
    EXPECT_EQ(At(level3, x, 3), (Rgba{n * 17, n * 17, n * 17, n * 17}));
  }
}

TEST(MetroidTxtrReal, EveryTruncationOfASmallFileFails) {
  REAL_OR_SKIP(bytes, "textures/map_pickupdot.txtr");
  // Its levels end at 12 + 2720; the zeros after them pad it to 2752 and may go.
  test::ExpectEveryTruncationFails(kMetroidTxtrFormat, bytes, [](size_t n) { return n >= 12 + 2720; });
}

}  // namespace
}  // namespace animkit
