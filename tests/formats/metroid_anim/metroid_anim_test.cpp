#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kMetroidAnimFormat;
extern const FormatDescriptor kMetroidCinfFormat;
namespace {

using namespace metroid;

// Packs (value, width) fields LSB-first into 32-bit words written big-endian, as the
// format description states; independent of the reader under test.
Bytes PackBits(const std::vector<std::pair<int32_t, int>>& fields) {
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

// Version 2 header per the corrected layout: 0x00 version, 0x04 scratch, 0x08 EVNT,
// 0x0C 1, 0x10 duration, 0x14 interval, 0x18 root bone, 0x1C looping, 0x20 divisor,
// 0x24 multiplier, 0x28 channel count, 0x2C 1, 0x30 bitmap bits, 0x34 bitmap words.
ByteWriter V2Header(uint32_t divisor, float multiplier, uint32_t channels, uint32_t bits, std::vector<uint32_t> words) {
  ByteWriter w(Endian::Big);
  w.U32(2);
  w.U32(0x1234);
  w.U32(0xCAFEBABE);
  w.U32(1);
  w.F32(0.2f);
  w.F32(0.05f);
  w.U32(3);
  w.U32(1);
  w.U32(divisor);
  w.F32(multiplier);
  w.U32(channels);
  w.U32(1);
  w.U32(bits);
  for (uint32_t x : words) w.U32(x);
  w.U32(channels);  // ignored repeat
  return w;
}

// A version-2 ANIM of one channel without translation: bone `bone` with `keys` rotation keys,
// initial X, Y, Z each with its delta width, then the key bitstream.
struct Initial {
  int16_t value;
  uint8_t bits;
};
Bytes OneChannelV2(uint32_t divisor, uint32_t frames, std::vector<uint32_t> bitmap, uint32_t bone, uint16_t keys,
                   const std::array<Initial, 3>& rotation, const Bytes& stream) {
  ByteWriter w = V2Header(divisor, 1, 1, frames, std::move(bitmap));
  w.U32(1);  // descriptor count
  w.U32(bone);
  w.U16(keys);
  for (const Initial& i : rotation) w.I16(i.value), w.U8(i.bits);
  w.U16(0);  // no translation keys
  w.Append(stream);
  return w.Take();
}

// Five frames, keys on frames 0, 2 and 3 (bitmap 0b01101); two channels:
// bone 3 with translation, rotation widths 1/24/3 and translation widths 2/5/8;
// bone 7 without translation, rotation widths 4/4/4. Key counts: `keys` in every
// descriptor (2 = set bits - 1, the game's count; 3 = the set bits, other writers').
Bytes GoldenV2(uint16_t keys = 2) {
  ByteWriter w = V2Header(0x7FFF, 0.5f, 2, 5, {0b01101});
  w.U32(2);  // descriptor count
  w.U32(3);
  w.U16(keys);
  w.I16(100), w.U8(1), w.I16(200), w.U8(24), w.I16(-300), w.U8(3);
  w.U16(keys);
  w.I16(10), w.U8(2), w.I16(-20), w.U8(5), w.I16(30), w.U8(8);
  w.U32(7);
  w.U16(keys);
  w.I16(0), w.U8(4), w.I16(1000), w.U8(4), w.I16(2000), w.U8(4);
  w.U16(0);
  const Bytes stream = PackBits({
      // key 1: bone 3
      {0, 1}, {-1, 1}, {-5000, 24}, {3, 3}, {1, 2}, {-16, 5}, {127, 8},
      // key 1: bone 7
      {1, 1}, {7, 4}, {-8, 4}, {0, 4},
      // key 2: bone 3
      {1, 1}, {0, 1}, {20000, 24}, {-4, 3}, {-2, 2}, {15, 5}, {-128, 8},
      // key 2: bone 7
      {0, 1}, {-1, 4}, {1, 4}, {5, 4},
  });
  w.Append(stream);
  return w.Take();
}

QuatXYZW FromTotals(double x, double y, double z, bool neg, double divisor) {
  const double q = std::numbers::pi / 2 / divisor;
  const double sx = std::sin(x * q), sy = std::sin(y * q), sz = std::sin(z * q);
  double w = std::sqrt(std::max(0.0, 1 - sx * sx - sy * sy - sz * sz));
  return {float(sx), float(sy), float(sz), float(neg ? -w : w)};
}

void ExpectQuatNear(QuatXYZW a, QuatXYZW b, double tol = 2e-6) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
  EXPECT_NEAR(a.w, b.w, tol);
}

TEST(MetroidAnim, ParsesGoldenVersion2Header) {
  const Bytes data = GoldenV2();
  EXPECT_EQ(data.size(), 0x38u + 8 + 26 + 17 + 16);  // 114 stream bits -> 4 words
  const AnimFile f = ParseAnim(data);
  ASSERT_EQ(f.version, 2u);
  const AnimV2& a = f.v2;
  EXPECT_EQ(a.scratch_size, 0x1234u);
  EXPECT_EQ(a.evnt_id, 0xCAFEBABEu);
  EXPECT_FLOAT_EQ(a.duration, 0.2f);
  EXPECT_FLOAT_EQ(a.interval, 0.05f);
  EXPECT_EQ(a.root_bone, 3u);
  EXPECT_EQ(a.looping, 1u);
  EXPECT_EQ(a.rotation_divisor, 0x7FFFu);
  EXPECT_FLOAT_EQ(a.translation_multiplier, 0.5f);
  EXPECT_EQ(a.bitmap_bits, 5u);
  EXPECT_EQ(a.KeyedFrames(), 3u);
  ASSERT_EQ(a.descriptors.size(), 2u);
  EXPECT_EQ(a.descriptors[0].byte_size(), 26u);
  EXPECT_EQ(a.descriptors[1].byte_size(), 17u);
  EXPECT_EQ(a.descriptors[0].rotation_bits, (std::array<uint8_t, 3>{1, 24, 3}));
  EXPECT_EQ(a.descriptors[0].translation_initial, (std::array<int16_t, 3>{10, -20, 30}));
  EXPECT_FALSE(a.descriptors[1].has_translation());
  EXPECT_EQ(a.bitstream.size(), 16u);
}

TEST(MetroidAnim, UnpacksGoldenBitstream) {
  const auto ch = UnpackV2(ParseAnim(GoldenV2()).v2);
  ASSERT_EQ(ch.size(), 2u);
  ASSERT_EQ(ch[0].rotation.size(), 3u);
  // Running totals: initial + deltas.
  EXPECT_EQ(ch[0].rotation[1], (std::array<int16_t, 3>{99, -4800, -297}));
  EXPECT_EQ(ch[0].rotation[2], (std::array<int16_t, 3>{99, 15200, -301}));
  EXPECT_EQ(ch[0].translation[1], (std::array<int16_t, 3>{11, -36, 157}));
  EXPECT_EQ(ch[0].translation[2], (std::array<int16_t, 3>{9, -21, 29}));
  EXPECT_EQ(ch[0].w_negative, (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(ch[1].rotation[1], (std::array<int16_t, 3>{7, 992, 2000}));
  EXPECT_EQ(ch[1].rotation[2], (std::array<int16_t, 3>{6, 993, 2005}));
  EXPECT_EQ(ch[1].w_negative, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_TRUE(ch[1].translation.empty());
  EXPECT_EQ(KeyComponents(ParseAnim(GoldenV2()).v2), 2u * (6 + 3));
}

TEST(MetroidAnim, KeyCountIsDeltaKeysOrSetBitsAndKeptVerbatim) {
  // The game's count (set bits - 1 = 2) and the set bits (3) both decode by the bitmap
  // to the same keys, and each writes back to its own bytes.
  const Bytes game = GoldenV2(2), other = GoldenV2(3);
  EXPECT_EQ(ParseAnim(game).v2.descriptors[0].rotation_keys, 2u);
  EXPECT_EQ(ParseAnim(other).v2.descriptors[1].rotation_keys, 3u);
  EXPECT_EQ(SerializeAnim(ParseAnim(game)), game);
  EXPECT_EQ(SerializeAnim(ParseAnim(other)), other);
  const auto a = UnpackV2(ParseAnim(game).v2), b = UnpackV2(ParseAnim(other).v2);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(a[c].rotation, b[c].rotation);
    EXPECT_EQ(a[c].translation, b[c].translation);
    EXPECT_EQ(a[c].w_negative, b[c].w_negative);
  }
  // Mixed counts (one descriptor each way) are accepted too: each is checked on its own.
  Bytes mixed = GoldenV2(2);
  mixed[0x40 + 26 + 4 + 1] = 3;
  EXPECT_EQ(SerializeAnim(ParseAnim(mixed)), mixed);
}

TEST(MetroidAnim, ThirtyTwoBitDeltasWrapLikeTheGame) {
  // One channel, two keys (bitmap 0b11), rotation widths 32/1/1, no translation.
  // Initial X = -10182 (0xD83A); delta = -2147482553 (0x80000447). The game adds in 32
  // bits and keeps the low 16: (0xFFFFD83A + 0x80000447) & 0xFFFF = 0xDC81 = -9087.
  const Bytes data = OneChannelV2(0x7FFF, 2, {0b11}, 3, 1, {{{-10182, 32}, {5, 1}, {-5, 1}}},
                                  PackBits({{0, 1}, {int32_t(-2147482553), 32}, {-1, 1}, {0, 1}}));
  const auto ch = UnpackV2(ParseAnim(data).v2);
  ASSERT_EQ(ch.size(), 1u);
  ASSERT_EQ(ch[0].rotation.size(), 2u);
  EXPECT_EQ(ch[0].rotation[1], (std::array<int16_t, 3>{-9087, 4, -5}));
  // The same with the largest positive delta: 0x7FFFFFFF + 0x7FFF wraps to 0x7FFE.
  const Bytes wrapped = OneChannelV2(0x7FFF, 2, {0b11}, 3, 1, {{{0x7FFF, 32}, {0, 1}, {0, 1}}},
                                     PackBits({{0, 1}, {0x7FFFFFFF, 32}, {0, 1}, {0, 1}}));
  EXPECT_EQ(UnpackV2(ParseAnim(wrapped).v2)[0].rotation[1], (std::array<int16_t, 3>{0x7FFE, 0, 0}));
  (void)DecodeAnim(ParseAnim(data), {});
}

TEST(MetroidAnim, DecodesGoldenFramesKeyedAndInterpolated) {
  const Clip clip = DecodeAnim(ParseAnim(GoldenV2()), {});
  EXPECT_EQ(clip.frame_count, 5u);
  EXPECT_DOUBLE_EQ(clip.frame_rate, 20.0);
  EXPECT_TRUE(clip.loop);
  ASSERT_EQ(clip.tracks.size(), 2u);
  EXPECT_EQ(clip.tracks[0].joint, "#3");
  EXPECT_EQ(clip.tracks[1].joint, "#7");
  const auto& t0 = clip.tracks[0];
  // Every frame, keyed or interpolated, as the sampler gives it.
  auto rot = [&](const JointTrack& t, size_t f) { return SampleTrack(t.rotation, FrameTime(f, 20)); };
  auto pos = [&](const JointTrack& t, size_t f) { return SampleTrack(t.translation, FrameTime(f, 20)); };
  const QuatXYZW k0 = FromTotals(100, 200, -300, false, 0x7FFF);
  const QuatXYZW k1 = FromTotals(99, -4800, -297, false, 0x7FFF);
  const QuatXYZW k2 = FromTotals(99, 15200, -301, true, 0x7FFF);
  ExpectQuatNear(rot(t0, 0), k0);
  ExpectQuatNear(rot(t0, 2), k1);  // key 1 sits on the second set bit (frame 2)
  ExpectQuatNear(rot(t0, 3), k2);
  ExpectQuatNear(rot(t0, 4), k2);  // after the last key: held
  // Frame 1: halfway between frames 0 and 2, slerp.
  const double d = double(k0.x) * k1.x + double(k0.y) * k1.y + double(k0.z) * k1.z + double(k0.w) * k1.w;
  const double th = std::acos(d), s = std::sin(th) ;
  const double wa = std::sin(0.5 * th) / s;
  const QuatXYZW mid{float(wa * (k0.x + k1.x)), float(wa * (k0.y + k1.y)), float(wa * (k0.z + k1.z)), float(wa * (k0.w + k1.w))};
  ExpectQuatNear(rot(t0, 1), mid);
  // Translations: totals x 0.5, lerped on frame 1.
  EXPECT_EQ(pos(t0, 0), (Vec3{5, -10, 15}));
  EXPECT_EQ(pos(t0, 1), (Vec3{5.25f, -14, 46.75f}));
  EXPECT_EQ(pos(t0, 2), (Vec3{5.5f, -18, 78.5f}));
  EXPECT_EQ(pos(t0, 3), (Vec3{4.5f, -10.5f, 14.5f}));
  EXPECT_TRUE(clip.tracks[1].translation.empty());
  ExpectQuatNear(rot(clip.tracks[1], 3), FromTotals(6, 993, 2005, false, 0x7FFF));
}

TEST(MetroidAnim, GameSlerpTakesTheLongWayOnNegativeDot) {
  // One channel, divisor 3, rotation widths 1: key 1 = totals (-1, 0, -1) with W negative.
  const Bytes data = OneChannelV2(3, 3, {0b101}, 0, 2, {{{0, 1}, {0, 1}, {0, 1}}},
                                  Bytes{0x00, 0x00, 0x00, 0x0B});  // bits 1,1,0,1: W sign 1, x -1, y 0, z -1
  const Clip clip = DecodeAnim(ParseAnim(data), {});
  const auto& track = clip.tracks.at(0);
  std::vector<QuatXYZW> r;
  for (size_t f = 0; f < 3; ++f) r.push_back(SampleTrack(track.rotation, FrameTime(f, 20)));
  ExpectQuatNear(r[2], {-0.5f, 0, -0.5f, -float(std::sqrt(0.5))});
  // Identity to (-0.5, 0, -0.5, -0.7071): dot -0.7071, so the game's slerp passes
  // through the far side: the halfway quaternion is normalize(k0 + k1) with the long arc.
  const double th = std::acos(-std::sqrt(0.5)), wa = std::sin(0.5 * th) / std::sin(th);
  QuatXYZW mid{float(wa * -0.5), 0, float(wa * -0.5), float(wa * (1 - std::sqrt(0.5)))};
  ExpectQuatNear(r[1], mid, 1e-5);
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, data);
}

TEST(MetroidAnim, SparseBitmapDecodesToKeysNotFrames) {
  // 131072 frames, keys on the first and the last: the clip holds keys, not a value per frame.
  std::vector<uint32_t> words(4096, 0);
  words.front() = 1, words.back() = 0x80000000u;
  // Key 1: 90 degrees about X.
  const Bytes sparse = OneChannelV2(0x7FFF, 131072, words, 9, 2, {{{0, 16}, {0, 1}, {0, 1}}},
                                    PackBits({{0, 1}, {16383, 16}, {0, 1}, {0, 1}}));
  const Clip clip = DecodeAnim(ParseAnim(sparse), {});
  EXPECT_EQ(clip.frame_count, 131072u);
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_LE(clip.tracks[0].rotation.size(), 3u);
  // Halfway: 45 degrees about X (slerp between identity and 90 degrees).
  const QuatXYZW mid = SampleTrack(clip.tracks[0].rotation, FrameTime(65536, 20));
  const QuatXYZW end = FromTotals(16383, 0, 0, false, 0x7FFF);
  const double half = std::atan2(double(end.x), double(end.w)) / 2;
  ExpectQuatNear(mid, {float(std::sin(half)), 0, 0, float(std::cos(half))}, 1e-4);
}

// Version 0 per the notes: 0x04 duration, 0x08 u32, 0x0C interval, 0x10 u32, 0x14 frames,
// 0x18 root bone, 0x1C bone table size, table, translation table, quaternions (w,x,y,z),
// translations, EVNT id. table_size entries; bones 1 and 4 animated, bone 4 translated.
Bytes GoldenV0(uint32_t table_size = 100) {
  ByteWriter w(Endian::Big);
  w.U32(0);
  w.F32(1.0f / 15);
  w.U32(0);
  w.F32(1.0f / 30);
  w.U32(0);
  w.U32(3);  // frames
  w.U32(3);
  w.U32(table_size);
  for (uint32_t b = 0; b < table_size; ++b) w.U8(b == 1 ? 1 : b == 4 ? 0 : 0xFF);
  w.U32(2);
  w.U8(0), w.U8(0xFF);  // channel 0 (bone 4) -> translation 0; channel 1 none
  w.U32(6);
  for (int c = 0; c < 2; ++c)
    for (int f = 0; f < 3; ++f) {
      const float h = float(std::sqrt(0.5));
      if (c == 0) w.F32(1), w.F32(0), w.F32(0), w.F32(0);
      else if (f == 0) w.F32(h), w.F32(h), w.F32(0), w.F32(0);
      else w.F32(0), w.F32(0), w.F32(1), w.F32(0);
    }
  w.U32(3);
  for (int f = 0; f < 3; ++f) w.F32(float(f)), w.F32(-2), w.F32(0.5f);
  w.U32(0xABCD0001);
  return w.Take();
}

TEST(MetroidAnim, DecodesGoldenVersion0) {
  const AnimFile f = ParseAnim(GoldenV0());
  ASSERT_EQ(f.version, 0u);
  EXPECT_EQ(f.v0.frame_count, 3u);
  EXPECT_EQ(f.v0.bone_table.size(), 100u);
  EXPECT_EQ(f.v0.evnt_id, 0xABCD0001u);
  DecodeSettings names;
  names.names = {{4, "hips"}};
  const Clip clip = DecodeAnim(f, names);
  EXPECT_DOUBLE_EQ(clip.frame_rate, 30.0);
  ASSERT_EQ(clip.tracks.size(), 2u);
  EXPECT_EQ(clip.tracks[0].joint, "hips");  // channel 0
  EXPECT_EQ(clip.tracks[1].joint, "#1");
  ExpectQuatNear(clip.tracks[0].rotation.values[2], {0, 0, 0, 1});
  ExpectQuatNear(clip.tracks[1].rotation.values[0], {float(std::sqrt(0.5)), 0, 0, float(std::sqrt(0.5))});
  ExpectQuatNear(clip.tracks[1].rotation.values[1], {0, 1, 0, 0});
  EXPECT_EQ(clip.tracks[0].translation.values[2], (Vec3{2, -2, 0.5f}));
  EXPECT_TRUE(clip.tracks[1].translation.empty());
}

TEST(MetroidAnim, Version0AcceptsOtherBoneTableSizes) {
  for (uint32_t size : {5u, 50u, 150u, 256u}) {
    const Bytes data = GoldenV0(size);
    EXPECT_EQ(ParseAnim(data).v0.bone_table.size(), size);
    test::ExpectByteExactRoundTrip(kMetroidAnimFormat, data);
  }
}

TEST(MetroidAnim, WritesBackByteForByte) {
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, GoldenV2());
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, GoldenV0());
  for (const char* s : {"metroid_anim/run.anim", "metroid_anim/hologram_v0.anim"}) {
    test::ExpectByteExactRoundTrip(kMetroidAnimFormat, ReadFileBytes(test::SourcePath(std::string("samples/") + s)));
  }
}

