// KH2 raw textures read back through GS memory: an upload written in its own pixel format
// and read by TEX0 in another, at another size (expected texels from the GS User's Manual
// page/block/column tables as PCSX2's GSTables and OpenKH's Ps2.Reform*.cs list them, not
// from the decoder); the qword counts of uploads too big for them; data past an upload's
// rectangle; uploads that leave texels to the ones before; warnings only for meshes that
// sample what no upload wrote; and the real files of ../shared/real/kh2-open.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include "formats/kh2/kh2_raw_texture_entry.hpp"
#include "support/test_support.hpp"

#include <filesystem>
#include <set>

namespace animkit {
namespace {

using namespace kh2;
using namespace kh2_texture_test;

// --- The GS User's Manual tables -------------------------------------------------------
// Block order in a page: PSMCT32 and PSMT8 (4 rows of 8 blocks), PSMT4 (8 rows of 4).
constexpr int kBlockTable32[4][8] = {{0, 1, 4, 5, 16, 17, 20, 21}, {2, 3, 6, 7, 18, 19, 22, 23},
                                     {8, 9, 12, 13, 24, 25, 28, 29}, {10, 11, 14, 15, 26, 27, 30, 31}};
constexpr int kBlockTable4[8][4] = {{0, 2, 8, 10},    {1, 3, 9, 11},    {4, 6, 12, 14},   {5, 7, 13, 15},
                                    {16, 18, 24, 26}, {17, 19, 25, 27}, {20, 22, 28, 30}, {21, 23, 29, 31}};
// PSMCT32: the word (of 64) of texel (x, y) of an 8x8 block.
constexpr int kColumnTable32[8][8] = {{0, 1, 4, 5, 8, 9, 12, 13},         {2, 3, 6, 7, 10, 11, 14, 15},
                                      {16, 17, 20, 21, 24, 25, 28, 29},   {18, 19, 22, 23, 26, 27, 30, 31},
                                      {32, 33, 36, 37, 40, 41, 44, 45},   {34, 35, 38, 39, 42, 43, 46, 47},
                                      {48, 49, 52, 53, 56, 57, 60, 61},   {50, 51, 54, 55, 58, 59, 62, 63}};
// PSMT8: the byte (of 256) of texel (x, y) of a 16x16 block: columns 0 and 1 (rows 0-3,
// 4-7) as listed; columns 2 and 3 are them + 128.
constexpr int kColumnTable8[8][16] = {
    {0, 4, 16, 20, 32, 36, 48, 52, 2, 6, 18, 22, 34, 38, 50, 54},
    {8, 12, 24, 28, 40, 44, 56, 60, 10, 14, 26, 30, 42, 46, 58, 62},
    {33, 37, 49, 53, 1, 5, 17, 21, 35, 39, 51, 55, 3, 7, 19, 23},
    {41, 45, 57, 61, 9, 13, 25, 29, 43, 47, 59, 63, 11, 15, 27, 31},
    {96, 100, 112, 116, 64, 68, 80, 84, 98, 102, 114, 118, 66, 70, 82, 86},
    {104, 108, 120, 124, 72, 76, 88, 92, 106, 110, 122, 126, 74, 78, 90, 94},
    {65, 69, 81, 85, 97, 101, 113, 117, 67, 71, 83, 87, 99, 103, 115, 119},
    {73, 77, 89, 93, 105, 109, 121, 125, 75, 79, 91, 95, 107, 111, 123, 127}};
// PSMT4: the nibble (of 512) of texel (x, y) of a 32x16 block: columns 0 and 1 as listed;
// columns 2 and 3 are them + 256.
constexpr int kColumnTable4[8][32] = {
    {0, 8, 32, 40, 64, 72, 96, 104, 2, 10, 34, 42, 66, 74, 98, 106, 4, 12, 36, 44, 68, 76, 100, 108, 6, 14, 38, 46, 70, 78, 102, 110},
    {16, 24, 48, 56, 80, 88, 112, 120, 18, 26, 50, 58, 82, 90, 114, 122, 20, 28, 52, 60, 84, 92, 116, 124, 22, 30, 54, 62, 86, 94, 118, 126},
    {65, 73, 97, 105, 1, 9, 33, 41, 67, 75, 99, 107, 3, 11, 35, 43, 69, 77, 101, 109, 5, 13, 37, 45, 71, 79, 103, 111, 7, 15, 39, 47},
    {81, 89, 113, 121, 17, 25, 49, 57, 83, 91, 115, 123, 19, 27, 51, 59, 85, 93, 117, 125, 21, 29, 53, 61, 87, 95, 119, 127, 23, 31, 55, 63},
    {192, 200, 224, 232, 128, 136, 160, 168, 194, 202, 226, 234, 130, 138, 162, 170,
     196, 204, 228, 236, 132, 140, 164, 172, 198, 206, 230, 238, 134, 142, 166, 174},
    {208, 216, 240, 248, 144, 152, 176, 184, 210, 218, 242, 250, 146, 154, 178, 186,
     212, 220, 244, 252, 148, 156, 180, 188, 214, 222, 246, 254, 150, 158, 182, 190},
    {129, 137, 161, 169, 193, 201, 225, 233, 131, 139, 163, 171, 195, 203, 227, 235,
     133, 141, 165, 173, 197, 205, 229, 237, 135, 143, 167, 175, 199, 207, 231, 239},
    {145, 153, 177, 185, 209, 217, 241, 249, 147, 155, 179, 187, 211, 219, 243, 251,
     149, 157, 181, 189, 213, 221, 245, 253, 151, 159, 183, 191, 215, 223, 247, 255}};

// The byte of a page (8 KB) where a 64-wide PSMCT32 upload puts byte `c` of its texel (x, y).
size_t PageByte32(size_t x, size_t y, size_t c) {
  return size_t(kBlockTable32[y / 8][x / 8]) * 256 + size_t(kColumnTable32[y % 8][x % 8]) * 4 + c;
}
// Which upload byte of a one-page 64x32 PSMCT32 upload lands on page byte b.
size_t UploadByteAt(size_t b) {
  static const std::vector<size_t> inverse = [] {
    std::vector<size_t> v(8192);
    for (size_t y = 0; y < 32; ++y)
      for (size_t x = 0; x < 64; ++x)
        for (size_t c = 0; c < 4; ++c) v[PageByte32(x, y, c)] = (y * 64 + x) * 4 + c;
    return v;
  }();
  return inverse[b];
}
size_t PageByte8(size_t x, size_t y) {
  return size_t(kBlockTable32[y / 16][x / 16]) * 256 + size_t(kColumnTable8[y % 8][x % 16]) + (y % 16 >= 8 ? 128 : 0);
}
size_t PageNibble4(size_t x, size_t y) {
  return size_t(kBlockTable4[y / 16][x / 32]) * 512 + size_t(kColumnTable4[y % 8][x % 32]) + (y % 16 >= 8 ? 256 : 0);
}
// CSM1: entry e of an 8-bit CLUT sits at raster position e with index bits 3 and 4 swapped.
size_t Csm1Position(size_t e) { return (e & ~size_t(0x18)) | ((e & 8) << 1) | ((e & 16) >> 1); }

Texel ClutColour(size_t entry) {
  const size_t p = Csm1Position(entry);
  return {uint8_t(p), uint8_t(255 - p), 7, 255};
}
// One PSMCT32 page (64x32 texels, 8 KB; upload byte k = (13k + k / 256) & 255) at block
// 0x40, read back as a 128x64 PSMT8 texture and as a 128x128 PSMT4 one (a PSMT4 page is 8
// KB too); the CLUT at block 0x80.
Bytes OnePage() {
  Bytes data;
  for (size_t k = 0; k < 8192; ++k) data.push_back(uint8_t((13 * k + k / 256) & 255));
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  return data;
}

TEST(Kh2GsMemory, APsmct32UploadReadAsPsmt8AndPsmt4FollowsTheManualsTables) {
  const Bytes data = OnePage();
  const Upload clut{0x80, 1, 0, 16, 16, 64, 8192}, page{0x40, 1, 0, 64, 32, 512, 0};
  const Bytes entry = RawEntry({clut, page},
                               {{Tex0(0x40, 2, 19, 7, 6, 0x80), ClutLoad(19, 0x80), 0}, {Tex0(0x40, 2, 20, 7, 7, 0x80), ClutLoad(19, 0x80), 0}},
                               data, 256, 8192);
  const TextureSet set = DecodeTextures(entry);
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  ASSERT_EQ(set.images.size(), 2u);
  const Image& eight = set.images[0];
  const Image& four = set.images[1];
  ASSERT_EQ(eight.width, 128u);
  ASSERT_EQ(eight.height, 64u);
  ASSERT_EQ(four.width, 128u);
  ASSERT_EQ(four.height, 128u);
  for (size_t y = 0; y < 64; ++y)
    for (size_t x = 0; x < 128; ++x) {
      const uint8_t index = data[UploadByteAt(PageByte8(x, y))];
      ASSERT_EQ(At(eight, x, y), ClutColour(index)) << "PSMT8 " << x << "," << y;
    }
  for (size_t y = 0; y < 128; ++y)
    for (size_t x = 0; x < 128; ++x) {
      const size_t nibble = PageNibble4(x, y);
      const uint8_t index = uint8_t((data[UploadByteAt(nibble / 2)] >> (4 * (nibble & 1))) & 15);  // low nibble first
      ASSERT_EQ(At(four, x, y), ClutColour(index)) << "PSMT4 " << x << "," << y;
    }
}

// An upload of 0x8000 qwords or more (512 KB) cannot be counted by the IMAGE tag's 15-bit
// NLOOP: written with the counts modulo 0x8000 (here 0), it sends its rectangle. 256x512
// PSMCT32 texels read as a 512x1024 PSMT8 texture (TBW 8), as H_EX500_CA's.
TEST(Kh2GsMemory, AnUploadWhoseCountsWrappedSendsItsRectangle) {
  Bytes data(size_t(256) * 512 * 4);
  for (size_t k = 0; k < data.size(); ++k) data[k] = uint8_t((k * 7 + k / 8192) & 255);
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  const uint32_t palette = 256 * 512 * 4;
  const Upload clut_upload{0x80, 1, 0, 16, 16, 64, palette}, big{0x100, 4, 0, 256, 512, 0x8000 % 0x8000, 0};
  const Bytes entry = RawEntry({clut_upload, big}, {{Tex0(0x100, 8, 19, 9, 10, 0x80), ClutLoad(19, 0x80), 0}}, data, 256, palette);
  const TextureSet set = DecodeTextures(entry);
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  const Image& img = set.images.at(0);
  ASSERT_FALSE(img.Missing()) << img.missing;
  ASSERT_EQ(img.width, 512u);
  ASSERT_EQ(img.height, 1024u);
  // Texel (x, y) of page (px, py) (128x64 PSMT8 texels) is page byte PageByte8 of page
  // py * 4 + px, which a 256-wide PSMCT32 upload filled from its texel of that page.
  for (size_t y : {0u, 1u, 63u, 64u, 511u, 1023u})
    for (size_t x : {0u, 5u, 127u, 128u, 300u, 511u}) {
      const size_t b = PageByte8(x % 128, y % 64), in_page = UploadByteAt(b);
      const size_t ux = (x / 128) * 64 + (in_page / 4) % 64, uy = (y / 64) * 32 + (in_page / 4) / 64;
      const uint8_t index = data[(uy * 256 + ux) * 4 + in_page % 4];
      EXPECT_EQ(At(img, x, y), ClutColour(index)) << x << "," << y;
    }
  // A count of 0 for a rectangle it does not wrap to still sends nothing.
  const Upload small{0x100, 4, 0, 16, 16, 0, 0};
  const TextureSet none = DecodeTextures(RawEntry({clut_upload, small}, {{Tex0(0x100, 2, 19, 5, 5, 0x80), ClutLoad(19, 0x80), 0}}, data, 256, palette));
  ASSERT_EQ(none.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(none.warnings[0], "its upload wrote 0x0 bytes")) << none.warnings[0];
}

// A palette upload whose data sends more colours than its rectangle (992 colours, 64x15:
// the colour count / 64 rounded down, as OpenKH's writer sets RRH): the colours past it
// are the rectangle's next row. Entry 255 of CLUT 0 is raster position 15 * 16 + 15 of
// the 64-wide upload: row 15.
TEST(Kh2GsMemory, DataPastAnUploadsRectangleFillsTheRowsBelow) {
  Bytes data(256, 0xFF);  // a 16x16 PSMT8 picture (8x8 PSMCT32 texels) of index 255
  for (uint32_t p = 0; p < 992; ++p) data.insert(data.end(), {uint8_t(p), uint8_t(p >> 8), 7, 0x80});
  data.insert(data.end(), {'_', 'K', 'N', '5'});
  const Upload palette{100, 1, 0, 64, 15, 992 / 4, 256}, picture{0, 1, 0, 8, 8, 16, 0};
  const TextureSet set = DecodeTextures(RawEntry({palette, picture}, {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0}}, data, 992, 256));
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  const uint32_t p = 15 * 64 + 15;
  EXPECT_EQ(At(set.images.at(0), 3, 7), (Texel{uint8_t(p), uint8_t(p >> 8), 7, 255}));
}

// Two textures at one block, as OpenKH's writer lays them out: the second's upload (2x2
// PSMCT32 texels, 16 bytes of index 1) covers 4 of its 4x4 PSMT8 texels; the other 12 are
// what the first texture's upload (16x16 PSMT8 texels of index 2) left there.
TEST(Kh2GsMemory, TexelsAnUploadLeavesAreWhatTheUploadsBeforeItWrote) {
  Bytes data(256, 2);
  data.resize(256 + 16, 1);
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  const Upload clut_upload{100, 1, 0, 16, 16, 64, 272}, first{0, 1, 0, 8, 8, 16, 0}, second{0, 0, 0, 2, 2, 1, 256};
  const TextureSet set = DecodeTextures(RawEntry({clut_upload, first, second},
                                                 {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0}, {Tex0(0, 0, 19, 2, 2, 100), ClutLoad(19, 100), 1}},
                                                 data, 256, 272));
  EXPECT_TRUE(set.warnings.empty()) << set.warnings.at(0);
  const Image& small = set.images.at(1);
  ASSERT_EQ(small.width, 4u);
  // PSMT8 texels (0..1, 0..1) read bytes 0 and 1 of words 0, 1 and 2, 3 (columnTable8 row
  // 0: 0, 4; row 1: 8, 12): the 2x2 upload's; (2, 0) reads byte 16 (word 4): the first's.
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 4; ++x) {
      const size_t byte = size_t(kColumnTable8[y][x]);
      EXPECT_EQ(At(small, x, y), ClutColour(byte < 16 ? 1 : 2)) << x << "," << y;
    }
}

