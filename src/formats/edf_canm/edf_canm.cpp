// CANM bytes: Parse and Serialize (every field kept, so Serialize gives the bytes back).
#include <animkit/formats/edf_canm.hpp>

#include "formats/common/edf.hpp"
#include "edf_canm_fields.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace animkit::edf_canm {

namespace {

// ---------------------------------------------------------------- parsing helpers

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
  fields::ReadAll(r, f, kHeaderTables);
  f.image.assign(data.begin(), data.end());

  f.names = edf::ReadNameTable<NameEntry>(r, f.name_offset, f.name_count, 0x1C, "bone name", kNameEntrySize);

  // Channels.
  {
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
  PutU32(out, 0x04, f.version);
  fields::WriteAt(out, 0x08, Endian::Little, f, kHeaderTables);
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
    fields::WriteAt(out, at, Endian::Little, a, kAnimationEntry);
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

}  // namespace animkit::edf_canm
