// `animkit preview FILE [-o page.html]` and `animkit preview DIR -o SITE` (docs/preview.md).
#pragma once

#include <animkit/core/format.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace animkit::cli {

struct PreviewArgs {
  std::string output;        // -o: the page, or the site's folder
  std::string skeleton_map;  // --skeleton-map FILE (folder input)
};

// Adds -o and --skeleton-map to the preview subcommand (main.cpp adds the common options).
void AddPreviewOptions(CLI::App* preview, PreviewArgs& args);

struct PreviewCommonArgs {
  std::string format, skeleton, clip;
  bool skeleton_given = false;  // --skeleton was on the command line (else: auto)
  Options options;
};

// Writes the page or the site; prints what it wrote. 0, 1 (an error, or some file of the
// folder failed) or 2 (usage).
int RunPreview(const std::string& input, const PreviewArgs& args, const PreviewCommonArgs& common);

}  // namespace animkit::cli
