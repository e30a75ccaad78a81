#include <animkit/formats/edf_canm.hpp>
#include <animkit/sampling.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <numbers>
#include <set>

namespace animkit::edf_canm {

// ---------------------------------------------------------------- strings

std::string Utf8FromUtf16(const std::vector<uint16_t>& units) {
  std::string out;
  auto put = [&out](uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  };
  for (size_t i = 0; i < units.size(); ++i) {
    const uint32_t u = units[i];
    if (u >= 0xD800 && u < 0xDC00 && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000) {
      put(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00));
      ++i;
    } else if (u >= 0xD800 && u < 0xE000) {
      put(0xFFFD);
    } else {
      put(u);
    }
  }
  return out;
}

std::vector<uint16_t> Utf16FromUtf8(std::string_view text) {
  std::vector<uint16_t> out;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    uint32_t cp = 0xFFFD;
    size_t len = 1;
    if (c < 0x80) {
      cp = c;
    } else if ((c >> 5) == 6 && i + 1 < text.size()) {
      cp = ((c & 0x1Fu) << 6) | (uint8_t(text[i + 1]) & 0x3Fu), len = 2;
    } else if ((c >> 4) == 14 && i + 2 < text.size()) {
      cp = ((c & 0x0Fu) << 12) | ((uint8_t(text[i + 1]) & 0x3Fu) << 6) | (uint8_t(text[i + 2]) & 0x3Fu), len = 3;
    } else if ((c >> 3) == 30 && i + 3 < text.size()) {
      cp = ((c & 0x07u) << 18) | ((uint8_t(text[i + 1]) & 0x3Fu) << 12) | ((uint8_t(text[i + 2]) & 0x3Fu) << 6) |
           (uint8_t(text[i + 3]) & 0x3Fu);
      len = 4;
    }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(uint16_t(0xD800 + (cp >> 10)));
      out.push_back(uint16_t(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(uint16_t(cp));
    }
  }
  return out;
}

namespace {

// ---------------------------------------------------------------- parsing helpers

// A zero-terminated UTF-16LE string at an absolute position. field is where the offset
// that led here was read (named when the position is outside the file).
std::string ReadUtf16(const ByteReader& file, int64_t pos, size_t field, const std::string& what) {
  if (pos < 0 || uint64_t(pos) >= file.size()) {
    file.FailAt(field, what + " points to " + (pos < 0 ? "before the start of the file" : Hex(uint64_t(pos))) +
                           ", outside the file (" + Hex(file.size()) + " bytes)");
  }
  std::vector<uint16_t> units;
  ByteView d = file.data();
  for (size_t p = size_t(pos);; p += 2) {
    if (p + 2 > d.size()) {
      file.FailAt(size_t(pos), what + " is not terminated: no zero UTF-16 unit before the end of the file");
    }
    const uint16_t u = uint16_t(d[p] | (d[p + 1] << 8));
    if (u == 0) break;
    units.push_back(u);
  }
  return Utf8FromUtf16(units);
}

// A reader over the table at offset, with count entries checked against the file size.
ByteReader Table(const ByteReader& file, int64_t offset, uint64_t count, size_t entry_size, size_t field,
                 const std::string& what) {
  if (offset < 0 || uint64_t(offset) > file.size()) {
    file.FailAt(field, what + " offset points to " + (offset < 0 ? "before the start of the file" : Hex(uint64_t(offset))) +
                           ", past the end of the file (" + Hex(file.size()) + ")");
  }
  ByteReader t = file.Sub(uint64_t(offset), file.size() - uint64_t(offset), what);
  t.Count(count, entry_size, what);
  return t;
}

void PutU16(Bytes& out, size_t pos, uint16_t v) {
  if (pos + 2 > out.size()) throw Error::General("CANM field at " + Hex(pos) + " lies outside the file image");
  out[pos] = uint8_t(v), out[pos + 1] = uint8_t(v >> 8);
}
void PutU32(Bytes& out, size_t pos, uint32_t v) {
  if (pos + 4 > out.size()) throw Error::General("CANM field at " + Hex(pos) + " lies outside the file image");
  for (int i = 0; i < 4; ++i) out[pos + size_t(i)] = uint8_t(v >> (8 * i));
}
void PutF32(Bytes& out, size_t pos, float v) { PutU32(out, pos, std::bit_cast<uint32_t>(v)); }

bool HasStoredKeys(uint32_t version, const Channel& c) {
  if (version == kVersion6) return (c.type == kTypeU16Xyz || c.type == kTypeFloatQuat) && c.key_count > 0;
  return c.has_keyframes != 0 && c.key_count > 0;
}

}  // namespace

