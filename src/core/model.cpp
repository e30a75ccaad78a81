#include <animkit/core/model.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace animkit {

std::string NumberedJointName(uint64_t number) {
  std::string name(1, '#');
  name += std::to_string(number);
  return name;
}

std::optional<uint64_t> ParseNumberedJointName(std::string_view name) {
  if (name.size() < 2 || name[0] != '#') return std::nullopt;
  const std::string_view digits = name.substr(1);
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

bool Skeleton::ParentsFirst() const {
  for (size_t i = 0; i < joints.size(); ++i)
    if (joints[i].parent >= static_cast<int>(i)) return false;
  return true;
}

int Skeleton::Find(std::string_view name) const {
  for (size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {

bool Close(float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(a)); }
bool Close(const Vec3& a, const Vec3& b) { return Close(a.x, b.x) && Close(a.y, b.y) && Close(a.z, b.z); }
bool Close(const QuatXYZW& a, const QuatXYZW& b) {
  const bool same = Close(a.x, b.x) && Close(a.y, b.y) && Close(a.z, b.z) && Close(a.w, b.w);
  return same || (Close(a.x, -b.x) && Close(a.y, -b.y) && Close(a.z, -b.z) && Close(a.w, -b.w));
}
template <class T>
bool SameTrack(const Track<T>& a, const Track<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a.times[i] - b.times[i]) > 1e-6 || !Close(a.values[i], b.values[i])) return false;
  return true;
}

}  // namespace

bool SameKeys(const Clip& a, const Clip& b) {
  if (a.frame_count != b.frame_count || a.loop != b.loop || a.tracks.size() != b.tracks.size() ||
      std::fabs(a.frame_rate - b.frame_rate) > 1e-6)
    return false;
  for (const JointTrack& t : a.tracks) {
    const JointTrack* u = b.FindTrack(t.joint);
    if (!u || !SameTrack(t.translation, u->translation) || !SameTrack(t.rotation, u->rotation) ||
        !SameTrack(t.scale, u->scale))
      return false;
  }
  return true;
}

const JointTrack* Clip::FindTrack(std::string_view joint) const {
  for (const JointTrack& t : tracks)
    if (t.joint == joint) return &t;
  return nullptr;
}

void Clip::SetFrames(size_t count, double rate) {
  frame_count = count;
  frame_rate = rate;
  duration = count > 1 && rate > 0 ? static_cast<Seconds>(static_cast<double>(count - 1) / rate) : 0.0f;
}

const Scene& RigOf(const Scene& scene, const Scene* reference) {
  return reference && !reference->skeleton.empty() ? *reference : scene;
}

}  // namespace animkit
