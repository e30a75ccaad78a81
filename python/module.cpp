// animkit._animkit: the module, its error type and the format registry.
#include <animkit/formats/registry.hpp>
#include "bindings.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>

namespace animkit::python {

namespace {

std::atomic<uint64_t> g_released_sections{0};

// animkit.Error: created once, kept for the life of the process (never released, so
// that nothing touches it after the interpreter is gone).
PyObject* g_error_type = nullptr;
// animkit.FileNotFoundError: an animkit.Error that is also Python's FileNotFoundError (a
// file that does not exist: ENOENT), made and kept like g_error_type.
PyObject* g_not_found_type = nullptr;

py::object Optional(const std::optional<uint64_t>& v) { return v ? py::object(py::int_(*v)) : py::object(py::none()); }
py::object Optional(const std::optional<int>& v) { return v ? py::object(py::int_(*v)) : py::object(py::none()); }

// animkit.formats() and animkit.limits(): the two lists of the library's one formats
// document (FormatsValue, also `animkit formats --json`).
py::object FormatList() { return ToPython(FormatsValue()["formats"]); }

py::object LimitList() { return ToPython(FormatsValue()["limits"]); }

// Sets animkit.Error for e as the pending Python exception.
void SetError(const Error& e) {
  const bool not_found = e.system_error() && *e.system_error() == ENOENT;
  PyObject* type_ptr = not_found ? g_not_found_type : g_error_type;
  py::object type = py::reinterpret_borrow<py::object>(type_ptr);
  py::object exc = type(Text(e.what()));
  if (not_found) {  // OSError's fields; str() stays the CLI's message (the class's __str__)
    exc.attr("errno") = ENOENT;
    exc.attr("strerror") = Text(std::strerror(ENOENT));
    exc.attr("filename") = e.file().empty() ? py::object(py::none()) : PathToPython(e.file());
  }
  exc.attr("message") = Text(e.message());
  exc.attr("path") = e.file().empty() ? py::object(py::none()) : PathToPython(e.file());
  exc.attr("offset") = Optional(e.byte_offset());
  exc.attr("line") = Optional(e.line());
  exc.attr("column") = Optional(e.column());
  PyErr_SetObject(type_ptr, exc.ptr());
}

}  // namespace

NoGil::NoGil() {
  if (PyGILState_Check() == 0) g_released_sections.fetch_add(1, std::memory_order_relaxed);
}

uint64_t ReleasedSections() { return g_released_sections.load(std::memory_order_relaxed); }

void BindErrors(py::module_& m) {
  g_error_type = py::exception<Error>(m, "Error", PyExc_ValueError).release().ptr();
  py::setattr(g_error_type, "__doc__",
              py::str("A file animkit cannot read, decode, encode or write, or an argument it refuses.\n\n"
                      "str(e) is the CLI's one-line message; e.message the sentence alone; e.path the file "
                      "(None when none); e.offset the byte offset (binary formats) or e.line / e.column "
                      "(text formats), None when the error has no place."));
  // The class attributes are the defaults of an Error raised from Python code.
  for (const char* name : {"message", "path", "offset", "line", "column"}) py::setattr(g_error_type, name, py::none());
  py::dict body;
  body["__str__"] = py::module_::import("builtins").attr("BaseException").attr("__str__");
  body["__doc__"] = py::str("A file that does not exist: an animkit.Error that is also FileNotFoundError (errno, "
                            "filename set; str(e) is the CLI's message).");
  body["__module__"] = py::str("animkit");
  const py::tuple bases = py::make_tuple(py::reinterpret_borrow<py::object>(g_error_type),
                                         py::reinterpret_borrow<py::object>(PyExc_FileNotFoundError));
  g_not_found_type = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(
                         "FileNotFoundError", bases, body)
                         .release()
                         .ptr();
  m.attr("FileNotFoundError") = py::reinterpret_borrow<py::object>(g_not_found_type);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      SetError(e);
    }
  });
}

}  // namespace animkit::python

PYBIND11_MODULE(_animkit, m) {
  namespace ap = animkit::python;
  m.doc() = "animkit: game animation formats and glTF 2.0 (the compiled part; see the animkit package)";
  m.attr("__version__") = animkit::kVersion;
  ap::BindErrors(m);
  ap::BindFile(m);
  ap::BindMeshes(m);
  ap::BindScene(m);
  ap::BindWrite(m);
  ap::BindRetarget(m);
  ap::BindBench(m);
  m.def("formats", &ap::FormatList,
        "Every format: id, description, extensions, companions (the skeleton files the companion rule "
        "looks for), writable, up_axis, multi_clip, archive_of_files, scenes_of_members, animation_extensions, options (name, "
        "keyword, type, "
        "choices, default, min, max, help, use), as `animkit formats --json` lists them.");
  m.def("limits", &ap::LimitList,
        "The limits every reader, decoder and sampler checks (keyword arguments such as max_frames=).");
  m.def("_released_sections", &ap::ReleasedSections,
        "Test hook: how many times a call has run C++ work with the GIL released.");
}
