// `animkit retarget SOURCE --to TARGET -o OUT` (docs/retarget.md): a shell over
// pipeline/retarget.hpp.
#pragma once

#include <animkit/animkit.hpp>

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace animkit::cli {

struct RetargetArgs {
  RetargetRequest request;
  std::string skeleton;
  float translation_scale = 0;
  bool verbose = false;
  unsigned jobs = 0;   // a folder run's threads (0: the hardware's)
  bool quiet = false;  // a folder run without progress
};

// The verb and its own options (the caller adds the format options and limits).
CLI::App* AddRetargetCommand(CLI::App& app, RetargetArgs& args);
int RunRetarget(RetargetArgs& args, const Options& options);

}  // namespace animkit::cli
