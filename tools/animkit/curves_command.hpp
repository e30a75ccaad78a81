// `animkit curves FILE [--json]` and `animkit curves-replace TEMPLATE EDITS.json -o OUT`
// (docs/cli.md, "curves"): thin shells over pipeline/curves.hpp.
#pragma once

#include <animkit/animkit.hpp>

#include <string>

namespace animkit::cli {

// The stored curves of file's clips (clip: a name or glob, "" every clip): JSON, or one line
// per clip (channels, keys, driven joints) and a total. Written to output ("" stdout).
int RunCurves(const std::string& file, const std::string& format, const std::string& skeleton, const std::string& clip,
              bool json, const std::string& output, const Options& options);
// The template with the edits' curves replaced, written to output; a one-line report.
int RunCurvesReplace(const std::string& template_path, const std::string& edits_path, const std::string& format,
                     const std::string& output, const Options& options);

}  // namespace animkit::cli
