#include "preview/preview_html.hpp"

#include <stdexcept>

namespace animkit::preview_html {

std::string Fill(std::string_view page_template, const std::map<std::string, std::string_view>& slots) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = page_template.find("@@", at);
    if (open == std::string_view::npos) break;
    const size_t close = page_template.find("@@", open + 2);
    if (close == std::string_view::npos) break;
    const std::string name(page_template.substr(open + 2, close - open - 2));
    const auto it = slots.find(name);
    if (it == slots.end()) throw std::logic_error("preview template slot @@" + name + "@@ has no value");
    out.append(page_template.substr(at, open - at));
    out.append(it->second);
    at = close + 2;
  }
  out.append(page_template.substr(at));
  return out;
}

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string InlineScript(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  constexpr std::string_view kEnd = "</script";
  for (size_t i = 0; i < source.size(); ++i) {
    bool ends = source.size() - i >= kEnd.size();
    for (size_t k = 0; ends && k < kEnd.size(); ++k) {
      char c = source[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      ends = c == kEnd[k];
    }
    if (ends) {
      out += "<\\/";  // the same string or regular expression to JavaScript
      i += 1;
      continue;
    }
    out += source[i];
  }
  return out;
}

std::string JsonBlock(const Value& value) {
  const std::string json = DumpJson(value);
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    if (c == '<') {
      out += "\\u003c";  // '<' only occurs inside JSON strings, where this escape means the same
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace animkit::preview_html
