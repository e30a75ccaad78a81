#include "support/shared_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace animkit::test {

namespace {

std::filesystem::path SharedRoot() { return std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared"; }

}  // namespace

std::string SharedPath(const std::string& relative) {
  const std::filesystem::path p = SharedRoot() / relative;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

std::vector<std::string> SharedFiles(const std::vector<std::string>& folders, const std::vector<std::string>& extensions) {
  std::vector<std::string> out;
  const std::filesystem::path root = SharedRoot();
  for (const std::string& folder : folders) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root / folder, ec)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / folder, ec)) {
      if (!e.is_regular_file()) continue;
      std::string ext = e.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end())
        out.push_back(std::filesystem::relative(e.path(), root).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string SharedTestName(const std::string& relative) {
  std::string name;
  for (const char c : relative) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

}  // namespace animkit::test
