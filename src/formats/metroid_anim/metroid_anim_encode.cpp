// Metroid Prime ANIM encoders: version 0 (every frame, floats) and version 2
// (quantized deltas, bit-packed, with keyed frames chosen to meet an error bound).
#include <animkit/core/elementary.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/offline/sampling.hpp>

#include "formats/common/metroid_bone_ids.hpp"
#include "metroid_bitstream.hpp"
#include "metroid_read.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <set>

namespace animkit::metroid {

std::vector<uint32_t> AssignBoneIds(const std::vector<std::string>& joints,
                                    const std::vector<std::pair<std::string, uint32_t>>& named, Game game) {
  return metroid_ids::AssignBoneIds(joints, named, game == Game::Echoes);
}

namespace {

struct Source {
  size_t frames = 0;
  double rate = 30;
  std::vector<std::string> names;
  std::vector<std::vector<QuatXYZW>> rot;  // [channel][frame], w >= 0
  std::vector<std::vector<Vec3>> pos;      // [channel][frame]; empty without translation
  std::vector<std::vector<Vec3>> scale;    // [channel][frame]; empty without scale (Echoes only)
};

Source SampleSource(const Clip& clip, bool with_scale) {
  Source s;
  s.rate = clip.frame_rate > 0 ? clip.frame_rate : 30;
  s.frames = ClipFrameCount(clip, s.rate);
  if (s.frames > 0xFFFF) throw Error::General("clip '" + clip.name + "' has more than 65535 frames");
  for (const JointTrack& t : clip.tracks) {
    s.names.push_back(t.joint);
    FrameSamples samples = SampleFrames(clip, t, s.frames, s.rate);
    if (samples.rotation.empty()) samples.rotation.assign(s.frames, QuatXYZW{});
    for (QuatXYZW& q : samples.rotation)
      if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};
    s.rot.push_back(std::move(samples.rotation));
    s.pos.push_back(std::move(samples.translation));
    if (!with_scale || t.scale.empty() || samples.scale.size() != s.frames) samples.scale.clear();
    s.scale.push_back(std::move(samples.scale));
  }
  return s;
}

double Distance(Vec3 a, Vec3 b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

double TranslationRange(const Source& s) {
  double range = 0;
  for (int axis = 0; axis < 3; ++axis) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& p : s.pos)
      for (const Vec3& v : p) {
        const double c = axis == 0 ? v.x : axis == 1 ? v.y : v.z;
        lo = std::min(lo, c), hi = std::max(hi, c);
      }
    if (hi >= lo) range = std::max(range, hi - lo);
  }
  return range;
}

uint8_t WidthFor(int32_t lo, int32_t hi) {
  for (uint8_t w = 1; w <= 24; ++w) {
    const int32_t min = -(int32_t{1} << (w - 1)), max = (int32_t{1} << (w - 1)) - 1;
    if (lo >= min && hi <= max) return w;
  }
  return 24;
}

struct Quantized {
  uint32_t divisor = kDefaultDivisor;
  float multiplier = 1;
  std::vector<std::vector<std::array<int16_t, 3>>> rot, pos;  // [channel][frame], canonical (w >= 0)
  std::vector<std::vector<QuatXYZW>> rot_value;                // dequantized, canonical
  std::vector<std::vector<Vec3>> pos_value;
  float scale_multiplier = 0;                                 // 0: no channel has scale
  std::vector<std::vector<std::array<int16_t, 3>>> scale;     // [channel][frame]; empty without scale
  std::vector<std::vector<Vec3>> scale_value;
};

// Scales as totals x a multiplier, as translations (Echoes).
void QuantizeScale(const Source& s, Quantized& q) {
  double maxabs = 0;
  for (const auto& p : s.scale)
    for (const Vec3& v : p) maxabs = std::max({maxabs, double(std::abs(v.x)), double(std::abs(v.y)), double(std::abs(v.z))});
  bool any = false;
  for (const auto& p : s.scale) any = any || !p.empty();
  q.scale_multiplier = !any ? 0.0f : maxabs > 0 ? static_cast<float>(maxabs / 32767.0 * (1 + 1e-6)) : 1.0f;
  for (const auto& p : s.scale) {
    std::vector<std::array<int16_t, 3>> t(p.size());
    std::vector<Vec3> v(p.size());
    for (size_t f = 0; f < p.size(); ++f) {
      auto comp = [&](float x) {
        return static_cast<int16_t>(std::clamp(std::lround(double(x) / q.scale_multiplier), -32767L, 32767L));
      };
      t[f] = {comp(p[f].x), comp(p[f].y), comp(p[f].z)};
      v[f] = {t[f][0] * q.scale_multiplier, t[f][1] * q.scale_multiplier, t[f][2] * q.scale_multiplier};
    }
    q.scale.push_back(std::move(t));
    q.scale_value.push_back(std::move(v));
  }
}

