// CANM bytes: Parse and Serialize (every field kept, so Serialize gives the bytes back), and
// EDF 6 files laid out as the game's (LayOutStock), EDF 4.1/5 files converted to them.
#include <animkit/core/elementary.hpp>
#include <animkit/formats/edf_canm.hpp>

#include "formats/common/edf.hpp"
#include "edf_canm_fields.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace animkit::edf_canm {

namespace {

// ---------------------------------------------------------------- parsing helpers

constexpr char kMovapsFault[] = ": EDF 6 faults on it (its MOVAPS loads need 16-byte alignment)";

// What the game never writes in a 768 channel and, for misaligned quaternions, faults on.
void WarnAboutChannel768(File& f, const Channel& c, size_t entry, const std::string& what) {
  auto warn = [&](size_t at, const std::string& why) { f.warnings.push_back("offset " + Hex(at) + ": " + what + " " + why); };
  const bool blockless = c.type == kTypeStaticVector || c.type == kTypeStaticQuat;
  if (c.type == kTypeStaticQuat && entry % kQuatAlignment != 0) {
    warn(entry, "is a static quaternion whose base at " + Hex(entry) + " is not 16-aligned" + kMovapsFault);
  }
  if (c.type == kTypeFloatQuat && c.key_count > 0 && (int64_t(entry) + c.key_offset) % int64_t(kQuatAlignment) != 0) {
    warn(entry + 0x20, "has quaternion keys at " + Hex(uint64_t(int64_t(entry) + c.key_offset)) +
                           ", not 16-aligned" + kMovapsFault);
  }
  if (c.key_count == 0) warn(entry + 0x28, "has a key count of 0 (the game's files never do)");
  if (blockless && c.key_count > 1) {
    warn(entry + 0x28, "is kind " + std::to_string(c.type) + " with a key count of " + std::to_string(c.key_count) +
                           " (the game's files have 1; only the base is read)");
  }
  if (blockless && c.key_offset != 0) {
    warn(entry + 0x20, "is kind " + std::to_string(c.type) + " with a key offset of " + std::to_string(c.key_offset) +
                           " (the game's files have 0)");
  }
  if (c.pad != 0) warn(entry + 0x2C, "has reserved word " + Hex(c.pad) + " (the game's files have 0)");
}

bool HasStoredKeys(uint32_t version, const Channel& c) {
  if (version == kVersion6) return (c.type == kTypeU16Xyz || c.type == kTypeFloatQuat) && c.key_count > 0;
  return c.has_keyframes != 0 && c.key_count > 0;
}

}  // namespace

// ---------------------------------------------------------------- Parse / Serialize

