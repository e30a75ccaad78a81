// `animkit retarget SOURCE --to TARGET -o OUT`: a file's clips onto another file's skeleton,
// written in any format animkit writes (docs/retarget.md). The CLI, the Python module and the
// Blender add-on all come here.
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/offline/retarget.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <string>
#include <vector>

namespace animkit {

inline constexpr std::string_view kBoneMapAuto = "auto";

// The axes a format's models stand in (FormatDescriptor::up_axis, forward_axis); +Y, +Z without one.
AxisFrame AxesOf(const FormatDescriptor* format);

// The source skeleton of a retarget: the skeleton the source decoded against (its own, the
// companion's or --skeleton's), else, for clips decoded without one, the target's joints the
// clips were made for: its first N joints when the clips state N (kClipJointCountKey), else all
// of them (note says so). The scene of the source is left as decoded.
struct SourceSkeleton {
  Skeleton skeleton;
  std::string note;  // "" when the source had its own
};
SourceSkeleton SourceSkeletonFor(const Scene& source, const Scene* source_reference, const Scene& target);

// The target of a retarget as a rig: a decoded scene's rest skeleton (its own or its
// reference's, RestSkeleton) with its meshes, materials and textures, no clips. Error naming
// `name` when it has no skeleton.
Scene TargetRig(const Scene& decoded, const Scene* reference, const std::string& name);

// The map a front end asks for: "auto" (or "") AutoBoneMap, else a file ReadBoneMap reads.
BoneMap BoneMapFor(const std::string& map, const Skeleton& target, const Skeleton& source);

// The target scene (skeleton, meshes, materials, textures) with `clips` retargeted onto it:
// what the writers take. source_axes / target_axes empty: the formats' own (AxesOf).
struct RetargetScenes {
  const Scene* source = nullptr;     // the clips, decoded
  const Skeleton* source_skeleton = nullptr;
  const FormatDescriptor* source_format = nullptr;  // for its axes; nullptr: +Y up, +Z forward
  const Scene* target = nullptr;
  const FormatDescriptor* target_format = nullptr;
  const BoneMap* map = nullptr;
  std::vector<size_t> clips;         // indices into source->clips; empty: every clip
  std::string source_axes, target_axes;  // "UP,FORWARD" overrides ("" = the format's)
  std::optional<float> translation_scale;
  Limits limits;
  Scene Run() const;  // Error when the map does not fit the skeletons or a clip is over the limits
};

struct RetargetRequest {
  std::string source, source_format;  // the clips ("" format: detect)
  SkeletonSource skeleton;            // what the source decodes against
  std::string target, target_format;  // the skeleton or model they go onto
  std::string output, output_format;  // "" format: from the output's extension
  std::string template_path;          // the game file the output replaces (its own moveset, set, ...)
  std::string map = std::string(kBoneMapAuto);
  std::string map_out;                // write the map used here ("" = nowhere); .csv: CSV, else JSON
  std::vector<std::string> clips;     // patterns; empty: every clip
  std::string source_axes, target_axes;
  std::optional<float> translation_scale;
  Options options;                    // format options (the glTF writer's --root-motion) and limits
};
struct RetargetResult {
  size_t clips = 0, mapped = 0;
  std::vector<std::string> unmapped;  // target joints left at rest
  float translation_scale = 1;
  std::string source_skeleton_note;   // SourceSkeleton::note
  std::vector<WrittenFile> written;   // the output first, then the map and the encoder's extra files
  std::vector<std::string> warnings;
  Value report = Value::object();     // what `retarget -v` prints
};
RetargetResult Retarget(const RetargetRequest& request);

}  // namespace animkit
