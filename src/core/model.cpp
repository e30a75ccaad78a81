#include <animkit/model.hpp>

namespace animkit {

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

}  // namespace animkit
