// Motion triggers alone: parse, write back byte for byte, decode to events.
#include <animkit/formats/kh2.hpp>

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ByteView input(data, size);
  kh2::Triggers t;
  try {
    t = kh2::ParseTriggers(input);
  } catch (const Error&) {
    return 0;
  }
  const Bytes written = kh2::SerializeTriggers(t);
  if (written.size() != size || !std::equal(written.begin(), written.end(), data)) {
    std::fprintf(stderr, "kh2 triggers: read then write changed the bytes\n");
    std::abort();
  }
  (void)kh2::DecodeTriggers(t, 30, 1);
  return 0;
}
