// The jobs the CLI runs, as a library: load (detect + read), decode, sample to the
// contract's JSON, convert. Batch tools and tests call these directly.
#pragma once

#include <animkit/format.hpp>
#include <animkit/io.hpp>
#include <animkit/sampling.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace animkit {

struct LoadedFile {
  std::string path;
  const FormatDescriptor* format = nullptr;
  std::unique_ptr<Document> document;
  uint64_t input_bytes = 0;  // the file's size: what the limits scale with
};

// Reads path, picks the format (format_id, else the best probe score) and parses it.
// Every Error names the file.
LoadedFile LoadFile(const std::string& path, std::string_view format_id, const Options& options);
LoadedFile LoadBytes(ByteView data, const std::string& path, std::string_view format_id,
                     const Options& options);

// The skeleton/timeline reference given with --skeleton, decoded (DecodeDocument).
Scene LoadReference(const std::string& path, const Options& options);

// Decodes a loaded file and checks the scene against context.options.limits()
// (CheckScene). Every verb decodes through this; Errors name the file.
Scene DecodeDocument(const LoadedFile& loaded, const DecodeContext& context);

// The --skeleton value that asks for the file's companion (FindCompanion).
inline constexpr std::string_view kSkeletonAuto = "auto";

// The skeleton or model a file decodes against when the user names none: the one rule
// of every front end (the CLI's `--skeleton auto`, batch, preview, Blender, Python).
// Candidates are the regular files in the file's own folder whose extension is one of
// format.companions (CANM -> MDB, ANIM -> CINF, ANB/MSET/motion -> MDLX, PS1 ANM -> TMD,
// text ANM -> glTF). One whose name is the file's stem plus an extension wins, then
// the one whose name starts with the stem (walk.anm -> walk.model.glb), else the only
// candidate; none or several -> no companion. A file that is itself of a companion kind
// (an MDLX) has none. Names compare without regard to ASCII case; a candidate that is a
// link leading out of the folder is not considered.
struct Companion {
  std::string path;  // "" when none was chosen
  std::string note;  // one sentence: what was chosen and why, or why none
};
Companion FindCompanion(const std::string& path, const FormatDescriptor& format);
// The skeleton file a loaded file decodes against: `skeleton` as given, or its
// companion when it is kSkeletonAuto.
Companion ResolveSkeleton(const LoadedFile& loaded, const std::string& skeleton);

// A file decoded against its skeleton, the one rule of every front end (CLI verbs,
// batch, bindings): a reference already decoded (a batch run's shared skeleton) wins,
// then the skeleton file given (--skeleton, or the file a skeleton map pairs with
// it; "auto": its companion), else none: the file's own skeleton.
struct DecodedScene {
  Scene scene;
  Companion skeleton;               // the skeleton file used (ResolveSkeleton), "" for none
  Scene reference;                  // the skeleton file's scene when one was decoded here
  bool decoded_here = false;        // reference holds it
  const Scene* shared = nullptr;    // the already decoded reference given
  // What the decoder was given (nullptr: none).
  const Scene* reference_used() const { return shared ? shared : decoded_here ? &reference : nullptr; }
  // The rest pose for joints a clip does not key: RestSkeleton(scene, reference_used()).
  const Skeleton& rest() const;
};
DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const std::string& skeleton_path, const Options& options,
                                const Scene* decoded_reference = nullptr);
// The same with the skeleton file already resolved (ResolveSkeleton): nothing is looked up again.
DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const Companion& skeleton, const Options& options,
                                const Scene* decoded_reference = nullptr);
// The reference's skeleton when it has joints, else the scene's own.
const Skeleton& RestSkeleton(const Scene& scene, const Scene* reference);
// The clip named name (Error "no clip named ..." naming file when none is).
const Clip& RequireClip(const Scene& scene, const std::string& name, const std::string& file);

// What every decoded scene must satisfy, whatever its format: clips, joints,
// tracks, keys per track, keys in all (max-values) and frames per clip within the
// limits; rates, durations and key times finite and >= 0.
void CheckScene(const Scene& scene, const Limits& limits);

struct SampleRequest {
  double rate = 0;        // 0: each clip's own frames; else resample at this rate
  std::string clip;       // empty: every clip
  const Skeleton* rest = nullptr;  // rest pose for joints a clip does not key
  Limits limits;
};
// The frames `animkit sample` writes for one clip, one call per frame, in order: the
// count is SampleFrameCount's (its Error is thrown before the first call); frame f is
// at FrameTime(f, rate), rate being request.rate when > 0, else the clip's own; pose
// holds every track (SampleClipJob with request.rest) and visible each track's
// visibility at the file's own frame (f; when resampling, floor(t * frame_rate + 1e-4)).
// request.clip is not consulted. WriteSampleJson and the bindings sample through this.
using SampleFrameFn =
    std::function<void(size_t frame, std::span<const TransformTRS> pose, std::span<const bool> visible)>;
