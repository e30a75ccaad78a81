// KH2 decoding: curve evaluation, motion -> Clip, triggers -> events, model -> Skeleton.
#include "formats/kh2/kh2_internal.hpp"

#include <map>
#include <set>

#include <animkit/offline/sampling.hpp>

#include <cmath>
#include <string>

namespace animkit::kh2 {
namespace {

// The "Trigger" column of the community tables of trigger ids, word for word
// (docs/formats/kh2.md).
constexpr std::string_view kRangeNames[] = {
    "STATE: Grounded",
    "STATE: Air",
    "STATE: Blend to idle",
    "STATE: No gravity",
    "Enable collision",
    "Disable collision",
    "Enable conditional RC",
    "Disable conditional RC",
    "(Prints “using NO_DAMAGE_REACTION attribute”) (UNUSED?)",
    "STATE: Jump/Land",
    "Attack hitbox",
    "STATE: Allow combo",
    "STATE: Weapon swing (Display trail)",
    "STATE: <unknown>",
    "STATE: Allow RC",
    "STATE: <unknown> (UNUSED?)",
    "AI: Special movement",
    "AI: <unknown> (AI combo 1)",
    "AI: <unknown> (AI combo 2)",
    "AI: Disable invincibility",
    "Reaction Command (Self)",
    "STATE: <unknown>",
    "ACTION: Turn to target",
    "Texture animation",
    "STATE: No gravity, keep kinetics",
    "STATE: AnmatrCommand (Reaction command on other object)",
    "STATE: AnmatrCommand 2",
    "STATE: Hitbox off (Can’t be hit)",
    "ACTION: Turn to lock",
    "STATE: Can’t leave ground",
    "STATE: <unknown> (Freeze animation? Immovable?)",
    "STATE: <unknown>",
    "STATE: <unknown>",
    "Attack hitbox (Combo)",
    "STATE: <unknown>",
    "STATE: Allow combo (Magic)",
    "Pattern enable",
    "Pattern disable",
    "STATE: Allow drop from on top",
    "STATE: <unknown>",
    "STATE: <unknown>",
    "STATE: Allow movement",
    "PHYSICS: Keep momentum & restrict movement",
    "<NOT CODED>",
    "PHYSICS: Immovable by friction",
    "ACTION: <unknown>",
    "ACTION: <unknown>",
    "ACTION: Rotate towards movement direction",
    "<NOT CODED>",
    "ACTION: Maintain motion on ground leave",
    "ACTION: Allow combo finisher",
    "Play singleton sound effect",
    "ACTION: Stop actions",
    "ACTION: <unknown>"};
constexpr std::string_view kFrameNames[] = {
    "Action: Jump",
    "Trigger effect caster (APDX)",
    "Play footstep sound",
    "Action: Jump (Dusk) (animation in slot 628)",
    "Texture animation start",
    "Texture animation stop (UNUSED?)",
    "Use item",
    "Game effect (Effects more complex than particle effects)",
    "Play sound effect (APDX)",
    "VariousTrigger 1",
    "VariousTrigger 2",
    "VariousTrigger 4",
    "VariousTrigger 8",
    "Play vsb voice",
    "Play vsb voice",
    "Turn to Target",
    "<unknown> (DisableCommandTime)",
    "Magic cast",
    "<NOT CODED>",
    "Apply footstep effect (Footprint, water splashes…)",
    "<NOT CODED>",
    "Turn to lock on",
    "Make the weapon appear",
    "Fade start (Opacity decrease)",
    "Fade start (Opacity increase)",
    "Calls a function from the entity’s pvTable",
    "Set mesh color to 0x808080",
    "Reset mesh color",
    "Revenge check",
    "Make the weapon appear with effect",
    "LIMIT: PlayVoice (UNUSED?)",
    "Trigger vibration",
    "<NOT CODED>",
    "<NOT CODED>",
    "Quick run check",
    "Transition to fall if on air"};


}  // namespace

std::string_view RangeTriggerName(int id) {
  return id >= 0 && size_t(id) < std::size(kRangeNames) ? kRangeNames[id] : std::string_view{};
}
std::string_view FrameTriggerName(int id) {
  return id >= 0 && size_t(id) < std::size(kFrameNames) ? kFrameNames[id] : std::string_view{};
}

// ---------------------------------------------------------------------------
// Curves

namespace {

struct CurveKeys {
  const InterpolatedMotion& m;
  const Key* keys;
  int n;
  double T(int i) const { return m.key_times[size_t(keys[i].time_index())]; }
  double V(int i) const { return m.values[size_t(keys[i].value)]; }

