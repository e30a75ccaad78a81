#include <animkit/error.hpp>
#include <animkit/format.hpp>

#include <charconv>

namespace animkit {

std::string Options::Get(const std::string& key, std::string fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
}

double Options::GetNumber(const std::string& key, double fallback) const {
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) {
    throw Error::General("option --" + key + " expects a number, got '" + s + "'");
  }
  return v;
}

std::string Options::GetChoice(const std::string& key, std::initializer_list<std::string_view> choices,
                               std::string fallback) const {
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  std::string list;
  for (std::string_view c : choices) {
    if (it->second == c) return it->second;
    list += (list.empty() ? "" : "|") + std::string(c);
  }
  throw Error::General("option --" + key + " expects " + list + ", got '" + it->second + "'");
}

}  // namespace animkit
