// Bone map files: any text against two small fixed skeletons reads as a map or throws
// animkit::Error; a map that reads is written by BoneMapText in both forms and reads back as
// the same map. Never a crash, a hang or a sanitizer report.
#include <animkit/core/error.hpp>
#include <animkit/offline/bone_map.hpp>
#include <synthetic/synthetic_bone_map.hpp>

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  const Skeleton& target = BoneMapSeedTarget();
  const Skeleton& source = BoneMapSeedSource();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  BoneMap map;
  try {
    map = ReadBoneMap(text, "fuzz.map", target, source);
  } catch (const Error&) {
    return 0;
  }
  if (map.source_of.size() != target.joints.size() || map.match.size() != target.joints.size()) std::abort();
  for (const bool csv : {false, true}) {
    const BoneMap back = ReadBoneMap(BoneMapText(map, target, source, csv), "fuzz.map", target, source);
    if (back.source_of != map.source_of) std::abort();
  }
  return 0;
}