TEST(MetroidAnim, EveryTruncationFails) {
  test::ExpectEveryTruncationFails(kMetroidAnimFormat, GoldenV2());
  test::ExpectEveryTruncationFails(kMetroidAnimFormat, GoldenV0());
  test::ExpectEveryTruncationFails(kMetroidAnimFormat, ReadFileBytes(test::SourcePath("samples/metroid_anim/run.anim")));
  test::ExpectEveryTruncationFails(kMetroidAnimFormat,
                                   ReadFileBytes(test::SourcePath("samples/metroid_anim/hologram_v0.anim")));
}

void Put32(Bytes& b, size_t at, uint32_t v) {
  b[at] = uint8_t(v >> 24), b[at + 1] = uint8_t(v >> 16), b[at + 2] = uint8_t(v >> 8), b[at + 3] = uint8_t(v);
}

bool Has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  ADD_FAILURE() << "'" << text << "' lacks '" << part << "'";
  return false;
}

TEST(MetroidAnim, MalformedVersion2GivesErrorsWithOffsets) {
  Bytes bad = GoldenV2();
  Put32(bad, 0x20, 0);
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x20: the rotation divisor is 0");

  bad = GoldenV2();
  Put32(bad, 0x3C, 0x10000000);  // descriptor count
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x40: bone channel descriptors: count 268435456");

  bad = GoldenV2();
  Put32(bad, 0x30, 0xFFFFFFF0);  // bitmap bits far beyond the file
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x34: key bitmap: count 134217728");

  // Descriptor 1 starts at 0x40 + 26 = 0x5A; its rotation key count is at 0x5E.
  for (uint8_t keys : {1, 4}) {
    bad = GoldenV2();
    bad[0x40 + 26 + 4 + 1] = keys;  // the bitmap's 3 set bits allow 2 or 3
    Has(test::ReadError(kMetroidAnimFormat, bad),
        "offset 0x5e: descriptor 1 (bone 7) has " + std::to_string(keys) +
            " rotation keys but the key bitmap's 3 set bits call for 2 (set bits - 1, the game's count) or 3");
  }

  bad = GoldenV2();
  bad[0x40 + 15 + 1] = 1;  // bone 3 translation key count 1 (at 0x40 + 15 = 0x4F)
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x4f: descriptor 0 (bone 3) has 1 translation keys but");

  bad = GoldenV2();
  Put32(bad, 0x34, 0b11101);  // one more set bit: the stream is too short for 3 delta keys
  bad[0x40 + 5] = 3, bad[0x40 + 16] = 3, bad[0x40 + 26 + 5] = 3;
  // 3 delta keys x (1 + 28 + 15 + 1 + 12 bits) = 171 bits = 6 words; the file has 4.
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x6b: the key bitstream needs 0x18 bytes");

  bad = GoldenV2();
  bad[0x40 + 26 + 8] = 40;  // width beyond 32
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x62: descriptor 1 rotation bit width 40 exceeds 32");

  test::ExpectEveryByteCorruptionHandled(kMetroidAnimFormat, GoldenV2(), 0x6B);
}

