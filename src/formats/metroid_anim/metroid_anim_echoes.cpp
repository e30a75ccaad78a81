// Metroid Prime 2: Echoes ANIM versions 0 and 2: parse, serialize, unpack, decode.
#include <animkit/core/elementary.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/offline/sampling.hpp>

#include "metroid_bitstream.hpp"
#include "metroid_fields.hpp"
#include "metroid_read.hpp"

#include <algorithm>
#include <bit>

namespace animkit::metroid {

namespace {

std::string Num(size_t v) { return std::to_string(v); }

// 1 + the largest entry below 0x80 (an s8 that is not negative); 0 when none.
size_t OnePastLargest(const std::vector<uint8_t>& table) {
  size_t n = 0;
  for (uint8_t c : table)
    if (c < 0x80) n = std::max<size_t>(n, size_t{c} + 1);
  return n;
}

size_t PartBits(const KeyedAxes& p) {
  return p.present() ? size_t{p.axes[0].bits} + p.axes[1].bits + p.axes[2].bits : 0;
}

}  // namespace

size_t EchoesDescriptor::byte_size() const {
  return 1 + 3 * 2 + (rotation.present() ? 9 : 0) + (translation.present() ? 9 : 0) + (scale.present() ? 9 : 0);
}

size_t EchoesDescriptor::key_bits() const {
  return (rotation.present() ? 1 : 0) + PartBits(rotation) + PartBits(translation) + PartBits(scale);
}

size_t EchoesAnimV2::KeyedFrames() const {
  return KeyedFrameCount(bitmap_bits, bitmap_words);
}

size_t EchoesAnimV0::RotationChannels() const {
  size_t n = 0;
  for (size_t c = 0; c < rotation_flags.size(); ++c)
    if (rotation_flags[c] < 0x80) n = c + 1;
  return n;
}
size_t EchoesAnimV0::TranslationChannels() const { return OnePastLargest(translation_table); }
size_t EchoesAnimV0::ScalesPerFrame() const { return OnePastLargest(scale_table); }

namespace {

// Bits the bitstream needs: (set bits - 1) keys of every descriptor's key bits.
uint64_t EchoesBitsNeeded(const EchoesAnimV2& a) {
  const size_t keys = a.KeyedFrames();
  const uint64_t steps = keys > 0 ? keys - 1 : 0;
  uint64_t per_key = 0;
  for (const EchoesDescriptor& d : a.descriptors) per_key += d.key_bits();
  if (per_key != 0 && steps > (uint64_t{1} << 60) / per_key) return uint64_t{1} << 60;
  return steps * per_key;
}

// One part: u16 count, then the three axes when it is non-zero. A present part's count
// must be the game's (set bits - 1) or the set bits; widths at most 32.
void ReadPart(ByteReader& r, KeyedAxes& p, const std::string& part, const std::string& what, size_t keyed) {
  const size_t at = r.tell();
  fields::ReadAll(r, p, kKeyedAxesCount);
  if (!p.present()) return;
  for (AxisKey& axis : p.axes) fields::ReadAll(r, axis, kAxisKey);
  if (!(p.keys == keyed || (keyed > 0 && p.keys == keyed - 1))) {
    r.FailAt(at, what + " has " + Num(p.keys) + " " + part + " keys but the key bitmap's " + Num(keyed) +
                     " set bits call for 0 (none), " + (keyed > 1 ? Num(keyed - 1) + " (set bits - 1) or " : "") +
                     Num(keyed));
  }
  for (size_t c = 0; c < 3; ++c) {
    if (p.axes[c].bits > kMaxBits) {
      r.FailAt(at + 4 + 3 * c, what + " " + part + " bit width " + Num(p.axes[c].bits) + " exceeds 32");
    }
  }
}

void WritePart(ByteWriter& w, const KeyedAxes& p) {
  fields::WriteAll(w, p, kKeyedAxesCount);
  if (p.present())
    for (const AxisKey& axis : p.axes) fields::WriteAll(w, axis, kAxisKey);
}

// Wraps a total to 16 bits as the game's store does (see metroid_bitstream.cpp).
int16_t Low16(int64_t v) { return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint64_t>(v) & 0xFFFF)); }

