// Assembling one character of an ANCS into a scene from the files beside it.
#pragma once

#include <animkit/formats/metroid_ancs.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit::metroid_ancs {

// The bytes of a file beside the ANCS ("0A1B2C3D.ANIM"), none when absent.
using SideReader = std::function<std::optional<Bytes>(const std::string& name)>;

// "<ID>.<EXT>": the id as 8 upper-case hex digits.
std::string MemberName(uint32_t id, std::string_view extension);

// The character named wanted, else (wanted empty) the first, with a warning listing them
// when there are several; Error when wanted is absent.
const Character& ChooseCharacter(const AncsFile& file, const std::string& wanted, std::vector<std::string>& warnings);

// Skeleton (CINF), mesh (CMDL, when readable), one clip per animation name with its
// events; what is missing beside it is skipped with a warning.
Scene AssembleCharacter(const AncsFile& file, const Character& c, const SideReader& read, const Options& options,
                        std::vector<std::string>& warnings);

}  // namespace animkit::metroid_ancs
