// The common model to CANM: quantized channels, shared where equal.
#include <animkit/formats/edf_canm.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <set>

namespace animkit::edf_canm {

// ---------------------------------------------------------------- encoding

namespace {

constexpr double kKeyMax = 65535;
const Value kNoGrids;

struct Curve {
  std::vector<std::array<float, 4>> frames;  // per frame: xyz (+ w for quaternions)
};

// A curve's keys on the source's grid (base + key * speed, the decoded channel's, from
// metadata_keys::kChannels): every value must be a grid point's or within half a step of
// one inside the 16-bit range, so an unedited channel gets back its own keys. False
// (nothing changed) when some value does not fit.
bool QuantizeOnGrid(const Curve& curve, const Value& grid, Channel& c) {
  if (!grid.is_array() || grid.size() < 6) return false;
  std::array<float, 3> base{}, speed{};
  for (size_t k = 0; k < 3; ++k) {
    if (!grid[k].is_number() || !grid[k + 3].is_number()) return false;
    base[k] = grid[k].get<float>(), speed[k] = grid[k + 3].get<float>();
    if (!std::isfinite(base[k]) || !std::isfinite(speed[k]) || speed[k] < 0) return false;
  }
  std::vector<std::array<uint16_t, 3>> keys;
  keys.reserve(curve.frames.size());
  for (const auto& v : curve.frames) {
    std::array<uint16_t, 3> key{};
    for (size_t k = 0; k < 3; ++k) {
      auto value = [&](double q) { return base[k] + float(q) * speed[k]; };  // as the decoder computes it
      if (speed[k] == 0) {
        if (std::abs(double(v[k]) - base[k]) > 1e-6 * std::max(1.0, std::abs(double(base[k])))) return false;
        continue;
      }
      double q = std::round((double(v[k]) - base[k]) / speed[k]);
      if (!(q >= -0.5 && q <= kKeyMax + 0.5)) return false;
      q = std::clamp(q, 0.0, kKeyMax);
      for (double n : {q - 1, q + 1})  // the decoder's float sum: the nearest of the neighbours
        if (n >= 0 && n <= kKeyMax && std::abs(double(value(n)) - v[k]) < std::abs(double(value(q)) - v[k])) q = n;
      if (std::abs(double(value(q)) - v[k]) > 0.5 * speed[k] * (1 + 1e-6)) return false;
      key[k] = uint16_t(q);
    }
    keys.push_back(key);
  }
  c.base = {base[0], base[1], base[2], 0};
  c.speed = {speed[0], speed[1], speed[2], 0};
  c.has_keyframes = 1;
  c.keys = std::move(keys);
  while (c.keys.size() > 1 && c.keys.back() == c.keys[c.keys.size() - 2]) c.keys.pop_back();
  c.key_count = uint32_t(c.keys.size());
  return true;
}

// grid: the source channel's quantization (metadata), kept where the values fit it.
Channel QuantizeXyz(const Curve& curve, uint32_t version, const Value& grid = Value()) {
  Channel c;
  c.type = kTypeU16Xyz;
  const auto& f0 = curve.frames.front();
  const bool constant = std::all_of(curve.frames.begin(), curve.frames.end(), [&](const auto& v) {
    return v[0] == f0[0] && v[1] == f0[1] && v[2] == f0[2];
  });
  if (constant) {
    c.base = {f0[0], f0[1], f0[2], 0};
    c.has_keyframes = 0;
    c.key_count = 1;  // 512: hasKeyframes = 0; 768: kind 0, base w 1 (as the game's files)
    if (version == kVersion6) c.type = kTypeStaticVector, c.base[3] = 1.0f;
    return c;
  }
  if (QuantizeOnGrid(curve, grid, c)) {
    if (version == kVersion6) c.base[3] = c.speed[3] = 1.0f;  // the game's kind-1 w words
    return c;
  }
  std::array<float, 3> lo{}, hi{};
  for (size_t k = 0; k < 3; ++k) {
    lo[k] = hi[k] = f0[k];
    for (const auto& v : curve.frames) lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
    c.base[k] = lo[k];
    c.speed[k] = hi[k] > lo[k] ? float((double(hi[k]) - lo[k]) / kKeyMax) : 0.0f;
  }
  c.has_keyframes = 1;
  c.keys.reserve(curve.frames.size());
  for (const auto& v : curve.frames) {
    std::array<uint16_t, 3> key{};
    for (size_t k = 0; k < 3; ++k) {
      if (hi[k] > lo[k]) {
        const double q = std::round((double(v[k]) - lo[k]) * kKeyMax / (double(hi[k]) - lo[k]));
        key[k] = uint16_t(std::clamp(q, 0.0, kKeyMax));
      }
    }
    c.keys.push_back(key);
  }
  // The last key holds: repeats at the end add nothing.
  while (c.keys.size() > 1 && c.keys.back() == c.keys[c.keys.size() - 2]) c.keys.pop_back();
  c.key_count = uint32_t(c.keys.size());
  if (version == kVersion6) c.base[3] = c.speed[3] = 1.0f;  // the game's kind-1 w words
  return c;
}

// Moves each angle of a rotation curve by the whole turns that bring its range closest
// to zero (same rotations, values as small as they can be).
void CenterTurns(Curve& curve) {
  const double turn = 2 * std::numbers::pi;
  for (size_t k = 0; k < 3; ++k) {
    float lo = curve.frames.front()[k], hi = lo;
    for (const auto& v : curve.frames) lo = std::min(lo, v[k]), hi = std::max(hi, v[k]);
    const double shift = turn * std::round((double(lo) + double(hi)) / 2 / turn);
    if (shift == 0) continue;
    for (auto& v : curve.frames) v[k] = float(double(v[k]) - shift);
  }
}

Channel QuaternionChannel(const Curve& curve) {
  Channel c;
  const auto& f0 = curve.frames.front();
  if (std::all_of(curve.frames.begin(), curve.frames.end(), [&](const auto& v) { return v == f0; })) {
    c.type = kTypeStaticQuat;
    c.base = f0;
    c.key_count = 1;
    return c;
  }
  c.type = kTypeFloatQuat;
  c.quats = curve.frames;
  while (c.quats.size() > 1 && c.quats.back() == c.quats[c.quats.size() - 2]) c.quats.pop_back();
  c.key_count = uint32_t(c.quats.size());
  return c;
}

std::string ChannelKey(const Channel& c) {
  ByteWriter w(Endian::Little);
  w.I16(c.has_keyframes);
  w.I32(c.type);
  w.U32(c.key_count);
  for (float v : c.base) w.F32(v);
  for (float v : c.speed) w.F32(v);
  for (const auto& k : c.keys)
    for (uint16_t v : k) w.U16(v);
  for (const auto& q : c.quats)
    for (float v : q) w.F32(v);
  return std::string(w.bytes().begin(), w.bytes().end());
}

bool NameLess(const std::string& a, const std::string& b) {
  if (a == b) return false;
  if (a == "Scene_Root") return true;
  if (b == "Scene_Root") return false;
  return a < b;
}

struct NewAnimation {
  Animation a;
  std::vector<BoneEntry> bones;
};

// A new CANM's parts before layout: names (bones, the name table, and animations,
// pooled), the channels (deduplicated) and per animation its bone entries.
struct Contents {
  std::set<std::string, decltype(&NameLess)> bone_names{&NameLess}, pool{&NameLess};
  std::map<std::string, int16_t> name_index;
  std::map<std::string, size_t> channel_of;
  std::vector<Channel> channels;
  size_t curves = 0;
  std::vector<NewAnimation> animations;

