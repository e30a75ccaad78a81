#include <animkit/core/elementary.hpp>
#include <animkit/formats/psx_anc.hpp>
#include <animkit/offline/sampling.hpp>

#include "formats/common/psx.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace animkit::psx_anc {

File Parse(ByteView data) {
  ByteReader r(data, Endian::Little);
  File file;
  psx::ReadHeaderInto(r, file);
  const size_t count = r.U16("the keyframe count");
  r.Count(count, kKeyframeSize, "camera keyframes");
  file.keyframes.resize(count);
  for (Keyframe& k : file.keyframes) {
    for (int16_t& c : k.position) c = r.I16("a camera position");
    for (int16_t& c : k.target) c = r.I16("a camera target");
    k.twist = r.I16("the twist");
    k.fov = r.I16("the field of view");
  }
  const ByteView rest = r.Take(r.remaining(), "trailing bytes");
  file.trailing.assign(rest.begin(), rest.end());
  return file;
}

Bytes Serialize(const File& file) {
  if (file.keyframes.size() > 0xFFFF) throw Error::General("a PS1 ANC holds at most 65535 keyframes");
  ByteWriter w(Endian::Little);
  w.U16(file.marker);
  w.I16(file.unknown);
  w.U16(static_cast<uint16_t>(file.keyframes.size()));
  for (const Keyframe& k : file.keyframes) {
    for (int16_t c : k.position) w.I16(c);
    for (int16_t c : k.target) w.I16(c);
    w.I16(k.twist);
    w.I16(k.fov);
  }
  w.Append(file.trailing);
  return w.Take();
}

double FrameRateOf(const File& file, const DecodeSettings& settings) {
  return psx::RateFromHeader(file.unknown, settings.frame_rate);
}

namespace {

constexpr double kRadiansPerUnit = 2 * std::numbers::pi / 4096;

const char* FovName(FovUnit u) {
  return u == FovUnit::Raw ? "raw" : u == FovUnit::Angle4096 ? "angle" : "projection";
}

int16_t Quantize(double v, const std::string& what) {
  const double q = std::round(v);
  if (!(q >= -32768 && q <= 32767)) throw Error::General(what + " " + std::to_string(v) + " does not fit in 16 bits");
  return static_cast<int16_t>(q);
}

}  // namespace

Clip DecodeClip(const File& file, const DecodeSettings& settings) {
  Clip clip;
  clip.name = "camera";
  clip.SetFrames(file.keyframes.size(), FrameRateOf(file, settings));
  clip.metadata = {{kSourceFormatKey, "psx-anc"},
                   {metadata_keys::kHeaderUnknown, file.unknown},
                   {metadata_keys::kTwist, settings.twist == TwistUnit::Angle4096 ? "angle" : "ignore"},
                   {metadata_keys::kFov, FovName(settings.fov)}};
  CameraTrack cam;
  cam.name = "camera";
  cam.interpolation = Interpolation::Step;
  Value twist = Value::array(), fov = Value::array();
  for (size_t i = 0; i < file.keyframes.size(); ++i) {
    const Keyframe& k = file.keyframes[i];
    cam.times.push_back(FrameTime(i, clip.frame_rate));
    cam.positions.push_back({float(k.position[0]), float(k.position[1]), float(k.position[2])});
    cam.targets.push_back({float(k.target[0]), float(k.target[1]), float(k.target[2])});
    cam.roll.push_back(settings.twist == TwistUnit::Angle4096 ? float(k.twist * kRadiansPerUnit) : 0.0f);
    if (settings.fov == FovUnit::Angle4096) cam.yfov.push_back(float(k.fov * kRadiansPerUnit));
    if (settings.fov == FovUnit::Projection) {
      // A projection distance of 0 or less has no angle: the widest a camera can take.
      cam.yfov.push_back(k.fov > 0 ? float(2 * Atan(settings.screen_height / 2 / k.fov)) : float(std::numbers::pi - 1e-3));
    }
    twist.push_back(k.twist);
    fov.push_back(k.fov);
  }
  cam.metadata = {{metadata_keys::kTwistRaw, std::move(twist)}, {metadata_keys::kFovRaw, std::move(fov)}};
  clip.cameras.push_back(std::move(cam));
  return clip;
}

File EncodeClip(const Clip& clip, const DecodeSettings& settings) {
  if (clip.cameras.empty()) throw Error::General("clip '" + clip.name + "' has no camera to write as a PS1 ANC");
  const CameraTrack& cam = clip.cameras.front();
  const size_t keys = std::min({cam.times.size(), cam.positions.size(), cam.targets.size()});
  if (keys == 0) throw Error::General("camera '" + cam.name + "' has no keys");
  File file;
  const double rate = clip.frame_rate > 0 ? clip.frame_rate : 60;
  file.unknown = clip.metadata.contains(metadata_keys::kHeaderUnknown) &&
                         clip.metadata[metadata_keys::kHeaderUnknown].is_number_integer()
                     ? static_cast<int16_t>(clip.metadata[metadata_keys::kHeaderUnknown].get<int>())
                     : static_cast<int16_t>(std::clamp(std::lround(rate), 1L, 240L));
  const size_t frames = ClipFrameCount(clip, rate);
  if (frames > 0xFFFF) throw Error::General("clip '" + clip.name + "' has more frames than a PS1 ANC holds (65535)");
  auto raw = [&](const char* key, size_t i, int16_t& out) {
    const auto it = cam.metadata.find(key);
    if (it == cam.metadata.end() || !it->is_array() || it->size() != keys || !(*it)[i].is_number_integer()) return false;
    const auto v = (*it)[i].get<int64_t>();
    if (v < -32768 || v > 32767) return false;
    out = static_cast<int16_t>(v);
    return true;
  };
  size_t key = 0;
  for (size_t f = 0; f < frames; ++f) {
    const Seconds t = FrameTime(f, rate);
    while (key + 1 < keys && cam.times[key + 1] <= t + 1e-6f) ++key;
    Keyframe k;
    const std::string where = "camera '" + cam.name + "' frame " + std::to_string(f);
    const Vec3 p = cam.positions[key], g = cam.targets[key];
    k.position = {Quantize(p.x, where + " position"), Quantize(p.y, where + " position"), Quantize(p.z, where + " position")};
    k.target = {Quantize(g.x, where + " target"), Quantize(g.y, where + " target"), Quantize(g.z, where + " target")};
    // The raw values the decoder kept win (exact round trips); else the converted ones.
    if (!raw(metadata_keys::kTwistRaw, key, k.twist)) {
      k.twist = settings.twist == TwistUnit::Angle4096 && key < cam.roll.size()
                    ? Quantize(cam.roll[key] / kRadiansPerUnit, where + " twist")
                    : int16_t{0};
    }
    if (!raw(metadata_keys::kFovRaw, key, k.fov)) {
      if (key < cam.yfov.size() && settings.fov == FovUnit::Angle4096) {
        k.fov = Quantize(cam.yfov[key] / kRadiansPerUnit, where + " field of view");
      } else if (key < cam.yfov.size() && settings.fov == FovUnit::Projection) {
        k.fov = Quantize(settings.screen_height / 2 / Tan(cam.yfov[key] / 2), where + " field of view");
      } else {
        k.fov = 0;
      }
    }
    file.keyframes.push_back(k);
  }
  return file;
}

}  // namespace animkit::psx_anc
