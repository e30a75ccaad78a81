// PAK records in file order: Parse, Serialize, Build and `info` walk these lists.
#pragma once

#include <animkit/formats/metroid_pak.hpp>

#include "formats/common/fields.hpp"

namespace animkit::metroid_pak {

using fields::Field;

inline constexpr auto kHeaderFields = fields::List(Field{"version", &Header::version}, Field{"unused", &Header::unused},
                                                   Field{"named_count", &Header::named_count});
// A named entry's fixed part; its name_length bytes of name follow.
inline constexpr auto kNamedFields = fields::List(Field{"type", &NamedEntry::type}, Field{"id", &NamedEntry::id},
                                                  Field{"name_length", &NamedEntry::name_length});
inline constexpr auto kCountFields = fields::List(Field{"resource_count", &File::resource_count});
inline constexpr auto kResourceFields =
    fields::List(Field{"compressed", &Resource::compressed}, Field{"type", &Resource::type}, Field{"id", &Resource::id},
                 Field{"size", &Resource::size}, Field{"offset", &Resource::offset});
// A compressed entry's leading word.
struct StatedSize {
  uint32_t size = 0;
};
inline constexpr auto kStatedSizeFields = fields::List(Field{"unpacked_size", &StatedSize::size});

static_assert(fields::Size(kHeaderFields) == kHeaderSize && fields::Size(kNamedFields) == kNamedFixedSize &&
              fields::Size(kCountFields) == kCountSize && fields::Size(kResourceFields) == kResourceSize &&
              fields::Size(kStatedSizeFields) == 4);

}  // namespace animkit::metroid_pak
