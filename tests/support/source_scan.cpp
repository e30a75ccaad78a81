#include "support/source_scan.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace animkit::source_scan {
namespace {

bool IsIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Offset -> 1-based line.
class Lines {
 public:
  explicit Lines(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
    }
  }
  int At(size_t offset) const {
    return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin());
  }

 private:
  std::vector<size_t> starts_{0};
};

void Blank(std::string& text, size_t from, size_t to) {
  for (size_t k = from; k < to && k < text.size(); ++k) {
    if (text[k] != '\n') text[k] = ' ';
  }
}

// Where the quoted literal opening at `open` ends (the offset past its closing quote); a
// backslash escapes the next character; a line break ends an unclosed one.
size_t QuotedEnd(std::string_view t, size_t open) {
  size_t j = open + 1;
  while (j < t.size() && t[j] != t[open] && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
  return std::min(j + 1, t.size());
}

// The offset of the brace closing the one at `open` (the text's end when none does).
size_t MatchingBrace(std::string_view code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == '{') ++depth;
    if (code[i] == '}' && --depth == 0) return i;
  }
  return code.size() - 1;
}

// ---- C++ ------------------------------------------------------------------------------------

// A ' after a number's digits is a digit separator (1'000), not a character literal.
bool DigitSeparator(std::string_view t, size_t quote) {
  if (quote == 0 || quote + 1 >= t.size() || !IsIdent(t[quote - 1]) || !IsIdent(t[quote + 1])) return false;
  size_t s = quote;
  while (s > 0 && (IsIdent(t[s - 1]) || t[s - 1] == '\'' || t[s - 1] == '.')) --s;
  return std::isdigit(static_cast<unsigned char>(t[s])) != 0;
}

// R"delim( ... )delim", with or without an encoding prefix (u8R, LR, uR, UR).
bool RawStringOpens(std::string_view t, size_t quote) {
  if (quote == 0 || t[quote - 1] != 'R') return false;
  if (quote == 1 || !IsIdent(t[quote - 2])) return true;
  const std::string_view before = t.substr(0, quote - 1);
  return (EndsWith(before, "u8") || EndsWith(before, "L") || EndsWith(before, "u") || EndsWith(before, "U")) &&
         (before.size() == 1 || !IsIdent(before[before.size() - (EndsWith(before, "u8") ? 3 : 2)]));
}

// Drops what precedes a declaration's own words: template <...>, [[attributes]] and an
// access specifier.
std::string_view DeclarationWords(std::string_view h) {
  while (true) {
    while (!h.empty() && IsSpace(h.front())) h.remove_prefix(1);
    if (h.rfind("template", 0) == 0 && h.find('<') != std::string_view::npos) {
      int depth = 0;
      size_t k = h.find('<');
      for (; k < h.size(); ++k) {
        if (h[k] == '<') ++depth;
        if (h[k] == '>' && --depth == 0) break;
      }
      h.remove_prefix(std::min(k + 1, h.size()));
    } else if (h.rfind("[[", 0) == 0) {
      const size_t end = h.find("]]");
      h.remove_prefix(end == std::string_view::npos ? h.size() : end + 2);
    } else if (std::regex_search(std::string(h.substr(0, 12)), std::regex(R"(^(public|private|protected)\s*:)"))) {
      h.remove_prefix(h.find(':') + 1);
    } else {
      return h;
    }
  }
}

std::string FirstWord(std::string_view h) {
  size_t e = 0;
  while (e < h.size() && IsIdent(h[e])) ++e;
  return std::string(h.substr(0, e));
}

// The offset of a constructor's initializer-list colon (a lone ':' after the parameter
// list, outside parentheses), or npos.
size_t InitializerColon(std::string_view h) {
  int depth = 0;
  bool after_params = false;
  for (size_t k = 0; k < h.size(); ++k) {
    if (h[k] == '(') ++depth;
    if (h[k] == ')' && --depth == 0) after_params = true;
    if (depth == 0 && after_params && h[k] == ':') {
      const bool doubled = (k + 1 < h.size() && h[k + 1] == ':') || (k > 0 && h[k - 1] == ':');
      if (!doubled) return k;
    }
  }
  return std::string_view::npos;
}

