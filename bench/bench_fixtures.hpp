// Where the benchmarks find ../shared/fixtures: beside the checkout (from this file), else
// beside the working folder. Empty when absent (the benchmark then skips).
#pragma once

#include <filesystem>
#include <string>

namespace animkit::bench {

inline std::string FixturePath(const char* relative) {
  const std::filesystem::path file = std::filesystem::path("shared") / "fixtures" / relative;
  for (const std::filesystem::path& p : {std::filesystem::path(__FILE__).parent_path() / ".." / ".." / file,
                                         std::filesystem::path("..") / file})
    if (std::filesystem::exists(p)) return p.string();
  return "";
}

}  // namespace animkit::bench
