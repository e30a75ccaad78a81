// `animkit retarget SOURCE --to TARGET -o OUT`: a file's clips onto another file's skeleton,
// written in any format animkit writes (docs/retarget.md). The CLI, the Python module and the
// Blender add-on all come here.
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/offline/retarget.hpp>
#include <animkit/pipeline/folder_job.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace animkit {

inline constexpr std::string_view kBoneMapAuto = "auto";

// The axes a format's models stand in (FormatDescriptor::up_axis, forward_axis); +Y, +Z without one.
AxisFrame AxesOf(const FormatDescriptor* format);

// The source skeleton of a retarget: the skeleton the source decoded against (its own, the
// companion's or --skeleton's), else, for clips decoded without one, the target's joints the
// clips were made for: its first N joints when the clips state N (kClipJointCountKey), else all
// of them (note says so); Error when fewer than half the clips' tracks name one of those (the
// target is another character: --skeleton must name the source's). The source is then decoded again against a scene of that skeleton
// (Retarget does): a format that evaluates its clips over a skeleton (KH2's IK chains and
// constraints) needs the hierarchy.
struct SourceSkeleton {
  Skeleton skeleton;
  std::string note;  // "" when the source had its own
};
SourceSkeleton SourceSkeletonFor(const Scene& source, const Scene* source_reference, const Scene& target);

// The target of a retarget as a rig: a decoded scene's rest skeleton (its own or its
// reference's, RestSkeleton) with its meshes, materials and textures, no clips. Error naming
// `name` when it has no skeleton.
Scene TargetRig(const Scene& decoded, const Scene* reference, const std::string& name);

// A source whose SourceSkeleton came from the target (note set) decoded again against a scene of
// those joints, which `rig` holds (the caller keeps it alive while the result is used): a format
// that evaluates its clips over their skeleton (KH2's IK chains) needs the hierarchy. nullopt
// when the source had a skeleton of its own. Retarget's and the Python module's one rule.
std::optional<DecodedScene> DecodeSourceAgainst(const LoadedFile& loaded, const SourceSkeleton& skeleton,
                                                const std::string& target_name, const Options& options,
                                                std::shared_ptr<Scene>& rig);

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
  RetargetSettings Settings() const;  // the axes (the formats' or the overrides) and the translation scale given
};

// The target as a rig, decoded once: its skeleton (a model's, or the companion's of an
// animation file, as the rest pose), meshes, materials and textures; no clips.
struct RetargetTarget {
  Scene scene;
  const FormatDescriptor* format = nullptr;
};
// Error naming the file when it has no skeleton to retarget onto.
RetargetTarget DecodeRetargetTarget(const std::string& path, const std::string& format, const Options& options);

// What the page of a retarget shows (an .html output): the source as decoded, with the clips
// retargeted, beside the target playing them. The preview layer builds it
// (RetargetPreviewPage, preview.hpp); the pipeline never includes that layer, so the front
// end hands the builder over in RetargetRequest::page.
struct RetargetPageInput {
  const LoadedFile* source = nullptr;
  const DecodedScene* source_decoded = nullptr;  // its clips: those retargeted, in order
  const Scene* retargeted = nullptr;             // the target with the clips on it
  std::string target;                            // the target's path
  const FormatDescriptor* target_format = nullptr;
  Options options;
};
using RetargetPageBuilder = std::function<std::string(const RetargetPageInput&)>;

// Whether a retarget writes a page: --out-format html, or an .html output without one.
bool IsPageOutput(const std::string& output, const std::string& output_format);

struct RetargetRequest {
  std::string source, source_format;  // the clips ("" format: detect)
  SkeletonSource skeleton;            // what the source decodes against
  std::string target, target_format;  // the skeleton or model they go onto
  const RetargetTarget* decoded_target = nullptr;  // target already decoded (a folder run's), else decoded here
  ByteView source_bytes;              // the source's contents already read (a folder run maps them); empty: read it
  bool skip_without_clips = false;    // a source without clips writes nothing (RetargetResult::skipped)
  std::string run_tag;                // a folder run's, for the temporary names of what it writes
  RetargetPageBuilder page;           // builds an .html output's page (IsPageOutput); unset: such an output is an error
  std::string output, output_format;  // "" format: from the output's extension
  std::string template_path;          // the game file the output replaces (its own moveset, set, ...)
  std::string map = std::string(kBoneMapAuto);
  std::string map_out;                // write the map used here ("" = nowhere); .csv: CSV, else JSON
  std::vector<std::string> clips;     // patterns; empty: every clip
  std::string source_axes, target_axes;
  std::optional<float> translation_scale;
  Options options;                    // format options (the glTF writer's --root-motion) and limits
  bool measure = false;               // --measure: MeasureRetarget per clip into the report's "fidelity"
};
struct RetargetResult {
  size_t clips = 0, mapped = 0;
  std::vector<std::string> unmapped;  // target joints left at rest
  float translation_scale = 1;
  std::string source_skeleton_note;   // SourceSkeleton::note
  std::vector<WrittenFile> written;   // the output first, then the map and the encoder's extra files
  std::vector<std::string> warnings;
  Value report = Value::object();     // what `retarget -v` prints
  std::string skipped;                // why nothing was written (skip_without_clips), "" when written
};
RetargetResult Retarget(const RetargetRequest& request);

// `animkit retarget DIR --to TARGET -o OUTDIR`: the folder job (folder_job.hpp) with Retarget
// as its per-file action. Every file that decodes to clips goes onto the target (decoded
// once) into OUTDIR/<relative path, the output's extension>; files without clips (models,
// textures, skeletons) are skipped saying so; a failing file is reported and the rest go on.
struct RetargetFolderJob : FolderJobInputs {
  // The settings every file shares: target, map, clips, axes, translation scale, template,
  // page; source, output and their formats are each file's.
  RetargetRequest request;
  std::string to = "glb";  // output format: a format id, an extension, or "html" (a page per file)

  // Error (a usage error): FolderJob::Validate's, no target, an unknown or unwritable format.
  void Validate() const;
  BatchReport Run() const;
};

}  // namespace animkit