// An '=' outside parentheses that assigns (an initializer), not part of ==, <=, operator=.
bool Assigns(std::string_view h) {
  int depth = 0;
  for (size_t k = 0; k < h.size(); ++k) {
    if (h[k] == '(') ++depth;
    if (h[k] == ')') --depth;
    if (depth != 0 || h[k] != '=') continue;
    if ((k + 1 < h.size() && h[k + 1] == '=') || (k > 0 && std::string_view("=!<>").find(h[k - 1]) != std::string_view::npos)) {
      continue;
    }
    size_t b = k;
    while (b > 0 && (IsSpace(h[b - 1]) || std::string_view("=!<>+-*/%&|^").find(h[b - 1]) != std::string_view::npos)) --b;
    if (!EndsWith(h.substr(0, b), "operator")) return true;
  }
  return false;
}

enum class Opens { Scope, Body, Other };

// What the `{` ending the declaration text `h` opens.
Opens Classify(std::string_view h) {
  h = DeclarationWords(h);
  const std::string first = FirstWord(h);
  const bool has_paren = h.find('(') != std::string_view::npos;
  if (first == "namespace" || (first == "extern" && !has_paren)) return Opens::Scope;
  if (first == "class" || first == "struct" || first == "union") return Opens::Scope;
  if (first == "enum" || !has_paren || Assigns(h)) return Opens::Other;
  if (std::count(h.begin(), h.end(), '(') != std::count(h.begin(), h.end(), ')')) return Opens::Other;  // in a call
  if (InitializerColon(h) != std::string_view::npos) {
    size_t e = h.size();
    while (e > 0 && IsSpace(h[e - 1])) --e;
    if (e > 0 && (IsIdent(h[e - 1]) || h[e - 1] == '>')) return Opens::Other;  // a member's `m{...}`
  }
  return Opens::Body;
}

// The function's name in its declaration text, and its offset there: the words before
// the parameter list (the last parenthesised group but noexcept(...), before any trailing
// return type or initializer list). TEST(Suite, Name) keeps its arguments.
std::pair<std::string, size_t> CppName(std::string_view h) {
  h = h.substr(0, std::min(h.find("->"), InitializerColon(h)));
  std::vector<size_t> opens;
  int depth = 0;
  for (size_t k = 0; k < h.size(); ++k) {
    if (h[k] == '(' && depth++ == 0) opens.push_back(k);
    if (h[k] == ')') --depth;
  }
  size_t end = opens.empty() ? h.size() : opens.back();
  for (auto it = opens.rbegin(); it != opens.rend(); ++it) {
    size_t b = *it;
    while (b > 0 && IsSpace(h[b - 1])) --b;
    end = *it;
    if (!EndsWith(h.substr(0, b), "noexcept") && !EndsWith(h.substr(0, b), "throw")) break;
  }
  size_t b = end;
  while (b > 0 && IsSpace(h[b - 1])) --b;
  const size_t op = h.substr(0, end).rfind("operator");
  if (op != std::string_view::npos && h.substr(op + 8, b - op - 8).find_first_of("abcdefghijklmnopqrstuvwxyz_") ==
                                          std::string_view::npos) {
    b = op;
  }
  size_t s = b;
  if (s > 0 && h[s - 1] == '>') {  // a specialization's Name<Args>
    for (int angles = 0; s > 0; --s) {
      if (h[s - 1] == '>') ++angles;
      if (h[s - 1] == '<' && --angles == 0) break;
    }
    s -= s > 0 ? 1 : 0;
  }
  while (s > 0 && (IsIdent(h[s - 1]) || h[s - 1] == ':' || h[s - 1] == '~')) --s;
  std::string name(h.substr(s, end - s));
  name.erase(std::remove_if(name.begin(), name.end(), IsSpace), name.end());
  if (name == "TEST" || name == "TEST_F" || name == "TEST_P" || name == "TYPED_TEST") {
    const size_t close = h.find(')', end);
    name = std::regex_replace(std::string(h.substr(s, close + 1 - s)), std::regex(R"(\s+)"), " ");
  }
  return {name, s};
}

