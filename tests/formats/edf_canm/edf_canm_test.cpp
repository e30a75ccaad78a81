#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kEdfCanmFormat;
namespace {

using Builder = test::LittleEndianBuilder;

// Version 512: one looping animation "run" (duration 4, interval 2, 3 keyframes) over two
// bones: Scene_Root (no channels) and spine (position channel 0, rotation channel 1).
// Channel 0: base (1, 2, 3), speed (0.5, 0, -1), keys (0,0,0) and (4,0,2).
// Channel 1: hasKeyframes = 0, base (0, 0, pi/2).
Bytes Golden512() {
  Builder w;
  w.b = {'C', 'A', 'N', 'M'};
  for (uint32_t v : {512u, 1u, 0x20u, 2u, 0x3Cu, 2u, 0x7Cu}) w.U32(v);
  EXPECT_EQ(w.size(), 0x20u);
  // Animation entry at 0x20.
  w.U32(1);            // loop
  w.U32(0xB6 - 0x20);  // name "run"
  w.F32(4.0f);         // duration
  w.F32(2.0f);         // interval
  w.U32(3);            // keyframes
  w.U32(2);            // bones
  w.U32(0x84 - 0x20);  // bone table
  EXPECT_EQ(w.size(), 0x3Cu);
  // Channel 0 at 0x3C.
  w.U16(1), w.U16(2);
  for (float v : {1.0f, 2.0f, 3.0f, 0.5f, 0.0f, -1.0f}) w.F32(v);
  w.U32(0x94 - 0x3C);
  // Channel 1 at 0x5C.
  w.U16(0), w.U16(1);
  for (float v : {0.0f, 0.0f, float(std::numbers::pi / 2), 0.0f, 0.0f, 0.0f}) w.F32(v);
  w.U32(0);
  EXPECT_EQ(w.size(), 0x7Cu);
  w.U32(0xA0 - 0x7C);  // name 0: Scene_Root
  w.U32(0xBE - 0x80);  // name 1: spine
  // Bone table at 0x84.
  for (uint16_t v : {0, 0xFFFF, 0xFFFF, 0xFFFF, 1, 0, 1, 0xFFFF}) w.U16(v);
  EXPECT_EQ(w.size(), 0x94u);
  for (uint16_t v : {0, 0, 0, 4, 0, 2}) w.U16(v);
  EXPECT_EQ(w.size(), 0xA0u);
  w.Str("Scene_Root");
  w.Str("run");
  w.Str("spine");
  EXPECT_EQ(w.size(), 0xCAu);
  return w.b;
}

// Version 768: animation "wave" (not looping, duration 1, interval 1, 2 keyframes), bones
// arm (position 0, rotation 2) and hand (rotation 1, scale 0).
// Channel 0: type 1, base 0, speed 1, keys (1,2,3), (4,5,6).
// Channel 1: type 2, static quaternion (0, 0.6, 0, 0.8).
// Channel 2: type 3, quaternions (0,0,0,1), (1,0,0,0).
Bytes Golden768() {
  Builder w;
  w.b = {'C', 'A', 'N', 'M'};
  for (uint32_t v : {768u, 1u, 0x20u, 3u, 0x3Cu, 2u, 0xCCu}) w.U32(v);
  w.U32(0), w.U32(0x122 - 0x20), w.F32(1.0f), w.F32(1.0f), w.U32(2), w.U32(2), w.U32(0xD4 - 0x20);
  EXPECT_EQ(w.size(), 0x3Cu);
  for (float v : {0.f, 0.f, 0.f, 0.f, 1.f, 1.f, 1.f, 0.f}) w.F32(v);
  w.U32(0xE4 - 0x3C), w.U32(1), w.U32(2), w.U32(0);
  for (float v : {0.f, 0.6f, 0.f, 0.8f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
  w.U32(0), w.U32(2), w.U32(0), w.U32(0);
  for (float v : {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f}) w.F32(v);
  w.U32(0xF0 - 0x9C), w.U32(3), w.U32(2), w.U32(0);
  EXPECT_EQ(w.size(), 0xCCu);
  w.U32(0x110 - 0xCC), w.U32(0x118 - 0xD0);
  for (uint16_t v : {0, 0, 2, 0xFFFF, 1, 0xFFFF, 1, 0}) w.U16(v);
  EXPECT_EQ(w.size(), 0xE4u);
  for (uint16_t v : {1, 2, 3, 4, 5, 6}) w.U16(v);
  for (float v : {0.f, 0.f, 0.f, 1.f, 1.f, 0.f, 0.f, 0.f}) w.F32(v);
  EXPECT_EQ(w.size(), 0x110u);
  w.Str("arm");
  w.Str("hand");
  w.Str("wave");
  EXPECT_EQ(w.size(), 0x12Cu);
  return w.b;
}

using test::ExpectQuat;
using test::ExpectVec;
using test::Has;

TEST(EdfCanm, ParsesEveryFieldOfVersion512) {
  const edf_canm::File f = edf_canm::Parse(Golden512());
  EXPECT_EQ(f.version, 512u);
  ASSERT_EQ(f.animations.size(), 1u);
  const auto& a = f.animations[0];
  EXPECT_EQ(a.name, "run");
  EXPECT_EQ(a.loop, 1);
  EXPECT_EQ(a.duration, 4.0f);
  EXPECT_EQ(a.interval, 2.0f);
  EXPECT_EQ(a.keyframes, 3);
  ASSERT_EQ(a.bones.size(), 2u);
  EXPECT_EQ(a.bones[1].name_index, 1);
  EXPECT_EQ(a.bones[1].position, 0);
  EXPECT_EQ(a.bones[1].rotation, 1);
  EXPECT_EQ(a.bones[1].scale, -1);
  ASSERT_EQ(f.channels.size(), 2u);
  EXPECT_EQ(f.channels[0].keys, (std::vector<std::array<uint16_t, 3>>{{0, 0, 0}, {4, 0, 2}}));
  EXPECT_EQ(f.channels[1].has_keyframes, 0);
  EXPECT_EQ(f.channels[1].key_count, 1u);
  EXPECT_TRUE(f.channels[1].keys.empty());
  ASSERT_EQ(f.names.size(), 2u);
  EXPECT_EQ(f.names[0].name, "Scene_Root");
  EXPECT_EQ(f.names[1].name, "spine");
}

TEST(EdfCanm, DecodesGoldenValuesOfVersion512) {
  const auto clips = edf_canm::DecodeClips(edf_canm::Parse(Golden512()), {});
  ASSERT_EQ(clips.size(), 1u);
  const Clip& c = clips[0];
  EXPECT_EQ(c.name, "run");
  EXPECT_TRUE(c.loop);
  EXPECT_DOUBLE_EQ(c.frame_rate, 30.0);  // 60 engine frames per second / interval 2
  EXPECT_EQ(c.frame_count, 3u);
  EXPECT_FLOAT_EQ(c.duration, 2.0f / 30.0f);
  ASSERT_EQ(c.tracks.size(), 2u);
  EXPECT_EQ(c.tracks[0].joint, "Scene_Root");
  EXPECT_TRUE(c.tracks[0].translation.empty() && c.tracks[0].rotation.empty() && c.tracks[0].scale.empty());
  EXPECT_EQ(c.tracks[1].joint, "spine");
  std::vector<TransformTRS> pose(2);
  const double h = std::sqrt(0.5);
  SampleClipJob{&c, nullptr, FrameTime(0, 30), pose}.Run();
  ExpectVec(pose[1].translation, 1, 2, 3);
  ExpectQuat(pose[1].rotation, 0, 0, h, h);  // pi/2 about Z
  ExpectVec(pose[1].scale, 1, 1, 1);
  SampleClipJob{&c, nullptr, FrameTime(1, 30), pose}.Run();
  ExpectVec(pose[1].translation, 1 + 4 * 0.5, 2, 3 - 2);
  SampleClipJob{&c, nullptr, FrameTime(2, 30), pose}.Run();  // past the channel's 2 keys: the last holds
  ExpectVec(pose[1].translation, 3, 2, 1);
  ExpectQuat(pose[1].rotation, 0, 0, h, h);
}

TEST(EdfCanm, DecodesGoldenValuesOfVersion768) {
  const edf_canm::File f = edf_canm::Parse(Golden768());
  EXPECT_EQ(f.channel_size(), 0x30u);
  EXPECT_EQ(f.channels[1].type, edf_canm::kTypeStaticQuat);
  const auto clips = edf_canm::DecodeClips(f, {});
  ASSERT_EQ(clips.size(), 1u);
  const Clip& c = clips[0];
  EXPECT_EQ(c.name, "wave");
  EXPECT_FALSE(c.loop);
  EXPECT_DOUBLE_EQ(c.frame_rate, 60.0);
  EXPECT_EQ(c.frame_count, 2u);
  ASSERT_EQ(c.tracks.size(), 2u);
  EXPECT_EQ(c.tracks[0].joint, "arm");
  EXPECT_EQ(c.tracks[1].joint, "hand");
  std::vector<TransformTRS> pose(2);
  SampleClipJob{&c, nullptr, 0, pose}.Run();
  ExpectVec(pose[0].translation, 1, 2, 3);
  ExpectQuat(pose[0].rotation, 0, 0, 0, 1);
  ExpectQuat(pose[1].rotation, 0, 0.6, 0, 0.8);
  ExpectVec(pose[1].scale, 1, 2, 3);
  SampleClipJob{&c, nullptr, FrameTime(1, 60), pose}.Run();
  ExpectVec(pose[0].translation, 4, 5, 6);
  ExpectQuat(pose[0].rotation, 1, 0, 0, 0);
  ExpectVec(pose[1].scale, 4, 5, 6);
}

TEST(EdfCanm, SampleJsonFollowsTheContract) {
  std::string out, err;
  const auto dir = test::TempDir("edf_canm_json");
  WriteFileAtomic((dir / "run.canm").string(), Golden512());
  ASSERT_EQ(test::RunCli("sample " + (dir / "run.canm").string(), &out, &err), 0) << err;
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["format"], "edf-canm");
  const auto& clip = j["clips"][0];
  EXPECT_EQ(clip["name"], "run");
  EXPECT_EQ(clip["frame_rate"], 30.0);
  EXPECT_EQ(clip["joints"], (nlohmann::json{"Scene_Root", "spine"}));
  ASSERT_EQ(clip["frames"].size(), 3u);
  EXPECT_EQ(clip["frames"][1][1]["t"], (nlohmann::json{3.0, 2.0, 1.0}));
}

TEST(EdfCanm, WritesBackByteForByte) {
  test::ExpectByteExactRoundTrip(kEdfCanmFormat, Golden512());
  test::ExpectByteExactRoundTrip(kEdfCanmFormat, Golden768());
  for (const char* name : {"soldier5.canm", "soldier6.canm"}) {
    test::ExpectByteExactRoundTrip(kEdfCanmFormat, ReadFileBytes(test::SourcePath(std::string("samples/edf_canm/") + name)));
  }
  // Gaps and trailing bytes survive, and an edited field is written where it was read.
  Bytes odd = Golden512();
  odd.insert(odd.end(), {0xAA, 0xBB, 0xCC});
  test::ExpectByteExactRoundTrip(kEdfCanmFormat, odd);
  edf_canm::File f = edf_canm::Parse(Golden512());
  f.animations[0].interval = 1.0f;
  f.channels[0].keys[1][0] = 8;
  const edf_canm::File g = edf_canm::Parse(edf_canm::Serialize(f));
  EXPECT_EQ(g.animations[0].interval, 1.0f);
  EXPECT_EQ(g.channels[0].keys[1][0], 8);
}

TEST(EdfCanm, EveryTruncationFails) {
  test::ExpectEveryTruncationFails(kEdfCanmFormat, Golden512());
  test::ExpectEveryTruncationFails(kEdfCanmFormat, Golden768());
  test::ExpectEveryTruncationFails(kEdfCanmFormat, ReadFileBytes(test::SourcePath("samples/edf_canm/soldier5.canm")));
  test::ExpectEveryTruncationFails(kEdfCanmFormat, ReadFileBytes(test::SourcePath("samples/edf_canm/soldier6.canm")));
}

TEST(EdfCanm, MalformedFilesGiveErrorsWithOffsets) {
  auto patch32 = [](Bytes b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
    return b;
  };
  const Bytes g = Golden512();
  Bytes bad = g;
  bad[0] = 'X';
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x0: expected the magic 'CANM', found 'XANM'");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 4, 1024)),
      "offset 0x4: unknown CANM version 1024 (0x400); known: 512 (EDF 4.1/5) and 768 (EDF 6)");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x08, 0x10000000)),
      "offset 0x20: animation table: count 268435456 of 28-byte entries does not fit");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x10, 0xFFFFFFFF)), "offset 0x3c: channel table: count 4294967295");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x14, 0x1000)),
      "offset 0x14: channel table offset points to 0x1000, past the end of the file (0xca)");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x3C + 0x1C, 0x500)),
      "offset 0x58: channel 0 key data offset points to 0x53c, past the end of the file (0xca)");
  bad = g;
  bad[0x3E] = 0x40;  // channel 0 claims 0x40 keys
  Has(test::ReadError(kEdfCanmFormat, bad),
      "offset 0x58: channel 0 key data runs past the end of the file (needs 0x214 bytes, file has 0xca)");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x20 + 0x18, 0x1000)),
      "offset 0x38: animation 0 bone table offset points to 0x1020, past the end");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x20 + 0x14, 0x4000000)), "offset 0x84: animation 0 bone table: count");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x20 + 0x10, 0x7FFFFFFF)), "offset 0x30: animation 0 claims 2147483647 keyframes");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x20 + 4, 0x4000)), "offset 0x24: animation 0 name points to 0x4020, outside the file");
  Has(test::ReadError(kEdfCanmFormat, patch32(g, 0x80, 0x4000)), "offset 0x80: bone name 1 points to 0x4080, outside the file");
  bad = g;
  bad[0x90] = 7;  // spine's rotation channel 7 of 2
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x90: animation 0 bone 1 rotation channel 7 does not exist (2 channels)");
  bad = g;
  bad[0x8C] = 9;  // spine names bone name 9 of 2
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x8c: animation 0 bone 1 names bone name 9, but the table has 2");
  bad = g;
  bad.resize(bad.size() - 2);  // "spine" loses its terminator
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0xbe: bone name 1 is not terminated");
  bad = Golden768();
  bad = patch32(bad, 0x3C + 0x24, 9);
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x60: channel 0 has unknown key type 9");
  bad = patch32(Golden768(), 0x3C + 0x28, 0xFFFFFFFF);
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0x64: channel 0 has a negative key count (-1)");
  bad = Golden768();
  bad[0xE2] = 1;  // hand's scale uses the static quaternion channel 1
  Has(test::ReadError(kEdfCanmFormat, bad), "offset 0xe2: animation 0 bone 1 uses quaternion channel 1 as its scale");

  // Every single-byte corruption of every table byte: an error or a valid file, nothing else.
  for (const Bytes& base : {Golden512(), Golden768()}) test::ExpectEveryByteCorruptionHandled(kEdfCanmFormat, base);
}

