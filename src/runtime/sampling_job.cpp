#include <animkit/runtime/sampling_job.hpp>

#include "simd.hpp"

#include <algorithm>
#include <cmath>

namespace animkit::runtime {

namespace {

using namespace simd;

// Floats per 4 tracks in a channel's context blocks.
constexpr size_t BlockFloats(int width) { return static_cast<size_t>(4 * (2 + 2 * width)); }

uint32_t FarLookup(const std::vector<FarEntry>& table, uint32_t key) {
  auto it = std::lower_bound(table.begin(), table.end(), key, [](const FarEntry& e, uint32_t k) { return e.key < k; });
  return it != table.end() && it->key == key ? it->value : 0;  // present in a validated animation
}

inline uint32_t Previous(const Channel& c, uint32_t key) {
  const uint16_t d = c.previous[key];
  return d != kFar ? key - d : FarLookup(c.far_previous, key);
}

// The lane of a track in a channel's blocks: field f of the track is at [f * 4].
template <int W>
inline float* Lane(float* blocks, uint32_t track) {
  return blocks + (track >> 2) * BlockFloats(W) + (track & 3);
}

// Sets a track's left and right keys.
template <int W>
inline void Fill(float* blocks, const Channel& c, const float* timepoints, uint32_t track, uint32_t left,
                 uint32_t right) {
  float* g = Lane<W>(blocks, track);
  g[0] = timepoints[c.keys[left].time];
  g[4] = timepoints[c.keys[right].time];
  const float* a = c.values.data() + size_t{left} * W;
  const float* b = c.values.data() + size_t{right} * W;
  for (int k = 0; k < W; ++k) {
    g[(2 + k) * 4] = a[k];
    g[(2 + W + k) * 4] = b[k];
  }
}

// Takes in every key needed at or before t (the right key of its track has a time <= t).
template <int W>
uint32_t Forward(float* blocks, const Channel& c, const float* timepoints, uint32_t cursor, float t) {
  const KeyHeader* keys = c.keys.data();
  const float* values = c.values.data();
  const uint32_t end = static_cast<uint32_t>(c.keys.size());
  for (; cursor < end; ++cursor) {
    const KeyHeader h = keys[cursor];
    float* g = Lane<W>(blocks, h.track);
    if (g[4] > t) break;
    g[0] = g[4];
    g[4] = timepoints[h.time];
    const float* v = values + size_t{cursor} * W;
    for (int k = 0; k < W; ++k) {
      g[(2 + k) * 4] = g[(2 + W + k) * 4];
      g[(2 + W + k) * 4] = v[k];
    }
  }
  return cursor;
}

// Gives back, latest first, every key needed after t (the left key of its track is later than t).
template <int W>
uint32_t Backward(float* blocks, const Channel& c, const float* timepoints, uint32_t cursor, float t, uint32_t first) {
  const KeyHeader* keys = c.keys.data();
  const float* values = c.values.data();
  for (; cursor > first; --cursor) {
    const uint32_t key = cursor - 1;
    float* g = Lane<W>(blocks, keys[key].track);
    if (!(g[0] > t)) break;
    const uint32_t left = Previous(c, key);
    const uint32_t before = Previous(c, left);
    g[4] = g[0];
    g[0] = timepoints[keys[before].time];
    const float* v = values + size_t{before} * W;
    for (int k = 0; k < W; ++k) {
      g[(2 + W + k) * 4] = g[(2 + k) * 4];
      g[(2 + k) * 4] = v[k];
    }
  }
  return cursor;
}

// The time key `key` (not one of the first two of its track) is needed: its previous key's.
inline float Needed(const Channel& c, const float* timepoints, uint32_t key) {
  return timepoints[c.keys[Previous(c, key)].time];
}

// Jumps a channel to t from seek marker m (0: the start): binary-searches where the keys
// needed by t end, finds each track's latest key before that by one pass over the
// keys since the marker, then unpacks every track's two keys once.
template <int W>
uint32_t Seek(float* blocks, uint32_t* rights, const Channel& c, const float* timepoints, int n, size_t m, float t) {
  const uint32_t un = static_cast<uint32_t>(n);
  uint32_t from = 2 * un;
  if (m == 0) {
    for (uint32_t tr = 0; tr < un; ++tr) rights[tr] = un + tr;
  } else {
    from = c.marker_cursor[m - 1];
    const uint16_t* d = c.marker_right.data() + (m - 1) * un;
    for (uint32_t tr = 0; tr < un; ++tr) {
      rights[tr] = d[tr] != kFar ? from - d[tr] : FarLookup(c.far_marker, static_cast<uint32_t>((m - 1) * un + tr));
    }
  }
  // Keys [from, to) are needed at or before t; the next marker (later than t) bounds it.
  uint32_t lo = from, hi = m < c.marker_cursor.size() ? c.marker_cursor[m] : static_cast<uint32_t>(c.keys.size());
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (Needed(c, timepoints, mid) <= t) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const KeyHeader* keys = c.keys.data();
  for (uint32_t k = from; k < lo; ++k) rights[keys[k].track] = k;
  for (uint32_t tr = 0; tr < un; ++tr) Fill<W>(blocks, c, timepoints, tr, Previous(c, rights[tr]), rights[tr]);
  return lo;
}

// The latest marker at or before t (0: none, the start).
size_t MarkerAt(const Animation& a, float t) {
  const size_t count = a.marker_times.size();
  if (count == 0 || !(t >= a.marker_times[0])) return 0;
  size_t m = a.marker_interval > 0 ? static_cast<size_t>(std::min(static_cast<double>(t) / a.marker_interval,
                                                                   static_cast<double>(count)))
                                   : count;
  m = std::clamp<size_t>(m, 1, count);
  while (m > 1 && a.marker_times[m - 1] > t) --m;
  while (m < count && a.marker_times[m] <= t) ++m;
  return m;
}

// Linear interpolation between the left and right keys of 4 tracks; exactly the left
// key at or before its time, exactly the right key at or after its time.
inline void Interpolate3(const float* g, V time, float* x, float* y, float* z) {
  const V t0 = LoadU(g), t1 = LoadU(g + 4);
  const V u = Div(Sub(time, t0), Sub(t1, t0));
  const V at_left = CmpLe(time, t0), at_right = CmpGe(time, t1);
  float* out[3] = {x, y, z};
  for (int k = 0; k < 3; ++k) {
    const V a = LoadU(g + (2 + k) * 4), b = LoadU(g + (5 + k) * 4);
    const V v = Add(a, Mul(Sub(b, a), u));
    StoreU(out[k], Select(at_left, a, Select(at_right, b, v)));
  }
}

// Normalized linear interpolation on the shortest path, exact at the keys.
inline void InterpolateQuat(const float* g, V time, SoaTransform& o) {
  const V t0 = LoadU(g), t1 = LoadU(g + 4);
  const V u = Div(Sub(time, t0), Sub(t1, t0));
  const V at_left = CmpLe(time, t0), at_right = CmpGe(time, t1);
  const V ax = LoadU(g + 8), ay = LoadU(g + 12), az = LoadU(g + 16), aw = LoadU(g + 20);
  const V bx = LoadU(g + 24), by = LoadU(g + 28), bz = LoadU(g + 32), bw = LoadU(g + 36);
  const V dot = Add(Add(Mul(ax, bx), Mul(ay, by)), Add(Mul(az, bz), Mul(aw, bw)));
  const V flip = And(CmpLt(dot, Splat(0)), SignBit());
  V x = Add(ax, Mul(Sub(Xor(bx, flip), ax), u));
  V y = Add(ay, Mul(Sub(Xor(by, flip), ay), u));
  V z = Add(az, Mul(Sub(Xor(bz, flip), az), u));
  V w = Add(aw, Mul(Sub(Xor(bw, flip), aw), u));
  const V len2 = Add(Add(Mul(x, x), Mul(y, y)), Add(Mul(z, z), Mul(w, w)));
  const V inv = Div(Splat(1), Sqrt(len2));
  x = Mul(x, inv), y = Mul(y, inv), z = Mul(z, inv), w = Mul(w, inv);
  StoreU(o.rx, Select(at_left, ax, Select(at_right, bx, x)));
  StoreU(o.ry, Select(at_left, ay, Select(at_right, by, y)));
  StoreU(o.rz, Select(at_left, az, Select(at_right, bz, z)));
  StoreU(o.rw, Select(at_left, aw, Select(at_right, bw, w)));
}

void InitBlocks(std::vector<float>& blocks, int width, int soa_tracks, float identity_w) {
  std::fill(blocks.begin(), blocks.begin() + static_cast<ptrdiff_t>(BlockFloats(width) * static_cast<size_t>(soa_tracks)),
            0.0f);
  if (identity_w == 0) return;
  // Lanes no key ever fills (past the last track) hold identity values.
  for (int g = 0; g < soa_tracks; ++g) {
    float* b = blocks.data() + static_cast<size_t>(g) * BlockFloats(width);
    for (int l = 0; l < 4; ++l) {
      if (width == 4) {
        b[(2 + 3) * 4 + l] = 1;
        b[(2 + 4 + 3) * 4 + l] = 1;
      } else {
        for (int k = 0; k < 3; ++k) b[(2 + k) * 4 + l] = b[(5 + k) * 4 + l] = 1;
      }
    }
  }
}

}  // namespace

void SamplingContext::Resize(int max_tracks) {
  max_tracks_ = std::max(0, max_tracks);
  const size_t groups = static_cast<size_t>((max_tracks_ + 3) / 4);
  channels_[0].blocks.assign(groups * BlockFloats(3), 0.0f);
  channels_[1].blocks.assign(groups * BlockFloats(4), 0.0f);
  channels_[2].blocks.assign(groups * BlockFloats(3), 0.0f);
  rights_.assign(static_cast<size_t>(max_tracks_), 0);
  animation_ = nullptr;
}

bool SamplingJob::Validate() const {
  return animation && context && std::isfinite(time) && animation->num_tracks >= 0 &&
         animation->num_tracks <= context->max_tracks() &&
         output.size() >= static_cast<size_t>(animation->num_soa_tracks());
}

bool SamplingJob::Run() const {
  if (!Validate()) return false;
  const Animation& a = *animation;
  SamplingContext& ctx = *context;
  const int n = a.num_tracks;
  const float* tp = a.timepoints.data();
  float* bt = ctx.channels_[0].blocks.data();
  float* br = ctx.channels_[1].blocks.data();
  float* bs = ctx.channels_[2].blocks.data();
  uint32_t& ct = ctx.channels_[0].cursor;
  uint32_t& cr = ctx.channels_[1].cursor;
  uint32_t& cs = ctx.channels_[2].cursor;
  const float t = time;

  bool seek = ctx.animation_ != &a;
  if (seek) {
    InitBlocks(ctx.channels_[0].blocks, 3, a.num_soa_tracks(), 0);
    InitBlocks(ctx.channels_[1].blocks, 4, a.num_soa_tracks(), 1);
    InitBlocks(ctx.channels_[2].blocks, 3, a.num_soa_tracks(), 1);
    ctx.animation_ = &a;
  }
  const size_t target = MarkerAt(a, t);
  if (!seek && t != ctx.time_) {
    // Step from the last time when that moves about one key per track or less (the
    // clip's average key rate tells); else jump, which costs about that much.
    const double later_keys = static_cast<double>(a.num_keys()) - 6.0 * n;
    const double span = std::fabs(static_cast<double>(t) - static_cast<double>(ctx.time_));
    seek = later_keys > 0 && span * later_keys > 3.0 * n * std::max(static_cast<double>(a.duration), 1e-9);
  }
  if (seek) {
    uint32_t* rights = ctx.rights_.data();
    ct = Seek<3>(bt, rights, a.translations, tp, n, target, t);
    cr = Seek<4>(br, rights, a.rotations, tp, n, target, t);
    cs = Seek<3>(bs, rights, a.scales, tp, n, target, t);
  } else if (t >= ctx.time_) {
    ct = Forward<3>(bt, a.translations, tp, ct, t);
    cr = Forward<4>(br, a.rotations, tp, cr, t);
    cs = Forward<3>(bs, a.scales, tp, cs, t);
  } else {
    const uint32_t first = 2 * static_cast<uint32_t>(n);
    ct = Backward<3>(bt, a.translations, tp, ct, t, first);
    cr = Backward<4>(br, a.rotations, tp, cr, t, first);
    cs = Backward<3>(bs, a.scales, tp, cs, t, first);
  }
  ctx.time_ = t;

  const V vt = Splat(t);
  const int groups = a.num_soa_tracks();
  for (int g = 0; g < groups; ++g) {
    SoaTransform& o = output[static_cast<size_t>(g)];
    Interpolate3(bt + static_cast<size_t>(g) * BlockFloats(3), vt, o.tx, o.ty, o.tz);
    InterpolateQuat(br + static_cast<size_t>(g) * BlockFloats(4), vt, o);
    Interpolate3(bs + static_cast<size_t>(g) * BlockFloats(3), vt, o.sx, o.sy, o.sz);
  }
  return true;
}

}  // namespace animkit::runtime
