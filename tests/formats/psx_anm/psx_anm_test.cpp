#include <animkit/formats/psx_anm.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kPsxAnmFormat;
namespace {

using psx_anm::DecodeSettings;
using psx_anm::MissingField;

// Two frames, written by hand from the format description:
// frame 0: object 0 with rotation (1024, 0, 0), scale (4096, 8192, 2048), position (10, -20, 30);
//          object 1 with position (1, 2, 3);
// frame 1: object 0 with rotation (0, 0, 2048) only.
const Bytes kGolden = {
    0x00, 0x80, 30, 0, 2, 0,           // marker, unknown = 30, 2 frames
    6, 0, 20, 0, 24, 0,                // offsets /2: 12, 40, 48
    0, 7, 0x00, 0x04, 0, 0, 0, 0,      // object 0, flags 7, rotation 1024, 0, 0
    0x00, 0x10, 0x00, 0x20, 0x00, 0x08,  // scale 4096, 8192, 2048
    10, 0, 0xEC, 0xFF, 30, 0,          // position 10, -20, 30
    1, 4, 1, 0, 2, 0, 3, 0,            // object 1, flags 4, position 1, 2, 3
    0, 1, 0, 0, 0, 0, 0x00, 0x08,      // frame 1: object 0, flags 1, rotation 0, 0, 2048
};

using test::ExpectQuat;

TEST(PsxAnm, ParsesEveryFieldOfTheGoldenFile) {
  psx_anm::File f = psx_anm::Parse(kGolden);
  EXPECT_EQ(f.marker, 0x8000);
  EXPECT_EQ(f.unknown, 30);
  ASSERT_EQ(f.frames.size(), 2u);
  ASSERT_EQ(f.frames[0].keyframes.size(), 2u);
  ASSERT_EQ(f.frames[1].keyframes.size(), 1u);
  const auto& k0 = f.frames[0].keyframes[0];
  EXPECT_EQ(k0.object, 0);
  EXPECT_EQ(k0.flags, 7);
  EXPECT_EQ(k0.rotation, (std::array<int16_t, 3>{1024, 0, 0}));
  EXPECT_EQ(k0.scale, (std::array<int16_t, 3>{4096, 8192, 2048}));
  EXPECT_EQ(k0.position, (std::array<int16_t, 3>{10, -20, 30}));
  EXPECT_EQ(f.frames[0].keyframes[1].position, (std::array<int16_t, 3>{1, 2, 3}));
  EXPECT_EQ(f.frames[1].keyframes[0].rotation, (std::array<int16_t, 3>{0, 0, 2048}));
  EXPECT_TRUE(f.gap.empty());
  EXPECT_TRUE(f.trailing.empty());
}

TEST(PsxAnm, DecodesGoldenValues) {
  Clip clip = psx_anm::DecodeClip(psx_anm::Parse(kGolden), DecodeSettings{});
  EXPECT_DOUBLE_EQ(clip.frame_rate, 30.0);
  EXPECT_EQ(clip.frame_count, 2u);
  EXPECT_FLOAT_EQ(clip.duration, 1.0f / 30.0f);
  ASSERT_EQ(clip.tracks.size(), 2u);
  EXPECT_EQ(clip.tracks[0].joint, "#0");
  EXPECT_EQ(clip.tracks[1].joint, "#1");

  std::vector<TransformTRS> pose(2);
  SampleClipJob{&clip, nullptr, FrameTime(0, 30), pose}.Run();
  const double h = std::sqrt(0.5);  // 1024/4096 turn = 90 degrees about X
  ExpectQuat(pose[0].rotation, h, 0, 0, h);
  EXPECT_EQ(pose[0].scale, (Vec3{1.0f, 2.0f, 0.5f}));
  EXPECT_EQ(pose[0].translation, (Vec3{10, -20, 30}));
  ExpectQuat(pose[1].rotation, 0, 0, 0, 1);
  EXPECT_EQ(pose[1].scale, (Vec3{1, 1, 1}));
  EXPECT_EQ(pose[1].translation, (Vec3{1, 2, 3}));

  SampleClipJob{&clip, nullptr, FrameTime(1, 30), pose}.Run();
  ExpectQuat(pose[0].rotation, 0, 0, 1, 0);                  // 2048/4096 turn = 180 degrees about Z
  EXPECT_EQ(pose[0].scale, (Vec3{1, 1, 1}));                 // no scale in the keyframe: 1
  EXPECT_EQ(pose[0].translation, (Vec3{10, -20, 30}));       // no position: held
  EXPECT_TRUE(IsVisible(clip.tracks[0], 1));
  EXPECT_TRUE(IsVisible(clip.tracks[1], 0));
  EXPECT_FALSE(IsVisible(clip.tracks[1], 1));                // no keyframe in frame 1: hidden
}

TEST(PsxAnm, EulerOrderOption) {
  // One keyframe rotating 90 degrees about X and 90 degrees about Y.
  const Bytes file = {0x00, 0x80, 60, 0, 1, 0, 5, 0, 9, 0, 0, 1, 0x00, 0x04, 0x00, 0x04, 0, 0};
  const double h = std::sqrt(0.5);
  const QuatXYZW qx{float(h), 0, 0, float(h)}, qy{0, float(h), 0, float(h)};
  std::vector<TransformTRS> pose(1);

  Clip xyz = psx_anm::DecodeClip(psx_anm::Parse(file), DecodeSettings{EulerOrder::XYZ});
  SampleClipJob{&xyz, nullptr, 0, pose}.Run();
  const QuatXYZW a = Multiply(qy, qx);  // R = Ry * Rx: X applied first
  ExpectQuat(pose[0].rotation, a.x, a.y, a.z, a.w);

  Clip zyx = psx_anm::DecodeClip(psx_anm::Parse(file), DecodeSettings{EulerOrder::ZYX});
  SampleClipJob{&zyx, nullptr, 0, pose}.Run();
  const QuatXYZW b = Multiply(qx, qy);  // R = Rx * Ry: Y applied first
  ExpectQuat(pose[0].rotation, b.x, b.y, b.z, b.w);
}

TEST(PsxAnm, MissingFieldsHoldOrInterpolate) {
  // Object 0: frame 0 rotation X = 0, frame 1 nothing, frame 2 rotation X = 1024.
  const Bytes file = {0x00, 0x80, 60, 0, 3, 0, 7, 0, 11, 0, 12, 0, 16, 0,  // header + 4 offsets (14 bytes)
                      0, 1, 0, 0, 0, 0, 0, 0,                              // frame 0
                      0, 0,                                                // frame 1: no fields
                      0, 1, 0x00, 0x04, 0, 0, 0, 0};                       // frame 2
  std::vector<TransformTRS> pose(1);
  Clip hold = psx_anm::DecodeClip(psx_anm::Parse(file), DecodeSettings{EulerOrder::XYZ, MissingField::Hold});
  SampleClipJob{&hold, nullptr, FrameTime(1, 60), pose}.Run();
  ExpectQuat(pose[0].rotation, 0, 0, 0, 1);

  Clip lerp = psx_anm::DecodeClip(psx_anm::Parse(file), DecodeSettings{EulerOrder::XYZ, MissingField::Interpolate});
  SampleClipJob{&lerp, nullptr, FrameTime(1, 60), pose}.Run();
  const double s = std::sin(std::numbers::pi / 8), c = std::cos(std::numbers::pi / 8);  // 512 units = 45 degrees
  ExpectQuat(pose[0].rotation, s, 0, 0, c);
}

TEST(PsxAnm, InterpolateHoldsTheFirstValueBeforeItAsTheImportersCurvesDo) {
  // Object 0: frame 0 keyed without fields, frame 1 rotation X = 1024 (a quarter turn).
  const Bytes file = {0x00, 0x80, 60, 0, 2, 0, 6, 0, 7, 0, 11, 0,  // header + 3 offsets (/2): 12, 14, 22
                      0, 0,                                          // frame 0: object 0, no fields
                      0, 1, 0x00, 0x04, 0, 0, 0, 0};                 // frame 1
  std::vector<TransformTRS> pose(1);
  Clip hold = psx_anm::DecodeClip(psx_anm::Parse(file), DecodeSettings{EulerOrder::XYZ, MissingField::Hold});
  SampleClipJob{&hold, nullptr, FrameTime(0, 60), pose}.Run();
  ExpectQuat(pose[0].rotation, 0, 0, 0, 1);  // identity before any
  Clip lerp = psx_anm::DecodeClip(psx_anm::Parse(file), DecodeSettings{EulerOrder::XYZ, MissingField::Interpolate});
  SampleClipJob{&lerp, nullptr, FrameTime(0, 60), pose}.Run();
  const double h = std::sqrt(0.5);
  ExpectQuat(pose[0].rotation, h, 0, 0, h);  // the first value, held backwards
}

TEST(PsxAnm, WritesBackByteForByte) {
  test::ExpectByteExactRoundTrip(kPsxAnmFormat, kGolden);
  // Unknown flag bits, a gap after the table and trailing bytes survive too.
  Bytes odd = {0x00, 0x80, 15, 0, 1, 0, 6, 0, 7, 0, 0xAA, 0xBB, 3, 0x80, 0xCC, 0xDD};
  test::ExpectByteExactRoundTrip(kPsxAnmFormat, odd);
  psx_anm::File f = psx_anm::Parse(odd);
  EXPECT_EQ(f.gap, (Bytes{0xAA, 0xBB}));
  EXPECT_EQ(f.frames[0].keyframes[0].flags, 0x80);
  EXPECT_EQ(f.trailing, (Bytes{0xCC, 0xDD}));
}

TEST(PsxAnm, EveryTruncationFails) { test::ExpectEveryTruncationFails(kPsxAnmFormat, kGolden); }

Clip WaveClip() {
  Clip clip;
  clip.name = "wave";
  clip.SetFrames(40, 30);
  for (int j = 0; j < 3; ++j) {
    JointTrack t;
    t.joint = "#" + std::to_string(j * 2);
    for (size_t f = 0; f < clip.frame_count; ++f) {
      const float time = FrameTime(f, 30), a = 0.7f * f + j;
      t.translation.Add(time, {100 * std::sin(a), 50.0f * j, -30 * std::cos(a)});
      t.rotation.Add(time, QuatFromEuler({0.9f * std::sin(a), 0.4f * std::cos(a * 0.5f), 1.3f * j - 1}, EulerOrder::XYZ));
      t.scale.Add(time, {1.0f + 0.25f * std::sin(a), 1, 0.75f});
    }
    if (j == 1) {
      t.visible.assign(clip.frame_count, true);
      t.visible[5] = t.visible[6] = false;
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

std::vector<std::string> SampleFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::SourcePath("samples/psx_anm"))) {
    if (e.path().extension() == ".anm") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(PsxAnm, EverySampleRoundTripsAndEveryTruncationFails) {
  const auto files = SampleFiles();
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const Bytes data = ReadFileBytes(path);
    test::ExpectByteExactRoundTrip(kPsxAnmFormat, data);
    test::ExpectEveryTruncationFails(kPsxAnmFormat, data);
  }
}

// Poses of two clips at every frame of a: rotation angle, translation and scale distance.
struct PoseError {
  double rotation = 0, translation = 0, scale = 0;
};
PoseError MaxPoseError(const Clip& a, const Clip& b) {
  PoseError e;
  std::vector<TransformTRS> pa(a.tracks.size()), pb(b.tracks.size());
  for (size_t f = 0; f < a.frame_count; ++f) {
    SampleClipJob{&a, nullptr, FrameTime(f, a.frame_rate), pa}.Run();
    SampleClipJob{&b, nullptr, FrameTime(f, b.frame_rate), pb}.Run();
    for (size_t j = 0; j < a.tracks.size(); ++j) {
      const JointTrack* other = b.FindTrack(a.tracks[j].joint);
      EXPECT_NE(other, nullptr) << a.tracks[j].joint;
      if (!other) continue;
      const size_t k = static_cast<size_t>(other - b.tracks.data());
      EXPECT_EQ(IsVisible(a.tracks[j], f), IsVisible(*other, f)) << a.tracks[j].joint << " frame " << f;
      if (!IsVisible(a.tracks[j], f)) continue;
      e.rotation = std::max<double>(e.rotation, AngleBetween(pa[j].rotation, pb[k].rotation));
      const Vec3 dt = pa[j].translation - pb[k].translation, ds = pa[j].scale - pb[k].scale;
      e.translation = std::max<double>(e.translation, std::max({std::abs(dt.x), std::abs(dt.y), std::abs(dt.z)}));
      e.scale = std::max<double>(e.scale, std::max({std::abs(ds.x), std::abs(ds.y), std::abs(ds.z)}));
    }
  }
  return e;
}

TEST(PsxAnm, GltfToPsxAnmToGltfKeepsPosesWithinTheQuantizationBound) {
  // A glTF authored elsewhere: synthetic motion, joints named as PS1 objects, one hidden stretch.
  Clip source = WaveClip();
  Scene authored;
  authored.clips.push_back(source);
  const Bytes glb = ExportGltf(authored, {});
  const Scene imported = ImportGltf(glb, "authored.glb");
  ASSERT_EQ(imported.clips.size(), 1u);

  EncodeContext ectx;
  const Bytes anm = kPsxAnmFormat.encode(imported, ectx)->Write();
  const Scene decoded = kPsxAnmFormat.read(anm, {})->Decode({});
  const Scene back = ImportGltf(ExportGltf(decoded, {}), "back.glb");
  ASSERT_EQ(back.clips.size(), 1u);
  ASSERT_EQ(back.clips[0].frame_count, source.frame_count);
  const PoseError e = MaxPoseError(source, back.clips[0]);
  EXPECT_LE(e.rotation, 3 * std::numbers::pi / 4096 + 1e-5);
  EXPECT_LE(e.translation, 0.5 + 1e-4);
  EXPECT_LE(e.scale, 0.5 / 4096 + 1e-6);
}

TEST(PsxAnm, DecodedSampleSurvivesGltfAndBackExactly) {
  // A PS1 file -> glTF -> PS1: the values are already quantized, so the bytes come back.
  for (const std::string& path : SampleFiles()) {
    SCOPED_TRACE(path);
    const Bytes data = ReadFileBytes(path);
    const Scene scene = kPsxAnmFormat.read(data, {})->Decode({});
    const Scene imported = ImportGltf(ExportGltf(scene, {}), "x.glb");
    EncodeContext ectx;
    EXPECT_EQ(kPsxAnmFormat.encode(imported, ectx)->Write(), data);
  }
}

TEST(PsxAnm, CorruptedFieldsGiveErrorsWithOffsets) {
  Bytes bad = kGolden;
  bad[1] = 0x7F;
  EXPECT_NE(test::ReadError(kPsxAnmFormat, bad).find("offset 0x0: expected the marker 0x8000"), std::string::npos);

  bad = kGolden;
  bad[4] = 0xFF, bad[5] = 0xFF;  // 65535 frames: the table alone would need 128 KiB
  EXPECT_NE(test::ReadError(kPsxAnmFormat, bad).find("frame offset table: count 65536"), std::string::npos);

  bad = kGolden;
  bad[8] = 2;  // frame 1 before frame 0
  EXPECT_NE(test::ReadError(kPsxAnmFormat, bad).find("offset 0x8: frame 1 offset 0x4 is before frame 0"),
            std::string::npos);

  bad = kGolden;
  bad[6] = 1;  // frame 0 inside the header
  EXPECT_NE(test::ReadError(kPsxAnmFormat, bad).find("inside the header"), std::string::npos);

  bad = kGolden;
  bad[33] = 7;  // object 1 claims rotation+scale+position, the frame has room for position only
  EXPECT_NE(test::ReadError(kPsxAnmFormat, bad).find("offset 0x22: frame 0 keyframe for object 1"), std::string::npos);

  bad = kGolden;
  bad[10] = 200;  // end offset past the end of the file
  EXPECT_NE(test::ReadError(kPsxAnmFormat, bad).find("past the end of the file"), std::string::npos);

  // Every single-byte corruption of every header and table byte: an error or a valid file, nothing else.
  test::ExpectEveryByteCorruptionHandled(kPsxAnmFormat, kGolden, 12);
}


TEST(PsxAnm, EncodeThenDecodeStaysWithinTheQuantizationBound) {
  const Clip source = WaveClip();
  for (EulerOrder order : {EulerOrder::XYZ, EulerOrder::ZYX}) {
    DecodeSettings settings{order};
    const Bytes bytes = psx_anm::Serialize(psx_anm::EncodeClip(source, settings));
    const Clip decoded = psx_anm::DecodeClip(psx_anm::Parse(bytes), settings);
    ASSERT_EQ(decoded.frame_count, source.frame_count);
    ASSERT_EQ(decoded.tracks.size(), 3u);
    std::vector<TransformTRS> a(3), b(3);
    for (size_t f = 0; f < source.frame_count; ++f) {
      SampleClipJob{&source, nullptr, FrameTime(f, 30), a}.Run();
      SampleClipJob{&decoded, nullptr, FrameTime(f, 30), b}.Run();
      for (size_t j = 0; j < 3; ++j) {
        ASSERT_EQ(IsVisible(source.tracks[j], f), IsVisible(decoded.tracks[j], f));
        if (!IsVisible(source.tracks[j], f)) continue;
        // Angles round to 1/4096 turn per axis, half a unit (pi/4096 rad) at most each; the three
        // rotations compose, so the overall angle is at most the sum: 3 * pi / 4096.
        EXPECT_LE(AngleBetween(a[j].rotation, b[j].rotation), 3 * std::numbers::pi / 4096 + 1e-5);
        EXPECT_NEAR(a[j].translation.x, b[j].translation.x, 0.5);
        EXPECT_NEAR(a[j].translation.z, b[j].translation.z, 0.5);
        EXPECT_NEAR(a[j].scale.x, b[j].scale.x, 0.5 / 4096 + 1e-6);
      }
    }
  }
}

// A clip of frames at 60 per second with one joint standing still at position.
Clip StillClip(size_t frames, const std::string& joint, Vec3 position) {
  Clip clip;
  clip.SetFrames(frames, 60);
  JointTrack still;
  still.joint = joint;
  still.translation.times = {0};
  still.translation.values = {position};
  clip.tracks.push_back(still);
  return clip;
}

TEST(PsxAnm, EncoderWritesTheSmallestFlags) {
  const Clip clip = StillClip(3, "#4", {5, 6, 7});
  const psx_anm::File f = psx_anm::EncodeClip(clip, DecodeSettings{});
  ASSERT_EQ(f.frames.size(), 3u);
  EXPECT_EQ(f.frames[0].keyframes.at(0).object, 4);
  EXPECT_EQ(f.frames[0].keyframes.at(0).flags, psx_anm::kFlagPosition);  // identity rotation, unit scale: omitted
  EXPECT_EQ(f.frames[1].keyframes.at(0).flags, 0);                       // unchanged: held
  EXPECT_EQ(f.frames[2].keyframes.at(0).flags, 0);
  EXPECT_EQ(psx_anm::Serialize(f).size(), 6u + 8 + 8 + 2 + 2);
}

TEST(PsxAnm, EncoderRejectsWhatTheFormatCannotHold) {
  Clip clip = StillClip(1, "#0", {40000, 0, 0});
  EXPECT_THROW(psx_anm::EncodeClip(clip, DecodeSettings{}), Error);
  clip.tracks[0].translation.values[0].x = 0;
  clip.tracks[0].joint = "#300";
  EXPECT_THROW(psx_anm::EncodeClip(clip, DecodeSettings{}), Error);
}

// A TMD with one object (one vertex, no primitives): header {0x41, flags 0, 1 object},
// record {vert_top 0x1C, 1, normal_top 0, 0, prim_top 0, 0, scale 0}, the vertex.
Bytes OneObjectTmd() {
  ByteWriter w(Endian::Little);
  for (uint32_t v : {0x41u, 0u, 1u, 0x1Cu, 1u, 0u, 0u, 0u, 0u, 0u}) w.U32(v);
  for (int i = 0; i < 4; ++i) w.I16(0);
  return w.Take();
}

TEST(PsxAnm, KeyframeForAnObjectTheSkeletonLacksIsAnError) {
  // kGolden keys objects 0 and 1; frame 0 starts at 12 and its object 0 keyframe
  // (flags 7) takes 2 + 18 bytes, so the object 1 keyframe is at 12 + 20 = 0x20.
  const psx_anm::File f = psx_anm::Parse(kGolden);
  try {
    psx_anm::CheckObjects(f, 1, "the --skeleton model");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.byte_offset(), 0x20u);
    EXPECT_EQ(e.message(), "frame 0 keyframe animates object 1, but the --skeleton model has 1 objects (0..0)");
  }
  EXPECT_NO_THROW(psx_anm::CheckObjects(f, 2, "the --skeleton model"));

  const auto dir = test::TempDir("psx_anm_objects");
  const std::string anm = (dir / "walk.anm").string(), tmd = (dir / "model.tmd").string();
  WriteFileAtomic(anm, kGolden);
  WriteFileAtomic(tmd, OneObjectTmd());
  std::string out, err;
  EXPECT_EQ(test::RunCli("validate " + anm + " --skeleton " + tmd, &out, &err), 1) << out << err;
  EXPECT_NE(out.find(anm + ": offset 0x20: frame 0 keyframe animates object 1, but the --skeleton model has 1 objects"),
            std::string::npos)
      << out;
  EXPECT_NE(test::RunCli("sample " + anm + " --skeleton " + tmd, &out, &err), 0);
  EXPECT_NE(err.find("offset 0x20"), std::string::npos) << err;
  // Without the skeleton the objects are just numbered joints.
  EXPECT_EQ(test::RunCli("validate " + anm + " --skeleton none", &out, &err), 0) << out << err;
  EXPECT_NE(out.find("OK (skeleton: none)"), std::string::npos) << out;
  // model.tmd is walk.anm's companion (the only .tmd beside it) but does not fit: not used,
  // and the warning names both files.
  EXPECT_EQ(test::RunCli("validate " + anm, &out, &err), 0) << out << err;
  EXPECT_NE(out.find("OK (skeleton: none)"), std::string::npos) << out;
  EXPECT_NE(err.find("walk.anm: warning: model.tmd does not fit walk.anm"), std::string::npos) << err;
  EXPECT_NE(err.find("decoded without it"), std::string::npos) << err;
}

TEST(PsxAnm, ProbeRecognisesTheFormat) {
  EXPECT_EQ(Detect(kGolden, "x.anm").format, &kPsxAnmFormat);
  EXPECT_GE(kPsxAnmFormat.probe(kGolden, ".anm"), kProbeStructure);
  const Bytes text = {'a', 's', ' ', 'x', '\n'};
  EXPECT_EQ(kPsxAnmFormat.probe(text, ".anm"), kProbeNone);
}

}  // namespace
}  // namespace animkit
