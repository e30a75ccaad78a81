// A CMDL material's TXTR, read from beside the model by its asset id and decoded as the
// game shows it (rows flipped where the game's view flips them; the UVs then follow).
#include <animkit/formats/metroid_model.hpp>

#include "metroid_txtr_image.hpp"

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
  const std::string name = file.substr(0, 8);
  out.image.name = name;
  std::string why = "has no folder to be looked for in";
  std::optional<Bytes> bytes = reader ? reader(file, why) : std::nullopt;
  if (!bytes) {
    out.image.missing = file + " " + why;
    return out;
  }
  try {
    out.image = DecodeTxtrImage(*bytes, file, true);
    out.rows_flipped = TxtrRowsFlipped(*bytes);
  } catch (const Error& e) {
    out.image = Image{};
    out.image.missing = e.what();
  }
  out.image.name = name;
  return out;
}

}  // namespace animkit::metroid_model
