// A KH2 moveset of real size: what a game character's MSET holds (by default 101
// interpolated clips over 229 joints, about a dozen triggers each), written by the
// project's own encoder. The benchmarks' and the front ends' scale tests' input.
#pragma once

#include <animkit/core/model.hpp>
#include <animkit/core/binary.hpp>
#include <synthetic/synthetic.hpp>

namespace animkit {

struct MovesetSpec {
  int clips = 101;
  int joints = 229;
  size_t min_frames = 20, max_frames = 130;  // each clip's frame count, uniform in between
  double frame_rate = 30;
  float moving_fraction = 0.3f;   // joints that swing in a clip (one to three Euler channels)
  float held_fraction = 0.15f;    // joints held at an offset from their rest; the rest keep the rest pose
  float scaled_fraction = 0.05f;  // swinging joints whose scale pulses too
  int events_per_clip = 11;       // about this many triggers (frame and range) per clip
  unsigned seed = 1;
};

// SyntheticSkeleton's branching tree with spec.joints joints.
Skeleton MovesetSkeleton(const MovesetSpec& spec);
// Clip `index` ("A000", "A001", ...): tracks named "#N", keyed at every frame (the encoder fits curves).
Clip MovesetClip(const Skeleton& skeleton, const MovesetSpec& spec, int index);
// An MSET of spec.clips ANB slots (kh2::EncodeAnb, default settings) over skeleton.
Bytes Kh2MovesetBytes(const Skeleton& skeleton, const MovesetSpec& spec);
// An MDLX archive whose model entry holds skeleton's bone table and no mesh.
Bytes Kh2SkeletonModelBytes(const Skeleton& skeleton);

}  // namespace animkit
