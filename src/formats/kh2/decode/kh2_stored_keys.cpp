// An interpolated motion's curves as the clip's keys (docs/formats/kh2.md, "Keys as stored").
#include "formats/kh2/kh2_internal.hpp"

#include <animkit/core/elementary.hpp>
#include <animkit/offline/sampling.hpp>

#include <cmath>
#include <optional>

namespace animkit::kh2::detail {
namespace {

// How far the curves may be from the evaluated pose at a played frame and still be the
// joint's keys: float rounding of the game's per-axis composition, nothing a constraint does.
constexpr double kRelativeTolerance = 1e-5;
constexpr double kAngleSlack = 4e-6;  // radians, on top of the rotation spline's own tolerance

struct ValueSlope {
  double value = 0, slope = 0;  // slope per key-time unit (1/60 s)
};

// One channel over key time: its last curve, else a constant (initial pose or rest).
class ChannelFunction {
 public:
  ChannelFunction(const InterpolatedMotion& m, const Curve* curve, double constant) : m_(&m), constant_(constant) {
    if (curve && curve->key_count > 0) {
      keys_ = &m.keys[size_t(curve->first_key)];
      n_ = curve->key_count;
      pre_ = curve->pre();
      post_ = curve->post();
    }
  }

  // Whether the played range [tau0, tau1] is one continuous piecewise cubic this reads
  // exactly: sorted keys, no cycles played, no jump (constant and zero keys that change value).
  bool Supported(double tau0, double tau1) const {
    if (n_ <= 1) return true;
    for (int i = 0; i + 1 < n_; ++i)
      if (!(T(i) <= T(i + 1))) return false;
    if ((tau0 < T(0) && pre_ != CycleType::Clamp) || (tau1 > T(n_ - 1) && post_ != CycleType::Clamp)) return false;
    for (int i = 1; i < n_; ++i) {
      const double b = T(i);
      if (!(b > tau0 && b < tau1)) continue;
      const double left = At(b, true).value, right = At(b, false).value;
      if (std::abs(left - right) > 1e-6 * (1 + std::abs(right))) return false;
    }
    return true;
  }

  void Breakpoints(double tau0, double tau1, std::vector<double>& out) const {
    for (int i = 0; i < n_; ++i)
      if (T(i) > tau0 && T(i) < tau1) out.push_back(T(i));
  }

  // Value and slope at tau, from the segment ending there (left) or starting there.
  ValueSlope At(double tau, bool left) const {
    if (n_ == 0) return {constant_, 0};
    if (n_ == 1) return {V(0), 0};
    if (left ? tau <= T(0) : tau < T(0)) return {V(0), 0};
    int lo = 0, hi = n_ - 1;  // last i with T(i) < tau (left) or T(i) <= tau
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (left ? T(mid) < tau : T(mid) <= tau) lo = mid;
      else hi = mid - 1;
    }
    const int i = lo;
    if (i >= n_ - 1) return {V(n_ - 1), 0};
    const double t0 = T(i), d = T(i + 1) - t0;
    if (!(d > 0)) return {V(i), 0};
    const double u = (tau - t0) / d, v0 = V(i), v1 = V(i + 1);
    switch (keys_[i].type()) {
      case KeyType::Constant: return {v0, 0};
      case KeyType::Linear: return {v0 + (v1 - v0) * u, (v1 - v0) / d};
      case KeyType::Hermite: {
        const double m0 = d * m_->tangents[size_t(keys_[i].out_tangent)];
        const double m1 = d * m_->tangents[size_t(keys_[i + 1].in_tangent)];
        const double u2 = u * u, u3 = u2 * u;
        const double value = (2 * u3 - 3 * u2 + 1) * v0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * v1 + (u3 - u2) * m1;
        const double dudu = (6 * u2 - 6 * u) * v0 + (3 * u2 - 4 * u + 1) * m0 + (-6 * u2 + 6 * u) * v1 + (3 * u2 - 2 * u) * m1;
        return {value, dudu / d};
      }
      case KeyType::Zero: return {0, 0};
    }
    return {v0, 0};
  }

