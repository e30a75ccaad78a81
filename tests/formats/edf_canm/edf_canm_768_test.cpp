// EDF 6 (768) as the game has it: kinds 0 to 3, the stock layout, the alignment the game's
// MOVAPS loads need, and EDF 4.1/5 (512) files converted to it. Expected values come from
// the layout (docs/formats/edf_canm.md), written by hand here.
#include <animkit/formats/edf_canm.hpp>

#include <animkit/core/format.hpp>
#include <synthetic/synthetic.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

namespace animkit {
extern const FormatDescriptor kEdfCanmFormat;
namespace {

using Builder = test::LittleEndianBuilder;
using test::Has;
using Quat = std::array<float, 4>;

Bytes Patch32(Bytes b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
  return b;
}

// A stock-laid 768 file, every kind once. Clip "walk" (loop 1, duration 2, interval 1,
// 3 keyframes), tracks Scene_Root (T ch0, R ch1) and hip (T ch2, R ch3, S ch0).
//   0x020 ch0 kind 0: base (1, 2, 3, 1), step 0, offset 0, count 1
//   0x050 ch1 kind 2: base (0, 0.6, 0, 0.8), step 0, offset 0, count 1
//   0x080 ch2 kind 1: base (0, 0, 0, 1), step (0.5, 0.25, 1, 1), keys at 0xE0, count 2
//   0x0B0 ch3 kind 3: base 0, step 0, keys at 0xF0, count 2
//   0x0E0 ch2's keys (2,4,6) (8,0,1); 0x0EC zero fill to 16; 0x0F0 ch3's (0,0,0,1) (1,0,0,0)
//   0x110 clip table; 0x12C track table; 0x13C bone names; 0x144 strings
//   Scene_Root (0x144), hip (0x15A), walk (0x162); end 0x16C.
Bytes Stock768() {
  Builder w;
  w.b = {'C', 'A', 'N', 'M'};
  for (uint32_t v : {768u, 1u, 0x110u, 4u, 0x20u, 2u, 0x13Cu}) w.U32(v);
  for (float v : {1.f, 2.f, 3.f, 1.f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
  w.U32(0), w.U32(0), w.U32(1), w.U32(0);
  for (float v : {0.f, 0.6f, 0.f, 0.8f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
  w.U32(0), w.U32(2), w.U32(1), w.U32(0);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.5f, 0.25f, 1.f, 1.f}) w.F32(v);
  w.U32(0xE0 - 0x80), w.U32(1), w.U32(2), w.U32(0);
  for (float v : {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
  w.U32(0xF0 - 0xB0), w.U32(3), w.U32(2), w.U32(0);
  EXPECT_EQ(w.size(), 0xE0u);
  for (uint16_t v : {2, 4, 6, 8, 0, 1}) w.U16(v);
  w.U32(0);  // zero fill to 16
  EXPECT_EQ(w.size(), 0xF0u);
  for (float v : {0.f, 0.f, 0.f, 1.f, 1.f, 0.f, 0.f, 0.f}) w.F32(v);
  EXPECT_EQ(w.size(), 0x110u);
  w.U32(1), w.U32(0x162 - 0x110), w.F32(2.f), w.F32(1.f), w.U32(3), w.U32(2), w.U32(0x12C - 0x110);
  EXPECT_EQ(w.size(), 0x12Cu);
  for (uint16_t v : {0, 0, 1, 0xFFFF, 1, 2, 3, 0}) w.U16(v);
  w.U32(0x144 - 0x13C), w.U32(0x15A - 0x140);
  w.Str("Scene_Root");
  w.Str("hip");
  w.Str("walk");
  EXPECT_EQ(w.size(), 0x16Cu);
  return w.b;
}

// The content of Stock768 before layout: what LayOutStock is given.
edf_canm::File Stock768Content() {
  edf_canm::File f;
  f.version = edf_canm::kVersion6;
  f.channels.resize(4);
  f.channels[0].type = edf_canm::kTypeStaticVector, f.channels[0].base = {1, 2, 3, 1};
  f.channels[1].type = edf_canm::kTypeStaticQuat, f.channels[1].base = {0, 0.6f, 0, 0.8f};
  f.channels[2].type = edf_canm::kTypeU16Xyz, f.channels[2].base = {0, 0, 0, 1}, f.channels[2].speed = {0.5f, 0.25f, 1, 1};
  f.channels[2].keys = {{2, 4, 6}, {8, 0, 1}};
  f.channels[3].type = edf_canm::kTypeFloatQuat, f.channels[3].quats = {{0, 0, 0, 1}, {1, 0, 0, 0}};
  f.names = {{0, "Scene_Root"}, {0, "hip"}};
  edf_canm::Animation a;
  a.loop = 1, a.duration = 2, a.interval = 1, a.keyframes = 3, a.name = "walk";
  a.bones = {{0, 0, 1, -1}, {1, 2, 3, 0}};
  f.animations = {a};
  return f;
}

TEST(EdfCanm768, ReadsEveryKindOfAStockFile) {
  const edf_canm::File f = edf_canm::Parse(Stock768());
  EXPECT_TRUE(f.warnings.empty()) << f.warnings.front();
  EXPECT_EQ(f.version, 768u);
  EXPECT_EQ(f.channel_offset, 0x20u);
  EXPECT_EQ(f.animation_offset, 0x110u);
  EXPECT_EQ(f.name_offset, 0x13Cu);
  ASSERT_EQ(f.channels.size(), 4u);
  const auto& c = f.channels;
  EXPECT_EQ(c[0].type, 0);
  EXPECT_EQ(c[0].key_count, 1u);
  EXPECT_EQ(c[0].key_offset, 0);
  EXPECT_EQ(c[0].base, (Quat{1, 2, 3, 1}));
  EXPECT_TRUE(c[0].keys.empty());
  EXPECT_FALSE(c[0].quaternion(768));
  EXPECT_EQ(c[1].type, 2);
  EXPECT_TRUE(c[1].quaternion(768));
  EXPECT_EQ(c[2].type, 1);
  EXPECT_EQ(c[2].key_offset, 0x60);
  EXPECT_EQ(c[2].speed, (Quat{0.5f, 0.25f, 1, 1}));
  ASSERT_EQ(c[2].keys.size(), 2u);
  EXPECT_EQ(c[2].keys[1], (std::array<uint16_t, 3>{8, 0, 1}));
  EXPECT_EQ(c[3].type, 3);
  EXPECT_EQ(c[3].key_offset, 0x40);
  ASSERT_EQ(c[3].quats.size(), 2u);
  EXPECT_EQ(c[3].quats[1], (Quat{1, 0, 0, 0}));
  ASSERT_EQ(f.animations.size(), 1u);
  EXPECT_EQ(f.animations[0].name, "walk");
  EXPECT_EQ(f.animations[0].bones[1].scale, 0);
  EXPECT_EQ(f.names[1].name, "hip");

  // Values: kind 0 is its base at every frame; kind 1 base + key * step, holding its last key.
  const auto clips = edf_canm::DecodeClips(f, {});
  ASSERT_EQ(clips.size(), 1u);
  const Clip& clip = clips[0];
  ASSERT_EQ(clip.tracks.size(), 2u);
  const JointTrack& root = clip.tracks[0];
  EXPECT_EQ(root.joint, "Scene_Root");
  ASSERT_EQ(root.translation.values.size(), 1u);
  test::ExpectVec(root.translation.values[0], 1, 2, 3);
  test::ExpectQuat(root.rotation.values[0], 0, 0.6f, 0, 0.8f);
  const JointTrack& hip = clip.tracks[1];
  ASSERT_EQ(hip.translation.values.size(), 2u);
  test::ExpectVec(hip.translation.values[0], 1, 1, 6);
  test::ExpectVec(hip.translation.values[1], 4, 0, 1);
  test::ExpectQuat(hip.rotation.values[1], 1, 0, 0, 0);
  test::ExpectVec(hip.scale.values[0], 1, 2, 3);  // the kind-0 channel serves as scale too
  test::ExpectByteExactRoundTrip(kEdfCanmFormat, Stock768());
}

TEST(EdfCanm768, TheStockLayoutIsTheHandLaidImage) {
  const edf_canm::File f = edf_canm::LayOutStock(Stock768Content());
  EXPECT_EQ(f.image, Stock768());
  EXPECT_EQ(edf_canm::Serialize(f), Stock768());
  // Laying out a stock file again gives it back.
  EXPECT_EQ(edf_canm::LayOutStock(edf_canm::Parse(Stock768())).image, Stock768());
  // A kind-1 or kind-3 channel without keys would need a count of 0: refused.
  edf_canm::File empty = Stock768Content();
  empty.channels[3].quats.clear();
  EXPECT_THROW(edf_canm::LayOutStock(empty), Error);
  empty = Stock768Content();
  empty.channels[1].type = 7;
  EXPECT_THROW(edf_canm::LayOutStock(empty), Error);
}

TEST(EdfCanm768, WithoutQuaternionKeysNoFillTo16) {
  edf_canm::File c = Stock768Content();
  c.channels[3] = c.channels[1];  // kind 2 instead of kind 3
  const edf_canm::File f = edf_canm::LayOutStock(c);
  // Keys end at 0xEC; pad to 4 only: the clip table follows at once.
  EXPECT_EQ(f.animation_offset, 0xECu);
  EXPECT_EQ(f.channels[3].key_offset, 0);
  EXPECT_EQ(f.channels[3].key_count, 1u);
}

TEST(EdfCanm768, EveryDamageIsAnErrorWithItsOffset) {
  const Bytes g = Stock768();
  test::ExpectEveryTruncationFails(kEdfCanmFormat, g);
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x20 + 0x24, 4)), "offset 0x44: channel 0 has unknown key type 4");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x20 + 0x24, 0xFFFFFFFF)), "offset 0x44: channel 0 has unknown key type -1");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0xB0 + 0x28, 0x7FFFFFFF)),
      "offset 0xd0: channel 3 key data runs past the end of the file");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0xB0 + 0x28, 0x80000000)), "offset 0xd8: channel 3 has a negative key count");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x80 + 0x20, 0x1000)),
      "offset 0xa0: channel 2 key data offset points to 0x1080, past the end of the file (0x16c)");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x80 + 0x20, 0xFFFFF000)), "offset 0xa0: channel 2 key data offset points to before");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x10, 0x1000)), "offset 0x20: channel table: count 4096");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x08, 0x1000)), "offset 0x110: animation table: count 4096");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x0C, 0x2000)), "offset 0xc: animation table offset points to 0x2000");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x18, 0x1000)), "offset 0x13c: bone name table: count 4096");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x110 + 0x14, 0x100)), "offset 0x12c: animation 0 bone table: count 256");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x110 + 0x18, 0x4000)), "offset 0x128: animation 0 bone table offset points to");
  Has(test::ReadError(kEdfCanmFormat, Patch32(g, 0x110 + 0x04, 0x4000)), "offset 0x114: animation 0 name points to 0x4110");
  Bytes bad = g;
  bad[0x12C + 8 + 4] = 9;  // hip's rotation: channel 9 of 4
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x138: animation 0 bone 1 rotation channel 9 does not exist (4 channels)");
  bad = g;
  bad[0x12C + 8 + 6] = 1;  // hip's scale: the kind-2 channel
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x13a: animation 0 bone 1 uses quaternion channel 1 as its scale");
  test::ExpectEveryByteCorruptionHandled(kEdfCanmFormat, g);
}

