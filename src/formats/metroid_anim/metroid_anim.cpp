// Metroid Prime ANIM versions 0 and 2: parse, serialize, decode (the v2 bitstream: metroid_bitstream.cpp).
#include <animkit/core/elementary.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/offline/sampling.hpp>

#include "metroid_bitstream.hpp"
#include "metroid_fields.hpp"
#include "metroid_read.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numbers>

namespace animkit::metroid {

size_t Descriptor::key_bits() const {
  size_t bits = 1u + rotation_bits[0] + rotation_bits[1] + rotation_bits[2];
  if (has_translation()) bits += size_t{translation_bits[0]} + translation_bits[1] + translation_bits[2];
  return bits;
}

size_t AnimV2::KeyedFrames() const {
  return KeyedFrameCount(bitmap_bits, bitmap_words);
}

size_t AnimV0::RotationChannels() const {
  size_t n = 0;
  for (uint8_t c : bone_table)
    if (c != 0xFF) n = std::max<size_t>(n, size_t{c} + 1);
  return n;
}

size_t AnimV0::TranslationChannels() const {
  size_t n = 0;
  for (uint8_t c : translation_table)
    if (c != 0xFF) n = std::max<size_t>(n, size_t{c} + 1);
  return n;
}

namespace {

std::string Str(size_t v) { return std::to_string(v); }

using detail::ReadByteTable;
using detail::ReadKeys;

AnimV0 ParseV0(ByteReader& r) {
  AnimV0 a;
  fields::ReadAll(r, a, kV0Header);
  a.bone_table = ReadByteTable(r, "bone table", "a bone id is a byte");
  a.translation_table = ReadByteTable(r, "translation table", "channels are bytes");

  const size_t rc = a.RotationChannels(), tc = a.TranslationChannels();
  ReadKeys(r, "quaternion", rc, a.frame_count, a.rotations);
  ReadKeys(r, "translation", tc, a.frame_count, a.translations);
  fields::ReadAll(r, a, kV0Tail);
  ByteView rest = r.Take(r.remaining(), "trailing bytes");
  a.trailing.assign(rest.begin(), rest.end());
  return a;
}

AnimV2 ParseV2(ByteReader& r) {
  AnimV2 a;
  fields::ReadAll(r, a, kV2Header);
  if (a.rotation_divisor == 0) r.FailAt(0x20, "the rotation divisor is 0 (rotations would divide by zero)");
  ReadKeyBitmap(r, a.bitmap_bits, a.bitmap_words);
  fields::ReadAll(r, a, kV2ChannelCountAgain);
  const size_t count = fields::ReadCount(r, fields::Size(kPrimeDescriptor), "bone channel descriptors");
  const size_t keyed = a.KeyedFrames();
  a.descriptors.resize(count);
  for (size_t i = 0; i < count; ++i) {
    Descriptor& d = a.descriptors[i];
    const size_t at = r.tell();
    const std::string what = "descriptor " + Str(i);
    fields::ReadAll(r, d, kPrimeDescriptor);
    if (d.has_translation()) fields::ReadAll(r, d, kPrimeTranslationAxes);
    // The game's count is the number of delta keys (set bits - 1); other writers store
    // the set bits. Decoding follows the bitmap either way; the count is kept as read.
    const auto count_fits = [&](uint16_t n) { return n == keyed || (keyed > 0 && n == keyed - 1); };
    const auto count_rule = [&] {
      return "the key bitmap's " + Str(keyed) + " set bits call for " +
             (keyed > 0 ? Str(keyed - 1) + " (set bits - 1, the game's count) or " : std::string()) + Str(keyed);
    };
    if (!count_fits(d.rotation_keys)) {
      r.FailAt(at + 4, what + " (bone " + Str(d.bone_id) + ") has " + Str(d.rotation_keys) + " rotation keys but " +
                           count_rule());
    }
    if (d.has_translation() && !count_fits(d.translation_keys)) {
      r.FailAt(at + 15, what + " (bone " + Str(d.bone_id) + ") has " + Str(d.translation_keys) +
                            " translation keys but " + count_rule());
    }
    for (int c = 0; c < 3; ++c) {
      if (d.rotation_bits[c] > kMaxBits) {
        r.FailAt(at + 8 + 3 * static_cast<size_t>(c), what + " rotation bit width " + Str(d.rotation_bits[c]) + " exceeds 32");
      }
      if (d.has_translation() && d.translation_bits[c] > kMaxBits) {
        r.FailAt(at + 19 + 3 * static_cast<size_t>(c),
                 what + " translation bit width " + Str(d.translation_bits[c]) + " exceeds 32");
      }
    }
  }
  const size_t stream_at = r.tell();
  const uint64_t bits = BitsNeeded(a);
  const uint64_t bytes = (bits + 31) / 32 * 4;
  if (bytes > r.remaining()) {
    r.FailAt(stream_at, "the key bitstream needs " + Hex(bytes) + " bytes (" + Str(keyed > 0 ? keyed - 1 : 0) +
                            " delta keys of " + Str(count) + " channels), the file has " + Hex(r.remaining()));
  }
  ByteView rest = r.Take(r.remaining(), "the key bitstream");
  a.bitstream.assign(rest.begin(), rest.end());
  return a;
}

// data read as one game's layout.
AnimFile ParseAs(ByteView data, Game game) {
  ByteReader r(data, Endian::Big);
  AnimFile f;
  f.game = game;
  fields::ReadAll(r, f, kAnimVersion);
  const bool prime = game == Game::Prime;
  if (f.version == 0) {
    if (prime) f.v0 = ParseV0(r);
    else f.echoes_v0 = detail::ParseEchoesV0(r);
  } else if (f.version == 2) {
    if (prime) f.v2 = ParseV2(r);
    else f.echoes_v2 = detail::ParseEchoesV2(r);
  } else {
    r.FailAt(0, "ANIM version " + Str(f.version) +
                    " is neither 0 nor 2 (Metroid Prime's and Echoes'); later revisions (Metroid Prime 3: "
                    "Corruption) changed the layout and are not supported");
  }
  return f;
}

std::string Described(const Error& e) {
  return e.byte_offset() ? "offset " + Hex(*e.byte_offset()) + ": " + e.message() : e.message();
}

}  // namespace

namespace {

AnimFile ParseEitherGame(ByteView data, std::vector<std::string>* warnings);

}  // namespace

AnimFile ParseAnim(ByteView data, std::optional<Game> game, std::vector<std::string>* warnings) {
  AnimFile f = game ? ParseAs(data, *game) : ParseEitherGame(data, warnings);
  if (warnings && f.game == Game::Echoes && f.version == 2) {
    for (std::string& w : detail::EchoesWarnings(f.echoes_v2)) warnings->push_back(std::move(w));
  }
  return f;
}

namespace {

AnimFile ParseEitherGame(ByteView data, std::vector<std::string>* warnings) {
  ByteReader r(data, Endian::Big);
  const uint32_t version = r.U32("the version");
  if (version != 0) {
    // A bit-packed file says which game's it is: Echoes has u8 1, u8 1 where Metroid Prime has the EVNT id.
    const bool echoes = version == 2 && data.size() >= 10 && data[8] == 0x01 && data[9] == 0x01;
    if (!echoes) return ParseAs(data, Game::Prime);
    try {
      return ParseAs(data, Game::Echoes);
    } catch (const Error& e) {
      // A Metroid Prime EVNT id may begin with 01 01: that layout, when it fits, with a warning.
      try {
        AnimFile prime = ParseAs(data, Game::Prime);
        if (warnings) {
          warnings->push_back("offset 0x8: 01 01 marks an Echoes bit-packed ANIM, but only Metroid Prime's layout "
                              "fits (Echoes': " + Described(e) + "); read as Metroid Prime's EVNT id");
        }
        return prime;
      } catch (const Error&) {
      }
      if (!e.byte_offset()) throw;
      throw Error::AtOffset(*e.byte_offset(), e.message() + " (read as a Metroid Prime 2: Echoes bit-packed ANIM, "
                                                           "for the u8 1, u8 1 at 0x08)");
    }
  }
  // An uncompressed file has no marker: its layout decides.
  std::optional<AnimFile> prime, echoes;
  std::optional<Error> prime_error, echoes_error;
  try {
    prime = ParseAs(data, Game::Prime);
  } catch (const Error& e) {
    prime_error = e;
  }
  try {
    echoes = ParseAs(data, Game::Echoes);
  } catch (const Error& e) {
    echoes_error = e;
  }
  if (prime && echoes) {
    const bool take_echoes = echoes->echoes_v0.trailing.size() < prime->v0.trailing.size();
    if (warnings) {
      warnings->push_back(std::string("the uncompressed ANIM fits both Metroid Prime's and Echoes' layouts; read as ") +
                          (take_echoes ? "Echoes' (fewer trailing bytes)" : "Metroid Prime's") +
                          "; --metroid-game 1 or 2 chooses");
    }
    return take_echoes ? std::move(*echoes) : std::move(*prime);
  }
  if (prime) return std::move(*prime);
  if (echoes) return std::move(*echoes);
  const uint64_t at = std::max(prime_error->byte_offset().value_or(0), echoes_error->byte_offset().value_or(0));
  throw Error::AtOffset(at, "the uncompressed ANIM fits neither Metroid Prime's layout (" + Described(*prime_error) +
                                ") nor Echoes' (" + Described(*echoes_error) + ")");
}

}  // namespace

Bytes SerializeAnim(const AnimFile& f) {
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, f, kAnimVersion);
  if (f.version == 0 && f.game == Game::Echoes) {
    detail::WriteEchoes(w, f);
    return w.Take();
  }
  if (f.version == 0) {
    const AnimV0& a = f.v0;
    fields::WriteAll(w, a, kV0Header);
    detail::WriteByteTable(w, a.bone_table);
    detail::WriteByteTable(w, a.translation_table);
    detail::WriteKeys(w, a.rotations);
    detail::WriteKeys(w, a.translations);
    fields::WriteAll(w, a, kV0Tail);
    w.Append(a.trailing);
    return w.Take();
  }
  if (f.version != 2) throw Error::General("cannot write ANIM version " + Str(f.version));
  if (f.game == Game::Echoes) {
    detail::WriteEchoes(w, f);
    return w.Take();
  }
  const AnimV2& a = f.v2;
  fields::WriteAll(w, a, kV2Header);
  WriteKeyBitmap(w, a.bitmap_bits, a.bitmap_words);
  fields::WriteAll(w, a, kV2ChannelCountAgain);
  fields::WriteCount(w, a.descriptors.size());
  for (const Descriptor& d : a.descriptors) {
    fields::WriteAll(w, d, kPrimeDescriptor);
    if (d.has_translation()) fields::WriteAll(w, d, kPrimeTranslationAxes);
  }
  w.Append(a.bitstream);
  return w.Take();
}

