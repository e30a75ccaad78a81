// Vib-Ribbon PAK archives: any input reads (fuzz::FuzzArchive: writing back its own bytes, listing its members,
// reading each, every member replaced by its own bytes reading the same) or throws
// animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/psx_pak.hpp>

namespace animkit {
extern const FormatDescriptor kPsxPakFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  return fuzz::FuzzArchive(kPsxPakFormat, data, size, context);
}
