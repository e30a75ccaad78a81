// The Metroid ANIM encoder: sparse keys within tolerance, quantization, the game's key
// counts; and round trips through glTF and the CLI.
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>

namespace animkit {
extern const FormatDescriptor kMetroidAnimFormat;
namespace {

using namespace metroid;

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