// A mesh of one triangle over UV (u0, v0)..(u1, v1), using texture 0.
Mesh Quad(const std::string& name, float u0, float v0, float u1, float v1) {
  Mesh m;
  m.name = name;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  m.uvs = {{u0, v0}, {u1, v0}, {u0, v1}, {u1, v1}};
  m.triangles = {0, 1, 2, 1, 3, 2};
  m.material = 0;
  return m;
}

// Texels no upload wrote are said only for the meshes that sample them, naming them: a
// 16x16 texture whose upload (8x4 PSMCT32 texels) wrote its top half.
TEST(Kh2GsMemory, UnwrittenTexelsAreSaidOnlyForTheMeshesThatSampleThem) {
  Bytes data(128, 0);
  const Bytes clut = Clut();
  data.insert(data.end(), clut.begin(), clut.end());
  const uint64_t region_clamp = 0xA;
  const TextureSet set = DecodeTextures(RawEntry({{100, 1, 0, 16, 16, 64, 128}, {0, 1, 0, 8, 4, 8, 0}},
                                                 {{Tex0(0, 2, 19, 4, 4, 100), ClutLoad(19, 100), 0, region_clamp}}, data, 256, 128));
  ASSERT_EQ(set.warnings.size(), 1u);  // decoded alone: said for the texture
  EXPECT_TRUE(test::Has(set.warnings[0], "128 of its 16x16 texels lie where its upload wrote nothing")) << set.warnings[0];
  ASSERT_EQ(set.unheld.size(), 1u);
  EXPECT_EQ(set.unheld[0].texels.size(), 128u);
  // Rows 0..7 are written: a mesh over v 0..0.4 (rows up to 6.4, its footprint to 7) samples none.
  std::vector<Mesh> meshes = {Quad("top", 0.0f, 0.0f, 1.0f, 0.4f), Quad("all", 0.1f, 0.1f, 0.9f, 0.9f)};
  Scene scene;
  std::vector<std::string> warnings;
  AttachMaterials(meshes, set, scene, warnings);
  ASSERT_EQ(warnings.size(), 1u) << warnings.at(0);
  EXPECT_TRUE(test::Has(warnings[0], "all: samples ")) << warnings[0];
  EXPECT_TRUE(test::Has(warnings[0], " texels of texture 0 (GS info at 0x")) << warnings[0];
  EXPECT_TRUE(test::Has(warnings[0], "that lie where its upload wrote nothing")) << warnings[0];
  // Only the top mesh: nothing to say.
  std::vector<Mesh> top = {Quad("top", 0.0f, 0.0f, 1.0f, 0.4f)};
  Scene scene2;
  std::vector<std::string> none;
  AttachMaterials(top, set, scene2, none);
  EXPECT_TRUE(none.empty()) << none.at(0);
}

