// Kingdom Hearts II textures: an MDLX's texture entry (BAR type 7) decoded to images and
// materials, and written (over a template's or new). See docs/formats/kh2.md, "Textures"
// and "Writing textures".
#pragma once

#include <animkit/core/model.hpp>
#include <animkit/formats/kh2/motion.hpp>

#include <string>
#include <vector>

namespace animkit::kh2 {

// The images of a texture entry (docs/formats/kh2.md, "Textures"): a TIM2 file (magic
// "TIM2": every picture, 4- and 8-bit indexed with CSM1 palettes, 16-, 24- and 32-bit
// direct colour); KH2's raw GS form (magic 0: per texture, its CLUT and picture uploads
// replayed into GS memory in their destination format and read back as its TEX0 says:
// 4- and 8-bit indexed with PSMCT32/PSMCT16 CLUTs, 16/24/32-bit direct colour); or a list
// of texture sets (magic 0xFFFFFFFF, a count, then an offset per set, each a raw form):
// set 0's images are `images` (the ones the model's materials use), the other sets' are
// `other_sets`, named "set N texture I". An upload reads QWC x 16 bytes from its address
// (the rectangle's bytes when QWC wrapped), on past the entry into `after` (the file's
// bytes that follow the entry) as the game's DMA does, over what the uploads before it
// wrote; a texture that samples bytes the file does not hold (also in `unheld`), a
// damaged TIM2 picture or set, or a format not read gives a warning saying how. An error
// when a header or a table lies outside the entry.
// Texels of an image whose colours no upload wrote (left transparent), as one of the
// set's warnings says. AttachMaterials keeps that warning only as one per mesh that samples
// them (its UV triangles, bilinear footprint), naming the mesh.
struct UnheldTexels {
  size_t image = 0;              // index into TextureSet::images
  std::string warning;           // the entry of TextureSet::warnings that says it
  std::string texture;           // "texture 0 (GS info at 0x...)"
  std::string what;              // "lie where its upload wrote nothing (left transparent)...", after "N texels"
  std::vector<uint32_t> texels;  // y * width + x
  bool clamp_u = false, clamp_v = false;  // CLAMP clamps (WMS/WMT 1, 2) rather than repeats the coordinate
};
struct TextureSet {
  std::vector<Image> images;
  std::vector<UnheldTexels> unheld;  // of `images` (set 0)
  std::vector<Image> other_sets;  // the images of texture sets 1.. of a set list
  std::vector<std::string> warnings;
  std::string container;  // "TIM2", "KH2 raw texture", "KH2 texture sets"; "unreadable" when the entry could not be read
};
TextureSet DecodeTextures(ByteView entry, uint64_t base = 0, const Limits& limits = {}, ByteView after = {});
TextureSet DecodeTim2(ByteView data, uint64_t base = 0, const Limits& limits = {});

// Scene materials for the meshes: material i shows texture i of textures.images (a texture
// index past them gets a material and an Image saying why it is missing, with a warning);
// the other sets' images follow, each with a material no mesh uses, so they are kept.
// textures.unheld's warnings become one per mesh that samples those texels, naming it.
void AttachMaterials(std::vector<Mesh>& meshes, TextureSet textures, Scene& scene, std::vector<std::string>& warnings);

// A texture entry written back (docs/formats/kh2.md, "Writing textures"). `images` are
// the template's images in the order DecodeTextures lists them (images, then other_sets),
// then the ones to add. With a template entry (its bytes; empty: none), an image equal to
// the template's decoded one keeps its bytes; a changed one is re-encoded in the form the
// template used (raw GS form or TIM2, its bit depth): of the template's size in place (only
// its picture and palette bytes change), of another size with the layout rebuilt around
// it; images past the template's count are added (to the first set of a set list).
// Without a template: the raw GS form, 8-bit, as the game's files. Indexed pictures of
// more colours than they hold are quantised (libimagequant, no dithering). Throws
// animkit::Error naming the texture and the limit for what the GS or the form cannot hold
// (docs/formats/kh2.md, "Texture limits": a side not a power of two or over 512, GS
// memory, more than 255 textures).
struct TextureWrite {
  Bytes entry;
  std::vector<std::string> warnings;
  size_t kept = 0, reencoded = 0, added = 0;
  std::vector<int> index;  // per image: its texture index in the entry's first set; -1 in another set
};
TextureWrite WriteTextureEntry(ByteView template_entry, const std::vector<Image>& images, const Limits& limits = {});

// A new texture entry (no template) in either form the game reads: the raw GS form (what
// WriteTextureEntry writes without a template) or a TIM2 file; every picture 8-bit indexed,
// quantised as above, within the same limits.
enum class TextureForm { Raw, Tim2 };
TextureWrite WriteNewTextureEntry(const std::vector<Image>& images, TextureForm form = TextureForm::Raw);

}  // namespace animkit::kh2
