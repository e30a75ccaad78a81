// The glTF-to-mesh path: a glTF (the glTF target's corpus) read, decoded and written as a
// KH2 MDLX and an EDF MDB without a template, as `animkit convert X.glb Y.mdlx` writes
// them. A writer may refuse a scene (animkit::Error naming the mesh and the limit), but
// what it writes its own reader must read and decode.
#include "format_fuzz.hpp"

#include <animkit/formats/registry.hpp>

namespace {

void WriteAndReadBack(const animkit::Scene& scene, std::string_view format_id, const char* path) {
  using namespace animkit;
  const FormatDescriptor* format = FindFormat(format_id);
  if (!format || !format->encode) return;
  const Options options = fuzz::FuzzOptions();
  Bytes written;
  try {
    EncodeContext context;
    context.options = options;
    context.output_path = path;
    written = format->encode(scene, context)->Write();
  } catch (const Error&) {
    return;
  }
  try {
    (void)format->read(written, {options, path, {}})->Decode(DecodeContext{nullptr, options});
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: the writer made a file its reader refuses: %s\n", path, e.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  static const FormatDescriptor* const gltf = FindFormat("gltf");
  Scene scene;
  try {
    const Options options = fuzz::FuzzOptions();
    LoadedFile loaded{"fuzz.glb", gltf, gltf->read(ByteView(data, size), {options, "fuzz.glb", {}})};
    scene = DecodeDocument(loaded, DecodeContext{nullptr, options});
  } catch (const Error&) {
    return 0;
  }
  if (scene.meshes.empty()) return 0;
  WriteAndReadBack(scene, "kh2-bar", "fuzz.mdlx");
  WriteAndReadBack(scene, "edf-mdb", "fuzz.mdb");
  return 0;
}