  // Inside [T(0), T(n-1)].
  double Inside(double t) const {
    int lo = 0, hi = n - 1;  // last i with T(i) <= t, by bisection (bounded even on unsorted times)
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (T(mid) <= t) lo = mid;
      else hi = mid - 1;
    }
    const int i = lo;
    if (i >= n - 1) return V(n - 1);
    const double t0 = T(i), t1 = T(i + 1), d = t1 - t0;
    if (!(d > 0)) return V(i);
    const double u = (t - t0) / d;
    switch (keys[i].type()) {
      case KeyType::Constant: return V(i);
      case KeyType::Linear: return V(i) + (V(i + 1) - V(i)) * u;
      case KeyType::Hermite: {
        const double m0 = d * m.tangents[size_t(keys[i].out_tangent)];
        const double m1 = d * m.tangents[size_t(keys[i + 1].in_tangent)];
        const double u2 = u * u, u3 = u2 * u;
        return (2 * u3 - 3 * u2 + 1) * V(i) + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * V(i + 1) +
               (u3 - u2) * m1;
      }
      case KeyType::Zero: return 0;
    }
    return V(i);
  }
};

}  // namespace

float EvaluateCurve(const InterpolatedMotion& m, const Curve& c, float time) {
  if (c.key_count == 0) return 0;
  CurveKeys k{m, &m.keys[size_t(c.first_key)], c.key_count};
  const double t = time;
  if (k.n == 1) return static_cast<float>(k.V(0));
  const double t0 = k.T(0), tn = k.T(k.n - 1);
  if (t >= t0 && t <= tn) return static_cast<float>(k.Inside(t));
  const CycleType cycle = t < t0 ? c.pre() : c.post();
  const double period = tn - t0;
  if (cycle == CycleType::Zero) return 0;
  if (cycle == CycleType::Clamp || !(period > 0) || !std::isfinite(t))
    return static_cast<float>(t < t0 ? k.V(0) : k.V(k.n - 1));
  const double cycles = std::floor((t - t0) / period);
  double local = t - cycles * period;
  local = std::min(std::max(local, t0), tn);
  double v = k.Inside(local);
  if (cycle == CycleType::Offset) v += cycles * (k.V(k.n - 1) - k.V(0));
  return static_cast<float>(v);
}

void EvaluatePose(const InterpolatedMotion& m, float t, const std::vector<ChannelValues>& rest,
                  std::vector<ChannelValues>& out) {
  out.resize(size_t(std::max<int>(m.total_bone_count, 0)));
  EvaluatePose(m, t, std::span<const ChannelValues>(rest), std::span<ChannelValues>(out));
}

TransformTRS TransformFromChannels(const ChannelValues& c) {
  TransformTRS x;
  x.scale = {c[0], c[1], c[2]};
  x.rotation = QuatFromEuler({c[3], c[4], c[5]}, EulerOrder::XYZ);
  x.translation = {c[6], c[7], c[8]};
  return x;
}

ChannelValues ChannelsFromBone(const BoneRecord& b) {
  return {b.scale[0],       b.scale[1],       b.scale[2],       b.rotation[0],   b.rotation[1],
          b.rotation[2],    b.translation[0], b.translation[1], b.translation[2]};
}

// ---------------------------------------------------------------------------
// Skeleton

