// `animkit sample`: every clip's pose at every frame, as the CLI contract's JSON.
#pragma once

#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>

#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace animkit {

struct SampleRequest {
  double rate = 0;        // 0: each clip's own frames; else resample at this rate
  std::string clip;       // empty: every clip
  const Skeleton* rest = nullptr;  // rest pose for joints a clip does not key
  Limits limits;
  // Local: each track as the clip holds it (a Space::Model clip's are model-space);
  // Model: each track's joint in model space over rest under the clip's scale rule
  // (ClipModelPose; a joint rest lacks is a root). The JSON's "space" says which.
  Space space = Space::Local;
  // `sample --skin`: these meshes (indexing rest's joints) deformed at every frame
  // (ClipMeshPose), written as each clip's "meshes" and "mesh_frames"; null: no such keys.
  const std::vector<Mesh>* skin_meshes = nullptr;
  // What the reader accepted or could not read (ReadWarnings), written as the document's
  // "warnings" array before "clips"; null or empty: no such key.
  const std::vector<std::string>* warnings = nullptr;
  // `sample --base CLIP`: the clip of the scene an additive clip composes over in model
  // space (its pose at the same time); empty: the clip's Additive::reference when the scene
  // has it, else the rest pose. Error when the scene has no clip of that name.
  std::string base = {};
};
// The frames `animkit sample` writes for one clip, one call per frame, in order: the
// count is SampleFrameCount's (its Error is thrown before the first call); frame f is
// at FrameTime(f, rate), rate being request.rate when > 0, else the clip's own; pose
// holds every track (SampleClipJob with request.rest; in model space when request.space
// says so) and visible each track's
// visibility at the file's own frame (f; when resampling, floor(t * frame_rate + 1e-4)).
// request.clip and request.base are not consulted: base, when not null, is the clip an
// additive clip composes over in model space. WriteSampleJson and the bindings sample through this.
using SampleFrameFn =
    std::function<void(size_t frame, std::span<const TransformTRS> pose, std::span<const bool> visible)>;
void ForEachSampleFrame(const Clip& clip, const SampleRequest& request, const SampleFrameFn& fn,
                        const Clip* base = nullptr);
// The clip an additive clip composes over (SampleRequest::base, else its reference when the
// scene has it); null for the rest pose or a clip that is not additive.
const Clip* AdditiveBase(const Scene& scene, const Clip& clip, const SampleRequest& request);

// The `animkit sample` JSON of the contract, handed to sink piece by piece (the
// whole text is never held in memory).
void WriteSampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request,
                     const std::function<void(std::string_view)>& sink);
std::string SampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request);

}  // namespace animkit
