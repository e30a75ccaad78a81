// Root motion: VAdvanceView's per-frame deltas, and the split of the root's ground travel
// and turn into a joint above it.
#include <animkit/offline/root_motion.hpp>

#include <animkit/core/error.hpp>
#include <animkit/core/math.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>

namespace animkit {

namespace {

TransformTRS RestOf(const Skeleton* skeleton, const std::string& joint) {
  if (!skeleton) return {};
  const int j = skeleton->Find(joint);
  return j >= 0 ? skeleton->joints[static_cast<size_t>(j)].rest : TransformTRS{};
}

// The joint's local rotation and translation at time t (its rest where not keyed).
TransformTRS JointAt(const JointTrack* track, const TransformTRS& rest, Seconds t) {
  TransformTRS out = rest;
  if (!track) return out;
  if (!track->rotation.empty()) out.rotation = Normalize(SampleTrack(track->rotation, t));
  if (!track->translation.empty()) out.translation = SampleTrack(track->translation, t);
  return out;
}

float DotVec(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

Vec3 UnitUp(Vec3 up) {
  const float length = std::sqrt(DotVec(up, up));
  return std::isfinite(length) && length > 0 ? up * (1 / length) : Vec3{0, 1, 0};
}

// The rotation about unit axis u nearest q (its twist: q = twist * swing, swing about an
// axis normal to u); the identity when q turns u upside down (no twist is defined).
QuatXYZW TwistAbout(QuatXYZW q, Vec3 u) {
  const float along = q.x * u.x + q.y * u.y + q.z * u.z;
  const QuatXYZW twist{u.x * along, u.y * along, u.z * along, q.w};
  if (Dot(twist, twist) < 1e-12f) return {0, 0, 0, 1};
  QuatXYZW out = Normalize(twist);
  if (out.w < 0) out = {-out.x, -out.y, -out.z, -out.w};
  return out;
}

}  // namespace

bool RootMotionJob::Validate() const {
  return clip && clip->root_motion && !clip->root_motion->joint.empty() && rate >= 0 && !output.empty();
}

bool RootMotionJob::Run() const {
  if (!Validate()) return false;
  const std::string& joint = clip->root_motion->joint;
  const JointTrack* track = clip->FindTrack(joint);
  const TransformTRS rest = RestOf(rest_skeleton, joint);
  const double at_rate = rate > 0 ? rate : clip->frame_rate;
  TransformTRS previous = JointAt(track, rest, FrameTime(0, at_rate));
  output[0] = {{0, 0, 0, 1}, {0, 0, 0}};
  for (size_t f = 1; f < output.size(); ++f) {
    const TransformTRS now = JointAt(track, rest, FrameTime(f, at_rate));
    const QuatXYZW back = Conjugate(now.rotation);
    output[f].rotation = Normalize(Multiply(now.rotation, Conjugate(previous.rotation)));
    output[f].translation = Rotate(back, now.translation - previous.translation);
    previous = now;
  }
  return true;
}

namespace {

// Every joint index of the scene's meshes moves up by one (a joint inserted at 0).
void ShiftMeshJoints(std::vector<Mesh>& meshes) {
  for (Mesh& mesh : meshes) {
    if (mesh.joint >= 0) ++mesh.joint;
    for (auto& four : mesh.joints)
      for (uint16_t& j : four) ++j;
    if (!mesh.metadata.is_object() || !mesh.metadata.contains(kMeshInfluencesKey)) continue;
    Value& list = mesh.metadata[kMeshInfluencesKey];
    if (!list.is_array()) continue;
    for (size_t e = 0; e < list.size(); ++e) {
      Value& entry = list[e];
      if (!entry.is_object() || !entry.contains("joints") || !entry["joints"].is_array()) continue;
      Value& joints = entry["joints"];
      for (size_t k = 0; k < joints.size(); ++k)
        if (joints[k].is_number()) joints[k] = joints[k].get<uint64_t>() + 1;
    }
  }
}

// The clip's root-motion joint moved into kRootMotionJointName, frame by frame.
void SplitClip(Clip& clip, const std::string& root, const TransformTRS& rest, const Limits& limits) {
  const size_t frames = SampleFrameCount(clip, 0, limits);
  JointTrack* found = nullptr;
  for (JointTrack& t : clip.tracks)
    if (t.joint == root) found = &t;  // the last, as ClipModelPose takes it
  const Vec3 up = UnitUp(clip.root_motion->up);
  JointTrack motion{kRootMotionJointName, {}, {}, {}, {}};
  if (found && frames > 0) {
    JointTrack& track = *found;
    const double rate = clip.frame_rate;
    const TransformTRS first = JointAt(&track, rest, FrameTime(0, rate));
    Track<Vec3> kept_t, travel_t;
    Track<QuatXYZW> kept_r, turn_r;
    for (size_t f = 0; f < frames; ++f) {
      const Seconds time = FrameTime(f, rate);
      const TransformTRS now = JointAt(&track, rest, time);
      const Vec3 d = now.translation - first.translation;
      const Vec3 travel = d - up * DotVec(d, up);
      QuatXYZW turn = TwistAbout(Multiply(now.rotation, Conjugate(first.rotation)), up);
      if (!turn_r.values.empty() && Dot(turn_r.values.back(), turn) < 0) turn = {-turn.x, -turn.y, -turn.z, -turn.w};
      const QuatXYZW back = Conjugate(turn);
      QuatXYZW kept = Normalize(Multiply(back, now.rotation));
      if (!kept_r.values.empty() && Dot(kept_r.values.back(), kept) < 0) kept = {-kept.x, -kept.y, -kept.z, -kept.w};
      travel_t.Add(time, travel);
      turn_r.Add(time, turn);
      kept_t.Add(time, Rotate(back, now.translation - travel));
      kept_r.Add(time, kept);
    }
    track.translation = std::move(kept_t);
    track.rotation = std::move(kept_r);
    motion.translation = std::move(travel_t);
    motion.rotation = std::move(turn_r);
  }
  clip.tracks.push_back(std::move(motion));
  clip.root_motion->joint = kRootMotionJointName;
}

// Joint `removed` taken out: every later joint index of the scene's meshes moves down by one, its
// own vertices go to `heir` (an index after the removal).
void UnshiftMeshJoints(std::vector<Mesh>& meshes, uint64_t removed, uint64_t heir) {
  auto down = [&](uint64_t j) -> uint64_t { return j == removed ? heir : j > removed ? j - 1 : j; };
  for (Mesh& mesh : meshes) {
    if (mesh.joint >= 0) mesh.joint = static_cast<int>(down(static_cast<uint64_t>(mesh.joint)));
    for (auto& four : mesh.joints)
      for (uint16_t& j : four) j = static_cast<uint16_t>(down(j));
    if (!mesh.metadata.is_object() || !mesh.metadata.contains(kMeshInfluencesKey)) continue;
    Value& list = mesh.metadata[kMeshInfluencesKey];
    for (size_t e = 0; list.is_array() && e < list.size(); ++e) {
      Value& entry = list[e];
      if (!entry.is_object() || !entry.contains("joints") || !entry["joints"].is_array()) continue;
      Value& joints = entry["joints"];
      for (size_t k = 0; k < joints.size(); ++k)
        if (joints[k].is_number()) joints[k] = down(joints[k].get<uint64_t>());
    }
  }
}

// Whether a root-motion track never moves (no travel, no turn at any key).
bool Still(const JointTrack& motion) {
  for (const Vec3& t : motion.translation.values)
    if (std::abs(t.x) + std::abs(t.y) + std::abs(t.z) > 1e-7f) return false;
  for (const QuatXYZW& q : motion.rotation.values)
    if (std::abs(q.x) + std::abs(q.y) + std::abs(q.z) > 1e-7f) return false;
  return true;
}

// A child of the root-motion joint takes its motion back, frame by frame.
void FoldInto(Clip& clip, const JointTrack& motion, const std::string& child, const TransformTRS& rest, const Limits& limits) {
  const size_t frames = SampleFrameCount(clip, 0, limits);
  JointTrack* found = nullptr;
  for (JointTrack& t : clip.tracks)
    if (t.joint == child) found = &t;
  if (!found) {
    clip.tracks.push_back(JointTrack{child, {}, {}, {}, {}});
    found = &clip.tracks.back();
  }
  JointTrack& track = *found;
  Track<Vec3> translation;
  Track<QuatXYZW> rotation;
  for (size_t f = 0; f < frames; ++f) {
    const Seconds time = FrameTime(f, clip.frame_rate);
    const TransformTRS m = JointAt(&motion, {}, time), now = JointAt(&track, rest, time);
    QuatXYZW r = Normalize(Multiply(m.rotation, now.rotation));
    if (!rotation.values.empty() && Dot(rotation.values.back(), r) < 0) r = {-r.x, -r.y, -r.z, -r.w};
    translation.Add(time, m.translation + Rotate(m.rotation, now.translation));
    rotation.Add(time, r);
  }
  track.translation = std::move(translation);
  track.rotation = std::move(rotation);
}

}  // namespace

bool FoldRootMotion(Scene& scene, const Limits& limits) {
  Skeleton& skeleton = scene.skeleton;
  const int r = skeleton.Find(kRootMotionJointName);
  if (r < 0 || skeleton.joints[static_cast<size_t>(r)].parent >= 0 || !(skeleton.joints[static_cast<size_t>(r)].rest == TransformTRS{}))
    return false;
  std::vector<std::string> children;
  for (const Joint& j : skeleton.joints)
    if (j.parent == r) children.push_back(j.name);
  for (Clip& clip : scene.clips) {
    if (clip.space != Space::Local) continue;
    const auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(), [](const JointTrack& t) { return t.joint == kRootMotionJointName; });
    if (it != clip.tracks.end()) {
      const JointTrack motion = *it;
      clip.tracks.erase(it);
      if (!Still(motion))  // a still one gives nothing back: the children's keys stay as they are
        for (const std::string& child : children)
          FoldInto(clip, motion, child, skeleton.joints[static_cast<size_t>(skeleton.Find(child))].rest, limits);
    }
    if (clip.root_motion && clip.root_motion->joint == kRootMotionJointName) {
      if (children.empty()) clip.root_motion.reset();
      else clip.root_motion->joint = children.front();
    }
  }
  skeleton.joints.erase(skeleton.joints.begin() + r);
  for (Joint& j : skeleton.joints) j.parent = j.parent == r ? -1 : j.parent > r ? j.parent - 1 : j.parent;
  const int heir = children.empty() ? 0 : skeleton.Find(children.front());
  UnshiftMeshJoints(scene.meshes, static_cast<uint64_t>(r), static_cast<uint64_t>(std::max(heir, 0)));
  return true;
}

std::vector<std::string> ExtractRootMotion(Scene& scene, const Limits& limits) {
  std::vector<std::string> left;
  Skeleton& skeleton = scene.skeleton;
  std::string root;
  for (const Clip& clip : scene.clips) {
    if (!clip.root_motion || clip.space != Space::Local) continue;
    const int j = skeleton.Find(clip.root_motion->joint);
    if (j >= 0 && skeleton.joints[static_cast<size_t>(j)].parent < 0 && clip.root_motion->joint != kRootMotionJointName) {
      root = clip.root_motion->joint;
      break;
    }
  }
  const auto say = [&](const Clip& clip, const std::string& why) {
    left.push_back("clip '" + clip.name + "': root motion kept in joint '" + clip.root_motion->joint + "': " + why);
  };
  if (root.empty() || skeleton.Find(kRootMotionJointName) >= 0) {
    for (const Clip& clip : scene.clips) {
      if (!clip.root_motion || clip.root_motion->joint == kRootMotionJointName) continue;
      say(clip, skeleton.Find(kRootMotionJointName) >= 0 ? "the skeleton has a joint named root_motion already"
                                                          : "the skeleton has no such root joint");
    }
    return left;
  }
  const TransformTRS rest = skeleton.joints[static_cast<size_t>(skeleton.Find(root))].rest;
  for (Joint& j : skeleton.joints)
    j.parent = j.name == root ? 0 : (j.parent >= 0 ? j.parent + 1 : -1);
  skeleton.joints.insert(skeleton.joints.begin(), Joint{kRootMotionJointName, -1, {}});
  ShiftMeshJoints(scene.meshes);
  for (Clip& clip : scene.clips) {
    if (!clip.root_motion) continue;
    if (clip.root_motion->joint != root) {
      say(clip, "not the joint extracted ('" + root + "')");
      continue;
    }
    if (clip.space != Space::Local) {
      say(clip, "the clip is in model space");
      continue;
    }
    SplitClip(clip, root, rest, limits);
  }
  return left;
}

}  // namespace animkit
