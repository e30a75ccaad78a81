// A compressed PAK entry's data (u32 size, then MP1's zlib stream or MP2's segments): any input
// unpacks within a small limit or throws animkit::Error; what unpacks, packed again either way,
// unpacks to the same bytes.
#include <animkit/formats/metroid_pak.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  const ByteView input(data, size);
  Limits limits;
  limits.max_member_bytes = 1 << 16;
  try {
    const Bytes raw = metroid_pak::Decompress(input, limits);
    for (metroid_pak::Packing p : {metroid_pak::Packing::Zlib, metroid_pak::Packing::Segments})
      if (metroid_pak::Decompress(metroid_pak::Compress(raw, p), limits) != raw) std::abort();
  } catch (const Error&) {
  }
  for (metroid_pak::Packing p : {metroid_pak::Packing::Zlib, metroid_pak::Packing::Segments})
    if (metroid_pak::Decompress(metroid_pak::Compress(input, p), Limits{}) != Bytes(input.begin(), input.end())) std::abort();
  return 0;
}
