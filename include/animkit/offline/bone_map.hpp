// Which source joint drives each target joint of a retarget (docs/retarget.md, "The bone
// map"): matched by name, by normalised name and by hierarchy, or read from a file the user
// edits (JSON {"target": "source"} or CSV target,source lines).
#pragma once

#include <animkit/core/model.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// How a target joint got its source joint.
enum class BoneMatch { None, Given, Exact, Normalised, Hierarchy };
std::string_view ToString(BoneMatch match);  // "none", "given", "exact", "normalised", "hierarchy"

struct BoneMap {
  std::vector<int> source_of;       // per target joint: its source joint, -1 when unmapped
  std::vector<BoneMatch> match;     // per target joint: how
  size_t Mapped() const;
  // The target joints left unmapped, by name: they keep their rest pose.
  std::vector<std::string> Unmapped(const Skeleton& target) const;
  // Whether every target joint maps to the source joint of its own index, and both have as many.
  bool IsIdentity(size_t source_joints) const;
};

// A joint's name as the automatic map compares it: lower case, without separators (space _ - .
// :), without a namespace or rig prefix ("mixamorig:", "Armature|", "bip01", "def"), and a side
// word (L, R, Left, Right, at either end or as its own word) written "left"/"right" first:
// "LeftUpLeg", "upleg_L" and "L_UpLeg" all give "left upleg".
std::string NormalisedJointName(std::string_view name);
// A name that says nothing of what the joint is: "#N" (a file's bone number), or a generic word
// with a number ("joint_3", "bone12", "node 4"): the automatic map matches those by hierarchy.
bool JointNameSaysNothing(std::string_view name);

// `--map auto`: for each target joint, the source joint of the same name; then, among joints
// still free, of the same normalised name (a name two free joints of one skeleton share is
// skipped as ambiguous); then, where names say nothing, by index within the prefix of joints
// whose parents agree in both skeletons (joint i's parent is the same index in both, up to the
// first that differs): KH2's numbered bones between two skeletons of one character.
BoneMap AutoBoneMap(const Skeleton& target, const Skeleton& source);

// `--map FILE`: text holding a JSON object {"target joint": "source joint" (or null: unmapped)}
// or CSV lines target,source (an optional first line "target,source"; empty lines skipped;
// a field may be double-quoted). Target joints the file does not name are unmapped. Error
// naming the file and the joint for a joint neither skeleton has, a target named twice, or
// text that is neither form.
BoneMap ReadBoneMap(std::string_view text, const std::string& file, const Skeleton& target, const Skeleton& source);

// The map as a file ReadBoneMap reads back: every target joint in skeleton order, unmapped ones
// as null (JSON) or an empty source (CSV, with the header line). `--map-out`.
std::string BoneMapText(const BoneMap& map, const Skeleton& target, const Skeleton& source, bool csv);

}  // namespace animkit
