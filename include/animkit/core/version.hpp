#pragma once

namespace animkit {
inline constexpr const char* kVersion = "0.1.0";
}