QuatXYZW RotationFromTotals(const std::array<int16_t, 3>& t, bool w_negative, uint32_t divisor) {
  const double q = std::numbers::pi / 2.0 / double(divisor);
  const double x = Sin(t[0] * q), y = Sin(t[1] * q), z = Sin(t[2] * q);
  double w = std::sqrt(std::max(1.0 - (x * x + y * y + z * z), 0.0));
  if (w_negative) w = -w;
  return {float(x), float(y), float(z), float(w)};
}

QuatXYZW SlerpLongWay(QuatXYZW a, QuatXYZW b, float t) {
  const double d = std::clamp(double(Dot(a, b)), -1.0, 1.0);
  double wa = 1 - t, wb = t;
  const double theta = Acos(d);
  const double s = Sin(theta);
  if (std::abs(s) > 1e-6) {
    wa = Sin((1 - t) * theta) / s;
    wb = Sin(t * theta) / s;
  }
  QuatXYZW r{float(wa * a.x + wb * b.x), float(wa * a.y + wb * b.y), float(wa * a.z + wb * b.z),
             float(wa * a.w + wb * b.w)};
  const double n = std::sqrt(double(Dot(r, r)));
  if (!(n > 1e-12)) return a;
  return {float(r.x / n), float(r.y / n), float(r.z / n), float(r.w / n)};
}

