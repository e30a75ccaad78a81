// KH2 raw textures (a texture entry whose magic is 0): the images its GS uploads hold.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/model.hpp>

#include <string>
#include <vector>

namespace animkit::kh2::detail {

struct RawTextureHeader {  // the entry's first 0x24 bytes
  uint32_t colour_count = 0, texture_count = 0, gs_count = 0;
  uint32_t offset_data_offset = 0, transfer_offset = 0, gs_info_offset = 0, picture_offset = 0, palette_offset = 0;
};

// One image per GS info, its pixels read back from the replayed uploads; a GS info this
// does not read (another format, a transfer index past the table) is a missing image and a
// warning. Throws animkit::Error when a table or an upload lies outside the entry.
std::vector<animkit::Image> DecodeRawTextures(ByteView entry, const RawTextureHeader& header, uint64_t base,
                                     std::vector<std::string>& warnings);

}  // namespace animkit::kh2::detail
