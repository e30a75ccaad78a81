// Synthetic skeletons and motion: the project's own test data, samples and benchmarks.
// Deterministic: the same arguments always give the same floats.
#pragma once

#include <animkit/core/model.hpp>

#include <algorithm>
#include <cstdint>

namespace animkit {

// A small deterministic generator, so generated data is identical on every machine.
struct Lcg {
  uint32_t state;
  float Next() {  // [0, 1)
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  }
  int Below(int n) { return std::min(n - 1, static_cast<int>(Next() * static_cast<float>(n))); }
};

struct SyntheticSpec {
  int joints = 16;             // joints in a branching chain (spine, limbs)
  size_t frames = 60;          // frames in the clip
  double frame_rate = 30;
  float translation_scale = 10;  // distance between a joint and its parent
  float amplitude = 0.6f;        // peak joint swing, radians
  bool animate_scale = true;
  unsigned seed = 1;           // varies phases and axes
  std::string name = "synthetic";
};

// A tree: joint 0 is the root ("root"), the rest "joint_N", each parented to an
// earlier joint so that the tree has several branches.
Skeleton SyntheticSkeleton(const SyntheticSpec& spec);
// A 15-joint figure with the text ANM seed's joint names: hips > spine > neck > head,
// arms as chains (lShoulder > lElbow > lHand) and legs (lHip > lKnee > lFoot); rest
// poses at the identity.
Skeleton FigureSkeleton();
// A looping clip keyed at every frame (LINEAR): sine swings on every joint, a
// bobbing root translation, a breathing scale when animate_scale.
Clip SyntheticClip(const Skeleton& skeleton, const SyntheticSpec& spec);
// Three joints of one frame-rate-30 clip of 61 frames (2 s), keyed at every frame, whose
// rotations whole-turn Euler writers get wrong: "spin720" turns 720 degrees about Z
// while rocking 20 degrees about X, "spin540" 540 degrees about Y (through the gimbal
// pole at 90) while rocking about Z, "swing170" swings +-170 degrees about X.
Clip SpinningClip();
// SyntheticSkeleton(spec) and, unless skeleton_only, its SyntheticClip: the one
// scene set-up of tests, samples, the fuzz corpus and benchmarks.
Scene SyntheticScene(const SyntheticSpec& spec, bool skeleton_only = false);

// A two-joint arm whose every number can be checked by hand (tests/offline/skinning_test.cpp):
// "upper" at the origin, "lower" 2 up (+Y), rest rotations identity. Meshes: "arm", skinned,
// a 1-wide ribbon in the XY plane at y = 0 (all "upper"), 2 (half each) and 4 (all
// "lower"), normals +Z, UVs (x + 0.5, y / 4), material 0; "badge", rigid on "lower", the
// triangle (0,0,0) (1,0,0) (0,1,0) in its space, material 1; "floor", static, one
// triangle at y = -1, no material. Textures: 0 "skin" (2x2: red, green / blue, white at
// alpha 128), 1 "lost.dds" missing. Materials: 0 "skin" (texture 0, Mask at 0.25,
// single-sided), 1 "badge" (texture 1, base colour (1, 0.5, 0.25, 1), Blend). Clip "bend"
// (3 frames at 30 fps): "upper" moves from the origin to (2, 0, 0) and "lower" turns from
// identity to 90 degrees about +Z, both linearly over frames 0..2.
Scene SkinnedArmScene();

}  // namespace animkit