// source_multiplier (the source file's, > 0) is kept when every translation fits it, so
// that unedited translations quantize to the steps they came from.
Quantized Quantize(const Source& s, uint32_t divisor, float source_multiplier) {
  Quantized q;
  q.divisor = divisor;
  double maxabs = 0;
  for (const auto& p : s.pos)
    for (const Vec3& v : p) maxabs = std::max({maxabs, double(std::abs(v.x)), double(std::abs(v.y)), double(std::abs(v.z))});
  q.multiplier = maxabs > 0 ? static_cast<float>(maxabs / 32767.0 * (1 + 1e-6)) : 1.0f;
  if (source_multiplier > 0 && std::isfinite(source_multiplier) && maxabs / source_multiplier <= 32767.49)
    q.multiplier = source_multiplier;
  const double scale = 2.0 * divisor / std::numbers::pi;
  for (size_t c = 0; c < s.rot.size(); ++c) {
    std::vector<std::array<int16_t, 3>> r(s.frames);
    std::vector<QuatXYZW> rv(s.frames);
    for (size_t f = 0; f < s.frames; ++f) {
      const QuatXYZW& v = s.rot[c][f];
      auto comp = [&](float x) {
        const double a = Asin(std::clamp(double(x), -1.0, 1.0)) * scale;
        return static_cast<int16_t>(std::clamp(std::lround(a), -long(divisor), long(divisor)));
      };
      r[f] = {comp(v.x), comp(v.y), comp(v.z)};
      rv[f] = RotationFromTotals(r[f], false, divisor);
    }
    q.rot.push_back(std::move(r));
    q.rot_value.push_back(std::move(rv));
    std::vector<std::array<int16_t, 3>> p;
    std::vector<Vec3> pv;
    if (!s.pos[c].empty()) {
      p.resize(s.frames), pv.resize(s.frames);
      for (size_t f = 0; f < s.frames; ++f) {
        const Vec3& v = s.pos[c][f];
        auto comp = [&](float x) {
          return static_cast<int16_t>(std::clamp(std::lround(double(x) / q.multiplier), -32767L, 32767L));
        };
        p[f] = {comp(v.x), comp(v.y), comp(v.z)};
        pv[f] = {p[f][0] * q.multiplier, p[f][1] * q.multiplier, p[f][2] * q.multiplier};
      }
    }
    q.pos.push_back(std::move(p));
    q.pos_value.push_back(std::move(pv));
  }
  QuantizeScale(s, q);
  return q;
}

QuatXYZW Negated(QuatXYZW q) { return {-q.x, -q.y, -q.z, -q.w}; }

// True when interpolating keys a and b reproduces every frame in between within the bounds.
bool SegmentHolds(const Source& s, const Quantized& q, size_t a, size_t b, double tol_rot, double tol_pos,
                  double tol_scale) {
  for (size_t c = 0; c < s.rot.size(); ++c) {
    const QuatXYZW qa = q.rot_value[c][a];
    QuatXYZW qb = q.rot_value[c][b];
    if (Dot(qa, qb) < 0) qb = Negated(qb);
    for (size_t f = a + 1; f < b; ++f) {
      const float u = float(f - a) / float(b - a);
      if (AngleBetween(SlerpLongWay(qa, qb, u), s.rot[c][f]) > tol_rot) return false;
      if (!s.pos[c].empty() && Distance(Lerp(q.pos_value[c][a], q.pos_value[c][b], u), s.pos[c][f]) > tol_pos)
        return false;
      if (!s.scale[c].empty() && Distance(Lerp(q.scale_value[c][a], q.scale_value[c][b], u), s.scale[c][f]) > tol_scale)
        return false;
    }
  }
  return true;
}

