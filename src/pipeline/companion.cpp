// The companion rule: which skeleton or model beside a file it decodes against.
#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/skeleton.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <filesystem>

namespace animkit {

namespace {

namespace fs = std::filesystem;

std::string LowerCase(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string KindList(const FormatDescriptor& format) {
  std::string out;
  for (size_t i = 0; i < format.companions.size(); ++i) {
    if (i) out += i + 1 == format.companions.size() ? " or " : ", ";
    out += format.companions[i];
  }
  return out;
}

// Names, in sorted order, of the regular files in folder with a companion extension,
// other than the file itself and links that lead out of the folder.
std::vector<std::string> Candidates(const fs::path& folder, const fs::path& self, const FormatDescriptor& format) {
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path canonical_folder = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, ec);
  fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.filename() == self.filename()) continue;
    const std::string ext = ExtensionOf(TextOf(p.filename()));
    if (std::find(format.companions.begin(), format.companions.end(), ext) == format.companions.end()) continue;
    std::error_code file_ec;
    if (!fs::is_regular_file(p, file_ec)) continue;
    if (fs::weakly_canonical(p, file_ec).parent_path() != canonical_folder) continue;
    out.push_back(TextOf(p.filename()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The rule over the candidates' names (sorted): the chosen name in path, or why none.
Companion ChooseCompanion(const std::string& name, const std::vector<std::string>& candidates,
                          const FormatDescriptor& format) {
  const std::string kinds = KindList(format);
  if (candidates.empty()) return {"", "no " + kinds + " file beside " + name + ": decoded without a skeleton file"};
  const std::string stem_text = TextOf(PathOf(name).stem());
  const std::string stem = LowerCase(stem_text);
  std::vector<std::string> exact, prefixed;
  for (const std::string& c : candidates) {
    const std::string lower = LowerCase(c);
    if (LowerCase(TextOf(PathOf(c).stem())) == stem) exact.push_back(c);
    if (lower.starts_with(stem)) prefixed.push_back(c);
  }
  auto chosen = [&](const std::string& c, const std::string& why) { return Companion{c, c + " (" + why + ")"}; };
  if (exact.size() == 1) return chosen(exact.front(), "the same name as " + name);
  if (prefixed.size() == 1) return chosen(prefixed.front(), "its name starts with " + stem_text);
  if (prefixed.size() > 1) {
    return {"", std::to_string(prefixed.size()) + " " + kinds + " files beside " + name + " start with " + stem_text +
                    ": give --skeleton"};
  }
  if (candidates.size() == 1) return chosen(candidates.front(), "the only " + kinds + " file beside " + name);
  return {"", std::to_string(candidates.size()) + " " + kinds + " files beside " + name +
                  " and none is named after it: give --skeleton"};
}

// Whether the companion rule looks for one at all: "" when it does, else why not.
std::string NoCompanionLookedFor(const std::string& name, const FormatDescriptor& format) {
  if (format.companions.empty()) return name + " needs no skeleton file (" + std::string(format.id) + ")";
  const std::string own_ext = ExtensionOf(name);
  if (std::find(format.companions.begin(), format.companions.end(), own_ext) != format.companions.end())
    return name + " is itself a " + own_ext + " file: no companion is looked for";
  return {};
}

}  // namespace

Companion FindCompanion(const std::string& path, const FormatDescriptor& format) {
  const fs::path file = PathOf(path);
  const std::string name = TextOf(file.filename());
  if (std::string why = NoCompanionLookedFor(name, format); !why.empty()) return {"", why};
  Companion c = ChooseCompanion(name, Candidates(file.parent_path(), file, format), format);
  if (!c.path.empty()) c.path = TextOf(file.parent_path() / PathOf(c.path));
  return c;
}

Companion FindCompanionAmong(const std::string& path, const std::vector<std::string>& files, const FormatDescriptor& format) {
  const size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = path.substr(folder.size());
  if (std::string why = NoCompanionLookedFor(name, format); !why.empty()) return {"", why};
  std::vector<std::string> candidates;
  for (const std::string& f : files) {
    if (f == path || !f.starts_with(folder) || f.find('/', folder.size()) != std::string::npos) continue;
    const std::string ext = ExtensionOf(f);
    if (std::find(format.companions.begin(), format.companions.end(), ext) != format.companions.end())
      candidates.push_back(f.substr(folder.size()));
  }
  std::sort(candidates.begin(), candidates.end());
  Companion c = ChooseCompanion(name, candidates, format);
  if (!c.path.empty()) c.path = folder + c.path;
  return c;
}

}  // namespace animkit