// ---- JavaScript ------------------------------------------------------------------------------

// A '/' here starts a regular expression (not a division): after an operator, an opening
// bracket, a comma or a keyword such as `return`.
bool RegexOpens(std::string_view t, size_t slash) {
  size_t b = slash;
  while (b > 0 && IsSpace(t[b - 1])) --b;
  if (b == 0) return true;
  if (std::string_view("(,=:[!&|?{};+-*%<>~^").find(t[b - 1]) != std::string_view::npos) return true;
  size_t s = b;
  while (s > 0 && IsIdent(t[s - 1])) --s;
  const std::string_view word = t.substr(s, b - s);
  return word == "return" || word == "typeof" || word == "case" || word == "in" || word == "of" || word == "void";
}

size_t RegexEnd(std::string_view t, size_t open) {
  bool in_class = false;
  size_t j = open + 1;
  for (; j < t.size() && t[j] != '\n'; ++j) {
    if (t[j] == '\\') ++j;
    else if (t[j] == '[') in_class = true;
    else if (t[j] == ']') in_class = false;
    else if (t[j] == '/' && !in_class) break;
  }
  return std::min(j + 1, t.size());
}

// JavaScript with comments, string and template text and regular expressions blanked
// (a template's ${...} stays code).
std::string BlankJs(std::string_view t) {
  std::string out(t);
  std::vector<int> templates;  // per open template expression: its brace depth
  int braces = 0;
  size_t i = 0;
  auto template_text = [&](size_t from) {  // blanks template text from `from`; returns where code resumes
    size_t j = from;
    while (j < t.size() && t[j] != '`' && !(t[j] == '$' && j + 1 < t.size() && t[j + 1] == '{')) j += t[j] == '\\' ? 2 : 1;
    Blank(out, from, j);
    if (j < t.size() && t[j] == '$') {
      templates.push_back(++braces);
      return j + 2;
    }
    return j + 1;
  };
  while (i < t.size()) {
    const char c = t[i];
    const char next = i + 1 < t.size() ? t[i + 1] : '\0';
    if (c == '/' && next == '/') {
      const size_t e = std::min(t.find('\n', i), t.size());
      Blank(out, i, e);
      i = e;
    } else if (c == '/' && next == '*') {
      const size_t e = t.find("*/", i + 2);
      const size_t end = e == std::string_view::npos ? t.size() : e + 2;
      Blank(out, i, end);
      i = end;
    } else if (c == '\'' || c == '"') {
      const size_t e = QuotedEnd(t, i);
      Blank(out, i + 1, e - 1);
      i = e;
    } else if (c == '/' && RegexOpens(t, i)) {
      const size_t e = RegexEnd(t, i);
      Blank(out, i + 1, e);
      i = e;
    } else if (c == '`') {
      i = template_text(i + 1);
    } else if (c == '}' && !templates.empty() && templates.back() == braces) {
      templates.pop_back();
      --braces;
      i = template_text(i + 1);
    } else {
      if (c == '{') ++braces;
      if (c == '}') --braces;
      ++i;
    }
  }
  return out;
}

size_t SkipSpace(std::string_view code, size_t k) {
  while (k < code.size() && IsSpace(code[k])) ++k;
  return k;
}

// The name a function expression is assigned to (`name = function`, `name: function`,
// `name = (...) =>`): the words before `at`, or "" when it has none.
std::string AssignedName(std::string_view code, size_t at) {
  size_t b = at;
  while (b > 0 && IsSpace(code[b - 1])) --b;
  if (EndsWith(code.substr(0, b), "async")) b -= 5;
  while (b > 0 && IsSpace(code[b - 1])) --b;
  if (b == 0 || (code[b - 1] != '=' && code[b - 1] != ':')) return {};
  if (b > 1 && std::string_view("=!<>").find(code[b - 2]) != std::string_view::npos) return {};
  --b;
  while (b > 0 && IsSpace(code[b - 1])) --b;
  size_t s = b;
  while (s > 0 && (IsIdent(code[s - 1]) || code[s - 1] == '.')) --s;
  return std::string(code.substr(s, b - s));
}

