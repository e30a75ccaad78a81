// KH2 MDLX texture entries in the raw GS form and lists of texture sets: entries built by
// hand from the layout (docs/formats/kh2.md, "Textures"), expected texels worked out from
// the GS memory layout (GS User's Manual: PSMCT32/PSMT8/PSMT4 pages, blocks and columns;
// CLUTs in CSM1 order), not from the decoder.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include "formats/kh2/kh2_raw_texture_entry.hpp"
#include "support/test_support.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>

namespace animkit {
namespace {

using namespace kh2;
using namespace kh2_texture_test;


const Upload kClut{100, 1, 0, 16, 16, 64, 256};  // its data after a 256-byte picture

// A 16x16 PSMT8 picture uploaded as 8x8 PSMCT32 texels at block 0 (upload byte k = k).
Bytes EightBit() {
  Bytes data;
  for (int k = 0; k < 256; ++k) data.push_back(uint8_t(k));
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  return RawEntry({kClut, {0, 1, 0, 8, 8, 16, 0}}, {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0}}, data, 256, 256);
}

TEST(Kh2RawTexture, EightBitTexelsFollowThePsmt8Layout) {
  const TextureSet set = DecodeTextures(EightBit());
  EXPECT_EQ(set.container, "KH2 raw texture");
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  ASSERT_EQ(set.images.size(), 1u);
  const Image& img = set.images[0];
  ASSERT_FALSE(img.Missing()) << img.missing;
  ASSERT_EQ(img.width, 16u);
  EXPECT_EQ(img.source_format, "KH2 raw texture, 8-bit indexed");
  // (0, 0): word 0 byte 0 = index 0. (8, 0): word 0 byte 2 = index 2. (0, 2): an even column's
  // third row takes word 8 (the upload's texel (4, 0)) byte 1 = index 17, whose CSM1 place is (9, 0).
  EXPECT_EQ(At(img, 0, 0), (Texel{0, 255, 7, 255}));
  EXPECT_EQ(At(img, 8, 0), (Texel{2, 253, 7, 255}));
  EXPECT_EQ(At(img, 0, 2), (Texel{9, 246, 7, 255}));
}

// A 32x16 PSMT4 picture (one PSMT4 block) uploaded as 8x8 PSMCT32 texels, upload byte k =
// (7k + 3) & 255; TEX2 loads the 256-entry CLUT, TEX0 picks entries 16..31 by CSA 1.
TEST(Kh2RawTexture, FourBitTexelsFollowThePsmt4LayoutAndTheirCsa) {
  Bytes data;
  for (int k = 0; k < 256; ++k) data.push_back(uint8_t((7 * k + 3) & 255));
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  const Bytes entry = RawEntry({kClut, {0, 1, 0, 8, 8, 16, 0}}, {{Tex0(0, 2, 20, 5, 4, 100, 1), ClutLoad(19, 100), 0}}, data, 256, 256);
  const TextureSet set = DecodeTextures(entry);
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  const Image& img = set.images.at(0);
  ASSERT_FALSE(img.Missing()) << img.missing;
  ASSERT_EQ(img.width, 32u);
  ASSERT_EQ(img.height, 16u);
  // (x, y): PSMT4 word / nibble -> PSMCT32 texel -> upload byte -> index; entry 16 + index
  // sits in CSM1 at (8 + i, 0) for i < 8 and at (i, 1) for i >= 8 (upload position 24 + i % 8).
  EXPECT_EQ(At(img, 0, 0), (Texel{11, 244, 7, 255}));   // word 0 nibble 0: byte 0 low = 3
  EXPECT_EQ(At(img, 8, 0), (Texel{26, 229, 7, 255}));   // word 0 nibble 2: byte 1 low = 10
  EXPECT_EQ(At(img, 0, 2), (Texel{15, 240, 7, 255}));   // word 8 (texel (4, 0)) nibble 1: byte 16 high = 7
  EXPECT_EQ(At(img, 31, 15), (Texel{31, 224, 7, 255}));  // word 63 (texel (7, 7)) nibble 7: byte 255 high = 15
}

// Direct colour: a PSMCT32 and a PSMCT16 picture read back where their uploads put them.
TEST(Kh2RawTexture, DirectColourTexelsAreTheUploadsTexels) {
  Bytes data;
  for (int p = 0; p < 64; ++p) data.insert(data.end(), {uint8_t(p), uint8_t(2 * p), uint8_t(3 * p), uint8_t(p % 2 ? 0x80 : 0x40)});
  for (int p = 0; p < 128; ++p) {
    const uint16_t c = uint16_t(p | (p % 2) << 15);
    data.insert(data.end(), {uint8_t(c), uint8_t(c >> 8)});
  }
  const Bytes entry = RawEntry({{0x40, 1, 0, 0, 0, 0, 0}, {0, 1, 0, 8, 8, 16, 0}, {8, 1, 2, 16, 8, 16, 256}},
                               {{Tex0(0, 1, 0, 3, 3, 0), 0, 0}, {Tex0(8, 1, 2, 4, 3, 0), 0, 1}}, data, 0, 512);
  const TextureSet set = DecodeTextures(entry);
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  ASSERT_EQ(set.images.size(), 2u);
  const Image& c32 = set.images[0];
  ASSERT_FALSE(c32.Missing()) << c32.missing;
  EXPECT_EQ(c32.source_format, "KH2 raw texture, 32-bit direct colour");
  EXPECT_EQ(At(c32, 0, 0), (Texel{0, 0, 0, 128}));
  EXPECT_EQ(At(c32, 5, 3), (Texel{29, 58, 87, 255}));
  const Image& c16 = set.images[1];
  ASSERT_FALSE(c16.Missing()) << c16.missing;
  ASSERT_EQ(c16.width, 16u);
  auto five = [](int v) { return uint8_t((v << 3) | (v >> 2)); };
  for (int p : {0, 17, 45, 127}) {
    const uint16_t c = uint16_t(p);  // A1B5G5R5
    EXPECT_EQ(At(c16, size_t(p % 16), size_t(p / 16)), (Texel{five(c & 31), five((c >> 5) & 31), five(c >> 10), uint8_t(p % 2 ? 255 : 0)})) << p;
  }
}

// An 8-bit picture uploaded as PSMT8 (not pre-swizzled): texel (x, y) is upload byte y * 16 + x.
TEST(Kh2RawTexture, AnIndexedUploadInItsOwnFormatReadsBackInPlace) {
  Bytes data;
  for (int k = 0; k < 256; ++k) data.push_back(uint8_t((k * 5) % 8));
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  const TextureSet set =
      DecodeTextures(RawEntry({kClut, {0, 2, 19, 16, 16, 16, 0}}, {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0}}, data, 256, 256));
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  const Image& img = set.images.at(0);
  ASSERT_FALSE(img.Missing()) << img.missing;
  for (size_t y : {0u, 3u, 15u})
    for (size_t x : {0u, 7u, 13u}) {
      const uint8_t index = uint8_t(((y * 16 + x) * 5) % 8);  // entries 0..7 sit at CSM1 (i, 0)
      EXPECT_EQ(At(img, x, y), (Texel{index, uint8_t(255 - index), 7, 255})) << x << "," << y;
    }
}

