// What the text ANM's reader and its set cutter share.
#pragma once

#include <string>
#include <string_view>

namespace animkit::text_anm {

// A name as messages show it.
inline std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace animkit::text_anm
