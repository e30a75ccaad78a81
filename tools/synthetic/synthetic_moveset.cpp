// A KH2 moveset of real size (tools/synthetic/synthetic/synthetic_moveset.hpp).
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/offline/sampling.hpp>
#include <synthetic/synthetic.hpp>
#include <synthetic/synthetic_moveset.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>

namespace animkit {

namespace {

constexpr float kTwoPi = 2 * std::numbers::pi_v<float>;

// How one joint moves in one clip: at rest, held at an offset, or swinging.
struct JointMotion {
  enum Kind { Rest, Held, Swing } kind = Rest;
  Vec3 offset{};      // Euler radians added to the rest rotation (Held, and Swing's centre)
  Vec3 amplitude{};   // Euler radians per axis (0: that axis stays)
  Vec3 cycles{};      // whole periods over the clip per axis
  Vec3 phase{};
};

JointMotion PickMotion(Lcg& rng, const MovesetSpec& spec) {
  JointMotion m;
  const float r = rng.Next();
  if (r >= spec.moving_fraction + spec.held_fraction) return m;
  m.offset = {0.4f * (rng.Next() - 0.5f), 0.4f * (rng.Next() - 0.5f), 0.4f * (rng.Next() - 0.5f)};
  if (r >= spec.moving_fraction) {
    m.kind = JointMotion::Held;
    return m;
  }
  m.kind = JointMotion::Swing;
  const int axes = 1 + rng.Below(3);  // one to three of the Euler channels move
  const int first = rng.Below(3);
  for (int k = 0; k < axes; ++k) {
    const int axis = (first + k) % 3;
    float* amp = axis == 0 ? &m.amplitude.x : axis == 1 ? &m.amplitude.y : &m.amplitude.z;
    float* cyc = axis == 0 ? &m.cycles.x : axis == 1 ? &m.cycles.y : &m.cycles.z;
    float* ph = axis == 0 ? &m.phase.x : axis == 1 ? &m.phase.y : &m.phase.z;
    *amp = 0.1f + 0.4f * rng.Next();
    *cyc = rng.Next() < 0.8f ? 1.0f : 2.0f;
    *ph = kTwoPi * rng.Next();
  }
  return m;
}

Vec3 SwingAt(const JointMotion& m, float u) {  // u in [0, 1] over the clip
  auto one = [&](float a, float c, float p) { return a == 0 ? 0.0f : a * std::sin(kTwoPi * c * u + p); };
  return m.offset + Vec3{one(m.amplitude.x, m.cycles.x, m.phase.x), one(m.amplitude.y, m.cycles.y, m.phase.y),
                         one(m.amplitude.z, m.cycles.z, m.phase.z)};
}

// Frame triggers and range triggers as the KH2 decoder names them (params[0]: the id).
void AddEvents(Clip& clip, Lcg& rng, const MovesetSpec& spec) {
  const int count = spec.events_per_clip / 2 + rng.Below(spec.events_per_clip + 1);
  const double last = static_cast<double>(clip.frame_count > 1 ? clip.frame_count - 1 : 1);
  for (int e = 0; e < count; ++e) {
    const double frame = std::floor(rng.Next() * last);
    const Seconds time = static_cast<Seconds>(frame / clip.frame_rate);
    if (e % 4 == 3) {
      const int id = 1 + rng.Below(3);
      const double end = std::min(last, frame + 5);
      clip.events.push_back({time, kh2::TriggerEventName(true, id), {double(id), end}, static_cast<Seconds>(end / clip.frame_rate)});
    } else {
      const int id = rng.Below(8);
      clip.events.push_back({time, kh2::TriggerEventName(false, id), {double(id), double(rng.Below(4))}, std::nullopt});
    }
  }
}

}  // namespace

Skeleton MovesetSkeleton(const MovesetSpec& spec) {
  return SyntheticSkeleton(SyntheticSpec{.joints = spec.joints, .translation_scale = 8, .seed = spec.seed});
}

Clip MovesetClip(const Skeleton& skeleton, const MovesetSpec& spec, int index) {
  Lcg rng{(spec.seed * 2654435761u) ^ (static_cast<uint32_t>(index) * 40503u + 7)};
  Clip clip;
  char name[16];
  std::snprintf(name, sizeof name, "A%03d", index);
  clip.name = name;
  const size_t frames = spec.min_frames + static_cast<size_t>(rng.Below(int(spec.max_frames - spec.min_frames + 1)));
  clip.SetFrames(frames, spec.frame_rate);
  clip.loop = index % 3 == 0;
  const float last = static_cast<float>(frames > 1 ? frames - 1 : 1);
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    const Joint& joint = skeleton.joints[j];
    const JointMotion m = PickMotion(rng, spec);
    const bool root = j == 0;
    const bool scaled = !root && m.kind == JointMotion::Swing && rng.Next() < spec.scaled_fraction;
    if (m.kind == JointMotion::Rest && !root) continue;  // no track: the joint keeps its rest pose
    JointTrack t;
    t.joint = NumberedJointName(j);
    const Vec3 rest_euler = EulerFromQuat(joint.rest.rotation, EulerOrder::XYZ);
    for (size_t f = 0; f < frames; ++f) {
      const Seconds time = FrameTime(f, spec.frame_rate);
      const float u = static_cast<float>(f) / last;
      t.rotation.Add(time, QuatFromEuler(rest_euler + SwingAt(m, u), EulerOrder::XYZ));
      Vec3 p = joint.rest.translation;
      if (root) p = p + Vec3{0, 4 * std::sin(2 * kTwoPi * u), 30 * u};  // bob and walk forward
      t.translation.Add(time, p);
      const float s = scaled ? 1 + 0.15f * std::sin(kTwoPi * u) : 1.0f;
      t.scale.Add(time, joint.rest.scale * s);
    }
    clip.tracks.push_back(std::move(t));
  }
  AddEvents(clip, rng, spec);
  return clip;
}

Bytes Kh2MovesetBytes(const Skeleton& skeleton, const MovesetSpec& spec) {
  kh2::Bar mset;
  kh2::EncodeSettings settings;  // the encoder's defaults: what a modder's export writes
  for (int c = 0; c < spec.clips; ++c) {
    const Clip clip = MovesetClip(skeleton, spec, c);
    kh2::BarEntry e;
    e.type = kh2::kEntryAnb;
    std::memcpy(e.name.data(), clip.name.data(), 4);
    e.bar = std::make_shared<kh2::Bar>(kh2::EncodeAnb(clip, skeleton, settings));
    mset.entries.push_back(std::move(e));
  }
  kh2::LayoutBar(mset);
  return kh2::SerializeBar(mset);
}

Bytes Kh2SkeletonModelBytes(const Skeleton& skeleton) {
  kh2::Bar bar;
  kh2::BarEntry e;
  e.type = kh2::kEntryModel;
  std::memcpy(e.name.data(), "mset", 4);
  e.model = std::make_shared<kh2::Model>(kh2::ParseModel(kh2::WriteNewModelEntry(kh2::BonesFromSkeleton(skeleton), {})));
  bar.entries.push_back(std::move(e));
  kh2::LayoutBar(bar);
  return kh2::SerializeBar(bar);
}

}  // namespace animkit
