// The format registry: the table of every format (src/formats/format_list.inc), lookup by id
// and extension, detection by probing, and the declared options, as every front end sees them.
#pragma once

#include <animkit/core/format.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// Every registered format, in table order.
const std::vector<const FormatDescriptor*>& Formats();
const FormatDescriptor* FindFormat(std::string_view id);
// glTF: the interchange every other format converts to and from (Blender's import reads it).
const FormatDescriptor& InterchangeFormat();
// Formats claiming an extension (".anm" is claimed by two).
std::vector<const FormatDescriptor*> FormatsForExtension(std::string_view extension);

struct Detection {
  const FormatDescriptor* format = nullptr;
  int score = 0;
};
// The best probe score over all formats; format is nullptr when nothing scores.
Detection Detect(ByteView data, std::string_view path);

// Lower-cased extension of a path, with the dot ("" when none).
std::string ExtensionOf(std::string_view path);

// The declaration of a format option by name (the first format declaring it; formats that
// share a name declare the same spec); nullptr when none.
const OptionSpec* FindOption(std::string_view name);
// Every declared option once, in table order (front ends build their flags from this).
std::vector<const OptionSpec*> AllOptions();
// Where a front end takes a format option in (the CLI's flags, Python's keywords): an error
// when no format declares name ("unknown option ...", listing the known ones) or value does
// not fit its declaration; otherwise options holds it. Options itself checks nothing.
void SetOption(Options& options, const std::string& name, const std::string& value);
// A yes/no for a flag ("1"/"0") or an on/off choice ("on"/"off"), as the bindings pass booleans.
void SetOptionFlag(Options& options, const std::string& name, bool value);
// Error (naming the option and what it allows) unless value fits spec.
void CheckOptionValue(const OptionSpec& spec, std::string_view value);
// "xyz|zyx", "number 0..1000", "flag", ...: what spec accepts, in words.
std::string DescribeOptionValues(const OptionSpec& spec);
// The help line with the values and the default (the CLI's --help).
std::string OptionHelp(const OptionSpec& spec);
// Markdown table of every format's options (docs/cli.md holds it verbatim).
std::string FormatOptionsMarkdown();

// The format table as one document (`animkit formats --json`, the Python module's
// formats() and limits(), the Blender add-on's generated table): every format with its
// extensions, companions, up axis, multi-clip, animation extensions and options (type,
// choices, default, range, help, use), and every limit with its default and help.
Value FormatsValue();

}  // namespace animkit
