// Metroid Prime 2: Echoes ANIM versions 0 and 2: files written here from the documented
// layout (docs/formats/metroid_anim.md, "Echoes"), expected values from that layout.
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kMetroidAnimFormat;
namespace {

using namespace metroid;
using test::Has;

// (value, width) fields packed from bit 0 upward into 32-bit words written big-endian.
Bytes Mp2PackBits(const std::vector<std::pair<int32_t, int>>& fields) {
  std::vector<uint32_t> words;
  size_t bit = 0;
  for (const auto& [value, width] : fields) {
    for (int i = 0; i < width; ++i, ++bit) {
      if (bit / 32 >= words.size()) words.push_back(0);
      if ((static_cast<uint32_t>(value) >> i) & 1u) words[bit / 32] |= 1u << (bit % 32);
    }
  }
  Bytes out;
  for (uint32_t w : words) out.insert(out.end(), {uint8_t(w >> 24), uint8_t(w >> 16), uint8_t(w >> 8), uint8_t(w)});
  return out;
}

struct Mp2Axis {
  int16_t initial;
  uint8_t bits;
};

void Mp2Part(ByteWriter& w, uint16_t keys, const std::array<Mp2Axis, 3>& axes) {
  w.U16(keys);
  if (keys == 0) return;
  for (const Mp2Axis& a : axes) w.I16(a.initial), w.U8(a.bits);
}

// Five frames keyed on 0, 2 and 3 (bitmap 0b01101: 3 set bits, 2 delta keys). Three
// descriptors: bone 0 rotation (widths 4/3/1) and translation (5/2/3); bone 1 empty;
// bone 2 rotation (2/2/2) and scale (3/3/2), its counts `bone2_keys` (3: the set bits).
// Offsets: 0x2E bitmap bits, 0x32 bitmap, 0x36 descriptor count, 0x3A descriptors
// (25 + 7 + 25 bytes), 0x73 bitstream (68 bits: 3 words).
Bytes GoldenEchoesV2(uint16_t bone2_keys = 3) {
  ByteWriter w(Endian::Big);
  w.U32(2);
  w.U32(0x40);        // scratch size
  w.U8(1), w.U8(1);   // 0x08
  w.F32(0.2f);        // 0x0A duration
  w.F32(0.05f);       // 0x0E interval
  w.U32(0);           // 0x12 root bone
  w.U32(1);           // 0x16 looping
  w.U32(0x7FFF);      // 0x1A rotation divisor
  w.F32(0.5f);        // 0x1E translation multiplier
  w.F32(0.25f);       // 0x22 scale multiplier
  w.U32(3);           // 0x26 channel count
  w.U32(1);           // 0x2A unknown
  w.U32(5);           // 0x2E bitmap bits
  w.U32(0b01101);     // 0x32
  w.U32(3);           // 0x36 descriptor count
  w.U8(0);
  Mp2Part(w, 2, {{{100, 4}, {-200, 3}, {0, 1}}});
  Mp2Part(w, 2, {{{10, 5}, {20, 2}, {-30, 3}}});
  Mp2Part(w, 0, {});
  w.U8(1);
  Mp2Part(w, 0, {}), Mp2Part(w, 0, {}), Mp2Part(w, 0, {});
  w.U8(2);
  Mp2Part(w, bone2_keys, {{{0, 2}, {0, 2}, {0, 2}}});
  Mp2Part(w, 0, {});
  Mp2Part(w, bone2_keys, {{{4, 3}, {8, 3}, {-4, 2}}});
  // Key 1 then key 2; per key bone 0 (W, rotation, translation) then bone 2 (W, rotation, scale).
  w.Append(Mp2PackBits({{0, 1}, {5, 4}, {-3, 3}, {0, 1}, {7, 5}, {-1, 2}, {2, 3},
                        {1, 1}, {1, 2}, {-2, 2}, {0, 2}, {3, 3}, {-4, 3}, {1, 2},
                        {1, 1}, {-8, 4}, {3, 3}, {-1, 1}, {-16, 5}, {1, 2}, {-4, 3},
                        {0, 1}, {-1, 2}, {1, 2}, {1, 2}, {-4, 3}, {0, 3}, {-2, 2}}));
  return w.Take();
}

QuatXYZW Mp2Rotation(double tx, double ty, double tz, bool w_negative) {
  const double q = std::numbers::pi / 2 / 0x7FFF;
  const double x = std::sin(tx * q), y = std::sin(ty * q), z = std::sin(tz * q);
  const double w = std::sqrt(1 - x * x - y * y - z * z);
  return {float(x), float(y), float(z), float(w_negative ? -w : w)};
}

TEST(MetroidAnimMp2, ParsesTheEchoesVersion2Header) {
  const AnimFile f = ParseAnim(GoldenEchoesV2());
  EXPECT_EQ(f.game, Game::Echoes);
  const EchoesAnimV2& a = f.echoes_v2;
  EXPECT_EQ(a.scratch_size, 0x40u);
  EXPECT_FLOAT_EQ(a.duration, 0.2f);
  EXPECT_FLOAT_EQ(a.scale_multiplier, 0.25f);
  EXPECT_EQ(a.root_bone, 0u);
  EXPECT_EQ(a.KeyedFrames(), 3u);
  ASSERT_EQ(a.descriptors.size(), 3u);
  EXPECT_EQ(a.descriptors[0].byte_size(), 25u);
  EXPECT_EQ(a.descriptors[1].byte_size(), 7u);
  EXPECT_EQ(a.descriptors[0].key_bits(), 19u);
  EXPECT_EQ(a.descriptors[2].key_bits(), 15u);
  EXPECT_EQ(a.bitstream.size(), 12u);
}

TEST(MetroidAnimMp2, UnpacksTheHandPackedBitstream) {
  const auto ch = UnpackEchoesV2(ParseAnim(GoldenEchoesV2()).echoes_v2);
  ASSERT_EQ(ch.size(), 3u);
  using T = std::vector<std::array<int16_t, 3>>;
  EXPECT_EQ(ch[0].rotation, (T{{100, -200, 0}, {105, -203, 0}, {97, -200, -1}}));
  EXPECT_EQ(ch[0].w_negative, (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(ch[0].translation, (T{{10, 20, -30}, {17, 19, -28}, {1, 20, -32}}));
  EXPECT_TRUE(ch[0].scale.empty());
  EXPECT_TRUE(ch[1].rotation.empty() && ch[1].translation.empty() && ch[1].scale.empty());
  EXPECT_EQ(ch[2].rotation, (T{{0, 0, 0}, {1, -2, 0}, {0, -1, 1}}));
  EXPECT_EQ(ch[2].w_negative, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(ch[2].scale, (T{{4, 8, -4}, {7, 4, -3}, {3, 4, -5}}));
}

TEST(MetroidAnimMp2, DecodesKeyedAndInterpolatedFrames) {
  const Clip clip = DecodeAnim(ParseAnim(GoldenEchoesV2()), {});
  EXPECT_EQ(clip.frame_count, 5u);
  EXPECT_DOUBLE_EQ(clip.frame_rate, 20.0);
  EXPECT_TRUE(clip.loop);
  EXPECT_EQ(clip.metadata[metadata_keys::kGame], 2);
  ASSERT_EQ(clip.tracks.size(), 2u);  // the empty descriptor animates nothing
  const JointTrack& b0 = clip.tracks[0];
  const JointTrack& b2 = clip.tracks[1];
  EXPECT_EQ(b0.joint, "#0");
  EXPECT_EQ(b2.joint, "#2");
  ASSERT_TRUE(clip.root_motion);  // segment 0 moves the character (facts 7.5), Z up
  EXPECT_EQ(clip.root_motion->joint, "#0");
  EXPECT_EQ(clip.root_motion->up, (Vec3{0, 0, 1}));
  const auto rot = [](const JointTrack& t, size_t f) { return SampleTrack(t.rotation, FrameTime(f, 20)); };
  const auto pos = [](const JointTrack& t, size_t f) { return SampleTrack(t.translation, FrameTime(f, 20)); };
  const auto scl = [](const JointTrack& t, size_t f) { return SampleTrack(t.scale, FrameTime(f, 20)); };
  const auto expect = [](QuatXYZW got, QuatXYZW want) { test::ExpectQuat(got, want.x, want.y, want.z, want.w, 1e-6); };
  expect(rot(b0, 0), Mp2Rotation(100, -200, 0, false));
  expect(rot(b0, 2), Mp2Rotation(105, -203, 0, false));  // key 1 on the second set bit
  expect(rot(b0, 3), Mp2Rotation(97, -200, -1, true));
  EXPECT_LT(rot(b0, 3).w, 0);  // the W sign bit
  expect(rot(b0, 4), Mp2Rotation(97, -200, -1, true));  // held after the last key
  // Translations: totals x 0.5; frame 1 halfway between frames 0 and 2.
  test::ExpectVec(pos(b0, 0), 5, 10, -15);
  test::ExpectVec(pos(b0, 1), 6.75, 9.75, -14.5);
  test::ExpectVec(pos(b0, 2), 8.5, 9.5, -14);
  test::ExpectVec(pos(b0, 3), 0.5, 10, -16);
  EXPECT_TRUE(b0.scale.empty());
  // Scales: totals x the scale multiplier 0.25.
  test::ExpectVec(scl(b2, 0), 1, 2, -1);
  test::ExpectVec(scl(b2, 1), 1.375, 1.5, -0.875);
  test::ExpectVec(scl(b2, 2), 1.75, 1, -0.75);
  test::ExpectVec(scl(b2, 3), 0.75, 1, -1.25);
  EXPECT_TRUE(b2.translation.empty());
  expect(rot(b2, 2), Mp2Rotation(1, -2, 0, true));
  expect(rot(b2, 3), Mp2Rotation(0, -1, 1, false));
}

TEST(MetroidAnimMp2, Version2KeyCountsAndErrorsWithOffsets) {
  // Bone 2's counts: 2 (set bits - 1) as well as 3 (set bits); kept verbatim.
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, GoldenEchoesV2(2));
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, GoldenEchoesV2(3));
  // Descriptor 2 starts at 0x3A + 25 + 7 = 0x5A; its rotation count at 0x5B.
  Has(test::ReadError(kMetroidAnimFormat, GoldenEchoesV2(4)),
      "offset 0x5b: descriptor 2 (bone 2) has 4 rotation keys but the key bitmap's 3 set bits call for 0 (none), "
      "2 (set bits - 1) or 3 (read as a Metroid Prime 2: Echoes bit-packed ANIM");
  const auto put32 = [](Bytes b, size_t at, uint32_t v) {
    b[at] = uint8_t(v >> 24), b[at + 1] = uint8_t(v >> 16), b[at + 2] = uint8_t(v >> 8), b[at + 3] = uint8_t(v);
    return b;
  };
  Has(test::ReadError(kMetroidAnimFormat, put32(GoldenEchoesV2(), 0x1A, 0)), "offset 0x1a: the rotation divisor is 0");
  Has(test::ReadError(kMetroidAnimFormat, put32(GoldenEchoesV2(), 0x36, 0x10000000)),
      "offset 0x3a: bone channel descriptors: count 268435456");
  Has(test::ReadError(kMetroidAnimFormat, put32(GoldenEchoesV2(), 0x2E, 0xFFFFFFF0)), "offset 0x32: key bitmap: count");
  Bytes bad = GoldenEchoesV2();
  bad[0x3F] = 40;  // bone 0's rotation X width
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x3f: descriptor 0 (bone 0) rotation bit width 40 exceeds 32");
  bad = GoldenEchoesV2();
  bad.resize(bad.size() - 4);
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x73: the key bitstream needs 0xc bytes (2 delta keys of 3 channels)");
  test::ExpectEveryTruncationFails(kMetroidAnimFormat, GoldenEchoesV2());
  test::ExpectEveryByteCorruptionHandled(kMetroidAnimFormat, GoldenEchoesV2(), 0x73);
}

// Version 0, two frames: bones 0, 1, 5 on channels 0, 1, 2. Rotation flags 0, 1, -1
// (channel 2 has none); translation indices -1, 0, 1; scale indices 0, -1, 1 (2 per frame).
// Offsets: 0x1C bone table (100), 0x84 rotation flags, 0x8B translation, 0x92 scale,
// 0x99 scales (4, frame-major), 0xCD quaternions (4), 0x111 translations (4), 0x145 padding.
Bytes GoldenEchoesV0() {
  ByteWriter w(Endian::Big);
  w.U32(0);
  w.F32(0.05f), w.U32(0), w.F32(0.05f), w.U32(0);
  w.U32(2);  // frames
  w.U32(0);  // root bone
  Bytes bones(100, 0xFF);
  bones[0] = 0, bones[1] = 1, bones[5] = 2;
  w.U32(100), w.Append(bones);
  w.U32(3), w.Append(Bytes{0, 1, 0xFF});
  w.U32(3), w.Append(Bytes{0xFF, 0, 1});
  w.U32(3), w.Append(Bytes{0, 0xFF, 1});
  w.U32(4);
  for (float v : {1.f, 1.f, 1.f, 2.f, 2.f, 2.f, 1.f, 2.f, 3.f, 0.5f, 0.5f, 0.5f}) w.F32(v);
  const float h = float(std::sqrt(0.5));
  w.U32(4);  // w, x, y, z: channel 0 frames 0, 1; channel 1 frames 0, 1
  for (float v : {1.f, 0.f, 0.f, 0.f, h, h, 0.f, 0.f, 0.f, 0.f, 1.f, 0.f, h, 0.f, 0.f, h}) w.F32(v);
  w.U32(4);
  for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, -1.f, 0.f, 0.f, 0.f, -1.f, 0.f}) w.F32(v);
  w.Append(Bytes{0xFF, 0xFF, 0xFF});
  return w.Take();
}

