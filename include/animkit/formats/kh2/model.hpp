// Kingdom Hearts II model meshes: the VIF packets of an MDLX's model entry decoded to
// skinned meshes, and the writer the project's samples and tests use. The texture entry:
// formats/kh2/texture.hpp. See docs/formats/kh2.md, "Meshes".
#pragma once

#include <animkit/core/model.hpp>
#include <animkit/formats/kh2/model_entry.hpp>

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

// Sample and test writers (limited scope; writing a modder's edited mesh back into an
// MDLX is the next step, not done): a model entry whose groups are the given skinned
// meshes (positions at the bind pose of bones' rest pose), one VIF packet per group: an
// object model, then a shadow model (type 4, shadow packets) of the meshes whose metadata
// model_role is "shadow" (each vertex on one bone) when there are any.
Bytes EncodeModelEntry(const std::vector<BoneRecord>& bones, const std::vector<Mesh>& meshes);

}  // namespace animkit::kh2
