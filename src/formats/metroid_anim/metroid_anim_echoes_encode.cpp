// Echoes' layouts of Metroid Prime ANIM data: what the encoder writes for Echoes.
#include <animkit/formats/metroid_anim.hpp>

#include "metroid_bitstream.hpp"
#include "metroid_read.hpp"

#include <algorithm>

namespace animkit::metroid {

EchoesAnimV0 EchoesFromPrime(const AnimV0& p) {
  // Echoes' tables hold s8: a channel or index of 128 or more would read as "none".
  if (p.RotationChannels() > 128) {
    throw Error::General("an Echoes version 0 ANIM holds at most 128 channels (its tables are s8); this clip has " +
                         std::to_string(p.RotationChannels()));
  }
  EchoesAnimV0 e;
  e.duration = p.duration;
  e.duration_state = p.unknown_08;
  e.interval = p.interval;
  e.interval_state = p.unknown_10;
  e.frame_count = p.frame_count;
  e.root_bone = p.root_bone;
  e.bone_table = p.bone_table;
  // Every channel has a rotation (Metroid Prime's always do): its flag is its own number.
  e.rotation_flags.resize(p.RotationChannels());
  for (size_t c = 0; c < e.rotation_flags.size(); ++c) e.rotation_flags[c] = static_cast<uint8_t>(c);
  e.translation_table = p.translation_table;
  e.translation_table.resize(e.rotation_flags.size(), 0xFF);
  e.scale_table.assign(e.rotation_flags.size(), 0xFF);
  e.rotations = p.rotations;
  e.translations = p.translations;
  return e;
}

namespace {

KeyedAxes Part(uint16_t keys, const std::array<int16_t, 3>& initial, const std::array<uint8_t, 3>& bits) {
  KeyedAxes k;
  k.keys = keys;
  for (size_t c = 0; c < 3; ++c) k.axes[c] = {initial[c], bits[c]};
  return k;
}

// The smallest two's-complement width (1..32) holding every delta of one axis.
uint8_t ScaleWidth(const std::vector<std::array<int16_t, 3>>& totals, size_t axis) {
  int32_t lo = 0, hi = 0;
  for (size_t k = 1; k < totals.size(); ++k) {
    const int32_t d = totals[k][axis] - totals[k - 1][axis];
    lo = std::min(lo, d), hi = std::max(hi, d);
  }
  uint8_t w = 1;
  while (lo < -(int32_t{1} << (w - 1)) || hi > (int32_t{1} << (w - 1)) - 1) ++w;
  return w;
}

}  // namespace

EchoesAnimV2 EchoesFromPrime(const AnimV2& p, size_t bone_count) { return detail::EchoesFromPrime(p, bone_count, {}, 0); }

namespace detail {

EchoesAnimV2 EchoesFromPrime(const AnimV2& p, size_t bone_count,
                             const std::vector<std::vector<std::array<int16_t, 3>>>& scale, float scale_multiplier) {
  EchoesAnimV2 e;
  e.scratch_size = p.scratch_size;
  e.duration = p.duration;
  e.interval = p.interval;
  e.root_bone = p.root_bone;
  e.looping = p.looping;
  e.rotation_divisor = p.rotation_divisor;
  e.translation_multiplier = p.translation_multiplier;
  e.scale_multiplier = scale_multiplier;
  e.bitmap_bits = p.bitmap_bits;
  e.bitmap_words = p.bitmap_words;
  size_t ids = bone_count;
  for (const Descriptor& d : p.descriptors) {
    if (d.bone_id > 0xFF) {
      throw Error::General("bone id " + std::to_string(d.bone_id) + " does not fit an Echoes ANIM (ids 0..255)");
    }
    ids = std::max<size_t>(ids, size_t{d.bone_id} + 1);
  }
  ids = std::min<size_t>(ids, 256);
  // Descriptors by bone id, an empty one for an id without a channel.
  std::vector<int> channel_of(ids, -1);
  for (size_t i = 0; i < p.descriptors.size(); ++i) {
    if (channel_of[p.descriptors[i].bone_id] >= 0) {
      throw Error::General("two channels animate bone " + std::to_string(p.descriptors[i].bone_id));
    }
    channel_of[p.descriptors[i].bone_id] = static_cast<int>(i);
  }
  const std::vector<DecodedChannel> totals = UnpackV2(p);
  const size_t keys = p.KeyedFrames();
  for (size_t id = 0; id < ids; ++id) {
    EchoesDescriptor d;
    d.bone_id = static_cast<uint8_t>(id);
    if (channel_of[id] >= 0) {
      const Descriptor& s = p.descriptors[size_t(channel_of[id])];
      d.rotation = Part(s.rotation_keys, s.rotation_initial, s.rotation_bits);
      if (s.has_translation()) d.translation = Part(s.translation_keys, s.translation_initial, s.translation_bits);
      // A rotation count of 0 (a single keyed frame) would mean "no rotation" here.
      if (d.rotation.keys == 0) d.rotation.keys = static_cast<uint16_t>(std::max<size_t>(keys, 1));
      const size_t i = size_t(channel_of[id]);
      if (i < scale.size() && !scale[i].empty()) {
        const auto& t = scale[i];
        if (t.size() != keys) throw Error::General("bone " + std::to_string(id) + ": scale totals do not match the keys");
        d.scale = Part(d.rotation.keys, t[0], {ScaleWidth(t, 0), ScaleWidth(t, 1), ScaleWidth(t, 2)});
      }
    } else if (id == 0 && keys > 0) {
      // The game sizes the bitstream by the first descriptor's rotation count: bone 0
      // always carries one (identity, no change).
      d.rotation.keys = static_cast<uint16_t>(std::max<size_t>(keys - 1, 1));
    }
    e.descriptors.push_back(d);
  }
  e.channel_count = static_cast<uint32_t>(e.descriptors.size());
  BitWriter bw;
  for (size_t k = 1; k < keys; ++k) {
    for (const EchoesDescriptor& d : e.descriptors) {
      if (channel_of[d.bone_id] < 0) {
        if (d.rotation.present()) bw.Put(0, 1);  // W sign; widths 0
        continue;
      }
      const DecodedChannel& ch = totals[size_t(channel_of[d.bone_id])];
      bw.Put(ch.w_negative[k], 1);
      for (size_t c = 0; c < 3; ++c)
        bw.Put(static_cast<uint32_t>(ch.rotation[k][c] - ch.rotation[k - 1][c]), d.rotation.axes[c].bits);
      if (d.translation.present()) {
        for (size_t c = 0; c < 3; ++c)
          bw.Put(static_cast<uint32_t>(ch.translation[k][c] - ch.translation[k - 1][c]), d.translation.axes[c].bits);
      }
      if (d.scale.present()) {
        const auto& t = scale[size_t(channel_of[d.bone_id])];
        for (size_t c = 0; c < 3; ++c) bw.Put(static_cast<uint32_t>(t[k][c] - t[k - 1][c]), d.scale.axes[c].bits);
      }
    }
  }
  e.bitstream = bw.Finish();
  return e;
}

}  // namespace detail

}  // namespace animkit::metroid