Bytes Source512();

// What the game faults on (or never writes) still reads, with a warning naming the offset.
TEST(EdfCanm768, WhatTheGameFaultsOnReadsWithAWarning) {
  auto warnings = [](const Bytes& b) {
    const edf_canm::File f = edf_canm::Parse(b);
    std::string all;
    for (const std::string& w : f.warnings) all += w + "\n";
    return all;
  };
  const Bytes g = Stock768();
  // The kind-3 block at 0xF4: values still read from there.
  Bytes moved = Patch32(g, 0xB0 + 0x20, 0x44);
  EXPECT_EQ(edf_canm::Parse(moved).channels[3].quats[0], (Quat{0, 0, 1, 1}));
  Has(warnings(moved), "offset 0xd0: channel 3 has quaternion keys at 0xf4, not 16-aligned: EDF 6 faults on it (its MOVAPS");
  Has(warnings(Patch32(g, 0xB0 + 0x28, 0)), "offset 0xd8: channel 3 has a key count of 0");
  Has(warnings(Patch32(g, 0x20 + 0x20, 8)), "offset 0x40: channel 0 is kind 0 with a key offset of 8");
  Has(warnings(Patch32(g, 0x50 + 0x28, 2)), "offset 0x78: channel 1 is kind 2 with a key count of 2");
  Has(warnings(Patch32(g, 0x50 + 0x2C, 5)), "offset 0x7c: channel 1 has reserved word 0x5");
  // The old animkit layout: table after the clips (0x3C), static quaternion with count 0.
  edf_canm::File old = edf_canm::Parse(Stock768());
  {
    Builder w;
    w.b = {'C', 'A', 'N', 'M'};
    for (uint32_t v : {768u, 0u, 0x20u, 1u, 0x24u, 0u, 0x54u}) w.U32(v);
    w.U32(0);  // 4 bytes: the table lands at 0x24
    for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
    w.U32(0), w.U32(2), w.U32(0), w.U32(0);
    old = edf_canm::Parse(w.b);
    const std::string all = warnings(w.b);
    Has(all, "offset 0x14: the channel table at 0x24 is not 16-aligned: EDF 6 faults on it");
    Has(all, "offset 0x24: channel 0 is a static quaternion whose base at 0x24 is not 16-aligned");
    Has(all, "offset 0x4c: channel 0 has a key count of 0");
    // The document lists them (validate and info show Document::Warnings).
    const auto doc = kEdfCanmFormat.read(w.b, ReadContext{});
    EXPECT_EQ(doc->Warnings().size(), 3u);
  }
  EXPECT_EQ(old.channels[0].base, (Quat{0, 0, 0, 1}));
  // Version 512 has no such rule.
  EXPECT_TRUE(edf_canm::Parse(Source512()).warnings.empty());
}

