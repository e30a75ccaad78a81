// The body every reader's fuzz target shares: read; a file that reads must write
// back to the same bytes, describe itself and decode without any error but animkit::Error.
#pragma once

#include <animkit/animkit.hpp>

#include <cstdio>
#include <cstdlib>

namespace animkit::fuzz {

inline int FuzzFormat(const FormatDescriptor& format, const uint8_t* data, size_t size) {
  ByteView input(data, size);
  std::unique_ptr<Document> doc;
  try {
    doc = format.read(input, Options{});
  } catch (const Error&) {
    return 0;
  }
  const Bytes written = doc->Write();
  if (written.size() != size || !std::equal(written.begin(), written.end(), data)) {
    std::fprintf(stderr, "%s: read then write changed the bytes\n", std::string(format.id).c_str());
    std::abort();
  }
  (void)DumpJson(doc->Info());
  try {
    (void)doc->Decode(DecodeContext{});
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace animkit::fuzz

#define ANIMKIT_FORMAT_FUZZER(descriptor)                                        \
  namespace animkit {                                                            \
  extern const FormatDescriptor descriptor;                                      \
  }                                                                              \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {      \
    return animkit::fuzz::FuzzFormat(animkit::descriptor, data, size);           \
  }