// ---------------------------------------------------------------- Parse / Serialize

File Parse(ByteView data) {
  ByteReader r(data, Endian::Little);
  File f;
  r.Magic("CANM");
  f.version = r.U32("the version");
  if (f.version != kVersion5 && f.version != kVersion6) {
    r.FailAt(4, "unknown CANM version " + std::to_string(f.version) + " (" + Hex(f.version) +
                    "); known: 512 (EDF 4.1/5) and 768 (EDF 6)");
  }
  f.animation_count = r.U32("the animation count");
  f.animation_offset = r.U32("the animation table offset");
  f.channel_count = r.U32("the channel count");
  f.channel_offset = r.U32("the channel table offset");
  f.name_count = r.U32("the bone name count");
  f.name_offset = r.U32("the bone name table offset");
  f.image.assign(data.begin(), data.end());

  // Bone names.
  {
    ByteReader t = Table(r, f.name_offset, f.name_count, kNameEntrySize, 0x1C, "bone name table");
    f.names.resize(f.name_count);
    for (size_t i = 0; i < f.name_count; ++i) {
      const size_t entry = t.absolute(t.tell());
      f.names[i].offset = t.U32("a bone name offset");
      f.names[i].name = ReadUtf16(r, int64_t(entry) + f.names[i].offset, entry, "bone name " + std::to_string(i));
    }
  }

  // Channels.
  {
    const size_t size = f.channel_size();
    ByteReader t = Table(r, f.channel_offset, f.channel_count, size, 0x14, "channel table");
    f.channels.resize(f.channel_count);
    for (size_t i = 0; i < f.channel_count; ++i) {
      Channel& c = f.channels[i];
      const size_t entry = t.absolute(t.tell());
      const std::string what = "channel " + std::to_string(i);
      if (f.version == kVersion5) {
        c.has_keyframes = t.I16("a channel's hasKeyframes flag");
        c.key_count = t.U16("a channel's key count");
        for (int k = 0; k < 3; ++k) c.base[size_t(k)] = t.F32("a channel base");
        for (int k = 0; k < 3; ++k) c.speed[size_t(k)] = t.F32("a channel speed");
        c.key_offset = t.I32("a channel key offset");
      } else {
        for (float& v : c.base) v = t.F32("a channel base");
        for (float& v : c.speed) v = t.F32("a channel speed");
        c.key_offset = t.I32("a channel key offset");
        c.type = t.I32("a channel key type");
        const size_t count_pos = t.tell();
        const int32_t count = t.I32("a channel key count");
        c.pad = t.U32("a channel's padding");
        if (c.type != kTypeU16Xyz && c.type != kTypeStaticQuat && c.type != kTypeFloatQuat) {
          t.FailAt(count_pos - 4, what + " has unknown key type " + std::to_string(c.type) +
                                      " (known: 1 u16 xyz, 2 static quaternion, 3 float quaternion)");
        }
        if (count < 0) t.FailAt(count_pos, what + " has a negative key count (" + std::to_string(count) + ")");
        c.key_count = uint32_t(count);
      }
      if (!HasStoredKeys(f.version, c)) continue;
      const int64_t keys_at = int64_t(entry) + c.key_offset;
      const size_t key_size = c.type == kTypeFloatQuat && f.version == kVersion6 ? 16 : 6;
      const size_t field = entry + (f.version == kVersion5 ? 0x1C : 0x20);
      if (keys_at < 0 || uint64_t(keys_at) > data.size()) {
        r.FailAt(field, what + " key data offset points to " + (keys_at < 0 ? "before the start of the file" : Hex(uint64_t(keys_at))) +
                            ", past the end of the file (" + Hex(data.size()) + ")");
      }
      if (uint64_t(c.key_count) * key_size > data.size() - uint64_t(keys_at)) {
        r.FailAt(field, what + " key data runs past the end of the file (needs " +
                            Hex(uint64_t(keys_at) + uint64_t(c.key_count) * key_size) + " bytes, file has " +
                            Hex(data.size()) + ")");
      }
      ByteReader k = r.Sub(uint64_t(keys_at), uint64_t(c.key_count) * key_size, what + " keys");
      if (key_size == 16) {
        c.quats.resize(c.key_count);
        for (auto& q : c.quats)
          for (float& v : q) v = k.F32("a quaternion key");
      } else {
        c.keys.resize(c.key_count);
        for (auto& key : c.keys)
          for (uint16_t& v : key) v = k.U16("a key");
      }
    }
  }

  // Animations and their bone tables.
  {
    ByteReader t = Table(r, f.animation_offset, f.animation_count, kAnimationSize, 0x0C, "animation table");
    f.animations.resize(f.animation_count);
    for (size_t i = 0; i < f.animation_count; ++i) {
      Animation& a = f.animations[i];
      const size_t entry = t.absolute(t.tell());
      const std::string what = "animation " + std::to_string(i);
      a.loop = t.I32("an animation's loop flag");
      a.name_offset = t.U32("an animation's name offset");
      a.duration = t.F32("an animation's duration");
      a.interval = t.F32("an animation's keyframe interval");
      a.keyframes = t.I32("an animation's keyframe count");
      a.bone_count = t.U32("an animation's bone count");
      a.bone_offset = t.I32("an animation's bone table offset");
      if (a.keyframes < 0 || a.keyframes > kMaxKeyframes) {
        r.FailAt(entry + 0x10, what + " claims " + std::to_string(a.keyframes) + " keyframes (0.." +
                                   std::to_string(kMaxKeyframes) + " are accepted)");
      }
      a.name = ReadUtf16(r, int64_t(entry) + a.name_offset, entry + 4, what + " name");
      ByteReader b = Table(r, int64_t(entry) + a.bone_offset, a.bone_count, kBoneSize, entry + 0x18,
                           what + " bone table");
      a.bones.resize(a.bone_count);
      for (size_t j = 0; j < a.bone_count; ++j) {
        BoneEntry& e = a.bones[j];
        const size_t at = b.absolute(b.tell());
        e.name_index = b.I16("a bone name index");
        e.position = b.I16("a position channel index");
        e.rotation = b.I16("a rotation channel index");
        e.scale = b.I16("a scale channel index");
        if (e.name_index < 0 || uint32_t(e.name_index) >= f.name_count) {
          r.FailAt(at, what + " bone " + std::to_string(j) + " names bone name " + std::to_string(e.name_index) +
                           ", but the table has " + std::to_string(f.name_count));
        }
        const int16_t slots[3] = {e.position, e.rotation, e.scale};
        const char* slot_names[3] = {"position", "rotation", "scale"};
        for (int s = 0; s < 3; ++s) {
          const int16_t ch = slots[s];
          if (ch == -1) continue;
          if (ch < 0 || uint32_t(ch) >= f.channel_count) {
            r.FailAt(at + 2 + 2 * size_t(s), what + " bone " + std::to_string(j) + " " + slot_names[s] + " channel " +
                                                 std::to_string(ch) + " does not exist (" +
                                                 std::to_string(f.channel_count) + " channels)");
          }
          if (s != 1 && f.channels[size_t(ch)].quaternion(f.version)) {
            r.FailAt(at + 2 + 2 * size_t(s), what + " bone " + std::to_string(j) + " uses quaternion channel " +
                                                 std::to_string(ch) + " as its " + slot_names[s]);
          }
        }
      }
    }
  }
  return f;
}

