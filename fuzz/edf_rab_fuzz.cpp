// EDF RAB / MRAB archives: any input reads (writing back its own bytes, listing its members,
// unpacking each within small limits, every member replaced by its own bytes giving the same
// archive back) or throws animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/edf_rab.hpp>

namespace animkit {
extern const FormatDescriptor kEdfRabFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  Limits limits = fuzz::FuzzOptions().limits();
  limits.max_member_bytes = 1 << 20;
  context.options.SetLimits(limits);
  return fuzz::FuzzArchive(kEdfRabFormat, data, size, context);
}