// The stock alignment for any number of clips, tracks and channels of each kind.
TEST(EdfCanm768, EveryLayoutKeepsTheGamesAlignment) {
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    edf_canm::File c;
    c.version = edf_canm::kVersion6;
    const size_t channels = 1 + rng() % 9;
    for (size_t i = 0; i < channels; ++i) {
      edf_canm::Channel ch;
      ch.type = int32_t(rng() % 4);
      const size_t keys = 1 + rng() % 5;
      if (ch.type == 1) ch.keys.assign(keys, {uint16_t(i), 1, 2});
      if (ch.type == 3) ch.quats.assign(keys, {0, 0, float(i), 1});
      c.channels.push_back(ch);
    }
    const size_t names = 1 + rng() % 6;
    for (size_t i = 0; i < names; ++i) c.names.push_back({0, "bone" + std::to_string(i)});
    const size_t clips = rng() % 7;
    for (size_t k = 0; k < clips; ++k) {
      edf_canm::Animation a;
      a.name = "clip" + std::string(k, 'x');
      a.keyframes = 2;
      for (size_t t = rng() % 5; t > 0; --t) {
        edf_canm::BoneEntry e;
        e.name_index = int16_t(rng() % names);
        e.position = rng() % 2 ? int16_t(-1) : int16_t(rng() % channels);
        if (e.position >= 0 && c.channels[size_t(e.position)].quaternion(768)) e.position = -1;
        a.bones.push_back(e);
      }
      c.animations.push_back(a);
    }
    const edf_canm::File f = edf_canm::LayOutStock(c);
    SCOPED_TRACE("round " + std::to_string(round));
    EXPECT_TRUE(f.warnings.empty());
    EXPECT_EQ(f.channel_offset, 0x20u);
    size_t at = 0x20 + 0x30 * channels;  // kind-1 blocks: contiguous from the table's end
    for (size_t i = 0; i < channels; ++i) {
      const auto& ch = f.channels[i];
      const size_t entry = 0x20 + 0x30 * i;
      EXPECT_GE(ch.key_count, 1u);
      if (ch.type == 1) {
        EXPECT_EQ(entry + size_t(ch.key_offset), at);
        at += 6 * ch.keys.size();
      } else if (ch.type == 0 || ch.type == 2) {
        EXPECT_EQ(ch.key_offset, 0);
        EXPECT_EQ(ch.key_count, 1u);
      }
    }
    size_t quat_at = (at + 15) / 16 * 16;
    bool any_quats = false;
    for (size_t i = 0; i < channels; ++i) {
      const auto& ch = f.channels[i];
      if (ch.type != 3) continue;
      any_quats = true;
      const size_t block = 0x20 + 0x30 * i + size_t(ch.key_offset);
      EXPECT_EQ(block % 16, 0u);
      EXPECT_EQ(block, quat_at);
      quat_at += 16 * ch.quats.size();
    }
    const size_t keys_end = any_quats ? quat_at : at;
    EXPECT_EQ(f.animation_offset, (keys_end + 3) / 4 * 4);
    for (size_t b = keys_end; b < f.animation_offset; ++b) EXPECT_EQ(f.image[b], 0);
    size_t tracks = f.animation_offset + 0x1C * clips;
    for (size_t k = 0; k < clips; ++k) {
      EXPECT_EQ(f.animation_offset + 0x1C * k + size_t(f.animations[k].bone_offset), tracks);
      tracks += 8 * f.animations[k].bones.size();
    }
    EXPECT_EQ(f.name_offset, tracks);
    // The string pool starts right after the bone-name table.
    size_t first_string = f.image.size();
    for (size_t i = 0; i < names; ++i) first_string = std::min<size_t>(first_string, f.name_offset + 4 * i + f.names[i].offset);
    for (size_t k = 0; k < clips; ++k)
      first_string = std::min<size_t>(first_string, f.animation_offset + 0x1C * k + f.animations[k].name_offset);
    EXPECT_EQ(first_string, f.name_offset + 4 * names);
    EXPECT_EQ(edf_canm::Serialize(edf_canm::Parse(f.image)), f.image);
  }
}

