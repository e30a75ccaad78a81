#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/pipeline.hpp>
#include <animkit/offline/sampling.hpp>

#include <charconv>
#include <cmath>
#include <memory>
#include <span>

namespace animkit {

LoadedFile LoadBytes(ByteView data, const std::string& path, std::string_view format_id, const Options& options) {
  LoadedFile loaded;
  loaded.path = path;
  loaded.input_bytes = data.size();
  try {
    if (!format_id.empty()) {
      loaded.format = FindFormat(format_id);
      if (!loaded.format) throw Error::General("unknown format id '" + std::string(format_id) + "'");
    } else {
      Detection d = Detect(data, path);
      if (!d.format) {
        // No probe claims the bytes; an extension that only one format uses still names
        // the format whose error (with its offset) tells the user what is wrong.
        const auto by_extension = FormatsForExtension(ExtensionOf(path));
        if (by_extension.size() != 1) {
          throw Error::General("not a file of any supported format (use --format to force one)");
        }
        d.format = by_extension.front();
      }
      loaded.format = d.format;
    }
    if (!loaded.format->read) throw Error::General(std::string(loaded.format->id) + " files cannot be read");
    Options read_options = options;
    read_options.Set(kSourcePathOption, path);
    loaded.document = loaded.format->read(data, read_options);
  } catch (const Error& e) {
    throw e.InFile(path);
  }
  return loaded;
}

LoadedFile LoadFile(const std::string& path, std::string_view format_id, const Options& options) {
  Bytes data = ReadFileBytes(path);
  return LoadBytes(data, path, format_id, options);
}

Scene LoadReference(const std::string& path, const Options& options) {
  LoadedFile f = LoadFile(path, "", options);
  return DecodeDocument(f, DecodeContext{nullptr, options});
}

Scene DecodeDocument(const LoadedFile& loaded, const DecodeContext& context) {
  try {
    DecodeContext scaled = context;
    scaled.options.SetLimits(ForInputSize(context.options.limits(), loaded.input_bytes));
    Scene scene = loaded.document->Decode(scaled);
    scene.source = {std::string(loaded.format->id), loaded.document->Version(), loaded.path};
    CheckScene(scene, scaled.options.limits());
    return scene;
  } catch (const Error& e) {
    throw e.InFile(loaded.path);
  }
}

const Skeleton& RestSkeleton(const Scene& scene, const Scene* reference) {
  return reference && !reference->skeleton.empty() ? reference->skeleton : scene.skeleton;
}

const Skeleton& DecodedScene::rest() const { return RestSkeleton(scene, reference_used()); }

DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const std::string& skeleton_path, const Options& options,
                                const Scene* decoded_reference) {
  if (decoded_reference) return DecodeWithSkeleton(loaded, Companion{skeleton_path, "given"}, options, decoded_reference);
  return DecodeWithSkeleton(loaded, ResolveSkeleton(loaded, skeleton_path), options, nullptr);
}

DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const Companion& skeleton, const Options& options,
                                const Scene* decoded_reference) {
  DecodedScene out;
  out.skeleton = skeleton;
  if (decoded_reference) {
    out.shared = decoded_reference;
  } else {
    if (!out.skeleton.path.empty()) {
      out.reference = LoadReference(out.skeleton.path, options);
      out.decoded_here = true;
    }
  }
  out.scene = DecodeDocument(loaded, DecodeContext{out.reference_used(), options});
  return out;
}

const Clip& RequireClip(const Scene& scene, const std::string& name, const std::string& file) {
  for (const Clip& c : scene.clips)
    if (c.name == name) return c;
  throw Error::General("no clip named '" + name + "'").InFile(file);
}

namespace {

template <class T>
uint64_t CheckTrack(const Track<T>& track, const Limits& limits, const std::string& what) {
  CheckLimit(track.times.size(), &Limits::max_keys, limits, what + ": the key count");
  for (Seconds t : track.times) CheckedTime(t, what + ": a key time");
  return track.times.size();
}

}  // namespace