std::vector<Clip> SyntheticClips() {
  SyntheticSpec spec;
  spec.joints = 7;
  spec.frames = 45;
  spec.frame_rate = 30;
  spec.amplitude = 1.4f;  // wide swings: Euler angles cross +-pi
  const Skeleton skeleton = SyntheticSkeleton(spec);
  Clip a = SyntheticClip(skeleton, spec);
  spec.name = "second";
  spec.seed = 9;
  Clip b = SyntheticClip(skeleton, spec);
  b.tracks[3] = a.tracks[3];  // identical motion: its channels are shared
  return {a, b};
}

// Per component, a decoded value is within half a quantization step (speed / 2, that is
// (max - min) / 131070) of the source; an Euler rotation within the sum of its three
// components' half steps.
TEST(EdfCanm, EncodeThenDecodeStaysWithinTheQuantizationBound) {
  const auto source = SyntheticClips();
  for (uint32_t version : {edf_canm::kVersion5, edf_canm::kVersion6}) {
    edf_canm::EncodeSettings settings;
    settings.version = version;
    Value report;
    const edf_canm::File f = edf_canm::EncodeClips(source, settings, nullptr, &report);
    EXPECT_GT(report["shared_curves"].get<size_t>(), 2u);  // joint 3's curves are written once
    const auto decoded = edf_canm::DecodeClips(f, {});
    ASSERT_EQ(decoded.size(), 2u);
    for (size_t c = 0; c < 2; ++c) {
      const Clip& s = source[c];
      const Clip& d = decoded[c];
      ASSERT_EQ(d.frame_count, s.frame_count);
      EXPECT_DOUBLE_EQ(d.frame_rate, 30.0);
      EXPECT_EQ(f.animations[c].interval, 2.0f);
      const size_t n = s.tracks.size();
      ASSERT_EQ(d.tracks.size(), n);
      std::vector<TransformTRS> a(n), b(n);
      for (size_t i = 0; i < s.frame_count; ++i) {
        SampleClipJob{&s, nullptr, FrameTime(i, 30), a}.Run();
        SampleClipJob{&d, nullptr, FrameTime(i, 30), b}.Run();
        for (size_t j = 0; j < n; ++j) {
          const auto& bone = f.animations[c].bones[j];
          const auto& pos = f.channels[size_t(bone.position)];
          const auto& rot = f.channels[size_t(bone.rotation)];
          const auto& scl = f.channels[size_t(bone.scale)];
          EXPECT_NEAR(a[j].translation.x, b[j].translation.x, pos.speed[0] / 2 + 1e-5);
          EXPECT_NEAR(a[j].translation.y, b[j].translation.y, pos.speed[1] / 2 + 1e-5);
          EXPECT_NEAR(a[j].translation.z, b[j].translation.z, pos.speed[2] / 2 + 1e-5);
          EXPECT_NEAR(a[j].scale.x, b[j].scale.x, scl.speed[0] / 2 + 1e-5);
          const double rot_bound = version == edf_canm::kVersion6
                                       ? 1e-3  // float quaternions: rounding only
                                       : (rot.speed[0] + rot.speed[1] + rot.speed[2]) / 2 + 1e-3;
          EXPECT_LE(AngleBetween(a[j].rotation, b[j].rotation), rot_bound) << "clip " << c << " joint " << j;
        }
      }
    }
  }
}

