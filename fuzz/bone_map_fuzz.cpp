// Bone map files: any text against two small fixed skeletons reads as a map or throws
// animkit::Error; a map that reads is written by BoneMapText in both forms and reads back as
// the same map. Never a crash, a hang or a sanitizer report.
#include <animkit/core/error.hpp>
#include <animkit/offline/bone_map.hpp>

#include <cstdlib>
#include <string_view>

namespace {

animkit::Skeleton Named(std::initializer_list<const char*> names) {
  animkit::Skeleton s;
  int parent = -1;
  for (const char* name : names) s.joints.push_back({name, parent++, {}});
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  // Names with a comma, a quote, a backslash, spaces and the header's words.
  static const Skeleton target = Named({"pelvis", "thigh_L", "calf_L", "x,\"y\"", " spaced ", "target"});
  static const Skeleton source = Named({"Hips", "LeftUpLeg", "LeftLeg", "a\\b", "source", "#7"});
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
