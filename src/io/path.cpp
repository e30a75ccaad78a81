#include <animkit/io/path.hpp>

namespace animkit {

namespace {

std::string FromU8(const std::u8string& text) { return std::string(text.begin(), text.end()); }

}  // namespace

std::filesystem::path PathOf(std::string_view utf8) {
  return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

std::string TextOf(const std::filesystem::path& path) { return FromU8(path.generic_u8string()); }

}  // namespace animkit
