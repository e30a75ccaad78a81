// The scenes every encoder runs on.
#include <synthetic/synthetic.hpp>

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
  Clip clip;
  clip.name = "camera";
  clip.SetFrames(frames, 30);
  CameraTrack cam;
  cam.name = "camera";
  for (size_t f = 0; f < frames; ++f) {
    const double a = 2 * std::numbers::pi * double(f + seed) / double(frames + 1);
    cam.times.push_back(FrameTime(f, 30));
    cam.positions.push_back({float(300 * std::sin(a)), -50.0f * float(seed), float(-300 * std::cos(a))});
    cam.targets.push_back({0, float(seed), 0});
    cam.roll.push_back(float(0.05 * double(f)));
    cam.yfov.push_back(0.8f);
  }
  clip.cameras.push_back(std::move(cam));
  scene.clips.push_back(std::move(clip));
  return scene;
}

}  // namespace animkit::fuzz_corpus
