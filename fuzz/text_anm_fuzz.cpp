// Reads any bytes as a text ANM (read, write back, describe), then cuts the sets
// out of a small fixed model so that bone lookup and range cutting run too, and
// samples and re-encodes what was cut.
#include <animkit/formats/text_anm.hpp>

#include "format_fuzz.hpp"

#include <synthetic/synthetic.hpp>

namespace animkit {
extern const FormatDescriptor kTextAnmFormat;
}

namespace {

animkit::Scene Model() {
  using namespace animkit;
  SyntheticSpec spec;
  spec.joints = 8;
  spec.frames = 24;
  spec.frame_rate = 24;
  Scene model;
  model.skeleton = SyntheticSkeleton(spec);
  model.clips.push_back(SyntheticClip(model.skeleton, spec));
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  animkit::fuzz::FuzzFormat(animkit::kTextAnmFormat, data, size);
  static const animkit::Scene model = Model();
  try {
    const animkit::text_anm::File file = animkit::text_anm::Parse(animkit::ByteView(data, size));
    const std::string canonical = animkit::text_anm::Canonical(file);
    const animkit::text_anm::File again = animkit::text_anm::Parse(
        animkit::ByteView(reinterpret_cast<const uint8_t*>(canonical.data()), canonical.size()));
    if (animkit::text_anm::Canonical(again) != canonical) {
      std::fprintf(stderr, "text-anm: the canonical form is not stable\n");
      std::abort();
    }
    const animkit::Scene cut = animkit::text_anm::DecodeSets(file, model, animkit::fuzz::FuzzOptions().limits());
    animkit::fuzz::FuzzScene(animkit::kTextAnmFormat, cut, &model);
  } catch (const animkit::Error&) {
  }
  return 0;
}
