// An interpolated motion's curves as stored curves (docs/formats/kh2.md, "Curves as stored").
#include <animkit/formats/kh2/curves.hpp>

#include "formats/kh2/kh2_internal.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace animkit::kh2 {
namespace curves_view {

CurveProperty PropertyOf(int channel) {
  return channel < 3 ? CurveProperty::Scale : channel < 6 ? CurveProperty::RotationEuler : CurveProperty::Location;
}

CurveCycle CycleOf(CycleType c) { return static_cast<CurveCycle>(static_cast<uint8_t>(c)); }

template <class T>
T At(const std::vector<T>& table, size_t i) {
  return i < table.size() ? table[i] : T{};
}

// A forward curve's keys in clip frames: key time tau is frame tau * fps / 60 - start.
std::vector<CurveKey> KeysOf(const InterpolatedMotion& m, const Curve& c, double start) {
  std::vector<CurveKey> out;
  const double per_frame = kEngineRate / double(m.fps);  // key-time units per frame
  for (int i = 0; i < c.key_count; ++i) {
    const size_t index = size_t(c.first_key) + size_t(i);
    if (index >= m.keys.size()) break;
    const Key& k = m.keys[index];
    CurveKey key;
    key.frame = static_cast<float>(double(At(m.key_times, size_t(k.time_index()))) / per_frame - start);
    key.value = At(m.values, k.value);
    key.in_slope = static_cast<float>(double(At(m.tangents, k.in_tangent)) * per_frame);
    key.out_slope = static_cast<float>(double(At(m.tangents, k.out_tangent)) * per_frame);
    const bool last = i + 1 == c.key_count;
    switch (k.type()) {
      case KeyType::Constant: key.interpolation = CurveInterpolation::Constant; break;
      case KeyType::Linear: key.interpolation = CurveInterpolation::Linear; break;
      case KeyType::Hermite: key.interpolation = CurveInterpolation::Hermite; break;
      case KeyType::Zero:  // the game gives 0 from this key to the next
        key.interpolation = CurveInterpolation::Constant;
        if (!last) key.value = 0;
        break;
    }
    out.push_back(key);
  }
  return out;
}

std::string NameOf(const Skeleton& skeleton, size_t i) {
  return i < skeleton.joints.size() ? skeleton.joints[i].name : NumberedJointName(i);
}

bool MotionsIn(const Bar& bar) {
  return std::any_of(bar.entries.begin(), bar.entries.end(), [](const BarEntry& e) { return e.motion != nullptr; });
}

// DecodeBar's naming (kh2_decode_bar.cpp, AddClips), entry by entry.
void Walk(const Bar& bar, const std::string& prefix, std::vector<size_t> path, std::set<const Bar*>& entered,
          std::map<const Motion*, std::string>& first, std::vector<MotionClip>& out) {
  size_t motions = 0;
  for (const BarEntry& e : bar.entries) motions += e.motion && !e.motion->placeholder ? 1 : 0;
  for (size_t i = 0; i < bar.entries.size(); ++i) {
    const BarEntry& e = bar.entries[i];
    path.push_back(i);
    if (e.motion && !e.motion->placeholder) {
      std::string name = prefix;
      if (name.empty()) name = motions == 1 ? (e.Name().empty() ? "motion" : e.Name()) : SlotName(i, e);
      else if (motions > 1) name += "_" + std::to_string(i);
      const auto known = first.find(e.motion.get());
      out.push_back({name, path, e.motion.get(), known != first.end() ? known->second : std::string()});
      first.emplace(e.motion.get(), name);
    } else if (e.bar && (entered.insert(e.bar.get()).second || MotionsIn(*e.bar))) {
      Walk(*e.bar, prefix.empty() ? SlotName(i, e) : prefix + "/" + SlotName(i, e), path, entered, first, out);
    }
    path.pop_back();
  }
}

}  // namespace curves_view

std::vector<MotionClip> MotionClips(const Bar& bar) {
  std::vector<MotionClip> out;
  std::set<const Bar*> entered;
  std::map<const Motion*, std::string> first;
  curves_view::Walk(bar, "", {}, entered, first, out);
  return out;
}

StoredCurves StoredCurvesOf(const Motion& motion, const Skeleton& skeleton, const std::vector<ChannelValues>& rest,
                            const EvaluationSettings& settings) {
  using namespace curves_view;
  StoredCurves out;
  if (motion.raw || motion.placeholder) return out;
  const InterpolatedMotion& m = motion.interpolated;
  if (!(m.fps > 0)) return out;
  const EvaluationPlan plan = detail::PlanFor(m, skeleton, rest, settings);
  const size_t joints = plan.joint_count();
  const double start = detail::FramesPlayed(m).start;
  // The curve the game applies to each joint's channel: the last forward one.
  std::vector<std::array<const Curve*, kChannelCount>> curve(joints);
  std::vector<ChannelValues> constant(plan.base);
  std::vector<bool> driven(plan.driven);
  driven.resize(joints, false);
  for (const InitialPose& p : m.initial_pose)
    if (p.bone >= 0 && size_t(p.bone) < joints && p.channel >= 0 && p.channel < kChannelCount) {
      constant[size_t(p.bone)][size_t(p.channel)] = p.value;
    }
  for (const Curve& c : m.forward)
    if (c.key_count > 0 && c.channel() < kChannelCount && m.AnimatesJoint(c, false) && size_t(c.joint) < joints)
      curve[size_t(c.joint)][size_t(c.channel())] = &c;
  for (const Curve& c : m.inverse)
    if (c.key_count > 0 && c.channel() < kChannelCount && m.AnimatesJoint(c, true) &&
        size_t(m.bone_count) + size_t(c.joint) < joints)
      driven[size_t(m.bone_count) + size_t(c.joint)] = true;  // an inverse curve overrides the forward one
  for (size_t j = 0; j < joints; ++j)
    if (!plan.calculated.empty() && plan.calculated[j]) driven[j] = true;
  // What the game drives even where animkit keeps forward kinematics (an unverified constraint
  // type, a constraint or expression the plan skipped): the curves are not the game's pose there.
  for (const Constraint& c : m.constraints)
    if (c.joint >= 0 && size_t(c.joint) < joints) driven[size_t(c.joint)] = true;
  for (const Expression& e : m.expressions)
    if (e.joint >= 0 && size_t(e.joint) < joints) driven[size_t(e.joint)] = true;
  for (size_t j = 0; j < joints; ++j) {
    if (driven[j]) out.driven.push_back(int(j));
    // Blender's channel order: location, rotation, scale; axes x, y, z. A property with a curve
    // on any axis lists all three (constants for the others: an Euler rotation needs them all).
    for (const int first : {6, 3, 0}) {
      if (!curve[j][size_t(first)] && !curve[j][size_t(first + 1)] && !curve[j][size_t(first + 2)]) continue;
      for (int axis = 0; axis < 3; ++axis) {
        const int ch = first + axis;
        if (const Curve* c = curve[j][size_t(ch)]) {
          StoredChannel s;
          s.joint = int(j);
          s.joint_name = NameOf(skeleton, j);
          s.property = PropertyOf(ch);
          s.axis = axis;
          s.pre = CycleOf(c->pre());
          s.post = CycleOf(c->post());
          s.keys = KeysOf(m, *c, start);
          out.channels.push_back(std::move(s));
        } else {
          out.constants.push_back({int(j), NameOf(skeleton, j), PropertyOf(ch), axis, constant[j][size_t(ch)]});
        }
      }
    }
  }
  return out;
}

}  // namespace animkit::kh2
