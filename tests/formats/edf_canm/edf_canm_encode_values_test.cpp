// Values the CANM encoder cannot quantize: found by fuzzing (a decoded clip whose keys
// sampled to infinity made the quantizer convert NaN to uint16_t).
#include <animkit/formats/edf_canm.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <limits>
#include <numbers>

namespace animkit {
namespace {

Clip ClipWithTranslations(std::vector<Vec3> values) {
  Clip clip;
  clip.name = "walk";
  clip.frame_rate = 30;
  clip.frame_count = values.size();
  JointTrack track;
  track.joint = "hip";
  for (size_t i = 0; i < values.size(); ++i) track.translation.times.push_back(float(i) / 30.0f);
  track.translation.values = std::move(values);
  clip.tracks = {track};
  return clip;
}

TEST(EdfCanmEncode, ValuesThatAreNotFiniteAreAnErrorNamingTheJoint) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Vec3 bad : {Vec3{inf, 0, 0}, Vec3{0, -inf, 0}, Vec3{0, 0, nan}}) {
    const Clip clip = ClipWithTranslations({{0, 0, 0}, bad, {1, 1, 1}});
    try {
      (void)edf_canm::EncodeClips({clip}, {}, nullptr);
      ADD_FAILURE() << "encoding a value that is not finite must fail";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("joint 'hip' of clip 'walk'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
    }
  }
}

TEST(EdfCanmEncode, TheWidestFiniteRangeStillQuantizes) {
  const float max = std::numeric_limits<float>::max();
  const edf_canm::File f = edf_canm::EncodeClips({ClipWithTranslations({{-max, 0, 0}, {max, 0, 0}})}, {}, nullptr);
  ASSERT_EQ(f.channels.size(), 1u);
  const auto& channel = f.channels[0];
  EXPECT_EQ(channel.base[0], -max);  // base = min
  ASSERT_FALSE(channel.keys.empty());
  EXPECT_EQ(channel.keys.front()[0], 0);
  EXPECT_EQ(channel.keys.back()[0], 65535);
}

// Version 512 stores Euler angles as 16-bit steps over each angle's range: the writer
// takes, frame by frame, the solution nearest the previous one and centres each angle
// on zero by whole turns, so the range is the motion's own and the error half a step.
TEST(EdfCanmEncode, EulerAnglesFollowTheMotionAndLoseAtMostHalfAStepPerAngle) {
  const Clip clip = SpinningClip();
  const edf_canm::File file = edf_canm::EncodeClips({clip}, {}, nullptr);
  const Clip decoded = edf_canm::DecodeClips(edf_canm::Parse(edf_canm::Serialize(file)), {}).at(0);
  ASSERT_EQ(file.animations.at(0).bones.size(), clip.tracks.size());
  const double pi = std::numbers::pi;
  // The motion's own span of each angle (nearest solutions): spin720 turns 4 pi about Z.
  const std::vector<double> widest = {4 * pi, 3 * pi, 2 * pi};
  for (const edf_canm::BoneEntry& bone : file.animations[0].bones) {
    ASSERT_GE(bone.rotation, 0);
    const edf_canm::Channel& c = file.channels.at(size_t(bone.rotation));
    const std::string joint = file.names.at(size_t(bone.name_index)).name;
    const size_t j = size_t(std::find_if(clip.tracks.begin(), clip.tracks.end(),
                                         [&](const JointTrack& t) { return t.joint == joint; }) -
                            clip.tracks.begin());
    ASSERT_LT(j, clip.tracks.size()) << joint;
    double half_steps = 0;
    for (size_t k = 0; k < 3; ++k) {
      const double lo = c.base[k], hi = c.base[k] + 65535.0 * c.speed[k];
      EXPECT_LE(hi - lo, widest[j] + 0.5) << joint << " angle " << k;
      EXPECT_LE(std::abs(lo + hi) / 2, pi) << joint << " angle " << k << ": centred on zero by whole turns";
      half_steps += c.speed[k] / 2;
    }
    // Keys step by less than pi: nothing swings the long way round.
    for (size_t f = 1; f < c.keys.size(); ++f)
      for (size_t k = 0; k < 3; ++k)
        EXPECT_LT(std::abs(double(c.keys[f][k]) - c.keys[f - 1][k]) * c.speed[k], pi / 2) << joint << " key " << f;
    // The three rotations compose: the angle error is at most the sum of the half steps.
    const JointTrack& got = decoded.tracks.at(j);
    for (size_t f = 0; f < clip.frame_count; ++f) {
      const QuatXYZW q = f < got.rotation.values.size() ? got.rotation.values[f] : got.rotation.values.back();
      EXPECT_LE(AngleBetween(q, clip.tracks[j].rotation.values[f]), half_steps + 2e-6) << joint << " frame " << f;
    }
  }
}

}  // namespace
}  // namespace animkit
