// The PNG image format: pixels in and out, damaged files, and the TXTR round trip through
// the CLI (convert X.TXTR x.png; convert x.png Y.TXTR --template X.TXTR).
#include "support/shared_files.hpp"
#include "support/test_support.hpp"

namespace animkit {
extern const FormatDescriptor kPngFormat;
namespace {

Image Checker() {
  Image img;
  img.name = "checker";
  img.width = 5, img.height = 3;
  for (uint32_t i = 0; i < 15; ++i) img.rgba.insert(img.rgba.end(), {uint8_t(i * 17), uint8_t(255 - i), uint8_t(i % 2 * 255), uint8_t(100 + i)});
  return img;
}

Bytes PngOf(const Image& img) {
  Scene scene;
  scene.textures.push_back(img);
  EncodeContext context;
  return kPngFormat.encode(scene, context)->Write();
}

TEST(PngImage, PixelsComeBackAndTheFileWritesBack) {
  const Image img = Checker();
  const Bytes png = PngOf(img);
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(png[1], 'P');
  EXPECT_EQ(kPngFormat.probe(png, ""), kProbeMagic);
  auto doc = kPngFormat.read(png, {});
  const Scene scene = doc->Decode({});
  ASSERT_EQ(scene.textures.size(), 1u);
  EXPECT_EQ(scene.textures[0].width, 5u);
  EXPECT_EQ(scene.textures[0].height, 3u);
  EXPECT_EQ(scene.textures[0].rgba, img.rgba);
  EXPECT_EQ(doc->Info()["width"], 5);
  test::ExpectByteExactRoundTrip(kPngFormat, png);
}

// An IDAT chunk of no bytes carries no pixels: one before the picture's own (which stb_image
// would copy from a null pointer) and one after both leave the picture as it was.
TEST(PngImage, EmptyImageDataChunksAreNoPixels) {
  const Image img = Checker();
  const Bytes png = PngOf(img);
  const Bytes empty_idat = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xAF, 0x06, 0x1E};  // CRC-32 of "IDAT"
  const size_t after_ihdr = 8 + 12 + 13;
  Bytes with_empty(png.begin(), png.begin() + after_ihdr);
  with_empty.insert(with_empty.end(), empty_idat.begin(), empty_idat.end());
  with_empty.insert(with_empty.end(), png.begin() + after_ihdr, png.end() - 12);
  with_empty.insert(with_empty.end(), empty_idat.begin(), empty_idat.end());
  with_empty.insert(with_empty.end(), png.end() - 12, png.end());
  const Scene scene = kPngFormat.read(with_empty, {})->Decode({});
  ASSERT_EQ(scene.textures.size(), 1u);
  EXPECT_EQ(scene.textures[0].rgba, img.rgba);
}

// A chunk that claims more bytes than the file holds is refused before anything is made for it.
TEST(PngImage, AChunkLongerThanTheFileIsAnErrorAtItsOffset) {
  Bytes png = PngOf(Checker());
  const size_t idat = 8 + 12 + 13;
  png[idat] = 0x4C, png[idat + 1] = 0x60, png[idat + 2] = 0x8E, png[idat + 3] = 0x0B;  // 1.28 GB
  try {
    (void)kPngFormat.read(png, {});
    FAIL() << "a chunk past the end read";
  } catch (const Error& e) {
    EXPECT_TRUE(test::Has(e.what(), "0x21")) << e.what();
    EXPECT_TRUE(test::Has(e.what(), "runs past the end of the file")) << e.what();
  }
}

TEST(PngImage, DamagedFilesAreErrors) {
  const Bytes png = PngOf(Checker());
  test::ExpectEveryTruncationFails(kPngFormat, png);
  Bytes bad = png;
  bad[0] = 0;
  EXPECT_TRUE(test::Has(test::ReadError(kPngFormat, bad), "PNG signature"));
  ReadContext small;
  Limits limits;
  limits.max_buffer_bytes = 59;  // the 5x3 picture's RGBA takes 60
  small.options.SetLimits(limits);
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { (void)kPngFormat.read(png, small); }), "max-buffer-bytes"));
  Scene none;
  EncodeContext context;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { (void)kPngFormat.encode(none, context); }), "no texture"));
}

TEST(PngImage, TxtrToPngAndBackOverItsTemplate) {
  const std::string txtr = test::SharedPath("real/metroid/textures/charge_beam_glow_border.TXTR");
  if (txtr.empty()) GTEST_SKIP() << "../shared/real/metroid/textures is absent";
  const auto dir = test::TempDir("png_txtr_round_trip");
  const std::string png = (dir / "border.png").string(), back = (dir / "border.TXTR").string();
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert '" + txtr + "' '" + png + "'", &out, &err), 0) << err;
  const Bytes png_bytes = ReadFileBytes(png);
  const Scene picture = kPngFormat.read(png_bytes, {})->Decode({});
  EXPECT_EQ(picture.textures[0].width, 256u);
  EXPECT_EQ(picture.textures[0].height, 64u);
  // RGB5A3, one level: the unedited picture writes the template's bytes again.
  ASSERT_EQ(test::RunCli("convert '" + png + "' '" + back + "' --template '" + txtr + "'", &out, &err), 0) << err;
  EXPECT_EQ(ReadFileBytes(back), ReadFileBytes(txtr));
  // Stored rows: the same picture upside down; --txtr-format picks another format.
  const std::string stored = (dir / "stored.png").string(), cmpr = (dir / "border_cmpr.TXTR").string();
  ASSERT_EQ(test::RunCli("convert '" + txtr + "' '" + stored + "' --txtr-rows stored", &out, &err), 0) << err;
  const Image flipped = kPngFormat.read(ReadFileBytes(stored), {})->Decode({}).textures[0];
  const size_t row = 256 * 4;
  for (size_t y = 0; y < 64; ++y)
    ASSERT_TRUE(std::equal(flipped.rgba.begin() + std::ptrdiff_t(y * row), flipped.rgba.begin() + std::ptrdiff_t((y + 1) * row),
                           picture.textures[0].rgba.begin() + std::ptrdiff_t((63 - y) * row))) << y;
  ASSERT_EQ(test::RunCli("convert '" + png + "' '" + cmpr + "' --template '" + txtr + "' --txtr-format CMPR", &out, &err), 0)
      << err;
  const Bytes cmpr_bytes = ReadFileBytes(cmpr);
  EXPECT_EQ(cmpr_bytes[3], 10);                    // the format word
  EXPECT_EQ(cmpr_bytes.size(), 12u + 256 * 64 / 2);  // one level of 4 bits a texel
  ASSERT_EQ(test::RunCli("info '" + txtr + "'", &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, "RGB5A3") || test::Has(out, "format"));
  EXPECT_EQ(test::RunCli("validate '" + txtr + "'", &out, &err), 0) << err;
}

}  // namespace
}  // namespace animkit