void CheckScene(const Scene& scene, const Limits& limits) {
  CheckLimit(scene.skeleton.joints.size(), &Limits::max_joints, limits, "the skeleton's joint count");
  CheckLimit(scene.clips.size(), &Limits::max_clips, limits, "the clip count");
  uint64_t keys = 0;
  for (const Clip& clip : scene.clips) {
    const std::string what = "clip '" + clip.name + "'";
    CheckedTime(clip.frame_rate, what + ": the frame rate");
    CheckedTime(clip.duration, what + ": the duration");
    CheckLimit(clip.frame_count, &Limits::max_frames, limits, what + ": the frame count");
    CheckLimit(clip.tracks.size(), &Limits::max_joints, limits, what + ": the joint count");
    for (const JointTrack& t : clip.tracks) {
      const std::string track = what + " joint '" + t.joint + "'";
      keys += CheckTrack(t.translation, limits, track + " translation");
      keys += CheckTrack(t.rotation, limits, track + " rotation");
      keys += CheckTrack(t.scale, limits, track + " scale");
      CheckLimit(t.visible.size(), &Limits::max_frames, limits, track + ": the visibility frame count");
    }
    for (const CameraTrack& c : clip.cameras) {
      CheckLimit(c.times.size(), &Limits::max_keys, limits, what + " camera '" + c.name + "': the key count");
      keys += c.times.size();
    }
    for (const Event& e : clip.events) {
      CheckedTime(e.time, what + " event '" + e.name + "': the time");
      if (e.end_time) CheckedTime(*e.end_time, what + " event '" + e.name + "': the end time");
    }
    keys += clip.events.size();
  }
  CheckLimit(keys, &Limits::max_values, limits, "the number of keys decoded");
}

namespace {

class JsonOut {
 public:
  explicit JsonOut(const std::function<void(std::string_view)>* sink = nullptr) : sink_(sink) {}
  // Hands what is buffered to the sink (when there is one) once it is large.
  void Flush(bool all = false) {
    if (sink_ && (all || out_.size() >= (size_t{1} << 16))) {
      (*sink_)(out_);
      out_.clear();
    }
  }
  void Raw(std::string_view s) { out_ += s; }
  void Number(double v) {
    if (!std::isfinite(v)) {
      out_ += "null";
      return;
    }
    // Values are float32 in the model: the shortest text that reads back as the same float.
    char buf[32];
    float f = static_cast<float>(v);
    auto res = (static_cast<double>(f) == v) ? std::to_chars(buf, buf + sizeof buf, f)
                                             : std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, res.ptr);
  }
  void String(std::string_view s) { out_ += DumpJson(Value(std::string(s))); }
  void Vec(std::initializer_list<float> v) {
    out_ += '[';
    bool first = true;
    for (float x : v) {
      if (!first) out_ += ", ";
      first = false;
      Number(x);
    }
    out_ += ']';
  }
  std::string Take() { return std::move(out_); }

 private:
  const std::function<void(std::string_view)>* sink_;
  std::string out_;
};

}  // namespace

void ForEachSampleFrame(const Clip& clip, const SampleRequest& request, const SampleFrameFn& fn) {
  const bool resample = request.rate > 0;
  const double rate = resample ? request.rate : clip.frame_rate;
  const size_t frames = SampleFrameCount(clip, resample ? rate : 0, request.limits);
  const size_t joints = clip.tracks.size();
  std::vector<TransformTRS> pose(joints);
  const auto visible = std::make_unique<bool[]>(joints);
  for (size_t f = 0; f < frames; ++f) {
    const Seconds t = FrameTime(f, rate);
    SampleClipJob{&clip, request.rest, t, pose}.Run();
    // The file's own frame index, for visibility.
    const size_t own = resample ? static_cast<size_t>(std::floor(static_cast<double>(t) * clip.frame_rate + 1e-4)) : f;
    for (size_t i = 0; i < joints; ++i) visible[i] = IsVisible(clip.tracks[i], own);
    fn(f, pose, std::span<const bool>(visible.get(), joints));
  }
}

std::string SampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request) {
  std::string text;
  WriteSampleJson(scene, format_id, request, [&](std::string_view piece) { text += piece; });
  return text;
}

