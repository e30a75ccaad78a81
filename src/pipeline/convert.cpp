// `animkit convert` and `animkit validate`.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <algorithm>
#include <optional>

namespace animkit {

ValidateResult ValidateFile(const std::string& path, std::string_view format_id, const SkeletonSource& skeleton,
                            const Options& options) {
  const Bytes data = ReadFileBytes(path);
  LoadedFile loaded = LoadBytes(data, path, format_id, options);
  const DecodedScene decoded = DecodeWithSkeleton(loaded, skeleton, options);
  try {
    WriteSampleJson(decoded.scene, loaded.format->id, SampleRequest{0, {}, &decoded.rest(), options.limits()},
                    [](std::string_view) {});
  } catch (const Error& e) {
    throw e.InFile(path);
  }
  if (loaded.document->Write() != data) {
    throw Error::General("reads, but does not write back to the same bytes").InFile(path);
  }
  ValidateResult result{loaded.document->Warnings(), loaded.document->Damaged(), {}, decoded.scene.source,
                        decoded.warning};
  for (const Clip& c : decoded.scene.clips) result.clips.push_back(c.name);
  return result;
}

Value ConvertReport(const ConvertRequest& request, const ConvertResult& r) {
  Value written = Value::array();
  for (const WrittenFile& w : r.written) written.push_back({{"path", w.path}, {"bytes", w.bytes}});
  Value warnings = Value::array();
  if (!r.skeleton_warning.empty()) warnings.push_back(r.skeleton_warning);
  for (const std::string& w : r.warnings) warnings.push_back(w);
  return {{"input", request.input},
          {"output", request.output},
          {"input_format", r.input_format ? Value(r.input_format->id) : Value()},
          {"output_format", r.output_format ? Value(r.output_format->id) : "sample-json"},
          {"skeleton", r.skeleton.path.empty() ? Value() : Value(r.skeleton.path)},
          {"skeleton_use", ToString(r.skeleton_use)},
          {"skeleton_note", r.skeleton.note},
          {"clips", r.clips},
          {"frames", r.frames},
          {"joints", r.joints},
          {"events", r.events},
          {"bytes_in", r.bytes_in},
          {"bytes_out", r.bytes_out},
          {"copied_verbatim", r.copied_verbatim},
          {"written", written},
          {"encoder", r.report},
          {"warnings", warnings}};
}

const FormatDescriptor* OutputFormatFor(const std::string& output_path, std::string_view requested) {
  if (!requested.empty()) {
    if (const FormatDescriptor* f = FindFormat(requested)) return f;
    std::string ext(requested);
    if (ext.front() != '.') ext.insert(ext.begin(), '.');
    auto by_ext = FormatsForExtension(ext);
    if (!by_ext.empty()) return by_ext.front();
    throw Error::General("unknown output format '" + std::string(requested) + "'");
  }
  ExportPlanJob job;  // the extension's first format (the table's order settles shared extensions)
  job.output = output_path;
  job.kind = ExportOutput::Any;
  return job.Run().format;
}

bool AsksForReencode(const ConvertRequest& request, const FormatDescriptor& format) {
  if (!request.clip.empty() || !request.template_path.empty()) return true;
  for (const auto& [name, value] : request.options.values()) {
    for (const OptionSpec& spec : format.options)
      if (spec.name == name && spec.use != OptionUse::Read) return true;  // a decode option changes no byte
  }
  return false;
}

Options DecodeOptionsFor(const FormatDescriptor* output, Options options) {
  const bool interchange = output && output == &InterchangeFormat();
  options.SetKeyUse(interchange ? KeyUse::Interchange : KeyUse::Exact);
  return options;
}

namespace {

// The file the output replaces, as read (nothing when no --template).
struct TemplateFile {
  EncodeTemplate templ;
  LoadedFile loaded;
};

TemplateFile ReadTemplate(const ConvertRequest& request, bool to_json) {
  TemplateFile t;
  if (request.template_path.empty()) return t;
  if (to_json) throw Error::General("--template applies to a game format output, not sample JSON").InFile(request.output);
  t.templ.path = request.template_path;
  t.templ.bytes = ReadFileBytes(request.template_path);
  t.loaded = LoadBytes(t.templ.bytes, request.template_path, "", request.options);
  t.templ.document = t.loaded.document.get();
  return t;
}

// The output's format: the export plan's, the template as its source (--to, else the
// template's format or one of its family that writes the extension, else the extension's).
// Without either, an extension several formats share (.pak) names the input's own format
// when it is one of them: convert X.pak Y.pak keeps X's format.
const FormatDescriptor* OutputFormat(const ConvertRequest& request, const TemplateFile& t, const FormatDescriptor* input) {
  ExportPlanJob job;
  job.output = request.output;
  job.format = request.output_format;
  job.source = request.template_path;
  if (t.loaded.format) job.source_format = t.loaded.format->id;
  job.kind = ExportOutput::Any;
  const FormatDescriptor* chosen = job.Run().format;
  if (request.output_format.empty() && !t.loaded.format && input && chosen != input) {
    const std::vector<const FormatDescriptor*> same = FormatsForExtension(ExtensionOf(request.output));
    if (std::find(same.begin(), same.end(), input) != same.end()) return input;
  }
  return chosen;
}

// The skeleton the input decodes against, resolved once; the companion found is an input
// too, checked before it is read. A glTF going back over a game file takes the template's.
ResolvedSkeleton ConvertSkeleton(const ConvertRequest& request, const LoadedFile& loaded, const TemplateFile& t,
                                 std::vector<std::string>& inputs) {
  ResolvedSkeleton skeleton = ResolveSkeleton(loaded, request.skeleton);
  if (!request.skeleton.is_auto()) return skeleton;
  if (skeleton.file.path.empty() && loaded.format->companions.empty() && t.loaded.format)
    skeleton.file = FindCompanion(request.template_path, *t.loaded.format);
  inputs[1] = skeleton.file.path;
  CheckNotAnInput(request.output, inputs);
  return skeleton;
}

// What an unedited input holds of the template: the template decoded as a conversion to the
// input's format decodes it (DecodeOptionsFor), written in that format and read back against
// the input's skeleton. Only the clips the input names (all when it names none of them). The
// template scene itself when the input is of the output's format; nothing when the input's
// format cannot be written.
std::optional<Scene> TemplateAsInput(const TemplateFile& t, const FormatDescriptor* input_format, const Scene& input,
                                     const Scene* reference, const std::optional<Scene>& template_scene,
                                     const Options& options) {
  if (!template_scene || !input_format) return std::nullopt;
  if (input_format == t.loaded.format) return template_scene;
  if (!input_format->encode) return std::nullopt;
  try {
    Scene exported = DecodeDocument(t.loaded, DecodeContext{reference, DecodeOptionsFor(input_format, options)});
    std::vector<Clip> named;
    for (Clip& c : exported.clips)
      if (std::any_of(input.clips.begin(), input.clips.end(), [&](const Clip& x) { return x.name == c.name; }))
        named.push_back(std::move(c));
    if (!named.empty()) exported.clips = std::move(named);
    const std::string path = "template" + std::string(input_format->extensions.empty() ? std::string_view()
                                                                                       : input_format->extensions.back());
    const EncodeResult written =
        Encode(std::move(exported), *input_format, EncodeRequest{reference, options, path, nullptr, nullptr, {}, nullptr, nullptr});
    const LoadedFile back = LoadBytes(written.bytes, path, input_format->id, options);
    return DecodeDocument(back, DecodeContext{reference, options});
  } catch (const Error&) {
    return std::nullopt;  // the encoder then compares with the template's own pose
  }
}

void CountScene(const Scene& scene, ConvertResult& result) {
  for (const Clip& c : scene.clips) {
    result.frames += c.frame_count;
    result.events += c.events.size();
    result.joints = std::max(result.joints, c.tracks.size());
  }
  result.clips = scene.clips.size();
  result.joints = std::max(result.joints, scene.skeleton.joints.size());
}

}  // namespace

EncodeResult EncodeOverTemplate(Scene scene, const FormatDescriptor& format, const Scene* reference,
                                const Options& options, const std::string& output_path,
                                const std::string& template_path, const std::string& clip) {
  ConvertRequest request;
  request.output = output_path;
  request.template_path = template_path;
  request.options = options;
  const TemplateFile t = ReadTemplate(request, false);
  std::optional<Scene> template_scene;
  if (t.templ.document && t.loaded.format == &format)
    template_scene = DecodeDocument(t.loaded, DecodeContext{reference, DecodeOptionsFor(&format, options)});
  // What the template gives back through the scene's own format (a glTF decoded by the
  // caller), as convert compares with: an unedited scene is the template's bytes.
  const std::optional<Scene> template_as_input =
      TemplateAsInput(t, FindFormat(scene.source.format), scene, reference, template_scene, options);
  EncodeRequest e{reference, options, output_path, &t.templ, template_scene ? &*template_scene : nullptr, clip,
                  template_as_input ? &*template_as_input : nullptr, nullptr};
  if (!t.templ.document) e.templ = nullptr;
  return Encode(std::move(scene), format, e);
}

ConvertResult Convert(const ConvertRequest& request) {
  ConvertResult result;
  // Every file this conversion reads: no output may replace one of them (checked
  // before anything is read, and again by WriteOutputs for the files an encoder adds).
  std::vector<std::string> inputs = {request.input, request.skeleton.path(), request.template_path};
  CheckNotAnInput(request.output, inputs);
  Bytes read_input;
  if (!request.input_bytes) read_input = ReadFileBytes(request.input);
  const ByteView input = request.input_bytes ? *request.input_bytes : ByteView(read_input);
  result.bytes_in = input.size();
  LoadedFile loaded = LoadBytes(input, request.input, request.input_format, request.options);
  result.input_format = loaded.format;
  // What the reader accepted or could not read is said with the output, naming the input.
  for (const std::string& w : ReadWarnings(loaded)) result.warnings.push_back(request.input + ": " + w);

  const bool to_json = request.output_format.empty() && ExtensionOf(request.output) == ".json";
  const TemplateFile t = ReadTemplate(request, to_json);
  const FormatDescriptor* out_format = to_json ? nullptr : OutputFormat(request, t, loaded.format);
  result.output_format = out_format;
  // An archive of files decodes to no scene of its own: its members are the files to convert.
  if (out_format != loaded.format) RequireOneScene(loaded);

  const Options decode_options = DecodeOptionsFor(out_format, request.options);
  DecodedScene decoded = DecodeWithSkeleton(loaded, ConvertSkeleton(request, loaded, t, inputs), decode_options);
  Scene& scene = decoded.scene;
  result.skeleton = decoded.skeleton;
  result.skeleton_use = decoded.use;
  result.skeleton_warning = decoded.warning;
  std::optional<Scene> template_scene;
  if (t.templ.document && t.loaded.format == out_format)
    template_scene = DecodeDocument(t.loaded, DecodeContext{decoded.reference_used(), decode_options});
  const std::optional<Scene> template_as_input =
      TemplateAsInput(t, loaded.format, decoded.scene, decoded.reference_used(), template_scene, request.options);
  if (!request.clip.empty() && request.template_path.empty()) {
    (void)RequireClip(scene, request.clip, request.input);
    std::erase_if(scene.clips, [&](const Clip& c) { return c.name != request.clip; });
  }
  CountScene(scene, result);

  EncodeResult encoded;
  if (to_json) {
    SampleRequest sample{0, {}, &scene.skeleton, request.options.limits()};
    const std::vector<std::string> read_warnings = ReadWarnings(loaded);  // as `sample` lists them
    sample.warnings = &read_warnings;
    const std::string text = SampleJson(scene, loaded.format->id, sample);
    encoded.bytes.assign(text.begin(), text.end());
  } else if (out_format == loaded.format && !AsksForReencode(request, *out_format)) {
    encoded.bytes = loaded.document->Write();  // nothing asked to change: the file as it was read
    result.copied_verbatim = true;
  } else {
    EncodeRequest e{decoded.reference_used(), request.options, request.output, nullptr, nullptr, {}, nullptr, nullptr};
    if (t.templ.document) e.templ = &t.templ, e.template_clip = request.clip;
    if (template_scene) e.template_scene = &*template_scene;
    if (template_as_input) e.template_as_input = &*template_as_input;
    if (loaded.format == out_format) e.input = loaded.document.get();
    encoded = Encode(std::move(scene), *out_format, e);
    result.report = std::move(encoded.report);
    result.warnings.insert(result.warnings.end(), encoded.warnings.begin(), encoded.warnings.end());
  }
  std::vector<std::pair<std::string, ByteView>> files = {{request.output, encoded.bytes}};
  for (const ExtraOutput& x : encoded.extra_outputs) files.emplace_back(x.path, x.bytes);
  result.written = WriteOutputs(files, inputs, request.run_tag);
  result.bytes_out = encoded.bytes.size();
  return result;
}

}  // namespace animkit
