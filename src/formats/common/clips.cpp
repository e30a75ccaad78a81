#include "formats/common/clips.hpp"

#include <animkit/core/error.hpp>

namespace animkit {

const Clip& OneClip(const Scene& scene, std::string_view holder) {
  if (scene.clips.empty()) throw Error::General("nothing to write: the input has no animation clip");
  if (scene.clips.size() > 1) {
    std::string names;
    for (const Clip& c : scene.clips) names += (names.empty() ? "" : ", ") + c.name;
    throw Error::General(std::string(holder) + " holds one clip and the input has " +
                         std::to_string(scene.clips.size()) + " (" + names + "): choose one with --clip NAME");
  }
  return scene.clips.front();
}

}  // namespace animkit
