// The ANIM version 2 key bitstream: its size and its unpacking into running totals.
#include "metroid_bitstream.hpp"

#include "formats/common/fields.hpp"

#include <bit>

namespace animkit::metroid {

uint64_t BitsNeeded(const AnimV2& a) {
  const size_t keys = a.KeyedFrames();
  const uint64_t steps = keys > 0 ? keys - 1 : 0;
  uint64_t per_key = 0;
  for (const Descriptor& d : a.descriptors) per_key += d.key_bits();
  if (per_key != 0 && steps > (uint64_t{1} << 60) / per_key) return uint64_t{1} << 60;
  return steps * per_key;
}

namespace {

// The game keeps running totals in 16 bits: the sum of a total and a delta of up to 32
// bits is taken in a wide type and wrapped to its low 16 bits, as the store does.
int16_t Wrap16(int64_t v) { return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint64_t>(v) & 0xFFFF)); }

}  // namespace

size_t KeyComponents(const AnimV2& a) {
  const size_t keys = a.KeyedFrames();
  size_t per = 0;
  for (const Descriptor& d : a.descriptors) per += d.has_translation() ? 6 : 3;
  return keys > 0 ? (keys - 1) * per : 0;
}

std::vector<DecodedChannel> UnpackV2(const AnimV2& a) {
  const size_t keys = a.KeyedFrames();
  const uint64_t bits = BitsNeeded(a);
  if ((bits + 31) / 32 * 4 > a.bitstream.size()) {
    throw Error::General("the key bitstream is shorter than the descriptors need");
  }
  std::vector<DecodedChannel> out(a.descriptors.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const Descriptor& d = a.descriptors[i];
    out[i].bone_id = d.bone_id;
    out[i].rotation.resize(keys);
    out[i].w_negative.assign(keys, 0);
    if (d.has_translation()) out[i].translation.resize(keys);
    if (keys > 0) {
      out[i].rotation[0] = d.rotation_initial;
      if (d.has_translation()) out[i].translation[0] = d.translation_initial;
    }
  }
  BitReader br(a.bitstream);
  for (size_t k = 1; k < keys; ++k) {
    for (size_t i = 0; i < out.size(); ++i) {
      const Descriptor& d = a.descriptors[i];
      DecodedChannel& ch = out[i];
      ch.w_negative[k] = br.Bit();
      const auto& pr = ch.rotation[k - 1];
      auto& r = ch.rotation[k];
      for (int c = 0; c < 3; ++c) r[c] = Wrap16(int64_t{pr[c]} + br.Signed(d.rotation_bits[c]));
      if (d.has_translation()) {
        const auto& pt = ch.translation[k - 1];
        auto& t = ch.translation[k];
        for (int c = 0; c < 3; ++c) t[c] = Wrap16(int64_t{pt[c]} + br.Signed(d.translation_bits[c]));
      }
    }
  }
  return out;
}

void ReadKeyBitmap(ByteReader& r, uint32_t& bits, std::vector<uint32_t>& words) {
  bits = r.U32("the key bitmap bit count");
  const size_t count = (uint64_t{bits} + 31) / 32;
  words = fields::ReadValues<uint32_t>(r, count, "key bitmap");
}

void WriteKeyBitmap(ByteWriter& w, uint32_t bits, const std::vector<uint32_t>& words) {
  w.U32(bits);
  fields::WriteValues(w, words);
}

size_t KeyedFrameCount(uint32_t bits, const std::vector<uint32_t>& words) {
  size_t n = 0;
  const size_t full = bits / 32;
  for (size_t i = 0; i < full && i < words.size(); ++i) n += static_cast<size_t>(std::popcount(words[i]));
  const size_t rest = bits % 32;
  if (rest && full < words.size()) n += static_cast<size_t>(std::popcount(words[full] & ((1u << rest) - 1)));
  return n;
}

}  // namespace animkit::metroid
