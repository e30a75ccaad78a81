#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_pak.hpp>

#include "sample_writers.hpp"

namespace animkit::samples {

namespace {

// A CINF-compatible skeleton (rest rotations are identity: a CINF stores only origins)
// and a clip over it whose joints carry the skeleton's names.
struct Rig {
  Skeleton skeleton;
  Clip clip;
};

Rig MakeRig(int joints, size_t frames, unsigned seed, const std::string& name) {
  SyntheticSpec spec{.joints = joints,
                           .frames = frames,
                           .frame_rate = 30,
                           .translation_scale = 0.5f,
                           .amplitude = 0.5f,
                           .animate_scale = false,
                           .seed = seed,
                           .name = name};
  Rig rig;
  rig.skeleton = SyntheticSkeleton(spec);
  for (Joint& j : rig.skeleton.joints) j.rest.rotation = {0, 0, 0, 1};
  rig.clip = SyntheticClip(rig.skeleton, spec);
  // Only the root moves away from its rest offset; the other bones keep the CINF's.
  for (size_t t = 1; t < rig.clip.tracks.size(); ++t) rig.clip.tracks[t].translation = {};
  return rig;
}

// The run sample's skeleton and clip, and the hologram's clip (version 0).
struct RunFiles {
  Bytes cinf, run, hologram;
};

RunFiles MakeRunFiles() {
  const Rig rig = MakeRig(8, 60, 3, "run");
  const metroid::CinfFile cinf = metroid::EncodeCinf(rig.skeleton);
  Scene scene = metroid::DecodeCinf(cinf, metroid::RestRule::Relative);
  metroid::EncodeSettings settings;
  settings.bone_ids = metroid::BoneIdsOf(scene);
  RunFiles out;
  out.cinf = metroid::SerializeCinf(cinf);
  out.run = metroid::SerializeAnim(metroid::EncodeAnim(rig.clip, settings));
  Rig small = MakeRig(8, 12, 4, "hologram");
  settings.version = 0;
  out.hologram = metroid::SerializeAnim(metroid::EncodeAnim(small.clip, settings));
  return out;
}

}  // namespace

void WriteMetroidAnimSamples(const std::filesystem::path& dir) {
  const RunFiles files = MakeRunFiles();
  WriteSample(dir, "skeleton.cinf", files.cinf);
  WriteSample(dir, "run.anim", files.run);
  WriteSample(dir, "hologram_v0.anim", files.hologram);
}

void WriteMetroidPakSamples(const std::filesystem::path& dir) {
  // The run samples as a game's PAK holds them: MP1 packs them with zlib, MP2 in LZO segments;
  // the skeleton carries a name of the named table.
  const RunFiles files = MakeRunFiles();
  using metroid_pak::Packing;
  for (const auto& [name, packing] : {std::pair{"Metroid1.pak", Packing::Zlib}, std::pair{"Metroid2.pak", Packing::Segments}})
    WriteSample(dir, name,
                metroid_pak::Build({{{'C', 'I', 'N', 'F'}, 0x1E5A0C11, files.cinf, packing, {"Run_skeleton"}},
                                    {{'A', 'N', 'I', 'M'}, 0x2B7F3C40, files.run, packing, {}},
                                    {{'A', 'N', 'I', 'M'}, 0x2B7F3C41, files.hologram, packing, {}}}));
}

// Echoes: its CINF (ids 0..7) and a bit-packed clip over it.
void WriteMetroidEchoesSamples(const std::filesystem::path& dir) {
  const Rig rig = MakeRig(8, 45, 5, "swim");
  const metroid::CinfFile cinf = metroid::EncodeCinf(rig.skeleton, {}, metroid::Game::Echoes);
  WriteSample(dir, "skeleton.cinf", metroid::SerializeCinf(cinf));
  metroid::EncodeSettings settings;
  settings.game = metroid::Game::Echoes;
  settings.bone_ids = metroid::BoneIdsOf(metroid::DecodeCinf(cinf, metroid::RestRule::Relative));
  settings.bone_count = rig.skeleton.joints.size();
  WriteSample(dir, "swim.anim", metroid::SerializeAnim(metroid::EncodeAnim(rig.clip, settings)));
}

void WriteMetroidCinfSamples(const std::filesystem::path& dir) {
  const Rig rig = MakeRig(8, 2, 3, "run");
  WriteSample(dir, "skeleton.cinf", metroid::SerializeCinf(metroid::EncodeCinf(rig.skeleton)));
}

}  // namespace animkit::samples