// --- The real files of ../shared/real/kh2-open ------------------------------------------
std::filesystem::path OpenCase(const char* name) {
  return std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared" / "real" / "kh2-open" / name;
}

struct ModelRead {
  Scene scene;
  std::vector<std::string> warnings;
  Bytes texture_entry;
};
// The model's meshes and materials as the BAR decoder ties them (its warnings).
ModelRead ReadModel(const std::filesystem::path& file) {
  ModelRead out;
  const Bar bar = ParseBar(ReadFileBytes(file.string()));
  const BarEntry* model = nullptr;
  for (const BarEntry& e : bar.entries) {
    if (e.type == kEntryTexture && out.texture_entry.empty()) out.texture_entry = e.raw;
    if (!model && e.model && !e.model->bones.empty()) model = &e;
  }
  if (!model) return out;
  ModelMeshes meshes = DecodeModelMeshes(*model->model, SkeletonFromModel(*model->model), model->offset);
  out.warnings = meshes.warnings;
  AttachMaterials(meshes.meshes, DecodeTextures(out.texture_entry), out.scene, out.warnings);
  out.scene.meshes = std::move(meshes.meshes);
  return out;
}

// The share of texels the UV vertices of the meshes showing texture `only` (-1: every
// texture) land on that are visible (alpha > 0).
double VisibleAtUvs(const Scene& scene, int only = -1) {
  size_t seen = 0, visible = 0;
  for (const Mesh& m : scene.meshes) {
    if (m.material < 0) continue;
    const int texture = scene.materials.at(size_t(m.material)).texture;
    if (only >= 0 && texture != only) continue;
    const Image& img = scene.textures.at(size_t(texture));
    if (img.Missing()) continue;
    for (const auto& uv : m.uvs) {
      const size_t x = std::min<size_t>(img.width - 1, size_t(std::max(0.0f, uv[0]) * float(img.width)));
      const size_t y = std::min<size_t>(img.height - 1, size_t(std::max(0.0f, uv[1]) * float(img.height)));
      ++seen, visible += img.rgba[(y * img.width + x) * 4 + 3] != 0;
    }
  }
  return seen == 0 ? 0.0 : double(visible) / double(seen);
}

