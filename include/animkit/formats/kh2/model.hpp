// Kingdom Hearts II model meshes: the VIF packets of an MDLX's model entry decoded to
// skinned meshes, and written (over a template's model or new). The texture entry:
// formats/kh2/texture.hpp. See docs/formats/kh2.md, "Meshes" and "Writing models".
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

// Writing a modder's meshes into a model entry (docs/formats/kh2.md, "Writing models").
// The shadow model (type 4) after the object model: kept byte for byte (its header offset
// updated), rebuilt from the object meshes (each vertex on its heaviest bone, every table
// one V4-32 unpack: the stock shadow packet layout is not known), or dropped. A new model
// (WriteNewModelEntry) has a shadow model of the meshes given as shadow meshes (Keep),
// of its object meshes (Rebuild) or none (Drop).
enum class ShadowWrite { Keep, Rebuild, Drop };
struct ModelWriteSettings {
  ShadowWrite shadow = ShadowWrite::Keep;
  // A rebuilt group's packets: one is closed before its VU1 footprint (header, strip nodes,
  // colours, positions, tables, 4 qwords per matrix slot) reaches packet_qwords (the game's
  // limit as OpenKH's builder keeps it: 0xE0) or its strip nodes pass max_strip_nodes
  // (strip nodes + 3 <= 255); at most 256 vertices (u8 indices).
  size_t packet_qwords = 0xE0;
  size_t max_strip_nodes = 252;
  bool rebuild_all = false;  // rebuild every group, even unedited ones
};
struct ModelWriteReport {
  size_t kept = 0, rebuilt = 0, added = 0, deleted = 0, packets = 0;  // groups; packets written
  std::vector<std::string> warnings;
};
// The template's model entry with the object meshes given (joints are template bone
// indices; metadata "model" 0 + "group", else the name model0_group<G>, picks the group;
// shadow meshes are ignored): an unedited group keeps its bytes (DMA addresses relocated),
// an edited one is rebuilt as VIF packets, a new mesh appends a group, an unnamed group is
// removed; a rebuilt group's texture index is its mesh's material, else its metadata
// texture_index, else the template group's. Nothing edited: the template's bytes. Errors
// name the mesh and the limit.
Bytes WriteModelEntry(const Model& templ, const std::vector<Mesh>& meshes, const ModelWriteSettings& settings = {},
                      ModelWriteReport* report = nullptr);
// A new model entry (no template): the bones, then one group per object mesh, rebuilt (no
// mesh: a model of bones alone, as a moveset's skeleton model); then the shadow model
// (settings.shadow above: the meshes whose metadata model_role is "shadow" as one shadow
// group, each vertex on its heaviest bone), when it has meshes.
Bytes WriteNewModelEntry(const std::vector<BoneRecord>& bones, const std::vector<Mesh>& meshes,
                         const ModelWriteSettings& settings = {}, ModelWriteReport* report = nullptr);
// Bone records of a skeleton (rest scale, Euler XYZ radians, translation; flags 0).
std::vector<BoneRecord> BonesFromSkeleton(const Skeleton& skeleton);
// Whether mesh equals the decoded one within what the file stores (positions 1e-4
// relative, texture coordinates 1/8192, colours 1/256; same triangles), each vertex's
// influences as the game blends them: each bone's summed weight within 1/510 (a bone in two
// matrix slots is one influence, as glTF holds it), its 4 and, past 4, every one.
bool SameGroupMesh(const Mesh& mesh, const Mesh& decoded);

}  // namespace animkit::kh2
