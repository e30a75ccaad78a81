// CANM to the common model: one clip per animation.
#include <animkit/formats/edf_canm.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <set>

namespace animkit::edf_canm {

// ---------------------------------------------------------------- decoding

std::array<float, 4> ChannelValue(const File& file, const Channel& c, size_t key) {
  if (file.version == kVersion6 && c.type == kTypeStaticQuat) return c.base;
  if (!c.quats.empty()) return c.quats[std::min(key, c.quats.size() - 1)];
  if (c.keys.empty()) return c.base;
  const auto& k = c.keys[std::min(key, c.keys.size() - 1)];
  return {c.base[0] + float(k[0]) * c.speed[0], c.base[1] + float(k[1]) * c.speed[1],
          c.base[2] + float(k[2]) * c.speed[2], c.base[3]};
}

double FrameRateOf(const Animation& a, const DecodeSettings& settings) {
  auto sane = [](double r) { return std::isfinite(r) && r >= 0.01 && r <= 100000; };
  if (std::isfinite(a.interval) && a.interval > 0 && sane(settings.engine_fps / a.interval)) {
    return settings.engine_fps / a.interval;
  }
  if (a.keyframes > 1 && std::isfinite(a.duration) && a.duration > 0) {
    const double r = settings.engine_fps * (a.keyframes - 1) / a.duration;
    if (sane(r)) return r;
  }
  return settings.engine_fps;
}

namespace {

// The quantization of a bone's keyed 16-bit channels (metadata_keys::kChannels).
Value ChannelGrids(const File& file, const BoneEntry& e) {
  Value grids = Value::object();
  auto add = [&](const char* what, int16_t index, bool rotation) {
    if (index < 0 || size_t(index) >= file.channels.size()) return;
    const Channel& c = file.channels[size_t(index)];
    if (c.quaternion(file.version) || c.keys.empty()) return;
    std::vector<float> grid{c.base[0], c.base[1], c.base[2], c.speed[0], c.speed[1], c.speed[2]};
    if (rotation) {
      const auto first = ChannelValue(file, c, 0);
      grid.insert(grid.end(), {first[0], first[1], first[2]});
    }
    grids[what] = Value(grid);
  };
  add("position", e.position, false);
  add("rotation", e.rotation, true);
  add("scale", e.scale, false);
  return grids;
}

size_t StoredKeys(const Channel& c) { return std::max(c.keys.size(), c.quats.size()); }

// "#N" (formatted directly: string concatenation here trips a GCC 12 -O3 false warning).
std::string IndexName(size_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "#%zu", n);
  return buf;
}

}  // namespace

std::vector<Clip> DecodeClips(const File& file, const DecodeSettings& settings) {
  // Channels are shared, so many bone entries may point at one long channel: bound the keys
  // decoding creates by max-values before creating any.
  const uint64_t budget = settings.limits.max_values;
  uint64_t total = 0;
  for (size_t i = 0; i < file.animations.size(); ++i) {
    const Animation& a = file.animations[i];
    const uint64_t frames = uint64_t(std::max(a.keyframes, 1));
    for (const BoneEntry& e : a.bones) {
      for (int16_t index : {e.position, e.rotation, e.scale}) {
        if (index >= 0) total += std::min<uint64_t>(std::max<uint64_t>(StoredKeys(file.channels[size_t(index)]), 1), frames);
      }
    }
    if (total > budget) {
      throw Error::AtOffset(file.animation_offset + kAnimationSize * i,
                            "decoding up to animation " + std::to_string(i) + " would create " + std::to_string(total) +
                                " keys, over the limit max-values = " + std::to_string(budget) +
                                " (--max-values raises it)");
    }
  }
  std::vector<Clip> clips;
  clips.reserve(file.animations.size());
  for (const Animation& a : file.animations) {
    Clip clip;
    clip.name = a.name;
    clip.loop = a.loop != 0;
    clip.SetFrames(size_t(std::max(a.keyframes, 1)), FrameRateOf(a, settings));
    clip.metadata = {{kSourceFormatKey, "edf-canm"},           {metadata_keys::kCanmVersion, file.version},
                     {metadata_keys::kLoop, a.loop},           {metadata_keys::kDuration, a.duration},
                     {metadata_keys::kInterval, a.interval},   {metadata_keys::kKeyframes, a.keyframes},
                     {metadata_keys::kEngineFps, settings.engine_fps}};
    Value quantization = Value::object();
    for (size_t j = 0; j < a.bones.size(); ++j) {
      const BoneEntry& e = a.bones[j];
      JointTrack t;
      const std::string& name = file.names[size_t(e.name_index)].name;
      t.joint = name;
      if (name.empty()) t.joint = IndexName(size_t(e.name_index));
      const Value grids = ChannelGrids(file, e);
      if (!grids.empty()) quantization[t.joint] = grids;
      auto keys_of = [&](int16_t index, auto&& emit) {
        if (index < 0) return;
        const Channel& c = file.channels[size_t(index)];
        const size_t n = std::min(std::max<size_t>(StoredKeys(c), 1), clip.frame_count);
        for (size_t k = 0; k < n; ++k) emit(FrameTime(k, clip.frame_rate), ChannelValue(file, c, k), c);
      };
      keys_of(e.position, [&](Seconds time, std::array<float, 4> v, const Channel&) {
        t.translation.Add(time, {v[0], v[1], v[2]});
      });
      keys_of(e.rotation, [&](Seconds time, std::array<float, 4> v, const Channel& c) {
        t.rotation.Add(time, c.quaternion(file.version) ? Normalize(QuatXYZW{v[0], v[1], v[2], v[3]})
                                                        : QuatFromEuler({v[0], v[1], v[2]}, EulerOrder::XYZ));
      });
      keys_of(e.scale, [&](Seconds time, std::array<float, 4> v, const Channel&) {
        t.scale.Add(time, {v[0], v[1], v[2]});
      });
      clip.tracks.push_back(std::move(t));
    }
    if (!quantization.empty()) clip.metadata[metadata_keys::kChannels] = std::move(quantization);
    clips.push_back(std::move(clip));
  }
  return clips;
}

}  // namespace animkit::edf_canm