TEST(Kh2GsMemory, PirateSorasFiveTexturesDecodeWriteBackAndEdit) {
  const std::filesystem::path file = OpenCase("H_EX500_CA.mdlx");
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
  const ModelRead m = ReadModel(file);
  for (const std::string& w : m.warnings) EXPECT_FALSE(test::Has(w, "texture")) << w;
  ASSERT_EQ(m.scene.textures.size(), 5u);
  const uint32_t sizes[5][2] = {{1024, 1024}, {1024, 512}, {1024, 512}, {1024, 512}, {1024, 1024}};
  for (size_t i = 0; i < 5; ++i) {
    const Image& img = m.scene.textures[i];
    ASSERT_FALSE(img.Missing()) << img.name << ": " << img.missing;
    EXPECT_EQ(img.width, sizes[i][0]);
    EXPECT_EQ(img.height, sizes[i][1]);
    size_t opaque = 0;
    std::set<uint32_t> colours;
    for (size_t p = 0; p < img.rgba.size(); p += 4) {
      opaque += img.rgba[p + 3] != 0;
      colours.insert(uint32_t(img.rgba[p]) | uint32_t(img.rgba[p + 1]) << 8 | uint32_t(img.rgba[p + 2]) << 16);
    }
    EXPECT_GT(opaque, img.rgba.size() / 4 / 2) << img.name;  // mostly drawn
    EXPECT_GT(colours.size(), 64u) << img.name;               // a picture, not a fill
  }
  EXPECT_GT(VisibleAtUvs(m.scene), 0.95);
  // Unedited: the entry's bytes. Edited (texel (10, 10) of texture 2 given the colour of
  // texel (200, 100), so no colour is added): the same layout; only its picture and CLUT bytes change.
  const TextureWrite same = WriteTextureEntry(m.texture_entry, m.scene.textures);
  EXPECT_EQ(same.entry, m.texture_entry);
  std::vector<Image> edited = m.scene.textures;
  Image& img = edited[2];
  const size_t at = (10 * img.width + 10) * 4;
  ASSERT_NE(Texel(img.rgba.begin() + std::ptrdiff_t(at), img.rgba.begin() + std::ptrdiff_t(at + 4)), At(img, 200, 100)) << "pick another texel";
  for (size_t k = 0; k < 4; ++k) img.rgba[at + k] = img.rgba[(100 * img.width + 200) * 4 + k];
  const TextureWrite written = WriteTextureEntry(m.texture_entry, edited);
  EXPECT_EQ(written.reencoded, 1u);
  ASSERT_EQ(written.entry.size(), m.texture_entry.size());
  const uint32_t picture = le::Load32At(m.texture_entry, 0x1C), palette = le::Load32At(m.texture_entry, 0x20);
  EXPECT_TRUE(std::equal(written.entry.begin(), written.entry.begin() + picture, m.texture_entry.begin()));  // header, transfers, GS infos
  size_t changed = 0;
  for (size_t k = 0; k < written.entry.size(); ++k)
    if (written.entry[k] != m.texture_entry[k]) {
      ++changed;
      EXPECT_TRUE((k >= 0x180700 && k < 0x200700) || k >= palette) << "byte " << k << " outside texture 2's picture and the palette";
    }
  EXPECT_GE(changed, 1u);
  const TextureSet back = DecodeTextures(written.entry);
  EXPECT_TRUE(back.warnings.empty()) << back.warnings.at(0);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(back.images.at(i).rgba, edited[i].rgba) << i;
}