TEST(EdfCanm, EncoderLayoutFollowsTheGame) {
  Clip clip;
  clip.name = "pose";
  clip.frame_rate = 60;
  clip.frame_count = 4;
  JointTrack still, moving;
  still.joint = "zeta";
  still.translation.times = {0};
  still.translation.values = {{5, 6, 7}};
  moving.joint = "Scene_Root";
  moving.translation.times = {0, FrameTime(3, 60)};
  moving.translation.values = {{0, 0, 0}, {3, 0, -3}};
  clip.tracks = {still, moving};
  const edf_canm::File f = edf_canm::EncodeClips({clip}, {}, nullptr);
  ASSERT_EQ(f.names.size(), 2u);
  EXPECT_EQ(f.names[0].name, "Scene_Root");  // first, the rest sorted
  EXPECT_EQ(f.names[1].name, "zeta");
  ASSERT_EQ(f.channels.size(), 2u);
  const auto& constant = f.channels[size_t(f.animations[0].bones[0].position)];
  EXPECT_EQ(constant.has_keyframes, 0);
  EXPECT_EQ(constant.key_count, 1u);
  EXPECT_EQ(constant.key_offset, 0);
  EXPECT_EQ(constant.speed, (std::array<float, 4>{0, 0, 0, 0}));
  EXPECT_EQ(constant.base, (std::array<float, 4>{5, 6, 7, 0}));
  const auto& animated = f.channels[size_t(f.animations[0].bones[1].position)];
  EXPECT_EQ(animated.has_keyframes, 1);
  EXPECT_EQ(animated.base, (std::array<float, 4>{0, 0, -3, 0}));  // base = min
  EXPECT_FLOAT_EQ(animated.speed[0], 3.0f / 65535);             // speed = (max - min) / 65535
  EXPECT_EQ(animated.keys.front(), (std::array<uint16_t, 3>{0, 0, 65535}));
  EXPECT_EQ(animated.keys.back(), (std::array<uint16_t, 3>{65535, 0, 0}));
  EXPECT_EQ(animated.keys[1], (std::array<uint16_t, 3>{21845, 0, 43690}));  // 1/3 and 2/3 of the range
  EXPECT_EQ(f.animations[0].keyframes, 4);
  EXPECT_EQ(f.animations[0].interval, 1.0f);
  EXPECT_EQ(f.animations[0].duration, 3.0f);
  // Strings are pooled at the end in the same order: Scene_Root, pose, zeta.
  const Bytes bytes = edf_canm::Serialize(f);
  const std::vector<uint16_t> tail = Utf16FromUtf8(std::string("Scene_Root") + '\0' + "pose" + '\0' + "zeta" + '\0');
  ASSERT_GE(bytes.size(), tail.size() * 2);
  for (size_t i = 0; i < tail.size(); ++i) {
    const size_t at = bytes.size() - tail.size() * 2 + 2 * i;
    EXPECT_EQ(bytes[at] | (bytes[at + 1] << 8), tail[i]);
  }
}

