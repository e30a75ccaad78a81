#include <animkit/formats/text_anm.hpp>

#include "sample_writers.hpp"

#include <synthetic/synthetic_clips.hpp>

#include <cmath>

namespace animkit::samples {
namespace {

// Three sets over the figure's timeline: an arm, the head, the legs.
const char kFigureSets[] =
    "# animation sets of the sample figure (timeline at 24 frames per second)\n"
    "as Arm\n"
    "bl lShoulder +children\n"
    "ev 40 greet\n"
    "an 0 45 raise\n"
    "an 50 96 swing\n"
    "\n"
    "as Face\n"
    "bl neck\n"
    "bl head\n"
    "an 0 45 nod\n"
    "\n"
    "as Stride\n"
    "bl lHip +children +parent\n"
    "bl rHip +children\n"
    "ev 6 step\n"
    "ev 18 step\n"
    "an 0 24 stroll\n"
    "an 30 54 trot\n"
    "an 60 100 sprint\n";

// A figure with an arm chain, a head and two legs, and one timeline of 100
// frames (24 per second) keyed every 6 frames: rotations only, a bobbing root.
Scene FigureModel() {
  Scene model;
  model.skeleton = FigureSkeleton();
  for (size_t i = 0; i < model.skeleton.joints.size(); ++i)
    model.skeleton.joints[i].rest.translation = i == 0 ? Vec3{0, 10, 0} : Vec3{0, i % 3 == 0 ? -3.0f : 3.0f, 0};
  model.clips.push_back(FigureTimeline(model.skeleton, 6, [](size_t i, int f, Seconds time, JointTrack& t) {
    const float u = static_cast<float>(f) * 0.15f + static_cast<float>(i);
    t.rotation.Add(time, AxisAngle(Vec3{1, 0, 0}, 0.5f * std::sin(u)));
    if (i == 0) t.translation.Add(time, Vec3{0, 10 + 0.5f * std::sin(2 * u), 0});
  }));
  return model;
}

ByteView View(const std::string& s) { return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

}  // namespace

void WriteTextAnmSamples(const std::filesystem::path& dir) {
  // Hand-written sets over a model whose first animation is the timeline.
  WriteSample(dir, "figure.anm", View(kFigureSets));
  WriteSample(dir, "figure_model.glb", ExportGltf(FigureModel(), GltfExportOptions{}));

  // The inverse: three clips laid out on one timeline by the encoder.
  SyntheticSpec spec{.joints = 6, .frame_rate = 24, .animate_scale = false};
  const Skeleton skeleton = SyntheticSkeleton(spec);
  std::vector<Clip> clips;
  const std::vector<std::pair<const char*, size_t>> names = {{"Body/walk", 13}, {"Body/run", 9}, {"idle", 7}};
  for (size_t i = 0; i < names.size(); ++i) {
    spec.name = names[i].first;
    spec.frames = names[i].second;
    spec.seed = static_cast<unsigned>(i + 1);
    clips.push_back(SyntheticClip(skeleton, spec));
    clips.back().loop = false;
  }
  clips[0].events.push_back(Event{static_cast<Seconds>(3.0 / 24.0), "footstep", {}, {}});
  clips[0].events.push_back(Event{static_cast<Seconds>(9.0 / 24.0), "footstep", {}, {}});
  const std::string timeline = text_anm::TimelinePathFor("authored.anm");
  const text_anm::Layout layout = text_anm::LayOut(
      clips, skeleton, text_anm::LayoutSettings{}, "timeline: " + timeline + " (sets cut from its first animation, 24 frames per second)");
  WriteSample(dir, "authored.anm", text_anm::Serialize(layout.file));
  WriteSample(dir, timeline, ExportGltf(layout.timeline, GltfExportOptions{}));
}

}  // namespace animkit::samples