TEST(MetroidAnimMp2, DecodesVersion0) {
  const AnimFile f = ParseAnim(GoldenEchoesV0());
  ASSERT_EQ(f.game, Game::Echoes);
  const EchoesAnimV0& a = f.echoes_v0;
  EXPECT_EQ(a.frame_count, 2u);
  EXPECT_EQ(a.Channels(), 3u);
  EXPECT_EQ(a.ScalesPerFrame(), 2u);
  EXPECT_EQ(a.trailing.size(), 3u);
  DecodeSettings names;
  names.names = {{5, "tail"}};
  const Clip clip = DecodeAnim(f, names);
  ASSERT_EQ(clip.tracks.size(), 3u);
  const float h = float(std::sqrt(0.5));
  const JointTrack &c0 = clip.tracks[0], &c1 = clip.tracks[1], &c2 = clip.tracks[2];
  EXPECT_EQ(c0.joint, "#0");
  EXPECT_EQ(c2.joint, "tail");
  test::ExpectQuat(c0.rotation.values[0], 0, 0, 0, 1);
  test::ExpectQuat(c0.rotation.values[1], h, 0, 0, h);
  EXPECT_TRUE(c0.translation.empty());
  test::ExpectVec(c0.scale.values[1], 1, 2, 3);  // frame 1, scale index 0: entry 1 x 2 + 0
  test::ExpectQuat(c1.rotation.values[0], 0, 1, 0, 0);
  test::ExpectQuat(c1.rotation.values[1], 0, 0, h, h);
  test::ExpectVec(c1.translation.values[1], 4, 5, 6);
  EXPECT_TRUE(c1.scale.empty());
  EXPECT_TRUE(c2.rotation.empty());
  test::ExpectVec(c2.translation.values[0], -1, 0, 0);
  test::ExpectVec(c2.scale.values[0], 2, 2, 2);
  test::ExpectVec(c2.scale.values[1], 0.5, 0.5, 0.5);
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, GoldenEchoesV0());
  test::ExpectEveryTruncationFails(kMetroidAnimFormat, GoldenEchoesV0(), [](size_t n) { return n >= 0x145; });
}

