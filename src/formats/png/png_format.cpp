// The registry entry and document of a PNG image: Scene::textures[0] from its pixels, and
// the first texture with pixels written as an 8-bit RGBA PNG.
#include <animkit/formats/png.hpp>

#include "formats/common/document.hpp"
#include "formats/common/png.hpp"

#include <algorithm>

namespace animkit {

namespace png_image {
namespace {

constexpr uint8_t kPngMagic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
// The closing chunk every PNG ends with: length 0, "IEND", its CRC.
constexpr uint8_t kIend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};

// The file's bytes, kept as read (an encoded one: as written) and its decoded pixels.
struct PngFile {
  Bytes bytes;
  Image image;
};
Bytes PngBytes(const PngFile& f) { return f.bytes; }

class PngDocument final : public FileDocument<PngFile, kPngFormat, PngBytes> {
 public:
  using FileDocument::FileDocument;
  Value Info() const override {
    return {{"width", file_.image.width}, {"height", file_.image.height}, {"bytes", file_.bytes.size()}};
  }
  Scene Decode(const DecodeContext&) const override {
    Scene scene;
    scene.textures.push_back(file_.image);
    scene.metadata[kSourceFormatKey] = std::string(kPngFormat.id);
    return scene;
  }
};

int ProbePng(ByteView data, std::string_view extension) {
  if (data.size() >= 8 && std::equal(kPngMagic, kPngMagic + 8, data.begin())) return kProbeMagic;
  return extension == ".png" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> ReadPng(ByteView data, const ReadContext& context) {
  if (data.size() < 8 || !std::equal(kPngMagic, kPngMagic + 8, data.begin()))
    throw Error::AtOffset(0, "expected the PNG signature 89 50 4E 47 0D 0A 1A 0A");
  // stb_image stops at the last image data it needs: a cut file would read, and write back cut.
  if (data.size() < 8 + 12 || !std::equal(kIend, kIend + 12, data.end() - 12))
    throw Error::AtOffset(data.size() < 12 ? 0 : data.size() - 12, "expected the file to end with the PNG's IEND chunk");
  PngFile f{Bytes(data.begin(), data.end()), png::Decode(data, context.options.limits())};
  f.image.name = "image";
  return std::make_unique<PngDocument>(std::move(f));
}

std::unique_ptr<Document> EncodePngDocument(const Scene& scene, EncodeContext& context) {
  const auto it = std::find_if(scene.textures.begin(), scene.textures.end(), [](const Image& i) { return !i.Missing(); });
  if (it == scene.textures.end()) throw Error::General("nothing to write: the input has no texture with pixels");
  PngFile f{png::Encode(*it), *it};
  context.report = {{"width", it->width}, {"height", it->height}, {"bytes", f.bytes.size()}};
  if (scene.textures.size() > 1)
    context.warnings.push_back("a PNG holds one image: '" + it->name + "' written, " +
                               std::to_string(scene.textures.size() - 1) + " other textures left out");
  return std::make_unique<PngDocument>(std::move(f));
}

}  // namespace
}  // namespace png_image

const FormatDescriptor kPngFormat{
    .id = "png", .description = "PNG image (one texture)", .extensions = {".png"}, .companions = {},
    .probe = png_image::ProbePng, .read = png_image::ReadPng, .encode = png_image::EncodePngDocument, .options = {},
    .part_of = "textures of the glTF files and models beside them", .picture = true};

}  // namespace animkit
