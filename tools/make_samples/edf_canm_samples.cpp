#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/edf_mdb.hpp>

#include "sample_writers.hpp"

namespace animkit::samples {
namespace {

SyntheticSpec SoldierSpec() {
  // 30 per second: interval 2 engine frames.
  return {.joints = 11, .frames = 31, .frame_rate = 30, .translation_scale = 0.5f};
}

Skeleton Soldier() { return SyntheticSkeleton(SoldierSpec()); }

// Two clips that share their leg motion, plus a Scene_Root bone the skeleton lacks.
std::vector<Clip> SoldierClips(bool animate_scale, size_t frames) {
  SyntheticSpec spec = SoldierSpec();
  spec.frames = frames;
  spec.animate_scale = animate_scale;
  spec.name = "walk";
  const Skeleton skeleton = Soldier();
  Clip walk = SyntheticClip(skeleton, spec);
  spec.name = "idle";
  spec.seed = 3;
  spec.amplitude = 0.2f;
  spec.frames = frames * 2 / 3;
  Clip idle = SyntheticClip(skeleton, spec);
  idle.loop = false;
  // Joints 6.. move in idle exactly as in walk over idle's frames: identical channels.
  for (size_t j = 6; j < idle.tracks.size(); ++j) {
    JointTrack t = walk.tracks[j];
    auto cut = [&](auto& track) {
      track.times.resize(idle.frame_count);
      track.values.resize(idle.frame_count);
    };
    cut(t.translation), cut(t.rotation);
    if (!t.scale.empty()) cut(t.scale);
    idle.tracks[j] = t;
  }
  for (Clip* c : {&walk, &idle}) {
    JointTrack root;
    root.joint = "Scene_Root";
    root.translation.times = {0};
    root.translation.values = {{0, 0, 0}};
    c->tracks.insert(c->tracks.begin(), root);
  }
  return {walk, idle};
}

}  // namespace

void WriteEdfMdbSamples(const std::filesystem::path& dir) {
  WriteSample(dir, "soldier.mdb", edf_mdb::Serialize(edf_mdb::EncodeSkeleton(Soldier())));
}

void WriteEdfCanmSamples(const std::filesystem::path& dir) {
  const Skeleton skeleton = Soldier();
  WriteEdfMdbSamples(dir);
  edf_canm::EncodeSettings v5;
  WriteSample(dir, "soldier5.canm", edf_canm::Serialize(edf_canm::EncodeClips(SoldierClips(false, 31), v5, &skeleton)));
  edf_canm::EncodeSettings v6;
  v6.version = edf_canm::kVersion6;
  WriteSample(dir, "soldier6.canm", edf_canm::Serialize(edf_canm::EncodeClips(SoldierClips(true, 10), v6, &skeleton)));
}

}  // namespace animkit::samples
