// `animkit bench FILE`: builds the playback runtime's animation from a clip and times it.
#pragma once

#include <animkit/core/model.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace animkit::cli {

struct BenchOptions {
  std::string mode = "playback";  // playback | random
  bool l2m = false;               // headline figures include local-to-model
  double seconds = 1;             // measuring time, all configurations together
  double marker_interval = 1.0;   // seconds between seek markers
  double step = 1.0 / 60;         // playback: seconds between samples
};

// Adds the bench subcommand's own options (FILE is added by the caller).
void AddBenchOptions(CLI::App* bench, BenchOptions& options);

// Times clip `clip_name` (the first clip when empty) of scene; skeleton: the reference's
// when it has joints, else the scene's, else one root per track. Prints JSON on stdout.
int RunBench(const Scene& scene, const Scene* reference, const std::string& clip_name, const std::string& file,
             const BenchOptions& options);

}  // namespace animkit::cli
