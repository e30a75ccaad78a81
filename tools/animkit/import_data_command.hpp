// `animkit import-data FILE -o OUT`: one decode, everything an importer needs in one file
// (the Blender add-on's import; the layout is in import_data_command.cpp).
#pragma once

#include <animkit/animkit.hpp>

#include <string>
#include <vector>

namespace animkit::cli {

// The import file of `file` decoded against `skeleton` (a path, "auto" or ""), with the
// clips clip_patterns select (SelectClips: names or globs; none: every clip).
Bytes ImportData(const std::string& file, const std::string& format, const std::string& skeleton,
                 const std::vector<std::string>& clip_patterns, const Options& options);

}  // namespace animkit::cli