TEST(MetroidAnim, MalformedVersion0GivesErrorsWithOffsets) {
  Bytes bad = GoldenV0();
  Put32(bad, 0x1C, 300);
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x1c: bone table of 300 entries");
  bad = GoldenV0(200);
  bad.resize(0x20 + 150);
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x20: bone table: count 200");
  bad = GoldenV0();
  Put32(bad, 0x20 + 100 + 6, 7);  // quaternion count
  Has(test::ReadError(kMetroidAnimFormat, bad), "offset 0x8a: quaternion count 7 should be 2 channels x 3 frames = 6");
  bad = GoldenV0();
  Put32(bad, 0x20 + 100 + 6 + 4 + 96, 0x7FFFFFFF);
  Has(test::ReadError(kMetroidAnimFormat, bad), "translation count 2147483647 should be 1 channels x 3 frames = 3");
  test::ExpectEveryByteCorruptionHandled(kMetroidAnimFormat, GoldenV0(), 0x20);
}

TEST(MetroidAnim, LaterGamesAreNamedAndRejected) {
  Bytes echoes = GoldenV2();
  echoes[8] = 0x01, echoes[9] = 0x01;
  Has(test::ReadError(kMetroidAnimFormat, echoes), "offset 0x8: this is a Metroid Prime 2: Echoes compressed ANIM");
  Bytes v3 = GoldenV2();
  Put32(v3, 0, 3);
  Has(test::ReadError(kMetroidAnimFormat, v3), "Metroid Prime 3: Corruption");
  // Uncompressed Echoes: rotation, translation and scale index tables from 0x1C.
  ByteWriter w(Endian::Big);
  for (int i = 0; i < 7; ++i) w.U32(i == 5 ? 2 : 0);
  for (int t = 0; t < 3; ++t) {
    w.U32(4);
    w.Append(Bytes{0, 1, 0xFF, 0xFF});
  }
  w.U32(0);
  w.Fill(40, 0x11);
  Has(test::ReadError(kMetroidAnimFormat, w.Take()), "Metroid Prime 2: Echoes uncompressed ANIM");
}