void UnpackPart(BitReader& br, const KeyedAxes& p, std::vector<std::array<int16_t, 3>>& totals, size_t k) {
  for (size_t c = 0; c < 3; ++c) totals[k][c] = Low16(int64_t{totals[k - 1][c]} + br.Signed(p.axes[c].bits));
}

std::array<int16_t, 3> Initials(const KeyedAxes& p) { return {p.axes[0].initial, p.axes[1].initial, p.axes[2].initial}; }

}  // namespace

std::vector<DecodedChannel> UnpackEchoesV2(const EchoesAnimV2& a) {
  const size_t keys = a.KeyedFrames();
  if ((EchoesBitsNeeded(a) + 31) / 32 * 4 > a.bitstream.size()) {
    throw Error::General("the key bitstream is shorter than the descriptors need");
  }
  std::vector<DecodedChannel> out(a.descriptors.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const EchoesDescriptor& d = a.descriptors[i];
    DecodedChannel& ch = out[i];
    ch.bone_id = d.bone_id;
    if (d.rotation.present()) ch.rotation.resize(keys), ch.w_negative.assign(keys, 0);
    if (d.translation.present()) ch.translation.resize(keys);
    if (d.scale.present()) ch.scale.resize(keys);
    if (keys == 0) continue;
    if (d.rotation.present()) ch.rotation[0] = Initials(d.rotation);
    if (d.translation.present()) ch.translation[0] = Initials(d.translation);
    if (d.scale.present()) ch.scale[0] = Initials(d.scale);
  }
  BitReader br(a.bitstream);
  for (size_t k = 1; k < keys; ++k) {
    for (size_t i = 0; i < out.size(); ++i) {
      const EchoesDescriptor& d = a.descriptors[i];
      DecodedChannel& ch = out[i];
      if (d.rotation.present()) {
        ch.w_negative[k] = br.Bit();
        UnpackPart(br, d.rotation, ch.rotation, k);
      }
      if (d.translation.present()) UnpackPart(br, d.translation, ch.translation, k);
      if (d.scale.present()) UnpackPart(br, d.scale, ch.scale, k);
    }
  }
  return out;
}