  int16_t AddChannel(Channel c) {
    ++curves;
    auto [it, fresh] = channel_of.emplace(ChannelKey(c), channels.size());
    if (fresh) {
      if (channels.size() >= 0x7FFF) throw Error::General("a CANM holds at most 32767 channels");
      channels.push_back(std::move(c));
    }
    return int16_t(it->second);
  }
};

// The rotation keys of one track: quaternions (768), else XYZ Euler angles (512).
// grid (512): the source channel's quantization; its first key's angles start the
// nearest-solution chain, so multi-turn angles keep their turns.
Curve RotationCurve(const std::vector<QuatXYZW>& rotation, bool v6, const Value& grid = Value()) {
  Curve rot;
  std::array<double, 3> prev_euler{0, 0, 0};
  const bool from_grid = !v6 && grid.is_array() && grid.size() >= 9 && grid[6].is_number() && grid[7].is_number() &&
                         grid[8].is_number();
  if (from_grid) prev_euler = {grid[6].get<double>(), grid[7].get<double>(), grid[8].get<double>()};
  for (size_t f = 0; f < rotation.size(); ++f) {
    QuatXYZW q = rotation[f];
    if (v6) {
      if (!rot.frames.empty()) {  // keep consecutive keys in the same hemisphere
        const auto& p = rot.frames.back();
        if (p[0] * q.x + p[1] * q.y + p[2] * q.z + p[3] * q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};
      } else if (q.w < 0) {
        q = {-q.x, -q.y, -q.z, -q.w};
      }
      rot.frames.push_back({q.x, q.y, q.z, q.w});
    } else {
      // The solution nearest the previous key: the 16-bit range stays as narrow as
      // the motion allows, and a reader interpolating the angles never swings.
      if (f == 0 && !from_grid) {
        const Vec3 e3 = EulerFromQuat(q, EulerOrder::XYZ);
        prev_euler = {e3.x, e3.y, e3.z};
      } else {
        prev_euler = EulerNearest(q, EulerOrder::XYZ, prev_euler);
      }
      rot.frames.push_back({float(prev_euler[0]), float(prev_euler[1]), float(prev_euler[2]), 0});
    }
  }
  if (!v6 && !rot.frames.empty() && !from_grid) CenterTurns(rot);
  return rot;
}

// One clip as an animation: its entry, and per track a bone entry whose channels join
// the contents' shared ones.
NewAnimation EncodeAnimation(const Clip& clip, const EncodeSettings& settings, const Skeleton* skeleton,
                             Contents& contents) {
  const bool v6 = settings.version == kVersion6;
  const double rate = clip.frame_rate > 0 ? clip.frame_rate : 30;
  const size_t frames = ClipFrameCount(clip, rate);
  const size_t limit = v6 ? size_t(kMaxKeyframes) : 0xFFFF;
  if (frames > limit) {
    throw Error::General("clip '" + clip.name + "' has " + std::to_string(frames) + " frames; a CANM holds " +
                         std::to_string(limit));
  }
  NewAnimation na;
  na.a.loop = clip.loop ? 1 : 0;
  na.a.interval = float(settings.engine_fps / rate);
  na.a.duration = float(settings.engine_fps / rate * double(frames - 1));
  na.a.keyframes = int32_t(frames);
  na.a.name = clip.name;
  // Bone order: the skeleton's where it names the joint, then the rest in clip order.
  std::vector<size_t> order(clip.tracks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (skeleton) {
    auto rank = [&](size_t i) {
      const int j = skeleton->Find(clip.tracks[i].joint);
      return j < 0 ? skeleton->joints.size() : size_t(j);
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return rank(x) < rank(y); });
  }
  for (size_t i : order) {
    const JointTrack& t = clip.tracks[i];
    BoneEntry e;
    e.name_index = contents.name_index.at(t.joint);
    Curve pos, scl;
    const FrameSamples samples = SampleFrames(clip, t, frames, rate);
    for (const Vec3& v : samples.translation) pos.frames.push_back({v.x, v.y, v.z, 0});
    for (const Vec3& v : samples.scale) scl.frames.push_back({v.x, v.y, v.z, 0});
    // The source's quantization of this joint's channels, when the clip came from a CANM.
    const Value& grids = clip.metadata.is_object() && clip.metadata.contains(metadata_keys::kChannels) &&
                                 clip.metadata[metadata_keys::kChannels].is_object() &&
                                 clip.metadata[metadata_keys::kChannels].contains(t.joint)
                             ? clip.metadata[metadata_keys::kChannels][t.joint]
                             : kNoGrids;
    auto grid = [&](const char* what) -> const Value& {
      return grids.is_object() && grids.contains(what) ? grids[what] : kNoGrids;
    };
    const Curve rot = RotationCurve(samples.rotation, v6, grid("rotation"));
    if (!pos.frames.empty()) e.position = contents.AddChannel(QuantizeXyz(pos, settings.version, grid("position")));
    if (!rot.frames.empty())
      e.rotation = contents.AddChannel(v6 ? QuaternionChannel(rot) : QuantizeXyz(rot, settings.version, grid("rotation")));
    if (!scl.frames.empty()) e.scale = contents.AddChannel(QuantizeXyz(scl, settings.version, grid("scale")));
    na.bones.push_back(e);
  }
  return na;
}

// Where a new CANM's parts go: header, animations, channels, name table, bone tables,
// key data, strings.
struct Layout {
  size_t csize = 0, anim_at = 0, chan_at = 0, names_at = 0;
  std::vector<size_t> bones_at, keys_at;
  std::map<std::string, size_t> string_at;
};

Layout LayOut(const Contents& contents, bool v6) {
  Layout l;
  l.csize = v6 ? kChannelSize6 : kChannelSize5;
  l.anim_at = kHeaderSize;
  l.chan_at = l.anim_at + kAnimationSize * contents.animations.size();
  l.names_at = l.chan_at + l.csize * contents.channels.size();
  size_t at = l.names_at + kNameEntrySize * contents.bone_names.size();
  for (const NewAnimation& na : contents.animations) l.bones_at.push_back(at), at += kBoneSize * na.bones.size();
  at = (at + 3) & ~size_t(3);
  for (const Channel& c : contents.channels) {
    l.keys_at.push_back(at);
    at += c.keys.size() * 6 + c.quats.size() * 16;
    at = (at + 3) & ~size_t(3);
  }
  for (const std::string& s : contents.pool) {
    l.string_at[s] = at;
    at += 2 * (Utf16FromUtf8(s).size() + 1);
  }
  if (at > 0x7FFFFFFF) throw Error::General("the CANM would exceed 2 GiB");
  return l;
}

// The channel table's entries: 512's 16-bit key counts, or 768's types and counts.
void WriteChannels(ByteWriter& w, const std::vector<Channel>& channels, const Layout& l, bool v6) {
  for (size_t i = 0; i < channels.size(); ++i) {
    const Channel& c = channels[i];
    const size_t entry = l.chan_at + l.csize * i;
    const bool stored = !c.keys.empty() || !c.quats.empty();
    const int32_t offset = stored ? int32_t(l.keys_at[i] - entry) : 0;
    if (!v6) {
      w.I16(c.has_keyframes);
      w.U16(uint16_t(c.key_count));
      for (size_t k = 0; k < 3; ++k) w.F32(c.base[k]);
      for (size_t k = 0; k < 3; ++k) w.F32(c.speed[k]);
      w.I32(offset);
    } else {
      for (float v : c.base) w.F32(v);
      for (float v : c.speed) w.F32(v);
      w.I32(offset);
      w.I32(c.type);
      w.I32(int32_t(c.key_count));
      w.U32(0);
    }
  }
}

Bytes Write(const Contents& contents, const Layout& l, const EncodeSettings& settings) {
  const auto& animations = contents.animations;
  const auto& channels = contents.channels;
  const auto& bone_names = contents.bone_names;
  ByteWriter w(Endian::Little);
  for (char c : {'C', 'A', 'N', 'M'}) w.U8(uint8_t(c));
  w.U32(settings.version);
  w.U32(uint32_t(animations.size()));
  w.U32(uint32_t(l.anim_at));
  w.U32(uint32_t(channels.size()));
  w.U32(uint32_t(l.chan_at));
  w.U32(uint32_t(bone_names.size()));
  w.U32(uint32_t(l.names_at));
  for (size_t i = 0; i < animations.size(); ++i) {
    const Animation& a = animations[i].a;
    const size_t entry = l.anim_at + kAnimationSize * i;
    w.I32(a.loop);
    w.U32(uint32_t(l.string_at.at(a.name) - entry));
    w.F32(a.duration);
    w.F32(a.interval);
    w.I32(a.keyframes);
    w.U32(uint32_t(animations[i].bones.size()));
    w.I32(int32_t(l.bones_at[i] - entry));
  }
  WriteChannels(w, channels, l, settings.version == kVersion6);
  {
    size_t i = 0;
    for (const std::string& n : bone_names) {
      w.U32(uint32_t(l.string_at.at(n) - (l.names_at + kNameEntrySize * i)));
      ++i;
    }
  }
  for (const NewAnimation& na : animations) {
    for (const BoneEntry& e : na.bones) {
      w.I16(e.name_index);
      w.I16(e.position);
      w.I16(e.rotation);
      w.I16(e.scale);
    }
  }
  w.AlignTo(4);
  for (const Channel& c : channels) {
    for (const auto& k : c.keys)
      for (uint16_t v : k) w.U16(v);
    for (const auto& q : c.quats)
      for (float v : q) w.F32(v);
    w.AlignTo(4);
  }
  for (const std::string& s : contents.pool) {
    for (uint16_t u : Utf16FromUtf8(s)) w.U16(u);
    w.U16(0);
  }
  return w.Take();
}

}  // namespace

File EncodeClips(const std::vector<Clip>& clips, const EncodeSettings& settings, const Skeleton* skeleton,
                 Value* report) {
  if (settings.version != kVersion5 && settings.version != kVersion6) {
    throw Error::General("CANM version " + std::to_string(settings.version) + " cannot be written (512 or 768)");
  }
  if (clips.empty()) throw Error::General("nothing to write: the input has no animation clip");
  const bool v6 = settings.version == kVersion6;

  Contents contents;
  for (const Clip& clip : clips) {
    contents.pool.insert(clip.name);
    for (const JointTrack& t : clip.tracks) contents.bone_names.insert(t.joint), contents.pool.insert(t.joint);
  }
  if (contents.bone_names.size() > 0x7FFF) throw Error::General("a CANM names at most 32767 bones");
  for (const std::string& n : contents.bone_names) contents.name_index.emplace(n, int16_t(contents.name_index.size()));
  for (const Clip& clip : clips) contents.animations.push_back(EncodeAnimation(clip, settings, skeleton, contents));

  File file;
  if (v6) {  // the game's stock order and alignment (LayOutStock)
    File content;
    content.version = kVersion6;
    content.channels = contents.channels;
    for (const std::string& n : contents.bone_names) content.names.push_back({0, n});
    for (const NewAnimation& na : contents.animations) {
      Animation a = na.a;
      a.bones = na.bones;
      content.animations.push_back(std::move(a));
    }
    file = LayOutStock(std::move(content), {.blocks = {}, .strings = {contents.pool.begin(), contents.pool.end()}});
  } else {
    file = Parse(Write(contents, LayOut(contents, v6), settings));
  }
  if (report) {
    (*report)["animations"] = contents.animations.size();
    (*report)["curves"] = contents.curves;
    (*report)["channels"] = contents.channels.size();
    (*report)["shared_curves"] = contents.curves - contents.channels.size();
    (*report)["bone_names"] = contents.bone_names.size();
  }
  return file;
}

}  // namespace animkit::edf_canm
