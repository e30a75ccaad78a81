// glTF 2.0 both ways, through tinygltf.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>

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

// Nodes, skins and animations (LINEAR, STEP, CUBICSPLINE) into a Scene.
// path is the file's own path: external buffers are read from its folder only
// (docs/gltf.md), within limits.max_buffer_bytes; frames within limits.max_frames.
Scene ImportGltf(ByteView data, const std::string& path, const Limits& limits = {});

}  // namespace animkit
