// The bone ids a Metroid CINF gives joints, shared by the files that name bones by id (the
// CINF and ANIM writers, the CMDL writer's CSKR): one rule, so that files written apart from
// the same skeleton agree.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace animkit::metroid_ids {

// Bone ids for joint names: the id `named` gives a name, else N for a "#N" name, else the
// next free id after the highest so far (dense: from 0; else from 3, skipping 2, the
// "no parent" id). Error when two joints map to one id.
std::vector<uint32_t> AssignBoneIds(const std::vector<std::string>& joints,
                                    const std::vector<std::pair<std::string, uint32_t>>& named, bool dense);

}  // namespace animkit::metroid_ids
