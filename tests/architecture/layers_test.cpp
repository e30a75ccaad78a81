// The layer picture of docs/architecture.md, checked against the tree: every
// #include of the library's sources and public headers goes down (or sideways
// within a layer), and no format folder includes another format's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace animkit {
namespace {

namespace fs = std::filesystem;

// Lowest first; a layer may include its own and every layer below it, except that
// the runtime (standard library only) includes nothing else and the core nothing
// but itself.
enum class Layer { Runtime, Core, Io, Offline, Formats, Pipeline, Preview, Api };

const char* Name(Layer l) {
  switch (l) {
    case Layer::Runtime: return "runtime";
    case Layer::Core: return "core";
    case Layer::Io: return "io";
    case Layer::Offline: return "offline";
    case Layer::Formats: return "formats";
    case Layer::Pipeline: return "pipeline";
    case Layer::Preview: return "preview";
    case Layer::Api: return "api";
  }
  return "?";
}

bool MayInclude(Layer from, Layer to) {
  if (from == Layer::Runtime) return to == Layer::Runtime;
  if (to == Layer::Runtime) return from >= Layer::Offline;
  if (from == Layer::Core) return to == Layer::Core;
  return to <= from;
}

// Path relative to the source root -> its layer, read from the path: include/animkit/<layer>/
// and src/<layer>/ (src/ mirrors the include folders); nullopt for files outside the library.
std::optional<Layer> LayerOf(const std::string& rel) {
  static const std::map<std::string, Layer> kFolders = {
      {"runtime", Layer::Runtime}, {"core", Layer::Core},         {"io", Layer::Io},
      {"offline", Layer::Offline}, {"formats", Layer::Formats},   {"pipeline", Layer::Pipeline},
      {"preview", Layer::Preview}};
  for (const std::string prefix : {"include/animkit/", "src/"}) {
    if (rel.rfind(prefix, 0) != 0) continue;
    const std::string rest = rel.substr(prefix.size());
    const size_t slash = rest.find('/');
    if (slash == std::string::npos) {
      if (rel == "include/animkit/animkit.hpp") return Layer::Api;
      ADD_FAILURE() << rel << ": a library file outside a layer folder (docs/architecture.md, \"Layers\")";
      return std::nullopt;
    }
    const auto it = kFolders.find(rest.substr(0, slash));
    if (it != kFolders.end()) return it->second;
    ADD_FAILURE() << rel << ": a folder that is no layer (docs/architecture.md, \"Layers\")";
    return std::nullopt;
  }
  return std::nullopt;
}

// The format a file belongs to ("" when none; "common" is shared by every format). The
// registry's header and gltf.hpp (ImportGltf, ExportGltf: the interchange every format may
// use, the text ANM's timeline is a glb) belong to none; glTF's internals
// (src/formats/gltf/) are its own. A public header of a format that lives in a folder of
// another name belongs to that folder: the Metroid textures (metroid_txtr.hpp) live with the
// Metroid models that read them (src/formats/metroid_model/).
std::string FormatOf(const std::string& rel) {
  if (rel == "include/animkit/formats/gltf.hpp" || rel == "include/animkit/formats/registry.hpp") return {};
  if (rel == "include/animkit/formats/metroid_txtr.hpp") return "metroid_model";
  for (const std::string prefix : {"src/formats/", "include/animkit/formats/"}) {
    if (rel.rfind(prefix, 0) != 0) continue;
    std::string rest = rel.substr(prefix.size());
    const size_t slash = rest.find('/');
    if (slash != std::string::npos) return rest.substr(0, slash);
    const size_t dot = rest.find('.');
    return prefix == std::string("src/formats/") ? std::string() : rest.substr(0, dot);  // src/formats/registry.cpp: none
  }
  return {};
}

struct Include {
  std::string from, to;  // relative to the source root
  int line = 0;
};

// Every #include of the library's own files (system and third-party headers left out).
std::vector<Include> Includes(const fs::path& root) {
  std::vector<Include> out;
  const std::regex directive(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  for (const char* dir : {"src", "include/animkit"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file()) continue;
      const std::string rel = e.path().lexically_relative(root).generic_string();
      std::ifstream in(e.path());
      std::string text;
      int line_no = 0;
      while (std::getline(in, text)) {
        ++line_no;
        std::smatch m;
        if (!std::regex_search(text, m, directive)) continue;
        const std::string target = m[2];
        std::string resolved;
        if (target.rfind("animkit/", 0) == 0) {
          resolved = "include/" + target;
        } else if (m[1] == "\"") {
          // Quoted: beside the file, else under src/ (the library's private include folder).
          const fs::path beside = (e.path().parent_path() / target).lexically_normal();
          resolved = fs::exists(beside) ? beside.lexically_relative(root).generic_string() : "src/" + target;
        } else {
          continue;
        }
        out.push_back({rel, resolved, line_no});
      }
    }
  }
  return out;
}

// Cross-format includes still being moved below both formats: none is left; a line here
// would be a debt, not a permission for more.
const std::set<std::pair<std::string, std::string>> kKnownCrossFormat = {};

TEST(Layers, EveryIncludeGoesDownAndNoFormatIncludesAnother) {
  const fs::path root = ANIMKIT_SOURCE_DIR;
  const std::vector<Include> includes = Includes(root);
  ASSERT_GT(includes.size(), 50u) << "the scan found too few includes under " << root;
  std::set<std::pair<std::string, std::string>> cross_seen;
  for (const Include& inc : includes) {
    const std::string where = inc.from + ":" + std::to_string(inc.line) + " includes " + inc.to;
    const std::optional<Layer> from = LayerOf(inc.from), to = LayerOf(inc.to);
    if (!from || !to) continue;
    EXPECT_TRUE(MayInclude(*from, *to)) << where << ": the " << Name(*from) << " layer may not include the "
                                        << Name(*to) << " layer (docs/architecture.md, \"Layers\")";
    const std::string a = FormatOf(inc.from), b = FormatOf(inc.to);
    if (a.empty() || b.empty() || a == b || a == "common" || b == "common") continue;
    if (kKnownCrossFormat.count({a, b})) {
      cross_seen.insert({a, b});
      continue;
    }
    ADD_FAILURE() << where << ": the format " << a << " includes the format " << b
                  << "; what two formats share goes below both (src/formats/common/ or the core)";
  }
  for (const auto& known : kKnownCrossFormat) {
    if (!cross_seen.count(known)) {
      std::printf("note: %s no longer includes %s: remove the pair from kKnownCrossFormat\n", known.first.c_str(),
                  known.second.c_str());
    }
  }
}

// The checker itself: the rules catch what they are meant to catch.
TEST(Layers, TheRulesCatchUpwardAndCrossFormatIncludes) {
  EXPECT_FALSE(MayInclude(Layer::Core, Layer::Pipeline));
  EXPECT_FALSE(MayInclude(Layer::Core, Layer::Formats));
  EXPECT_FALSE(MayInclude(Layer::Core, Layer::Io));
  EXPECT_FALSE(MayInclude(Layer::Formats, Layer::Pipeline));
  EXPECT_FALSE(MayInclude(Layer::Offline, Layer::Formats));
  EXPECT_FALSE(MayInclude(Layer::Runtime, Layer::Core));
  EXPECT_FALSE(MayInclude(Layer::Core, Layer::Runtime));
  EXPECT_TRUE(MayInclude(Layer::Offline, Layer::Runtime));
  EXPECT_TRUE(MayInclude(Layer::Formats, Layer::Io));
  EXPECT_TRUE(MayInclude(Layer::Pipeline, Layer::Formats));
  EXPECT_EQ(LayerOf("src/pipeline/batch.cpp"), Layer::Pipeline);
  EXPECT_EQ(LayerOf("include/animkit/pipeline/pipeline.hpp"), Layer::Pipeline);
  EXPECT_EQ(LayerOf("src/formats/gltf/gltf_export.cpp"), Layer::Formats);
  EXPECT_EQ(LayerOf("include/animkit/runtime/animation.hpp"), Layer::Runtime);
  EXPECT_EQ(LayerOf("tools/animkit/main.cpp"), std::nullopt);
  EXPECT_EQ(FormatOf("src/formats/kh2/archive/kh2_bar.cpp"), "kh2");
  EXPECT_EQ(FormatOf("include/animkit/formats/psx_anm.hpp"), "psx_anm");
  EXPECT_EQ(FormatOf("src/formats/registry.cpp"), "");
  EXPECT_EQ(FormatOf("src/formats/gltf/gltf_common.cpp"), "gltf");
  EXPECT_EQ(FormatOf("src/formats/gltf/gltf_internal.hpp"), "gltf");
  EXPECT_EQ(FormatOf("include/animkit/formats/gltf.hpp"), "");
  EXPECT_EQ(LayerOf("include/animkit/core/format.hpp"), Layer::Core);
  EXPECT_EQ(LayerOf("include/animkit/formats/registry.hpp"), Layer::Formats);
  EXPECT_EQ(LayerOf("include/animkit/animkit.hpp"), Layer::Api);
}

}  // namespace
}  // namespace animkit
