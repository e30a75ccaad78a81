// Metroid Prime ANCS character sets: any input reads (writing back its own bytes, its info
// and summary) and decodes its character (no files beside it: each skipped with a warning),
// or throws animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/metroid_ancs.hpp>

namespace animkit {
extern const FormatDescriptor kMetroidAncsFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  // Side files come from the input's own tail, so assembly paths run too.
  const Bytes input(data, data + size);
  context.neighbour = [&input](std::string_view) -> std::optional<Bytes> {
    if (input.size() < 64) return std::nullopt;
    return Bytes(input.end() - 64, input.end());
  };
  const std::unique_ptr<Document> doc = fuzz::ReadAndWriteBack(kMetroidAncsFormat, ByteView(data, size), context);
  if (!doc) return 0;
  try {
    (void)doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  } catch (const Error&) {
  }
  (void)doc->Warnings();
  return 0;
}
