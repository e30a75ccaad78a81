// Encoding a scene into a format's bytes.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/offline/root_motion.hpp>
#include <animkit/pipeline/encode.hpp>

namespace animkit {

void TakeTemplateMetadata(Scene& scene, const Scene& templ, const std::string& template_clip) {
  if (templ.metadata.is_object()) scene.metadata.update(templ.metadata);
  for (Clip& clip : scene.clips) {
    const Clip* from = nullptr;
    for (const Clip& t : templ.clips)
      if (t.name == clip.name || (!template_clip.empty() && t.name == template_clip)) from = from ? from : &t;
    if (!from && scene.clips.size() == 1 && templ.clips.size() == 1) from = &templ.clips.front();
    if (from && from->metadata.is_object()) clip.metadata.update(from->metadata);
  }
}

void RequireEncoder(const FormatDescriptor& format, const std::string& path) {
  if (format.encode) return;
  const Error e = Error::General(std::string(format.id) + " files cannot be written from animation data");
  throw path.empty() ? e : e.InFile(path);
}

bool HoldsNothing(const Scene& scene) {
  return scene.clips.empty() && scene.meshes.empty() && scene.textures.empty() && scene.skeleton.empty();
}

EncodeResult Encode(Scene scene, const FormatDescriptor& format, const EncodeRequest& request) {
  RequireEncoder(format, request.output_path);
  // Nothing to edit, nothing changed: the file the output replaces, as it is. (--clip asks
  // for a clip of the input: the encoder says there is none.)
  if (request.templ && request.templ->document && &request.templ->document->format() == &format &&
      request.template_clip.empty() && HoldsNothing(scene)) {
    EncodeResult kept;
    kept.bytes = request.templ->bytes;
    kept.report["nothing_to_edit"] = true;
    return kept;
  }
  if (request.template_scene) TakeTemplateMetadata(scene, *request.template_scene, request.template_clip);
  // An extracted root motion (a glb's root_motion joint) goes back into the joint it came from:
  // no game format has that joint.
  if (&format != &InterchangeFormat()) (void)FoldRootMotion(scene, request.options.limits());
  EncodeContext context;
  context.reference = request.reference;
  context.options = request.options;
  context.output_path = request.output_path;
  context.templ = request.templ;
  if (request.templ) context.template_clip = request.template_clip;
  context.template_as_input = request.template_as_input;
  context.input = request.input;
  EncodeResult result;
  try {
    result.bytes = format.encode(scene, context)->Write();
  } catch (const Error& e) {
    throw request.output_path.empty() ? e : e.InFile(request.output_path);
  }
  result.report = std::move(context.report);
  result.warnings = std::move(context.warnings);
  result.extra_outputs = std::move(context.extra_outputs);
  return result;
}

}  // namespace animkit
