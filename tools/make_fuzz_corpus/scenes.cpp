// The scenes every encoder runs on.
#include <synthetic/synthetic.hpp>
#include <synthetic/synthetic_clips.hpp>

#include "corpus.hpp"

#include <cmath>
#include <numbers>

namespace animkit::fuzz_corpus {

Scene SmallScene(int joints, size_t frames, unsigned seed, bool scale) {
  Scene scene = SyntheticScene(
      {.joints = joints, .frames = frames, .animate_scale = scale, .seed = seed, .name = "clip" + std::to_string(seed)});
  Clip& clip = scene.clips.front();
  if (seed % 2 == 1) {
    clip.events.push_back({0.0f, "start", {1, 2}, std::nullopt});
    clip.events.push_back({clip.duration / 2, "middle", {}, clip.duration});
  }
  for (int j = 0; j < joints; ++j) {
    Mesh m;
    m.name = "part" + std::to_string(j);
    m.joint = j;
    m.positions = {{0, 0, 0}, {10, 0, 0}, {0, 10, 0}, {10, 10, float(j)}};
    m.triangles = {0, 1, 2, 1, 3, 2};
    m.lines = {0, 3};
    scene.meshes.push_back(std::move(m));
  }
  return scene;
}

Scene CameraScene(size_t frames, unsigned seed) {
  Scene scene;
  scene.clips.push_back(CameraClip(frames, [&](size_t f) {
    const double a = 2 * std::numbers::pi * double(f + seed) / double(frames + 1);
    return CameraKey{{float(300 * std::sin(a)), -50.0f * float(seed), float(-300 * std::cos(a))}, {0, float(seed), 0},
                     float(0.05 * double(f)), 0.8f};
  }));
  return scene;
}

}  // namespace animkit::fuzz_corpus
