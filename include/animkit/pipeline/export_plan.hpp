// What an export writes, decided from the format table before anything runs: the format
// (asked for, else the source's own or one of its family that writes the extension), whether
// the output must name it (--to: formats share the extension), the template (the source, when
// it has the output's format and extension) and what another format loses. One rule for
// `animkit convert` (the source is its --template), `animkit export-plan` (the Blender
// add-on's export dialog), and Python's animkit.export_plan.
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/core/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// Whether a and b are one family: equal, one reads the other's files as its companion, or
// both pair with the same companion (PS1 ANM and TMD, KH2 BAR and motion, text ANM and glTF).
bool SameFamily(const FormatDescriptor& a, const FormatDescriptor& b);

// The formats that write an animation to `extension` (".anm"), in table order.
std::vector<const FormatDescriptor*> AnimationWriters(std::string_view extension);

// The file an export of a rig read from `source` (of `source_format`) writes by default: the
// source itself when its format writes an animation to its extension, else its name with the
// first extension a format of its family writes; "" when there is none.
std::string DefaultExportPath(const std::string& source, std::string_view source_format);

// What writing a rig read from a `source` file as `target` loses, in sentences (none for the
// source's own format, or without a source).
std::vector<std::string> ExportLosses(const FormatDescriptor* source, const FormatDescriptor& target);

enum class NoteLevel { Info, Warning };
std::string_view ToString(NoteLevel level);  // "info", "warning"

struct ExportNote {
  NoteLevel level = NoteLevel::Info;
  std::string text;
};

// Which outputs a plan considers: an animation export (the formats of AnimationWriters; the
// add-on) or any file `convert` writes (else the formats that read the extension: glTF, a
// model archive).
enum class ExportOutput { Animation, Any };

struct ExportPlan {
  const FormatDescriptor* format = nullptr;  // the format written
  bool needs_to = false;       // another format writes one of its extensions: name it (--to)
  std::string template_path;   // the source, when it serves as template ("" = none)
  std::vector<ExportNote> notes;  // what writing `format` loses (warnings)
  std::string output;          // the file written (the default path when none was given)
};

// The job: inputs, Validate(), Run().
struct ExportPlanJob {
  std::string output;         // the file written; "" = DefaultExportPath
  std::string format;         // asked for explicitly: a format id or an extension ("" = none)
  std::string source;         // the file the rig was read from (convert: its --template), "" = none
  std::string source_format;  // its format id ("" = unknown: the extension's first format)
  bool use_template = true;   // the source serves as template when it can
  ExportOutput kind = ExportOutput::Animation;

  // Error when the inputs make no sense: an unknown format or source format, no output and
  // no default one.
  void Validate() const;
  // Validates, then plans. Error, with how to go on, when the extension names no format, the
  // format asked for does not write it, or only another family's format does (it must be
  // asked for). Reads nothing (the template only when it exists as a file).
  ExportPlan Run() const;
};

// A plan as `animkit export-plan --json` prints it: output, format, to, template (or null),
// source, source_format, family (the source's family, table order), notes [{level, text}].
Value ExportPlanValue(const ExportPlanJob& job, const ExportPlan& plan);

}  // namespace animkit