// The encoder's 768 files are stock-laid, for any number of clips (the crash needed
// clips % 4 != 0 with the old layout), with the stock words of every kind.
TEST(EdfCanm768, TheEncoderWritesStockFiles) {
  SyntheticSpec spec;
  spec.joints = 4;
  spec.frames = 6;
  spec.animate_scale = false;
  const Skeleton skeleton = SyntheticSkeleton(spec);
  std::vector<Clip> clips;
  for (int n = 1; n <= 5; ++n) {
    spec.seed = unsigned(n);
    spec.name = "c" + std::to_string(n);
    clips.push_back(SyntheticClip(skeleton, spec));
    JointTrack still;  // a constant translation: kind 0
    still.joint = "Scene_Root";
    still.translation.times = {0};
    still.translation.values = {{1, 2, 3}};
    clips.back().tracks.push_back(still);
    edf_canm::EncodeSettings settings;
    settings.version = edf_canm::kVersion6;
    const edf_canm::File f = edf_canm::EncodeClips(clips, settings);
    SCOPED_TRACE(std::to_string(n) + " clips");
    EXPECT_TRUE(f.warnings.empty());
    EXPECT_EQ(f.channel_offset, 0x20u);
    EXPECT_GT(f.animation_offset, f.channel_offset);
    EXPECT_EQ(edf_canm::LayOutStock(f).image, f.image);  // already stock: laying out again changes nothing
    bool kind0 = false;
    for (size_t i = 0; i < f.channels.size(); ++i) {
      const auto& c = f.channels[i];
      EXPECT_GE(c.key_count, 1u);
      EXPECT_EQ(c.pad, 0u);
      if (c.type == edf_canm::kTypeStaticVector) {
        kind0 = true;
        EXPECT_EQ(c.base[3], 1.0f);
        EXPECT_EQ(c.speed, (Quat{0, 0, 0, 0}));
        EXPECT_EQ(c.key_offset, 0);
      } else if (c.type == edf_canm::kTypeU16Xyz) {
        EXPECT_EQ(c.base[3], 1.0f);
        EXPECT_EQ(c.speed[3], 1.0f);
      } else if (c.type == edf_canm::kTypeFloatQuat) {
        EXPECT_EQ(c.base, (Quat{0, 0, 0, 0}));
        EXPECT_EQ(c.speed, (Quat{0, 0, 0, 0}));
        EXPECT_EQ((0x20 + 0x30 * i + size_t(c.key_offset)) % 16, 0u);
      } else {
        EXPECT_EQ(c.type, edf_canm::kTypeStaticQuat);
        EXPECT_EQ(c.speed, (Quat{0, 0, 0, 0}));
      }
    }
    EXPECT_TRUE(kind0);
  }
}

