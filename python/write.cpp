// Writing: animkit.encode() and animkit.save() (a scene or clips through a format's
// encoder, as `animkit convert` runs it), animkit.convert() (the library's Convert) and
// animkit.convert_folder() (BatchConvertJob).
#include "bindings.hpp"

#include <animkit/pipeline/curves.hpp>

#include <chrono>
#include <condition_variable>
#include <thread>

namespace animkit::python {

namespace {

// What encode() and save() were given: a Scene, or clips (gathered into a scene), and the
// reference the encoder gets (the skeleton argument, else the one the scene was decoded
// against, as Convert passes it).
struct EncodeSource {
  std::shared_ptr<const SceneData> given;
  Scene built;
  std::shared_ptr<const Scene> reference;
  const Scene& scene() const { return given ? given->scene() : built; }
};

// The reference a decoded scene was decoded against, kept alive with it.
std::shared_ptr<const Scene> ReferenceOf(const std::shared_ptr<const SceneData>& d) {
  return d->reference() ? std::shared_ptr<const Scene>(d, d->reference()) : nullptr;
}

EncodeSource SourceFrom(const py::handle& what, const py::handle& skeleton, const Options& options) {
  EncodeSource s;
  if (py::isinstance<SceneData>(what)) {
    s.given = what.cast<std::shared_ptr<SceneData>>();
    s.reference = ReferenceOf(s.given);
  } else {
    std::vector<ClipRef> clips;
    if (py::isinstance<ClipRef>(what)) clips.push_back(what.cast<ClipRef>());
    else clips = what.cast<std::vector<ClipRef>>();
    if (clips.empty()) throw py::value_error("nothing to encode: no clips");
    for (const ClipRef& c : clips) s.built.clips.push_back(c.clip());
    s.built.skeleton = clips.front().owner->scene().skeleton;
    s.reference = ReferenceOf(clips.front().owner);
  }
  if (!skeleton.is_none()) {
    s.reference = ReferenceFrom(skeleton, options);
    if (!s.given) s.built.skeleton = s.reference->skeleton;
  }
  return s;
}

struct Encoded {
  const FormatDescriptor* format = nullptr;
  Bytes bytes;
  std::vector<ExtraOutput> extras;
  Value report;
  std::vector<std::string> warnings;
};

// The encoder `animkit convert` would run for path / format (an id or an extension).
// With a template (save(template=)), over that file as `convert --template` writes it.
Encoded EncodeScene(const EncodeSource& source, const std::string& format, const std::string& path,
                    const Options& options, const std::string& template_path) {
  Encoded out;
  out.format = OutputFormatFor(path, format);
  EncodeResult r = template_path.empty()
                       ? animkit::Encode(source.scene(), *out.format,
                                         EncodeRequest{source.reference.get(), options, path, nullptr, nullptr, {}, nullptr, nullptr})
                       : EncodeOverTemplate(source.scene(), *out.format, source.reference.get(), options, path, template_path);
  out.bytes = std::move(r.bytes);
  out.extras = std::move(r.extra_outputs);
  out.report = std::move(r.report);
  out.warnings = std::move(r.warnings);
  return out;
}

py::bytes BytesOf(const Bytes& b) { return py::bytes(reinterpret_cast<const char*>(b.data()), b.size()); }

void Warn(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2) != 0) throw py::error_already_set();
}

Encoded EncodeArgs(const py::object& what, const std::optional<std::string>& format, const py::object& skeleton,
                   const std::string& path, const std::string& template_path, const py::kwargs& kwargs) {
  if (!format && path.empty()) throw py::value_error("give format= (a format id or extension) or path=");
  const Options options = OptionsFrom(kwargs);
  const EncodeSource source = SourceFrom(what, skeleton, options);
  NoGil released;
  return EncodeScene(source, format.value_or(""), path, options, template_path);
}

std::string TemplateArg(const py::object& templ) { return templ.is_none() ? std::string() : PathArg(templ); }

py::object Encode(const py::object& what, const std::optional<std::string>& format, const py::object& skeleton,
                  const py::object& path, bool details, const py::object& templ, const py::kwargs& kwargs) {
  const Encoded e = EncodeArgs(what, format, skeleton, path.is_none() ? std::string() : PathArg(path), TemplateArg(templ), kwargs);
  if (!details) {
    Warn(e.warnings);
    return BytesOf(e.bytes);
  }
  py::dict extras;
  for (const ExtraOutput& x : e.extras) extras[PathToPython(x.path)] = BytesOf(x.bytes);
  py::dict d;
  d["data"] = BytesOf(e.bytes);
  d["format"] = std::string(e.format->id);
  d["extra_outputs"] = extras;
  d["report"] = ToPython(e.report);
  d["warnings"] = py::cast(e.warnings);
  return d;
}