TEST(EdfCanm, GltfRoundTripWithTheMdbSkeleton) {
  const std::string canm = test::SourcePath("samples/edf_canm/soldier5.canm");
  const std::string mdb = test::SourcePath("samples/edf_canm/soldier.mdb");
  const Scene reference = LoadReference(mdb, Options{});
  ASSERT_EQ(reference.skeleton.joints.size(), 11u);
  const auto doc = kEdfCanmFormat.read(ReadFileBytes(canm), {});
  const Scene scene = doc->Decode(DecodeContext{&reference, {}});
  EXPECT_EQ(scene.skeleton.joints.size(), 11u);
  const Scene imported = ImportGltf(ExportGltf(scene, {}), "soldier.glb");
  // The MDB hierarchy, plus a node for Scene_Root, which the MDB lacks.
  ASSERT_GE(imported.skeleton.joints.size(), 12u);
  const int hip = imported.skeleton.Find("joint_6");
  ASSERT_GE(hip, 0);
  EXPECT_EQ(imported.skeleton.joints[size_t(imported.skeleton.joints[size_t(hip)].parent)].name, "joint_1");
  EXPECT_GE(imported.skeleton.Find("Scene_Root"), 0);

  EncodeContext ectx;
  ectx.reference = &reference;
  ectx.output_path = "out.canm";
  const Bytes again = kEdfCanmFormat.encode(imported, ectx)->Write();
  const auto clips = edf_canm::DecodeClips(edf_canm::Parse(again), {});
  ASSERT_EQ(clips.size(), scene.clips.size());
  for (size_t c = 0; c < clips.size(); ++c) {
    const Clip& s = scene.clips[c];
    const Clip* d = &clips[c];
    EXPECT_EQ(d->name, s.name);
    EXPECT_EQ(d->loop, s.loop);
    EXPECT_EQ(d->frame_count, s.frame_count);
    const size_t n = s.tracks.size();
    std::vector<TransformTRS> a(n), b(d->tracks.size());
    for (size_t i = 0; i < s.frame_count; ++i) {
      SampleClipJob{&s, nullptr, FrameTime(i, s.frame_rate), a}.Run();
      SampleClipJob{d, nullptr, FrameTime(i, d->frame_rate), b}.Run();
      for (size_t j = 0; j < n; ++j) {
        // A joint at its rest in every frame has no channel in the glb, so no track: its rest.
        const JointTrack* t = d->FindTrack(s.tracks[j].joint);
        const int joint = reference.skeleton.Find(s.tracks[j].joint);
        ASSERT_TRUE(t || joint >= 0) << s.tracks[j].joint;
        const TransformTRS& x = t ? b[size_t(t - d->tracks.data())] : reference.skeleton.joints[size_t(joint)].rest;
        // Values re-quantized over the same range: within one quantization step of the
        // source's decoded values, which lie on the source grid (speed <= range / 65535).
        EXPECT_NEAR(a[j].translation.y, x.translation.y, 1e-4);
        EXPECT_LE(AngleBetween(a[j].rotation, x.rotation), 2e-4);
      }
    }
  }
}

