// KH2 MDLX texture entries: the input as a texture entry (TIM2, the raw GS form, a list of
// texture sets), then its first half as the entry and the rest as the file's bytes after
// it (which uploads read on into). Errors are fine; a crash, a hang or an unbounded
// allocation is not.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ByteView input(data, size);
  try {
    (void)kh2::DecodeTextures(input);
  } catch (const Error&) {
  }
  try {
    (void)kh2::DecodeTextures(input.first(size / 2), 0, {}, input.subspan(size / 2));
  } catch (const Error&) {
  }
  return 0;
}
