// PAK records in file order: Parse, Serialize, Build and `info` walk these lists.
#pragma once

#include <animkit/formats/psx_pak.hpp>

#include "formats/common/fields.hpp"

namespace animkit::psx_pak {

using fields::Field;

inline constexpr auto kHeaderFields = fields::List(Field{"member_count", &Header::count});
// One offset table entry (4 bytes).
inline constexpr auto kOffsetFields = fields::List(Field{"offset", &Entry::offset});
// The length after an entry's padded path (4 bytes).
inline constexpr auto kLengthFields = fields::List(Field{"length", &Entry::length});

static_assert(fields::Size(kHeaderFields) == kCountSize && fields::Size(kOffsetFields) == kOffsetSize &&
              fields::Size(kLengthFields) == kLengthSize);

}  // namespace animkit::psx_pak
