#include "support/expect_same.hpp"

namespace animkit::test {

void ExpectSameKeyValues(const Clip& actual, const Clip& expected) {
  ASSERT_EQ(actual.tracks.size(), expected.tracks.size()) << expected.name;
  for (size_t i = 0; i < expected.tracks.size(); ++i) {
    const JointTrack &a = actual.tracks[i], &e = expected.tracks[i];
    EXPECT_EQ(a.joint, e.joint) << expected.name << " track " << i;
    EXPECT_EQ(a.translation.values, e.translation.values) << expected.name << " " << e.joint << " translation";
    EXPECT_EQ(a.rotation.values, e.rotation.values) << expected.name << " " << e.joint << " rotation";
    EXPECT_EQ(a.scale.values, e.scale.values) << expected.name << " " << e.joint << " scale";
  }
}

}  // namespace animkit::test
