// KH2 encoding: Clip -> interpolated or raw motion, events -> triggers, ANB archives.
#include "kh2_internal.hpp"

#include <animkit/sampling.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <string>

namespace animkit::kh2 {
namespace {

// The bone a track animates: "#N", or the joint of that name in the skeleton.
int BoneOf(const std::string& name, const Skeleton& skeleton) {
  if (name.size() > 1 && name[0] == '#' && name.find_first_not_of("0123456789", 1) == std::string::npos &&
      name.size() < 7)
    return std::stoi(name.substr(1));
  return skeleton.Find(name);
}

struct Sampled {
  double rate = 30;
  size_t frames = 0;
  int bones = 0;
  std::vector<int> bone_of_track;            // -1: skipped
  std::vector<std::vector<TransformTRS>> pose;  // [frame][track]
};

Sampled SampleClip(const Clip& clip, const Skeleton& skeleton) {
  Sampled s;
  s.rate = clip.frame_rate > 0 && std::isfinite(clip.frame_rate) ? clip.frame_rate : 30;
  s.frames = ClipFrameCount(clip, s.rate);
  if (s.frames > 100000) throw Error::General("the clip has more frames (" + std::to_string(s.frames) + ") than a motion can hold");
  s.bones = static_cast<int>(skeleton.joints.size());
  for (const JointTrack& t : clip.tracks) {
    const int b = BoneOf(t.joint, skeleton);
    s.bone_of_track.push_back(b);
    if (b >= 0) s.bones = std::max(s.bones, b + 1);
  }
  if (s.bones > 0x7FFF) throw Error::General("too many bones for a motion");
  s.pose.assign(s.frames, std::vector<TransformTRS>(clip.tracks.size()));
  for (size_t f = 0; f < s.frames; ++f)
    SampleClipJob{&clip, &skeleton, FrameTime(f, s.rate), s.pose[f]}.Run();
  return s;
}

// Keys kept so that linear interpolation stays within tol of every sample.
std::vector<size_t> ReduceLinear(const std::vector<float>& v, float tol) {
  std::vector<size_t> kept{0};
  size_t anchor = 0;
  for (size_t end = 2; end < v.size(); ++end) {
    bool ok = true;
    for (size_t k = anchor + 1; k < end && ok; ++k) {
      const double u = double(k - anchor) / double(end - anchor);
      ok = std::abs(v[anchor] + (v[end] - v[anchor]) * u - v[k]) <= tol;
    }
    if (!ok) {
      kept.push_back(end - 1);
      anchor = end - 1;
    }
  }
  if (v.size() > 1) kept.push_back(v.size() - 1);
  return kept;
}

float Unwrap(float angle, float previous) {
  const float two_pi = 2 * std::numbers::pi_v<float>;
  while (angle - previous > std::numbers::pi_v<float>) angle -= two_pi;
  while (angle - previous < -std::numbers::pi_v<float>) angle += two_pi;
  return angle;
}

ChannelValues Channels(const TransformTRS& x, const ChannelValues* previous) {
  Vec3 e = EulerFromQuat(x.rotation, EulerOrder::XYZ);
  if (previous) e = {Unwrap(e.x, (*previous)[3]), Unwrap(e.y, (*previous)[4]), Unwrap(e.z, (*previous)[5])};
  return {x.scale.x, x.scale.y, x.scale.z, e.x, e.y, e.z, x.translation.x, x.translation.y, x.translation.z};
}

}  // namespace

Motion EncodeMotion(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, EncodeReport* report) {
  const Sampled s = SampleClip(clip, skeleton);
  EncodeReport rep;
  rep.bones = size_t(s.bones);
  for (int b : s.bone_of_track) rep.skipped_tracks += b < 0 ? 1 : 0;
  Motion m;
  m.raw = settings.raw;
  const float end = static_cast<float>(s.frames - 1);
  // Per bone and frame: local channels (tracks that no bone takes are skipped).
  std::vector<int> track_of_bone(size_t(s.bones), -1);
  for (size_t t = 0; t < s.bone_of_track.size(); ++t)
    if (s.bone_of_track[t] >= 0 && track_of_bone[size_t(s.bone_of_track[t])] < 0)
      track_of_bone[size_t(s.bone_of_track[t])] = static_cast<int>(t);
  auto rest_of = [&](int b) {
    return size_t(b) < skeleton.joints.size() ? skeleton.joints[size_t(b)].rest : TransformTRS{};
  };
  Vec4f lo{0, 0, 0, 1}, hi{0, 0, 0, 1};
  bool first = true;
  auto grow = [&](Vec3 p) {
    if (first) lo = {p.x, p.y, p.z, 1}, hi = lo, first = false;
    lo = {std::min(lo[0], p.x), std::min(lo[1], p.y), std::min(lo[2], p.z), 1};
    hi = {std::max(hi[0], p.x), std::max(hi[1], p.y), std::max(hi[2], p.z), 1};
  };

  if (m.raw) {
    RawMotion& raw = m.raw_motion;
    raw.bone_count = s.bones;
    raw.fps = static_cast<float>(s.rate);
    raw.frame_end = static_cast<float>(s.frames);
    raw.frames_per_loop = static_cast<int32_t>(std::lround(double(s.frames) * kEngineRate / s.rate));
    std::vector<Mat4> model(size_t(s.bones));
    std::vector<bool> done;
    for (size_t f = 0; f < s.frames; ++f) {
      done.assign(size_t(s.bones), false);
      for (int b = 0; b < s.bones; ++b) {
        const int t = track_of_bone[size_t(b)];
        const TransformTRS x = t >= 0 ? s.pose[f][size_t(t)] : rest_of(b);
        Mat4 local = MatrixFromTRS(x);
        const int p = clip.space == Space::Local && size_t(b) < skeleton.joints.size() ? skeleton.joints[size_t(b)].parent : -1;
        model[size_t(b)] = (p >= 0 && p < b) ? Multiply(model[size_t(p)], local) : local;
        grow(TransformPoint(model[size_t(b)], {0, 0, 0}));
      }
      for (const Mat4& mm : model) {
        std::array<float, 16> out{};
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) out[size_t(c * 4 + r)] = mm.m[c][r];
        raw.matrices.push_back(out);
      }
    }
    raw.bbox_min = lo;
    raw.bbox_max = hi;
  } else {
    InterpolatedMotion& im = m.interpolated;
    im.bone_count = static_cast<int16_t>(s.bones);
    im.fps = static_cast<float>(s.rate);
    im.frame_end = end;
    im.frame_count = end;
    im.total_frames = static_cast<int32_t>(std::lround(double(end) * kEngineRate / s.rate));
    for (size_t f = 0; f < s.frames; ++f) im.key_times.push_back(static_cast<float>(double(f) * kEngineRate / s.rate));
    if (im.key_times.size() > 0x3FFF) throw Error::General("a motion holds at most 16383 key times");
    std::map<uint32_t, int16_t> value_index;
    auto value = [&](float v) {
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      auto [it, added] = value_index.emplace(bits, static_cast<int16_t>(im.values.size()));
      if (added) {
        if (im.values.size() >= 0x7FFF) throw Error::General("a motion holds at most 32767 distinct key values");
        im.values.push_back(v);
      }
      return it->second;
    };
    std::vector<float> series(s.frames);
    float tol_used = settings.tolerance;
    for (int b = 0; b < s.bones; ++b) {
      const int t = track_of_bone[size_t(b)];
      if (t < 0) continue;
      std::vector<ChannelValues> ch(s.frames);
      for (size_t f = 0; f < s.frames; ++f) {
        ch[f] = Channels(s.pose[f][size_t(t)], f ? &ch[f - 1] : nullptr);
        grow(s.pose[f][size_t(t)].translation);
      }
      for (int c = 0; c < kChannelCount; ++c) {
        float mn = ch[0][size_t(c)], mx = mn;
        for (size_t f = 0; f < s.frames; ++f) {
          series[f] = ch[f][size_t(c)];
          mn = std::min(mn, series[f]);
          mx = std::max(mx, series[f]);
        }
        if (mx - mn <= settings.tolerance) {
          im.initial_pose.push_back({static_cast<int16_t>(b), static_cast<int16_t>(c), series[0]});
          continue;
        }
        float tol = settings.tolerance;
        std::vector<size_t> kept = ReduceLinear(series, tol);
        while (kept.size() > 255) {
          tol *= 2;
          kept = ReduceLinear(series, tol);
        }
        tol_used = std::max(tol_used, tol);
        Curve curve;
        curve.joint = static_cast<int16_t>(b);
        curve.packed = static_cast<uint8_t>(c);  // clamp before and after
        curve.key_count = static_cast<uint8_t>(kept.size());
        if (im.keys.size() > 0x7FFF) throw Error::General("a motion holds at most 32767 keys");
        curve.first_key = static_cast<int16_t>(im.keys.size());
        for (size_t k : kept) {
          Key key;
          key.packed = static_cast<uint16_t>((k << 2) | uint16_t(KeyType::Linear));
          key.value = value(series[k]);
          im.keys.push_back(key);
        }
        im.forward.push_back(curve);
      }
    }
    im.bbox_min = lo;
    im.bbox_max = hi;
    rep.curves = im.forward.size();
    rep.keys = im.keys.size();
    rep.initial_pose = im.initial_pose.size();
    rep.tolerance_used = tol_used;
    for (int j = 0; j <= s.bones; ++j) im.joints.push_back({static_cast<int16_t>(j < s.bones ? j : 0), 0});
  }
  LayoutMotion(m);
  if (report) *report = rep;
  return m;
}