// The stock palette upload: a whole 64x32 PSMCT32 page (0x2000 bytes), of which the entry
// holds its colour count (976: through the last texel of CLUT 0, x 0..15 of rows 0..15)
// and a 4-byte footer. The DMA reads on past the entry.
Bytes PalettePastTheEntry(uint8_t second_clut_block_offset) {
  Bytes data(256, 0xFF);  // a 16x16 PSMT8 picture of index 255 (CSM1 place (15, 15))
  for (uint32_t p = 0; p < 976; ++p) data.insert(data.end(), {uint8_t(p), uint8_t(p >> 8), 7, 0x80});
  data.insert(data.end(), {'_', 'K', 'N', '5'});
  const Upload palette{100, 1, 0, 64, 32, 0x200, 256};
  return RawEntry({palette, {0, 1, 0, 8, 8, 16, 0}},
                  {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0},
                   {Tex0(0, 2, 19, 4, 4, 100u + second_clut_block_offset), ClutLoad(19, 100u + second_clut_block_offset), 0}},
                  data, 976, 256);
}

TEST(Kh2RawTexture, APaletteUploadRunningPastTheEntryIsTheStockLayout) {
  // Both textures use CLUT 0: upload position 15 * 64 + 15 = 975, inside the colour count.
  const TextureSet set = DecodeTextures(PalettePastTheEntry(0));
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  for (const Image& img : set.images) {
    ASSERT_FALSE(img.Missing()) << img.missing;
    EXPECT_EQ(At(img, 5, 9), (Texel{975 & 255, 3, 7, 255}));
  }
}