Skeleton SkeletonFromModel(const Model& model) {
  Skeleton s;
  const int n = static_cast<int>(model.bones.size());
  for (int i = 0; i < n; ++i) {
    const BoneRecord& b = model.bones[size_t(i)];
    Joint j;
    j.name = NumberedJointName(static_cast<uint64_t>(i));
    j.parent = (b.parent >= 0 && b.parent < n && b.parent != i) ? b.parent : -1;
    j.rest = TransformFromChannels(ChannelsFromBone(b));
    s.joints.push_back(std::move(j));
  }
  return s;
}

std::vector<ChannelValues> RestChannels(const Skeleton& skeleton, const Value& metadata) {
  std::vector<ChannelValues> rest;
  const auto it = metadata.find(metadata_keys::kRest);
  if (it != metadata.end() && it->is_array() && it->size() == skeleton.joints.size()) {
    for (const auto& row : *it) {
      ChannelValues c{};
      for (size_t k = 0; k < c.size() && k < row.size(); ++k) c[k] = row[k].get<float>();
      rest.push_back(c);
    }
    return rest;
  }
  for (const Joint& j : skeleton.joints) {
    const Vec3 e = EulerFromQuat(j.rest.rotation, EulerOrder::XYZ);
    rest.push_back({j.rest.scale.x, j.rest.scale.y, j.rest.scale.z, e.x, e.y, e.z, j.rest.translation.x,
                    j.rest.translation.y, j.rest.translation.z});
  }
  return rest;
}

// ---------------------------------------------------------------------------
// Motion -> Clip

namespace {


double CheckedRate(float fps) {
  if (!(std::isfinite(fps) && fps > 0 && fps <= 1000))
    throw Error::General("the motion's frames per second (" + std::to_string(fps) + ") is not in 0..1000");
  return fps;
}

// frames x joints samples, each a translation, rotation and scale key.
void CheckSize(uint64_t frames, uint64_t joints, const Limits& limits) {
  CheckLimit(frames, &Limits::max_frames, limits, "the motion's frame count");
  CheckLimit(joints, &Limits::max_joints, limits, "the motion's joint count");
  CheckLimit(frames * joints * 3, &Limits::max_values, limits, "the motion's keys (frames x joints x 3)");
}

std::string JointName(const Skeleton& skeleton, size_t i) {
  return i < skeleton.joints.size() ? skeleton.joints[i].name : NumberedJointName(i);
}

void PushKey(JointTrack& track, Seconds t, const TransformTRS& x) {
  track.translation.Add(t, x.translation);
  track.scale.Add(t, x.scale);
  QuatXYZW q = x.rotation;
  if (!track.rotation.values.empty() && Dot(track.rotation.values.back(), q) < 0) q = {-q.x, -q.y, -q.z, -q.w};
  track.rotation.Add(t, q);
}

Value Vec(const Vec4f& v) { return Value::array({v[0], v[1], v[2], v[3]}); }

// The header fields raw and interpolated motions share, as clip metadata.
template <class Header>
Value HeaderMetadata(const Header& h) {
  return {{metadata_keys::kBoneCount, h.bone_count}, {metadata_keys::kTotalFrames, h.total_frames},
          {metadata_keys::kFps, h.fps},              {metadata_keys::kFrameLoop, h.frame_loop},
          {metadata_keys::kFrameEnd, h.frame_end},   {metadata_keys::kBboxMin, Vec(h.bbox_min)},
          {metadata_keys::kBboxMax, Vec(h.bbox_max)}};
}

// Raw: model matrices, or with a skeleton each bone relative to its parent by the game's
// per-axis rule (the baked matrices are the game's model space, composed per axis).
void DecodeRaw(const RawMotion& raw, const Skeleton& skeleton, const DecodeSettings& settings, Clip& clip) {
  const double rate = CheckedRate(raw.fps);
  const size_t bones = size_t(raw.bone_count), frames = size_t(raw.total_frames);
  CheckSize(frames, bones, settings.limits);
  clip.SetFrames(frames, rate);
  const bool local = settings.raw_space == RawSpace::Local ||
                     (settings.raw_space == RawSpace::Auto && bones > 0 && skeleton.joints.size() >= bones);
  clip.space = local ? Space::Local : Space::Model;
  clip.scale_inheritance = ScaleInheritance::PerAxis;
  clip.metadata.update(HeaderMetadata(raw));
  clip.metadata.update(
      {{metadata_keys::kFramesPerLoop, raw.frames_per_loop}, {metadata_keys::kFrameReturn, raw.frame_return}});
  clip.tracks.resize(bones);
  for (size_t b = 0; b < bones; ++b) {
    clip.tracks[b].joint = JointName(skeleton, b);
    clip.tracks[b].translation.interpolation = clip.tracks[b].rotation.interpolation =
        clip.tracks[b].scale.interpolation = Interpolation::Linear;
  }
  std::vector<TransformTRS> model(bones);
  for (size_t f = 0; f < frames; ++f) {
    for (size_t b = 0; b < bones; ++b) {
      const auto& src = raw.matrices[f * bones + b];
      Mat4 m;
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) m.m[c][r] = src[size_t(c * 4 + r)];
      model[b] = DecomposeTRS(m);
    }
    for (size_t b = 0; b < bones; ++b) {
      const int p = local ? skeleton.joints[b].parent : -1;
      const bool relative = p >= 0 && size_t(p) < bones;
      PushKey(clip.tracks[b], FrameTime(f, rate), relative ? RelativePerAxis(model[size_t(p)], model[b]) : model[b]);
    }
  }
}

