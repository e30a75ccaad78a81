// A PNG image as a format of its own: one texture in, one texture out (a game texture
// converted to PNG to be edited, and back over its template). docs/formats/png.md.
#pragma once

#include <animkit/core/format.hpp>

#include <array>

namespace animkit::png_image {

// The metadata keys a decoded PNG holds.
namespace metadata_keys {
inline constexpr std::array kPngScene{kSourceFormatKey};
}  // namespace metadata_keys

}  // namespace animkit::png_image
