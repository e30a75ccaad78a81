#include <animkit/core/model.hpp>

#include <charconv>

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

int Skeleton::Find(std::string_view name) const {
  for (size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return static_cast<int>(i);
  return -1;
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
