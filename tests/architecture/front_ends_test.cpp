// The front ends know formats only through the registry and the document (core/format.hpp):
// the pipeline and the tools' frames name no format id and include no format's header. What a verb needs of a format is a descriptor field (side files, companions,
// extensions), a Document capability (archive members, stored curves) or a common metadata key.
//
// Scanned: src/pipeline/, include/animkit/pipeline/, tools/animkit/, tools/make_fuzz_corpus/ and
// tools/make_samples/. Allowed: <animkit/formats/registry.hpp> (the table itself) and
// <animkit/formats/gltf.hpp> (the interchange's scene view an importer reads: import-data).
// A tool file named for a format family (kh2_seeds.cpp, psx_tmd_samples.cpp: its name starts
// with the first word of a src/formats/ folder and '_') is that family's own and is not scanned.
#include <animkit/formats/registry.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace animkit {
namespace {

namespace fs = std::filesystem;

struct Literal {
  std::string text;
  int line = 0;
};

// The string literals of a C++ text, comments and character literals passed over (raw strings
// are read up to their closing quote, which is enough for the code scanned here).
std::vector<Literal> StringLiterals(const std::string& text) {
  std::vector<Literal> out;
  int line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      --i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      for (i += 2; i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/'); ++i)
        if (text[i] == '\n') ++line;
      ++i;
    } else if (c == '\'' || c == '"') {
      std::string s;
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) s += text[i++];
        s += text[i];
      }
      if (c == '"') out.push_back({s, line});
    }
  }
  return out;
}

// The first words of the format folders (src/formats/<folder>): "edf", "gltf", "kh2", ...
std::set<std::string> FamilyWords(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(root / "src" / "formats")) {
    const std::string folder = e.path().filename().string();
    if (e.is_directory() && folder != "common") out.insert(folder.substr(0, folder.find('_')));
  }
  return out;
}

bool IsFamilyFile(const std::string& name, const std::set<std::string>& families) {
  const size_t underscore = name.find('_');
  return underscore != std::string::npos && families.count(name.substr(0, underscore)) != 0;
}

// What a front-end file does that only a format should: one line each.
std::vector<std::string> FormatKnowledge(const std::string& rel, const std::string& text, const std::set<std::string>& ids) {
  std::vector<std::string> out;
  for (const Literal& l : StringLiterals(text))
    if (ids.count(l.text)) out.push_back(rel + ":" + std::to_string(l.line) + " names the format id \"" + l.text + "\"");
  const std::regex include(R"(^\s*#\s*include\s*[<"]((animkit/)?formats/[^>"]+)[>"])");
  std::istringstream lines(text);
  std::string s;
  for (int n = 1; std::getline(lines, s); ++n) {
    std::smatch m;
    if (!std::regex_search(s, m, include)) continue;
    const std::string target = m[1];
    if (target == "animkit/formats/registry.hpp" || target == "animkit/formats/gltf.hpp") continue;
    out.push_back(rel + ":" + std::to_string(n) + " includes " + target);
  }
  return out;
}

TEST(Layers, FrontEndsNameNoFormatIdAndIncludeNoFormatHeader) {
  const fs::path root = ANIMKIT_SOURCE_DIR;
  std::set<std::string> ids;
  for (const FormatDescriptor* f : Formats()) ids.emplace(f->id);
  ASSERT_GE(ids.size(), 10u);
  const std::set<std::string> families = FamilyWords(root);
  ASSERT_TRUE(families.count("kh2") && families.count("psx")) << "the format folders were not found under " << root;
  size_t scanned = 0;
  for (const char* dir : {"src/pipeline", "include/animkit/pipeline", "tools/animkit", "tools/make_fuzz_corpus", "tools/make_samples"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".inc")) continue;
      if (std::string(dir).rfind("tools/", 0) == 0 && IsFamilyFile(name, families)) continue;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      ++scanned;
      for (const std::string& why : FormatKnowledge(e.path().lexically_relative(root).generic_string(), text.str(), ids))
        ADD_FAILURE() << why << ": a front end knows a format through the registry (a descriptor field) or the "
                      << "document (a capability, core/format.hpp), not by its id or its header";
    }
  }
  EXPECT_GE(scanned, 30u);
}

// The scan itself: literals found, comments and character literals passed over, includes told apart.
TEST(Layers, TheFrontEndScanFindsIdsAndFormatHeaders) {
  const std::set<std::string> ids = {"kh2-bar", "gltf"};
  const std::string text =
      "// \"kh2-bar\" in a comment\n"
      "/* \"gltf\" */ char c = '\"';\n"
      "#include <animkit/formats/registry.hpp>\n"
      "#include <animkit/formats/kh2.hpp>\n"
      "#include \"formats/common/fields.hpp\"\n"
      "bool k = id == \"kh2-bar\" || id == \"kh2\";\n";
  const std::vector<std::string> found = FormatKnowledge("x.cpp", text, ids);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0], "x.cpp:6 names the format id \"kh2-bar\"");
  EXPECT_EQ(found[1], "x.cpp:4 includes animkit/formats/kh2.hpp");
  EXPECT_EQ(found[2], "x.cpp:5 includes formats/common/fields.hpp");
  EXPECT_TRUE(IsFamilyFile("kh2_seeds.cpp", {"kh2", "psx"}));
  EXPECT_TRUE(IsFamilyFile("psx_tmd_samples.cpp", {"kh2", "psx"}));
  EXPECT_FALSE(IsFamilyFile("main.cpp", {"kh2", "psx"}));
  EXPECT_FALSE(IsFamilyFile("curves_command.cpp", {"kh2", "psx"}));
}

}  // namespace
}  // namespace animkit