TEST(Kh2RawTexture, ATextureSamplingColoursPastTheFileSaysSo) {
  // Texture 1 uses CLUT 1 (blocks 4..7: x 16..31): entry 255 is upload position 991, past
  // the 976 colours; the file ends with the entry.
  const Bytes entry = PalettePastTheEntry(4);
  const TextureSet set = DecodeTextures(entry, 0x1000);
  ASSERT_EQ(set.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(set.warnings[0], "texture 1 (GS info at 0x"));
  EXPECT_TRUE(test::Has(set.warnings[0], "256 of its 16x16 texels use CLUT colours the palette upload did not write"));
  EXPECT_TRUE(test::Has(set.warnings[0], "sends 0x2000 bytes from 0x" ));
  EXPECT_TRUE(test::Has(set.warnings[0], "the file holds 0xf44 of them"));
  EXPECT_EQ(At(set.images.at(0), 0, 0), (Texel{975 & 255, 3, 7, 255}));
  ASSERT_FALSE(set.images.at(1).Missing());
  EXPECT_EQ(At(set.images.at(1), 0, 0), (Texel{0, 0, 0, 0}));
  // With the file's bytes after the entry the DMA reads them: position 991 is after[56..59].
  Bytes after(0x2000, 0);
  after[56] = 1, after[57] = 2, after[58] = 3, after[59] = 0x40;
  const TextureSet read_on = DecodeTextures(entry, 0x1000, {}, after);
  EXPECT_TRUE(read_on.warnings.empty()) << read_on.warnings.at(0);
  EXPECT_EQ(At(read_on.images.at(1), 3, 3), (Texel{1, 2, 3, 128}));
}

// A list of texture sets: 0xFFFFFFFF, a count, an offset per set; each set a raw texture.
Bytes TwoSets(const Bytes& first, const Bytes& second) {
  Bytes b;
  for (uint32_t w : {0xFFFFFFFFu, 2u, 0x10u, 0x10u + uint32_t(first.size())}) le::Append32(b, w);
  b.insert(b.end(), first.begin(), first.end());
  b.insert(b.end(), second.begin(), second.end());
  return b;
}