py::list Written(const std::vector<WrittenFile>& files) {
  py::list out;
  for (const WrittenFile& w : files) out.append(py::dict(py::arg("path") = PathToPython(w.path), py::arg("bytes") = w.bytes));
  return out;
}

py::list SaveEncoded(const py::object& what, const py::object& path_arg, const std::optional<std::string>& format,
              const py::object& skeleton, const py::object& templ, const py::kwargs& kwargs) {
  const std::string path = PathArg(path_arg);
  const std::string template_path = TemplateArg(templ);
  const Encoded e = EncodeArgs(what, format, skeleton, path, template_path, kwargs);
  // Never over a file the scene or the template was read from (the one rule of every writer: CheckNotAnInput).
  std::vector<std::string> inputs;
  if (!template_path.empty()) inputs.push_back(template_path);
  if (py::isinstance<SceneData>(what)) inputs.push_back(what.cast<const SceneData&>().path);
  if (!skeleton.is_none() && !py::isinstance<FileData>(skeleton) && !py::isinstance<SceneData>(skeleton) &&
      !py::isinstance<SkeletonData>(skeleton)) {
    inputs.push_back(PathArg(skeleton));
  }
  std::vector<WrittenFile> written;
  {
    NoGil released;
    std::vector<std::pair<std::string, ByteView>> files = {{path, e.bytes}};
    for (const ExtraOutput& x : e.extras) files.emplace_back(x.path, x.bytes);
    written = WriteOutputs(files, inputs);
  }
  Warn(e.warnings);
  return Written(written);
}

py::dict Convert(const py::object& input, const py::object& output, const std::optional<std::string>& format,
                 const std::optional<std::string>& to, const py::object& skeleton, const std::optional<std::string>& clip,
                 const py::object& templ, const py::kwargs& kwargs) {
  ConvertRequest request;
  request.input = PathArg(input);
  request.output = PathArg(output);
  request.input_format = format.value_or("");
  request.output_format = to.value_or("");
  request.skeleton = SkeletonWord(skeleton);
  request.clip = clip.value_or("");
  request.template_path = templ.is_none() ? std::string() : PathArg(templ);
  request.options = OptionsFrom(kwargs);
  ConvertResult r;
  {
    NoGil released;
    r = animkit::Convert(request);
  }
  if (!r.skeleton_warning.empty()) Warn({r.skeleton_warning});
  Warn(r.warnings);
  // `animkit convert -v`'s report, with paths as Python gives them back (bytes it cannot decode kept).
  py::dict d = ToPython(ConvertReport(request, r)).cast<py::dict>();
  d["input"] = PathToPython(request.input);
  d["output"] = PathToPython(request.output);
  d["skeleton"] = r.skeleton.path.empty() ? py::object(py::none()) : PathToPython(r.skeleton.path);
  d["written"] = Written(r.written);
  return d;
}

// ---- convert_folder ----

std::vector<SkeletonMapRule> SkeletonMapFrom(const py::object& map) {
  if (map.is_none()) return {};
  if (py::isinstance<py::str>(map) || py::hasattr(map, "__fspath__")) {  // a map file, as --skeleton-map reads it
    const std::string path = PathArg(map);
    NoGil released;
    return ReadSkeletonMap(path);
  }
  std::vector<SkeletonMapRule> rules;  // (animation glob, skeleton glob) pairs
  for (const py::handle pair : map) {
    const auto [animation, skeleton] = pair.cast<std::pair<std::string, std::string>>();
    CheckGlob(animation);
    CheckGlob(skeleton);
    rules.push_back({animation, skeleton, static_cast<int>(rules.size() + 1)});
  }
  return rules;
}

py::dict ProgressToPython(const BatchProgress& p) {
  py::dict d;
  d["done"] = p.done;
  d["total"] = p.total;
  d["converted"] = p.converted;
  d["skipped"] = p.skipped;
  d["failed"] = p.failed;
  d["elapsed"] = p.elapsed;
  if (p.last) {  // the file's entry as the report has it
    BatchReport one;
    one.files.push_back(*p.last);
    d["last"] = ToPython(one.ToJson()["files"][0]);
  } else {
    d["last"] = py::none();
  }
  return d;
}

// Runs the job on its own thread while this one waits without the GIL, waking every
// 0.1 s to let Python handle signals: Ctrl-C cancels the run (files already started
// finish) and raises KeyboardInterrupt once it has stopped.
BatchReport RunInterruptibly(const BatchConvertJob& job, std::atomic<bool>& cancel) {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  BatchReport report;
  std::exception_ptr error;
  std::thread worker([&] {
    try {
      report = job.Run();
    } catch (...) {
      error = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mutex);
    done = true;
    finished.notify_all();
  });
  bool interrupted = false;
  for (bool stop = false; !stop;) {
    {
      NoGil released;
      std::unique_lock<std::mutex> lock(mutex);
      stop = finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; });
    }
    if (!stop && !interrupted && PyErr_CheckSignals() != 0) {
      interrupted = true;  // the exception stays pending until the run has stopped
      cancel.store(true);
    }
  }
  {
    NoGil released;
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  if (error) std::rethrow_exception(error);
  return report;
}