Bytes Serialize(const File& f) {
  Bytes out = f.image;
  if (out.size() < kHeaderSize) throw Error::General("a CANM image needs at least its 0x20-byte header");
  std::memcpy(out.data(), "CANM", 4);
  PutU32(out, 0x04, f.version);
  PutU32(out, 0x08, f.animation_count);
  PutU32(out, 0x0C, f.animation_offset);
  PutU32(out, 0x10, f.channel_count);
  PutU32(out, 0x14, f.channel_offset);
  PutU32(out, 0x18, f.name_count);
  PutU32(out, 0x1C, f.name_offset);
  for (size_t i = 0; i < f.names.size(); ++i) PutU32(out, f.name_offset + kNameEntrySize * i, f.names[i].offset);
  const size_t csize = f.channel_size();
  for (size_t i = 0; i < f.channels.size(); ++i) {
    const Channel& c = f.channels[i];
    const size_t at = f.channel_offset + csize * i;
    if (f.version == kVersion5) {
      PutU16(out, at, uint16_t(c.has_keyframes));
      PutU16(out, at + 2, uint16_t(c.key_count));
      for (size_t k = 0; k < 3; ++k) PutF32(out, at + 4 + 4 * k, c.base[k]);
      for (size_t k = 0; k < 3; ++k) PutF32(out, at + 16 + 4 * k, c.speed[k]);
      PutU32(out, at + 0x1C, uint32_t(c.key_offset));
    } else {
      for (size_t k = 0; k < 4; ++k) PutF32(out, at + 4 * k, c.base[k]);
      for (size_t k = 0; k < 4; ++k) PutF32(out, at + 16 + 4 * k, c.speed[k]);
      PutU32(out, at + 0x20, uint32_t(c.key_offset));
      PutU32(out, at + 0x24, uint32_t(c.type));
      PutU32(out, at + 0x28, c.key_count);
      PutU32(out, at + 0x2C, c.pad);
    }
    const size_t keys = size_t(int64_t(at) + c.key_offset);
    for (size_t k = 0; k < c.keys.size(); ++k)
      for (size_t n = 0; n < 3; ++n) PutU16(out, keys + 6 * k + 2 * n, c.keys[k][n]);
    for (size_t k = 0; k < c.quats.size(); ++k)
      for (size_t n = 0; n < 4; ++n) PutF32(out, keys + 16 * k + 4 * n, c.quats[k][n]);
  }
  for (size_t i = 0; i < f.animations.size(); ++i) {
    const Animation& a = f.animations[i];
    const size_t at = f.animation_offset + kAnimationSize * i;
    PutU32(out, at, uint32_t(a.loop));
    PutU32(out, at + 4, a.name_offset);
    PutF32(out, at + 8, a.duration);
    PutF32(out, at + 12, a.interval);
    PutU32(out, at + 16, uint32_t(a.keyframes));
    PutU32(out, at + 20, a.bone_count);
    PutU32(out, at + 24, uint32_t(a.bone_offset));
    const size_t bones = size_t(int64_t(at) + a.bone_offset);
    for (size_t j = 0; j < a.bones.size(); ++j) {
      const BoneEntry& e = a.bones[j];
      PutU16(out, bones + 8 * j, uint16_t(e.name_index));
      PutU16(out, bones + 8 * j + 2, uint16_t(e.position));
      PutU16(out, bones + 8 * j + 4, uint16_t(e.rotation));
      PutU16(out, bones + 8 * j + 6, uint16_t(e.scale));
    }
  }
  return out;
}

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
    clip.metadata = {{"source_format", "edf-canm"}, {"canm_version", file.version}, {"loop", a.loop},
                     {"duration", a.duration},      {"interval", a.interval},       {"keyframes", a.keyframes},
                     {"engine_fps", settings.engine_fps}};
    for (size_t j = 0; j < a.bones.size(); ++j) {
      const BoneEntry& e = a.bones[j];
      JointTrack t;
      const std::string& name = file.names[size_t(e.name_index)].name;
      t.joint = name;
      if (name.empty()) t.joint = IndexName(size_t(e.name_index));
      auto keys_of = [&](int16_t index, auto&& emit) {
        if (index < 0) return;
        const Channel& c = file.channels[size_t(index)];
        const size_t n = std::min(std::max<size_t>(StoredKeys(c), 1), clip.frame_count);
        for (size_t k = 0; k < n; ++k) emit(FrameTime(k, clip.frame_rate), ChannelValue(file, c, k), c);
      };
      keys_of(e.position, [&](Seconds time, std::array<float, 4> v, const Channel&) {
        t.translation.times.push_back(time);
        t.translation.values.push_back({v[0], v[1], v[2]});
      });
      keys_of(e.rotation, [&](Seconds time, std::array<float, 4> v, const Channel& c) {
        t.rotation.times.push_back(time);
        t.rotation.values.push_back(c.quaternion(file.version) ? Normalize(QuatXYZW{v[0], v[1], v[2], v[3]})
                                                               : QuatFromEuler({v[0], v[1], v[2]}, EulerOrder::XYZ));
      });
      keys_of(e.scale, [&](Seconds time, std::array<float, 4> v, const Channel&) {
        t.scale.times.push_back(time);
        t.scale.values.push_back({v[0], v[1], v[2]});
      });
      clip.tracks.push_back(std::move(t));
    }
    clips.push_back(std::move(clip));
  }
  return clips;
}

