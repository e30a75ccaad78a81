// The DDS textures EDF models name: any input either decodes to an image of its declared
// size, gives a named `missing` reason, or throws animkit::Error; never a crash, a hang or
// a sanitizer report.
#include <animkit/formats/edf_mdb.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  try {
    const Image image = edf_mdb::DecodeDds(ByteView(data, size), "fuzz.dds");
    if (image.Missing() ? image.missing.empty() : image.rgba.size() != size_t(image.width) * image.height * 4)
      std::abort();
    if (!image.Missing()) (void)edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bgra8);
  } catch (const Error&) {
  }
  return 0;
}
