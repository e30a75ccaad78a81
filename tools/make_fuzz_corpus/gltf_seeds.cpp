// glTF's seeds besides the encoder's .glb: a .gltf with its buffer embedded, and skinned,
// rigid and static meshes with a PNG-textured material and one whose texture is missing.
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/registry.hpp>
#include <synthetic/synthetic.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

void AddGltfSeeds(Corpus& corpus) {
  EncodeContext context;
  context.output_path = corpus.Scratch("out.gltf");
  if (const FormatDescriptor* gltf = FindFormat("gltf")) {
    corpus.Add("gltf", "j3f8.gltf", gltf->encode(SmallScene(3, 8, 3, false), context)->Write());
    corpus.Add("gltf", "arm-skinned.glb", ExportGltf(SkinnedArmScene(), {.binary = true}));
  }
}

}  // namespace

const FormatSeeds kGltfSeeds{{}, AddGltfSeeds};

}  // namespace animkit::fuzz_corpus
