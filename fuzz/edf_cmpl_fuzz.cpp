// CMPL streams: any input unpacks within a small limit or throws animkit::Error, and packing
// the input (as raw bytes) then unpacking gives it back; what the encoder makes from the
// unpacked bytes unpacks to them too.
#include <animkit/formats/edf_rab.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  const ByteView input(data, size);
  Limits limits;
  limits.max_member_bytes = 1 << 16;
  try {
    const Bytes raw = edf_rab::Decompress(input, limits);
    if (raw.size() != edf_rab::CmplRawSize(input)) std::abort();
    if (edf_rab::Decompress(edf_rab::Compress(raw), limits) != raw) std::abort();
  } catch (const Error&) {
  }
  if (edf_rab::Decompress(edf_rab::Compress(input)) != Bytes(input.begin(), input.end())) std::abort();
  return 0;
}
