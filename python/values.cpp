// Python values <-> the library's: text, animkit::Value, events, paths, options.
#include "bindings.hpp"

#include <cmath>
#include <limits>

namespace animkit::python {

py::str Text(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::object ToPython(const Value& v, NonFinite non_finite) {
  switch (v.kind()) {
    case Value::Kind::Null: return py::none();
    case Value::Kind::Bool: return py::bool_(v.get<bool>());
    case Value::Kind::Integer: return py::int_(v.get<int64_t>());
    case Value::Kind::Unsigned: return py::int_(v.get<uint64_t>());
    case Value::Kind::Double: {
      const double d = v.get<double>();
      if (non_finite == NonFinite::AsNone && !std::isfinite(d)) return py::none();
      return py::float_(d);
    }
    case Value::Kind::String: return Text(v.as_string());
    case Value::Kind::Array: {
      py::list out;
      for (const Value& e : v.as_array()) out.append(ToPython(e, non_finite));
      return out;
    }
    case Value::Kind::Object: {
      py::dict out;
      for (const auto& [key, e] : v.as_object()) out[Text(key)] = ToPython(e, non_finite);
      return out;
    }
  }
  return py::none();
}

py::dict EventToPython(const Event& e) {
  py::list params;
  for (double p : e.params) params.append(py::float_(p));
  py::dict d;
  d["time"] = py::float_(static_cast<double>(e.time));
  d["name"] = Text(e.name);
  d["params"] = params;
  d["end_time"] = e.end_time ? py::object(py::float_(static_cast<double>(*e.end_time))) : py::object(py::none());
  return d;
}

Event EventFromPython(const py::handle& h) {
  if (!py::isinstance<py::dict>(h)) throw py::type_error("an event is a dict: {'time': s, 'name': str, 'params': [...], 'end_time': s}");
  const py::dict d = py::reinterpret_borrow<py::dict>(h);
  if (!d.contains("time") || !d.contains("name")) throw py::value_error("an event needs 'time' and 'name'");
  Event e;
  e.time = static_cast<Seconds>(d["time"].cast<double>());
  e.name = d["name"].cast<std::string>();
  if (d.contains("params") && !d["params"].is_none()) e.params = d["params"].cast<std::vector<double>>();
  if (d.contains("end_time") && !d["end_time"].is_none()) e.end_time = static_cast<Seconds>(d["end_time"].cast<double>());
  return e;
}

std::string PathArg(const py::handle& path) {
  return py::module_::import("os").attr("fsencode")(path).cast<std::string>();
}

py::object PathToPython(const std::string& path) {
  return py::module_::import("os").attr("fsdecode")(py::bytes(path));
}

namespace {

// The text the CLI would get for a keyword's value: True/False -> "1"/"0" (flags),
// numbers as Python writes them, strings as they are.
std::string OptionText(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "1" : "0";
  if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  throw py::type_error("a format option's value is a str, int, float or bool, got " +
                       py::str(py::type::of(v)).cast<std::string>());
}

uint64_t LimitValue(const std::string& name, const py::handle& v) {
  if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v) || v.cast<py::int_>() < py::int_(0)) {
    throw py::value_error("the limit " + name + " is a whole number >= 0");
  }
  return v.cast<uint64_t>();
}

}  // namespace

std::string SkeletonWord(const py::handle& skeleton) {
  if (skeleton.is_none()) return {};
  if (py::isinstance<py::bool_>(skeleton)) {
    if (!skeleton.cast<bool>()) return std::string(kSkeletonNone);
    throw py::type_error("skeleton is a path, 'auto', 'none', False, a File, a Scene or a Skeleton");
  }
  return PathArg(skeleton);
}

Options OptionsFrom(const py::kwargs& kwargs) {
  Options options;
  Limits limits;
  for (const auto& [key, value] : kwargs) {
    std::string name = key.cast<std::string>();
    for (char& c : name)
      if (c == '_') c = '-';
    bool limit = false;
    for (const LimitInfo& info : LimitTable()) {
      if (info.name == name) {
        limits.*(info.field) = LimitValue(name, value);
        limit = true;
      }
    }
    if (limit) continue;
    if (py::isinstance<py::bool_>(value)) SetOptionFlag(options, name, value.cast<bool>());  // flags and on/off choices
    else SetOption(options, name, OptionText(value));  // the library's check: unknown names, bad values  // the library's check: unknown names, bad values
  }
  options.SetLimits(limits);
  return options;
}

}  // namespace animkit::python
