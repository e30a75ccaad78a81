// TXTR encoding: a picture decoded from a format comes back exact through the encoder
// (the lossless formats, palettes of few colours), bounded for CMPR and large palettes;
// box-filtered mips; the template's format, mips and padding.
#include <animkit/formats/metroid_txtr.hpp>

#include "support/test_support.hpp"

#include <random>

namespace animkit {
extern const FormatDescriptor kMetroidTxtrFormat;
namespace {

using namespace metroid_txtr;

// A file of format with random level bytes (and a random palette of palette_format).
TxtrFile RandomFile(uint32_t format, uint16_t w, uint16_t h, uint32_t palette_format, uint32_t seed) {
  std::mt19937 rng(seed);
  TxtrFile f;
  f.header = {format, w, h, 1};
  if (Traits(format).paletted) {
    f.palette_header = {palette_format, uint16_t(std::min<uint32_t>(Traits(format).palette_entries, 256)), 0};
    f.palette_header.height = uint16_t(Traits(format).palette_entries / f.palette_header.width);
    f.palette.resize(Traits(format).palette_entries);
    for (uint16_t& e : f.palette) e = uint16_t(rng());
  }
  f.data.resize(LevelBytes(format, w, h));
  for (uint8_t& b : f.data) b = uint8_t(rng());
  return f;
}

struct Difference {
  int max = 0;
  double mean = 0;
};
Difference Compare(const Image& a, const Image& b) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  Difference d;
  if (a.rgba.size() != b.rgba.size()) return {255, 255};
  for (size_t i = 0; i < a.rgba.size(); ++i) {
    const int e = std::abs(int(a.rgba[i]) - int(b.rgba[i]));
    d.max = std::max(d.max, e);
    d.mean += e;
  }
  d.mean /= double(a.rgba.size());
  return d;
}

Image RoundTrip(const Image& img, uint32_t format, uint32_t palette_format = 1, uint32_t mips = 1) {
  EncodeSettings s;
  s.format = format, s.mip_count = mips, s.palette.format = palette_format;
  const TxtrFile f = EncodeTxtr(img, s);
  const TxtrFile again = ParseTxtr(SerializeTxtr(f));  // what is written reads back
  return DecodeLevel(again, 0);
}

TEST(MetroidTxtrEncode, LosslessFormatsComeBackExact) {
  for (uint32_t format : {0u, 1u, 2u, 3u, 7u, 8u, 9u}) {
    for (auto [w, h] : {std::pair<uint16_t, uint16_t>{64, 64}, {8, 8}, {24, 16}}) {
      const Image decoded = DecodeLevel(RandomFile(format, w, h, 0, format * 7 + w), 0);
      const Difference d = Compare(decoded, RoundTrip(decoded, format));
      EXPECT_EQ(d.max, 0) << Traits(format).name << " " << w << "x" << h;
    }
  }
}

TEST(MetroidTxtrEncode, PalettesOfFewColoursComeBackExact) {
  for (uint32_t format : {4u, 5u})
    for (uint32_t palette_format : {0u, 1u, 2u}) {
      const Image decoded = DecodeLevel(RandomFile(format, 32, 32, palette_format, format + 10 * palette_format), 0);
      EXPECT_EQ(Compare(decoded, RoundTrip(decoded, format, palette_format)).max, 0)
          << Traits(format).name << " " << PaletteFormatName(palette_format);
    }
}

Image Gradient(uint32_t w, uint32_t h) {
  Image img;
  img.width = w, img.height = h;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      img.rgba.insert(img.rgba.end(), {uint8_t(x * 255 / (w - 1)), uint8_t(y * 255 / (h - 1)), uint8_t((x + y) * 2), 255});
  return img;
}

TEST(MetroidTxtrEncode, LossyFormatsStayWithinBounds) {
  const Image g = Gradient(64, 64);
  const Difference cmpr = Compare(g, RoundTrip(g, 10));
  EXPECT_LE(cmpr.max, 24);
  EXPECT_LE(cmpr.mean, 4.0);
  const Difference c8 = Compare(g, RoundTrip(g, 5, 1));  // 4096 colours into 256 RGB565 entries
  EXPECT_LE(c8.max, 32);
  EXPECT_LE(c8.mean, 4.0);
  const Difference c4 = Compare(g, RoundTrip(g, 4, 2));
  EXPECT_LE(c4.mean, 16.0);
  const Difference rgb565 = Compare(g, RoundTrip(g, 7));
  EXPECT_LE(rgb565.max, 4);  // half a 5-bit step, rounded
  // CMPR's own pictures come back close (libsquish aims at 1/3 blends, GX shows 3/8).
  const Image cmpr_picture = DecodeLevel(RandomFile(10, 32, 32, 0, 5), 0);
  EXPECT_LE(Compare(cmpr_picture, RoundTrip(cmpr_picture, 10)).mean, 12.0);
}

TEST(MetroidTxtrEncode, CmprTransparentTexelsStayTransparent) {
  Image img = Gradient(8, 8);
  for (size_t i = 3; i < img.rgba.size(); i += 8) img.rgba[i] = 0;
  const Image back = RoundTrip(img, 10);
  for (size_t i = 3; i < img.rgba.size(); i += 4) EXPECT_EQ(back.rgba[i], img.rgba[i]) << i;
}

TEST(MetroidTxtrEncode, MipsAreBoxFiltered) {
  const Image g = Gradient(16, 8);
  EncodeSettings s;
  s.format = uint32_t(TexelFormat::RGBA8), s.mip_count = 5;
  const TxtrFile f = ParseTxtr(SerializeTxtr(EncodeTxtr(g, s)));
  ASSERT_EQ(f.header.mip_count, 5u);
  EXPECT_EQ(f.data.size(), size_t(16 * 8 + 8 * 4 + 4 * 4 + 4 * 4 + 4 * 4) * 4);
  const Image l1 = DecodeLevel(f, 1);
  ASSERT_EQ(l1.width, 8u);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 8; ++x)
      for (int c = 0; c < 4; ++c) {
        int sum = 0;
        for (uint32_t dy = 0; dy < 2; ++dy)
          for (uint32_t dx = 0; dx < 2; ++dx) sum += g.rgba[((2 * y + dy) * 16 + 2 * x + dx) * 4 + size_t(c)];
        EXPECT_EQ(l1.rgba[(y * 8 + x) * 4 + size_t(c)], (sum + 2) / 4);
      }
  const Image l4 = DecodeLevel(f, 4);
  EXPECT_EQ(l4.width, 1u);
  EXPECT_EQ(l4.height, 1u);
  s.mip_count = 6;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { (void)EncodeTxtr(g, s); }), "cannot have 6 mip levels"));
}