TEST(MetroidAnimMp2, Version0CorruptedCountsFitNeitherLayout) {
  Bytes bad = GoldenEchoesV0();
  bad[0x99 + 3] = 5;  // scale count 5
  const std::string e = test::ReadError(kMetroidAnimFormat, bad);
  Has(e, "fits neither Metroid Prime's layout (");
  Has(e, "nor Echoes' (offset 0x99: scale count 5 should be 2 channels x 2 frames = 4)");
  bad = GoldenEchoesV0();
  bad[0x20 + 5] = 7;  // bone 5 -> channel 7 of 3
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x25: bone 5 names channel 7, but the rotation flag table has 3 channels");
  bad = GoldenEchoesV0();
  bad[0xCD + 3] = 6;
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0xcd: quaternion count 6 should be 2 channels x 2 frames = 4");
  test::ExpectEveryByteCorruptionHandled(kMetroidAnimFormat, GoldenEchoesV0(), 0x9D);
}

Bytes Mp2ZeroFile() {  // version 0, 0 frames, then seven zero words: both layouts read it
  ByteWriter w(Endian::Big);
  for (int i = 0; i < 14; ++i) w.U32(0);
  return w.Take();
}

std::unique_ptr<Document> Mp2Read(ByteView data, const std::string& game) {
  ReadContext c;
  SetOption(c.options, "metroid-game", game);
  return kMetroidAnimFormat.read(data, c);
}