namespace detail {

EchoesAnimV0 ParseEchoesV0(ByteReader& r) {
  EchoesAnimV0 a;
  fields::ReadAll(r, a, kEchoesV0Header);
  const size_t bone_table_at = r.tell();
  a.bone_table = ReadByteTable(r, "bone table", "a bone id is a byte");
  a.rotation_flags = ReadByteTable(r, "rotation flag table", "channels are bytes");
  a.translation_table = ReadByteTable(r, "translation table", "channels are bytes");
  a.scale_table = ReadByteTable(r, "scale table", "channels are bytes");
  for (size_t b = 0; b < a.bone_table.size(); ++b) {
    if (a.bone_table[b] < 0x80 && a.bone_table[b] >= a.Channels()) {
      r.FailAt(bone_table_at + 4 + b, "bone " + Num(b) + " names channel " + Num(a.bone_table[b]) + ", but the " +
                                          "rotation flag table has " + Num(a.Channels()) + " channels");
    }
  }
  ReadKeys(r, "scale", a.ScalesPerFrame(), a.frame_count, a.scales);
  ReadKeys(r, "quaternion", a.RotationChannels(), a.frame_count, a.rotations);
  ReadKeys(r, "translation", a.TranslationChannels(), a.frame_count, a.translations);
  ByteView rest = r.Take(r.remaining(), "trailing bytes");
  a.trailing.assign(rest.begin(), rest.end());
  return a;
}

EchoesAnimV2 ParseEchoesV2(ByteReader& r) {
  EchoesAnimV2 a;
  fields::ReadAll(r, a, kEchoesV2Header);
  if (a.rotation_divisor == 0) r.FailAt(0x1A, "the rotation divisor is 0 (rotations would divide by zero)");
  ReadKeyBitmap(r, a.bitmap_bits, a.bitmap_words);
  const size_t count = fields::ReadCount(r, fields::Size(kEchoesDescriptorId) + 3 * fields::Size(kKeyedAxesCount),
                                         "bone channel descriptors");
  const size_t keyed = a.KeyedFrames();
  a.descriptors.resize(count);
  for (size_t i = 0; i < count; ++i) {
    EchoesDescriptor& d = a.descriptors[i];
    fields::ReadAll(r, d, kEchoesDescriptorId);
    const std::string what = "descriptor " + Num(i) + " (bone " + Num(d.bone_id) + ")";
    ReadPart(r, d.rotation, "rotation", what, keyed);
    ReadPart(r, d.translation, "translation", what, keyed);
    ReadPart(r, d.scale, "scale", what, keyed);
  }
  const size_t stream_at = r.tell();
  const uint64_t bytes = (EchoesBitsNeeded(a) + 31) / 32 * 4;
  if (bytes > r.remaining()) {
    r.FailAt(stream_at, "the key bitstream needs " + Hex(bytes) + " bytes (" + Num(keyed > 0 ? keyed - 1 : 0) +
                            " delta keys of " + Num(count) + " channels), the file has " + Hex(r.remaining()));
  }
  ByteView rest = r.Take(r.remaining(), "the key bitstream");
  a.bitstream.assign(rest.begin(), rest.end());
  return a;
}

std::vector<std::string> EchoesWarnings(const EchoesAnimV2& a) {
  std::vector<std::string> out;
  const size_t keyed = a.KeyedFrames();
  if (!a.descriptors.empty() && keyed > 1 && EchoesBitsNeeded(a) > 0 && a.descriptors[0].rotation.keys == 0) {
    out.push_back("descriptor 0 (bone " + Num(a.descriptors[0].bone_id) +
                  ") has no rotation part: the game sizes the key bitstream by its rotation key count, so it would "
                  "read no keys");
  }
  return out;
}

void WriteEchoes(ByteWriter& w, const AnimFile& f) {
  const auto table = [&](const std::vector<uint8_t>& t) { WriteByteTable(w, t); };
  const auto keys = [&](const auto& k) { WriteKeys(w, k); };
  if (f.version == 0) {
    const EchoesAnimV0& a = f.echoes_v0;
    fields::WriteAll(w, a, kEchoesV0Header);
    table(a.bone_table), table(a.rotation_flags), table(a.translation_table), table(a.scale_table);
    keys(a.scales), keys(a.rotations), keys(a.translations);
    w.Append(a.trailing);
    return;
  }
  const EchoesAnimV2& a = f.echoes_v2;
  fields::WriteAll(w, a, kEchoesV2Header);
  WriteKeyBitmap(w, a.bitmap_bits, a.bitmap_words);
  fields::WriteCount(w, a.descriptors.size());
  for (const EchoesDescriptor& d : a.descriptors) {
    fields::WriteAll(w, d, kEchoesDescriptorId);
    WritePart(w, d.rotation), WritePart(w, d.translation), WritePart(w, d.scale);
  }
  w.Append(a.bitstream);
}

namespace {

Vec3 Scaled(const std::array<int16_t, 3>& t, float m) { return {t[0] * m, t[1] * m, t[2] * m}; }
Vec3 FromArray(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }

void DecodeEchoesV0(const EchoesAnimV0& a, const DecodeSettings& settings, Clip& clip) {
  CheckLimit(a.frame_count, &Limits::max_frames, settings.limits, "the frame count", Place::At(0x14));
  CheckedTime(a.duration, "the duration", Place::At(0x04));
  clip.frame_rate = RateOf(a.interval);
  clip.frame_count = a.frame_count;
  clip.duration = a.duration;
  clip.metadata[metadata_keys::kRootBone] = a.root_bone;
  const size_t frames = a.frame_count, per_frame = a.ScalesPerFrame();
  std::vector<uint32_t> bone_of(a.Channels(), 0xFFFFFFFF);
  for (size_t b = 0; b < a.bone_table.size(); ++b) {
    const uint8_t c = a.bone_table[b];
    if (c < 0x80 && bone_of[c] == 0xFFFFFFFF) bone_of[c] = uint32_t(b);
  }
  const auto index = [](const std::vector<uint8_t>& t, size_t c) { return c < t.size() && t[c] < 0x80 ? int(t[c]) : -1; };
  for (size_t c = 0; c < a.Channels(); ++c) {
    if (bone_of[c] == 0xFFFFFFFF) continue;  // a channel no bone uses
    JointTrack t;
    t.joint = NameFor(bone_of[c], settings);
    t.rotation.interpolation = t.translation.interpolation = t.scale.interpolation = Interpolation::Linear;
    const int ti = index(a.translation_table, c), si = index(a.scale_table, c);
    for (size_t f = 0; f < frames; ++f) {
      const Seconds time = FrameTime(f, clip.frame_rate);
      if (a.rotation_flags[c] < 0x80) {
        const auto& q = a.rotations[c * frames + f];
        t.rotation.Add(time, Normalize({q[1], q[2], q[3], q[0]}));
      }
      if (ti >= 0) t.translation.Add(time, FromArray(a.translations[size_t(ti) * frames + f]));
      if (si >= 0) t.scale.Add(time, FromArray(a.scales[f * per_frame + size_t(si)]));
    }
    clip.tracks.push_back(std::move(t));
  }
}

void DecodeEchoesV2(const EchoesAnimV2& a, const DecodeSettings& settings, Clip& clip) {
  std::vector<size_t> key_frames = StartClipV2(a, settings, 0x2E, 0x0A, clip);
  std::vector<DecodedChannel> channels = UnpackEchoesV2(a);
  if (key_frames.empty()) {
    // No keyed frame: the initial values are the only pose there is.
    key_frames = {0};
    for (size_t i = 0; i < channels.size(); ++i) {
      const EchoesDescriptor& d = a.descriptors[i];
      if (d.rotation.present()) channels[i].rotation = {Initials(d.rotation)}, channels[i].w_negative = {0};
      if (d.translation.present()) channels[i].translation = {Initials(d.translation)};
      if (d.scale.present()) channels[i].scale = {Initials(d.scale)};
    }
  }
  for (const DecodedChannel& ch : channels) {
    if (ch.rotation.empty() && ch.translation.empty() && ch.scale.empty()) continue;  // an empty descriptor
    JointTrack t;
    t.joint = NameFor(ch.bone_id, settings);
    if (!ch.rotation.empty()) {
      std::vector<QuatXYZW> rot(key_frames.size());
      for (size_t k = 0; k < rot.size(); ++k)
        rot[k] = Normalize(RotationFromTotals(ch.rotation[k], ch.w_negative[k], a.rotation_divisor));
      KeyTrack(t.rotation, key_frames, rot, clip.frame_rate);
    }
    const auto vectors = [&](const std::vector<std::array<int16_t, 3>>& totals, float m, Track<Vec3>& track) {
      if (totals.empty()) return;
      std::vector<Vec3> v(key_frames.size());
      for (size_t k = 0; k < v.size(); ++k) v[k] = Scaled(totals[k], m);
      KeyTrack(track, key_frames, v, clip.frame_rate);
    };
    vectors(ch.translation, a.translation_multiplier, t.translation);
    vectors(ch.scale, a.scale_multiplier, t.scale);
    clip.tracks.push_back(std::move(t));
  }
}

}  // namespace

void DecodeEchoes(const AnimFile& file, const DecodeSettings& settings, Clip& clip) {
  if (file.version == 0) DecodeEchoesV0(file.echoes_v0, settings, clip);
  else DecodeEchoesV2(file.echoes_v2, settings, clip);
}

}  // namespace detail

}  // namespace animkit::metroid
