// `animkit import-data FILE -o OUT`: one decode, everything an importer needs in one file
// (the Blender add-on's import; the layout is in import_data_command.cpp).
#pragma once

#include <animkit/animkit.hpp>

#include <string>

namespace animkit::cli {

// The import file of `file` decoded against `skeleton` (a path, "auto" or "").
Bytes ImportData(const std::string& file, const std::string& format, const std::string& skeleton,
                 const Options& options);

}  // namespace animkit::cli
