// `animkit preview FILE [-o page.html]` and `animkit preview DIR -o SITE` (docs/preview.md).
#pragma once

#include <animkit/core/format.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace animkit::cli {

struct PreviewArgs {
  std::string output;        // -o: the page, or the site's folder
  std::string skeleton_map;  // --skeleton-map FILE (folder input)
  unsigned jobs = 0;         // -j N (folder input), 0 = every core
  bool quiet = false;        // -q: only errors on stderr (no warnings, no progress)
  std::string retarget_to;   // --retarget-to TARGET: the page of a retarget (RetargetPreviewPage)
  std::string map;           // --map auto|FILE with it
};

// Adds -o, --skeleton-map, -j and -q to the preview subcommand (main.cpp adds the common options).
void AddPreviewOptions(CLI::App* preview, PreviewArgs& args);

struct PreviewCommonArgs {
  std::string format, skeleton, clip;
  Options options;
};

// Writes the page or the site; prints what it wrote. 0, 1 (an error, or some file of the
// folder failed), 2 (usage) or, for a folder, 128 + signal when interrupted (as convert DIR).
int RunPreview(const std::string& input, const PreviewArgs& args, const PreviewCommonArgs& common);

}  // namespace animkit::cli
