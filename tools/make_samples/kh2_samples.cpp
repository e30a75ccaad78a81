#include <animkit/formats/kh2.hpp>

#include "sample_writers.hpp"

#include <cstring>

namespace animkit::samples {
namespace {

using namespace kh2;

Clip NumberedClip(const Skeleton& skeleton, const SyntheticSpec& spec) {
  Clip clip = SyntheticClip(skeleton, spec);
  for (size_t j = 0; j < clip.tracks.size(); ++j) clip.tracks[j].joint = "#" + std::to_string(j);
  return clip;
}

void Name(BarEntry& e, const char* name) { std::memcpy(e.name.data(), name, 4); }

// An MDLX-like archive: one model entry whose header and bone table describe skeleton.
Bytes ModelArchive(const Skeleton& skeleton) {
  ByteWriter w(Endian::Little);
  w.Fill(kReservedSize);
  w.I32(3), w.I32(0), w.I32(0), w.U32(0);                         // type, subtype, attributes, next
  w.U16(static_cast<uint16_t>(skeleton.joints.size())), w.U16(0);  // bones, textures
  w.U32(0x20), w.U32(0), w.I32(0);                                  // bone table offset, bone data, groups
  for (size_t i = 0; i < skeleton.joints.size(); ++i) {
    const Joint& j = skeleton.joints[i];
    const Vec3 e = EulerFromQuat(j.rest.rotation, EulerOrder::XYZ);
    w.I16(static_cast<int16_t>(i)), w.I16(0), w.I16(static_cast<int16_t>(j.parent)), w.I16(-1);
    w.I32(0), w.I32(0);
    for (float f : {j.rest.scale.x, j.rest.scale.y, j.rest.scale.z, 0.0f, e.x, e.y, e.z, 0.0f, j.rest.translation.x,
                    j.rest.translation.y, j.rest.translation.z, 1.0f})
      w.F32(f);
  }
  Bar bar;
  BarEntry e;
  e.type = kEntryModel;
  Name(e, "ex00");
  e.model = std::make_shared<Model>(ParseModel(w.bytes()));
  bar.entries.push_back(std::move(e));
  LayoutBar(bar);
  return SerializeBar(bar);
}

}  // namespace

void WriteKh2BarSamples(const std::filesystem::path& dir) {
  SyntheticSpec spec{.joints = 4, .frames = 16, .frame_rate = 30, .translation_scale = 20, .name = "walk"};
  const Skeleton skeleton = SyntheticSkeleton(spec);
  Clip walk = NumberedClip(skeleton, spec);
  walk.events.push_back({0.2f, "Play footstep sound", {2, 3, 0}, std::nullopt});
  walk.events.push_back({0.0f, "STATE: Grounded", {0, -1}, 1.0f});
  walk.events.push_back({0.1f, "Attack hitbox", {10, 15, 5, 1}, 0.5f});
  EncodeSettings interpolated;
  interpolated.tolerance = 5e-3f;
  interpolated.relative_tolerance = 5e-3f;
  WriteSample(dir, "walk.anb", SerializeBar(EncodeAnb(walk, skeleton, interpolated)));

  // Raw motion over the same skeleton as ex00.mdlx, the companion every front end pairs it with.
  spec.frames = 8;
  spec.seed = 3;
  spec.name = "raw";
  EncodeSettings raw;
  raw.raw = true;
  Clip rawclip = NumberedClip(skeleton, spec);
  WriteSample(dir, "raw.anb", SerializeBar(EncodeAnb(rawclip, skeleton, raw)));

  // An MSET: slots 0 and 2 hold ANBs, slot 1 is empty, slot 3 is flagged as a duplicate of slot 0.
  const Bytes skeleton_file = ModelArchive(skeleton);
  WriteSample(dir, "ex00.mdlx", skeleton_file);
  Bar mset;
  spec.joints = 4;
  spec.frames = 10;
  spec.seed = 5;
  spec.name = "idle";
  Clip idle = NumberedClip(skeleton, spec);
  for (int slot = 0; slot < 4; ++slot) {
    BarEntry e;
    e.type = kEntryAnb;
    Name(e, slot == 1 ? "B000" : "A000");
    if (slot == 3) e.duplicate = 1;
    if (slot == 0 || slot == 3) e.bar = std::make_shared<Bar>(EncodeAnb(idle, skeleton, interpolated));
    if (slot == 2) e.bar = std::make_shared<Bar>(EncodeAnb(walk, skeleton, interpolated));
    mset.entries.push_back(std::move(e));
  }
  LayoutBar(mset);
  WriteSample(dir, "p_ex00.mset", SerializeBar(mset));
}

void WriteKh2MotionSamples(const std::filesystem::path& dir) {
  SyntheticSpec spec{.joints = 4, .frames = 21, .frame_rate = 30, .seed = 7, .name = "wave"};
  const Skeleton skeleton = SyntheticSkeleton(spec);
  Clip clip = NumberedClip(skeleton, spec);
  EncodeSettings s;
  s.tolerance = 1e-3f;
  WriteSample(dir, "wave.motion", SerializeMotion(EncodeMotion(clip, skeleton, s)));
  s.raw = true;
  spec.frames = 5;
  Clip small = NumberedClip(skeleton, spec);
  WriteSample(dir, "wave_raw.motion", SerializeMotion(EncodeMotion(small, skeleton, s)));
}

}  // namespace animkit::samples