 private:
  double T(int i) const { return m_->key_times[size_t(keys_[i].time_index())]; }
  double V(int i) const { return m_->values[size_t(keys_[i].value)]; }

  const InterpolatedMotion* m_;
  double constant_;
  const Key* keys_ = nullptr;
  int n_ = 0;
  CycleType pre_ = CycleType::Clamp, post_ = CycleType::Clamp;
};

// Key times of three channels over the played range: its ends and every key inside.
std::vector<double> UnionOfKeys(const ChannelFunction* ch, double tau0, double tau1) {
  std::vector<double> times{tau0};
  for (int k = 0; k < 3; ++k) ch[k].Breakpoints(tau0, tau1, times);
  if (tau1 > tau0) times.push_back(tau1);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// Maps key time to clip seconds: played frame k (key time tau0 + k * 60 / fps) is at k / fps.
struct Timeline {
  double tau0;
  animkit::Seconds At(double tau) const { return static_cast<float>((tau - tau0) / kEngineRate); }
};

Track<Vec3> VectorTrack(const ChannelFunction* ch, double tau0, double tau1, const Timeline& timeline) {
  Track<Vec3> track;
  track.interpolation = Interpolation::Hermite;
  for (const double b : UnionOfKeys(ch, tau0, tau1)) {
    ValueSlope l[3], r[3];
    for (int k = 0; k < 3; ++k) l[k] = ch[k].At(b, true), r[k] = ch[k].At(b, false);
    auto f = [](double v) { return static_cast<float>(v); };
    const double e = kEngineRate;  // slopes per key-time unit to per second
    track.Add(timeline.At(b), {f(r[0].value), f(r[1].value), f(r[2].value)});
    track.in_tangents.push_back({f(l[0].slope * e), f(l[1].slope * e), f(l[2].slope * e)});
    track.out_tangents.push_back({f(r[0].slope * e), f(r[1].slope * e), f(r[2].slope * e)});
  }
  return track;
}

// Rotation: the Euler channels (X applied first) as a quaternion spline.
struct Quat {
  double x = 0, y = 0, z = 0, w = 1;
};
Quat Mul(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Quat Add(const Quat& a, const Quat& b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
Quat Scale(const Quat& a, double s) { return {a.x * s, a.y * s, a.z * s, a.w * s}; }

struct QuatAndRate {
  Quat q, dq;  // dq: per second
};

// q = qz * qy * qx and its derivative from the channels' slopes (chain rule).
QuatAndRate EulerQuat(const ValueSlope* e) {
  Quat axis[3], daxis[3];
  for (int k = 0; k < 3; ++k) {
    const double s = Sin(e[k].value / 2), c = Cos(e[k].value / 2), rate = e[k].slope * kEngineRate / 2;
    double* q = &axis[k].x;
    double* dq = &daxis[k].x;
    q[k] = s, axis[k].w = c;
    dq[k] = c * rate, daxis[k].w = -s * rate;
  }
  const Quat q = Mul(axis[2], Mul(axis[1], axis[0]));
  const Quat dq = Add(Add(Mul(daxis[2], Mul(axis[1], axis[0])), Mul(axis[2], Mul(daxis[1], axis[0]))),
                      Mul(axis[2], Mul(axis[1], daxis[0])));
  return {q, dq};
}

QuatAndRate RotationAt(const ChannelFunction* ch, double tau, bool left) {
  ValueSlope e[3];
  for (int k = 0; k < 3; ++k) e[k] = ch[k].At(tau, left);
  return EulerQuat(e);
}

double AngleBetween(const Quat& a, const Quat& b) {
  const double na = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w);
  const double nb = std::sqrt(b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w);
  const double dot = std::abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w) / (na * nb);
  return 2 * Acos(std::min(1.0, dot));
}

struct SplineKey {
  double tau;
  Quat q, in, out;  // in/out: per second
};

Quat RotationHermiteAt(const SplineKey& a, const SplineKey& b, double tau) {
  const double d = (b.tau - a.tau) / kEngineRate, u = (tau - a.tau) / (b.tau - a.tau);
  const double u2 = u * u, u3 = u2 * u;
  return Add(Add(Scale(a.q, 2 * u3 - 3 * u2 + 1), Scale(a.out, (u3 - 2 * u2 + u) * d)),
             Add(Scale(b.q, -2 * u3 + 3 * u2), Scale(b.in, (u3 - u2) * d)));
}

SplineKey KeyAt(const ChannelFunction* ch, double tau) {
  const QuatAndRate l = RotationAt(ch, tau, true), r = RotationAt(ch, tau, false);
  return {tau, r.q, l.dq, r.dq};
}

// Keys at the channels' keys, then wherever a segment of the spline is more than tolerance
// from the Euler rotation at a frame or half frame (the worst such point becomes a key).
std::optional<std::vector<SplineKey>> RotationSpline(const ChannelFunction* ch, double tau0, double tau1,
                                                     double frame_step, double tolerance, size_t max_keys) {
  std::vector<SplineKey> keys;
  for (const double b : UnionOfKeys(ch, tau0, tau1)) keys.push_back(KeyAt(ch, b));
  if (keys.size() > max_keys) return std::nullopt;
  for (size_t k = 0; k + 1 < keys.size();) {
    const SplineKey &a = keys[k], &b = keys[k + 1];
    double worst = 0, worst_tau = 0;
    const double half = frame_step / 2;
    for (double s = std::ceil((a.tau - tau0) / half + 1e-9); tau0 + s * half < b.tau - 1e-9; s += 1) {
      const double tau = tau0 + s * half;
      const double err = AngleBetween(RotationHermiteAt(a, b, tau), RotationAt(ch, tau, false).q);
      if (err > worst) worst = err, worst_tau = tau;
    }
    if (worst <= tolerance) {
      ++k;
      continue;
    }
    if (keys.size() >= max_keys) return std::nullopt;
    keys.insert(keys.begin() + std::ptrdiff_t(k) + 1, KeyAt(ch, worst_tau));
  }
  return keys;
}

Track<QuatXYZW> QuatTrack(const std::vector<SplineKey>& keys, const Timeline& timeline) {
  Track<QuatXYZW> track;
  track.interpolation = Interpolation::Hermite;
  auto f = [](const Quat& q) {
    return QuatXYZW{static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z), static_cast<float>(q.w)};
  };
  for (const SplineKey& k : keys) {
    track.Add(timeline.At(k.tau), f(k.q));
    track.in_tangents.push_back(f(k.in));
    track.out_tangents.push_back(f(k.out));
  }
  return track;
}

double Distance(Vec3 a, Vec3 b) {
  const double x = double(a.x) - b.x, y = double(a.y) - b.y, z = double(a.z) - b.z;
  return std::sqrt(x * x + y * y + z * z);
}

// The per-frame keys the decoder evaluated, against a candidate track at the same frames.
bool SameAtFrames(const Track<Vec3>& frames, const Track<Vec3>& candidate) {
  size_t cursor = 0;
  for (size_t f = 0; f < frames.size(); ++f) {
    const Vec3 a = frames.values[f], b = SampleTrack(candidate, frames.times[f], &cursor);
    if (!(Distance(a, b) <= kRelativeTolerance * (1 + Distance(a, Vec3{})))) return false;
  }
  return true;
}

bool SameAtFrames(const Track<QuatXYZW>& frames, const Track<QuatXYZW>& candidate, double tolerance) {
  size_t cursor = 0;
  for (size_t f = 0; f < frames.size(); ++f)
    if (!(animkit::AngleBetween(frames.values[f], SampleTrack(candidate, frames.times[f], &cursor)) <= tolerance + kAngleSlack))
      return false;
  return true;
}

// The effective source of each channel of each joint, as EvaluatePose applies them.
struct ChannelSources {
  std::vector<std::array<const Curve*, kChannelCount>> curve;
  std::vector<ChannelValues> constant;
};

ChannelSources SourcesOf(const InterpolatedMotion& m, const EvaluationPlan& plan) {
  const size_t total = std::min(size_t(std::max<int>(m.total_bone_count, 0)), plan.joint_count());
  ChannelSources s;
  s.curve.assign(total, {});
  s.constant.assign(plan.base.begin(), plan.base.begin() + std::ptrdiff_t(total));
  for (const InitialPose& p : m.initial_pose)
    if (p.bone >= 0 && size_t(p.bone) < total && p.channel >= 0 && p.channel < kChannelCount)
      s.constant[size_t(p.bone)][size_t(p.channel)] = p.value;
  for (const Curve& c : m.forward)
    if (c.key_count > 0 && c.channel() < kChannelCount && m.AnimatesJoint(c, false) && size_t(c.joint) < total)
      s.curve[size_t(c.joint)][size_t(c.channel())] = &c;
  for (const Curve& c : m.inverse)
    if (c.key_count > 0 && c.channel() < kChannelCount && m.AnimatesJoint(c, true) &&
        size_t(m.bone_count) + size_t(c.joint) < total)
      s.curve[size_t(m.bone_count) + size_t(c.joint)][size_t(c.channel())] = &c;
  return s;
}

}  // namespace

