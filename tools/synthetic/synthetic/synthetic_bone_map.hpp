// The two small skeletons the bone-map fuzz target reads maps against, and the maps its
// seeds are (fuzz/bone_map_fuzz.cpp, tools/make_fuzz_corpus/bone_map_seeds.cpp,
// tests/tools/fuzz_corpus_test.cpp). Names with a comma, a quote, a backslash, spaces at
// either end and the CSV header's words.
#pragma once

#include <animkit/offline/bone_map.hpp>

#include <initializer_list>

namespace animkit {

// A chain: each joint the child of the one before.
inline Skeleton BoneMapChain(std::initializer_list<const char*> names) {
  Skeleton s;
  int parent = -1;
  for (const char* name : names) s.joints.push_back({name, parent++, {}});
  return s;
}
inline const Skeleton& BoneMapSeedTarget() {
  static const Skeleton s = BoneMapChain({"pelvis", "thigh_L", "calf_L", "x,\"y\"", " spaced ", "target"});
  return s;
}
inline const Skeleton& BoneMapSeedSource() {
  static const Skeleton s = BoneMapChain({"Hips", "LeftUpLeg", "LeftLeg", "a\\b", "source", "#7"});
  return s;
}
// Most of the target mapped, calf_L and target left unmapped.
inline BoneMap BoneMapSeedMap() {
  BoneMap m;
  m.source_of = {0, 1, -1, 3, 4, -1};
  m.match = {BoneMatch::Given, BoneMatch::Given, BoneMatch::None, BoneMatch::Given, BoneMatch::Given, BoneMatch::None};
  return m;
}

}  // namespace animkit