// Interpolated: the played frames (frame start to frame end), each joint's local transform
// relative to its parent as the game composes them (RelativePerAxis of the evaluated model
// pose); with the evaluation off, the curves' channels themselves.
void DecodeInterpolated(const InterpolatedMotion& im, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                        const DecodeSettings& settings, Clip& clip) {
  const double rate = CheckedRate(im.fps);
  const detail::PlayedFrames played = detail::FramesPlayed(im, settings.limits);
  const size_t frames = played.count;
  const size_t joints = size_t(std::max<int>(im.total_bone_count, 0));
  CheckSize(frames, joints, settings.limits);
  clip.SetFrames(frames, rate);
  clip.space = Space::Local;
  clip.scale_inheritance = ScaleInheritance::PerAxis;
  clip.metadata.update(HeaderMetadata(im));
  clip.metadata.update({{metadata_keys::kTotalBoneCount, im.total_bone_count},
                        {metadata_keys::kFrameCount, im.frame_count},
                        {metadata_keys::kConstraintCount, im.constraints.size()},
                        {metadata_keys::kExpressionCount, im.expressions.size()},
                        {metadata_keys::kLimiterCount, im.limiters.size()}});
  if (!im.ik_helpers.empty()) {  // joints glTF shows as bones: flagged so that a conversion back can tell
    Value helpers = Value::array();
    for (size_t k = 0; k < im.ik_helpers.size(); ++k)
      helpers.push_back(JointName(skeleton, size_t(std::max<int>(im.bone_count, 0)) + k));
    clip.metadata[metadata_keys::kIkHelpers] = helpers;
  }
  const EvaluationPlan plan = detail::PlanFor(im, skeleton, rest, settings.evaluation);
  clip.tracks.resize(joints);
  for (size_t j = 0; j < joints; ++j) {
    clip.tracks[j].joint = JointName(skeleton, j);
    clip.tracks[j].translation.times.reserve(frames);
  }
  std::vector<ChannelValues> channels(joints);
  std::vector<TransformTRS> model(joints);
  const bool evaluated = settings.evaluation.constraints;
  for (size_t f = 0; f < frames; ++f) {
    const float key_time = static_cast<float>(played.KeyTime(f, rate));
    PoseJob{&im, &plan, key_time, channels, model}.Run();
    const Seconds t = FrameTime(f, rate);
    for (size_t j = 0; j < joints; ++j) {
      const int p = plan.parents[j];
      const TransformTRS local = !evaluated ? TransformFromChannels(channels[j])
                                 : p >= 0   ? RelativePerAxis(model[size_t(p)], model[j])
                                            : model[j];
      PushKey(clip.tracks[j], t, local);
    }
  }
  if (settings.stored_keys && frames > 0) detail::UseStoredKeys(im, plan, played, rate, settings.rotation_tolerance, clip);
}

}  // namespace