void WriteSampleJson(const Scene& scene, std::string_view format_id, const SampleRequest& request,
                     const std::function<void(std::string_view)>& sink) {
  // Every count checked before the first byte goes out.
  for (const Clip& clip : scene.clips)
    if (request.clip.empty() || clip.name == request.clip) (void)SampleFrameCount(clip, request.rate, request.limits);
  JsonOut j(&sink);
  j.Raw("{\n  \"format\": ");
  j.String(format_id);
  j.Raw(",\n  \"clips\": [");
  bool first_clip = true;
  for (const Clip& clip : scene.clips) {
    if (!request.clip.empty() && clip.name != request.clip) continue;
    j.Raw(first_clip ? "\n    {" : ",\n    {");
    first_clip = false;
    const bool resample = request.rate > 0;
    const double rate = resample ? request.rate : clip.frame_rate;
    const size_t frames = SampleFrameCount(clip, resample ? rate : 0, request.limits);
    j.Raw("\n      \"name\": ");
    j.String(clip.name);
    j.Raw(",\n      \"frame_rate\": ");
    j.Number(rate);
    j.Raw(",\n      \"duration\": ");
    j.Number(clip.duration);
    j.Raw(",\n      \"loop\": ");
    j.Raw(clip.loop ? "true" : "false");
    j.Raw(",\n      \"space\": ");
    j.Raw(clip.space == Space::Model ? "\"model\"" : "\"local\"");
    j.Raw(",\n      \"joints\": [");
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
      if (i) j.Raw(", ");
      j.String(clip.tracks[i].joint);
    }
    j.Raw("],\n      \"frames\": [");
    ForEachSampleFrame(clip, request, [&](size_t f, std::span<const TransformTRS> pose, std::span<const bool> visible) {
      j.Raw(f ? ",\n        [" : "\n        [");
      for (size_t i = 0; i < pose.size(); ++i) {
        if (i) j.Raw(", ");
        if (!visible[i]) {
          j.Raw("null");
          continue;
        }
        const TransformTRS& p = pose[i];
        j.Raw("{\"t\": ");
        j.Vec({p.translation.x, p.translation.y, p.translation.z});
        j.Raw(", \"r\": ");
        j.Vec({p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w});
        j.Raw(", \"s\": ");
        j.Vec({p.scale.x, p.scale.y, p.scale.z});
        j.Raw("}");
      }
      j.Raw("]");
      j.Flush();
    });
    j.Raw(frames ? "\n      ],\n      \"events\": [" : "],\n      \"events\": [");
    for (size_t e = 0; e < clip.events.size(); ++e) {
      const Event& ev = clip.events[e];
      j.Raw(e ? ", {\"time\": " : "{\"time\": ");
      j.Number(ev.time);
      if (ev.end_time) {
        j.Raw(", \"end_time\": ");
        j.Number(*ev.end_time);
      }
      j.Raw(", \"name\": ");
      j.String(ev.name);
      j.Raw(", \"params\": [");
      for (size_t p = 0; p < ev.params.size(); ++p) {
        if (p) j.Raw(", ");
        j.Number(ev.params[p]);
      }
      j.Raw("]}");
    }
    j.Raw("]\n    }");
  }
  j.Raw(first_clip ? "]\n}\n" : "\n  ]\n}\n");
  j.Flush(true);
}

void ValidateFile(const std::string& path, std::string_view format_id, const std::string& skeleton,
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
}

