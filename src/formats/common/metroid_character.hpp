// --character, as the Metroid ANCS and PAK readers both declare it (one option, one help line):
// which character of a character set, or of a PAK's sets, to decode.
#pragma once

#include <animkit/core/format.hpp>

namespace animkit::metroid_character {

inline OptionSpec CharacterSpec() {
  return {.name = "character",
          .help = "Metroid ANCS or PAK: the character to decode, by the name its ANCS gives it (default: the first; "
                  "in a PAK where two character sets name one alike, MEMBER/NAME)"};
}

}  // namespace animkit::metroid_character
