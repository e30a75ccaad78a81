// Every format's descriptor, declared once from the format table; each is defined in its
// own folder (a document names its descriptor, so the declaration must come first).
#pragma once

#include <animkit/core/format.hpp>

namespace animkit {

#define ANIMKIT_FORMAT(descriptor) extern const FormatDescriptor descriptor;
#include "formats/format_list.inc"
#undef ANIMKIT_FORMAT

}  // namespace animkit
