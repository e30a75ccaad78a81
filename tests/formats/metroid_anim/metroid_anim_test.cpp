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
  // The engine moves the character by bone 3 (facts 7.5), Z up: VAdvanceView's step from
  // frame 2 to 3 is k2 k1^-1 and k2^-1 ((4.5,-10.5,14.5) - (5.5,-18,78.5)); after the last key, none.
  ASSERT_TRUE(clip.root_motion);
  EXPECT_EQ(clip.root_motion->joint, "#3");
  EXPECT_EQ(clip.root_motion->up, (Vec3{0, 0, 1}));
  std::vector<RootMotionDelta> deltas(5);
  ASSERT_TRUE((RootMotionJob{&clip, nullptr, 0, deltas}.Run()));
  ExpectQuatNear(deltas[3].rotation, Multiply(Normalize(k2), Conjugate(Normalize(k1))));
  const Vec3 step = Rotate(Conjugate(Normalize(k2)), Vec3{-1, 7.5f, -64});
  test::ExpectVec(deltas[3].translation, step.x, step.y, step.z, 1e-4);
  test::ExpectVec(deltas[4].translation, 0, 0, 0);
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

using test::Has;

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
  // 0x0101 at 0x08 marks a version 2 file as Echoes'; when only Metroid Prime's layout
  // fits, that is read (the EVNT id), with a warning; when neither fits, Echoes' error.
  Bytes echoes = GoldenV2();
  echoes[8] = 0x01, echoes[9] = 0x01;
  std::vector<std::string> warnings;
  EXPECT_EQ(ParseAnim(echoes, std::nullopt, &warnings).v2.evnt_id, 0x0101BABEu);
  ASSERT_EQ(warnings.size(), 1u);
  Has(warnings[0], "offset 0x8: 01 01 marks an Echoes bit-packed ANIM, but only Metroid Prime's layout fits");
  Put32(echoes, 0x20, 0);  // Metroid Prime's rotation divisor 0: neither fits
  Has(test::ReadError(kMetroidAnimFormat, echoes), "(read as a Metroid Prime 2: Echoes bit-packed ANIM, for the u8 1, u8 1 at 0x08)");
  Bytes v3 = GoldenV2();
  Put32(v3, 0, 3);
  Has(test::ReadError(kMetroidAnimFormat, v3), "Metroid Prime 3: Corruption");
  // Version 0 with index tables from 0x1C that fit neither layout: both games' reasons.
  ByteWriter w(Endian::Big);
  for (int i = 0; i < 7; ++i) w.U32(i == 5 ? 2 : 0);
  for (int t = 0; t < 3; ++t) {
    w.U32(4);
    w.Append(Bytes{0, 1, 0xFF, 0xFF});
  }
  w.U32(0);
  w.Fill(40, 0x11);
  const std::string both = test::ReadError(kMetroidAnimFormat, w.Take());
  Has(both, "the uncompressed ANIM fits neither Metroid Prime's layout (offset 0x");
  Has(both, ") nor Echoes' (offset 0x");
}

TEST(MetroidAnim, ProbeRecognisesBothVersions) {
  EXPECT_EQ(Detect(GoldenV2(), "x.bin").format, &kMetroidAnimFormat);
  EXPECT_EQ(Detect(GoldenV0(), "x.anim").format, &kMetroidAnimFormat);
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

}  // namespace
}  // namespace animkit