// ---------------------------------------------------------------- encoding

namespace {

constexpr double kKeyMax = 65535;

struct Curve {
  std::vector<std::array<float, 4>> frames;  // per frame: xyz (+ w for quaternions)
};

Channel QuantizeXyz(const Curve& curve, uint32_t version) {
  Channel c;
  c.type = kTypeU16Xyz;
  const auto& f0 = curve.frames.front();
  const bool constant = std::all_of(curve.frames.begin(), curve.frames.end(), [&](const auto& v) {
    return v[0] == f0[0] && v[1] == f0[1] && v[2] == f0[2];
  });
  if (constant) {
    c.base = {f0[0], f0[1], f0[2], 0};
    c.has_keyframes = 0;
    c.key_count = version == kVersion5 ? 1 : 0;  // 512: count 1 with hasKeyframes = 0; 768: no keys
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
  return c;
}

Channel QuaternionChannel(const Curve& curve) {
  Channel c;
  const auto& f0 = curve.frames.front();
  if (std::all_of(curve.frames.begin(), curve.frames.end(), [&](const auto& v) { return v == f0; })) {
    c.type = kTypeStaticQuat;
    c.base = f0;
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

}  // namespace

File EncodeClips(const std::vector<Clip>& clips, const EncodeSettings& settings, const Skeleton* skeleton,
                 Value* report) {
  if (settings.version != kVersion5 && settings.version != kVersion6) {
    throw Error::General("CANM version " + std::to_string(settings.version) + " cannot be written (512 or 768)");
  }
  if (clips.empty()) throw Error::General("nothing to write: the input has no animation clip");
  const bool v6 = settings.version == kVersion6;

  // Names: bones (the name table) and animations, pooled.
  std::set<std::string, decltype(&NameLess)> bone_names(&NameLess), pool(&NameLess);
  for (const Clip& clip : clips) {
    pool.insert(clip.name);
    for (const JointTrack& t : clip.tracks) bone_names.insert(t.joint), pool.insert(t.joint);
  }
  if (bone_names.size() > 0x7FFF) throw Error::General("a CANM names at most 32767 bones");
  std::map<std::string, int16_t> name_index;
  for (const std::string& n : bone_names) name_index.emplace(n, int16_t(name_index.size()));

  // Channels, deduplicated; per animation its bone entries.
  std::map<std::string, size_t> channel_of;
  std::vector<Channel> channels;
  size_t curves = 0;
  auto add_channel = [&](Channel c) -> int16_t {
    ++curves;
    auto [it, fresh] = channel_of.emplace(ChannelKey(c), channels.size());
    if (fresh) {
      if (channels.size() >= 0x7FFF) throw Error::General("a CANM holds at most 32767 channels");
      channels.push_back(std::move(c));
    }
    return int16_t(it->second);
  };
  struct NewAnimation {
    Animation a;
    std::vector<BoneEntry> bones;
  };
  std::vector<NewAnimation> animations;
  for (const Clip& clip : clips) {
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
      e.name_index = name_index.at(t.joint);
      Curve pos, rot, scl;
      std::array<float, 3> prev_euler{0, 0, 0};
      size_t cursor_t = 0, cursor_r = 0, cursor_s = 0;
      for (size_t f = 0; f < frames; ++f) {
        const Seconds time = FrameTime(f, rate);
        if (!t.translation.empty()) {
          const Vec3 v = SampleTrack(t.translation, time, &cursor_t);
          pos.frames.push_back({v.x, v.y, v.z, 0});
        }
        if (!t.scale.empty()) {
          const Vec3 v = SampleTrack(t.scale, time, &cursor_s);
          scl.frames.push_back({v.x, v.y, v.z, 0});
        }
        if (!t.rotation.empty()) {
          QuatXYZW q = Normalize(SampleTrack(t.rotation, time, &cursor_r));
          if (v6) {
            if (!rot.frames.empty()) {  // keep consecutive keys in the same hemisphere
              const auto& p = rot.frames.back();
              if (p[0] * q.x + p[1] * q.y + p[2] * q.z + p[3] * q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};
            } else if (q.w < 0) {
              q = {-q.x, -q.y, -q.z, -q.w};
            }
            rot.frames.push_back({q.x, q.y, q.z, q.w});
          } else {
            const Vec3 e3 = EulerFromQuat(q, EulerOrder::XYZ);
            std::array<float, 3> angles{e3.x, e3.y, e3.z};
            if (f > 0) {  // unwrap: the same rotation, without 2 pi jumps between frames
              for (size_t k = 0; k < 3; ++k) {
                const double turn = 2 * std::numbers::pi;
                angles[k] = float(angles[k] - turn * std::round((double(angles[k]) - prev_euler[k]) / turn));
              }
            }
            prev_euler = angles;
            rot.frames.push_back({angles[0], angles[1], angles[2], 0});
          }
        }
      }
      if (!pos.frames.empty()) e.position = add_channel(QuantizeXyz(pos, settings.version));
      if (!rot.frames.empty()) e.rotation = add_channel(v6 ? QuaternionChannel(rot) : QuantizeXyz(rot, settings.version));
      if (!scl.frames.empty()) e.scale = add_channel(QuantizeXyz(scl, settings.version));
      na.bones.push_back(e);
    }
    animations.push_back(std::move(na));
  }

  // Layout: header, animations, channels, name table, bone tables, key data, strings.
  const size_t csize = v6 ? kChannelSize6 : kChannelSize5;
  const size_t anim_at = kHeaderSize;
  const size_t chan_at = anim_at + kAnimationSize * animations.size();
  const size_t names_at = chan_at + csize * channels.size();
  size_t at = names_at + kNameEntrySize * bone_names.size();
  std::vector<size_t> bones_at;
  for (const NewAnimation& na : animations) bones_at.push_back(at), at += kBoneSize * na.bones.size();
  at = (at + 3) & ~size_t(3);
  std::vector<size_t> keys_at;
  for (const Channel& c : channels) {
    keys_at.push_back(at);
    at += c.keys.size() * 6 + c.quats.size() * 16;
    at = (at + 3) & ~size_t(3);
  }
  std::map<std::string, size_t> string_at;
  for (const std::string& s : pool) {
    string_at[s] = at;
    at += 2 * (Utf16FromUtf8(s).size() + 1);
  }
  if (at > 0x7FFFFFFF) throw Error::General("the CANM would exceed 2 GiB");

  ByteWriter w(Endian::Little);
  for (char c : {'C', 'A', 'N', 'M'}) w.U8(uint8_t(c));
  w.U32(settings.version);
  w.U32(uint32_t(animations.size()));
  w.U32(uint32_t(anim_at));
  w.U32(uint32_t(channels.size()));
  w.U32(uint32_t(chan_at));
  w.U32(uint32_t(bone_names.size()));
  w.U32(uint32_t(names_at));
  for (size_t i = 0; i < animations.size(); ++i) {
    const Animation& a = animations[i].a;
    const size_t entry = anim_at + kAnimationSize * i;
    w.I32(a.loop);
    w.U32(uint32_t(string_at.at(a.name) - entry));
    w.F32(a.duration);
    w.F32(a.interval);
    w.I32(a.keyframes);
    w.U32(uint32_t(animations[i].bones.size()));
    w.I32(int32_t(bones_at[i] - entry));
  }
  for (size_t i = 0; i < channels.size(); ++i) {
    const Channel& c = channels[i];
    const size_t entry = chan_at + csize * i;
    const bool stored = !c.keys.empty() || !c.quats.empty();
    const int32_t offset = stored ? int32_t(keys_at[i] - entry) : 0;
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
  {
    size_t i = 0;
    for (const std::string& n : bone_names) {
      w.U32(uint32_t(string_at.at(n) - (names_at + kNameEntrySize * i)));
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
  for (const std::string& s : pool) {
    for (uint16_t u : Utf16FromUtf8(s)) w.U16(u);
    w.U16(0);
  }
  if (report) {
    (*report)["animations"] = animations.size();
    (*report)["curves"] = curves;
    (*report)["channels"] = channels.size();
    (*report)["shared_curves"] = curves - channels.size();
    (*report)["bone_names"] = bone_names.size();
  }
  return Parse(w.Take());
}

}  // namespace animkit::edf_canm