TEST(Kh2RawTexture, EveryTextureSetDecodesTheFirstForTheMaterials) {
  Bytes data;
  for (int k = 0; k < 256; ++k) data.push_back(uint8_t(k % 8));
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  const Bytes second = RawEntry({kClut, {0, 2, 19, 16, 16, 16, 0}}, {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0}}, data, 256, 256);
  const TextureSet set = DecodeTextures(TwoSets(EightBit(), second));
  EXPECT_EQ(set.container, "KH2 texture sets");
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  ASSERT_EQ(set.images.size(), 1u);
  EXPECT_EQ(set.images[0].name, "texture 0");
  EXPECT_EQ(At(set.images[0], 8, 0), (Texel{2, 253, 7, 255}));
  ASSERT_EQ(set.other_sets.size(), 1u);
  EXPECT_EQ(set.other_sets[0].name, "set 1 texture 0");
  EXPECT_EQ(At(set.other_sets[0], 3, 1), (Texel{3, 252, 7, 255}));  // index (16 + 3) % 8
  // Materials: the first set's image for the meshes, the other set's kept after it.
  Scene scene;
  std::vector<Mesh> meshes(1);
  meshes[0].material = 0;
  std::vector<std::string> warnings;
  AttachMaterials(meshes, set, scene, warnings);
  ASSERT_EQ(scene.textures.size(), 2u);
  EXPECT_EQ(scene.textures[1].name, "set 1 texture 0");
  EXPECT_EQ(scene.materials.at(size_t(meshes[0].material)).name, "texture 0");
}

TEST(Kh2RawTexture, ADamagedSetKeepsTheOthers) {
  Bytes entry = TwoSets(EightBit(), EightBit());
  entry[12] = 0xF0, entry[13] = 0xFF;  // set 1's offset past the entry
  const TextureSet set = DecodeTextures(entry, 0x200);
  ASSERT_EQ(set.images.size(), 1u);
  EXPECT_FALSE(set.images[0].Missing());
  ASSERT_EQ(set.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(set.warnings[0], "set 1: the set could not be read: offset 0x20c: texture set offset 0xfff0 lies outside"));
  for (uint32_t count : {0u, 0x40000000u}) {
    Bytes bad = entry;
    std::memcpy(bad.data() + 4, &count, 4);
    EXPECT_TRUE(test::Has(test::ErrorOf([&] { DecodeTextures(bad, 0x200); }), "offset 0x20")) << count;
  }
}