TEST(MetroidAnimMp2, DispatchByLayoutOrOption) {
  // Echoes' version 0 fits only Echoes' layout; Metroid Prime's sample only Metroid Prime's.
  EXPECT_TRUE(Mp2Read(GoldenEchoesV0(), "auto")->Warnings().empty());
  EXPECT_EQ(Mp2Read(GoldenEchoesV0(), "auto")->Info()["game"], 2);
  EXPECT_EQ(Mp2Read(GoldenEchoesV0(), "2")->Info()["game"], 2);
  EXPECT_THROW(Mp2Read(GoldenEchoesV0(), "1"), Error);
  const Bytes prime = ReadFileBytes(test::SourcePath("samples/metroid_anim/hologram_v0.anim"));
  EXPECT_EQ(Mp2Read(prime, "auto")->Info()["game"], 1);
  EXPECT_THROW(Mp2Read(prime, "2"), Error);
  // Bit-packed: the header says; the option can force a layout that then does not fit.
  EXPECT_EQ(Mp2Read(GoldenEchoesV2(), "auto")->Info()["game"], 2);
  EXPECT_THROW(Mp2Read(GoldenEchoesV2(), "1"), Error);
  // Both fit: the layout with fewer trailing bytes (Echoes' reads all 14 words), with a warning.
  const auto both = Mp2Read(Mp2ZeroFile(), "auto");
  EXPECT_EQ(both->Info()["game"], 2);
  ASSERT_EQ(both->Warnings().size(), 1u);
  Has(both->Warnings()[0], "fits both Metroid Prime's and Echoes' layouts; read as Echoes'");
  const auto as_prime = Mp2Read(Mp2ZeroFile(), "1");
  EXPECT_EQ(as_prime->Info()["game"], 1);
  EXPECT_EQ(as_prime->Info()["trailing_bytes"], 8);
  EXPECT_TRUE(as_prime->Warnings().empty());
  EXPECT_EQ(as_prime->Write(), Mp2ZeroFile());
}

TEST(MetroidAnimMp2, WarnsWhenTheFirstDescriptorHasNoRotation) {
  // The golden file with bone 1's empty descriptor first: the game would size the
  // bitstream by its rotation count (0).
  const AnimFile golden = ParseAnim(GoldenEchoesV2());
  AnimFile swapped = golden;
  std::swap(swapped.echoes_v2.descriptors[0], swapped.echoes_v2.descriptors[1]);
  std::vector<std::string> warnings;
  (void)ParseAnim(SerializeAnim(swapped), std::nullopt, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  Has(warnings[0], "descriptor 0 (bone 1) has no rotation part");
  warnings.clear();
  (void)ParseAnim(GoldenEchoesV2(), std::nullopt, &warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST(MetroidAnimMp2, ProbeKnowsTheEchoesHeader) {
  EXPECT_EQ(Detect(GoldenEchoesV2(), "x.bin").format, &kMetroidAnimFormat);
  EXPECT_EQ(Detect(GoldenEchoesV0(), "x.anim").format, &kMetroidAnimFormat);
}

}  // namespace
}  // namespace animkit
