// glTF 2.0 both ways, through tinygltf.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>
#include <animkit/core/value.hpp>

#include <string>

namespace animkit {

struct GltfExportOptions {
  bool binary = true;  // .glb; false writes .gltf JSON with an embedded buffer
  Limits limits = {};  // frames and samples a visibility channel may key
};

// One node per joint (hierarchy from the skeleton; joints without a known parent
// under one root node), a skin over them, one animation per clip, events and
// metadata in extras.
Bytes ExportGltf(const Scene& scene, const GltfExportOptions& options);

// Nodes, skins and animations (LINEAR, STEP, CUBICSPLINE), meshes (rigid, static and
// skinned), materials and PNG/JPEG textures into a Scene (docs/gltf.md).
// path is the file's own path: external buffers are read from its folder only
// (docs/gltf.md), within limits.max_buffer_bytes; frames within limits.max_frames.
Scene ImportGltf(ByteView data, const std::string& path, const Limits& limits = {});

// A glTF's own nodes for an importer that rebuilds them (`animkit import-data`, the
// Blender add-on): "nodes" (name, parent, t, r, s as written or decomposed from a matrix,
// camera, mesh, skin), "root" (the animkit_root node or null), "joints" (the skin's, else every
// node but the root and cameras unless the asset's extras say skeleton false),
// "asset_extras", "cameras" (as written), "meshes" (name, extras.animkit, and per
// primitive its mode, material and
// {offset, count} of float32 positions, normals, UVs, RGBA colours, weights and uint32
// joints (as node indices, when the mesh's node has a skin: "influences" per vertex, the
// 4 of JOINTS_0/WEIGHTS_0, then those of JOINTS_1/WEIGHTS_1, ...) and
// indices appended to data), "materials" (name, base_color, image, alpha_mode,
// alpha_cutoff, double_sided, extras.animkit), "images" (name, mime_type, and the file's
// bytes as {offset, count} in data, null when not in a buffer view), and "animations"
// (name, extras.animkit, and "channels": each translation, rotation and scale channel as
// stored: node, path, interpolation (LINEAR, STEP, CUBICSPLINE), key times and values as
// {offset, count} of float32 in data; CUBICSPLINE values are in-tangent, value,
// out-tangent per key; no sampling).
Value GltfSceneView(ByteView gltf, const std::string& path, Bytes& data, const Limits& limits = {});

}  // namespace animkit