// Where the parenthesised group closing at `close` opens (backwards), or npos.
size_t OpeningParen(std::string_view code, size_t close) {
  int depth = 0;
  for (size_t k = close + 1; k-- > 0;) {
    if (code[k] == ')') ++depth;
    if (code[k] == '(' && --depth == 0) return k;
  }
  return std::string_view::npos;
}

}  // namespace

Language LanguageOf(std::string_view name) {
  for (std::string_view ext : {".cpp", ".hpp", ".h", ".cc", ".inc"}) {
    if (EndsWith(name, ext)) return Language::Cpp;
  }
  if (EndsWith(name, ".py")) return Language::Python;
  if (EndsWith(name, ".js") || EndsWith(name, ".mjs")) return Language::JavaScript;
  if (name == "CMakeLists.txt" || EndsWith(name, ".cmake") || EndsWith(name, ".cmake.in")) return Language::CMake;
  return Language::None;
}

std::string BlankCpp(std::string_view t) {
  std::string out(t);
  bool line_start = true;
  size_t i = 0;
  while (i < t.size()) {
    const char c = t[i];
    const char next = i + 1 < t.size() ? t[i + 1] : '\0';
    if (c == '\n' || IsSpace(c)) {
      line_start = line_start || c == '\n';
      ++i;
      continue;
    }
    size_t end = i + 1;
    if (line_start && c == '#') {  // a directive, continued by backslashes
      end = i;
      while (end < t.size() && !(t[end] == '\n' && t[end - 1] != '\\')) ++end;
    } else if (c == '/' && next == '/') {
      end = std::min(t.find('\n', i), t.size());
    } else if (c == '/' && next == '*') {
      const size_t e = t.find("*/", i + 2);
      end = e == std::string_view::npos ? t.size() : e + 2;
    } else if (c == '"' && RawStringOpens(t, i)) {
      const size_t paren = t.find('(', i);
      const std::string close = ")" + std::string(t.substr(i + 1, paren - i - 1)) + "\"";
      const size_t e = t.find(close, paren);
      end = e == std::string_view::npos ? t.size() : e + close.size();
      Blank(out, i + 1, end - 1);
      i = end;
      line_start = false;
      continue;
    } else if (c == '"' || (c == '\'' && !DigitSeparator(t, i))) {
      end = QuotedEnd(t, i);
      Blank(out, i + 1, end - 1);
      i = end;
      line_start = false;
      continue;
    } else {
      i = end;
      line_start = false;
      continue;
    }
    Blank(out, i, end);
    i = end;
    line_start = false;
  }
  return out;
}

std::vector<Function> CppFunctions(std::string_view text) {
  const std::string code = BlankCpp(text);
  const Lines lines(code);
  std::vector<Function> out;
  size_t header = 0;  // where the declaration the scan is in began
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] == ';' || code[i] == '}') header = i + 1;
    if (code[i] != '{') continue;
    const std::string_view h = std::string_view(code).substr(header, i - header);
    const Opens opens = Classify(h);
    if (opens == Opens::Scope) {
      header = i + 1;
    } else if (opens == Opens::Other) {
      i = MatchingBrace(code, i);  // the declaration goes on (`= {...};`, a member's `m{...}`)
    } else {
      const auto [name, at] = CppName(h);
      const size_t close = MatchingBrace(code, i);
      const int first = lines.At(header + at);
      out.push_back({name, first, lines.At(close) - first + 1});
      i = close;
      header = close + 1;
    }
  }
  return out;
}

