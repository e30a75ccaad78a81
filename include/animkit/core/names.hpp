// An enum's names as one table: the name of a value and the value of a name come from the
// same list, so the two directions cannot drift apart.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace animkit {

// constexpr NameTable<Colour, 2> kColourNames{{{{Colour::Red, "red"}, {Colour::Blue, "blue"}}}};
template <class E, size_t N>
struct NameTable {
  std::array<std::pair<E, std::string_view>, N> entries;

  // "" for a value the table lacks.
  constexpr std::string_view Name(E value) const {
    for (const auto& [v, name] : entries)
      if (v == value) return name;
    return {};
  }
  constexpr std::optional<E> Parse(std::string_view text) const {
    for (const auto& [v, name] : entries)
      if (name == text) return v;
    return std::nullopt;
  }
};

}  // namespace animkit