// animkit.import_data: the import file `animkit import-data` writes (ImportDataJob), as bytes.
py::bytes ImportData(const py::object& path, const std::optional<std::vector<std::string>>& clips,
                     const py::object& skeleton, const std::optional<std::string>& format, const py::kwargs& kwargs) {
  ImportDataJob job;
  job.input = PathArg(path);
  job.format = format.value_or("");
  job.skeleton = SkeletonWord(skeleton);
  job.clips = clips.value_or(std::vector<std::string>{});
  job.options = OptionsFrom(kwargs);
  Bytes bytes;
  {
    NoGil released;
    bytes = job.Run();
  }
  return BytesOf(bytes);
}

// animkit.export_plan: `animkit export-plan --json` (ExportPlanJob).
py::object PlanExport(const py::object& output, const std::optional<std::string>& format, const py::object& source,
                      const std::optional<std::string>& source_format, bool use_template, bool model) {
  ExportPlanJob job;
  job.output = output.is_none() ? std::string() : PathArg(output);
  job.format = format.value_or("");
  job.source = source.is_none() ? std::string() : PathArg(source);
  job.source_format = source_format.value_or("");
  job.use_template = use_template;
  if (model) job.kind = ExportOutput::Any;
  return ToPython(ExportPlanValue(job, job.Run()));
}

py::object ConvertFolder(const py::object& input, const py::object& output, const std::string& to, unsigned jobs,
                         const py::object& skeleton, const py::object& skeleton_map, const std::optional<std::string>& clip,
                         bool by_extension, const py::object& progress, const py::kwargs& kwargs) {
  BatchConvertJob job;
  job.input_dir = PathArg(input);
  job.output_dir = PathArg(output);
  job.to = to;
  job.threads = jobs;
  job.skeleton = SkeletonWord(skeleton);
  job.skeleton_map = SkeletonMapFrom(skeleton_map);
  job.clip = clip.value_or("");
  job.options = OptionsFrom(kwargs);
  job.accept_extension_only = by_extension;
  std::atomic<bool> cancel{false};
  job.cancel = &cancel;
  std::optional<py::error_already_set> raised;  // what the callback raised, raised again here
  if (!progress.is_none()) {
    job.progress = [&](const BatchProgress& p) {
      py::gil_scoped_acquire gil;
      try {
        progress(ProgressToPython(p));
      } catch (py::error_already_set& e) {
        raised = std::move(e);
        throw Error::General("the progress callback raised an exception");
      }
    };
  }
  job.Validate();
  BatchReport report;
  try {
    report = RunInterruptibly(job, cancel);
  } catch (const Error&) {
    if (raised) throw py::error_already_set(std::move(*raised));
    throw;
  }
  Value json = report.ToJson();  // with the fields `animkit convert DIR OUT --report` adds
  json["input"] = job.input_dir;
  json["output"] = job.output_dir;
  json["to"] = job.to;
  return ToPython(json);
}

// `animkit curves FILE --json` as Python values.
py::object CurvesOf(const py::object& path, const std::optional<std::string>& format, const py::object& skeleton,
                    const py::kwargs& kwargs) {
  const std::string file = PathArg(path);
  const std::string skeleton_word = SkeletonWord(skeleton);
  const Options options = OptionsFrom(kwargs);
  Value json;
  {
    NoGil released;
    const LoadedFile loaded = LoadFile(file, format.value_or(""), options);
    const DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource(skeleton_word), options);
    json = CurvesJson(StoredCurvesOfFile(loaded, decoded.scene, options.limits()));
  }
  return ToPython(json);
}

// `animkit curves-replace TEMPLATE EDITS -o OUT`: edits as the dict curves() returns (edited).
py::dict CurvesReplace(const py::object& templ, const py::object& edits, const py::object& output,
                       const std::optional<std::string>& format) {
  CurvesReplaceJob job;
  job.template_path = PathArg(templ);
  job.output = PathArg(output);
  job.format = format.value_or("");
  job.edits = ParseJson(py::module_::import("json").attr("dumps")(edits).cast<std::string>());
  Value report;
  {
    NoGil released;
    report = job.Run();
  }
  return ToPython(report).cast<py::dict>();
}

}  // namespace

