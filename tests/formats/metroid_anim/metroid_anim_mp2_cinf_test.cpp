// Metroid Prime 2: Echoes CINF (written here from the documented layout), the Echoes
// encoders' error bounds, and the CLI over an Echoes ANIM with its CINF.
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <fstream>

namespace animkit {
extern const FormatDescriptor kMetroidAnimFormat;
extern const FormatDescriptor kMetroidCinfFormat;
namespace {

using namespace metroid;
using test::Has;

// Three bones with ids 0..2, listed 2, 0, 1: bone 0 the root (parent 0x61), 1 its child
// at (0,1,0), 2 the child of 1 at (0,1,2). Offsets: bone records at 0x04 (60 bytes), 0x40
// (60), 0x7C (64); build order at 0xBC; names after it.
Bytes GoldenEchoesCinf() {
  ByteWriter w(Endian::Big);
  w.U32(3);
  auto bone = [&](uint32_t id, uint32_t parent, std::array<float, 3> origin, std::array<float, 4> local,
                  std::vector<uint32_t> linked) {
    w.U32(id), w.U32(parent);
    for (float c : origin) w.F32(c);
    for (float c : {1.f, 0.f, 0.f, 0.f}) w.F32(c);
    for (float c : local) w.F32(c);
    w.U32(uint32_t(linked.size()));
    for (uint32_t l : linked) w.U32(l);
  };
  bone(2, 1, {0, 1, 2}, {0.5f, 0.5f, 0.5f, 0.5f}, {1});
  bone(0, 0x61, {0, 0, 0}, {1, 0, 0, 0}, {1});
  bone(1, 0, {0, 1, 0}, {1, 0, 0, 0}, {0, 2});
  w.U32(3), w.U32(0), w.U32(1), w.U32(2);
  w.U32(2);
  for (char c : std::string("root")) w.U8(uint8_t(c));
  w.U8(0), w.U32(0);
  for (char c : std::string("spine")) w.U8(uint8_t(c));
  w.U8(0), w.U32(1);
  return w.Take();
}

void Mp2Put32(Bytes& b, size_t at, uint32_t v) {
  b[at] = uint8_t(v >> 24), b[at + 1] = uint8_t(v >> 16), b[at + 2] = uint8_t(v >> 8), b[at + 3] = uint8_t(v);
}

TEST(MetroidCinfMp2, DecodesTheEchoesSkeleton) {
  const CinfFile f = ParseCinf(GoldenEchoesCinf());
  ASSERT_EQ(f.game, Game::Echoes);
  ASSERT_EQ(f.bones.size(), 3u);
  EXPECT_EQ(f.bones[0].local_rotation, (std::array<float, 4>{0.5f, 0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(f.bones[2].linked, (std::vector<uint32_t>{0, 2}));
  const Scene s = DecodeCinf(f, RestRule::Relative);
  ASSERT_EQ(s.skeleton.joints.size(), 3u);
  EXPECT_EQ(s.skeleton.joints[0].name, "root");
  EXPECT_EQ(s.skeleton.joints[0].parent, -1);
  EXPECT_EQ(s.skeleton.joints[1].name, "spine");
  EXPECT_EQ(s.skeleton.joints[2].name, "#2");
  EXPECT_EQ(s.skeleton.joints[2].parent, 1);
  EXPECT_EQ(s.skeleton.joints[2].rest.translation, (Vec3{0, 0, 2}));
  EXPECT_EQ(BoneIdsOf(s), (std::vector<std::pair<std::string, uint32_t>>{{"root", 0}, {"spine", 1}, {"#2", 2}}));
  EXPECT_EQ(s.metadata[metadata_keys::kGame], 2);
  test::ExpectByteExactRoundTrip(kMetroidCinfFormat, GoldenEchoesCinf());
  test::ExpectEveryTruncationFails(kMetroidCinfFormat, GoldenEchoesCinf());
  test::ExpectEveryByteCorruptionHandled(kMetroidCinfFormat, GoldenEchoesCinf(), 0x40);
}

TEST(MetroidCinfMp2, ErrorsAndDispatch) {
  Bytes bad = GoldenEchoesCinf();
  Mp2Put32(bad, 0x04, 7);  // ids must be 0..2
  Has(test::ReadError(kMetroidCinfFormat, bad), "Echoes' (offset 0x4: bone 0 has id 7; an Echoes CINF numbers its 3 bones 0..2)");
  bad = GoldenEchoesCinf();
  Mp2Put32(bad, 0x08, 9);
  Has(test::ReadError(kMetroidCinfFormat, bad), "offset 0x8: bone 2 names parent 9, which is not in the file (97 means no parent)");
  bad = GoldenEchoesCinf();
  Mp2Put32(bad, 0x44, 2);  // root's parent 2: 0 -> 2 -> 1 -> 0
  Has(test::ReadError(kMetroidCinfFormat, bad), "form a cycle");
  bad = GoldenEchoesCinf();
  Mp2Put32(bad, 0, 0x01000000);
  Has(test::ReadError(kMetroidCinfFormat, bad), "bone records: count 16777216");
  // The layouts decide, or the option.
  const Bytes prime = ReadFileBytes(test::SourcePath("samples/metroid_cinf/skeleton.cinf"));
  EXPECT_EQ(ParseCinf(prime).game, Game::Prime);
  EXPECT_THROW(ParseCinf(prime, Game::Echoes), Error);
  EXPECT_THROW(ParseCinf(GoldenEchoesCinf(), Game::Prime), Error);
  ReadContext c;
  SetOption(c.options, "metroid-game", "2");
  EXPECT_EQ(kMetroidCinfFormat.read(GoldenEchoesCinf(), c)->Info()["game"], 2);
}

TEST(MetroidCinfMp2, EncodesDenseIdsFromZero) {
  Skeleton sk;
  sk.joints.push_back({"hips", -1, {}});
  sk.joints.push_back({"spine", 0, {}});
  sk.joints.push_back({"head", 1, {}});
  const CinfFile f = EncodeCinf(sk, {}, Game::Echoes);
  ASSERT_EQ(f.bones.size(), 3u);
  EXPECT_EQ(f.bones[0].id, 0u);
  EXPECT_EQ(f.bones[0].parent, kEchoesNoParent);
  EXPECT_EQ(f.bones[2].id, 2u);
  EXPECT_EQ(f.bones[2].parent, 1u);
  EXPECT_EQ(f.bones[1].rotation, (std::array<float, 4>{1, 0, 0, 0}));
  const CinfFile back = ParseCinf(SerializeCinf(f));
  EXPECT_EQ(back.game, Game::Echoes);
  EXPECT_EQ(SerializeCinf(back), SerializeCinf(f));
  EXPECT_EQ(AssignBoneIds({"a", "#1", "b"}, {}, Game::Echoes), (std::vector<uint32_t>{0, 1, 2}));
}

void Mp2WriteFile(const std::string& path, const Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

Clip Mp2SmoothClip(size_t frames, double rate) {
  Clip clip;
  clip.name = "smooth";
  clip.SetFrames(frames, rate);
  for (int j = 0; j < 4; ++j) {
    JointTrack t;
    t.joint = std::string(1, char('a' + j));
    for (size_t f = 0; f < frames; ++f) {
      const float time = FrameTime(f, rate);
      const float a = 1.1f * time + 0.5f * float(j);
      t.rotation.Add(time, QuatFromEuler({0.5f * std::sin(a), 0.4f * std::cos(0.5f * a), 0.1f * float(j)}, EulerOrder::XYZ));
      if (j < 2) t.translation.Add(time, {std::sin(a), 0.25f * std::cos(a), float(j)});
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

std::pair<double, double> Mp2MaxErrors(const Clip& src, const Clip& got) {
  double er = 0, ep = 0;
  for (const JointTrack& s : src.tracks) {
    const JointTrack* g = got.FindTrack(s.joint);
    EXPECT_NE(g, nullptr) << s.joint;
    if (!g) continue;
    for (size_t f = 0; f < src.frame_count; ++f) {
      const Seconds t = FrameTime(f, src.frame_rate);
      er = std::max(er, AngleBetween(SampleTrack(s.rotation, t), SampleTrack(g->rotation, t)));
      if (!s.translation.empty()) {
        const Vec3 a = SampleTrack(s.translation, t), b = SampleTrack(g->translation, t);
        ep = std::max(ep, double(std::hypot(a.x - b.x, a.y - b.y, a.z - b.z)));
      }
    }
  }
  return {er, ep};
}

TEST(MetroidAnimMp2Encoder, Version2WithinTheBoundsAndADescriptorPerBone) {
  const Clip source = Mp2SmoothClip(120, 30);
  EncodeSettings s;
  s.game = Game::Echoes;
  s.bone_count = 6;
  EncodeReport r;
  const Bytes bytes = SerializeAnim(EncodeAnim(source, s, &r));
  EXPECT_EQ(r.bytes, bytes.size());
  const AnimFile f = ParseAnim(bytes);
  ASSERT_EQ(f.game, Game::Echoes);
  ASSERT_EQ(f.echoes_v2.descriptors.size(), 6u);  // ids 0..3 animated, 4 and 5 empty
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(f.echoes_v2.descriptors[i].bone_id, i);
  EXPECT_EQ(f.echoes_v2.descriptors[5].byte_size(), 7u);
  EXPECT_EQ(f.echoes_v2.root_bone, 0u);
  EXPECT_EQ(f.echoes_v2.marker, (std::array<uint8_t, 2>{1, 1}));
  DecodeSettings names;
  for (uint32_t i = 0; i < 4; ++i) names.names.emplace_back(i, std::string(1, char('a' + i)));
  const auto [er, ep] = Mp2MaxErrors(source, DecodeAnim(f, names));
  EXPECT_LE(er, r.tolerance_rot + 1e-6);
  EXPECT_LE(ep, r.tolerance_pos + 1e-6);
  EXPECT_NEAR(er, r.max_error_rot, 1e-5);
  test::ExpectByteExactRoundTrip(kMetroidAnimFormat, bytes);
}

TEST(MetroidAnimMp2Encoder, Version0KeepsEveryFrame) {
  const Clip source = Mp2SmoothClip(20, 30);
  EncodeSettings s;
  s.game = Game::Echoes;
  s.version = 0;
  const Bytes bytes = SerializeAnim(EncodeAnim(source, s));
  std::vector<std::string> warnings;
  const AnimFile f = ParseAnim(bytes, std::nullopt, &warnings);
  ASSERT_EQ(f.game, Game::Echoes);
  EXPECT_TRUE(warnings.empty());
  DecodeSettings names;
  for (uint32_t i = 0; i < 4; ++i) names.names.emplace_back(i, std::string(1, char('a' + i)));
  const auto [er, ep] = Mp2MaxErrors(source, DecodeAnim(f, names));
  EXPECT_LE(er, 1e-5);
  EXPECT_LE(ep, 1e-5);
}

// The largest scale error over every frame of src's scaled tracks.
double Mp2MaxScaleError(const Clip& src, const Clip& got) {
  double e = 0;
  for (const JointTrack& s : src.tracks) {
    if (s.scale.empty()) continue;
    const JointTrack* g = got.FindTrack(s.joint);
    EXPECT_TRUE(g && !g->scale.empty()) << s.joint;
    if (!g || g->scale.empty()) continue;
    for (size_t f = 0; f < src.frame_count; ++f) {
      const Vec3 a = SampleTrack(s.scale, FrameTime(f, src.frame_rate)), b = SampleTrack(g->scale, FrameTime(f, src.frame_rate));
      e = std::max(e, double(std::hypot(a.x - b.x, a.y - b.y, a.z - b.z)));
    }
  }
  return e;
}

TEST(MetroidAnimMp2Encoder, ScaleIsWrittenForEchoes) {
  Clip source = Mp2SmoothClip(90, 30);
  for (size_t f = 0; f < 90; ++f) {
    const float t = FrameTime(f, 30);
    source.tracks[1].scale.Add(t, {1 + 0.2f * std::sin(2 * t), 1, 1 + 0.1f * std::cos(t)});
  }
  DecodeSettings names;
  for (uint32_t i = 0; i < 4; ++i) names.names.emplace_back(i, std::string(1, char('a' + i)));
  EncodeSettings s;
  s.game = Game::Echoes;
  EncodeReport r;
  const AnimFile v2 = ParseAnim(SerializeAnim(EncodeAnim(source, s, &r)));
  ASSERT_EQ(v2.game, Game::Echoes);
  EXPECT_GT(v2.echoes_v2.scale_multiplier, 0);
  EXPECT_TRUE(v2.echoes_v2.descriptors[1].scale.present());
  EXPECT_FALSE(v2.echoes_v2.descriptors[0].scale.present());
  const double e2 = Mp2MaxScaleError(source, DecodeAnim(v2, names));
  EXPECT_LE(e2, 0.001 + 1e-6);
  EXPECT_NEAR(e2, r.max_error_scale, 1e-6);
  s.version = 0;
  const AnimFile v0 = ParseAnim(SerializeAnim(EncodeAnim(source, s)));
  ASSERT_EQ(v0.game, Game::Echoes);
  EXPECT_EQ(v0.echoes_v0.ScalesPerFrame(), 1u);
  EXPECT_LE(Mp2MaxScaleError(source, DecodeAnim(v0, names)), 1e-6);
  // Echoes' version 0 tables are s8: 129 channels do not fit.
  Clip wide;
  wide.SetFrames(2, 30);
  for (int j = 0; j < 129; ++j) {
    JointTrack t;
    t.joint = "#" + std::to_string(j);
    t.rotation.Add(0, QuatXYZW{});
    wide.tracks.push_back(std::move(t));
  }
  Has(test::ErrorOf([&] { EncodeAnim(wide, s); }), "an Echoes version 0 ANIM holds at most 128 channels");
  // Metroid Prime has no scale: none is written.
  s.game = Game::Prime;
  s.version = 2;
  EXPECT_NO_THROW(EncodeAnim(source, s));
}

TEST(MetroidAnimMp2Cli, SampleAndConvertWithAnEchoesSkeleton) {
  const auto tmp = test::TempDir("metroid_mp2_cli");
  const Clip source = Mp2SmoothClip(30, 30);
  Skeleton sk;
  sk.joints.push_back({"a", -1, {}});
  sk.joints.push_back({"b", 0, {}});
  sk.joints.push_back({"c", 1, {}});
  sk.joints.push_back({"d", 1, {}});
  const std::string cinf = (tmp / "x.cinf").string(), anim = (tmp / "x.anim").string();
  Mp2WriteFile(cinf, SerializeCinf(EncodeCinf(sk, {}, Game::Echoes)));
  EncodeSettings s;
  s.game = Game::Echoes;
  Mp2WriteFile(anim, SerializeAnim(EncodeAnim(source, s)));
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample " + anim + " --skeleton " + cinf, &out, &err), 0) << err;
  EXPECT_NE(out.find("\"joints\": [\"a\""), std::string::npos) << out.substr(0, 400);
  const std::string glb = (tmp / "x.glb").string(), back = (tmp / "back.anim").string();
  ASSERT_EQ(test::RunCli("convert " + anim + " " + glb + " --skeleton " + cinf, &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("convert " + glb + " " + back + " --skeleton " + cinf, &out, &err), 0) << err;
  EXPECT_EQ(ParseAnim(ReadFileBytes(back)).game, Game::Echoes);
  // The option acts on every Metroid file of the run: the skeleton too is read as Metroid Prime's.
  EXPECT_EQ(test::RunCli("convert " + glb + " " + back + " --skeleton " + cinf + " --metroid-game 1", &out, &err), 1);
  Has(err, "x.cinf: offset 0x1c: bone 0 linked bone ids: count");
  ASSERT_EQ(test::RunCli("convert " + glb + " " + back + " --metroid-game 1", &out, &err), 0) << err;
  EXPECT_EQ(ParseAnim(ReadFileBytes(back)).game, Game::Prime);
}

}  // namespace
}  // namespace animkit
