#include <animkit/offline/sampling.hpp>
#include <synthetic/synthetic.hpp>

#include <cmath>
#include <numbers>

namespace animkit {

Skeleton SyntheticSkeleton(const SyntheticSpec& spec) {
  Skeleton s;
  Lcg rng{spec.seed * 2654435761u + 17};
  for (int i = 0; i < spec.joints; ++i) {
    Joint j;
    j.name = i == 0 ? "root" : "joint_" + std::to_string(i);
    // Five branches from the root, each a chain: parent is the previous joint of the branch.
    j.parent = i == 0 ? -1 : (i <= 5 ? 0 : i - 5);
    const float a = 2 * std::numbers::pi_v<float> * static_cast<float>(i % 5) / 5;
    j.rest.translation = i == 0 ? Vec3{0, 0, 0}
                                : Vec3{std::cos(a) * spec.translation_scale * 0.5f, spec.translation_scale,
                                       std::sin(a) * spec.translation_scale * 0.5f};
    j.rest.rotation = QuatFromEuler({0.1f * rng.Next(), 0.2f * rng.Next(), 0.1f * rng.Next()}, EulerOrder::XYZ);
    s.joints.push_back(j);
  }
  return s;
}

Skeleton FigureSkeleton() {
  const std::pair<const char*, int> joints[] = {
      {"hips", -1},     {"spine", 0},  {"neck", 1}, {"head", 2},  {"lShoulder", 1}, {"lElbow", 4}, {"lHand", 5},
      {"rShoulder", 1}, {"rElbow", 7}, {"lHip", 0}, {"lKnee", 9}, {"lFoot", 10},    {"rHip", 0},   {"rKnee", 12},
      {"rFoot", 13}};
  Skeleton s;
  for (const auto& [name, parent] : joints) s.joints.push_back(Joint{name, parent, {}});
  return s;
}

Clip SyntheticClip(const Skeleton& skeleton, const SyntheticSpec& spec) {
  Clip clip;
  clip.name = spec.name;
  clip.SetFrames(spec.frames, spec.frame_rate);
  clip.loop = true;
  Lcg rng{spec.seed * 7919u + 3};
  const double cycle = static_cast<double>(spec.frames > 1 ? spec.frames - 1 : 1);
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    const Joint& joint = skeleton.joints[j];
    JointTrack t;
    t.joint = joint.name;
    const float phase = 2 * std::numbers::pi_v<float> * rng.Next();
    const Vec3 axis = [&] {
      Vec3 v{rng.Next() - 0.5f, rng.Next() - 0.5f, rng.Next() - 0.5f};
      float len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
      return len > 1e-3f ? v * (1 / len) : Vec3{0, 0, 1};
    }();
    for (size_t f = 0; f < spec.frames; ++f) {
      const Seconds time = FrameTime(f, spec.frame_rate);
      const float u = static_cast<float>(2 * std::numbers::pi * static_cast<double>(f) / cycle);
      const QuatXYZW swing = AxisAngle(axis, spec.amplitude * std::sin(u + phase));
      t.rotation.Add(time, Normalize(Multiply(joint.rest.rotation, swing)));
      Vec3 p = joint.rest.translation;
      if (j == 0) p = p + Vec3{0, spec.translation_scale * 0.2f * std::sin(2 * u), spec.translation_scale * 0.1f * std::cos(u)};
      t.translation.Add(time, p);
      if (spec.animate_scale) {
        const float s = 1 + 0.1f * std::sin(u + phase);
        t.scale.Add(time, {s, s, s});
      }
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

Clip SpinningClip() {
  constexpr size_t kFrames = 61;
  const double deg = std::numbers::pi / 180;
  Clip clip;
  clip.name = "spin";
  clip.SetFrames(kFrames, 30);
  const Vec3 x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1};
  const std::vector<std::string> names = {"spin720", "spin540", "swing170"};
  for (size_t j = 0; j < names.size(); ++j) {
    JointTrack track;
    track.joint = names[j];
    for (size_t f = 0; f < kFrames; ++f) {
      const double u = double(f) / double(kFrames - 1), wave = std::sin(2 * std::numbers::pi * u);
      QuatXYZW q;
      if (j == 0) q = Multiply(AxisAngle(z, float(720 * deg * u)), AxisAngle(x, float(20 * deg * wave)));
      if (j == 1) q = Multiply(AxisAngle(y, float(540 * deg * u)), AxisAngle(z, float(15 * deg * wave)));
      if (j == 2) q = Multiply(AxisAngle(x, float(170 * deg * wave)), AxisAngle(y, float(10 * deg)));
      track.rotation.Add(FrameTime(f, 30), q);
    }
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

Scene SyntheticScene(const SyntheticSpec& spec, bool skeleton_only) {
  Scene scene;
  scene.skeleton = SyntheticSkeleton(spec);
  if (!skeleton_only) scene.clips.push_back(SyntheticClip(scene.skeleton, spec));
  return scene;
}

}  // namespace animkit
