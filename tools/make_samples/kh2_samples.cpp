#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>
#include <animkit/offline/skinning.hpp>

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

// A ribbon two vertices wide along the bones (rest pose, model space): a row at each joint
// bound to it alone, and a row halfway along each bone shared by its two joints (weights 1/2).
Mesh Ribbon(const Skeleton& skeleton) {
  const std::vector<Mat4> bind = BindMatrices(skeleton, ScaleInheritance::PerAxis);
  Mesh m;
  m.name = "ribbon";
  m.material = 0;
  auto row = [&](Vec3 at, std::array<uint16_t, 4> joints, std::array<float, 4> weights) {
    const float v = float(m.positions.size() / 2) / float(2 * skeleton.joints.size() - 2);
    for (float side : {-1.f, 1.f}) {
      m.positions.push_back(at + Vec3{5 * side, 0, 0});
      m.joints.push_back(joints), m.weights.push_back(weights);
      m.uvs.push_back({side < 0 ? 0.f : 1.f, v});
    }
  };
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    const Vec3 here = TransformPoint(bind[j], {0, 0, 0});
    if (j > 0) {
      const Vec3 before = TransformPoint(bind[j - 1], {0, 0, 0});
      row((here + before) * 0.5f, {uint16_t(j - 1), uint16_t(j), 0, 0}, {0.5f, 0.5f, 0, 0});
    }
    row(here, {uint16_t(j), 0, 0, 0}, {1, 0, 0, 0});
  }
  for (uint32_t r = 0; r + 1 < m.positions.size() / 2; ++r) {
    const uint32_t a = 2 * r;
    m.triangles.insert(m.triangles.end(), {a, a + 1, a + 2, a + 1, a + 3, a + 2});
  }
  return m;
}

// A 4x4 checker of two colours, one half transparent.
Image Checker() {
  Image img;
  img.name = "checker";
  img.width = img.height = 4;
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const bool dark = (x + y) % 2 == 0;
      img.rgba.insert(img.rgba.end(), {uint8_t(dark ? 40 : 230), uint8_t(dark ? 60 : 200), uint8_t(dark ? 140 : 90),
                                       uint8_t(dark ? 255 : 128)});
    }
  return img;
}

// An MDLX: a model entry of skeleton's bones with a small skinned ribbon along them, and a
// TIM2 texture entry of its checker, both from the writers `convert` runs.
Bytes ModelArchive(const Skeleton& skeleton) {
  Bar bar;
  BarEntry e;
  e.type = kEntryModel;
  Name(e, "ex00");
  e.model = std::make_shared<Model>(ParseModel(WriteNewModelEntry(BonesFromSkeleton(skeleton), {Ribbon(skeleton)})));
  bar.entries.push_back(std::move(e));
  BarEntry t;
  t.type = kEntryTexture;
  Name(t, "tim_");
  t.raw = WriteNewTextureEntry({Checker()}, TextureForm::Tim2).entry;
  bar.entries.push_back(std::move(t));
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