// Every prefix of a raw texture is an error naming an offset, or images with a warning
// (its last bytes are CLUT colours the picture uses); every header field, transfer and GS
// info word made huge is one too, or decodes, quickly and without a crash.
TEST(Kh2RawTexture, TruncatedOrCorruptedEntriesAreErrorsOrWarnings) {
  const Bytes full = EightBit();
  for (size_t n = 0; n < full.size(); ++n) {
    const std::string error = test::ErrorOf([&] {
      const TextureSet set = DecodeTextures(ByteView(full.data(), n));
      EXPECT_FALSE(set.warnings.empty()) << n;
    });
    if (!error.empty()) {
      EXPECT_TRUE(test::Has(error, "offset 0x")) << n;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  for (size_t at = 0; at + 4 <= 0x24 + 0x10 + 0x90 * 2 + 0xA0; at += 4)
    for (uint32_t v : {0xFFFFFFFFu, 0x7FFF7FFFu, 0x00010000u}) {
      Bytes bad = full;
      std::memcpy(bad.data() + at, &v, 4);
      try {
        const TextureSet set = DecodeTextures(bad);
        for (const Image& img : set.images) EXPECT_LE(img.rgba.size(), size_t(4) << 20) << at;
      } catch (const Error& e) {
        EXPECT_TRUE(test::Has(e.what(), "offset 0x")) << at;
      }
    }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(Kh2RawTexture, TheWriterRoundTrips) {
  Image eight, four;
  eight.name = "eight", eight.width = 32, eight.height = 8;
  for (int i = 0; i < 256; ++i) eight.rgba.insert(eight.rgba.end(), {uint8_t(i % 40), uint8_t(3 * (i % 40)), 9, uint8_t(i % 3 ? 255 : 0)});
  four.name = "four", four.width = 16, four.height = 4;
  for (int i = 0; i < 64; ++i) four.rgba.insert(four.rgba.end(), {uint8_t(i % 5), 1, 2, 255});
  const TextureSet set = DecodeTextures(WriteNewTextureEntry({eight, four}).entry);
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  ASSERT_EQ(set.images.size(), 2u);
  EXPECT_EQ(set.images[0].rgba, eight.rgba);
  EXPECT_EQ(set.images[1].source_format, "KH2 raw texture, 8-bit indexed");  // new pictures are 8-bit, as the game's
  EXPECT_EQ(set.images[1].rgba, four.rgba);
}

// A TIM2 picture with 2 mipmap levels: header size 0x50 (0x30 + the 0x20-byte mipmap
// block), image data level 0 (4x2, 8-bit) then level 1 (2x1, padded to 16), a 256-colour CLUT.
TEST(Kh2Texture, Tim2MipmapsGiveLevelZero) {
  Bytes t = {'T', 'I', 'M', '2', 4, 0, 1, 0};
  t.resize(0x10, 0);
  const uint32_t clut = 256 * 4, image = 16 + 16;
  le::Append32(t, 0x50 + image + clut), le::Append32(t, clut), le::Append32(t, image);
  t.insert(t.end(), {0x50, 0, 0, 1});        // header size 0x50, 256 colours
  t.insert(t.end(), {0, 2, 0x83, 5});        // format, 2 mipmaps, CLUT 32-bit linear, 8-bit indexed
  t.insert(t.end(), {4, 0, 2, 0});           // 4 x 2
  t.resize(0x10 + 0x50, 0);                  // GS registers, the mipmap block
  for (int i = 0; i < 8; ++i) t.push_back(uint8_t(i + 1));
  t.resize(t.size() + 8, 0);
  t.insert(t.end(), {9, 9});                 // level 1
  t.resize(t.size() + 14, 0);
  for (int c = 0; c < 256; ++c) t.insert(t.end(), {uint8_t(c), uint8_t(2 * c), 5, 0x80});
  const TextureSet set = DecodeTextures(t);
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  const Image& img = set.images.at(0);
  ASSERT_FALSE(img.Missing()) << img.missing;
  EXPECT_EQ(img.width, 4u);
  EXPECT_EQ(img.source_format, "TIM2 8-bit indexed, mipmap level 0 of 2");
  EXPECT_EQ(At(img, 3, 1), (Texel{8, 16, 5, 255}));
}

// Every texture of every MDLX in ../shared/real/kh2 and ../shared/fixtures/kh2 decodes
// without a warning, the DMA reading on into the file's bytes after the entry.
TEST(Kh2RawTexture, EveryRealMdlxTextureDecodes) {
  const std::filesystem::path shared = std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared";
  size_t files = 0;
  for (const char* folder : {"real/kh2", "fixtures/kh2"}) {
    if (!std::filesystem::is_directory(shared / folder)) continue;
    for (const auto& file : std::filesystem::directory_iterator(shared / folder)) {
      if (file.path().extension() != ".mdlx") continue;
      ++files;
      const Bytes bytes = ReadFileBytes(file.path().string());
      const Bar bar = ParseBar(bytes);
      size_t images = 0;
      for (const BarEntry& e : bar.entries) {
        if (e.type != 7) continue;
        const ByteView after = ByteView(bytes).subspan(std::min(bytes.size(), size_t(e.offset) + e.size));
        const TextureSet set = DecodeTextures(e.raw, e.offset, {}, after);
        EXPECT_TRUE(set.warnings.empty()) << file.path() << ": " << set.warnings.at(0);
        for (const auto* list : {&set.images, &set.other_sets})
          for (const Image& img : *list) {
            EXPECT_FALSE(img.Missing()) << file.path() << " " << img.name << ": " << img.missing;
            ++images;
          }
      }
      EXPECT_GT(images, 0u) << file.path();
    }
  }
  if (files == 0) GTEST_SKIP() << "no MDLX in " << shared / "real/kh2" << " or " << shared / "fixtures/kh2";
}

}  // namespace
}  // namespace animkit
