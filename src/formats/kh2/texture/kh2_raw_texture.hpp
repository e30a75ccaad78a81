// KH2 raw textures (a texture entry whose magic is 0): the images its GS uploads hold.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/model.hpp>
#include <animkit/formats/kh2/texture.hpp>

#include <string>
#include <vector>

namespace animkit::kh2::detail {

struct RawTextureHeader {  // the first 0x24 bytes of a raw texture
  uint32_t colour_count = 0, texture_count = 0, gs_count = 0;
  uint32_t offset_data_offset = 0, transfer_offset = 0, gs_info_offset = 0, picture_offset = 0, palette_offset = 0;
};

// What the DMA of a raw texture reads: `own` bytes of the raw texture itself (its tables
// lie inside them), then on into what follows it in memory: the rest of the entry
// (`rest`, starting at the raw texture's first byte) and then the bytes after the entry
// in the file (`after`). Past those the bytes are absent.
struct RawTextureBytes {
  ByteView rest;   // from the raw texture's first byte to the end of the entry
  size_t own = 0;  // the raw texture's own size (<= rest.size())
  ByteView after;  // the file's bytes after the entry
};

// One image per GS info: per GS info, the CLUT upload and that info's texture upload are
// replayed into GS memory and its texels read back as TEX0 (and TEX2's CLUT load) say. A
// GS info that samples texels no upload wrote, or a format not read, gives a warning
// saying how; the image keeps what was read. Throws animkit::Error when the header's
// tables lie outside the raw texture.
// `unheld` (when given) receives, per image, the texels whose colours no upload wrote.
// alone: each texture's upload replayed over the CLUT upload only (which textures read
// texels an earlier upload left: the writer's question).
std::vector<animkit::Image> DecodeRawTextures(const RawTextureBytes& bytes, const RawTextureHeader& header, uint64_t base,
                                              std::vector<std::string>& warnings, std::vector<UnheldTexels>* unheld = nullptr,
                                              bool alone = false);

}  // namespace animkit::kh2::detail
