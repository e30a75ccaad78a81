// The EDF CAS set: the shared reader body (read, write back byte for byte, describe, decode,
// encode), then the set laid out afresh and converted to EDF 6 (errors allowed, nothing else).
#include <animkit/formats/edf_canm/cas.hpp>

#include "format_fuzz.hpp"

namespace animkit {
extern const FormatDescriptor kEdfCasFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  (void)fuzz::FuzzFormat(kEdfCasFormat, data, size);
  try {
    edf_canm::cas::File f = edf_canm::cas::Parse(ByteView(data, size));
    if (!f.damaged.empty()) return 0;
    const Bytes emitted = edf_canm::cas::Emit(f);
    (void)edf_canm::cas::Parse(emitted);
    edf_canm::cas::ConvertTablesTo6(f);
    (void)edf_canm::cas::Parse(edf_canm::cas::Emit(f));
  } catch (const Error&) {
  }
  return 0;
}
