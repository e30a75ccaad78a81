// animkit.load() and animkit.File: read a file (or bytes), describe it, write it back,
// decode it against its skeleton.
#include "bindings.hpp"

#include <algorithm>

namespace animkit::python {

namespace {

bool IsBytesLike(const py::handle& h) {
  return py::isinstance<py::bytes>(h) || py::isinstance<py::bytearray>(h) || py::isinstance<py::memoryview>(h);
}

// A scene's reference that keeps the scene alive.
std::shared_ptr<const Scene> SceneOf(const std::shared_ptr<const SceneData>& d) {
  return std::shared_ptr<const Scene>(d, &d->scene());
}

std::shared_ptr<FileData> Load(const py::object& source, const std::optional<std::string>& format,
                               const py::object& skeleton, const py::object& name, const py::kwargs& kwargs) {
  auto f = std::make_shared<FileData>();
  f->options = OptionsFrom(kwargs);
  f->format_given = format.value_or("");
  if (py::isinstance<FileData>(skeleton)) {
    f->skeleton_file = skeleton.cast<std::shared_ptr<FileData>>();
  } else if (py::isinstance<SceneData>(skeleton)) {
    f->skeleton_scene = skeleton.cast<std::shared_ptr<SceneData>>();
  } else if (py::isinstance<SkeletonData>(skeleton)) {
    f->skeleton_scene = BuiltScene(SkeletonScene(skeleton.cast<const SkeletonData&>().skeleton));
  } else {
    f->skeleton_path = SkeletonWord(skeleton);  // "" (the default) or "auto": the companion (FindCompanion)
  }
  if (IsBytesLike(source)) {
    f->from_bytes = true;
    if (name.is_none() && f->skeleton_path == kSkeletonAuto) {
      throw py::value_error("skeleton='auto' looks beside the file: give the bytes' path as name=");
    }
    // Bytes with no name have no folder to find a companion in.
    if (name.is_none() && f->skeleton_path.empty()) f->skeleton_path = std::string(kSkeletonNone);
    const std::string path = name.is_none() ? std::string("<bytes>") : PathArg(name);
    if (py::isinstance<py::bytes>(source)) {  // immutable: read in place
      char* data = nullptr;
      Py_ssize_t size = 0;
      if (PyBytes_AsStringAndSize(source.ptr(), &data, &size) != 0) throw py::error_already_set();
      const ByteView view(reinterpret_cast<const uint8_t*>(data), static_cast<size_t>(size));
      NoGil released;
      f->loaded = LoadBytes(view, path, f->format_given, f->options);
    } else {  // may change while the GIL is released: a copy
      const py::buffer_info info = py::reinterpret_borrow<py::buffer>(source).request();
      const auto* begin = static_cast<const uint8_t*>(info.ptr);
      const Bytes copy(begin, begin + info.size * info.itemsize);
      NoGil released;
      f->loaded = LoadBytes(copy, path, f->format_given, f->options);
    }
  } else {
    if (!name.is_none()) throw py::type_error("name= is for data given as bytes");
    const std::string path = PathArg(source);
    NoGil released;
    f->loaded = LoadFile(path, f->format_given, f->options);
  }
  return f;
}

// What the file decodes against, as load() was given it: a path or "auto", or a loaded File or
// Scene (decoded once and kept alive in keep).
SkeletonSource SourceOf(const FileData& f, std::shared_ptr<const Scene>& keep) {
  if (f.skeleton_scene) {
    keep = SceneOf(f.skeleton_scene);
    return SkeletonSource::Decoded(*keep, f.skeleton_scene->path);
  }
  if (f.skeleton_file) {
    keep = f.skeleton_file->AsReference();
    return SkeletonSource::Decoded(*keep, f.skeleton_file->loaded.path);
  }
  return f.skeleton_path;
}

// InfoValue of the file as loaded (from a path or from bytes: "file" is its path or
// name, skeleton="auto" looks beside it), converted as the CLI prints it; full=True as
// `info --json --full` prints it.
py::object Info(const FileData& f, bool full) {
  Value info;
  {
    NoGil released;
    std::shared_ptr<const Scene> skeleton;
    info = InfoValue(f.loaded, InfoRequest{f.format_given, SourceOf(f, skeleton), f.options, full ? InfoDetail::Full : InfoDetail::Summary});
  }
  return ToPython(info, NonFinite::AsNone);
}

py::bytes ToBytes(const Bytes& bytes) {
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

py::bytes Member(const FileData& f, const std::string& name) {
  Bytes bytes;
  {
    NoGil released;
    bytes = f.loaded.document->MemberBytes(FindMember(f.loaded, name));
  }
  return ToBytes(bytes);
}

py::bytes WithMember(const FileData& f, const std::string& name, const py::buffer& data) {
  const py::buffer_info info = data.request();
  const auto* begin = static_cast<const uint8_t*>(info.ptr);
  const Bytes copy(begin, begin + info.size * info.itemsize);
  Bytes bytes;
  {
    NoGil released;
    bytes = ReplaceMember(f.loaded, name, copy);
  }
  return ToBytes(bytes);
}

std::vector<std::string> Extract(const FileData& f, const py::object& folder, const std::vector<std::string>& names) {
  const std::string dir = PathArg(folder);
  NoGil released;
  return ExtractMembers(f.loaded, names, dir);
}

py::bytes Write(const FileData& f) {
  Bytes bytes;
  {
    NoGil released;
    bytes = f.loaded.document->Write();
  }
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void Save(const FileData& f, const py::object& path) {
  const std::string target = PathArg(path);
  NoGil released;
  WriteFileAtomic(target, f.loaded.document->Write());
}

std::shared_ptr<SceneData> Decode(const FileData& f, const py::object& scene) {
  auto d = std::make_shared<SceneData>();
  d->path = f.loaded.path;
  d->format = std::string(f.loaded.format->id);
  d->limits = f.options.limits();
  RequireOneScene(f.loaded);  // an archive of files: its members, not decode()
  Options options = f.options;
  if (!scene.is_none()) {
    const std::string name = scene.cast<std::string>();
    const std::vector<std::string> scenes = f.loaded.document->Scenes();
    if (std::find(scenes.begin(), scenes.end(), name) == scenes.end())
      throw py::key_error("no scene '" + name + "' in " + f.loaded.path + " (File.scenes lists them)");
    options.SetScene(name);
  }
  {
    NoGil released;
    d->decoded = DecodeWithSkeleton(f.loaded, SourceOf(f, d->shared_reference), options);
  }
  if (!d->decoded.warning.empty() && PyErr_WarnEx(PyExc_UserWarning, d->decoded.warning.c_str(), 1) != 0) {
    throw py::error_already_set();  // warnings turned into errors
  }
  // Each part skipped as damaged (no clip from it) is a warning; File.warnings lists them
  // with the reader's other notes.
  for (const std::string& damaged : f.loaded.document->Damaged()) {
    const std::string text = f.loaded.path + ": damaged, no clip from it (its bytes are kept): " + damaged;
    if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 1) != 0) throw py::error_already_set();
  }
  return d;
}

std::string Repr(const FileData& f) {
  return "<animkit.File " + std::string(f.loaded.format->id) + " '" + f.loaded.path + "', " +
         std::to_string(f.loaded.input_bytes) + " bytes>";
}

}  // namespace

std::shared_ptr<const Scene> FileData::AsReference() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!reference_) reference_ = std::make_shared<const Scene>(DecodeDocument(loaded, DecodeContext{nullptr, options}));
  return reference_;
}

