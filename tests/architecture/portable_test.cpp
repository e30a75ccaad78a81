// What keeps the Windows build computing and naming files as the Linux one does
// (docs/windows.md): the elementary functions only through core/elementary.hpp, the
// operating system only in its platform files, and a path made from a string only through
// io/path.hpp (std::filesystem would read a narrow string in Windows' ANSI code page).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace animkit {
namespace {

namespace fs = std::filesystem;

struct Rule {
  std::regex pattern;
  std::set<std::string> allowed;  // files (relative to the source root) the rule leaves alone
  const char* why;
};

std::string Read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Portable, SourcesKeepThePlatformRules) {
  const fs::path root = ANIMKIT_SOURCE_DIR;
  const std::vector<Rule> rules = {
      {std::regex(R"(std::(sin|cos|tan|asin|acos|atan2?|exp|log|pow|hypot)f?\()"),
       {"include/animkit/core/elementary.hpp"},
       "calls a C library function whose last bit differs between platforms: use core/elementary.hpp"},
      {std::regex(R"(#include <(windows\.h|unistd\.h|fcntl\.h|io\.h|sys/[a-z]+\.h)>)"),
       {"src/io/platform_posix.cpp", "src/io/platform_windows.cpp", "tools/animkit/windows_entry.cpp",
        "tools/animkit/windows_allocator.cpp", "tools/animkit/folder_console.cpp"},
       "includes an operating system's header: that belongs in src/io/platform_*.cpp"},
      {std::regex(R"((std::filesystem|fs)::path\((?!\"\.\"\)))"),
       {"src/io/path.cpp"},
       "makes a path from a string directly: use PathOf() (io/path.hpp), which reads it as UTF-8"},
      {std::regex(R"(\.(string|generic_string)\(\))"),
       {},
       "takes a path's text in the ANSI code page on Windows: use TextOf() / TextOf() (io/path.hpp)"},
  };
  size_t checked = 0;
  for (const char* folder : {"src", "include", "tools/animkit", "python"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp") continue;
      const std::string rel = entry.path().lexically_relative(root).generic_string();
      const std::string text = Read(entry.path());
      ++checked;
      for (const Rule& rule : rules) {
        if (rule.allowed.count(rel)) continue;
        std::smatch match;
        if (std::regex_search(text, match, rule.pattern)) {
          const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + match.position(0), '\n'));
          ADD_FAILURE() << rel << ":" << line << ": " << match.str(0) << ": " << rule.why;
        }
      }
    }
  }
  EXPECT_GT(checked, 100u);
}

}  // namespace
}  // namespace animkit
