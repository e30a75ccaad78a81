// PNG images: any input reads (writing back its own bytes, decoding to one texture) or
// throws animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

namespace animkit {
extern const FormatDescriptor kPngFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  const std::unique_ptr<Document> doc = fuzz::ReadAndWriteBack(kPngFormat, ByteView(data, size), context);
  if (!doc) return 0;
  const Scene scene = doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  if (scene.textures.size() != 1) std::abort();
  return 0;
}
