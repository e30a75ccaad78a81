// What the KH2 tests build motions from: keys and curves packed as the layout packs them,
// and an interpolated motion's first fields.
#pragma once

#include <animkit/formats/kh2.hpp>

namespace animkit::kh2_test {

using kh2::Channel;
using kh2::Curve;
using kh2::CycleType;
using kh2::KeyType;
using kh2::Motion;

// A key's packed word: type in bits 0-1, key time index in bits 2-15.
inline uint16_t PackKey(int time_index, KeyType type) { return uint16_t((time_index << 2) | int(type)); }

inline Curve CurveOf(int joint, Channel channel, int first_key, int key_count, CycleType pre = CycleType::Clamp,
                     CycleType post = CycleType::Clamp) {
  Curve c;
  c.joint = int16_t(joint);
  c.packed = uint8_t(int(channel) | (int(pre) << 4) | (int(post) << 6));
  c.first_key = uint16_t(first_key);
  c.key_count = uint8_t(key_count);
  return c;
}

// An interpolated motion of `bones` bones (no IK helpers yet) at fps, played from frame 0
// to frame_end; its tables are empty.
inline Motion InterpolatedMotionOf(int bones, float fps, float frame_end) {
  Motion m;
  m.interpolated.bone_count = m.interpolated.total_bone_count = int16_t(bones);
  m.interpolated.fps = fps;
  m.interpolated.frame_end = frame_end;
  return m;
}

}  // namespace animkit::kh2_test
