// Metroid Prime 1/2 PAK archives: any input reads (writing back its own bytes, listing its
// members, unpacking each, every member replaced by its own bytes unpacking the same) or throws
// animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/metroid_pak.hpp>

namespace animkit {
extern const FormatDescriptor kMetroidPakFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  return fuzz::FuzzArchive(kMetroidPakFormat, data, size, context);
}