TEST(EdfCanm, CliConvertsBothWays) {
  const auto dir = test::TempDir("edf_canm_cli");
  const std::string canm = test::SourcePath("samples/edf_canm/soldier6.canm");
  const std::string mdb = test::SourcePath("samples/edf_canm/soldier.mdb");
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert " + canm + " " + (dir / "a.glb").string() + " --skeleton " + mdb, &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("convert " + (dir / "a.glb").string() + " " + (dir / "b.canm").string() + " --skeleton " + mdb +
                             " --canm-version 768",
                         &out, &err),
            0)
      << err;
  ASSERT_EQ(test::RunCli("validate " + (dir / "b.canm").string(), &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("info " + (dir / "b.canm").string() + " --json", &out, &err), 0) << err;
  EXPECT_NE(out.find("\"edf-canm\""), std::string::npos);
  ASSERT_EQ(test::RunCli("convert " + mdb + " " + (dir / "m.glb").string(), &out, &err), 0) << err;
  // Without --skeleton, bone names come from the glTF node names.
  ASSERT_EQ(test::RunCli("convert " + (dir / "a.glb").string() + " " + (dir / "c.canm").string(), &out, &err), 0) << err;
  const edf_canm::File c = edf_canm::Parse(ReadFileBytes((dir / "c.canm").string()));
  EXPECT_EQ(c.names.front().name, "Scene_Root");
  EXPECT_EQ(c.version, 768u);  // soldier6's own version, kept through the glTF's metadata
}