TEST(MetroidTxtrEncode, OddSidesAndPadding) {
  const Image img = DecodeLevel(RandomFile(7, 6, 5, 0, 3), 0);
  EncodeSettings s;
  s.format = 7, s.pad_to = 32;
  const TxtrFile f = EncodeTxtr(img, s);
  EXPECT_EQ((DataOffset(f) + f.data.size()) % 32, 0u);
  EXPECT_EQ(Compare(img, DecodeLevel(ParseTxtr(SerializeTxtr(f)), 0)).max, 0);
  Image empty;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { (void)EncodeTxtr(empty, s); }), "no pixels"));
}

TEST(MetroidTxtrEncode, OverATemplateKeepsItsFormatMipsAndPadding) {
  // An RGB565 template of one level padded to 32: its own picture written over it gives its bytes.
  TxtrFile t = RandomFile(7, 16, 8, 0, 9);
  t.data.resize(t.data.size() + 20, 0);  // 12 + 256 + 20 = 288
  const Bytes template_bytes = SerializeTxtr(t);
  ASSERT_EQ(template_bytes.size() % 32, 0u);
  auto templ_doc = kMetroidTxtrFormat.read(template_bytes, {});
  const Scene picture = templ_doc->Decode({});  // the game's rows
  EncodeTemplate templ{"t.TXTR", template_bytes, templ_doc.get()};
  EncodeContext context;
  context.templ = &templ;
  Scene input;  // as a PNG gives it: no TXTR metadata
  input.textures = picture.textures;
  EXPECT_EQ(kMetroidTxtrFormat.encode(input, context)->Write(), template_bytes);
  EXPECT_EQ(context.report["rows_flipped"], true);
  // CMPR with 3 levels: the output has them too.
  TxtrFile c = RandomFile(10, 32, 32, 0, 4);
  c.header.mip_count = 3;
  c.data.resize(LevelBytes(10, 32, 32) + LevelBytes(10, 16, 16) + LevelBytes(10, 8, 8));
  const Bytes cmpr_bytes = SerializeTxtr(c);
  auto cmpr_doc = kMetroidTxtrFormat.read(cmpr_bytes, {});
  EncodeTemplate cmpr_templ{"c.TXTR", cmpr_bytes, cmpr_doc.get()};
  EncodeContext c_context;
  c_context.templ = &cmpr_templ;
  const Bytes out = kMetroidTxtrFormat.encode(input, c_context)->Write();
  const TxtrFile written = ParseTxtr(out);
  EXPECT_EQ(written.header.format, 10u);
  EXPECT_EQ(written.header.width, 16u);
  EXPECT_EQ(written.header.mip_count, 3u);
  EXPECT_EQ(out.size(), 12u + LevelBytes(10, 16, 8) + LevelBytes(10, 8, 4) + LevelBytes(10, 4, 2));
  // Without a template: RGBA8, one level, exact.
  EncodeContext plain;
  const TxtrFile rgba8 = ParseTxtr(kMetroidTxtrFormat.encode(input, plain)->Write());
  EXPECT_EQ(rgba8.header.format, 9u);
  EncodeContext asked;  // --txtr-format wins over the template's
  asked.templ = &templ;
  asked.options.Set("txtr-format", "CMPR");
  EXPECT_EQ(ParseTxtr(kMetroidTxtrFormat.encode(input, asked)->Write()).header.format, 10u);
  Scene none;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { (void)kMetroidTxtrFormat.encode(none, plain); }), "no texture"));
}

}  // namespace
}  // namespace animkit
