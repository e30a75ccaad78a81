// KH2 encoding: Clip -> interpolated or raw motion, events -> triggers, ANB archives.
#include "formats/kh2/encode/kh2_encode_round_trip.hpp"
#include "formats/kh2/encode/kh2_fit.hpp"
#include "formats/kh2/kh2_internal.hpp"

#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <string>

namespace animkit::kh2 {
namespace {

using detail::FitHermite;
using detail::FittedKey;
using detail::Tables;
using detail::CopyCurve;
using detail::kMaxKeys;
using detail::Within;


// The bone a track animates: "#N", or the joint of that name in the skeleton.
int BoneOf(const std::string& name, const Skeleton& skeleton) {
  if (const auto bone = ParseNumberedJointName(name); bone && *bone < 100000) return static_cast<int>(*bone);
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

// Euler XYZ channels of x; rotation as the triple nearest to reference (of the two that
// give the rotation, each moved by whole turns, and at gimbal lock the X/Z split nearest
// to it), so that channels stay continuous and a template's angles come back as they were.
ChannelValues Channels(const TransformTRS& x, const ChannelValues* reference) {
  Vec3 e = EulerFromQuat(x.rotation, EulerOrder::XYZ);
  if (reference) {
    const ChannelValues& r = *reference;
    const std::array<double, 3> n = EulerNearest(x.rotation, EulerOrder::XYZ, {r[3], r[4], r[5]});
    e = {static_cast<float>(n[0]), static_cast<float>(n[1]), static_cast<float>(n[2])};
  }
  return {x.scale.x, x.scale.y, x.scale.z, e.x, e.y, e.z, x.translation.x, x.translation.y, x.translation.z};
}

bool IsRotation(int channel) { return channel >= 3 && channel < 6; }

// The tolerance of one channel: radians for rotation, relative (to the channel's largest
// magnitude, at least 1) for translation and scale.
double ChannelTolerance(int channel, const std::vector<float>& v, const EncodeSettings& settings) {
  if (IsRotation(channel)) return settings.tolerance;
  double magnitude = 1;
  for (float x : v) magnitude = std::max(magnitude, double(std::abs(x)));
  return settings.relative_tolerance * magnitude;
}

// The frames the template plays (0 when more than a clip can hold: then never the same length).
size_t TemplateFrames(const InterpolatedMotion& im) {
  try {
    return detail::FramesPlayed(im).count;
  } catch (const Error&) {
    return 0;
  }
}

// The frame a KH2 source's clip starts at (its frame start, kept in the metadata), else 0.
double SourceStart(const Clip& clip) {
  const auto it = clip.metadata.find(metadata_keys::kFrameLoop);
  if (it == clip.metadata.end() || !it->is_number() || clip.metadata.value(metadata_keys::kMotionType, "") == "raw")
    return 0;
  const double start = it->get<double>();
  return std::isfinite(start) && start >= 0 && start < 1e6 ? start : 0;
}

}  // namespace

namespace {

// The box over the joints a motion carries: grown by each joint's position, then the
// source's own box kept where the joints stay within it.
struct Bounds {
  Vec4f lo{0, 0, 0, 1}, hi{0, 0, 0, 1};
  bool first = true;

