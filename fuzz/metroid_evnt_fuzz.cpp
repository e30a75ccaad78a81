// Metroid Prime EVNT files: any input reads (writing back its own bytes, its info) and
// decodes to events, or throws animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/metroid_ancs.hpp>

#include <algorithm>

namespace animkit {
extern const FormatDescriptor kMetroidEvntFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  const std::unique_ptr<Document> doc = fuzz::ReadAndWriteBack(kMetroidEvntFormat, ByteView(data, size), context);
  if (!doc) return 0;
  try {
    (void)doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  } catch (const Error&) {
  }
  // The MP2 body over the same bytes: read, then written back the same.
  try {
    ByteReader r(ByteView(data, size), Endian::Big);
    const metroid_ancs::EventSet set = metroid_ancs::ReadEventSet(r, metroid_ancs::Game::Mp2);
    ByteWriter w(Endian::Big);
    metroid_ancs::WriteEventSet(w, set, metroid_ancs::Game::Mp2);
    if (!std::equal(w.bytes().begin(), w.bytes().end(), data)) std::abort();
  } catch (const Error&) {
  }
  return 0;
}
