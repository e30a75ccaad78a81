// The Metroid bone-id rule (metroid_bone_ids.hpp).
#include "formats/common/metroid_bone_ids.hpp"

#include <animkit/core/error.hpp>
#include <animkit/core/model.hpp>

#include <optional>
#include <set>

namespace animkit::metroid_ids {

std::vector<uint32_t> AssignBoneIds(const std::vector<std::string>& joints,
                                    const std::vector<std::pair<std::string, uint32_t>>& named, bool dense) {
  constexpr uint32_t kNoParent = 2;
  std::vector<uint32_t> ids(joints.size());
  std::vector<bool> assigned(joints.size(), false);
  std::set<uint32_t> used;
  for (size_t i = 0; i < joints.size(); ++i) {
    const std::string& name = joints[i];
    std::optional<uint32_t> id;
    for (const auto& [n, v] : named)
      if (n == name) id = v;
    if (const auto number = ParseNumberedJointName(name); !id && number && *number <= 0xFFFFFFFFu)
      id = static_cast<uint32_t>(*number);
    if (!id) continue;
    if (!used.insert(*id).second) {
      throw Error::General("two joints map to bone id " + std::to_string(*id) + " ('" + name + "')");
    }
    ids[i] = *id;
    assigned[i] = true;
  }
  // Echoes numbers bones densely from 0: the free ids below the highest come first.
  uint64_t next = dense ? 0 : used.empty() ? 3 : uint64_t{*used.rbegin()} + 1;
  for (size_t i = 0; i < joints.size(); ++i) {
    if (assigned[i]) continue;
    while ((!dense && next == kNoParent) || used.count(static_cast<uint32_t>(next))) ++next;
    if (next > 0xFFFFFFFFull) throw Error::General("no bone id left for joint '" + joints[i] + "'");
    ids[i] = static_cast<uint32_t>(next++);
  }
  return ids;
}

}  // namespace animkit::metroid_ids