AnimV2 BuildV2(const Source& s, const Quantized& q, const std::vector<bool>& keyed, const std::vector<uint32_t>& ids) {
  AnimV2 a;
  a.rotation_divisor = q.divisor;
  a.translation_multiplier = q.multiplier;
  a.bitmap_bits = static_cast<uint32_t>(s.frames);
  a.bitmap_words.assign((s.frames + 31) / 32, 0);
  std::vector<size_t> frames;
  for (size_t f = 0; f < s.frames; ++f)
    if (keyed[f]) a.bitmap_words[f / 32] |= 1u << (f % 32), frames.push_back(f);
  const size_t channels = s.rot.size();
  a.channel_count = a.channel_count_again = static_cast<uint32_t>(channels);
  // Signed keys: W sign chosen so that consecutive keys have a non-negative dot.
  std::vector<std::vector<std::array<int16_t, 3>>> rot(channels);
  std::vector<std::vector<uint8_t>> neg(channels);
  for (size_t c = 0; c < channels; ++c) {
    QuatXYZW prev{};
    for (size_t k = 0; k < frames.size(); ++k) {
      std::array<int16_t, 3> t = q.rot[c][frames[k]];
      QuatXYZW v = q.rot_value[c][frames[k]];
      bool n = false;
      if (k > 0 && Dot(prev, v) < 0) {
        t = {int16_t(-t[0]), int16_t(-t[1]), int16_t(-t[2])};
        v = Negated(v);
        n = true;
      }
      rot[c].push_back(t);
      neg[c].push_back(n);
      prev = v;
    }
  }
  for (size_t c = 0; c < channels; ++c) {
    Descriptor d;
    d.bone_id = ids[c];
    // The game's count: delta keys, the set bits - 1 (its bitstream holds that many keys).
    d.rotation_keys = static_cast<uint16_t>(frames.size() - 1);
    d.rotation_initial = rot[c][0];
    for (int i = 0; i < 3; ++i) {
      int32_t lo = 0, hi = 0;
      for (size_t k = 1; k < frames.size(); ++k) {
        const int32_t delta = rot[c][k][i] - rot[c][k - 1][i];
        lo = std::min(lo, delta), hi = std::max(hi, delta);
      }
      d.rotation_bits[i] = WidthFor(lo, hi);
    }
    if (!q.pos[c].empty()) {
      // A count of 0 would mean "no translation"; with a single key the set-bit count
      // (1, which readers also accept) marks it instead.
      d.translation_keys = std::max<uint16_t>(d.rotation_keys, 1);
      d.translation_initial = q.pos[c][frames[0]];
      for (int i = 0; i < 3; ++i) {
        int32_t lo = 0, hi = 0;
        for (size_t k = 1; k < frames.size(); ++k) {
          const int32_t delta = q.pos[c][frames[k]][i] - q.pos[c][frames[k - 1]][i];
          lo = std::min(lo, delta), hi = std::max(hi, delta);
        }
        d.translation_bits[i] = WidthFor(lo, hi);
      }
    }
    a.descriptors.push_back(d);
  }
  BitWriter bw;
  for (size_t k = 1; k < frames.size(); ++k) {
    for (size_t c = 0; c < channels; ++c) {
      const Descriptor& d = a.descriptors[c];
      bw.Put(neg[c][k], 1);
      for (int i = 0; i < 3; ++i) bw.Put(static_cast<uint32_t>(rot[c][k][i] - rot[c][k - 1][i]), d.rotation_bits[i]);
      if (d.has_translation()) {
        for (int i = 0; i < 3; ++i)
          bw.Put(static_cast<uint32_t>(q.pos[c][frames[k]][i] - q.pos[c][frames[k - 1]][i]), d.translation_bits[i]);
      }
    }
  }
  a.bitstream = bw.Finish();
  // The memory the game sets aside to unpack the clip is not documented; this estimate is
  // the size of the unpacked keys (16 bytes a rotation, 12 a translation) plus the bitmap.
  size_t scratch = a.bitmap_words.size() * 4;
  for (const Descriptor& d : a.descriptors) scratch += frames.size() * (16 + (d.has_translation() ? 12 : 0));
  a.scratch_size = static_cast<uint32_t>(std::min<size_t>(scratch, 0xFFFFFFFF));
  return a;
}

uint32_t MetaU32(const Clip& clip, const char* key, uint32_t fallback) {
  if (clip.metadata.contains(key) && clip.metadata[key].is_number_unsigned()) {
    const auto v = clip.metadata[key].get<uint64_t>();
    if (v <= 0xFFFFFFFF) return static_cast<uint32_t>(v);
  }
  return fallback;
}

uint32_t RootBoneOf(Game game) { return game == Game::Echoes ? 0 : 3; }

