// Paths as animkit holds them: UTF-8 text in a std::string, on every platform. The two
// conversions to and from std::filesystem::path are the only ones: on Windows a path is
// UTF-16 and std::filesystem would read a narrow string in the ANSI code page, which
// cannot hold every name (docs/windows.md).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace animkit {

// The path a UTF-8 string names.
std::filesystem::path PathOf(std::string_view utf8);

// A path's UTF-8 text with '/' between its parts, on Windows too (where Win32 takes '/' as
// well as '\\'): a path animkit joins reads the same on every platform; what the user typed
// is kept as typed.
std::string TextOf(const std::filesystem::path& path);

}  // namespace animkit