// EDF.dll's Euler -> quaternion written out by hand, one float32 operation per line.
Quat HandEuler(float ax, float ay, float az) {
  float x = 0, y = 0, z = 0, w = 1;
  if (ax * ax > 0.0f) {
    const float h = ax * 0.5f;
    x = sinf(h);
    w = cosf(h);
  }
  if (ay * ay > 0.0f) {
    const float h = ay * 0.5f;
    const float s = sinf(h), c = cosf(h);
    const float x0 = x, w0 = w;
    x = x0 * c;
    w = w0 * c;
    const float xs = x0 * s;
    z = -xs;
    y = w0 * s;
  }
  if (az * az > 0.0f) {
    const float h = az * 0.5f;
    const float s = sinf(h), c = cosf(h);
    const float xc = x * c, ys = y * s, yc = y * c, xs = x * s;
    const float ws = w * s, zc = z * c, wc = w * c, zs = z * s;
    const float nx = xc - ys, ny = yc + xs, nz = ws + zc, nw = wc - zs;
    x = nx, y = ny, z = nz, w = nw;
  }
  return {x, y, z, w};
}

void ExpectBits(const Quat& got, const Quat& want) {
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(want[i])) << "component " << i << ": " << got[i]
                                                                                  << " vs " << want[i];
  }
}