void ForEachSampleFrame(const Clip& clip, const SampleRequest& request, const SampleFrameFn& fn);

// The `animkit sample` JSON of the contract, handed to sink piece by piece (the
// whole text is never held in memory).
void WriteSampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request,
                     const std::function<void(std::string_view)>& sink);
std::string SampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request);

// `animkit info`: the file's format, version, skeleton, clips, events and the format's
// own fields (Document::Info), decoded against skeleton when one is given. A file that
// reads but does not decode is described with its decode error. InfoJson is the
// contract's `info --json` document, InfoText the human summary.
struct InfoRequest {
  std::string format;    // "" = detect
  std::string skeleton;  // --skeleton path or kSkeletonAuto, "" = none
  Options options;
};
// The `info --json` document of a file already loaded (read from a path or from bytes;
// "file" is loaded.path, and "auto" looks beside it): request.format is not consulted,
// request.options decode it. InfoJson(path) is DumpJson(InfoValue(LoadFile(path)), 2).
Value InfoValue(const LoadedFile& loaded, const InfoRequest& request);
// The same for a file already decoded against decoded.skeleton (nothing is decoded again).
Value InfoValue(const LoadedFile& loaded, const InfoRequest& request, const DecodedScene& decoded);
std::string InfoJson(const std::string& path, const InfoRequest& request);
std::string InfoJson(const LoadedFile& loaded, const InfoRequest& request);
std::string InfoText(const std::string& path, const InfoRequest& request);
std::string InfoText(const LoadedFile& loaded, const InfoRequest& request);

// `animkit validate`: reads, decodes and samples the file exactly as `sample`
// does (the JSON goes nowhere), then checks that it writes back to the same bytes.
// Throws the Error `sample` or `convert` would.
void ValidateFile(const std::string& path, std::string_view format_id, const std::string& skeleton,
                  const Options& options);

struct ConvertRequest {
  std::string input, output;
  std::string input_format;   // "" = detect
  std::string output_format;  // "" = from the output extension
  std::string skeleton;       // --skeleton path, "" = none
  std::string clip;           // only this clip, "" = all; with a template: the template's clip to replace
  Options options;
  std::string template_path;  // --template: the file the output replaces ("" = none)
  // The input's bytes when the caller already has them (a mapped file); else read here.
  std::optional<ByteView> input_bytes = std::nullopt;
  // The skeleton file already decoded (batch runs decode a shared one once); else
  // `skeleton` is decoded here.
  const Scene* reference = nullptr;
  std::string run_tag = {};  // put into temporary file names (AtomicFile)
};
struct ConvertResult {
  const FormatDescriptor* input_format = nullptr;
  const FormatDescriptor* output_format = nullptr;
  size_t clips = 0, frames = 0, joints = 0, events = 0;
  size_t bytes_in = 0, bytes_out = 0;
  std::vector<WrittenFile> written;  // every file written, the output first
  bool copied_verbatim = false;  // same format, no change: the document was written back
  Value report = Value::object();  // encoder statistics
  std::vector<std::string> warnings;                 // the encoder's warnings
  Companion skeleton;  // the skeleton file used ("auto" resolved), "" for none
};
// Whether a conversion to `format` from a file of that same format must decode and
// encode: --clip, --template, or any of the format's own options, asks for it. Otherwise (--skeleton
// and other formats' options included) the file is written back as read.
bool AsksForReencode(const ConvertRequest& request, const FormatDescriptor& format);

// Converts input to output (format from the output's extension or output_format).
// A conversion to the input's own format that asks for no re-encode writes the
// document back byte for byte. Writes the output and any file the encoder adds
// (EncodeContext::extra_outputs) through WriteOutputs: atomically, never over a file
// the conversion reads.
ConvertResult Convert(const ConvertRequest& request);
// What a conversion did, as `animkit convert -v` prints it (and the Python module returns):
// input, output, formats, skeleton, counts, sizes, every file written, the encoder's
// statistics and warnings.
Value ConvertReport(const ConvertRequest& request, const ConvertResult& result);

// The output format for a path or a name given with --to (an id or an extension).
const FormatDescriptor* OutputFormatFor(const std::string& output_path, std::string_view requested);

}  // namespace animkit
