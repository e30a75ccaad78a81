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
  std::unique_ptr<Document> doc;
  try {
    doc = kPngFormat.read(ByteView(data, size), context);
  } catch (const Error&) {
    return 0;
  }
  if (doc->Write() != Bytes(data, data + size)) std::abort();
  (void)DumpJson(doc->Info());
  const Scene scene = doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  if (scene.textures.size() != 1) std::abort();
  return 0;
}