TEST(Kh2GsMemory, ThePirateFellasTexturesDecodeWholeAndWriteBack) {
  const std::filesystem::path file = OpenCase("P_EX020_CA.mdlx");
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
  const ModelRead m = ReadModel(file);
  for (const std::string& w : m.warnings) EXPECT_FALSE(test::Has(w, "texture")) << w;
  ASSERT_EQ(m.scene.textures.size(), 2u);
  for (const Image& img : m.scene.textures) ASSERT_FALSE(img.Missing()) << img.name;
  // Entry 233 of CLUT 0 (row 15 of the palette upload, past its 64x15 rectangle), the
  // colour most of those texels use, is the file's (60, 94, 129).
  bool found = false;
  const Image& t0 = m.scene.textures[0];
  for (size_t p = 0; p < t0.rgba.size() && !found; p += 4) found = Texel(t0.rgba.begin() + std::ptrdiff_t(p), t0.rgba.begin() + std::ptrdiff_t(p + 4)) == Texel{60, 94, 129, 255};
  EXPECT_TRUE(found);
  EXPECT_GT(VisibleAtUvs(m.scene, 0), 0.95);
  // Texture 1 (4x4, at the block texture 0 filled): its upload's 2x2 PSMCT32 texels give
  // (0..1, 0..1) index 0 of CLUT 1, white; (2, 0) is texture 0's index there, 79 (CLUT 1
  // holds only white at 0, the rest zero).
  const Image& t1 = m.scene.textures[1];
  EXPECT_EQ(At(t1, 1, 1), (Texel{255, 255, 255, 255}));
  EXPECT_EQ(At(t1, 2, 0), (Texel{0, 0, 0, 0}));
  EXPECT_EQ(WriteTextureEntry(m.texture_entry, m.scene.textures).entry, m.texture_entry);
  // Texture 0 edited (texel (10, 10) given texel (200, 100)'s colour): written in its
  // layout; texture 1, reading what texture 0's upload left, follows it (said if it changed).
  std::vector<Image> edited = m.scene.textures;
  Image& face = edited[0];
  for (size_t k = 0; k < 4; ++k) face.rgba[(10 * face.width + 10) * 4 + k] = face.rgba[(100 * face.width + 200) * 4 + k];
  const TextureWrite written = WriteTextureEntry(m.texture_entry, edited);
  ASSERT_EQ(written.entry.size(), m.texture_entry.size());
  const TextureSet back = DecodeTextures(written.entry);
  EXPECT_EQ(back.images.at(0).rgba, face.rgba);
  if (back.images.at(1).rgba != m.scene.textures[1].rgba) {
    ASSERT_FALSE(written.warnings.empty());
    EXPECT_TRUE(test::Has(written.warnings.back(), "'texture 1' reads texels an earlier texture's upload left")) << written.warnings.back();
  }
}

}  // namespace
}  // namespace animkit
