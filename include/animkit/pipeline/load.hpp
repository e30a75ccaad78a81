// Loading a file: detect its format, read it into its Document, decode it into the common
// model within the limits. Every verb starts here.
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/io/io.hpp>

#include <memory>
#include <string>
#include <string_view>
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

// For the verbs that need one scene (convert to another format, sample, import, a preview
// page): an archive of files (FormatDescriptor::archive_of_files) holds files, not a scene,
// so it is an error saying what to do instead (convert it into a folder, or extract), unless
// it holds scenes made of its members (Document::Scenes: a Metroid PAK's characters).
void RequireOneScene(const LoadedFile& loaded);

// Decodes a loaded file and checks the scene against context.options.limits()
// (CheckScene), the limits scaled to the file's size. Every verb decodes through this;
// Errors name the file.
Scene DecodeDocument(const LoadedFile& loaded, const DecodeContext& context);

// What the reader accepted that the format's rules forbid (Document::Warnings), then every
// part it could not read (Document::Damaged), one line each as every verb reports them.
std::vector<std::string> ReadWarnings(const LoadedFile& loaded);
// The Error a file from which nothing could be read is (every part the reader found is
// damaged: no clip, mesh or skeleton of its own decoded; a skeleton decoded against a
// reference is the reference's); empty when something was read. It names the damaged
// parts with their offsets. DecodeDocument throws it.
std::string NothingReadable(const LoadedFile& loaded, const Scene& scene, const Scene* reference = nullptr);

// A skeleton or model file on its own (what --skeleton names), decoded.
Scene LoadReference(const std::string& path, const Options& options);

// What every decoded scene must satisfy, whatever its format: clips, joints,
// tracks, keys per track, keys in all (max-values) and frames per clip within the
// limits; rates, durations and key times finite and >= 0.
void CheckScene(const Scene& scene, const Limits& limits);

// The clip named name (Error "no clip named ..." naming file when none is).
const Clip& RequireClip(const Scene& scene, const std::string& name, const std::string& file);

// Whether a clip name matches a pattern: `*` stands for any run of characters, `?` for
// any one, every other character for itself (a pattern without them is the name itself).
bool ClipNameMatches(std::string_view name, std::string_view pattern);

// The indices of the clips the patterns select, in the scene's order (every clip when
// there is no pattern); a pattern no clip matches is an Error naming file.
std::vector<size_t> SelectClips(const Scene& scene, const std::vector<std::string>& patterns, const std::string& file);

}  // namespace animkit
