// The jobs the CLI runs, as a library: load (detect + read), decode, sample to the
// contract's JSON, convert. Batch tools and tests call these directly.
#pragma once

#include <animkit/format.hpp>
#include <animkit/io.hpp>

#include <functional>
#include <memory>
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
// The frames sampling writes for a clip: its own frame count, or those from 0 to
// its duration at rate (> 0); checked against max-frames, and frames x joints
// against max-values. Every sampler (JSON, glTF, encoders) counts frames here.
uint64_t SampleFrameCount(const Clip& clip, double rate, const Limits& limits);
// The `animkit sample` JSON of the contract, handed to sink piece by piece (the
// whole text is never held in memory).
void WriteSampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request,
                     const std::function<void(std::string_view)>& sink);
std::string SampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request);

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

// The output format for a path or a name given with --to (an id or an extension).
const FormatDescriptor* OutputFormatFor(const std::string& output_path, std::string_view requested);

}  // namespace animkit
