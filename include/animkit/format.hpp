// The format registry, in the spirit of a demuxer/muxer table: each format
// registers its id, extensions, a probe, a reader (file -> Document) and an
// encoder (Scene -> Document). A Document keeps every field of its file so that
// Write() gives the same bytes back.
#pragma once

#include <animkit/binary.hpp>
#include <animkit/limits.hpp>
#include <animkit/model.hpp>
#include <animkit/value.hpp>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// Format-specific settings ("--euler zyx" arrives as {"euler", "zyx"}).
class Options {
 public:
  void Set(std::string key, std::string value) { values_[std::move(key)] = std::move(value); }
  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  std::string Get(const std::string& key, std::string fallback = {}) const;
  double GetNumber(const std::string& key, double fallback) const;  // Error when not a number
  // The value, which must be one of choices (Error otherwise); fallback when unset.
  std::string GetChoice(const std::string& key, std::initializer_list<std::string_view> choices,
                        std::string fallback) const;
  const std::map<std::string, std::string>& values() const { return values_; }
  // The limits every reader, decoder, sampler and encoder checks (limits.hpp);
  // kept apart from values(): raising a limit changes no output.
  const Limits& limits() const { return limits_; }
  void SetLimits(const Limits& limits) { limits_ = limits; }

 private:
  std::map<std::string, std::string> values_;
  Limits limits_;
};

// Set by LoadFile/LoadBytes to the path the bytes came from, for formats whose
// files refer to others beside them (a .gltf's external buffers).
inline constexpr const char* kSourcePathOption = "source-path";

struct DecodeContext {
  const Scene* reference = nullptr;  // what --skeleton gave: skeleton and possibly a timeline
  Options options;
};

class Document;

// What `convert --template FILE` gives an encoder: the file the output replaces (as the
// game or an earlier conversion wrote it). An encoder takes from it what the input
// cannot carry; formats that do not use templates ignore it.
struct EncodeTemplate {
  std::string path;
  Bytes bytes;
  const Document* document = nullptr;  // as read by its own format
};

// A file an encoder makes besides its document (the text ANM's timeline): the
// pipeline writes it with the output, through the same writer.
struct ExtraOutput {
  std::string path;
  Bytes bytes;
};

struct EncodeContext {
  const Scene* reference = nullptr;
  Options options;
  std::string output_path;             // the file being written, when known
  Value report = Value::object();  // encoder statistics for --verbose
  const EncodeTemplate* templ = nullptr;  // --template, nullptr when none
  // --clip with a template: which of the template's clips (slots) the input replaces; the
  // input is then not filtered by name.
  std::string template_clip;
  std::vector<std::string> warnings;  // shown on stderr by the CLI
  std::vector<ExtraOutput> extra_outputs;  // written by the caller, never by the encoder
};

struct FormatDescriptor;

class Document {
 public:
  virtual ~Document() = default;
  virtual const FormatDescriptor& format() const = 0;
  // The file's bytes; for a document that was read, identical to the input.
  virtual Bytes Write() const = 0;
  // Every header field and table worth showing (`animkit info --json`).
  virtual Value Info() const = 0;
  // The common model: skeleton and/or clips.
  virtual Scene Decode(const DecodeContext& context) const = 0;
};

struct OptionSpec {
  std::string_view name;  // without dashes
  std::string_view help;
  bool takes_value = true;
};

// Probe scores: how sure a format is that bytes are its own.
inline constexpr int kProbeNone = 0;
inline constexpr int kProbeExtension = 25;  // only the extension matches
// The extension and the format's magic or marker match but the structure does not fit:
// a damaged file of that format, read so that its own error (with the offset) is reported.
inline constexpr int kProbeDamaged = 40;
inline constexpr int kProbeStructure = 50;  // plausible structure, no magic
inline constexpr int kProbeMagic = 100;     // magic bytes and a consistent header

struct FormatDescriptor {
  std::string_view id;           // the CLI contract's format id
  std::string_view description;  // a human name
  std::vector<std::string_view> extensions;  // lower case, with the dot
  int (*probe)(ByteView data, std::string_view extension) = nullptr;
  std::unique_ptr<Document> (*read)(ByteView data, const Options& options) = nullptr;
  // nullptr when the format cannot be written from the common model.
  std::unique_ptr<Document> (*encode)(const Scene& scene, EncodeContext& context) = nullptr;
  std::vector<OptionSpec> options;
};

// Every registered format, in table order.
const std::vector<const FormatDescriptor*>& Formats();
const FormatDescriptor* FindFormat(std::string_view id);
// Formats claiming an extension (".anm" is claimed by two).
std::vector<const FormatDescriptor*> FormatsForExtension(std::string_view extension);

struct Detection {
  const FormatDescriptor* format = nullptr;
  int score = 0;
};
// The best probe score over all formats; format is nullptr when nothing scores.
Detection Detect(ByteView data, std::string_view path);

// Lower-cased extension of a path, with the dot ("" when none).
std::string ExtensionOf(std::string_view path);

}  // namespace animkit
