// A CANM 512 clip through glTF and back from the extras alone: each channel's
// quantization (base and speed, and a rotation's first angles) travels in the clip
// metadata, so multi-turn channels come back on their own grid, byte for byte.
#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/gltf.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <numbers>

namespace animkit {
namespace {

using namespace edf_canm;

constexpr double kTurn = 2 * std::numbers::pi;

// R = Rz(z) Ry(y) Rx(x), in double (the math, not the library).
QuatXYZW EulerXYZ(double x, double y, double z) {
  const double cx = std::cos(x / 2), sx = std::sin(x / 2), cy = std::cos(y / 2), sy = std::sin(y / 2);
  const double cz = std::cos(z / 2), sz = std::sin(z / 2);
  return {float(sx * cy * cz - cx * sy * sz), float(cx * sy * cz + sx * cy * sz), float(cx * cy * sz - sx * sy * cz),
          float(cx * cy * cz + sx * sy * sz)};
}

// 300 frames: X turns three times, Z turns back twice, Y sways; a translation drifts.
Clip MultiTurnClip() {
  Clip clip;
  clip.name = "spin";
  clip.SetFrames(300, 30);
  JointTrack t;
  t.joint = "arm";
  for (size_t f = 0; f < clip.frame_count; ++f) {
    const double u = double(f) / 299;
    t.rotation.Add(FrameTime(f, 30), EulerXYZ(3 * kTurn * u, 0.4 * std::sin(5 * u), -2 * kTurn * u + 0.1));
    t.translation.Add(FrameTime(f, 30), {float(10 * u), float(std::sin(7 * u)), 2});
  }
  clip.tracks = {t};
  return clip;
}

TEST(EdfCanmExtras, MultiTurnChannelsComeBackFromTheExtrasOnTheirOwnGrid) {
  const Bytes original = Serialize(EncodeClips({MultiTurnClip()}, {}));
  const File file = Parse(original);
  Scene decoded;
  decoded.clips = DecodeClips(file, {});
  ASSERT_EQ(decoded.clips.size(), 1u);
  const Value& grids = decoded.clips[0].metadata[metadata_keys::kChannels];
  ASSERT_TRUE(grids.contains("arm"));
  ASSERT_EQ(grids["arm"]["rotation"].size(), 9u);  // base xyz, speed xyz, first angles xyz
  // The rotation's X spans three turns: a step is 3 turns / 65535, more than a turn's step.
  EXPECT_GT(grids["arm"]["rotation"][3].get<double>(), 2.5 * kTurn / 65535);

  const Scene through = ImportGltf(ExportGltf(decoded, {}), "spin.glb");
  ASSERT_EQ(through.clips.size(), 1u);
  const Bytes back = Serialize(EncodeClips(through.clips, {}));
  EXPECT_EQ(back, original) << "the extras' quantization gives back the same keys";

  // Every key: the same quaternion components (within float rounding, not a step).
  const std::vector<Clip> again = DecodeClips(Parse(back), {});
  const auto& a = decoded.clips[0].tracks[0].rotation.values;
  const auto& b = again[0].tracks[0].rotation.values;
  ASSERT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k)
    worst = std::max({worst, double(std::abs(a[k].x - b[k].x)), double(std::abs(a[k].y - b[k].y)),
                      double(std::abs(a[k].z - b[k].z)), double(std::abs(a[k].w - b[k].w))});
  EXPECT_LE(worst, 1e-6);
}

// An edit that leaves the grid (here: a translation beyond the channel's range) is
// quantized anew over its own range; the rest keep their grid.
TEST(EdfCanmExtras, AnEditOutsideTheGridIsQuantizedAnew) {
  Scene decoded;
  decoded.clips = DecodeClips(Parse(Serialize(EncodeClips({MultiTurnClip()}, {}))), {});
  Clip edited = decoded.clips[0];
  for (Vec3& v : edited.tracks[0].translation.values) v.x += 50;
  const File back = EncodeClips({edited}, {});
  const std::vector<Clip> again = DecodeClips(back, {});
  const auto& want = edited.tracks[0].translation.values;
  const auto& got = again[0].tracks[0].translation.values;
  ASSERT_EQ(want.size(), got.size());
  for (size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(got[k].x, want[k].x, 10.0 / 65535) << k;
}

}  // namespace
}  // namespace animkit
