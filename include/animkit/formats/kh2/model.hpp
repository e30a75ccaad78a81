// Kingdom Hearts II model meshes and textures: the VIF packets of an MDLX's model entry
// decoded to skinned meshes, its texture entry (BAR type 7) to images, and the writers the
// project's samples and tests use. See docs/formats/kh2.md, "Meshes" and "Textures".
#pragma once

#include <animkit/core/model.hpp>
#include <animkit/formats/kh2.hpp>

#include <string>
#include <vector>

namespace animkit::kh2 {

// What the meshes of a model entry decode to: one skinned Mesh per group (DMA chain) of
// every model in the "next model" chain, in model space at the bind pose of the skeleton
// (its rest pose under ScaleInheritance::PerAxis). mesh.material is the group's texture
// index (Scene-level materials are one per texture index: AttachMaterials); a shadow
// model's (type 4) meshes have none, are named model<M>_shadow_group<G> and carry
// metadata model_role "shadow" and hidden true (object meshes: model<M>_group<G>, "object").
struct ModelMeshes {
  std::vector<Mesh> meshes;
  std::vector<std::string> warnings;  // damaged groups and packets (left out), tables read past
  size_t models = 0;                  // models in the chain (character, shadow...)
  size_t shadow_models = 0;           // of them, shadow models (type 4)
  // Vertices that named more than 4 bones (the game blends them all; the Mesh keeps the 4
  // heaviest, renormalised) and the largest share of a vertex's weight that left out.
  size_t dropped_influences = 0;
  double max_dropped_weight = 0;
  // Largest distance, in model units, between the model-space positions a shared vertex's
  // bones give (each per-bone position divided by its weight, through that bone's bind
  // matrix) and their weighted sum: how exactly the file's pre-weighted positions agree.
  double max_bone_disagreement = 0;
};
// model: a parsed model entry (its bytes); skeleton: the model's (SkeletonFromModel).
// An error (with its offset) only when no model header can be read.
ModelMeshes DecodeModelMeshes(const Model& model, const Skeleton& skeleton, uint64_t base = 0,
                              const Limits& limits = {});

// The images of a texture entry (docs/formats/kh2.md, "Textures"): a TIM2 file (magic
// "TIM2": every picture, 4- and 8-bit indexed with CSM1 palettes, 16-, 24- and 32-bit
// direct colour); KH2's raw GS form (magic 0: per texture, its CLUT and picture uploads
// replayed into GS memory in their destination format and read back as its TEX0 says:
// 4- and 8-bit indexed with PSMCT32/PSMCT16 CLUTs, 16/24/32-bit direct colour); or a list
// of texture sets (magic 0xFFFFFFFF, a count, then an offset per set, each a raw form):
// set 0's images are `images` (the ones the model's materials use), the other sets' are
// `other_sets`, named "set N texture I". An upload reads QWC x 16 bytes from its address,
// on past the entry into `after` (the file's bytes that follow the entry) as the game's
// DMA does; a texture that samples bytes the file does not hold, a damaged TIM2 picture
// or set, or a format not read gives a warning saying how. An error when a header or a
// table lies outside the entry.
struct TextureSet {
  std::vector<Image> images;
  std::vector<Image> other_sets;  // the images of texture sets 1.. of a set list
  std::vector<std::string> warnings;
  std::string container;  // "TIM2", "KH2 raw texture", "KH2 texture sets"; "unreadable" when the entry could not be read
};
TextureSet DecodeTextures(ByteView entry, uint64_t base = 0, const Limits& limits = {}, ByteView after = {});
TextureSet DecodeTim2(ByteView data, uint64_t base = 0, const Limits& limits = {});

// Scene materials for the meshes: material i shows texture i of textures.images (a texture
// index past them gets a material and an Image saying why it is missing, with a warning);
// the other sets' images follow, each with a material no mesh uses, so they are kept.
void AttachMaterials(std::vector<Mesh>& meshes, TextureSet textures, Scene& scene, std::vector<std::string>& warnings);

// Sample and test writers (limited scope; writing a modder's edited mesh back into an
// MDLX is the next step, not done): a model entry whose groups are the given skinned
// meshes (positions at the bind pose of bones' rest pose), one VIF packet per group: an
// object model, then a shadow model (type 4, shadow packets) of the meshes whose metadata
// model_role is "shadow" (each vertex on one bone) when there are any; and a TIM2 of indexed pictures (at most 16 colours: 4-bit, else at most 256: 8-bit).
Bytes EncodeModelEntry(const std::vector<BoneRecord>& bones, const std::vector<Mesh>& meshes);
Bytes EncodeTim2(const std::vector<Image>& images);
// A raw texture entry (magic 0) of power-of-two images as the game's files lay them out:
// 4-bit indexed when an image has at most 16 colours, else 8-bit (at most 256), each
// picture and the palette uploaded as PSMCT32 rectangles (GS memory from block 0x3A00).
Bytes EncodeRawTexture(const std::vector<Image>& images);

}  // namespace animkit::kh2