Value ConvertReport(const ConvertRequest& request, const ConvertResult& r) {
  Value written = Value::array();
  for (const WrittenFile& w : r.written) written.push_back({{"path", w.path}, {"bytes", w.bytes}});
  Value warnings = Value::array();
  for (const std::string& w : r.warnings) warnings.push_back(w);
  return {{"input", request.input},
          {"output", request.output},
          {"input_format", r.input_format ? Value(r.input_format->id) : Value()},
          {"output_format", r.output_format ? Value(r.output_format->id) : "sample-json"},
          {"skeleton", r.skeleton.path.empty() ? Value() : Value(r.skeleton.path)},
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
  std::string ext = ExtensionOf(output_path);
  auto by_ext = FormatsForExtension(ext);
  if (by_ext.empty()) {
    throw Error::General("cannot tell the output format from the extension '" + ext + "' (use --to ID)")
        .InFile(output_path);
  }
  return by_ext.front();  // the table's order settles shared extensions
}

bool AsksForReencode(const ConvertRequest& request, const FormatDescriptor& format) {
  if (!request.clip.empty() || !request.template_path.empty()) return true;
  for (const auto& [name, value] : request.options.values()) {
    for (const OptionSpec& spec : format.options)
      if (spec.name == name) return true;
  }
  return false;
}

namespace {

// What glTF cannot carry, from the file the output replaces: the template's decoded
// metadata wins over the input's (its glTF extras), the scene's and each clip's (the
// template clip of the same name, the one --clip names, or the only one).
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

}  // namespace

ConvertResult Convert(const ConvertRequest& request) {
  ConvertResult result;
  // Every file this conversion reads: no output may replace one of them (checked
  // before anything is read, and again by WriteOutputs for the files an encoder adds).
  std::vector<std::string> inputs = {request.input, request.skeleton, request.template_path};
  CheckNotAnInput(request.output, inputs);
  Bytes read_input;
  if (!request.input_bytes) read_input = ReadFileBytes(request.input);
  const ByteView input = request.input_bytes ? *request.input_bytes : ByteView(read_input);
  result.bytes_in = input.size();
  LoadedFile loaded = LoadBytes(input, request.input, request.input_format, request.options);
  result.input_format = loaded.format;

  const bool to_json = request.output_format.empty() && ExtensionOf(request.output) == ".json";
  EncodeTemplate templ;
  LoadedFile loaded_template;
  if (!request.template_path.empty()) {
    if (to_json) throw Error::General("--template applies to a game format output, not sample JSON").InFile(request.output);
    templ.path = request.template_path;
    templ.bytes = ReadFileBytes(request.template_path);
    loaded_template = LoadBytes(templ.bytes, request.template_path, "", request.options);
    templ.document = loaded_template.document.get();
  }
  const FormatDescriptor* out_format = to_json ? nullptr : OutputFormatFor(request.output, request.output_format);
  // Formats that share an extension (.anm): the template's, when it has the output's.
  if (out_format && loaded_template.format && request.output_format.empty() && out_format != loaded_template.format) {
    for (std::string_view ext : loaded_template.format->extensions)
      if (ext == ExtensionOf(request.output)) out_format = loaded_template.format;
  }
  result.output_format = out_format;

  // Resolved once: the companion is an input too, checked before it is read.
  Companion skeleton = request.reference ? Companion{request.skeleton, "given"} : ResolveSkeleton(loaded, request.skeleton);
  if (request.skeleton == kSkeletonAuto && !request.reference) {
    // A glTF going back over a game file: the template's companion is the output's.
    if (skeleton.path.empty() && loaded.format->companions.empty() && loaded_template.format)
      skeleton = FindCompanion(request.template_path, *loaded_template.format);
    inputs[1] = skeleton.path;
    CheckNotAnInput(request.output, inputs);
  }
  DecodedScene decoded = DecodeWithSkeleton(loaded, skeleton, request.options, request.reference);
  Scene& scene = decoded.scene;
  result.skeleton = decoded.skeleton;
  if (templ.document && loaded_template.format == out_format) {
    DecodeContext tctx{decoded.reference_used(), request.options};
    TakeTemplateMetadata(scene, DecodeDocument(loaded_template, tctx), request.clip);
  }
  const bool filter_clips = !request.clip.empty() && request.template_path.empty();
  if (filter_clips) {
    (void)RequireClip(scene, request.clip, request.input);
    std::erase_if(scene.clips, [&](const Clip& c) { return c.name != request.clip; });
  }
  for (const Clip& c : scene.clips) {
    result.frames += c.frame_count;
    result.events += c.events.size();
    result.joints = std::max(result.joints, c.tracks.size());
  }
  result.clips = scene.clips.size();
  result.joints = std::max(result.joints, scene.skeleton.joints.size());

  Bytes out;
  std::vector<ExtraOutput> extras;
  if (to_json) {
    std::string text =
        SampleJson(scene, loaded.format->id, SampleRequest{0, {}, &scene.skeleton, request.options.limits()});
    out.assign(text.begin(), text.end());
  } else if (out_format == loaded.format && !AsksForReencode(request, *out_format)) {
    out = loaded.document->Write();  // nothing asked to change: the file as it was read
    result.copied_verbatim = true;
  } else {
    if (!out_format->encode) {
      throw Error::General(std::string(out_format->id) + " files cannot be written from animation data")
          .InFile(request.output);
    }
    EncodeContext ectx;
    ectx.reference = decoded.reference_used();
    ectx.options = request.options;
    ectx.output_path = request.output;
    if (!request.template_path.empty()) ectx.templ = &templ, ectx.template_clip = request.clip;
    try {
      out = out_format->encode(scene, ectx)->Write();
    } catch (const Error& e) {
      throw e.InFile(request.output);
    }
    result.report = std::move(ectx.report);
    result.warnings = std::move(ectx.warnings);
    extras = std::move(ectx.extra_outputs);
  }
  std::vector<std::pair<std::string, ByteView>> files = {{request.output, out}};
  for (const ExtraOutput& e : extras) files.emplace_back(e.path, e.bytes);
  result.written = WriteOutputs(files, inputs, request.run_tag);
  result.bytes_out = out.size();
  return result;
}

}  // namespace animkit