void UseStoredKeys(const InterpolatedMotion& m, const EvaluationPlan& plan, const PlayedFrames& played, double fps,
                   double rotation_tolerance, Clip& clip) {
  const ChannelSources sources = SourcesOf(m, plan);
  const double tau0 = played.KeyTime(0, fps), tau1 = played.KeyTime(played.count - 1, fps);
  const double frame_step = kEngineRate / fps;
  const Timeline timeline{tau0};
  const size_t max_keys = 2 * played.count + 8;  // refinement stops well before this
  for (size_t j = 0; j < sources.curve.size() && j < clip.tracks.size(); ++j) {
    JointTrack& track = clip.tracks[j];
    auto channels = [&](int first, ChannelFunction* out) {
      bool supported = true;
      for (int k = 0; k < 3; ++k) {
        const size_t c = size_t(first + k);
        out[k] = ChannelFunction(m, sources.curve[j][c], sources.constant[j][c]);
        supported = supported && out[k].Supported(tau0, tau1);
      }
      return supported;
    };
    ChannelFunction ch[3] = {{m, nullptr, 0}, {m, nullptr, 0}, {m, nullptr, 0}};
    if (channels(int(Channel::TranslateX), ch)) {
      Track<Vec3> t = VectorTrack(ch, tau0, tau1, timeline);
      if (SameAtFrames(track.translation, t)) track.translation = std::move(t);
    }
    if (channels(int(Channel::ScaleX), ch)) {
      Track<Vec3> s = VectorTrack(ch, tau0, tau1, timeline);
      if (SameAtFrames(track.scale, s)) track.scale = std::move(s);
    }
    if (channels(int(Channel::RotateX), ch)) {
      // A spline of half as many keys as frames or more: a key per frame instead, also exact
      // at every frame. Below that the spline is fewer keys (Blender keys each alike) and at
      // most 1.5x the glTF bytes (a CUBICSPLINE key holds three quaternions).
      const size_t max_spline_keys = std::min(max_keys, played.count / 2);
      if (const auto spline = RotationSpline(ch, tau0, tau1, frame_step, rotation_tolerance, max_spline_keys)) {
        Track<QuatXYZW> r = QuatTrack(*spline, timeline);
        if (SameAtFrames(track.rotation, r, rotation_tolerance)) track.rotation = std::move(r);
      }
    }
  }
}

}  // namespace animkit::kh2::detail