  void Grow(Vec3 p) {
    if (first) lo = {p.x, p.y, p.z, 1}, hi = lo, first = false;
    lo = {std::min(lo[0], p.x), std::min(lo[1], p.y), std::min(lo[2], p.z), 1};
    hi = {std::max(hi[0], p.x), std::max(hi[1], p.y), std::max(hi[2], p.z), 1};
  }
  // The source's box (the game's, often the whole mesh's) is kept, widened only where a
  // joint leaves it by more than float rounding (an edit).
  void GrowBySourceBox(const Clip& clip) {
    const Value& vmin = clip.metadata[metadata_keys::kBboxMin];
    const Value& vmax = clip.metadata[metadata_keys::kBboxMax];
    auto is_box = [](const Value& v) {
      return v.is_array() && v.size() == 4 && v[0].is_number() && v[1].is_number() && v[2].is_number();
    };
    if (!is_box(vmin) || !is_box(vmax)) return;
    if (first) lo = {vmin[0].get<float>(), vmin[1].get<float>(), vmin[2].get<float>(), 1}, hi = lo, first = false;
    for (size_t a = 0; a < 3; ++a) {
      const float src_lo = vmin[a].get<float>(), src_hi = vmax[a].get<float>();
      const float tol = 1e-5f * (std::abs(src_lo) + std::abs(src_hi) + 1.0f);
      lo[a] = lo[a] >= src_lo - tol ? src_lo : lo[a];
      hi[a] = hi[a] <= src_hi + tol ? src_hi : hi[a];
    }
  }
};

// What the raw and the interpolated encoder read: the clip sampled, the motion's bone
// count and, per bone, the track that animates it (-1: none).
struct BoneSamples {
  const Clip& clip;
  const Skeleton& skeleton;
  const Sampled& s;
  int bones = 0;
  std::vector<int> track_of_bone;
  // The template's clip as the clip's own format gives it back (EncodeMotion's
  // template_as_input), sampled the same way; null when not given.
  const Sampled* exported = nullptr;
  std::vector<int> exported_track;  // per bone: its track in *exported, -1 when none