Triggers EncodeTriggers(const std::vector<Event>& events, double rate, size_t* skipped) {
  Triggers t;
  size_t dropped = 0;
  auto frame = [&](double seconds) {
    const double f = std::round(seconds * rate);
    return static_cast<int16_t>(std::clamp(f, -32768.0, 32767.0));
  };
  for (const Event& e : events) {
    // "... (range N)", "... (range N, to end)" or "... (frame N)"
    const size_t open = e.name.rfind(" (");
    bool ok = open != std::string::npos && e.name.back() == ')';
    std::string inner = ok ? e.name.substr(open + 2, e.name.size() - open - 3) : "";
    bool to_end = false;
    if (inner.size() > 8 && inner.compare(inner.size() - 8, 8, ", to end") == 0) {
      to_end = true;
      inner.resize(inner.size() - 8);
    }
    const bool range = inner.rfind("range ", 0) == 0, single = inner.rfind("frame ", 0) == 0;
    const std::string digits = inner.size() > 6 ? inner.substr(6) : "";
    ok = ok && (range || single) && !digits.empty() && digits.size() <= 3 &&
         digits.find_first_not_of("0123456789") == std::string::npos && std::stoi(digits) <= 255;
    if (!ok || e.params.size() > 255) {
      ++dropped;
      continue;
    }
    const uint8_t id = static_cast<uint8_t>(std::stoi(digits));
    std::vector<int16_t> params;
    for (double p : e.params) params.push_back(static_cast<int16_t>(std::clamp(std::round(p), -32768.0, 32767.0)));
    if (range) {
      RangeTrigger r;
      r.start = frame(e.time);
      r.end = to_end ? int16_t(-1) : frame(e.end_time.value_or(e.time));
      r.id = id;
      r.params = std::move(params);
      t.ranges.push_back(std::move(r));
    } else {
      FrameTrigger f;
      f.frame = frame(e.time);
      f.id = id;
      f.params = std::move(params);
      t.frames.push_back(std::move(f));
    }
  }
  if (t.ranges.size() > 255 || t.frames.size() > 255)
    throw Error::General("a triggers entry holds at most 255 triggers of each kind");
  LayoutTriggers(t);
  if (skipped) *skipped = dropped;
  return t;
}

Bar EncodeAnb(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, EncodeReport* report) {
  Bar bar;
  BarEntry motion;
  motion.type = kEntryMotion;
  std::string name = "A000";
  if (auto it = clip.metadata.find("entry"); it != clip.metadata.end() && it->is_string() && !it->get<std::string>().empty())
    name = it->get<std::string>();
  name.resize(4, '\0');
  std::memcpy(motion.name.data(), name.data(), 4);
  motion.motion = std::make_shared<Motion>(EncodeMotion(clip, skeleton, settings, report));
  BarEntry triggers;
  triggers.type = kEntryTriggers;
  triggers.name = motion.name;
  const double rate = motion.motion->raw ? motion.motion->raw_motion.fps : motion.motion->interpolated.fps;
  triggers.triggers = std::make_shared<Triggers>(EncodeTriggers(clip.events, rate));
  bar.entries.push_back(std::move(motion));
  bar.entries.push_back(std::move(triggers));
  LayoutBar(bar);
  return bar;
}

}  // namespace animkit::kh2
