// The PS1 ANM writer's Euler angles, read as a reader that interpolates the stored
// angles themselves would read them: between two keys they must follow the rotation
// the clip makes, not swing the long way round.
#include <animkit/formats/psx_anm.hpp>

#include "support/test_support.hpp"

#include <cmath>
#include <numbers>

namespace animkit {
namespace {

constexpr double kUnit = 2 * std::numbers::pi / 4096;  // radians per stored angle unit

// Each object's stored angles (units) at every frame, the last written value held.
std::vector<std::vector<std::array<int16_t, 3>>> StoredAngles(const psx_anm::File& file, size_t objects) {
  std::vector<std::vector<std::array<int16_t, 3>>> out(objects, std::vector<std::array<int16_t, 3>>(file.frames.size()));
  for (size_t o = 0; o < objects; ++o) {
    std::array<int16_t, 3> held{};
    for (size_t f = 0; f < file.frames.size(); ++f) {
      for (const psx_anm::Keyframe& k : file.frames[f].keyframes)
        if (k.object == o && (k.flags & psx_anm::kFlagRotation)) held = k.rotation;
      out[o][f] = held;
    }
  }
  return out;
}

TEST(PsxAnmEuler, AnglesInterpolatedLinearlyFollowTheClipsRotationBetweenEveryPairOfKeys) {
  const Clip clip = SpinningClip();
  for (EulerOrder order : {EulerOrder::XYZ, EulerOrder::ZYX}) {
    const psx_anm::File file = psx_anm::EncodeClip(clip, psx_anm::DecodeSettings{order});
    const auto stored = StoredAngles(file, clip.tracks.size());
    double worst = 0;
    size_t pairs = 0;
    for (size_t j = 0; j < clip.tracks.size(); ++j) {
      const auto& keys = clip.tracks[j].rotation.values;
      for (size_t f = 0; f + 1 < file.frames.size(); ++f, ++pairs) {
        for (int step = 1; step <= 8; ++step) {
          const double t = step / 9.0;
          Vec3 e;
          float* axes[3] = {&e.x, &e.y, &e.z};
          for (size_t k = 0; k < 3; ++k) {
            const double a = stored[j][f][k], b = stored[j][f + 1][k];
            *axes[k] = float((a + (b - a) * t) * kUnit);
          }
          const double error = AngleBetween(QuatFromEuler(e, order), Slerp(keys[f], keys[f + 1], float(t)));
          worst = std::max(worst, error);
        }
      }
    }
    // Between two keys 12 to 18 degrees apart, interpolating the angles and interpolating
    // the rotation part by at most a few hundredths of a radian (0.027 measured, both
    // orders), plus the angles' rounding; a solution picked the long way round is off by
    // up to pi.
    EXPECT_LT(worst, 0.05) << (order == EulerOrder::XYZ ? "xyz" : "zyx") << " over " << pairs << " key pairs";
  }
}

TEST(PsxAnmEuler, EveryStoredRotationIsTheClipsWithinTheRounding) {
  const Clip clip = SpinningClip();
  const psx_anm::File file = psx_anm::EncodeClip(clip, psx_anm::DecodeSettings{});
  const auto stored = StoredAngles(file, clip.tracks.size());
  for (size_t j = 0; j < clip.tracks.size(); ++j) {
    for (size_t f = 0; f < file.frames.size(); ++f) {
      const Vec3 e{float(stored[j][f][0] * kUnit), float(stored[j][f][1] * kUnit), float(stored[j][f][2] * kUnit)};
      EXPECT_LE(AngleBetween(QuatFromEuler(e, EulerOrder::XYZ), clip.tracks[j].rotation.values[f]),
                3 * kUnit / 2 + 1e-5)
          << clip.tracks[j].joint << " frame " << f;
    }
  }
  // The 720-degree spin is stored unwrapped: two whole turns about Z, 8192 units.
  EXPECT_NEAR(std::abs(stored[0].back()[2] - stored[0].front()[2]), 8192, 2);
}

TEST(PsxAnmEuler, AnglesThatWouldLeaveTheFieldComeBackByWholeTurns) {
  // Eight and a half turns about Z, an eighth of a turn a frame: the unwrapped angle
  // would pass 32767 units (eight turns); the writer steps back by one turn once.
  Clip clip;
  clip.name = "wind";
  clip.SetFrames(8 * 8 + 5, 30);
  JointTrack track;
  track.joint = "#0";
  for (size_t f = 0; f < clip.frame_count; ++f) {
    track.rotation.Add(FrameTime(f, 30), AxisAngle({0, 0, 1}, float(2 * std::numbers::pi * double(f) / 8)));
  }
  clip.tracks.push_back(track);
  const psx_anm::File file = psx_anm::EncodeClip(clip, psx_anm::DecodeSettings{});
  const auto stored = StoredAngles(file, 1);
  int wraps = 0;
  for (size_t f = 0; f + 1 < stored[0].size(); ++f) {
    const int step = stored[0][f + 1][2] - stored[0][f][2];
    if (step == 512) continue;
    ++wraps;
    EXPECT_EQ(step, 512 - 4096) << "frame " << f;
  }
  EXPECT_EQ(wraps, 1);
}

}  // namespace
}  // namespace animkit