std::shared_ptr<SceneData> BuiltScene(Scene scene) {
  auto d = std::make_shared<SceneData>();
  d->decoded.scene = std::move(scene);
  return d;
}

std::shared_ptr<const Scene> ReferenceFrom(const py::handle& skeleton, const Options& options) {
  if (skeleton.is_none()) return nullptr;
  if (py::isinstance<FileData>(skeleton)) {
    const auto f = skeleton.cast<std::shared_ptr<FileData>>();
    NoGil released;
    return f->AsReference();
  }
  if (py::isinstance<SceneData>(skeleton)) return SceneOf(skeleton.cast<std::shared_ptr<SceneData>>());
  if (py::isinstance<SkeletonData>(skeleton)) {
    return std::make_shared<const Scene>(SkeletonScene(skeleton.cast<const SkeletonData&>().skeleton));
  }
  const std::string path = PathArg(skeleton);
  if (path == kSkeletonAuto) throw py::value_error("skeleton='auto' finds the skeleton beside a file: give load() the file");
  NoGil released;
  return std::make_shared<const Scene>(LoadReference(path, options));
}

void BindFile(py::module_& m) {
  py::class_<FileData, std::shared_ptr<FileData>>(m, "File",
                                                  "A file read by its format: every field kept (write() gives its bytes "
                                                  "back), decoded on demand (decode()).")
      .def_property_readonly("path", [](const FileData& f) { return PathToPython(f.loaded.path); },
                             "The path read, or the name= given with bytes ('<bytes>' when none).")
      .def_property_readonly("format", [](const FileData& f) { return std::string(f.loaded.format->id); },
                             "The format id (the CLI contract's: 'edf-canm', 'kh2-bar', ...).")
      .def_property_readonly("description", [](const FileData& f) { return std::string(f.loaded.format->description); })
      .def_property_readonly("size", [](const FileData& f) { return f.loaded.input_bytes; }, "Bytes read.")
      .def_property_readonly("warnings", [](const FileData& f) { return ReadWarnings(f.loaded); },
                             "What the reader accepted that the format forbids, then every damaged part skipped "
                             "('damaged, no clip from it ...'), each with its offset: the lines `animkit sample` "
                             "prints on stderr.")
      .def_property_readonly("members", [](const FileData& f) { return ToPython(MembersValue(f.loaded)); },
                             "An archive's members in stored order (EDF RAB, MRAB, PAK), each a dict {index, name, folder, "
                             "size, stored_size, compressed}, plus names when the member has other names (a Metroid "
                             "PAK's named table); [] for a file that is no archive.")
      .def("member", &Member, py::arg("name"),
           "A member's bytes, unpacked, by name or 'folder/name', else another of its names (any case) or "
           "an 8-digit id (KeyError-like animkit.Error when none).")
      .def("with_member", &WithMember, py::arg("name"), py::arg("data"),
           "The archive's bytes with the member's bytes replaced (packed as it was; member order and every other "
           "byte kept). The file itself is not changed: save the result where you want it.")
      .def("extract", &Extract, py::arg("folder"), py::arg("names") = std::vector<std::string>(),
           "Writes the named members (default: all) unpacked under folder as <folder>/<name>; the paths written.")
      .def("info", &Info, py::arg("full") = false,
           "What `animkit info --json` prints for the file, as a dict: per clip and per table a summary; "
           "full=True: every record too (`info --json --full`).")
      .def("write", &Write, "The file's bytes, written back from every field read (identical to the input).")
      .def("save", &Save, py::arg("path"), "Writes write()'s bytes to path atomically (temporary file, then rename).")
      .def_property_readonly("scenes", [](const FileData& f) { return f.loaded.document->Scenes(); },
                             "The scenes the file holds by name when it holds several (a Metroid PAK's or ANCS's "
                             "characters; decode(scene=NAME) decodes one); [] for a file that is one scene.")
      .def("decode", &Decode, py::arg("scene") = py::none(),
           "Decodes the file against the skeleton given to load() (the CLI's rule and limits): a Scene. scene: "
           "one of File.scenes (default: the one the options name, else the first).")
      .def("__repr__", &Repr);

  m.def("load", &Load, py::arg("source"), py::arg("format") = py::none(), py::arg("skeleton") = py::none(),
        py::arg("name") = py::none(),
        "load(source, format=None, skeleton=None, name=None, **options) -> File\n\n"
        "source: a path (str or os.PathLike) or the file's bytes (bytes, bytearray, memoryview; name= then "
        "names it for errors, detection by extension and the companion). format: a format id, else detected. "
        "skeleton: None or 'auto' (the default: the skeleton or model beside the file, when it fits), 'none' or "
        "False (no skeleton file), a path, a File, a Scene or a Skeleton. options: format options "
        "(euler='zyx', canm_version=768, raw=True) and every limit (max_frames=..., max_values=...: "
        "animkit.limits()). A missing file raises animkit.FileNotFoundError.");
}

}  // namespace animkit::python