namespace detail {

void WriteByteTable(ByteWriter& w, const std::vector<uint8_t>& table) {
  fields::WriteCount(w, table.size());
  w.Append(table);
}

std::vector<uint8_t> ReadByteTable(ByteReader& r, const std::string& what, const std::string& why) {
  const size_t at = r.tell();
  const uint32_t size = r.U32("the " + what + " size");
  if (size > kMaxBoneTable) r.FailAt(at, what + " of " + Str(size) + " entries; " + why + ", so at most 256");
  r.Count(size, 1, what);
  const ByteView bytes = r.Take(size, what);
  return {bytes.begin(), bytes.end()};
}

std::string NameFor(uint32_t bone, const DecodeSettings& s) {
  for (const auto& [id, name] : s.names)
    if (id == bone) return name;
  return NumberedJointName(bone);
}

double RateOf(float interval) {
  if (!(std::isfinite(interval) && interval > 1e-4f && interval < 100.0f)) return 30.0;
  // A float interval of 1/30 gives 29.9999984 frames per second; whole rates are meant.
  const double rate = 1.0 / double(interval);
  return std::abs(rate - std::round(rate)) < 1e-3 ? std::round(rate) : rate;
}

// Keys on the keyed frames. Frames in between are left to the sampler's linear
// interpolation, which equals the game's lerp, and its slerp where consecutive keys have
// a non-negative dot. Where the dot is negative the game's slerp takes the long arc: a
// key at the segment's midpoint splits that arc into two halves of less than 90 degrees
// each, on which the shortest-path slerp follows the same great circle at the same speed.
// Memory stays proportional to the keys the bitstream holds, not to the frame count.
void KeyTrack(Track<Vec3>& track, const std::vector<size_t>& key_frames, const std::vector<Vec3>& keys, double rate) {
  track.interpolation = Interpolation::Linear;
  for (size_t k = 0; k < keys.size(); ++k) {
    track.Add(FrameTime(key_frames[k], rate), keys[k]);
  }
}

void KeyTrack(Track<QuatXYZW>& track, const std::vector<size_t>& key_frames, const std::vector<QuatXYZW>& keys,
              double rate) {
  track.interpolation = Interpolation::Linear;
  for (size_t k = 0; k < keys.size(); ++k) {
    if (k > 0 && Dot(keys[k - 1], keys[k]) < 0 && key_frames[k] > key_frames[k - 1] + 1) {
      const Seconds a = FrameTime(key_frames[k - 1], rate), b = FrameTime(key_frames[k], rate);
      track.Add(a + (b - a) * 0.5f, SlerpLongWay(keys[k - 1], keys[k], 0.5f));
    }
    track.Add(FrameTime(key_frames[k], rate), keys[k]);
  }
}

}  // namespace detail

