// Writes the bundled sample files (samples/<format>/) with the project's own
// encoders from synthetic motion. `make samples` runs it; a test checks that the
// committed samples are exactly what it writes.
#include <animkit/animkit.hpp>

#include <cstdio>
#include <filesystem>

#include "sample_writers.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: animkit_make_samples OUTDIR\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  try {
#define ANIMKIT_SAMPLES(folder, function)                  \
  std::filesystem::create_directories(out / #folder);    \
  animkit::samples::function(out / #folder);
#include "sample_list.inc"
#undef ANIMKIT_SAMPLES
  } catch (const animkit::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