// Largest scale error the Echoes key selection allows (scale units).
constexpr double kScaleTolerance = 0.001;

// A Metroid Prime file's data in Echoes' layout, with the source's scales: version 0 every
// frame (frame-major), version 2 the quantized totals on the keyed frames.
AnimFile AsEchoes(const AnimFile& prime, size_t bone_count, const Source& s, const Quantized* q) {
  AnimFile f;
  f.version = prime.version;
  f.game = Game::Echoes;
  if (prime.version == 0) {
    EchoesAnimV0& e = f.echoes_v0 = EchoesFromPrime(prime.v0);
    size_t scaled = 0;
    for (size_t c = 0; c < s.scale.size(); ++c)
      if (!s.scale[c].empty()) e.scale_table[c] = static_cast<uint8_t>(scaled++);
    for (size_t frame = 0; frame < s.frames && scaled > 0; ++frame)
      for (size_t c = 0; c < s.scale.size(); ++c)
        if (!s.scale[c].empty()) e.scales.push_back({s.scale[c][frame].x, s.scale[c][frame].y, s.scale[c][frame].z});
    return f;
  }
  std::vector<std::vector<std::array<int16_t, 3>>> scale(prime.v2.descriptors.size());
  for (size_t c = 0; q && c < q->scale.size(); ++c)
    for (size_t frame = 0; frame < q->scale[c].size(); ++frame)
      if (prime.v2.KeyBit(frame)) scale[c].push_back(q->scale[c][frame]);
  f.echoes_v2 = detail::EchoesFromPrime(prime.v2, bone_count, scale, q ? q->scale_multiplier : 0.0f);
  return f;
}

void MeasureError(const Source& s, const AnimFile& file, EncodeReport& r) {
  const Clip decoded = DecodeAnim(ParseAnim(SerializeAnim(file)), {});
  for (size_t c = 0; c < s.rot.size() && c < decoded.tracks.size(); ++c) {
    const JointTrack& t = decoded.tracks[c];
    for (size_t f = 0; f < s.frames; ++f) {
      const Seconds time = FrameTime(f, s.rate);
      r.max_error_rot = std::max(r.max_error_rot, AngleBetween(SampleTrack(t.rotation, time), s.rot[c][f]));
      if (!s.pos[c].empty()) r.max_error_pos = std::max(r.max_error_pos, Distance(SampleTrack(t.translation, time), s.pos[c][f]));
    }
  }
}

// The largest scale error over all frames, measured on the decoded Echoes file.
void MeasureScaleError(const Source& s, const AnimFile& file, const std::vector<uint32_t>& ids, EncodeReport& r) {
  const Clip decoded = DecodeAnim(ParseAnim(SerializeAnim(file), Game::Echoes), {});
  for (size_t c = 0; c < s.scale.size(); ++c) {
    if (s.scale[c].empty()) continue;
    const JointTrack* t = decoded.FindTrack(NumberedJointName(ids[c]));
    if (!t || t->scale.empty()) throw Error::General("the written scale of bone " + std::to_string(ids[c]) + " is missing");
    for (size_t f = 0; f < s.frames; ++f)
      r.max_error_scale = std::max(r.max_error_scale, Distance(SampleTrack(t->scale, FrameTime(f, s.rate)), s.scale[c][f]));
  }
}

}  // namespace