void BindWrite(py::module_& m) {
  m.def("encode", &Encode, py::arg("what"), py::arg("format") = py::none(), py::arg("skeleton") = py::none(),
        py::arg("path") = py::none(), py::arg("details") = false, py::arg("template") = py::none(),
        "encode(what, format=None, skeleton=None, path=None, details=False, template=None, **options) -> bytes\n\n"
        "what: a Scene, a Clip or a list of Clips. format: a format id or extension (else from path). "
        "skeleton: the skeleton or model the encoder writes against (a path, File, Scene or Skeleton; default: "
        "the one the scene was decoded against). path: the file the bytes are for, when known (some encoders "
        "look at its extension, the text ANM names its timeline after it). Encoder warnings become "
        "UserWarnings. details=True returns a dict: data, format, extra_outputs {path: bytes} (files the "
        "encoder adds: the text ANM's timeline), report (encoder statistics), warnings. template: the file the "
        "output replaces, as `animkit convert --template` takes it (a model writer keeps its unedited parts byte "
        "for byte).");
  m.def("save", &SaveEncoded, py::arg("what"), py::arg("path"), py::arg("format") = py::none(), py::arg("skeleton") = py::none(),
        py::arg("template") = py::none(),
        "save(what, path, format=None, skeleton=None, template=None, **options) -> [{'path', 'bytes'}]\n\n"
        "encode() for path (template: the file the output replaces, e.g. the model a scene's meshes go back "
        "into), then writes the file and any file the encoder adds atomically, never over the file the scene, "
        "the skeleton or the template was read from.");
  m.def("convert", &Convert, py::arg("input"), py::arg("output"), py::arg("format") = py::none(),
        py::arg("to") = py::none(), py::arg("skeleton") = py::none(), py::arg("clip") = py::none(),
        py::arg("template") = py::none(),
        "convert(input, output, format=None, to=None, skeleton=None, clip=None, template=None, **options) -> dict\n\n"
        "`animkit convert IN OUT` for one file; returns what `convert -v` reports.");
  m.def("import_data", &ImportData, py::arg("path"), py::arg("clips") = py::none(), py::arg("skeleton") = py::none(),
        py::arg("format") = py::none(),
        "import_data(path, clips=None, skeleton=None, format=None, **options) -> bytes\n\n"
        "The import file `animkit import-data` writes (docs/blender.md, \"The import file\"): one decode of "
        "path against skeleton (a path, 'auto' or None: the companion, False: none), the clips that clips "
        "(names or globs, * and ?) choose, or every clip.");
  m.def("export_plan", &PlanExport, py::arg("output") = py::none(), py::arg("format") = py::none(),
        py::arg("source") = py::none(), py::arg("source_format") = py::none(), py::arg("use_template") = true,
        py::arg("model") = false,
        "export_plan(output=None, format=None, source=None, source_format=None, use_template=True, model=False) "
        "-> dict\n\n"
        "`animkit export-plan --json`: the format an export of a rig read from source (of source_format) to "
        "output writes (format: asked for explicitly; model: the rig's meshes, so a model format too, "
        "`--model`), whether it needs --to, the template (or None), the "
        "source's family and notes [{level, text}]. output None: the default file. Raises animkit.Error "
        "when the format must be asked for, saying how.");
  m.def("curves", &CurvesOf, py::arg("path"), py::arg("format") = py::none(), py::arg("skeleton") = py::none(),
        "curves(path, format=None, skeleton=None, **options) -> dict\n\n"
        "The curves the file stores (KH2), as `animkit curves FILE --json` prints them: {'clips': [{'name', "
        "'curves': {'rotation_mode', 'driven', 'channels', 'constants'}}]} (docs/cli.md, curves).");
  m.def("curves_replace", &CurvesReplace, py::arg("template"), py::arg("edits"), py::arg("output"),
        py::arg("format") = py::none(),
        "curves_replace(template, edits, output, format=None) -> dict\n\n"
        "`animkit curves-replace`: writes template with the channels edits gives (curves()' shape) replaced, "
        "every other byte kept; returns {'replaced', 'unchanged', 'identical', 'appended', 'notes'}.");
  m.def("convert_folder", &ConvertFolder, py::arg("input"), py::arg("output"), py::arg("to") = "glb",
        py::arg("jobs") = 0, py::arg("skeleton") = py::none(), py::arg("skeleton_map") = py::none(),
        py::arg("clip") = py::none(), py::arg("by_extension") = false, py::arg("progress") = py::none(),
        "convert_folder(input, output, to='glb', jobs=0, skeleton=None, skeleton_map=None, clip=None, "
        "by_extension=False, progress=None, **options) -> dict\n\n"
        "`animkit convert DIR OUT --to TO`: returns the --report document. skeleton: a path or 'auto'; "
        "skeleton_map: a map file or (animation glob, skeleton glob) pairs; progress(dict) is called after "
        "each file (done, total, converted, skipped, failed, elapsed, last); an exception it raises stops "
        "the run and is raised again. Ctrl-C stops the run and raises KeyboardInterrupt.");
}

}  // namespace animkit::python
