// Metroid Prime TXTR textures: any input reads (writing back its own bytes, its info, every
// mip level decoded, the picture in both row orders, written again in its own format and read
// back) or throws animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/metroid_txtr.hpp>

namespace animkit {
extern const FormatDescriptor kMetroidTxtrFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  const std::unique_ptr<Document> doc = fuzz::ReadAndWriteBack(kMetroidTxtrFormat, ByteView(data, size), context);
  if (!doc) return 0;
  const metroid_txtr::TxtrFile file = metroid_txtr::ParseTxtr(ByteView(data, size));
  for (size_t level = 0; level < file.header.mip_count; ++level) (void)metroid_txtr::DecodeLevel(file, level);
  Options stored = fuzz::FuzzOptions();
  stored.Set("txtr-rows", "stored");
  const Scene scene = doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  (void)doc->Decode(DecodeContext{nullptr, stored});
  if (scene.textures.size() != 1 || scene.textures[0].width != file.header.width) std::abort();
  // Small pictures go through the encoder over the file itself as the template.
  if (!scene.textures[0].Missing() && size_t{file.header.width} * file.header.height <= 64 * 64) {
    EncodeTemplate templ{"fuzz.txtr", Bytes(data, data + size), doc.get()};
    EncodeContext encode;
    encode.templ = &templ;
    const Bytes written = kMetroidTxtrFormat.encode(scene, encode)->Write();
    auto again = kMetroidTxtrFormat.read(written, context);
    if (metroid_txtr::ParseTxtr(written).header.format != file.header.format) std::abort();
  }
  return 0;
}