TEST(EdfCanm768, EulerToQuaternionIsEdf6sFloat32Routine) {
  // X only: (sin(x/2), 0, 0, cos(x/2)); y and z stay +0.0.
  const Quat qx = edf_canm::EulerToQuat768(0.3f, 0, 0);
  ExpectBits(qx, {sinf(0.15f), 0.0f, 0.0f, cosf(0.15f)});
  EXPECT_FALSE(std::signbit(qx[2]));
  // Y only: z = -(0 * s) = -0.0 (the explicit negation).
  const Quat qy = edf_canm::EulerToQuat768(0, 0.4f, 0);
  ExpectBits(qy, {0.0f, sinf(0.2f), -0.0f, cosf(0.2f)});
  EXPECT_TRUE(std::signbit(qy[2]));
  // A negative Y with X: z = -(x * s) with s < 0 is positive.
  ExpectBits(edf_canm::EulerToQuat768(0.5f, -0.7f, 0), HandEuler(0.5f, -0.7f, 0));
  // All three, and angles past a half turn.
  ExpectBits(edf_canm::EulerToQuat768(0.3f, -0.2f, 1.1f), HandEuler(0.3f, -0.2f, 1.1f));
  ExpectBits(edf_canm::EulerToQuat768(-2.9f, 1.5707964f, 3.5f), HandEuler(-2.9f, 1.5707964f, 3.5f));
  // An angle whose square underflows to 0 is skipped: the identity, bit for bit.
  ExpectBits(edf_canm::EulerToQuat768(1e-30f, 0, 0), {0, 0, 0, 1});
  ExpectBits(edf_canm::EulerToQuat768(0, 0, 0), {0, 0, 0, 1});
  // Z only after nothing: x' = 0*c - 0*s = 0, y' = 0, z' = sin, w' = cos.
  const Quat qz = edf_canm::EulerToQuat768(0, 0, 1.0f);
  ExpectBits(qz, {0.0f, 0.0f, sinf(0.5f), cosf(0.5f)});
}

