// `animkit convert` and `animkit validate`: a file in, a file out (or checked), as a library.
#pragma once

#include <animkit/core/value.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// What `animkit validate` found in a file that reads.
struct ValidateResult {
  std::vector<std::string> warnings;  // accepted deviations (Document::Warnings)
  std::vector<std::string> damaged;   // parts that could not be read (Document::Damaged)
  std::vector<std::string> clips;     // the clips that decode, by name
  SourceInfo source;                  // skeleton_use and skeleton_file: what it was decoded against (SkeletonLabel)
  std::string skeleton_warning;       // a companion not used, and why ("" when none)
  bool ok() const { return damaged.empty(); }
};
// `animkit validate`: reads, decodes and samples the file exactly as `sample`
// does (the JSON goes nowhere), then checks that it writes back to the same bytes.
// Throws the Error `sample` or `convert` would; a file with damaged parts returns
// them (its other parts read, decode and write back).
ValidateResult ValidateFile(const std::string& path, std::string_view format_id, const SkeletonSource& skeleton,
                            const Options& options);

struct ConvertRequest {
  std::string input, output;
  std::string input_format;   // "" = detect
  std::string output_format;  // "" = from the output extension
  SkeletonSource skeleton;    // what the input decodes against
  std::string clip;           // only this clip, "" = all; with a template: the template's clip to replace
  Options options;
  std::string template_path;  // --template: the file the output replaces ("" = none)
  // The input's bytes when the caller already has them (a mapped file); else read here.
  std::optional<ByteView> input_bytes = std::nullopt;
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
  std::vector<std::string> warnings;  // the encoder's warnings
  std::string skeleton_warning;       // a companion not used, and why (DecodedScene::warning)
  Companion skeleton;  // the skeleton file used (the companion resolved), "" for none; note: why
  SkeletonUse skeleton_use = SkeletonUse::None;
};
// Whether a conversion to `format` from a file of that same format must decode and
// encode: --clip, --template, or any of the format's own options, asks for it. Otherwise (--skeleton
// and other formats' options included) the file is written back as read.
bool AsksForReencode(const ConvertRequest& request, const FormatDescriptor& format);

// The options a file is decoded with to be written as `output` (nullptr: sample JSON): glTF,
// the interchange format, takes KeyUse::Interchange (docs/fidelity.md), anything else the
// exact keys every front end samples.
Options DecodeOptionsFor(const FormatDescriptor* output, Options options);

// Converts input to output (format from the output's extension or output_format).
// A conversion to the input's own format that asks for no re-encode writes the
// document back byte for byte. Writes the output and any file the encoder adds
// (EncodeResult::extra_outputs) through WriteOutputs: atomically, never over a file
// the conversion reads.
ConvertResult Convert(const ConvertRequest& request);
// Encodes a scene in memory over the file it replaces, as Convert does with --template:
// the template read by its own format and, when that is the output's, decoded against
// reference (TakeTemplateMetadata; model writers keep its unedited parts byte for byte).
// clip: the template's clip the scene replaces ("" = by name). The Python module's
// save(template=) and encode(template=).
EncodeResult EncodeOverTemplate(Scene scene, const FormatDescriptor& format, const Scene* reference,
                                const Options& options, const std::string& output_path,
                                const std::string& template_path, const std::string& clip = "");
// What a conversion did, as `animkit convert -v` prints it (and the Python module returns):
// input, output, formats, skeleton (skeleton: the file or null, skeleton_use, skeleton_note),
// counts, sizes, every file written, the encoder's
// statistics and the warnings (skeleton_warning first).
Value ConvertReport(const ConvertRequest& request, const ConvertResult& result);

// The output format for a path or a name given with --to (an id or an extension).
const FormatDescriptor* OutputFormatFor(const std::string& output_path, std::string_view requested);

}  // namespace animkit