AnimFile EncodeAnim(const Clip& clip, const EncodeSettings& settings, EncodeReport* report) {
  const Source s = SampleSource(clip, settings.game == Game::Echoes);
  const std::vector<uint32_t> ids = AssignBoneIds(s.names, settings.bone_ids, settings.game);
  // The clip's root bone and EVNT id are kept when it came from the same game's file.
  const bool same_game = MetaU32(clip, metadata_keys::kGame, 1) == static_cast<uint32_t>(settings.game);
  const uint32_t root_bone = same_game ? MetaU32(clip, metadata_keys::kRootBone, RootBoneOf(settings.game))
                                       : RootBoneOf(settings.game);
  EncodeReport rep;
  rep.frames = s.frames;
  rep.channels = s.rot.size();
  for (const auto& p : s.pos) rep.translated_channels += p.empty() ? 0 : 1;
  rep.tolerance_rot = settings.max_error_rot;
  rep.tolerance_pos = settings.max_error_pos >= 0 ? settings.max_error_pos : 0.001 * TranslationRange(s);

  AnimFile file;
  file.version = static_cast<uint32_t>(settings.version);
  std::optional<Quantized> quantized;  // version 2
  const float interval = static_cast<float>(1.0 / s.rate);
  const float duration = clip.duration > 0 ? clip.duration : static_cast<float>(double(s.frames - 1) / s.rate);
  if (settings.version == 0) {
    AnimV0& a = file.v0;
    a.duration = duration;
    a.interval = interval;
    a.frame_count = static_cast<uint32_t>(s.frames);
    a.root_bone = root_bone;
    a.evnt_id = MetaU32(clip, metadata_keys::kEvntId, 0xFFFFFFFF);
    if (s.rot.size() > 255) throw Error::General("a version 0 ANIM holds at most 255 channels");
    size_t table = settings.bone_table_size;
    for (uint32_t id : ids) table = std::max<size_t>(table, size_t{id} + 1);
    if (table > kMaxBoneTable) {
      throw Error::General("bone id " + std::to_string(table - 1) + " does not fit a version 0 bone table (ids 0..255)");
    }
    a.bone_table.assign(table, 0xFF);
    a.translation_table.assign(s.rot.size(), 0xFF);
    size_t translated = 0;
    for (size_t c = 0; c < s.rot.size(); ++c) {
      a.bone_table[ids[c]] = static_cast<uint8_t>(c);
      if (!s.pos[c].empty()) a.translation_table[c] = static_cast<uint8_t>(translated++);
    }
    for (size_t c = 0; c < s.rot.size(); ++c)
      for (size_t f = 0; f < s.frames; ++f) {
        const QuatXYZW& q = s.rot[c][f];
        a.rotations.push_back({q.w, q.x, q.y, q.z});
      }
    for (size_t c = 0; c < s.rot.size(); ++c)
      for (size_t f = 0; f < s.pos[c].size(); ++f) a.translations.push_back({s.pos[c][f].x, s.pos[c][f].y, s.pos[c][f].z});
    rep.keyed_frames = s.frames;
  } else if (settings.version == 2) {
    if (settings.rotation_divisor == 0 || settings.rotation_divisor > 0x7FFF) {
      throw Error::General("the rotation divisor must be 1..32767 so that rotation totals fit 16 bits");
    }
    const char* key = metadata_keys::kTranslationMultiplier;
    const bool kept = clip.metadata.is_object() && clip.metadata.contains(key) && clip.metadata[key].is_number();
    const Quantized& q = quantized.emplace(Quantize(s, settings.rotation_divisor, kept ? clip.metadata[key].get<float>() : 0.0f));
    std::vector<bool> keyed(s.frames, false);
    keyed[0] = keyed[s.frames - 1] = true;
    for (size_t a = 0; a + 1 < s.frames;) {
      size_t b = a + 1;
      while (b + 1 < s.frames && SegmentHolds(s, q, a, b + 1, rep.tolerance_rot, rep.tolerance_pos, kScaleTolerance)) ++b;
      keyed[b] = true;
      a = b;
    }
    file.v2 = BuildV2(s, q, keyed, ids);
    AnimV2& a = file.v2;
    a.duration = duration;
    a.interval = interval;
    a.looping = clip.loop ? 1 : 0;
    a.root_bone = root_bone;
    a.evnt_id = MetaU32(clip, metadata_keys::kEvntId, 0xFFFFFFFF);
    rep.translation_multiplier = q.multiplier;
    for (bool k : keyed) rep.keyed_frames += k ? 1 : 0;
    AnimFile every = file;
    every.v2 = BuildV2(s, q, std::vector<bool>(s.frames, true), ids);
    rep.every_frame_bytes =
        SerializeAnim(settings.game == Game::Echoes ? AsEchoes(every, settings.bone_count, s, &q) : every).size();
  } else {
    throw Error::General("ANIM version " + std::to_string(settings.version) + " cannot be written (0 or 2)");
  }
  // Measured on Metroid Prime's form: the Echoes form holds the same values.
  MeasureError(s, file, rep);
  if (settings.game == Game::Echoes) {
    file = AsEchoes(file, settings.bone_count, s, quantized ? &*quantized : nullptr);
    MeasureScaleError(s, file, ids, rep);
  }
  rep.bytes = SerializeAnim(file).size();
  if (settings.version == 0) rep.every_frame_bytes = rep.bytes;
  if (report) *report = rep;
  return file;
}

}  // namespace animkit::metroid
