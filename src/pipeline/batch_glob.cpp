// Globs and skeleton maps of the folder verbs (docs/batch.md).
#include <animkit/pipeline/batch.hpp>
#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>

#include <cctype>

namespace animkit {

namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Matches one character against the set starting at pattern[i] == '['; sets end
// to the index after the closing ']'. Error when the set is not closed.
bool MatchSet(std::string_view pattern, size_t i, char c, size_t* end) {
  size_t j = i + 1;
  bool negate = false;
  if (j < pattern.size() && (pattern[j] == '!' || pattern[j] == '^')) {
    negate = true;
    ++j;
  }
  bool matched = false;
  bool first = true;
  c = Lower(c);
  for (; j < pattern.size() && (first || pattern[j] != ']'); ++j, first = false) {
    char lo = Lower(pattern[j]), hi = lo;
    if (j + 2 < pattern.size() && pattern[j + 1] == '-' && pattern[j + 2] != ']') {
      hi = Lower(pattern[j + 2]);
      j += 2;
    }
    if (lo <= c && c <= hi) matched = true;
  }
  if (j >= pattern.size()) throw Error::General("unclosed '[' in the glob '" + std::string(pattern) + "'");
  *end = j + 1;
  return matched != negate;
}

// One path segment (no '/') against one pattern segment: *, ?, [set], literals.
bool MatchSegment(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  size_t star_p = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size()) {
      const char pc = pattern[p];
      if (pc == '*') {
        star_p = p++;
        star_n = n;
        continue;
      }
      if (pc == '?') {
        ++p;
        ++n;
        continue;
      }
      if (pc == '[') {
        size_t end = 0;
        if (MatchSet(pattern, p, name[n], &end)) {
          p = end;
          ++n;
          continue;
        }
      } else if (Lower(pc) == Lower(name[n])) {
        ++p;
        ++n;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  // An unclosed set left in the pattern is still an error.
  for (size_t i = p; i < pattern.size(); ++i) {
    if (pattern[i] == '[') {
      size_t end = 0;
      MatchSet(pattern, i, 'a', &end);
    }
  }
  return p == pattern.size();
}

std::vector<std::string_view> Segments(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t slash = s.find('/', start);
    out.push_back(s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

bool MatchSegments(const std::vector<std::string_view>& pat, size_t pi, const std::vector<std::string_view>& path,
                   size_t ni) {
  while (pi < pat.size()) {
    if (pat[pi] == "**") {
      // Collapse runs of ** and try every number of levels.
      while (pi + 1 < pat.size() && pat[pi + 1] == "**") ++pi;
      if (pi + 1 == pat.size()) return true;
      for (size_t k = ni; k <= path.size(); ++k) {
        if (MatchSegments(pat, pi + 1, path, k)) return true;
      }
      return false;
    }
    if (ni >= path.size() || !MatchSegment(pat[pi], path[ni])) return false;
    ++pi;
    ++ni;
  }
  return ni == path.size();
}

}  // namespace

void CheckGlob(std::string_view pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '[') {
      size_t end = 0;
      MatchSet(pattern, i, 'a', &end);
      i = end - 1;
    }
  }
}

namespace {

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
  CheckGlob(pattern);
  return MatchSegments(Segments(pattern), 0, Segments(path), 0);
}

std::vector<SkeletonMapRule> ParseSkeletonMap(std::string_view text, const std::string& source) {
  std::vector<SkeletonMapRule> rules;
  int line_no = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    ++line_no;
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (Trim(line).empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      throw Error::AtLine(line_no, 1, "expected 'ANIMATION_GLOB = SKELETON_GLOB'").InFile(source);
    }
    SkeletonMapRule rule{Trim(line.substr(0, eq)), Trim(line.substr(eq + 1)), line_no};
    if (rule.animation.empty()) throw Error::AtLine(line_no, 1, "expected a glob before '='").InFile(source);
    if (rule.skeleton.empty()) {
      throw Error::AtLine(line_no, static_cast<int>(eq) + 2, "expected a glob after '='").InFile(source);
    }
    if (rule.skeleton.find('=') != std::string::npos) {
      throw Error::AtLine(line_no, static_cast<int>(eq) + 2, "expected one '=' in the line").InFile(source);
    }
    try {
      CheckGlob(rule.animation);
      CheckGlob(rule.skeleton);
    } catch (const Error& e) {
      throw Error::AtLine(line_no, 1, e.message()).InFile(source);
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::vector<SkeletonMapRule> ReadSkeletonMap(const std::string& path) {
  const Bytes text = ReadFileBytes(path);
  return ParseSkeletonMap(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), path);
}

}  // namespace animkit
