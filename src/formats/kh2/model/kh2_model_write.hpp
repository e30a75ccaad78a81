// Writing KH2 model groups: a mesh as VIF packets within the game's limits, and a group's
// bytes (packets, DMA records, matrix-slot list) laid out (docs/formats/kh2.md, "Writing models").
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/formats/kh2/archive.hpp>
#include <animkit/formats/kh2/model.hpp>

#include "formats/kh2/model/kh2_vif.hpp"

namespace animkit::kh2::detail {

// One packet: its VIF bytes (16-aligned) and the bones of its matrix slots.
struct PacketOut {
  Bytes vif;
  std::vector<int32_t> bones;
};

// A mesh (joints = bone indices of bind) as object packets (type 1): strips, texture
// coordinates, colours when the mesh has them, weight groups. Errors name the mesh.
std::vector<PacketOut> BuildObjectPackets(const Mesh& mesh, const std::vector<Mat4>& bind, const ModelWriteSettings& s);
// The same as shadow packets (type 2, each vertex on its heaviest bone, every table one
// V4-32 unpack: the stock shadow packet layout is not known).
std::vector<PacketOut> BuildShadowPackets(const Mesh& mesh, const std::vector<Mat4>& bind, const ModelWriteSettings& s);

// A shadow model (type 4, offsets from its header) of the meshes as one group, each vertex
// on its heaviest bone: the template writer's rebuilt shadow, for a new model.
Bytes NewShadowModel(uint16_t bones, const std::vector<const Mesh*>& meshes, const std::vector<Mat4>& bind,
                     const ModelWriteSettings& s, ModelWriteReport& r);

// A group's bytes placed at `at` (from the model header, 16-aligned): packets, DMA records
// (REF to the packet, a REF per matrix slot naming its bone, CNT + MSCNT), slot list, 16-aligned.
struct GroupBytes {
  Bytes bytes;
  uint32_t dma_offset = 0, slot_offset = 0, records = 0;
};
GroupBytes LayOutGroup(const std::vector<PacketOut>& packets, size_t at);

// How a scene's meshes become an MDLX (the CLI's --kh2-skeleton): the bones of the
// template or --skeleton model (joints matched by name), or the glTF's own skeleton.
enum class SkeletonSource { Reference, Scene };
struct ModelBarSettings {
  ModelWriteSettings write;
  SkeletonSource skeleton = SkeletonSource::Reference;
};
// Whether a scene goes to the model writer: meshes, no clips, and an .mdlx output or a model template.
bool WritesModel(const Scene& scene, const EncodeContext& context, const Bar* templ);
// The MDLX's bytes: the template's archive with its model entry (and only it) replaced, or
// a new archive (model entry, texture entry). Warnings and counts go to context.
Bytes EncodeModelBar(const Scene& scene, EncodeContext& context, const Bar* templ, const ModelBarSettings& settings);

}  // namespace animkit::kh2::detail
