// Values the CANM encoder cannot quantize: found by fuzzing (a decoded clip whose keys
// sampled to infinity made the quantizer convert NaN to uint16_t).
#include <animkit/formats/edf_canm.hpp>

#include "support/test_support.hpp"

#include <limits>

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

}  // namespace
}  // namespace animkit
