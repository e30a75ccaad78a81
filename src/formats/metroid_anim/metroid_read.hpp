// What the Metroid Prime and Echoes ANIM readers and decoders share.
#pragma once

#include <animkit/formats/metroid_anim.hpp>

#include "formats/common/fields.hpp"

#include <string>
#include <vector>

namespace animkit::metroid::detail {

// A u32 size (at most 256: the entries are bytes, `why` says why) and that many bytes.
std::vector<uint8_t> ReadByteTable(ByteReader& r, const std::string& what, const std::string& why);
void WriteByteTable(ByteWriter& w, const std::vector<uint8_t>& table);

// A u32 count that must be `channels` x frames, then that many keys of N floats.
template <size_t N>
void ReadKeys(ByteReader& r, const std::string& noun, size_t channels, uint32_t frames,
              std::vector<std::array<float, N>>& keys) {
  const size_t at = r.tell();
  const uint32_t count = r.U32("the " + noun + " count");
  const uint64_t expected = uint64_t{channels} * frames;
  if (count != expected) {
    r.FailAt(at, noun + " count " + std::to_string(count) + " should be " + std::to_string(channels) +
                     " channels x " + std::to_string(frames) + " frames = " + std::to_string(expected));
  }
  keys = fields::ReadValues<std::array<float, N>>(r, count, noun + " keys");
}

// A u32 count, then the keys.
template <size_t N>
void WriteKeys(ByteWriter& w, const std::vector<std::array<float, N>>& keys) {
  fields::WriteCountedValues(w, keys);
}

// Frames per second for an interval (whole when within 0.001 of one; 30 when unusable).
double RateOf(float interval);
// The joint name of a bone id: the settings' name, else "#id".
std::string NameFor(uint32_t bone, const DecodeSettings& settings);
// Keys on the keyed frames, linear in between (rotations: the game's slerp, see KeyTrack's comment).
void KeyTrack(Track<Vec3>& track, const std::vector<size_t>& key_frames, const std::vector<Vec3>& keys, double rate);
void KeyTrack(Track<QuatXYZW>& track, const std::vector<size_t>& key_frames, const std::vector<QuatXYZW>& keys,
              double rate);

// What both games' version 2 headers give the clip (frames by the key bitmap, rate, duration,
// loop, root bone, scratch size, translation multiplier), the frame count and keys x channels
// checked against the limits at bits_at and the duration at duration_at; returns the keyed frames.
template <class AnimV2Header>
std::vector<size_t> StartClipV2(const AnimV2Header& a, const DecodeSettings& settings, size_t bits_at,
                                size_t duration_at, Clip& clip) {
  CheckLimit(a.bitmap_bits, &Limits::max_frames, settings.limits, "the key bitmap bit count (frames)", Place::At(bits_at));
  CheckedTime(a.duration, "the duration", Place::At(duration_at));
  // Keys x channels: what the unpacking allocates, whatever the bitstream holds.
  CheckLimit(uint64_t{a.KeyedFrames()} * a.descriptors.size(), &Limits::max_values, settings.limits,
             "keyed frames x bone channels", Place::At(bits_at));
  clip.frame_rate = RateOf(a.interval);
  clip.frame_count = a.bitmap_bits;
  clip.duration = a.duration;
  clip.loop = a.looping != 0;
  clip.metadata[metadata_keys::kRootBone] = a.root_bone;
  clip.metadata[metadata_keys::kScratchSize] = a.scratch_size;
  clip.metadata[metadata_keys::kTranslationMultiplier] = a.translation_multiplier;
  std::vector<size_t> key_frames;
  for (size_t f = 0; f < a.bitmap_bits; ++f)
    if (a.KeyBit(f)) key_frames.push_back(f);
  return key_frames;
}

// The Echoes parts of ParseAnim, SerializeAnim and DecodeAnim (metroid_anim_echoes.cpp).
EchoesAnimV0 ParseEchoesV0(ByteReader& r);
EchoesAnimV2 ParseEchoesV2(ByteReader& r);
void WriteEchoes(ByteWriter& w, const AnimFile& file);
// What the game would read differently from the file's own layout (Document::Warnings).
std::vector<std::string> EchoesWarnings(const EchoesAnimV2& anim);
void DecodeEchoes(const AnimFile& file, const DecodeSettings& settings, Clip& clip);
// EchoesFromPrime with scale parts: scale[i] the totals of the Metroid Prime file's
// descriptor i on each keyed frame (empty: no scale), scale_multiplier their step.
EchoesAnimV2 EchoesFromPrime(const AnimV2& anim, size_t bone_count,
                             const std::vector<std::vector<std::array<int16_t, 3>>>& scale, float scale_multiplier);

}  // namespace animkit::metroid::detail
