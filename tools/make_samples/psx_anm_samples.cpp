#include <animkit/formats/psx_anm.hpp>

#include "sample_writers.hpp"

namespace animkit::samples {

void WriteSample(const std::filesystem::path& dir, const std::string& name, ByteView bytes) {
  WriteFileAtomic((dir / name).string(), bytes);
}

void WritePsxAnmSamples(const std::filesystem::path& dir) {
  // A figure of 8 objects; positions in model units, as a TMD's vertices are.
  SyntheticSpec spec{.joints = 8, .frames = 90, .frame_rate = 30, .translation_scale = 40, .name = "dance"};
  const Skeleton skeleton = SyntheticSkeleton(spec);
  Clip clip = SyntheticClip(skeleton, spec);
  for (size_t j = 0; j < clip.tracks.size(); ++j) clip.tracks[j].joint = "#" + std::to_string(j);
  // Object 7 blinks out for a few frames, as objects without a keyframe do in the game.
  clip.tracks[7].visible.assign(clip.frame_count, true);
  for (size_t f = 30; f < 40; ++f) clip.tracks[7].visible[f] = false;
  WriteSample(dir, "dance.anm", psx_anm::Serialize(psx_anm::EncodeClip(clip, {})));

  spec.joints = 3;
  spec.frames = 20;
  spec.frame_rate = 15;
  spec.animate_scale = false;
  spec.seed = 2;
  spec.name = "wave";
  const Skeleton small = SyntheticSkeleton(spec);
  Clip wave = SyntheticClip(small, spec);
  for (size_t j = 0; j < wave.tracks.size(); ++j) wave.tracks[j].joint = "#" + std::to_string(j);
  WriteSample(dir, "wave.anm", psx_anm::Serialize(psx_anm::EncodeClip(wave, {})));
}

}  // namespace animkit::samples
