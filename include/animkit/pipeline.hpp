// The jobs the CLI runs, as a library: load (detect + read), decode, sample to the
// contract's JSON, convert. Batch tools and tests call these directly.
#pragma once

#include <animkit/format.hpp>

#include <memory>
#include <string>

namespace animkit {

struct LoadedFile {
  std::string path;
  const FormatDescriptor* format = nullptr;
  std::unique_ptr<Document> document;
};

// Reads path, picks the format (format_id, else the best probe score) and parses it.
// Every Error names the file.
LoadedFile LoadFile(const std::string& path, std::string_view format_id, const Options& options);
LoadedFile LoadBytes(ByteView data, const std::string& path, std::string_view format_id,
                     const Options& options);

// The skeleton/timeline reference given with --skeleton, decoded.
Scene LoadReference(const std::string& path, const Options& options);

struct SampleRequest {
  double rate = 0;        // 0: each clip's own frames; else resample at this rate
  std::string clip;       // empty: every clip
  const Skeleton* rest = nullptr;  // rest pose for joints a clip does not key
};
// The `animkit sample` JSON of the contract.
std::string SampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request);

struct ConvertRequest {
  std::string input, output;
  std::string input_format;   // "" = detect
  std::string output_format;  // "" = from the output extension
  std::string skeleton;       // --skeleton path, "" = none
  std::string clip;           // only this clip, "" = all
  Options options;
};
struct ConvertResult {
  const FormatDescriptor* input_format = nullptr;
  const FormatDescriptor* output_format = nullptr;
  size_t clips = 0, frames = 0, joints = 0, events = 0;
  size_t bytes_in = 0, bytes_out = 0;
  bool copied_verbatim = false;  // same format, no change: the document was written back
  nlohmann::json report = nlohmann::json::object();  // encoder statistics
};
// Whether a conversion to `format` from a file of that same format must decode and
// encode: --clip, or any of the format's own options, asks for it. Otherwise (--skeleton
// and other formats' options included) the file is written back as read.
bool AsksForReencode(const ConvertRequest& request, const FormatDescriptor& format);

// Converts input to output (format from the output's extension or output_format).
// A conversion to the input's own format that asks for no re-encode writes the
// document back byte for byte. Never writes over the input; writes atomically.
ConvertResult Convert(const ConvertRequest& request);

// The output format for a path or a name given with --to (an id or an extension).
const FormatDescriptor* OutputFormatFor(const std::string& output_path, std::string_view requested);

}  // namespace animkit