using detail::KeyTrack;
using detail::NameFor;
using detail::RateOf;

Clip DecodeAnim(const AnimFile& file, const DecodeSettings& settings) {
  Clip clip;
  clip.name = "anim";
  clip.metadata[kSourceFormatKey] = "metroid-anim";
  clip.metadata[metadata_keys::kAnimVersion] = file.version;
  clip.metadata[metadata_keys::kGame] = static_cast<uint32_t>(file.game);
  // The engine moves the character by bone 3 (MP1) or segment 0 (MP2), whatever the
  // header's root bone says (facts 7.5); Z is up.
  clip.root_motion = RootMotion{NameFor(file.game == Game::Echoes ? 0 : 3, settings), {0, 0, 1}};
  if (file.game == Game::Echoes) {
    detail::DecodeEchoes(file, settings, clip);
    return clip;
  }
  if (file.version == 0) {
    const AnimV0& a = file.v0;
    // The frame count alone sizes the clip when no bone has keys: checked first.
    CheckLimit(a.frame_count, &Limits::max_frames, settings.limits, "the frame count", Place::At(0x14));
    CheckedTime(a.duration, "the duration", Place::At(0x04));
    clip.frame_rate = RateOf(a.interval);
    clip.frame_count = a.frame_count;
    clip.duration = a.duration;
    clip.metadata[metadata_keys::kEvntId] = a.evnt_id;
    clip.metadata[metadata_keys::kRootBone] = a.root_bone;
    const size_t rc = a.RotationChannels();
    std::vector<uint32_t> bone_of(rc, 0xFFFFFFFF);
    for (size_t b = 0; b < a.bone_table.size(); ++b)
      if (a.bone_table[b] != 0xFF && bone_of[a.bone_table[b]] == 0xFFFFFFFF) bone_of[a.bone_table[b]] = uint32_t(b);
    for (size_t c = 0; c < rc; ++c) {
      if (bone_of[c] == 0xFFFFFFFF) continue;  // a channel no bone uses
      JointTrack t;
      t.joint = NameFor(bone_of[c], settings);
      t.rotation.interpolation = t.translation.interpolation = Interpolation::Linear;
      for (size_t f = 0; f < a.frame_count; ++f) {
        const auto& q = a.rotations[c * a.frame_count + f];
        t.rotation.Add(FrameTime(f, clip.frame_rate), Normalize({q[1], q[2], q[3], q[0]}));
      }
      const uint8_t tc = c < a.translation_table.size() ? a.translation_table[c] : 0xFF;
      if (tc != 0xFF) {
        for (size_t f = 0; f < a.frame_count; ++f) {
          const auto& v = a.translations[size_t{tc} * a.frame_count + f];
          t.translation.Add(FrameTime(f, clip.frame_rate), {v[0], v[1], v[2]});
        }
      }
      clip.tracks.push_back(std::move(t));
    }
    return clip;
  }
  const AnimV2& a = file.v2;
  const std::vector<size_t> key_frames = detail::StartClipV2(a, settings, 0x30, 0x10, clip);
  clip.metadata[metadata_keys::kEvntId] = a.evnt_id;
  const auto channels = UnpackV2(a);
  for (size_t i = 0; i < channels.size(); ++i) {
    const DecodedChannel& ch = channels[i];
    JointTrack t;
    t.joint = NameFor(ch.bone_id, settings);
    if (!key_frames.empty()) {
      std::vector<QuatXYZW> rot(key_frames.size());
      for (size_t k = 0; k < rot.size(); ++k) rot[k] = Normalize(RotationFromTotals(ch.rotation[k], ch.w_negative[k], a.rotation_divisor));
      KeyTrack(t.rotation, key_frames, rot, clip.frame_rate);
      if (!ch.translation.empty()) {
        std::vector<Vec3> pos(key_frames.size());
        const float m = a.translation_multiplier;
        for (size_t k = 0; k < pos.size(); ++k)
          pos[k] = {ch.translation[k][0] * m, ch.translation[k][1] * m, ch.translation[k][2] * m};
        KeyTrack(t.translation, key_frames, pos, clip.frame_rate);
      }
    } else {
      // No keyed frame: the initial values are the only pose there is.
      const Descriptor& d = a.descriptors[i];
      t.rotation.times = {0};
      t.rotation.values = {Normalize(RotationFromTotals(d.rotation_initial, false, a.rotation_divisor))};
      if (d.has_translation()) {
        const float m = a.translation_multiplier;
        t.translation.times = {0};
        t.translation.values = {{d.translation_initial[0] * m, d.translation_initial[1] * m, d.translation_initial[2] * m}};
      }
    }
    clip.tracks.push_back(std::move(t));
  }
  return clip;
}

}  // namespace animkit::metroid
