// Format options: the declarations of every format (FormatDescriptor::options), the check
// front ends make when they take one in (SetOption), the typed reads formats make, and the
// text front ends show for them.
#include <animkit/core/error.hpp>
#include <animkit/core/format.hpp>
#include <animkit/core/names.hpp>
#include <animkit/formats/registry.hpp>
#include "formats/common/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace animkit {
namespace {

std::string Dashed(const OptionSpec& spec) { return "--" + std::string(spec.name); }

bool ParseNumber(std::string_view s, double* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(*out);
}

// Shortest text of a bound (32767, 0.5, 1e-06 as "1e-06").
std::string NumberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

bool HasMin(const OptionSpec& spec) { return spec.min > -1e300; }
bool HasMax(const OptionSpec& spec) { return spec.max < 1e300; }

std::string RangeText(const OptionSpec& spec) {
  if (!HasMin(spec) && !HasMax(spec)) return {};
  if (!HasMax(spec)) return (spec.min_exclusive ? " > " : " >= ") + NumberText(spec.min);
  if (!HasMin(spec)) return " <= " + NumberText(spec.max);
  if (spec.min_exclusive) return " > " + NumberText(spec.min) + " and <= " + NumberText(spec.max);
  return " " + NumberText(spec.min) + ".." + NumberText(spec.max);
}

std::string JoinNames(const std::vector<const OptionSpec*>& specs) {
  std::string out;
  for (const OptionSpec* s : specs) out += (out.empty() ? "" : ", ") + std::string(s->name);
  return out;
}

}  // namespace

const OptionSpec* FindOption(std::string_view name) {
  for (const FormatDescriptor* f : Formats())
    for (const OptionSpec& spec : f->options)
      if (spec.name == name) return &spec;
  return nullptr;
}

std::vector<const OptionSpec*> AllOptions() {
  std::vector<const OptionSpec*> out;
  for (const FormatDescriptor* f : Formats())
    for (const OptionSpec& spec : f->options)
      if (FindOption(spec.name) == &spec) out.push_back(&spec);
  return out;
}

std::string DescribeOptionValues(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::Choice: {
      std::string list;
      for (std::string_view c : spec.choices) list += (list.empty() ? "" : "|") + std::string(c);
      return list;
    }
    case OptionType::Number: return "a number" + RangeText(spec);
    case OptionType::Integer: return "a whole number" + RangeText(spec);
    case OptionType::Word: return "a name without spaces";
    case OptionType::Flag: return "1 or 0";
  }
  return {};
}

void CheckOptionValue(const OptionSpec& spec, std::string_view value) {
  bool ok = false;
  switch (spec.type) {
    case OptionType::Choice:
      ok = std::find(spec.choices.begin(), spec.choices.end(), value) != spec.choices.end();
      break;
    case OptionType::Number:
    case OptionType::Integer: {
      double v = 0;
      ok = ParseNumber(value, &v) && (spec.type == OptionType::Number || v == std::floor(v)) &&
           (spec.min_exclusive ? v > spec.min : v >= spec.min) && v <= spec.max;
      break;
    }
    case OptionType::Word:
      ok = !value.empty() && std::none_of(value.begin(), value.end(), [](char c) {
        return static_cast<unsigned char>(c) <= 0x20 || c == 0x7F;
      });
      break;
    case OptionType::Flag: ok = value == "1" || value == "0"; break;
  }
  if (!ok) {
    throw Error::General("option " + Dashed(spec) + " expects " + DescribeOptionValues(spec) + ", got '" +
                         std::string(value) + "'");
  }
}

std::string OptionHelp(const OptionSpec& spec) {
  std::string text(spec.help);
  if (spec.type == OptionType::Flag) return text;
  text += " (" + DescribeOptionValues(spec);
  if (!spec.default_value.empty()) text += "; default " + std::string(spec.default_value);
  return text + ")";
}

std::string FormatOptionsMarkdown() {
  std::string out = "| option | formats | values | default | what it does |\n|---|---|---|---|---|\n";
  for (const OptionSpec* spec : AllOptions()) {
    std::string formats;
    for (const FormatDescriptor* f : Formats())
      for (const OptionSpec& s : f->options)
        if (s.name == spec->name) formats += (formats.empty() ? "`" : ", `") + std::string(f->id) + "`";
    std::string values = spec->type == OptionType::Flag ? "flag" : DescribeOptionValues(*spec);
    if (spec->type == OptionType::Choice) {
      std::string list;
      for (std::string_view c : spec->choices) list += (list.empty() ? "`" : ", `") + std::string(c) + "`";
      values = list;
    }
    const std::string def = spec->default_value.empty() ? "(see text)" : "`" + std::string(spec->default_value) + "`";
    out += "| `" + Dashed(*spec) + "` | " + formats + " | " + values + " | " +
           (spec->type == OptionType::Flag ? "off" : def) + " | " + std::string(spec->help) + " |\n";
  }
  return out;
}