// Version 512, laid out as animkit writes it (clips, channels, names, tracks, keys, strings).
// Clip "run": Scene_Root (T c3, R c3), spine (T c0, R c1). Clip "idle": spine (T c2, R c2, S c0).
//   c0 keyed: base (1, 2, 3), speed (0.5, 0, -1), keys (0,0,0) (4,0,2) at 0x104
//   c1 static: base (0.3, -0.2, 1.1), speed (0.25, 0, 0)
//   c2 keyed: base (0.1, 0.2, 0.3), speed (0.01, 0.02, 0.03), keys (1,2,3) (10,20,30) at 0xF8
//   c3 static: 0 (a zero channel serving as translation and rotation, as EDF 5 allows)
Bytes Source512() {
  Builder w;
  w.b = {'C', 'A', 'N', 'M'};
  for (uint32_t v : {512u, 2u, 0x20u, 4u, 0x58u, 2u, 0xD8u}) w.U32(v);
  w.U32(1), w.U32(0x130 - 0x20), w.F32(2.f), w.F32(1.f), w.U32(3), w.U32(2), w.U32(0xE0 - 0x20);
  w.U32(0), w.U32(0x126 - 0x3C), w.F32(1.f), w.F32(1.f), w.U32(2), w.U32(1), w.U32(0xF0 - 0x3C);
  EXPECT_EQ(w.size(), 0x58u);
  w.U16(1), w.U16(2);
  for (float v : {1.f, 2.f, 3.f, 0.5f, 0.f, -1.f}) w.F32(v);
  w.U32(0x104 - 0x58);
  w.U16(0), w.U16(1);
  for (float v : {0.3f, -0.2f, 1.1f, 0.25f, 0.f, 0.f}) w.F32(v);
  w.U32(0);
  w.U16(1), w.U16(2);
  for (float v : {0.1f, 0.2f, 0.3f, 0.01f, 0.02f, 0.03f}) w.F32(v);
  w.U32(0xF8 - 0x98);
  w.U16(0), w.U16(1);
  for (float v : {0.f, 0.f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
  w.U32(0);
  EXPECT_EQ(w.size(), 0xD8u);
  w.U32(0x110 - 0xD8), w.U32(0x138 - 0xDC);
  for (uint16_t v : {0, 3, 3, 0xFFFF, 1, 0, 1, 0xFFFF}) w.U16(v);
  for (uint16_t v : {1, 2, 2, 0}) w.U16(v);
  EXPECT_EQ(w.size(), 0xF8u);
  for (uint16_t v : {1, 2, 3, 10, 20, 30}) w.U16(v);
  for (uint16_t v : {0, 0, 0, 4, 0, 2}) w.U16(v);
  EXPECT_EQ(w.size(), 0x110u);
  w.Str("Scene_Root");
  w.Str("idle");
  w.Str("run");
  w.Str("spine");
  EXPECT_EQ(w.size(), 0x144u);
  return w.b;
}

TEST(EdfCanm768, ConvertsA512FileFieldByField) {
  const edf_canm::File src = edf_canm::Parse(Source512());
  const edf_canm::File f = edf_canm::ConvertTo768(src);
  EXPECT_TRUE(f.warnings.empty());
  EXPECT_EQ(f.version, 768u);
  // New channels by first use: run/Scene_Root T c3 (n0), R c3 (n1); run/spine T c0 (n2),
  // R c1 (n3); idle/spine T c2 (n4), R c2 (n5), S c0 (n6).
  ASSERT_EQ(f.channels.size(), 7u);
  EXPECT_EQ(f.channel_offset, 0x20u);
  const auto& c = f.channels;
  const Quat none{0, 0, 0, 0};
  EXPECT_EQ(c[0].type, 0);
  EXPECT_EQ(c[0].base, (Quat{0, 0, 0, 1}));
  EXPECT_EQ(c[0].speed, none);
  EXPECT_EQ(c[1].type, 2);
  ExpectBits(c[1].base, {0, 0, 0, 1});
  EXPECT_FALSE(std::signbit(c[1].base[2]));  // y^2 = 0: y and z stay +0.0
  EXPECT_EQ(c[1].speed, none);
  EXPECT_EQ(c[2].type, 1);
  EXPECT_EQ(c[2].base, (Quat{1, 2, 3, 1}));
  EXPECT_EQ(c[2].speed, (Quat{0.5f, 0, -1, 1}));
  EXPECT_EQ(c[2].keys, (std::vector<std::array<uint16_t, 3>>{{0, 0, 0}, {4, 0, 2}}));
  EXPECT_EQ(c[3].type, 2);
  ExpectBits(c[3].base, HandEuler(0.3f, -0.2f, 1.1f));  // the static angles are the base
  EXPECT_EQ(c[3].speed, none);
  EXPECT_EQ(c[4].type, 1);
  EXPECT_EQ(c[4].base, (Quat{0.1f, 0.2f, 0.3f, 1}));
  EXPECT_EQ(c[4].speed, (Quat{0.01f, 0.02f, 0.03f, 1}));
  EXPECT_EQ(c[5].type, 3);
  EXPECT_EQ(c[5].base, none);
  EXPECT_EQ(c[5].speed, none);
  ASSERT_EQ(c[5].quats.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const float key[2][3] = {{1, 2, 3}, {10, 20, 30}};
    const float base[3] = {0.1f, 0.2f, 0.3f}, step[3] = {0.01f, 0.02f, 0.03f};
    float angle[3];
    for (int n = 0; n < 3; ++n) {
      const float product = key[k][n] * step[n];
      angle[n] = base[n] + product;
    }
    ExpectBits(c[5].quats[k], HandEuler(angle[0], angle[1], angle[2]));
  }
  EXPECT_EQ(c[6].type, 1);  // c0 again, as a scale: its own channel
  EXPECT_EQ(c[6].keys, c[2].keys);
  for (const auto& ch : c) EXPECT_EQ(ch.key_count, ch.type == 1 ? 2u : ch.type == 3 ? 2u : 1u);
  // Blocks: vectors in the old address order (c2 at 0xF8 before c0 at 0x104), n2 and n6
  // (both c0) in channel order; then 16-aligned quaternions; pad to 4.
  auto block = [&](size_t i) { return 0x20 + 0x30 * i + size_t(c[i].key_offset); };
  EXPECT_EQ(block(4), 0x170u);
  EXPECT_EQ(block(2), 0x17Cu);
  EXPECT_EQ(block(6), 0x188u);
  EXPECT_EQ(block(5), 0x1A0u);
  for (size_t b = 0x194; b < 0x1A0; ++b) EXPECT_EQ(f.image[b], 0);
  for (size_t i : {0, 1, 3}) EXPECT_EQ(c[i].key_offset, 0);
  EXPECT_EQ(f.animation_offset, 0x1C0u);
  ASSERT_EQ(f.animations.size(), 2u);
  const auto& run = f.animations[0];
  EXPECT_EQ(run.name, "run");
  EXPECT_EQ(run.loop, 1);
  EXPECT_EQ(run.duration, 2.f);
  EXPECT_EQ(run.interval, 1.f);
  EXPECT_EQ(run.keyframes, 3);
  EXPECT_EQ(run.name_offset, 0x238u - 0x1C0u);
  EXPECT_EQ(run.bone_offset, 0x1F8 - 0x1C0);
  ASSERT_EQ(run.bones.size(), 2u);
  auto bone = [](const edf_canm::BoneEntry& e) { return std::array<int16_t, 4>{e.name_index, e.position, e.rotation, e.scale}; };
  EXPECT_EQ(bone(run.bones[0]), (std::array<int16_t, 4>{0, 0, 1, -1}));
  EXPECT_EQ(bone(run.bones[1]), (std::array<int16_t, 4>{1, 2, 3, -1}));
  const auto& idle = f.animations[1];
  EXPECT_EQ(idle.name, "idle");
  EXPECT_EQ(idle.loop, 0);
  EXPECT_EQ(idle.keyframes, 2);
  EXPECT_EQ(idle.name_offset, 0x22Eu - 0x1DCu);
  EXPECT_EQ(idle.bone_offset, 0x208 - 0x1DC);
  EXPECT_EQ(bone(idle.bones[0]), (std::array<int16_t, 4>{1, 4, 5, 6}));
  // Names, then the strings in the old pool's order: Scene_Root, idle, run, spine.
  EXPECT_EQ(f.name_offset, 0x210u);
  EXPECT_EQ(f.names[0].offset, 0x218u - 0x210u);
  EXPECT_EQ(f.names[1].offset, 0x240u - 0x214u);
  EXPECT_EQ(f.names[1].name, "spine");
  EXPECT_EQ(f.image.size(), 0x24Cu);
  EXPECT_EQ(edf_canm::Serialize(edf_canm::Parse(f.image)), f.image);
  // A 768 file does not convert again.
  EXPECT_THROW(edf_canm::ConvertTo768(f), Error);
}

// The conversion decodes to the same motion as its source (rotations within float rounding).
TEST(EdfCanm768, ConversionKeepsTheMotion) {
  SyntheticSpec spec;
  spec.joints = 5;
  spec.frames = 20;
  const Skeleton skeleton = SyntheticSkeleton(spec);
  const edf_canm::File src = edf_canm::EncodeClips({SyntheticClip(skeleton, spec)}, {});
  const edf_canm::File f = edf_canm::ConvertTo768(src);
  EXPECT_TRUE(f.warnings.empty());
  const auto a = edf_canm::DecodeClips(src, {});
  const auto b = edf_canm::DecodeClips(f, {});
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b[0].tracks.size(), a[0].tracks.size());
  for (size_t t = 0; t < a[0].tracks.size(); ++t) {
    const JointTrack& x = a[0].tracks[t];
    const JointTrack& y = b[0].tracks[t];
    EXPECT_EQ(x.translation.values, y.translation.values);
    EXPECT_EQ(x.scale.values, y.scale.values);
    ASSERT_EQ(x.rotation.values.size(), y.rotation.values.size());
    for (size_t k = 0; k < x.rotation.values.size(); ++k) EXPECT_LE(AngleBetween(x.rotation.values[k], y.rotation.values[k]), 1e-5);
  }
}

}  // namespace
}  // namespace animkit
