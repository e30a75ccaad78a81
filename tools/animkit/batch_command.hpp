// `animkit convert DIR OUTDIR`: the batch form of convert (docs/batch.md).
#pragma once

#include <animkit/core/format.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace animkit::cli {

struct BatchArgs {
  unsigned jobs = 0;          // -j N, 0 = every core
  std::string skeleton_map;   // --skeleton-map FILE
  std::string report;         // --report FILE
  bool quiet = false;         // --quiet: only errors on stderr (no progress, no warnings)
  bool by_extension = false;  // --by-extension: also convert files only the extension ties to a format
  bool every_skipped = false;  // -v: each skipped file on a line of its own, not one line per kind
};

// Adds the batch options to the convert subcommand.
void AddBatchOptions(CLI::App* convert, BatchArgs& args);

// True when `convert IN OUT` is a folder run (IsFolderRun: IN a folder, or an archive of files into a folder).
bool IsBatchInput(const std::string& input, const std::string& output);

// A usage message when batch-only options were given for a single file ("" when fine).
std::string BatchOnlyOptionsUsed(const BatchArgs& args);

struct BatchCommonArgs {
  std::string format, skeleton, clip;
  Options options;
};

// Runs the batch; the exit status: 0 all converted or skipped, 1 some file failed,
// 2 usage error, 128 + signal when interrupted by SIGINT (130) or SIGTERM (143).
int RunBatchConvert(const std::string& input_dir, const std::string& output_dir, const std::string& to,
                    const BatchArgs& args, const BatchCommonArgs& common);

}  // namespace animkit::cli
