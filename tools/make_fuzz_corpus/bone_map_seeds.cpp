// The bone-map fuzz target's seeds, written by BoneMapText (what --map-out writes): a JSON
// map and a CSV map of names that need quotes, and a CSV of its header alone.
#include <animkit/offline/bone_map.hpp>
#include <synthetic/synthetic_bone_map.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

void AddText(Corpus& corpus, const std::string& name, const std::string& text) {
  corpus.Add("bone_map", name, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void AddMaps(Corpus& corpus) {
  const BoneMap map = BoneMapSeedMap();
  AddText(corpus, "map.json", BoneMapText(map, BoneMapSeedTarget(), BoneMapSeedSource(), false));
  AddText(corpus, "quoted.csv", BoneMapText(map, BoneMapSeedTarget(), BoneMapSeedSource(), true));
  AddText(corpus, "header-only.csv", BoneMapText({}, Skeleton{}, BoneMapSeedSource(), true));
}

}  // namespace

const FormatSeeds kBoneMapSeeds{{}, &AddMaps};

}  // namespace animkit::fuzz_corpus
