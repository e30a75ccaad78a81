// KH2 texture entries written back (docs/formats/kh2.md, "Writing textures"): golden bytes
// of small entries worked out from the layout (the raw GS form's header, transfer records,
// GS infos and CSM1 CLUTs; TIM2's picture header), not from the decoder; the swizzle
// against its inverse; and the real models' entries: unedited byte for byte, edited read
// back within quantisation error with every other byte kept.
#include <animkit/formats/kh2/archive.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include "formats/kh2/texture/kh2_texture_write.hpp"
#include "support/test_support.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <random>

namespace animkit {
namespace {

using namespace kh2;


Image Solid(uint32_t w, uint32_t h, std::array<uint8_t, 4> c, const std::string& name = "t") {
  Image img;
  img.name = name, img.width = w, img.height = h;
  for (size_t i = 0; i < size_t(w) * h; ++i) img.rgba.insert(img.rgba.end(), c.begin(), c.end());
  return img;
}
void SetPixel(Image& img, size_t x, size_t y, std::array<uint8_t, 4> c) {
  std::copy(c.begin(), c.end(), img.rgba.begin() + std::ptrdiff_t((y * img.width + x) * 4));
}

// The 0x90-byte DMA program of a PSMCT32 upload (facts 5a's table).
void PutTransfer(Bytes& b, uint32_t dbp, uint32_t dbw, uint32_t w, uint32_t h, uint32_t addr) {
  const uint32_t qwc = w * h * 4 / 16;
  for (uint32_t v : {0x10000006u, 0u, 0x13000000u, 0x50000006u, 4u, 0x10000000u, 0xEu, 0u}) le::Append32(b, v);
  le::Append64(b, uint64_t(dbp) << 32 | uint64_t(dbw) << 48), le::Append64(b, 0x50);
  le::Append64(b, 0), le::Append64(b, 0x51);
  le::Append64(b, uint64_t(w) | uint64_t(h) << 32), le::Append64(b, 0x52);
  le::Append64(b, 0), le::Append64(b, 0x53);
  for (uint32_t v : {qwc | 0x8000u, 0x08000000u, 0u, 0u, 0x30000000u | qwc, addr, 0u, 0x50000000u | qwc}) le::Append32(b, v);
  for (uint32_t v : {0x60000000u, 0u, 0x13000000u, 0u}) le::Append32(b, v);
}

// A 16x16 image of colour A with B at (8, 0), written without a template: the raw form of
// one 8-bit texture as the game's files lay it out.
TEST(Kh2TextureWrite, ANewRawEntryHasTheGameFilesLayout) {
  Image img = Solid(16, 16, {10, 20, 30, 255});
  SetPixel(img, 8, 0, {200, 100, 50, 0});
  const TextureWrite w = WriteTextureEntry({}, {img});
  EXPECT_EQ(w.added, 1u);
  Bytes want;
  // Header: magic, colour count (CLUT 0 = 16x16 at (0, 0) of a 64-wide upload: through
  // texel 15 * 64 + 15), 1 transfer, 1 GS info, offset data 0x24, transfers 0x30 (16-aligned),
  // GS infos 0x30 + 2 x 0x90, pictures 0x80-aligned after the GS info, palette after 256 bytes.
  for (uint32_t v : {0u, 976u, 1u, 1u, 0x24u, 0x30u, 0x150u, 0x200u, 0x300u}) le::Append32(want, v);
  want.push_back(0);
  want.resize(0x30, 0);
  PutTransfer(want, 0x3A00, 1, 64, 32, 0x300);  // the CLUT page at block 0x3A00
  PutTransfer(want, 0x3A20, 1, 8, 8, 0x200);    // 16x16 PSMT8 = 8x8 PSMCT32 at the next page
  for (uint32_t v : {0x10000008u, 0u, 0x13000000u, 0x50000008u, 0x8007u, 0x10000000u, 0xEu, 0u}) le::Append32(want, v);
  for (uint64_t reg : {0x3Full, 0x34ull, 0x36ull}) le::Append64(want, 0), le::Append64(want, reg);
  le::Append64(want, uint64_t(19) << 20 | uint64_t(0x3A00) << 37 | uint64_t(4) << 61), le::Append64(want, 0x16);  // TEX2: load the CLUT
  le::Append64(want, 0x20), le::Append64(want, 0x14);                                                          // TEX1
  le::Append64(want, 0x3A20 | 2ull << 14 | 19ull << 20 | 4ull << 26 | 4ull << 30 | 1ull << 34 | 0x3A00ull << 37), le::Append64(want, 0x06);
  le::Append64(want, 0xA | 15ull << 14 | 15ull << 34), le::Append64(want, 0x08);  // CLAMP: region clamp 0..15
  for (uint32_t v : {0x60000000u, 0u, 0x13000000u, 0u}) le::Append32(want, v);
  want.resize(0x200, 0);
  Bytes picture(256, 0);
  picture[2] = 1;  // PSMT8 (8, 0): word 0 of the block, byte 2
  want.insert(want.end(), picture.begin(), picture.end());
  Bytes palette(976 * 4, 0);
  const uint8_t a[4] = {10, 20, 30, 0x80}, b[4] = {200, 100, 50, 0};  // PS2 alpha: 0x80 opaque
  std::copy(a, a + 4, palette.begin()), std::copy(b, b + 4, palette.begin() + 4);  // entries 0, 1 at (0, 0), (1, 0)
  want.insert(want.end(), palette.begin(), palette.end());
  for (char c : std::string("_KN5")) want.push_back(uint8_t(c));
  ASSERT_EQ(w.entry.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(w.entry[i], want[i]) << "byte " << std::hex << i;
  const TextureSet back = DecodeTextures(w.entry);
  EXPECT_TRUE(back.warnings.empty()) << back.warnings.at(0);
  ASSERT_EQ(back.images.size(), 1u);
  EXPECT_EQ(back.images[0].rgba, img.rgba);
}

// A TIM2 of one 4x2 8-bit picture with a 256-colour CSM1 CLUT of 32 bits.
Bytes Tim2(const std::vector<uint8_t>& index, const std::vector<std::array<uint8_t, 4>>& colours) {
  Bytes t = {'T', 'I', 'M', '2', 4, 0, 1, 0};
  t.resize(0x10, 0);
  le::Append32(t, 0x30 + 16 + 1024), le::Append32(t, 1024), le::Append32(t, 16);
  t.insert(t.end(), {0x30, 0, 0, 1, 0, 1, 3, 5, 4, 0, 2, 0});
  t.resize(0x10 + 0x30, 0);
  Bytes pixels(index.begin(), index.end());
  pixels.resize(16, 0);
  t.insert(t.end(), pixels.begin(), pixels.end());
  Bytes clut(1024, 0);
  for (size_t i = 0; i < colours.size(); ++i) std::copy(colours[i].begin(), colours[i].end(), clut.begin() + std::ptrdiff_t(i * 4));
  t.insert(t.end(), clut.begin(), clut.end());
  return t;
}

// An added TIM2 picture of a 2x2 image of colour (7, 8, 9): 8-bit, 256 32-bit colours (4
// index bytes padded to 16), the colour at CLUT entry 0.
void AppendAddedPicture(Bytes& want) {
  le::Append32(want, 0x30 + 16 + 1024), le::Append32(want, 1024), le::Append32(want, 16);
  want.insert(want.end(), {0x30, 0, 0, 1, 0, 1, 3, 5, 2, 0, 2, 0});
  want.resize(want.size() + 0x18 + 16, 0);
  Bytes clut(1024, 0);
  clut[0] = 7, clut[1] = 8, clut[2] = 9, clut[3] = 0x80;
  want.insert(want.end(), clut.begin(), clut.end());
}

TEST(Kh2TextureWrite, ATim2PictureChangedInPlaceAndOneAdded) {
  const Bytes tim2 = Tim2({0, 1, 0, 1, 1, 0, 1, 0}, {{1, 2, 3, 0x80}, {4, 5, 6, 0x80}});
  const TextureSet old = DecodeTextures(tim2);
  ASSERT_EQ(old.images.size(), 1u);
  Image changed = old.images[0];
  SetPixel(changed, 3, 1, {9, 9, 9, 255});  // a third colour
  Image added = Solid(2, 2, {7, 8, 9, 255}, "new");
  const TextureWrite w = WriteTextureEntry(tim2, {changed, added});
  EXPECT_EQ(w.reencoded, 1u);
  EXPECT_EQ(w.added, 1u);
  // Picture 0: header and sizes as they were; indices in first-seen order; colour 2 in
  // CSM1 slot 2; the rest of the CLUT as it was.
  Bytes want = Tim2({0, 1, 0, 1, 1, 0, 1, 2}, {{1, 2, 3, 0x80}, {4, 5, 6, 0x80}, {9, 9, 9, 0x80}});
  want[6] = 2;  // two pictures
  AppendAddedPicture(want);
  EXPECT_EQ(w.entry, want);
  const TextureSet back = DecodeTextures(w.entry);
  EXPECT_TRUE(back.warnings.empty());
  ASSERT_EQ(back.images.size(), 2u);
  EXPECT_EQ(back.images[0].rgba, changed.rgba);
  EXPECT_EQ(back.images[1].rgba, added.rgba);
}

// A new TIM2 (no template): the 16-byte file header, then each picture as an added one:
// 8-bit, 256 32-bit colours in CSM1 order.
TEST(Kh2TextureWrite, ANewTim2HasAddedPictures) {
  const Image img = Solid(2, 2, {7, 8, 9, 255}, "new");
  const TextureWrite w = WriteNewTextureEntry({img}, TextureForm::Tim2);
  EXPECT_EQ(w.added, 1u);
  Bytes want = {'T', 'I', 'M', '2', 4, 0, 1, 0};
  want.resize(0x10, 0);
  AppendAddedPicture(want);
  EXPECT_EQ(w.entry, want);
  EXPECT_EQ(DecodeTextures(w.entry).images.at(0).rgba, img.rgba);
}

// A TIM2 picture of another size: its header's sizes follow, the rest of it as it was.
TEST(Kh2TextureWrite, ATim2PictureResized) {
  const Bytes tim2 = Tim2({0, 1, 0, 1, 1, 0, 1, 0}, {{1, 2, 3, 0x80}, {4, 5, 6, 0x80}});
  Image bigger = Solid(8, 4, {4, 5, 6, 255});
  SetPixel(bigger, 7, 3, {1, 2, 3, 255});
  const TextureWrite w = WriteTextureEntry(tim2, {bigger});
  EXPECT_EQ(w.reencoded, 1u);
  Bytes want(tim2.begin(), tim2.begin() + 0x10);
  le::Append32(want, 0x30 + 32 + 1024), le::Append32(want, 1024), le::Append32(want, 32);  // 32 index bytes
  want.insert(want.end(), {0x30, 0, 0, 1, 0, 1, 3, 5, 8, 0, 4, 0});
  want.resize(0x10 + 0x30, 0);
  Bytes pixels(32, 0);
  pixels[31] = 1;  // (7, 3): the second colour met
  want.insert(want.end(), pixels.begin(), pixels.end());
  Bytes clut(1024, 0);
  const uint8_t colours[8] = {4, 5, 6, 0x80, 1, 2, 3, 0x80};
  std::copy(colours, colours + 8, clut.begin());
  want.insert(want.end(), clut.begin(), clut.end());
  EXPECT_EQ(w.entry, want);
  const TextureSet back = DecodeTextures(w.entry);
  EXPECT_TRUE(back.warnings.empty());
  EXPECT_EQ(back.images.at(0).rgba, bigger.rgba);
}

// The swizzle from the PSMT8 layout: (0, 0) is byte 0 of upload texel 0, (8, 0) byte 2,
// (0, 2) byte 1 of upload texel (4, 0) (an even column's third row); PSMT4 likewise by nibbles.
TEST(Kh2TextureWrite, TheSwizzleIsTheGsLayoutAndItsInverse) {
  std::vector<uint8_t> index(256, 0);
  index[0] = 1, index[8] = 2, index[2 * 16] = 3;
  const Bytes up = detail::SwizzleIndexed(index, 16, 16, detail::kT8);
  ASSERT_EQ(up.size(), 256u);
  EXPECT_EQ(up[0], 1);
  EXPECT_EQ(up[2], 2);
  EXPECT_EQ(up[4 * 4 + 1], 3);
  std::mt19937 rng(7);
  for (auto [w, h, psm] : {std::tuple{16u, 16u, detail::kT8}, {128u, 64u, detail::kT8}, {256u, 256u, detail::kT8}, {64u, 128u, detail::kT8},
                           {128u, 128u, detail::kT4}, {256u, 128u, detail::kT4}}) {
    const detail::IndexedLayout l = detail::LayoutOf(w, h, psm);
    Bytes x(l.rect_w * l.rect_h * 4);
    for (uint8_t& v : x) v = uint8_t(rng());
    const std::vector<uint8_t> unswizzled = detail::UnswizzleIndexed(x, w, h, psm);
    EXPECT_EQ(detail::SwizzleIndexed(unswizzled, w, h, psm), x) << w << "x" << h << " psm " << psm;
  }
  for (auto [w, h, psm] : {std::tuple{8u, 4u, detail::kT8}, {32u, 16u, detail::kT4}, {4u, 512u, detail::kT4}}) {  // padded pictures
    std::vector<uint8_t> idx(size_t(w) * h);
    for (uint8_t& v : idx) v = uint8_t(rng() & (psm == detail::kT4 ? 15 : 255));
    EXPECT_EQ(detail::UnswizzleIndexed(detail::SwizzleIndexed(idx, w, h, psm), w, h, psm), idx) << w << "x" << h;
  }
}

TEST(Kh2TextureWrite, SizesTheGameCannotHoldAreRefused) {
  EXPECT_NE(test::ErrorOf([] { WriteTextureEntry({}, {Solid(100, 64, {1, 2, 3, 255}, "face")}); }).find("'face' is 100x64: KH2 textures are powers of two up to 512"),
            std::string::npos);
  for (TextureForm form : {TextureForm::Raw, TextureForm::Tim2}) {  // one limit for both forms
    const std::string big = test::ErrorOf([&] { WriteNewTextureEntry({Solid(1024, 64, {1, 2, 3, 255}, "big")}, form); });
    EXPECT_NE(big.find("'big' is 1024x64: KH2 textures are powers of two up to 512 a side"), std::string::npos) << big;
  }
  const std::vector<Image> many(256, Solid(4, 4, {1, 2, 3, 255}));
  EXPECT_NE(test::ErrorOf([&] { WriteTextureEntry({}, many); }).find("256 textures; a model holds at most 255"), std::string::npos);
  const std::string gs = test::ErrorOf([] { WriteTextureEntry({}, {Solid(512, 512, {1, 2, 3, 255}, "a"), Solid(512, 256, {1, 2, 3, 255}, "b")}); });
  EXPECT_NE(gs.find("texture 'b' does not fit the GS memory"), std::string::npos) << gs;
}

// A damaged template (cut short, a field overwritten) is an animkit::Error or a written
// entry the reader takes, never a read outside it (the sanitizer build checks).
TEST(Kh2TextureWrite, ADamagedTemplateIsAnErrorNotACrash) {
  Image img = Solid(32, 16, {10, 20, 30, 255});
  const Bytes raw = WriteTextureEntry({}, {img}).entry;
  const Bytes tim2 = Tim2({0, 1, 0, 1, 1, 0, 1, 0}, {{1, 2, 3, 0x80}, {4, 5, 6, 0x80}});
  SetPixel(img, 1, 1, {1, 1, 1, 255});
  Image small = Solid(4, 2, {9, 9, 9, 255});
  size_t errors = 0;
  for (const Bytes* base : {&raw, &tim2}) {
    const Image& changed = base == &raw ? img : small;
    for (size_t cut = 4; cut < base->size(); cut += 7) {
      Bytes damaged(base->begin(), base->begin() + std::ptrdiff_t(cut));
      if (!test::ErrorOf([&] { WriteTextureEntry(damaged, {changed}); }).empty()) ++errors;
    }
    for (size_t at = 4; at + 4 <= std::min<size_t>(base->size(), 0x300); at += 4) {
      Bytes damaged = *base;
      damaged[at + 1] ^= 0x5A, damaged[at + 3] ^= 0x81;
      if (test::ErrorOf([&] { WriteTextureEntry(damaged, {changed}); }).empty()) continue;
      ++errors;
    }
  }
  EXPECT_GT(errors, 0u);
}

// The texture entries of the real models (skipped when ../shared is absent).
struct RealEntry {
  std::string file;
  Bytes entry;
  TextureSet set;  // decoded
};
std::vector<RealEntry> RealEntries() {
  const std::filesystem::path shared = std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared";
  std::vector<RealEntry> out;
  for (const char* folder : {"fixtures/kh2", "real/kh2"}) {
    if (!std::filesystem::is_directory(shared / folder)) continue;
    std::vector<std::filesystem::path> files;
    for (const auto& f : std::filesystem::directory_iterator(shared / folder))
      if (f.path().extension() == ".mdlx") files.push_back(f.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
      for (const BarEntry& e : ParseBar(ReadFileBytes(f.string())).entries)
        if (e.type == kEntryTexture) out.push_back({f.filename().string(), e.raw, DecodeTextures(e.raw)});
  }
  return out;
}
std::vector<Image> AllImages(const TextureSet& set) {
  std::vector<Image> all = set.images;
  all.insert(all.end(), set.other_sets.begin(), set.other_sets.end());
  return all;
}

TEST(Kh2TextureWrite, UneditedRealEntriesAreByteIdenticalAndTheLayoutRebuildsAsTheGameHasIt) {
  const std::vector<RealEntry> real = RealEntries();
  if (real.empty()) GTEST_SKIP() << "no MDLX under ../shared";
  for (const RealEntry& r : real) {
    const TextureWrite w = WriteTextureEntry(r.entry, AllImages(r.set));
    EXPECT_EQ(w.entry, r.entry) << r.file;
    EXPECT_EQ(w.kept, r.set.images.size() + r.set.other_sets.size()) << r.file;
    EXPECT_TRUE(w.warnings.empty()) << r.file << ": " << w.warnings.at(0);
    // Every texture kept but the layout laid out anew: the game files' own bytes (each
    // set of a set list on its own).
    std::vector<Bytes> forms = {r.entry};
    if (r.set.container == "KH2 texture sets") {
      forms.clear();
      auto u32 = [&](size_t at) { return size_t(r.entry[at] | r.entry[at + 1] << 8 | r.entry[at + 2] << 16 | r.entry[at + 3] << 24); };
      for (size_t k = 0; k < u32(4); ++k) {
        const size_t end = k + 1 < u32(4) ? u32(12 + 4 * k) : r.entry.size();
        forms.emplace_back(r.entry.begin() + std::ptrdiff_t(u32(8 + 4 * k)), r.entry.begin() + std::ptrdiff_t(end));
      }
    }
    for (const Bytes& form : forms) {
      const TextureSet own = DecodeTextures(form);
      std::vector<const Image*> images;
      for (const Image& img : own.images) images.push_back(&img);
      const detail::FormWrite rebuilt = detail::WriteRawForm(form, own.images, images, true);
      EXPECT_EQ(rebuilt.bytes, form) << r.file;
    }
  }
}

struct Error2 {
  double max = 0, mean = 0;
};
// Per channel, of 255: the colour of texels b shows (alpha > 0) and every alpha.
Error2 Compare(const Image& a, const Image& b) {
  Error2 e;
  size_t n = 0;
  for (size_t i = 0; i < a.rgba.size(); ++i) {
    if (i % 4 != 3 && b.rgba[i - i % 4 + 3] == 0) continue;  // the colour of a transparent texel is not seen
    const double d = std::abs(double(a.rgba[i]) - double(b.rgba[i]));
    e.max = std::max(e.max, d), e.mean += d, ++n;
  }
  e.mean /= double(std::max<size_t>(n, 1));
  return e;
}
// A picture of many colours: the template's with its left half tinted by a gradient (a
// modder's recolour: more colours than the palette holds).
Image Edited(const Image& img) {
  Image e = img;
  for (size_t y = 0; y < e.height; ++y)
    for (size_t x = 0; x < e.width / 2; ++x)
      for (size_t k = 0; k < 3; ++k) {
        uint8_t& v = e.rgba[(y * e.width + x) * 4 + k];
        v = uint8_t(std::min<size_t>(255, v + (x * (k + 1)) / 4 + y / 8));
      }
  return e;
}

TEST(Kh2TextureWrite, AChangedTextureChangesOnlyItsPictureAndPaletteBytes) {
  const std::vector<RealEntry> real = RealEntries();
  if (real.empty()) GTEST_SKIP() << "no MDLX under ../shared";
  for (const RealEntry& r : real) {
    std::vector<Image> images = AllImages(r.set);
    const size_t which = images.size() - 1;  // the last texture (of the last set of a set list)
    images[which] = Edited(images[which]);
    const TextureWrite w = WriteTextureEntry(r.entry, images);
    EXPECT_EQ(w.reencoded, 1u);
    ASSERT_EQ(w.entry.size(), r.entry.size()) << r.file;
    // The bytes that differ lie in the picture area and the palette of its form.
    size_t first = w.entry.size(), last = 0, differ = 0;
    for (size_t i = 0; i < w.entry.size(); ++i)
      if (w.entry[i] != r.entry[i]) first = std::min(first, i), last = i, ++differ;
    const size_t form = r.set.container == "KH2 texture sets" ? size_t(r.entry[8 + 4 * (r.entry[4] - 1)] | r.entry[9 + 4 * (r.entry[4] - 1)] << 8 |
                                                                     r.entry[10 + 4 * (r.entry[4] - 1)] << 16)
                                                            : 0;
    auto word = [&](size_t at) { return size_t(r.entry[form + at] | r.entry[form + at + 1] << 8 | r.entry[form + at + 2] << 16); };
    EXPECT_GE(first, form + word(0x1C)) << r.file << ": a byte before the pictures changed";
    EXPECT_LT(last, form + word(0x20) + word(4) * 4) << r.file << ": a byte past the palette changed";
    const TextureSet back = DecodeTextures(w.entry);
    EXPECT_TRUE(back.warnings.empty()) << r.file << ": " << back.warnings.at(0);
    const std::vector<Image> read = AllImages(back);
    ASSERT_EQ(read.size(), images.size());
    for (size_t i = 0; i < read.size(); ++i)
      if (i != which) {
        EXPECT_EQ(read[i].rgba, images[i].rgba) << r.file << " " << i;
      }
    const Error2 e = Compare(read[which], images[which]);
    std::cout << r.file << " texture " << which << " (" << images[which].width << "x" << images[which].height << "): " << differ
              << " bytes differ; quantisation error max " << e.max << ", mean " << e.mean << " (of 255)\n";
    EXPECT_LT(e.mean, 2.0) << r.file;
  }
}

TEST(Kh2TextureWrite, AnAddedAndAResizedTextureRebuildTheLayout) {
  const std::vector<RealEntry> real = RealEntries();
  if (real.empty()) GTEST_SKIP() << "no MDLX under ../shared";
  for (const RealEntry& r : real) {
    std::vector<Image> images = AllImages(r.set);
    Image added = Solid(64, 32, {40, 80, 120, 255}, "added");
    SetPixel(added, 5, 7, {1, 2, 3, 64});
    images.push_back(added);
    Image resized = Solid(32, 128, {200, 10, 10, 255}, "resized");
    SetPixel(resized, 31, 127, {0, 0, 0, 0});
    images[0] = resized;
    const TextureWrite w = WriteTextureEntry(r.entry, images);
    EXPECT_EQ(w.added, 1u);
    EXPECT_EQ(w.reencoded, 1u);
    const TextureSet back = DecodeTextures(w.entry);
    EXPECT_TRUE(back.warnings.empty()) << r.file << ": " << back.warnings.at(0);
    ASSERT_EQ(back.images.size(), r.set.images.size() + 1) << r.file;
    EXPECT_EQ(w.index.back(), int(r.set.images.size())) << r.file;
    EXPECT_EQ(back.images.back().rgba, added.rgba) << r.file;  // few colours: exact
    EXPECT_EQ(back.images[0].rgba, resized.rgba) << r.file;
    for (size_t i = 1; i < r.set.images.size(); ++i) EXPECT_EQ(back.images[i].rgba, r.set.images[i].rgba) << r.file << " " << i;
    ASSERT_EQ(back.other_sets.size(), r.set.other_sets.size());
    for (size_t i = 0; i < r.set.other_sets.size(); ++i) EXPECT_EQ(back.other_sets[i].rgba, r.set.other_sets[i].rgba) << r.file << " " << i;
  }
}

// The cost: every texture of Sora's model changed (many colours) and re-encoded.
TEST(Kh2TextureWrite, SorasTexturesReencoded) {
  const Bytes mdlx = test::FixtureBytes("kh2/P_EX100.mdlx");
  if (mdlx.empty()) GTEST_SKIP() << "no ../shared/fixtures/kh2/P_EX100.mdlx";
  Bytes entry;
  for (const BarEntry& e : ParseBar(mdlx).entries)
    if (e.type == kEntryTexture) entry = e.raw;
  const TextureSet set = DecodeTextures(entry);
  std::vector<Image> images;
  for (const Image& img : set.images) images.push_back(Edited(img));
  const auto start = std::chrono::steady_clock::now();
  const TextureWrite w = WriteTextureEntry(entry, images);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(w.reencoded, images.size());
  std::cout << "P_EX100.mdlx: " << images.size() << " textures re-encoded in " << ms << " ms\n";
  const TextureSet back = DecodeTextures(w.entry);
  EXPECT_TRUE(back.warnings.empty());
  for (size_t i = 0; i < images.size(); ++i) {
    const Error2 e = Compare(back.images.at(i), images[i]);
    std::cout << "  texture " << i << " " << images[i].width << "x" << images[i].height << ": error max " << e.max << ", mean " << e.mean << "\n";
  }
}

}  // namespace
}  // namespace animkit
