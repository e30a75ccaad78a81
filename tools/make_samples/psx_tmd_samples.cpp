#include <animkit/formats/psx_anc.hpp>
#include <animkit/formats/psx_anm.hpp>
#include <animkit/formats/psx_pak.hpp>
#include <animkit/formats/psx_tmd.hpp>

#include "sample_writers.hpp"

#include <synthetic/synthetic_clips.hpp>

#include <cmath>
#include <numbers>

namespace animkit::samples {

namespace {

using psx_tmd::MakeFlatQuad;
using psx_tmd::MakeFlatTriangle;
using psx_tmd::MakeLine;

// A line-art figure in the spirit of Vib-Ribbon's: body, head, two arms, two legs,
// a ribbon and a star, one TMD object each, drawn with lines, flat triangles and
// flat quads. Vertices in model units, Y down as on the PS1.
psx_tmd::File Figure() {
  psx_tmd::File file;
  auto object = [&](std::vector<psx_tmd::Vertex> vertices, std::vector<psx_tmd::Primitive> primitives) {
    psx_tmd::Object o;
    o.vertices = std::move(vertices);
    o.primitives = std::move(primitives);
    file.objects.push_back(std::move(o));
  };
  const std::array<uint8_t, 3> white{255, 255, 255}, pink{255, 96, 160}, cyan{64, 224, 255};
  // 0 body: a quad outlined by lines.
  object({{-20, -40, 0, 0}, {20, -40, 0, 0}, {-16, 40, 0, 0}, {16, 40, 0, 0}},
         {MakeFlatQuad(0, 1, 2, 3, pink), MakeLine(0, 1, white), MakeLine(1, 3, white), MakeLine(3, 2, white),
          MakeLine(2, 0, white)});
  // 1 head: a diamond of two triangles.
  object({{0, -24, 0, 0}, {18, 0, 0, 0}, {0, 24, 0, 0}, {-18, 0, 0, 0}},
         {MakeFlatTriangle(0, 1, 3, white), MakeFlatTriangle(1, 2, 3, white)});
  // 2, 3 arms and 4, 5 legs: two segments each, the limb hanging from its origin.
  for (int limb = 0; limb < 4; ++limb) {
    const int16_t len = limb < 2 ? 36 : 48;
    object({{0, 0, 0, 0}, {4, len, 0, 0}, {0, int16_t(2 * len), 0, 0}},
           {MakeLine(0, 1, white), MakeLine(1, 2, white)});
  }
  // 6 ribbon: a zig-zag line.
  std::vector<psx_tmd::Vertex> zig;
  std::vector<psx_tmd::Primitive> zag;
  for (int i = 0; i < 8; ++i) {
    zig.push_back({int16_t(-140 + 40 * i), int16_t(i % 2 ? -12 : 12), 0, 0});
    if (i) zag.push_back(MakeLine(uint16_t(i - 1), uint16_t(i), cyan));
  }
  object(zig, zag);
  // 7 star: a triangle and its outline.
  object({{0, -16, 0, 0}, {14, 10, 0, 0}, {-14, 10, 0, 0}},
         {MakeFlatTriangle(0, 1, 2, cyan), MakeLine(0, 1, white), MakeLine(1, 2, white), MakeLine(2, 0, white)});
  psx_tmd::AssignOffsets(file);
  return file;
}

// The figure dancing: objects placed by hand, swinging about Z, the star blinking.
Clip FigureDance() {
  Clip clip;
  clip.name = "figure";
  clip.SetFrames(60, 30);
  const std::array<Vec3, 8> base{{{0, 0, 0}, {0, -70, 0}, {-24, -36, 0}, {24, -36, 0},
                                  {-12, 40, 0}, {12, 40, 0}, {0, 150, 0}, {0, -120, 0}}};
  const std::array<float, 8> swing{0.1f, 0.2f, 0.9f, 0.9f, 0.5f, 0.5f, 0.05f, 0.6f};
  for (size_t j = 0; j < 8; ++j) {
    JointTrack t;
    t.joint = "#" + std::to_string(j);
    t.translation.interpolation = t.rotation.interpolation = Interpolation::Step;
    for (size_t f = 0; f < clip.frame_count; ++f) {
      const float time = FrameTime(f, clip.frame_rate);
      const float phase = float(2 * std::numbers::pi * double(f) / 30.0) + (j % 2 ? float(std::numbers::pi) : 0.0f);
      t.translation.Add(time, base[j] + Vec3{0, 8 * std::sin(2 * phase), 0});
      t.rotation.Add(time, QuatFromEuler({0, 0, swing[j] * std::sin(phase)}, EulerOrder::XYZ));
    }
    if (j == 7) {
      t.visible.assign(clip.frame_count, true);
      for (size_t f = 0; f < clip.frame_count; ++f) t.visible[f] = (f / 5) % 2 == 0;
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

Bytes OrbitCamera() {
  // A camera circling the figure, rolling a little and zooming in.
  const Clip clip = CameraClip(45, [](size_t f) {
    const double a = 2 * std::numbers::pi * double(f) / 45.0;
    return CameraKey{{float(600 * std::sin(a)), -120.0f, float(-600 * std::cos(a))}, {0, -20, 0},
                     float(0.1 * std::sin(a)), float(0.9 - 0.3 * double(f) / 45.0)};
  });
  psx_anc::DecodeSettings settings;
  settings.fov = psx_anc::FovUnit::Projection;
  return psx_anc::Serialize(psx_anc::EncodeClip(clip, settings));
}

}  // namespace

void WritePsxTmdSamples(const std::filesystem::path& dir) {
  WriteSample(dir, "figure.tmd", psx_tmd::Serialize(Figure()));
  WriteSample(dir, "figure.anm", psx_anm::Serialize(psx_anm::EncodeClip(FigureDance(), {})));
}

void WritePsxAncSamples(const std::filesystem::path& dir) { WriteSample(dir, "orbit.anc", OrbitCamera()); }

void WritePsxPakSamples(const std::filesystem::path& dir) {
  // The figure's model, its dance and the orbiting camera as a disc's PAK holds such files:
  // nested paths, in an order that is not sorted.
  const std::vector<psx_pak::BuildMember> members = {
      {"GAME/FIGURE.ANM", psx_anm::Serialize(psx_anm::EncodeClip(FigureDance(), {}))},
      {"GAME/FIGURE.TMD", psx_tmd::Serialize(Figure())},
      {"GAME/CAMERA/ORBIT.ANC", OrbitCamera()},
  };
  WriteSample(dir, "FILES.PAK", psx_pak::Build(members));
}

}  // namespace animkit::samples