  TransformTRS RestOf(int b) const {
    return size_t(b) < skeleton.joints.size() ? skeleton.joints[size_t(b)].rest : TransformTRS{};
  }
  // Bone b at frame f in the exported template: its track's sample, else the rest (what the
  // clip's own sampling gives a bone without a track). False past its frames or without it.
  bool ExportedAt(size_t f, int b, TransformTRS& out) const {
    if (!exported || f >= exported->frames) return false;
    const int t = b >= 0 && size_t(b) < exported_track.size() ? exported_track[size_t(b)] : -1;
    out = t >= 0 ? exported->pose[f][size_t(t)] : RestOf(b);
    return true;
  }
};

// Per bone: the track that animates it (tracks that no bone takes are skipped).
std::vector<int> TrackOfBone(const Sampled& s, int bones, EncodeReport& rep) {
  std::vector<int> track_of_bone(size_t(bones), -1);
  for (size_t t = 0; t < s.bone_of_track.size(); ++t) {
    const int b = s.bone_of_track[t];
    if (b >= 0 && b < bones && track_of_bone[size_t(b)] < 0) track_of_bone[size_t(b)] = static_cast<int>(t);
    else if (b >= bones) ++rep.skipped_tracks;
  }
  return track_of_bone;
}

// A raw motion: every bone's model matrix at every frame, with the template's fields or
// the source's loop fields.
void EncodeRaw(const BoneSamples& in, const Motion* templ, Motion& m, Bounds& box) {
  const Clip& clip = in.clip;
  const Skeleton& skeleton = in.skeleton;
  const Sampled& s = in.s;
  const int bones = in.bones;
  RawMotion& raw = m.raw_motion;
  if (templ && templ->raw) raw = templ->raw_motion, raw.matrices.clear();
  raw.bone_count = bones;
  raw.fps = static_cast<float>(s.rate);
  if (!(templ && templ->raw)) {
    raw.frame_end = static_cast<float>(s.frames);
    raw.frames_per_loop = static_cast<int32_t>(std::lround(double(s.frames) * kEngineRate / s.rate));
    // The source's loop fields and header flag, from its metadata (glTF extras), when it had them.
    const Value& meta = clip.metadata;
    if (meta[metadata_keys::kFrameLoop].is_number()) raw.frame_loop = meta[metadata_keys::kFrameLoop].get<float>();
    if (meta[metadata_keys::kFrameReturn].is_number()) raw.frame_return = meta[metadata_keys::kFrameReturn].get<float>();
    if (meta[metadata_keys::kFramesPerLoop].is_number_integer() && meta[metadata_keys::kTotalFrames] == Value(s.frames))
      raw.frames_per_loop = meta[metadata_keys::kFramesPerLoop].get<int32_t>();
    if (meta[metadata_keys::kMotionFlag].is_number_integer())
      m.header.flag = meta[metadata_keys::kMotionFlag].get<int32_t>();
  }
  // Model matrices composed by the game's per-axis rule, as the decoder made the locals.
  std::vector<Mat4> model(static_cast<size_t>(bones));
  std::vector<TransformTRS> model_trs(static_cast<size_t>(bones));
  for (size_t f = 0; f < s.frames; ++f) {
    for (int b = 0; b < bones; ++b) {
      const int t = in.track_of_bone[size_t(b)];
      const TransformTRS x = t >= 0 ? s.pose[f][size_t(t)] : in.RestOf(b);
      const int p = clip.space == Space::Local && size_t(b) < skeleton.joints.size() ? skeleton.joints[size_t(b)].parent : -1;
      model_trs[size_t(b)] = p >= 0 && p < b ? ComposePerAxis(model_trs[size_t(p)], x) : x;
      model[size_t(b)] = MatrixFromTRS(model_trs[size_t(b)]);
      box.Grow(TransformPoint(model[size_t(b)], {0, 0, 0}));
    }
    for (const Mat4& mm : model) {
      std::array<float, 16> out{};
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) out[size_t(c * 4 + r)] = mm.m[c][r];
      raw.matrices.push_back(out);
    }
  }
  box.GrowBySourceBox(clip);
  raw.bbox_min = box.lo;
  raw.bbox_max = box.hi;
}

// A raw template's matrix where the clip's pose equals the template's decoded pose
// within the format's precision (floats: 1e-5 rad, 1e-5 relative), the encoded one
// elsewhere. True when every matrix is the template's (its own motion is the answer).
bool KeepTemplateMatrices(RawMotion& raw, const Motion& templ, const BoneSamples& in) {
  DecodeSettings ds;
  ds.raw_space = in.clip.space == Space::Local ? RawSpace::Local : RawSpace::Model;
  ds.limits.max_values = std::numeric_limits<decltype(ds.limits.max_values)>::max();
  const Clip decoded = DecodeMotion(templ, in.skeleton, {}, ds);
  const Clip round_trip = in.exported || decoded.space != Space::Local
                              ? decoded
                              : detail::GltfRoundTrip(decoded, in.skeleton, ds.limits);
  const RawMotion& t = templ.raw_motion;
  const size_t bones = size_t(std::max(raw.bone_count, 0)), t_bones = size_t(std::max(t.bone_count, 0));
  EncodeSettings floats;
  floats.tolerance = floats.relative_tolerance = 1e-5f;
  // Translations within 1e-5 of the model's size (the template's box), as docs/fidelity.md
  // bounds raw motion: float noise of a parent's scale, times a child's offset, stays below it.
  float size = 1;
  for (int k = 0; k < 3; ++k) size = std::max({size, std::abs(t.bbox_min[size_t(k)]), std::abs(t.bbox_max[size_t(k)])});
  bool all = bones == t_bones && raw.matrices.size() == t.matrices.size();
  for (size_t i = 0; i < raw.matrices.size(); ++i) {
    const size_t f = i / bones, b = i % bones;
    const size_t j = f * t_bones + b;
    TransformTRS old, old_round_trip;
    bool close = b < t_bones && j < t.matrices.size() && detail::KeyAt(decoded, b, f, old);
    if (close) {
      const int k = in.track_of_bone[b];
      const TransformTRS& x = k >= 0 ? in.s.pose[f][size_t(k)] : in.RestOf(int(b));
      // What the template itself exports, when known; else its pose and that pose through glTF.
      close = in.exported ? in.ExportedAt(f, int(b), old_round_trip) && Within(x, old_round_trip, floats, size)
                          : Within(x, old, floats, size) || (detail::KeyAt(round_trip, b, f, old_round_trip) &&
                                                             Within(x, old_round_trip, floats, size));
    }
    if (close) raw.matrices[i] = t.matrices[j];
    all = all && close;
  }
  return all;
}

// The template's pose at every frame: its channels (after expressions; the fit's Euler
// reference) and each joint's local transform as the decoder gives it (the evaluated pose
// relative to the parent, per axis), with the joints a constraint, IK or expression drives.
struct TemplatePose {
  std::vector<std::vector<ChannelValues>> channels;  // [frame][joint]
  std::vector<std::vector<TransformTRS>> locals;     // [frame][joint]
  std::vector<bool> driven;                          // [joint]
  // The locals as a glTF round trip gives them back ([frame][joint], the frames both have):
  // an unedited clip that came through glTF equals these (kh2_encode_round_trip.hpp).
  std::vector<std::vector<TransformTRS>> round_trip;
};

TemplatePose TemplatePoses(const InterpolatedMotion& t, const BoneSamples& in, const std::vector<float>& frame_times) {
  const Clip& clip = in.clip;
  const std::vector<ChannelValues> rest =
      RestChannels(in.skeleton, clip.metadata.contains(metadata_keys::kRest) ? clip.metadata : Value::object());
  const EvaluationPlan plan = detail::PlanFor(t, in.skeleton, rest, EvaluationSettings{});
  TemplatePose pose;
  pose.driven = plan.driven;
  if (!in.exported) pose.round_trip = detail::RoundTrippedLocals(t, in.skeleton, rest, in.s.frames);
  pose.channels.resize(in.s.frames);
  pose.locals.resize(in.s.frames);
  std::vector<TransformTRS> model(plan.joint_count());
  for (size_t f = 0; f < in.s.frames; ++f) {
    pose.channels[f].resize(plan.joint_count());
    PoseJob{&t, &plan, frame_times[f], pose.channels[f], model}.Run();
    pose.locals[f].resize(plan.joint_count());
    for (size_t j = 0; j < plan.joint_count(); ++j) {
      const int p = plan.parents[j];
      pose.locals[f][j] = p >= 0 ? RelativePerAxis(model[size_t(p)], model[j]) : model[j];
    }
  }
  return pose;
}

// Which bones the clip changed (without a template: every bone it animates). Joints the
// template drives are never refit (the game sets their pose, not their curves): a change
// to one is reported in warnings, naming what drives it.
std::vector<bool> ChangedBones(const BoneSamples& in, const TemplatePose* reference, const InterpolatedMotion* t_im,
                               const EncodeSettings& settings, std::vector<std::string>& warnings) {
  const Sampled& s = in.s;
  std::vector<bool> changed(size_t(in.bones), false);
  for (int b = 0; b < in.bones; ++b) {
    const int t = in.track_of_bone[size_t(b)];
    if (t < 0) continue;
    if (!reference) {
      changed[size_t(b)] = true;
      continue;
    }
    // Unedited: what the template itself gives in the clip's format, when known; else the
    // template's evaluated pose, or that pose as a glTF round trip gives it back.
    auto same = [&](size_t f) {
      const TransformTRS& x = s.pose[f][size_t(t)];
      TransformTRS exported;
      if (in.exported) return in.ExportedAt(f, b, exported) && Within(x, exported, settings);
      return Within(x, reference->locals[f][size_t(b)], settings) ||
             (f < reference->round_trip.size() && size_t(b) < reference->round_trip[f].size() &&
              Within(x, reference->round_trip[f][size_t(b)], settings));
    };
    size_t f = 0;
    while (f < s.frames && same(f)) ++f;
    if (f == s.frames) continue;
    if (size_t(b) < reference->driven.size() && reference->driven[size_t(b)]) {
      warnings.push_back("joint " + in.clip.tracks[size_t(t)].joint + " differs from the template's pose at frame " +
                         std::to_string(f) + ", but " + detail::DrivenBy(*t_im, b, in.skeleton) +
                         " sets it in the game: its curves are kept and the edit is not carried");
      continue;
    }
    changed[size_t(b)] = true;
  }
  return changed;
}

// The interpolated motion's fields other than curves and keys: the template's (its IK
// helpers, constraints, limits, expressions, joints, loop frame...), its timing replaced
// when the clip's length differs; without a template, the clip's.
void StartInterpolated(InterpolatedMotion& im, const InterpolatedMotion* templ, bool same_length, const BoneSamples& in,
                       double start) {
  const Sampled& s = in.s;
  const float end = static_cast<float>(start + double(s.frames - 1));
  const int32_t engine_frames = static_cast<int32_t>(std::lround(double(s.frames - 1) * kEngineRate / s.rate));
  if (templ) {
    im = *templ;
    im.initial_pose.clear(), im.forward.clear(), im.inverse.clear(), im.keys.clear();
    im.key_times.clear(), im.values.clear(), im.tangents.clear();
    if (!same_length) {
      im.frame_end = end;
      im.frame_count = end;
      im.fps = static_cast<float>(s.rate);
      im.total_frames = engine_frames;
    }
  } else {
    const int bones = in.bones;
    im.bone_count = static_cast<int16_t>(bones);
    im.fps = static_cast<float>(s.rate);
    im.frame_end = end;
    im.frame_count = end;
    im.total_frames = engine_frames;
    im.frame_loop = static_cast<float>(start);  // the frame start a KH2 source recorded
    for (int j = 0; j <= bones; ++j) im.joints.push_back({static_cast<int16_t>(j < bones ? j : 0), 0});
  }
}

// An interpolated motion's curves being fitted: its tables, the frames' times, and what
// the fit needed.
struct Fitting {
  InterpolatedMotion& im;
  Tables tables;
  const EncodeSettings& settings;  // the tolerance of this attempt
  std::vector<float> frame_times;  // engine time of each frame
  std::vector<double> times;       // the same, as the fit reads them
  float tol_used = 0;
  size_t keys_needed = 0;
};

// Channel c of bone b (`joint` among its curves), its value at every frame in series:
// an initial pose value when it stays within its tolerance, else a curve of hermite keys.
void FitChannel(Fitting& fit, int b, int c, int16_t joint, const std::vector<float>& series, std::vector<Curve>& curves) {
  InterpolatedMotion& im = fit.im;
  Tables& tables = fit.tables;
  const EncodeSettings& settings = fit.settings;
  const std::vector<float>& frame_times = fit.frame_times;
  float mn = series[0], mx = mn;
  for (size_t f = 0; f < series.size(); ++f) {
    mn = std::min(mn, series[f]);
    mx = std::max(mx, series[f]);
  }
  const double base_tol = ChannelTolerance(c, series, settings);
  if (mx - mn <= base_tol) {
    // Constant: an initial pose value (the middle of the range: within tol/2 everywhere).
    const float mid = mn == mx ? mn : static_cast<float>((double(mn) + mx) / 2);
    im.initial_pose.push_back({static_cast<int16_t>(b), static_cast<int16_t>(c), mid});
    return;
  }
  double tol = base_tol;
  std::vector<FittedKey> fitted = FitHermite(fit.times, series, tol);
  // A curve holds at most 255 keys: loosen the tolerance until it fits. Once the
  // tolerance covers the whole range, the middle value is within it everywhere (and
  // the loop ends even where no tangent is finite, as on values near float's limit).
  bool constant = false;
  while (fitted.size() > 255) {
    tol *= 2;
    if (!(tol < double(mx) - double(mn))) {
      constant = true;
      break;
    }
    fitted = FitHermite(fit.times, series, tol);
  }
  if (IsRotation(c)) fit.tol_used = std::max(fit.tol_used, float(tol));
  else fit.tol_used = std::max(fit.tol_used, float(tol / base_tol * settings.tolerance));
  if (constant) {
    im.initial_pose.push_back({static_cast<int16_t>(b), static_cast<int16_t>(c),
                               static_cast<float>((double(mn) + mx) / 2)});
    return;
  }
  fit.keys_needed += fitted.size();
  Curve curve;
  curve.joint = joint;
  curve.packed = static_cast<uint8_t>(c);  // clamp before and after
  curve.key_count = static_cast<uint8_t>(fitted.size());
  curve.first_key = static_cast<uint16_t>(std::min(im.keys.size(), kMaxKeys));
  for (size_t k = 0; k < fitted.size(); ++k) {
    Key key;
    const bool last = k + 1 == fitted.size();
    key.packed = static_cast<uint16_t>((tables.Time(frame_times[fitted[k].frame]) << 2) |
                                       uint16_t(last ? KeyType::Constant : KeyType::Hermite));
    key.value = tables.Value(series[fitted[k].frame]);
    key.in_tangent = k > 0 ? tables.Tangent(fitted[k].in_tangent) : 0;
    key.out_tangent = last ? 0 : tables.Tangent(fitted[k].out_tangent);
    im.keys.push_back(key);
  }
  curves.push_back(curve);
}

// The curves of every bone: the template's own for the bones the clip left unchanged,
// fitted for the others.
void FitBones(Fitting& fit, const BoneSamples& in, const std::vector<bool>& changed, const TemplatePose* reference,
              const InterpolatedMotion* t_im, Bounds& box) {
  InterpolatedMotion& im = fit.im;
  const Sampled& s = in.s;
  const int model_bones = im.bone_count;
  std::vector<float> series(s.frames);
  for (int b = 0; b < in.bones; ++b) {
    const bool helper = b >= model_bones;
    std::vector<Curve>& curves = helper ? im.inverse : im.forward;
    const int16_t joint = static_cast<int16_t>(helper ? b - model_bones : b);
    if (!changed[size_t(b)]) {
      if (!t_im) continue;
      for (const InitialPose& p : t_im->initial_pose)
        if (p.bone == b) im.initial_pose.push_back(p);
      for (const Curve& c : helper ? t_im->inverse : t_im->forward)
        if (c.joint == joint) curves.push_back(CopyCurve(*t_im, c, im, fit.tables));
      continue;
    }
    const int t = in.track_of_bone[size_t(b)];
    std::vector<ChannelValues> ch(s.frames);
    ChannelValues predicted{};
    for (size_t f = 0; f < s.frames; ++f) {
      // Without a template: continue from the previous frames (their linear extrapolation).
      if (!t_im && f >= 2)
        for (size_t k = 0; k < predicted.size(); ++k) predicted[k] = 2 * ch[f - 1][k] - ch[f - 2][k];
      else if (!t_im && f == 1)
        predicted = ch[0];
      const ChannelValues* ref = t_im ? &reference->channels[f][size_t(b)] : f ? &predicted : nullptr;
      ch[f] = Channels(s.pose[f][size_t(t)], ref);
      if (!helper) box.Grow(s.pose[f][size_t(t)].translation);
    }
    for (int c = 0; c < kChannelCount; ++c) {
      for (size_t f = 0; f < s.frames; ++f) series[f] = ch[f][size_t(c)];
      FitChannel(fit, b, c, joint, series, curves);
    }
  }
}

// An interpolated motion: curves fitted to the clip's channels, or, with an interpolated
// template, the template with only the bones the clip changed fitted anew (the template
// itself when none changed).
Motion EncodeInterpolated(Motion m, const BoneSamples& in, const EncodeSettings& settings, const Motion* templ,
                          Bounds& box, EncodeReport& rep) {
  const Sampled& s = in.s;
  InterpolatedMotion& im = m.interpolated;
  const InterpolatedMotion* t_im = templ ? &templ->interpolated : nullptr;
  // The played frames start at the template's frame start (else the source's, kept in its metadata).
  const double start = t_im ? detail::FramesPlayed(*t_im).start : SourceStart(in.clip);
  std::vector<float> frame_times(s.frames);
  for (size_t f = 0; f < s.frames; ++f) frame_times[f] = static_cast<float>((start + double(f)) * kEngineRate / s.rate);
  TemplatePose reference;
  if (t_im) reference = TemplatePoses(*t_im, in, frame_times);
  const std::vector<bool> changed = ChangedBones(in, t_im ? &reference : nullptr, t_im, settings, rep.warnings);
  const bool same_length = t_im && TemplateFrames(*t_im) == s.frames && std::abs(t_im->fps - s.rate) < 1e-6;
  if (t_im && same_length && std::none_of(changed.begin(), changed.end(), [](bool c) { return c; })) {
    rep.unchanged = true;
    rep.keys = t_im->keys.size();
    return *templ;  // nothing moved beyond the tolerance: the template's own motion
  }
  // Fitted within the tolerance asked; where the keys, values, tangents or key times
  // outgrow the motion's tables, fitted again with the tolerance doubled (reported).
  EncodeSettings current = settings;
  const Bounds start_box = box;
  for (int attempt = 0;; ++attempt) {
    box = start_box;
    im = InterpolatedMotion{};
    StartInterpolated(im, t_im, same_length, in, start);
    Fitting fit{im, Tables(im), current, frame_times, std::vector<double>(frame_times.begin(), frame_times.end()),
                current.tolerance};
    FitBones(fit, in, changed, t_im ? &reference : nullptr, t_im, box);
    if (!fit.tables.full() && im.keys.size() <= kMaxKeys) {
      rep.fitted_keys = fit.keys_needed;
      rep.tolerance_used = fit.tol_used;
      break;
    }
    if (attempt >= 64)
      throw Error::General("the motion's kept curves alone outgrow its tables (" + std::to_string(im.keys.size()) +
                           " keys, " + std::to_string(im.values.size()) + " values, " +
                           std::to_string(im.tangents.size()) + " tangents)");
    current.tolerance *= 2;
    current.relative_tolerance *= 2;
    rep.table_tolerance = current.tolerance;
  }
  std::stable_sort(im.initial_pose.begin(), im.initial_pose.end(),
                   [](const InitialPose& a, const InitialPose& b) { return a.bone < b.bone; });
  if (!t_im || !box.first) {
    box.GrowBySourceBox(in.clip);
    im.bbox_min = box.lo;
    im.bbox_max = box.hi;
  }
  rep.curves = im.forward.size() + im.inverse.size();
  rep.keys = im.keys.size();
  rep.initial_pose = im.initial_pose.size();
  LayoutMotion(m);
  return m;
}

// The encoder proper, on a clip of per-axis locals.
Motion EncodePerAxis(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, EncodeReport* report,
                     const Motion* templ, const Clip* template_as_input) {
  const Sampled s = SampleClip(clip, skeleton);
  std::optional<Sampled> exported;
  if (templ && template_as_input) exported = SampleClip(*template_as_input, skeleton);
  EncodeReport rep;
  for (int b : s.bone_of_track) rep.skipped_tracks += b < 0 ? 1 : 0;
  const bool interpolated_template = templ && !templ->raw && !templ->placeholder;
  Motion m;
  // Raw or interpolated: the template's, else --raw or the source's (its metadata, kept in glTF extras).
  m.raw = templ && !templ->placeholder ? templ->raw : settings.raw || clip.metadata.value(metadata_keys::kMotionType, "") == "raw";
  if (templ && !templ->placeholder) m.header = templ->header;
  const int bones = interpolated_template ? templ->interpolated.total_bone_count
                    : templ && templ->raw ? std::max(s.bones, templ->raw_motion.bone_count)
                                          : s.bones;
  rep.bones = size_t(bones);
  EncodeReport ignored;  // the template's tracks no bone takes are not the clip's
  const BoneSamples in{clip, skeleton, s, bones, TrackOfBone(s, bones, rep), exported ? &*exported : nullptr,
                       exported ? TrackOfBone(*exported, bones, ignored) : std::vector<int>{}};
  Bounds box;
  if (m.raw) {
    EncodeRaw(in, templ, m, box);
    if (templ && templ->raw && KeepTemplateMatrices(m.raw_motion, *templ, in)) {
      rep.unchanged = true;
      m = *templ;  // every matrix within float rounding of the template's: its own motion
    } else {
      LayoutMotion(m);
    }
  } else {
    m = EncodeInterpolated(std::move(m), in, settings, interpolated_template ? templ : nullptr, box, rep);
  }
  if (report) *report = rep;
  return m;
}

}  // namespace

Motion EncodeMotion(const Clip& clip, const Skeleton& skeleton, const EncodeSettings& settings, EncodeReport* report,
                    const Motion* templ, const Clip* template_as_input) {
  // The clip's local tracks are read as the game's per-axis locals (what DecodeMotion
  // writes): a clip of the matrix rule is converted here, the one place the raw and the
  // interpolated encoder read them (the exported template alike, to compare the two).
  auto per_axis = [&](const Clip& c, std::optional<Clip>& converted) -> const Clip& {
    if (c.scale_inheritance == ScaleInheritance::PerAxis || c.space != Space::Local) return c;
    converted = c;
    ConvertScaleInheritance(skeleton, *converted, ScaleInheritance::PerAxis);
    return *converted;
  };
  std::optional<Clip> converted, exported;
  const Clip& in = per_axis(clip, converted);
  const Clip* templ_in = template_as_input && templ ? &per_axis(*template_as_input, exported) : nullptr;
  return EncodePerAxis(in, skeleton, settings, report, templ, templ_in);
}

}  // namespace animkit::kh2
