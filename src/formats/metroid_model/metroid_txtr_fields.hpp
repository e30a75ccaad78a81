// The TXTR header and palette header as field lists, in file order: ParseTxtr,
// SerializeTxtr and `info` all walk them.
#pragma once

#include <animkit/formats/metroid_txtr.hpp>

#include "formats/common/fields.hpp"

namespace animkit::metroid_txtr {

inline constexpr auto kHeaderFields =
    fields::List(fields::Field{"format", &Header::format}, fields::Field{"width", &Header::width},
                 fields::Field{"height", &Header::height}, fields::Field{"mip_count", &Header::mip_count});
inline constexpr auto kPaletteHeaderFields =
    fields::List(fields::Field{"palette_format", &PaletteHeader::format},
                 fields::Field{"palette_width", &PaletteHeader::width},
                 fields::Field{"palette_height", &PaletteHeader::height});
inline constexpr size_t kHeaderSize = fields::Size(kHeaderFields);
inline constexpr size_t kPaletteHeaderSize = fields::Size(kPaletteHeaderFields);
static_assert(kHeaderSize == 12 && kPaletteHeaderSize == 8);

}  // namespace animkit::metroid_txtr