namespace {

// The channel table and each channel's keys.
void ReadChannels(const ByteReader& r, File& f, ByteView data) {
  const size_t size = f.channel_size();
  ByteReader t = r.Table(f.channel_offset, f.channel_count, size, 0x14, "channel table");
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
      if (c.type != kTypeStaticVector && c.type != kTypeU16Xyz && c.type != kTypeStaticQuat &&
          c.type != kTypeFloatQuat) {
        t.FailAt(count_pos - 4, what + " has unknown key type " + std::to_string(c.type) +
                                    " (known: 0 static vector, 1 u16 xyz, 2 static quaternion, 3 float quaternion)");
      }
      if (count < 0) t.FailAt(count_pos, what + " has a negative key count (" + std::to_string(count) + ")");
      c.key_count = uint32_t(count);
      WarnAboutChannel768(f, c, entry, what);
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
}  // namespace

File Parse(ByteView data) {
  ByteReader r(data, Endian::Little);
  File f;
  r.Magic("CANM");
  f.version = r.U32("the version");
  if (f.version != kVersion5 && f.version != kVersion6) {
    r.FailAt(4, "unknown CANM version " + std::to_string(f.version) + " (" + Hex(f.version) +
                    "); known: 512 (EDF 4.1/5) and 768 (EDF 6)");
  }
  fields::ReadAll(r, f, kHeaderTables);
  f.image.assign(data.begin(), data.end());

  f.names = edf::ReadNameTable<NameEntry>(r, f.name_offset, f.name_count, 0x1C, "bone name", kNameEntrySize);

  if (f.version == kVersion6 && f.channel_offset % kQuatAlignment != 0) {
    f.warnings.push_back("offset 0x14: the channel table at " + Hex(f.channel_offset) + " is not " +
                         std::to_string(kQuatAlignment) + "-aligned" + kMovapsFault);
  }

  ReadChannels(r, f, data);

  // Animations and their bone tables.
  {
    ByteReader t = r.Table(f.animation_offset, f.animation_count, kAnimationSize, 0x0C, "animation table");
    f.animations.resize(f.animation_count);
    for (size_t i = 0; i < f.animation_count; ++i) {
      Animation& a = f.animations[i];
      const size_t entry = t.absolute(t.tell());
      const std::string what = "animation " + std::to_string(i);
      fields::ReadAll(t, a, kAnimationEntry);
      if (a.keyframes < 0 || a.keyframes > kMaxKeyframes) {
        r.FailAt(entry + 0x10, what + " claims " + std::to_string(a.keyframes) + " keyframes (0.." +
                                   std::to_string(kMaxKeyframes) + " are accepted)");
      }
      a.name = r.Utf16z(int64_t(entry) + a.name_offset, entry + 4, what + " name");
      ByteReader b = r.Table(int64_t(entry) + a.bone_offset, a.bone_count, kBoneSize, entry + 0x18,
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
  le::Store32At(out, 0x04, f.version);
  fields::WriteAt(out, 0x08, Endian::Little, f, kHeaderTables);
  for (size_t i = 0; i < f.names.size(); ++i) le::Store32At(out, f.name_offset + kNameEntrySize * i, f.names[i].offset);
  const size_t csize = f.channel_size();
  for (size_t i = 0; i < f.channels.size(); ++i) {
    const Channel& c = f.channels[i];
    const size_t at = f.channel_offset + csize * i;
    if (f.version == kVersion5) {
      le::Store16At(out, at, uint16_t(c.has_keyframes));
      le::Store16At(out, at + 2, uint16_t(c.key_count));
      for (size_t k = 0; k < 3; ++k) le::StoreF32At(out, at + 4 + 4 * k, c.base[k]);
      for (size_t k = 0; k < 3; ++k) le::StoreF32At(out, at + 16 + 4 * k, c.speed[k]);
      le::Store32At(out, at + 0x1C, uint32_t(c.key_offset));
    } else {
      for (size_t k = 0; k < 4; ++k) le::StoreF32At(out, at + 4 * k, c.base[k]);
      for (size_t k = 0; k < 4; ++k) le::StoreF32At(out, at + 16 + 4 * k, c.speed[k]);
      le::Store32At(out, at + 0x20, uint32_t(c.key_offset));
      le::Store32At(out, at + 0x24, uint32_t(c.type));
      le::Store32At(out, at + 0x28, c.key_count);
      le::Store32At(out, at + 0x2C, c.pad);
    }
    const size_t keys = size_t(int64_t(at) + c.key_offset);
    for (size_t k = 0; k < c.keys.size(); ++k)
      for (size_t n = 0; n < 3; ++n) le::Store16At(out, keys + 6 * k + 2 * n, c.keys[k][n]);
    for (size_t k = 0; k < c.quats.size(); ++k)
      for (size_t n = 0; n < 4; ++n) le::StoreF32At(out, keys + 16 * k + 4 * n, c.quats[k][n]);
  }
  for (size_t i = 0; i < f.animations.size(); ++i) {
    const Animation& a = f.animations[i];
    const size_t at = f.animation_offset + kAnimationSize * i;
    fields::WriteAt(out, at, Endian::Little, a, kAnimationEntry);
    const size_t bones = size_t(int64_t(at) + a.bone_offset);
    for (size_t j = 0; j < a.bones.size(); ++j) {
      const BoneEntry& e = a.bones[j];
      le::Store16At(out, bones + 8 * j, uint16_t(e.name_index));
      le::Store16At(out, bones + 8 * j + 2, uint16_t(e.position));
      le::Store16At(out, bones + 8 * j + 4, uint16_t(e.rotation));
      le::Store16At(out, bones + 8 * j + 6, uint16_t(e.scale));
    }
  }
  return out;
}

// ---------------------------------------------------------------- EDF 6 stock layout and conversion

namespace {

constexpr char kSceneRoot[] = "Scene_Root";

bool StockStringBefore(const std::string& a, const std::string& b) {
  if (a == b) return false;
  if (a == kSceneRoot) return true;
  if (b == kSceneRoot) return false;
  return a < b;  // UTF-8 byte order is code point order
}

size_t AlignUp(size_t at, size_t alignment) { return (at + alignment - 1) / alignment * alignment; }

bool HasBlock(const Channel& c) { return c.type == kTypeU16Xyz || c.type == kTypeFloatQuat; }

// Float32 at every step (no wider intermediate: SSE arithmetic, one rounding per operation).
float F32Mul(float a, float b) { return a * b; }

}  // namespace

std::vector<std::string> StockStrings(const File& content) {
  std::set<std::string, decltype(&StockStringBefore)> pool(&StockStringBefore);
  for (const Animation& a : content.animations) pool.insert(a.name);
  for (const NameEntry& n : content.names) pool.insert(n.name);
  return {pool.begin(), pool.end()};
}

namespace {

// Counts, offsets and reserved words of the stock kinds; refuses what the game never has.
void CheckStockContent(File& c) {
  const size_t channels = c.channels.size();
  if (channels > 0x7FFF) throw Error::General("a CANM holds at most 32767 channels");
  if (c.names.size() > 0x7FFF) throw Error::General("a CANM names at most 32767 bones");
  for (size_t i = 0; i < channels; ++i) {
    Channel& ch = c.channels[i];
    const std::string what = "channel " + std::to_string(i);
    ch.pad = 0;
    ch.has_keyframes = 0;
    switch (ch.type) {
      case kTypeStaticVector:
      case kTypeStaticQuat:
        ch.keys.clear(), ch.quats.clear();
        ch.key_count = 1;
        break;
      case kTypeU16Xyz:
        if (ch.keys.empty()) throw Error::General(what + " is kind 1 without keys (EDF 6 files never have a count of 0)");
        ch.quats.clear();
        ch.key_count = uint32_t(ch.keys.size());
        break;
      case kTypeFloatQuat:
        if (ch.quats.empty()) throw Error::General(what + " is kind 3 without keys (EDF 6 files never have a count of 0)");
        ch.keys.clear();
        ch.key_count = uint32_t(ch.quats.size());
        break;
      default:
        throw Error::General(what + " has kind " + std::to_string(ch.type) + "; EDF 6 knows kinds 0 to 3");
    }
  }
  for (size_t i = 0; i < c.animations.size(); ++i) {
    for (const BoneEntry& e : c.animations[i].bones) {
      if (e.name_index < 0 || size_t(e.name_index) >= c.names.size()) {
        throw Error::General("animation " + std::to_string(i) + " names bone " + std::to_string(e.name_index) + " of " +
                             std::to_string(c.names.size()));
      }
      for (int16_t slot : {e.position, e.rotation, e.scale}) {
        if (slot < -1 || (slot >= 0 && size_t(slot) >= channels)) {
          throw Error::General("animation " + std::to_string(i) + " uses channel " + std::to_string(slot) + " of " +
                               std::to_string(channels));
        }
      }
    }
  }
}

}  // namespace

File LayOutStock(File c, const StockOrder& order) {
  CheckStockContent(c);
  const size_t channels = c.channels.size();
  // Block order: the given one, then the rest in table order; kind 1 before kind 3.
  std::vector<size_t> blocks;
  std::vector<bool> placed(channels, false);
  for (size_t i : order.blocks) {
    if (i < channels && !placed[i]) blocks.push_back(i), placed[i] = true;
  }
  for (size_t i = 0; i < channels; ++i)
    if (!placed[i]) blocks.push_back(i);
  std::stable_partition(blocks.begin(), blocks.end(), [&](size_t i) { return c.channels[i].type == kTypeU16Xyz; });

  const std::vector<std::string> pool = order.strings.empty() ? StockStrings(c) : order.strings;

  // Places.
  std::vector<size_t> keys_at(channels, 0);
  size_t at = kHeaderSize + kChannelSize6 * channels;
  bool quats = false;
  for (size_t i : blocks) {
    const Channel& ch = c.channels[i];
    if (ch.type == kTypeU16Xyz) {
      keys_at[i] = at, at += 6 * ch.keys.size();
    } else if (ch.type == kTypeFloatQuat) {
      if (!quats) at = AlignUp(at, kQuatAlignment), quats = true;
      keys_at[i] = at, at += 16 * ch.quats.size();
    }
  }
  at = AlignUp(at, 4);
  const size_t clips_at = at;
  at += kAnimationSize * c.animations.size();
  std::vector<size_t> tracks_at;
  for (const Animation& a : c.animations) tracks_at.push_back(at), at += kBoneSize * a.bones.size();
  const size_t names_at = at;
  at += kNameEntrySize * c.names.size();
  std::map<std::string, size_t> string_at;
  for (const std::string& s : pool) {
    string_at.emplace(s, at);  // the first occurrence
    at += 2 * (Utf16FromUtf8(s).size() + 1);
  }
  if (at > 0x7FFFFFFF) throw Error::General("the CANM would exceed 2 GiB");
  auto string_of = [&](const std::string& s) {
    const auto it = string_at.find(s);
    if (it == string_at.end()) throw Error::General("the string pool lacks '" + s + "'");
    return it->second;
  };

  ByteWriter w(Endian::Little);
  for (char ch : {'C', 'A', 'N', 'M'}) w.U8(uint8_t(ch));
  w.U32(kVersion6);
  w.U32(uint32_t(c.animations.size())), w.U32(uint32_t(clips_at));
  w.U32(uint32_t(channels)), w.U32(uint32_t(kHeaderSize));
  w.U32(uint32_t(c.names.size())), w.U32(uint32_t(names_at));
  for (size_t i = 0; i < channels; ++i) {
    const Channel& ch = c.channels[i];
    const size_t entry = kHeaderSize + kChannelSize6 * i;
    for (float v : ch.base) w.F32(v);
    for (float v : ch.speed) w.F32(v);
    w.I32(HasBlock(ch) ? int32_t(keys_at[i] - entry) : 0);  // from the record; 0 for kinds 0 and 2
    w.I32(ch.type);
    w.I32(int32_t(ch.key_count));
    w.U32(0);
  }
  quats = false;
  for (size_t i : blocks) {
    const Channel& ch = c.channels[i];
    if (ch.type == kTypeFloatQuat && !quats) w.AlignTo(kQuatAlignment), quats = true;
    for (const auto& k : ch.keys)
      for (uint16_t v : k) w.U16(v);
    for (const auto& q : ch.quats)
      for (float v : q) w.F32(v);
  }
  w.AlignTo(4);
  for (size_t i = 0; i < c.animations.size(); ++i) {
    const Animation& a = c.animations[i];
    const size_t entry = clips_at + kAnimationSize * i;
    w.I32(a.loop);
    w.U32(uint32_t(string_of(a.name) - entry));
    w.F32(a.duration);
    w.F32(a.interval);
    w.I32(a.keyframes);
    w.U32(uint32_t(a.bones.size()));
    w.I32(int32_t(tracks_at[i] - entry));
  }
  for (const Animation& a : c.animations) {
    for (const BoneEntry& e : a.bones) w.I16(e.name_index), w.I16(e.position), w.I16(e.rotation), w.I16(e.scale);
  }
  for (size_t i = 0; i < c.names.size(); ++i) w.U32(uint32_t(string_of(c.names[i].name) - (names_at + kNameEntrySize * i)));
  for (const std::string& s : pool) {
    for (uint16_t u : Utf16FromUtf8(s)) w.U16(u);
    w.U16(0);
  }
  return Parse(w.Take());
}

std::array<float, 4> EulerToQuat768(float ax, float ay, float az) {
  float x = 0, y = 0, z = 0, w = 1;
  if (F32Mul(ax, ax) > 0) {
    const float h = F32Mul(ax, 0.5f);
    x = Sin(h), w = Cos(h);
  }
  if (F32Mul(ay, ay) > 0) {
    const float h = F32Mul(ay, 0.5f);
    const float s = Sin(h), co = Cos(h);
    const float nx = F32Mul(x, co), nw = F32Mul(w, co);
    const float nz = -F32Mul(x, s);  // explicit negation: x = 0 gives -0.0
    const float ny = F32Mul(w, s);
    x = nx, y = ny, z = nz, w = nw;
  } else {
    y = 0.0f, z = 0.0f;
  }
  if (F32Mul(az, az) > 0) {
    const float h = F32Mul(az, 0.5f);
    const float s = Sin(h), co = Cos(h);
    const float xc = F32Mul(x, co), ys = F32Mul(y, s), yc = F32Mul(y, co), xs = F32Mul(x, s);
    const float ws = F32Mul(w, s), zc = F32Mul(z, co), wc = F32Mul(w, co), zs = F32Mul(z, s);
    x = xc - ys, y = yc + xs, z = ws + zc, w = wc - zs;
  }
  return {x, y, z, w};
}

File ConvertTo768(const File& v5) {
  if (v5.version != kVersion5) {
    throw Error::General("only a version-512 CANM (EDF 4.1/5) converts to 768; this one is " + std::to_string(v5.version));
  }
  File out;
  out.version = kVersion6;
  for (const NameEntry& n : v5.names) out.names.push_back({0, n.name});
  // One new channel per (role, old channel), numbered by first use.
  std::map<std::pair<int, int16_t>, int16_t> made;
  std::vector<int16_t> old_of;
  auto convert = [&](int role, int16_t old) -> int16_t {
    if (old < 0) return -1;
    const auto [it, fresh] = made.emplace(std::make_pair(role, old), int16_t(out.channels.size()));
    if (!fresh) return it->second;
    if (out.channels.size() >= 0x7FFF) throw Error::General("the converted CANM would need over 32767 channels");
    const Channel& s = v5.channels[size_t(old)];
    const bool keyed = s.has_keyframes != 0 && !s.keys.empty();
    Channel c;
    if (role != 1) {  // translation or scale
      c.type = keyed ? kTypeU16Xyz : kTypeStaticVector;
      c.base = {s.base[0], s.base[1], s.base[2], 1.0f};
      c.speed = {s.speed[0], s.speed[1], s.speed[2], keyed ? 1.0f : 0.0f};
      if (keyed) c.keys = s.keys;
    } else if (!keyed) {
      c.type = kTypeStaticQuat;
      c.base = EulerToQuat768(s.base[0], s.base[1], s.base[2]);
    } else {
      c.type = kTypeFloatQuat;
      for (const auto& k : s.keys) {
        std::array<float, 3> angle{};
        for (size_t n = 0; n < 3; ++n) angle[n] = s.base[n] + F32Mul(float(k[n]), s.speed[n]);
        c.quats.push_back(EulerToQuat768(angle[0], angle[1], angle[2]));
      }
    }
    out.channels.push_back(std::move(c));
    old_of.push_back(old);
    return it->second;
  };
  for (const Animation& a : v5.animations) {
    Animation n;
    n.loop = a.loop, n.duration = a.duration, n.interval = a.interval, n.keyframes = a.keyframes, n.name = a.name;
    for (const BoneEntry& e : a.bones) {
      BoneEntry t;
      t.name_index = e.name_index;
      t.position = convert(0, e.position);
      t.rotation = convert(1, e.rotation);
      t.scale = convert(2, e.scale);
      n.bones.push_back(t);
    }
    out.animations.push_back(std::move(n));
  }
  StockOrder order;
  // Blocks in the old blocks' address order (ties: new channel order).
  for (size_t i = 0; i < out.channels.size(); ++i) order.blocks.push_back(i);
  auto address = [&](size_t i) {
    const size_t old = size_t(old_of[i]);
    return int64_t(v5.channel_offset + kChannelSize5 * old) + v5.channels[old].key_offset;
  };
  std::stable_sort(order.blocks.begin(), order.blocks.end(), [&](size_t a, size_t b) { return address(a) < address(b); });
  // Strings in the old pool's address order, each text once.
  std::vector<std::pair<uint64_t, std::string>> strings;
  for (size_t i = 0; i < v5.animations.size(); ++i) {
    strings.emplace_back(v5.animation_offset + kAnimationSize * i + v5.animations[i].name_offset, v5.animations[i].name);
  }
  for (size_t i = 0; i < v5.names.size(); ++i) {
    strings.emplace_back(uint64_t(v5.name_offset) + kNameEntrySize * i + v5.names[i].offset, v5.names[i].name);
  }
  std::stable_sort(strings.begin(), strings.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::set<std::string> seen;
  for (const auto& [where, text] : strings)
    if (seen.insert(text).second) order.strings.push_back(text);
  return LayOutStock(std::move(out), order);
}

}  // namespace animkit::edf_canm