TEST(MetroidAnim, ProbeRecognisesBothVersions) {
  EXPECT_EQ(Detect(GoldenV2(), "x.bin").format, &kMetroidAnimFormat);
  EXPECT_EQ(Detect(GoldenV0(), "x.anim").format, &kMetroidAnimFormat);
}

// ---------------------------------------------------------------- encoder

Clip SmoothClip(size_t frames, double rate) {
  Clip clip;
  clip.name = "smooth";
  clip.SetFrames(frames, rate);
  for (int j = 0; j < 6; ++j) {
    JointTrack t;
    t.joint = "#" + std::to_string(3 + j);
    for (size_t f = 0; f < frames; ++f) {
      const float time = FrameTime(f, rate);
      const float a = 1.3f * time + 0.7f * float(j);
      t.rotation.Add(time, QuatFromEuler({0.6f * std::sin(a), 0.3f * std::cos(0.5f * a), 0.2f * j}, EulerOrder::XYZ));
      if (j < 2) {
        t.translation.Add(time, {2 * std::sin(a), 0.5f + 0.3f * std::cos(a), float(j)});
      }
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

// Largest errors over every frame between a source clip and a decoded one.
std::pair<double, double> MaxErrors(const Clip& src, const Clip& got) {
  double er = 0, ep = 0;
  for (size_t j = 0; j < src.tracks.size(); ++j) {
    const JointTrack* g = got.FindTrack(src.tracks[j].joint);
    EXPECT_NE(g, nullptr) << src.tracks[j].joint;
    if (!g) continue;
    for (size_t f = 0; f < src.frame_count; ++f) {
      const Seconds t = FrameTime(f, src.frame_rate);
      er = std::max(er, AngleBetween(SampleTrack(src.tracks[j].rotation, t), SampleTrack(g->rotation, t)));
      if (!src.tracks[j].translation.empty()) {
        const Vec3 a = SampleTrack(src.tracks[j].translation, t), b = SampleTrack(g->translation, t);
        ep = std::max(ep, double(std::hypot(a.x - b.x, a.y - b.y, a.z - b.z)));
      }
    }
  }
  return {er, ep};
}

TEST(MetroidAnimEncoder, SparseKeysBeatEveryFrameWithinTolerance) {
  const Clip source = SmoothClip(240, 60);
  EncodeSettings s;
  EncodeReport r;
  const Bytes bytes = SerializeAnim(EncodeAnim(source, s, &r));
  EXPECT_EQ(r.bytes, bytes.size());
  EXPECT_LT(r.keyed_frames, r.frames);
  // The claim: at least 25% smaller than keying every frame.
  EXPECT_LE(double(r.bytes), 0.75 * double(r.every_frame_bytes)) << r.bytes << " vs " << r.every_frame_bytes;
  // Tolerances: 0.001 rad and 0.001 x the translation range (x spans 4 units here).
  EXPECT_DOUBLE_EQ(r.tolerance_rot, 0.001);
  EXPECT_NEAR(r.tolerance_pos, 0.004, 1e-4);
  // Measured independently on the decoded file.
  const auto [er, ep] = MaxErrors(source, DecodeAnim(ParseAnim(bytes), {}));
  EXPECT_LE(er, 0.001 + 1e-6);
  EXPECT_LE(ep, r.tolerance_pos + 1e-6);
  EXPECT_NEAR(er, r.max_error_rot, 1e-5);
  EXPECT_NEAR(ep, r.max_error_pos, 1e-5);
  std::cout << "[ sizes  ] " << r.bytes << " bytes with " << r.keyed_frames << " of " << r.frames
            << " frames keyed; every frame: " << r.every_frame_bytes << " bytes; max error " << er << " rad, " << ep
            << " units\n";
}

TEST(MetroidAnimEncoder, QuantizationChoices) {
  const Clip source = SmoothClip(30, 30);
  EncodeSettings s;
  s.max_error_rot = 0;  // keep every frame
  s.max_error_pos = 0;
  const AnimFile f = EncodeAnim(source, s);
  const AnimV2& a = f.v2;
  EXPECT_EQ(a.rotation_divisor, 0x7FFFu);
  EXPECT_EQ(a.KeyedFrames(), 30u);
  // Translation totals reach but do not pass int16: the largest |value| maps to about 32767.
  int peak = 0;
  for (const auto& ch : UnpackV2(a))
    for (const auto& t : ch.translation)
      for (int16_t v : t) peak = std::max(peak, std::abs(int(v)));
  EXPECT_GE(peak, 32700);
  EXPECT_LE(peak, 32767);
  // Consecutive keys have a non-negative dot, and widths are the smallest that hold the deltas.
  const auto ch = UnpackV2(a);
  for (size_t c = 0; c < ch.size(); ++c) {
    const Descriptor& d = a.descriptors[c];
    for (int i = 0; i < 3; ++i) {
      int lo = 0, hi = 0;
      for (size_t k = 1; k < ch[c].rotation.size(); ++k) {
        const int delta = ch[c].rotation[k][i] - ch[c].rotation[k - 1][i];
        lo = std::min(lo, delta), hi = std::max(hi, delta);
      }
      const int w = d.rotation_bits[i];
      EXPECT_TRUE(lo >= -(1 << (w - 1)) && hi < (1 << (w - 1)));
      if (w > 1) {
        EXPECT_TRUE(lo < -(1 << (w - 2)) || hi >= (1 << (w - 2))) << "width " << w << " is not the smallest";
      }
    }
    for (size_t k = 1; k < ch[c].rotation.size(); ++k) {
      const QuatXYZW p = RotationFromTotals(ch[c].rotation[k - 1], ch[c].w_negative[k - 1], a.rotation_divisor);
      const QuatXYZW q = RotationFromTotals(ch[c].rotation[k], ch[c].w_negative[k], a.rotation_divisor);
      EXPECT_GE(Dot(p, q), 0.0f);
    }
  }
}

TEST(MetroidAnimEncoder, WritesTheGamesKeyCountsAndExactlyThatManyKeys) {
  for (size_t frames : {1, 2, 30}) {
    EncodeSettings s;
    s.max_error_rot = 0;  // every frame keyed
    s.max_error_pos = 0;
    const AnimFile f = EncodeAnim(SmoothClip(frames, 30), s);
    const AnimV2& a = f.v2;
    ASSERT_EQ(a.KeyedFrames(), frames);
    size_t key_bits = 0;
    bool translated = false;
    for (const Descriptor& d : a.descriptors) {
      EXPECT_EQ(d.rotation_keys, frames - 1) << frames;
      // A translated channel: the delta keys, or 1 (the set bits) when there are none.
      if (d.has_translation()) {
        EXPECT_EQ(d.translation_keys, std::max<size_t>(frames - 1, 1)) << frames;
      }
      translated = translated || d.has_translation();
      key_bits += d.key_bits();
    }
    EXPECT_TRUE(translated);
    // The bitstream: (frames - 1) keys, in whole 32-bit words, nothing more.
    EXPECT_EQ(a.bitstream.size(), ((frames - 1) * key_bits + 31) / 32 * 4) << frames;
    const Bytes bytes = SerializeAnim(f);
    EXPECT_EQ(SerializeAnim(ParseAnim(bytes)), bytes);
  }
}

TEST(MetroidAnimEncoder, Version0KeepsEveryFrameExactly) {
  const Clip source = SmoothClip(20, 30);
  EncodeSettings s;
  s.version = 0;
  const Bytes bytes = SerializeAnim(EncodeAnim(source, s));
  const AnimFile f = ParseAnim(bytes);
  EXPECT_EQ(f.v0.bone_table.size(), 100u);
  EXPECT_EQ(f.v0.bone_table[3], 0u);
  EXPECT_EQ(f.v0.bone_table[8], 5u);
  const auto [er, ep] = MaxErrors(source, DecodeAnim(f, {}));
  EXPECT_LE(er, 1e-6);  // float storage: only float rounding of the quaternion
  EXPECT_LE(ep, 1e-6);
}

TEST(MetroidAnimEncoder, BoneIdsFromNames) {
  EXPECT_EQ(AssignBoneIds({"#7", "arm", "#0", "leg"}, {}), (std::vector<uint32_t>{7, 8, 0, 9}));
  EXPECT_EQ(AssignBoneIds({"a", "b"}, {}), (std::vector<uint32_t>{3, 4}));         // 2 means "no parent"
  EXPECT_EQ(AssignBoneIds({"#1", "x", "y"}, {}), (std::vector<uint32_t>{1, 3, 4}));  // skips 2
  EXPECT_EQ(AssignBoneIds({"x", "hips"}, {{"hips", 40}}), (std::vector<uint32_t>{41, 40}));
  EXPECT_THROW(AssignBoneIds({"#5", "#5"}, {}), Error);
}

// ---------------------------------------------------------------- CINF

// Three bones: 3 (root, origin 0,0,0), 4 (parent 3, origin 0,1,0), 5 (parent 4, origin 0,1,2).
Bytes GoldenCinf() {
  ByteWriter w(Endian::Big);
  w.U32(3);
  auto bone = [&](uint32_t id, uint32_t parent, float x, float y, float z, std::vector<uint32_t> linked) {
    w.U32(id), w.U32(parent), w.F32(x), w.F32(y), w.F32(z);
    w.U32(uint32_t(linked.size()));
    for (uint32_t l : linked) w.U32(l);
  };
  bone(5, 4, 0, 1, 2, {4});  // a child listed before its parent
  bone(3, 2, 0, 0, 0, {4});
  bone(4, 3, 0, 1, 0, {3, 5});
  w.U32(3), w.U32(3), w.U32(4), w.U32(5);
  w.U32(2);
  for (char c : std::string("root")) w.U8(uint8_t(c));
  w.U8(0), w.U32(3);
  for (char c : std::string("spine")) w.U8(uint8_t(c));
  w.U8(0), w.U32(4);
  return w.Take();
}

TEST(MetroidCinf, DecodesGoldenSkeleton) {
  const CinfFile f = ParseCinf(GoldenCinf());
  ASSERT_EQ(f.bones.size(), 3u);
  EXPECT_EQ(f.bones[2].linked, (std::vector<uint32_t>{3, 5}));
  const Scene s = DecodeCinf(f, RestRule::Relative);
  ASSERT_EQ(s.skeleton.joints.size(), 3u);
  EXPECT_EQ(s.skeleton.joints[0].name, "root");
  EXPECT_EQ(s.skeleton.joints[0].parent, -1);
  EXPECT_EQ(s.skeleton.joints[1].name, "spine");
  EXPECT_EQ(s.skeleton.joints[1].parent, 0);
  EXPECT_EQ(s.skeleton.joints[2].name, "#5");
  EXPECT_EQ(s.skeleton.joints[2].parent, 1);
  EXPECT_EQ(s.skeleton.joints[2].rest.translation, (Vec3{0, 0, 2}));  // origin minus the parent's
  EXPECT_EQ(BoneIdsOf(s), (std::vector<std::pair<std::string, uint32_t>>{{"root", 3}, {"spine", 4}, {"#5", 5}}));
  const Scene abs = DecodeCinf(f, RestRule::Absolute);
  EXPECT_EQ(abs.skeleton.joints[2].rest.translation, (Vec3{0, 1, 2}));
  test::ExpectByteExactRoundTrip(kMetroidCinfFormat, GoldenCinf());
  test::ExpectEveryTruncationFails(kMetroidCinfFormat, GoldenCinf());
  test::ExpectEveryTruncationFails(kMetroidCinfFormat, ReadFileBytes(test::SourcePath("samples/metroid_cinf/skeleton.cinf")));
}

TEST(MetroidCinf, MalformedGivesErrorsWithOffsets) {
  Bytes bad = GoldenCinf();
  Put32(bad, 0, 0x01000000);
  Has(test::ReadError(kMetroidCinfFormat, bad), "offset 0x4: bone records: count 16777216");
  bad = GoldenCinf();
  Put32(bad, 4 + 4, 9);  // bone 5's parent 9 does not exist
  Has(test::ReadError(kMetroidCinfFormat, bad), "offset 0x8: bone 5 names parent 9, which is not in the file");
  bad = GoldenCinf();
  Put32(bad, 4 + 28 + 4, 5);  // root's parent 5: 3 -> 5 -> 4 -> 3
  Has(test::ReadError(kMetroidCinfFormat, bad), "form a cycle");
  bad = GoldenCinf();
  Put32(bad, 4 + 28, 5);  // duplicate id
  Has(test::ReadError(kMetroidCinfFormat, bad), "offset 0x20: bone 1 repeats bone id 5");
}

TEST(MetroidCinf, EncodesASkeletonBack) {
  const Scene s = DecodeCinf(ParseCinf(GoldenCinf()), RestRule::Relative);
  const CinfFile back = EncodeCinf(s.skeleton, BoneIdsOf(s));
  ASSERT_EQ(back.bones.size(), 3u);
  EXPECT_EQ(back.bones[2].id, 5u);
  EXPECT_EQ(back.bones[2].parent, 4u);
  EXPECT_EQ(back.bones[2].origin, (std::array<float, 3>{0, 1, 2}));
  EXPECT_EQ(back.bones[0].parent, kNoParent);
  Skeleton bad;
  bad.joints.push_back({"#2", -1, {}});
  EXPECT_THROW(EncodeCinf(bad), Error);
}

// ---------------------------------------------------------------- glTF and CLI

TEST(MetroidAnimGltf, AnimToGltfToAnimWithinTolerance) {
  const std::string dir = test::SourcePath("samples/metroid_anim/");
  const Scene cinf = DecodeCinf(ParseCinf(ReadFileBytes(dir + "skeleton.cinf")), RestRule::Relative);
  DecodeSettings names;
  for (const auto& [n, id] : BoneIdsOf(cinf)) names.names.emplace_back(id, n);
  Scene scene;
  scene.skeleton = cinf.skeleton;
  scene.clips.push_back(DecodeAnim(ParseAnim(ReadFileBytes(dir + "run.anim")), names));
  const Scene imported = ImportGltf(ExportGltf(scene, {}), "run.glb");
  ASSERT_EQ(imported.clips.size(), 1u);
  EncodeSettings s;
  s.bone_ids = BoneIdsOf(cinf);
  EncodeReport r;
  const AnimFile back = EncodeAnim(imported.clips[0], s, &r);
  const Clip decoded = DecodeAnim(ParseAnim(SerializeAnim(back)), names);
  // Same bone ids in the same order.
  ASSERT_EQ(back.v2.descriptors.size(), 8u);
  EXPECT_EQ(back.v2.descriptors[0].bone_id, 3u);
  EXPECT_TRUE(back.v2.descriptors[0].has_translation());
  const auto [er, ep] = MaxErrors(scene.clips[0], decoded);
  EXPECT_LE(er, 0.001 + 1e-4);  // the encoder bound plus float32 glTF storage
  EXPECT_LE(ep, r.tolerance_pos + 1e-5);
}

TEST(MetroidAnimCli, ConvertRoundTripAndVerbose) {
  const std::string dir = test::SourcePath("samples/metroid_anim/");
  const auto tmp = test::TempDir("metroid_cli");
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert " + dir + "run.anim " + (tmp / "run.glb").string() + " --skeleton " + dir + "skeleton.cinf", &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("convert -v " + (tmp / "run.glb").string() + " " + (tmp / "back.anim").string() +
                             " --skeleton " + dir + "skeleton.cinf",
                         &out, &err),
            0)
      << err;
  EXPECT_NE(err.find("every_frame_bytes"), std::string::npos);
  EXPECT_NE(err.find("max_error_rot"), std::string::npos);
  ASSERT_EQ(test::RunCli("convert " + (tmp / "run.glb").string() + " " + (tmp / "v0.anim").string() +
                             " --skeleton " + dir + "skeleton.cinf --anim-version 0",
                         &out, &err),
            0)
      << err;
  EXPECT_EQ(ParseAnim(ReadFileBytes((tmp / "v0.anim").string())).version, 0u);
  ASSERT_EQ(test::RunCli("convert " + dir + "skeleton.cinf " + (tmp / "model.glb").string(), &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("convert " + (tmp / "model.glb").string() + " " + (tmp / "model.cinf").string(), &out, &err), 0) << err;
  const CinfFile c = ParseCinf(ReadFileBytes((tmp / "model.cinf").string()));
  EXPECT_EQ(c.bones.size(), 8u);
  // Without --skeleton the ANIM takes the ids the CINF written from the same glTF has.
  ASSERT_EQ(test::RunCli("convert " + (tmp / "run.glb").string() + " " + (tmp / "free.anim").string(), &out, &err), 0) << err;
  const AnimFile free = ParseAnim(ReadFileBytes((tmp / "free.anim").string()));
  const CinfFile rig = ParseCinf(ReadFileBytes((tmp / "model.cinf").string()));
  auto joints_of = [](const AnimFile& anim, const CinfFile& cinf) {
    DecodeSettings names;
    for (const auto& [n, id] : cinf.names) names.names.emplace_back(id, n);
    std::vector<std::string> out;
    for (const JointTrack& t : DecodeAnim(anim, names).tracks) out.push_back(t.joint);
    std::sort(out.begin(), out.end());  // the glTF lists animated nodes in its own order
    return out;
  };
  const std::vector<std::string> expected =
      joints_of(ParseAnim(ReadFileBytes(dir + "run.anim")), ParseCinf(ReadFileBytes(dir + "skeleton.cinf")));
  EXPECT_EQ(joints_of(free, rig), expected);
  EXPECT_EQ(expected.back(), "root");
  ASSERT_EQ(test::RunCli("sample " + dir + "run.anim --skeleton " + dir + "skeleton.cinf", &out, &err), 0) << err;
  EXPECT_NE(out.find("\"joints\": [\"root\""), std::string::npos);
  EXPECT_EQ(test::RunCli("convert " + (tmp / "run.glb").string() + " " + (tmp / "x.anim").string() + " --rotation-divisor 0", &out, &err), 1);
}

TEST(MetroidAnimCli, SameFormatWithoutReencodeOptionsWritesTheFilesOwnBytes) {
  const std::string dir = test::SourcePath("samples/metroid_anim/");
  const std::string v0 = dir + "hologram_v0.anim", cinf = dir + "skeleton.cinf";
  const auto tmp = test::TempDir("metroid_same_format");
  std::string out, err;
  // --skeleton only names joints: the copy is the file itself, version 0 and all.
  const std::string copy = (tmp / "copy.anim").string();
  ASSERT_EQ(test::RunCli("convert -v " + v0 + " " + copy + " --skeleton " + cinf, &out, &err), 0) << err;
  EXPECT_EQ(ReadFileBytes(copy), ReadFileBytes(v0));
  EXPECT_NE(err.find("\"copied_verbatim\": true"), std::string::npos) << err;
  // --anim-version asks for a re-encode: version 2, smaller than the float arrays.
  const std::string v2 = (tmp / "v2.anim").string();
  ASSERT_EQ(test::RunCli("convert " + v0 + " " + v2 + " --skeleton " + cinf + " --anim-version 2", &out, &err), 0) << err;
  const AnimFile packed = ParseAnim(ReadFileBytes(v2));
  EXPECT_EQ(packed.version, 2u);
  EXPECT_LT(ReadFileBytes(v2).size(), ReadFileBytes(v0).size());
  // The game's key counts: set bits - 1 in every descriptor.
  for (const Descriptor& d : packed.v2.descriptors) EXPECT_EQ(d.rotation_keys + 1u, packed.v2.KeyedFrames());
  // Another encoder option re-encodes too, keeping the input's version.
  const std::string again = (tmp / "again.anim").string();
  ASSERT_EQ(test::RunCli("convert " + v0 + " " + again + " --anim-bone-table 40", &out, &err), 0) << err;
  const AnimFile v0_again = ParseAnim(ReadFileBytes(again));
  EXPECT_EQ(v0_again.version, 0u);
  EXPECT_EQ(v0_again.v0.bone_table.size(), 40u);
  // So does --clip; another format's option does not.
  ConvertRequest request{v0, (tmp / "x.anim").string(), "", "", cinf, "", {}, ""};
  request.options.Set("euler", "zyx");
  EXPECT_FALSE(AsksForReencode(request, kMetroidAnimFormat));
  request.options.Set("max-error-rot", "0.01");
  EXPECT_TRUE(AsksForReencode(request, kMetroidAnimFormat));
  ConvertRequest clip_only{v0, (tmp / "x.anim").string(), "", "", "", "anim", {}, ""};
  EXPECT_TRUE(AsksForReencode(clip_only, kMetroidAnimFormat));
  // A version 2 file re-encoded without --anim-version stays version 2.
  const std::string run2 = (tmp / "run2.anim").string();
  ASSERT_EQ(test::RunCli("convert " + dir + "run.anim " + run2 + " --max-error-rot 0.002", &out, &err), 0) << err;
  EXPECT_EQ(ParseAnim(ReadFileBytes(run2)).version, 2u);
}

}  // namespace
}  // namespace animkit
