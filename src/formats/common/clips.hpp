// What encoders of single-clip formats share: picking the one clip to write.
#pragma once

#include <animkit/core/model.hpp>

#include <string_view>

namespace animkit {

// The scene's only clip; Error when it has none, or several (naming them, and --clip).
// holder names the file or entry written ("a PS1 ANM", "an ANB").
const Clip& OneClip(const Scene& scene, std::string_view holder);

}  // namespace animkit