void SetOption(Options& options, const std::string& name, const std::string& value) {
  const OptionSpec* spec = FindOption(name);
  if (!spec) throw Error::General("unknown option '" + name + "' (format options: " + JoinNames(AllOptions()) + ")");
  CheckOptionValue(*spec, value);
  options.Set(name, value);
}

void SetOptionFlag(Options& options, const std::string& name, bool value) {
  const OptionSpec* spec = FindOption(name);
  const auto has = [&](std::string_view word) {
    return spec && std::find(spec->choices.begin(), spec->choices.end(), word) != spec->choices.end();
  };
  if (spec && spec->type == OptionType::Choice && has("on") && has("off")) return SetOption(options, name, std::string(value ? "on" : "off"));
  SetOption(options, name, std::string(value ? "1" : "0"));
}

DeclaredOption::DeclaredOption(OptionSpec spec, OptionType type) : spec_(std::move(spec)) { spec_.type = type; }

std::optional<std::string_view> DeclaredOption::Text(const Options& options) const {
  const auto it = options.values().find(std::string(spec_.name));
  if (it == options.values().end()) {
    if (spec_.default_value.empty()) return std::nullopt;
    return spec_.default_value;
  }
  CheckOptionValue(spec_, it->second);
  return it->second;
}

std::string_view DeclaredOption::DefaultedText(const Options& options) const {
  const std::optional<std::string_view> text = Text(options);
  if (!text) throw Error::General("option " + Dashed(spec_) + " has no default: its reader passes one");
  return *text;
}

double DeclaredOption::NumberIn(std::string_view text) {
  double v = 0;
  ParseNumber(text, &v);
  return v;
}

namespace {

constexpr NameTable<OptionType, 5> kTypeNames{{{{OptionType::Choice, "choice"},
                                                {OptionType::Number, "number"},
                                                {OptionType::Integer, "integer"},
                                                {OptionType::Word, "word"},
                                                {OptionType::Flag, "flag"}}}};
constexpr NameTable<OptionUse, 3> kUseNames{
    {{{OptionUse::Read, "read"}, {OptionUse::Write, "write"}, {OptionUse::ReadWrite, "read-write"}}}};

// The Python keyword (and Blender property name) of an option or limit: `_` for `-`.
std::string Keyword(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

Value Strings(const std::vector<std::string_view>& list) {
  Value out = Value::array();
  for (std::string_view s : list) out.push_back(s);
  return out;
}

Value OptionValue(const OptionSpec& spec) {
  Value d = Value::object();
  d["name"] = spec.name;
  d["keyword"] = Keyword(spec.name);
  d["type"] = kTypeNames.Name(spec.type);
  d["choices"] = Strings(spec.choices);
  d["default"] = spec.default_value.empty() ? Value() : Value(spec.default_value);
  d["min"] = spec.min > -1e300 ? Value(spec.min) : Value();
  d["max"] = spec.max < 1e300 ? Value(spec.max) : Value();
  d["min_exclusive"] = spec.min_exclusive;
  d["help"] = spec.help;
  d["values"] = DescribeOptionValues(spec);
  d["use"] = kUseNames.Name(spec.use);
  return d;
}

}  // namespace

Value FormatsValue() {
  Value formats = Value::array();
  for (const FormatDescriptor* f : Formats()) {
    Value options = Value::array();
    for (const OptionSpec& spec : f->options) options.push_back(OptionValue(spec));
    Value d = Value::object();
    d["id"] = f->id;
    d["description"] = f->description;
    d["extensions"] = Strings(f->extensions);
    d["companions"] = Strings(f->companions);
    d["writable"] = f->encode != nullptr;
    d["up_axis"] = f->up_axis;
    d["forward_axis"] = f->forward_axis;
    d["multi_clip"] = f->multi_clip;
    d["archive_of_files"] = f->archive_of_files;
    d["scenes_of_members"] = f->scenes_of_members;
    d["part_of"] = std::string(f->part_of);
    d["picture"] = f->picture;
    d["animation_extensions"] = Strings(f->animation_extensions);
    d["options"] = std::move(options);
    formats.push_back(std::move(d));
  }
  Value limits = Value::array();
  const Limits defaults;
  for (const LimitInfo& info : LimitTable()) {
    Value d = Value::object();
    d["name"] = info.name;
    d["keyword"] = Keyword(info.name);
    d["default"] = defaults.*(info.field);
    d["help"] = info.help;
    limits.push_back(std::move(d));
  }
  Value doc = Value::object();
  doc["formats"] = std::move(formats);
  doc["limits"] = std::move(limits);
  return doc;
}

}  // namespace animkit