TEST(EdfCanm, ProbeRecognisesTheFormat) {
  EXPECT_EQ(Detect(Golden512(), "x.canm").format, &kEdfCanmFormat);
  EXPECT_EQ(Detect(Golden768(), "x.bin").format, &kEdfCanmFormat);
  EXPECT_EQ(kEdfCanmFormat.probe(Bytes{'M', 'D', 'B', '0'}, ".mdb"), kProbeNone);
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

// Many bone entries sharing one long channel: decoding refuses to create far more keys
// than the file's size justifies.
TEST(EdfCanm, SharedChannelsCannotAmplifyDecoding) {
  Builder w;
  const uint32_t bones = 20000, keys = 2000;
  const uint32_t names_at = 0x20 + 0x1C + 0x20, bones_at = names_at + 4, keys_at = bones_at + 8 * bones;
  const uint32_t strings_at = keys_at + 6 * keys;
  w.b = {'C', 'A', 'N', 'M'};
  for (uint32_t v : {512u, 1u, 0x20u, 1u, 0x3Cu, 1u, names_at}) w.U32(v);
  w.U32(0), w.U32(strings_at - 0x20), w.F32(float(keys - 1)), w.F32(1), w.U32(keys), w.U32(bones), w.U32(bones_at - 0x20);
  w.U16(1), w.U16(uint16_t(keys));
  for (int i = 0; i < 6; ++i) w.F32(1);
  w.U32(keys_at - 0x3C);
  w.U32(strings_at - names_at);
  for (uint32_t i = 0; i < bones; ++i) w.U16(0), w.U16(0), w.U16(0), w.U16(0);
  for (uint32_t i = 0; i < keys; ++i) w.U16(uint16_t(i)), w.U16(0), w.U16(0);
  w.Str("a");
  const edf_canm::File f = edf_canm::Parse(w.b);  // the file itself is valid
  try {
    (void)edf_canm::DecodeClips(f, {});
    ADD_FAILURE() << "decoding 120 million keys from a 172 KB file was allowed";
  } catch (const Error& e) {
    Has(e.what(), "offset 0x20: decoding up to animation 0 would create 120000000 keys");
  }
}

// A re-encode keeps the version of the CANM it came from (through glTF too), or of the
// --template it replaces, unless --canm-version says otherwise.
TEST(EdfCanm, ReencodingKeepsTheSourcesOrTheTemplatesVersion) {
  const std::filesystem::path dir = test::TempDir("canm-version-kept");
  const std::string v6 = test::SourcePath("samples/edf_canm/soldier6.canm");
  const std::string v5 = test::SourcePath("samples/edf_canm/soldier5.canm");
  const std::string mdb = test::SourcePath("samples/edf_canm/soldier.mdb");
  auto version_of = [](const std::string& path) { return edf_canm::Parse(ReadFileBytes(path)).version; };
  auto convert = [&](const std::string& in, const std::string& out, const std::string& templ, Options options) {
    ConvertRequest r;
    r.input = in;
    r.output = out;
    r.skeleton = mdb;
    r.template_path = templ;
    r.options = std::move(options);
    (void)Convert(r);
  };
  const std::string glb = (dir / "s6.glb").string();
  convert(v6, glb, "", {});
  convert(glb, (dir / "back.canm").string(), "", {});
  EXPECT_EQ(version_of((dir / "back.canm").string()), edf_canm::kVersion6);
  convert(glb, (dir / "as5.canm").string(), v5, {});
  EXPECT_EQ(version_of((dir / "as5.canm").string()), edf_canm::kVersion5);
  Options asked;
  asked.Set("canm-version", "512");
  convert(glb, (dir / "asked.canm").string(), "", asked);
  EXPECT_EQ(version_of((dir / "asked.canm").string()), edf_canm::kVersion5);
}

}  // namespace
}  // namespace animkit