namespace detail {

PlayedFrames FramesPlayed(const InterpolatedMotion& im, const Limits& limits) {
  double end = im.frame_end;
  if (!(std::isfinite(end) && end > 0)) end = double(im.total_frames) * double(im.fps) / kEngineRate;
  if (!(std::isfinite(end) && end >= 0)) end = 0;
  PlayedFrames played;
  const double start = im.frame_loop;
  played.start = std::isfinite(start) && start >= 0 && start <= end ? start : 0;
  played.count = CheckedFrameCount(end - played.start, 1.0, limits, "the motion's frames (frame start to frame end)");
  return played;
}

EvaluationPlan PlanFor(const InterpolatedMotion& im, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                       const EvaluationSettings& settings) {
  const size_t bones = size_t(std::max<int>(im.bone_count, 0));
  std::vector<ChannelValues> base(rest.begin(), rest.begin() + std::ptrdiff_t(std::min(rest.size(), bones)));
  base.resize(bones, {1, 1, 1, 0, 0, 0, 0, 0, 0});
  std::vector<int> parents(bones, -1);
  if (skeleton.joints.size() >= bones)
    for (size_t b = 0; b < bones; ++b) parents[b] = skeleton.joints[b].parent;
  for (const BoneRecord& h : im.ik_helpers) {
    base.push_back(ChannelsFromBone(h));
    parents.push_back(h.parent);
  }
  return PlanEvaluation(im, std::move(base), std::move(parents), settings);
}

}  // namespace detail

Clip DecodeMotion(const Motion& motion, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                  const DecodeSettings& settings) {
  Clip clip;
  clip.metadata[metadata_keys::kFormat] = "kh2";
  clip.metadata[metadata_keys::kMotionType] = motion.raw ? "raw" : "interpolated";
  clip.metadata[metadata_keys::kMotionFlag] = motion.header.flag;
  if (motion.raw) DecodeRaw(motion.raw_motion, skeleton, settings, clip);
  else DecodeInterpolated(motion.interpolated, skeleton, rest, settings, clip);
  return clip;
}

std::string TriggerEventName(bool range, int id) {
  const std::string_view name = range ? RangeTriggerName(id) : FrameTriggerName(id);
  return name.empty() ? "Trigger " + std::to_string(id) : std::string(name);
}

std::vector<Event> DecodeTriggers(const Triggers& triggers, double rate, Seconds duration) {
  std::vector<Event> events;
  // params: the trigger id, then (ranges) the stored end frame, then the trigger's own parameters.
  for (const RangeTrigger& r : triggers.ranges) {
    Event e;
    e.time = static_cast<Seconds>(r.start / rate);
    e.name = TriggerEventName(true, r.id);
    e.end_time = r.end == -1 ? std::max(duration, e.time) : static_cast<Seconds>(r.end / rate);
    e.params = {double(r.id), double(r.end)};
    e.params.insert(e.params.end(), r.params.begin(), r.params.end());
    events.push_back(std::move(e));
  }
  for (const FrameTrigger& f : triggers.frames) {
    Event e;
    e.time = static_cast<Seconds>(f.frame / rate);
    e.name = TriggerEventName(false, f.id);
    e.params = {double(f.id)};
    e.params.insert(e.params.end(), f.params.begin(), f.params.end());
    events.push_back(std::move(e));
  }
  return events;
}

}  // namespace animkit::kh2