std::vector<Function> PythonFunctions(std::string_view text) {
  struct Line {
    std::string_view text;
    bool statement = false;  // begins a statement (not inside a string, brackets or a continuation)
    bool code = false;       // holds code or string text, not only blanks and a comment
    size_t indent = 0;
  };
  std::vector<Line> lines;
  std::string quote;  // the open string's quote ("" when none)
  int brackets = 0;
  bool continued = false;
  for (size_t at = 0; at <= text.size();) {
    const size_t e = std::min(text.find('\n', at), text.size());
    Line line{text.substr(at, e - at)};
    const std::string_view s = line.text;
    line.statement = quote.empty() && brackets == 0 && !continued;
    line.indent = std::min(s.find_first_not_of(" \t"), s.size());
    continued = false;
    for (size_t k = 0; k < s.size(); ++k) {
      if (!quote.empty()) {
        line.code = true;
        if (s[k] == '\\') {
          ++k;
        } else if (s.substr(k, quote.size()) == quote) {
          k += quote.size() - 1;
          quote.clear();
        }
      } else if (s[k] == '#') {
        break;
      } else if (s[k] == '"' || s[k] == '\'') {
        line.code = true;
        quote = s.substr(k, 3) == std::string(3, s[k]) ? std::string(3, s[k]) : std::string(1, s[k]);
        k += quote.size() - 1;
      } else if (!IsSpace(s[k])) {
        line.code = true;
        if (std::string_view("([{").find(s[k]) != std::string_view::npos) ++brackets;
        if (std::string_view(")]}").find(s[k]) != std::string_view::npos) --brackets;
        continued = s[k] == '\\' && k + 1 == s.size();
      }
    }
    if (quote.size() == 1) quote.clear();  // an unclosed short string ends with its line
    lines.push_back(line);
    at = e + 1;
  }
  std::vector<Function> out;
  const std::regex def(R"(^\s*(async\s+)?def\s+(\w+))");
  for (size_t d = 0; d < lines.size(); ++d) {
    std::cmatch m;
    const std::string_view s = lines[d].text;
    if (!lines[d].statement || !std::regex_search(s.data(), s.data() + s.size(), m, def)) continue;
    size_t last = d;
    for (size_t k = d + 1; k < lines.size(); ++k) {
      if (lines[k].statement && lines[k].code && lines[k].indent <= lines[d].indent) break;
      if (lines[k].code) last = k;
    }
    out.push_back({m[2].str(), static_cast<int>(d + 1), static_cast<int>(last - d + 1)});
  }
  return out;
}

std::vector<Function> JsFunctions(std::string_view text) {
  const std::string blanked = BlankJs(text);
  const std::string_view code = blanked;
  const Lines lines(code);
  std::vector<Function> out;
  auto add = [&](std::string name, size_t start, size_t brace) {
    const size_t close = MatchingBrace(code, brace);
    out.push_back({name.empty() ? "(anonymous)" : std::move(name), lines.At(start), lines.At(close) - lines.At(start) + 1});
  };
  for (size_t k = code.find("function"); k != std::string_view::npos; k = code.find("function", k + 1)) {
    if ((k > 0 && IsIdent(code[k - 1])) || (k + 8 < code.size() && IsIdent(code[k + 8]))) continue;
    size_t p = SkipSpace(code, k + 8);
    if (p < code.size() && code[p] == '*') p = SkipSpace(code, p + 1);
    const size_t name_start = p;
    while (p < code.size() && IsIdent(code[p])) ++p;
    std::string name(code.substr(name_start, p - name_start));
    p = SkipSpace(code, p);
    if (p >= code.size() || code[p] != '(') continue;
    int depth = 0;
    for (; p < code.size(); ++p) {
      if (code[p] == '(') ++depth;
      if (code[p] == ')' && --depth == 0) break;
    }
    p = SkipSpace(code, p + 1);
    if (p >= code.size() || code[p] != '{') continue;
    add(name.empty() ? AssignedName(code, k) : name, k, p);
  }
  for (size_t k = code.find("=>"); k != std::string_view::npos; k = code.find("=>", k + 2)) {
    const size_t brace = SkipSpace(code, k + 2);
    if (brace >= code.size() || code[brace] != '{') continue;
    size_t b = k;
    while (b > 0 && IsSpace(code[b - 1])) --b;
    size_t params = b;
    if (b > 0 && code[b - 1] == ')') {
      params = OpeningParen(code, b - 1);
      if (params == std::string_view::npos) continue;
    } else {
      while (params > 0 && IsIdent(code[params - 1])) --params;
    }
    add(AssignedName(code, params), params, brace);
  }
  std::sort(out.begin(), out.end(), [](const Function& a, const Function& b) { return a.line < b.line; });
  return out;
}

}  // namespace animkit::source_scan
