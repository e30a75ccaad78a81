// A CMDL material's TXTR, read from beside the model by its asset id.
#include <animkit/formats/metroid_model.hpp>

#include <cstdio>

namespace animkit::metroid_model {

std::string TxtrFileName(uint32_t id) {
  char name[16];
  std::snprintf(name, sizeof name, "%08X", id);
  return std::string(name) + ".TXTR";
}

DecodedTexture ReadTexture(uint32_t id, const SideFileReader& reader) {
  DecodedTexture out;
  const std::string file = TxtrFileName(id);
  out.image.name = file.substr(0, 8);
  std::string why = "no folder to look in";
  std::optional<Bytes> bytes = reader ? reader(file, why) : std::nullopt;
  if (!bytes) {
    out.image.missing = file + " " + why;
    return out;
  }
  out.image.missing = file + ": TXTR decoding is not built in";
  return out;
}

}  // namespace animkit::metroid_model
