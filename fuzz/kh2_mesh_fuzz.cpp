// KH2 model meshes and textures: the input as a model entry (its VIF packets decoded
// against its own bone table), then as a texture entry (TIM2 or raw). Errors are fine;
// a crash, a hang or an unbounded allocation is not.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ByteView input(data, size);
  try {
    const kh2::Model model = kh2::ParseModel(input);
    (void)kh2::DecodeModelMeshes(model, kh2::SkeletonFromModel(model));
  } catch (const Error&) {
  }
  try {
    (void)kh2::DecodeTextures(input);
  } catch (const Error&) {
  }
  return 0;
}
