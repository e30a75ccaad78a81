// Encoding a scene into a format's bytes: the one step Convert, folder runs and the Python
// module write game files through.
#pragma once

#include <animkit/core/format.hpp>

#include <string>
#include <vector>

namespace animkit {

struct EncodeRequest {
  const Scene* reference = nullptr;     // the skeleton the scene was decoded against (nullptr: none)
  Options options;
  std::string output_path;              // the file being written, when known (names errors, extra outputs)
  const EncodeTemplate* templ = nullptr;  // --template: the file the output replaces, as read
  // The template decoded against the same skeleton: its metadata fills what the scene cannot
  // carry (TakeTemplateMetadata); nullptr when none, or when its format is not the output's.
  const Scene* template_scene = nullptr;
  std::string template_clip;            // --clip with a template: the template's clip the scene replaces
  const Scene* template_as_input = nullptr;  // EncodeContext::template_as_input
  const Document* input = nullptr;           // EncodeContext::input
};
struct EncodeResult {
  Bytes bytes;
  std::vector<ExtraOutput> extra_outputs;  // files to write beside it (the text ANM's timeline)
  Value report = Value::object();          // the encoder's statistics
  std::vector<std::string> warnings;
};
// Encodes scene as format. With a template scene, its metadata first fills what the scene
// cannot carry (TakeTemplateMetadata). Nothing to edit (HoldsNothing, a template of the
// output's format, no template_clip asked for): the template's bytes, report
// "nothing_to_edit" true. Errors name the output (when known); one names it when the format
// cannot be written from animation data (RequireEncoder).
EncodeResult Encode(Scene scene, const FormatDescriptor& format, const EncodeRequest& request);

// Whether a scene holds nothing a file is written from: no clip, mesh, texture or joint
// (the glTF of a file that has none: a placeholder ANB, an MDLX without a model entry).
bool HoldsNothing(const Scene& scene);

// What glTF cannot carry, from the file the output replaces: the template's decoded
// metadata wins over the scene's (its glTF extras), for the scene and each clip (the
// template clip of the same name, the one template_clip names, or the only one).
void TakeTemplateMetadata(Scene& scene, const Scene& templ, const std::string& template_clip);

// Error naming path unless format can be written from animation data.
void RequireEncoder(const FormatDescriptor& format, const std::string& path);

}  // namespace animkit
