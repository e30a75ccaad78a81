#include <animkit/formats/psx_anc.hpp>
#include <animkit/formats/registry.hpp>

#include "formats/gltf/gltf_internal.hpp"
#include "support/test_support.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numbers>

namespace animkit {
extern const FormatDescriptor kPsxAncFormat;
namespace {

using psx_anc::DecodeSettings;

// Two keyframes written by hand from the format description: header (marker,
// unknown = 30, 2 keyframes), then {position, target, twist, fov} x 2.
const Bytes kGolden = {
    0x00, 0x80, 30, 0, 2, 0,
    0x00, 0x01, 0, 0, 0x00, 0xFF,  // position 256, 0, -256
    0, 0, 0x9C, 0xFF, 0, 0,        // target 0, -100, 0
    0x00, 0x04, 0x00, 0x02,        // twist 1024, fov 512
    0x00, 0x02, 0, 0, 0, 0,        // position 512, 0, 0
    0, 0, 0, 0, 0, 0,              // target 0, 0, 0
    0, 0, 0x00, 0x01,              // twist 0, fov 256
};

TEST(PsxAnc, ParsesEveryFieldOfTheGoldenFile) {
  const psx_anc::File f = psx_anc::Parse(kGolden);
  EXPECT_EQ(f.marker, 0x8000);
  EXPECT_EQ(f.unknown, 30);
  ASSERT_EQ(f.keyframes.size(), 2u);
  EXPECT_EQ(f.keyframes[0].position, (std::array<int16_t, 3>{256, 0, -256}));
  EXPECT_EQ(f.keyframes[0].target, (std::array<int16_t, 3>{0, -100, 0}));
  EXPECT_EQ(f.keyframes[0].twist, 1024);
  EXPECT_EQ(f.keyframes[0].fov, 512);
  EXPECT_EQ(f.keyframes[1].position, (std::array<int16_t, 3>{512, 0, 0}));
  EXPECT_EQ(f.keyframes[1].fov, 256);
  EXPECT_TRUE(f.trailing.empty());
}

TEST(PsxAnc, DecodesGoldenValues) {
  const Clip clip = psx_anc::DecodeClip(psx_anc::Parse(kGolden), DecodeSettings{});
  EXPECT_DOUBLE_EQ(clip.frame_rate, 30.0);
  EXPECT_EQ(clip.frame_count, 2u);
  EXPECT_TRUE(clip.tracks.empty());
  ASSERT_EQ(clip.cameras.size(), 1u);
  const CameraTrack& c = clip.cameras[0];
  EXPECT_EQ(c.interpolation, Interpolation::Step);
  ASSERT_EQ(c.times.size(), 2u);
  EXPECT_FLOAT_EQ(c.times[1], 1.0f / 30);
  EXPECT_EQ(c.positions[0], (Vec3{256, 0, -256}));
  EXPECT_EQ(c.targets[0], (Vec3{0, -100, 0}));
  EXPECT_NEAR(c.roll[0], std::numbers::pi / 2, 1e-6);  // 1024 of 4096 per turn
  EXPECT_TRUE(c.yfov.empty());                         // raw by default: unit unknown
  EXPECT_EQ(c.metadata[psx_anc::metadata_keys::kFovRaw], (Value{512, 256}));
  EXPECT_EQ(c.metadata[psx_anc::metadata_keys::kTwistRaw], (Value{1024, 0}));

  DecodeSettings angle;
  angle.fov = psx_anc::FovUnit::Angle4096;
  EXPECT_NEAR(psx_anc::DecodeClip(psx_anc::Parse(kGolden), angle).cameras[0].yfov[0], std::numbers::pi / 4, 1e-6);
  DecodeSettings projection;
  projection.fov = psx_anc::FovUnit::Projection;
  // A projection distance of 256 against a 240-line screen: 2 atan(120 / 256).
  EXPECT_NEAR(psx_anc::DecodeClip(psx_anc::Parse(kGolden), projection).cameras[0].yfov[1], 2 * std::atan(120.0 / 256),
              1e-6);
  DecodeSettings ignore;
  ignore.twist = psx_anc::TwistUnit::Ignore;
  EXPECT_EQ(psx_anc::DecodeClip(psx_anc::Parse(kGolden), ignore).cameras[0].roll[0], 0.0f);
}

TEST(PsxAnc, WritesBackByteForByte) {
  test::ExpectByteExactRoundTrip(kPsxAncFormat, kGolden);
  Bytes odd = kGolden;
  odd.insert(odd.end(), {0x12, 0x34, 0x56});
  test::ExpectByteExactRoundTrip(kPsxAncFormat, odd);
  EXPECT_EQ(psx_anc::Parse(odd).trailing, (Bytes{0x12, 0x34, 0x56}));
  const Bytes sample = ReadFileBytes(test::SourcePath("samples/psx_anc/orbit.anc"));
  test::ExpectByteExactRoundTrip(kPsxAncFormat, sample);
}

TEST(PsxAnc, EveryTruncationFails) {
  test::ExpectEveryTruncationFails(kPsxAncFormat, kGolden);
  const Bytes sample = ReadFileBytes(test::SourcePath("samples/psx_anc/orbit.anc"));
  test::ExpectEveryTruncationFails(kPsxAncFormat, sample);
}

TEST(PsxAnc, CorruptedFieldsGiveErrorsWithOffsets) {
  Bytes bad = kGolden;
  bad[1] = 0x7F;
  EXPECT_NE(test::ReadError(kPsxAncFormat, bad).find("offset 0x0: expected the marker 0x8000"), std::string::npos);
  bad = kGolden;
  bad[4] = 0xFF, bad[5] = 0xFF;  // 65535 keyframes in 38 bytes
  EXPECT_NE(test::ReadError(kPsxAncFormat, bad).find("offset 0x6: camera keyframes: count 65535 of 16-byte entries"),
            std::string::npos)
      << test::ReadError(kPsxAncFormat, bad);
  test::ExpectEveryByteCorruptionHandled(kPsxAncFormat, kGolden, 6);
}

TEST(PsxAnc, EncodeThenDecodeIsExactWithRawValuesAndBoundedWithout) {
  Clip clip = psx_anc::DecodeClip(psx_anc::Parse(kGolden), DecodeSettings{});
  EXPECT_EQ(psx_anc::Serialize(psx_anc::EncodeClip(clip, DecodeSettings{})), kGolden);
  // Without the raw values, twist comes back from the roll (quantized to 1/4096 turn)
  // and the field of view from yfov under the same unit.
  DecodeSettings angle;
  angle.fov = psx_anc::FovUnit::Angle4096;
  clip = psx_anc::DecodeClip(psx_anc::Parse(kGolden), angle);
  clip.cameras[0].metadata = Value::object();
  clip.cameras[0].roll[1] = 0.1f;
  const psx_anc::File f = psx_anc::EncodeClip(clip, angle);
  EXPECT_EQ(f.keyframes[0].twist, 1024);
  EXPECT_EQ(f.keyframes[0].fov, 512);
  EXPECT_EQ(f.keyframes[1].twist, std::lround(0.1 * 4096 / (2 * std::numbers::pi)));
  clip.cameras[0].positions[0].x = 1e6f;
  EXPECT_THROW(psx_anc::EncodeClip(clip, angle), Error);
}

TEST(PsxAnc, ExportsAnAnimatedGltfCamera) {
  const Bytes sample = ReadFileBytes(test::SourcePath("samples/psx_anc/orbit.anc"));
  const Scene scene = kPsxAncFormat.read(sample, {})->Decode({});
  const Bytes glb = ExportGltf(scene, GltfExportOptions{});  // .glb
  const tinygltf::Model g = gltf::LoadModel(glb, "orbit.glb");
  ASSERT_EQ(g.cameras.size(), 1u);
  EXPECT_EQ(g.cameras[0].type, "perspective");
  int camera_node = -1;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].camera == 0) camera_node = int(i);
  ASSERT_GE(camera_node, 0);
  ASSERT_EQ(g.animations.size(), 1u);
  int channels = 0;
  for (const auto& ch : g.animations[0].channels) {
    if (ch.target_node != camera_node) continue;
    ++channels;
    const auto& sampler = g.animations[0].samplers.at(size_t(ch.sampler));
    EXPECT_EQ(g.accessors.at(size_t(sampler.input)).count, 45u);
    if (ch.target_path != "rotation") continue;
    // Frame 0's rotation points the camera's -Z at the target.
    const auto& out = g.accessors.at(size_t(sampler.output));
    const auto& view = g.bufferViews.at(size_t(out.bufferView));
    const float* q = reinterpret_cast<const float*>(g.buffers[0].data.data() + view.byteOffset + out.byteOffset);
    const Vec3 forward = Rotate(QuatXYZW{q[0], q[1], q[2], q[3]}, Vec3{0, 0, -1});
    const CameraTrack& cam = scene.clips[0].cameras[0];
    Vec3 d = cam.targets[0] - cam.positions[0];
    d = d * (1 / std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z));
    EXPECT_NEAR(forward.x, d.x, 1e-4);
    EXPECT_NEAR(forward.y, d.y, 1e-4);
    EXPECT_NEAR(forward.z, d.z, 1e-4);
  }
  EXPECT_EQ(channels, 2);

  const char* env = std::getenv("ANIMKIT_NODE_MODULES");
  const std::string modules = env && *env ? env : "/tmp/gv/node_modules";
  if (!std::filesystem::exists(std::filesystem::path(modules) / "gltf-validator") ||
      std::system("node --version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "glTF validator not installed";
  const auto dir = test::TempDir("psx-anc-gltf");
  {
    std::ofstream f(dir / "orbit.glb", std::ios::binary);
    f.write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  }
  const std::string cmd = "ANIMKIT_NODE_MODULES='" + modules + "' node '" +
                          test::SourcePath("tools/gltf-validate/validate.mjs") + "' '" + (dir / "orbit.glb").string() +
                          "' > '" + (dir / "report.json").string() + "'";
  const int status = std::system(cmd.c_str());
  std::ifstream in(dir / "report.json");
  const auto report = nlohmann::json::parse(in, nullptr, false);
  EXPECT_EQ(status, 0) << report.dump();
  EXPECT_EQ(report.value("errors", -1), 0) << report.dump();
  EXPECT_EQ(report.value("warnings", -1), 0) << report.dump();
}

// glTF keeps an ANC camera: eye, the point looked at (its rotation and the stored
// target distance), roll and raw values come back, so ANC -> glTF -> ANC is exact.
TEST(PsxAnc, GltfCarriesTheCameraBackToTheSameFile) {
  const Bytes sample = ReadFileBytes(test::SourcePath("samples/psx_anc/orbit.anc"));
  const Scene scene = kPsxAncFormat.read(sample, {})->Decode({});
  const Scene back = ImportGltf(ExportGltf(scene, GltfExportOptions{}), "orbit.glb");
  ASSERT_EQ(back.clips.size(), 1u);
  ASSERT_EQ(back.clips[0].cameras.size(), 1u);
  EXPECT_TRUE(back.clips[0].tracks.empty());  // the camera node is not a joint
  EXPECT_TRUE(back.skeleton.joints.empty());
  const CameraTrack& a = scene.clips[0].cameras[0];
  const CameraTrack& b = back.clips[0].cameras[0];
  ASSERT_EQ(b.times.size(), a.times.size());
  for (size_t k = 0; k < a.times.size(); ++k) {
    EXPECT_NEAR(b.positions[k].x, a.positions[k].x, 1e-4);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR((&b.targets[k].x)[c], (&a.targets[k].x)[c], 0.02) << "key " << k;  // float aim over ~600 units
    EXPECT_NEAR(b.roll[k], a.roll[k], 1e-5) << "key " << k;
  }
  EncodeContext context;
  EXPECT_EQ(kPsxAncFormat.encode(back, context)->Write(), sample);

  // Without the raw values the converted ones are written: the same twist, to the unit.
  Scene converted = back;
  converted.clips[0].cameras[0].metadata = Value::object();
  const psx_anc::File again = psx_anc::Parse(kPsxAncFormat.encode(converted, context)->Write());
  const psx_anc::File original = psx_anc::Parse(sample);
  ASSERT_EQ(again.keyframes.size(), original.keyframes.size());
  for (size_t k = 0; k < again.keyframes.size(); ++k) {
    EXPECT_EQ(again.keyframes[k].target, original.keyframes[k].target) << "key " << k;
    EXPECT_NEAR(again.keyframes[k].twist, original.keyframes[k].twist, 1) << "key " << k;
  }
}

TEST(PsxAnc, ProbeRecognisesTheFormat) {
  EXPECT_EQ(Detect(kGolden, "x.anc").format, &kPsxAncFormat);
  EXPECT_EQ(kPsxAncFormat.probe(kGolden, ".anc"), kProbeMagic);
  // Damaged or foreign bytes: the marker with the extension is a damaged ANC (read for
  // its error), the extension alone a weak claim, neither nothing.
  EXPECT_EQ(kPsxAncFormat.probe(Bytes{0x00, 0x80, 0, 0, 9, 0}, ".anc"), kProbeDamaged);
  EXPECT_EQ(kPsxAncFormat.probe(Bytes{'x', 'y'}, ".anc"), kProbeExtension);
  EXPECT_EQ(kPsxAncFormat.probe(Bytes{0x00, 0x80, 0, 0, 9, 0}, ".bin"), kProbeNone);
}

}  // namespace
}  // namespace animkit
