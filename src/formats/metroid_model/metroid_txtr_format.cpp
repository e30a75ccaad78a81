// The registry entry and document of Metroid Prime TXTR textures, and the image the
// folder's models take from one.
#include <animkit/formats/metroid_txtr.hpp>

#include "formats/common/document.hpp"
#include "formats/common/options.hpp"
#include "metroid_txtr_fields.hpp"
#include "metroid_txtr_image.hpp"

namespace animkit {

namespace metroid_txtr {
namespace {

enum class RowOrder { Game, Stored };
const ChoiceOption<RowOrder> kRowsOption{
    {.name = "txtr-rows",
     .help = "TXTR rows: game (the picture the game shows: the non-paletted formats' stored rows flipped, "
             "last stored row first) or stored (row 0 first)",
     .default_value = "game", .use = OptionUse::ReadWrite},
    {{"game", RowOrder::Game}, {"stored", RowOrder::Stored}}};

// Mip 0 in the rows asked for, and whether they were flipped.
Image Picture(const TxtrFile& file, bool game_rows, bool* flipped) {
  Image image = DecodeLevel(file, 0);
  *flipped = game_rows && GameFlipsRows(file.header.format);
  if (*flipped) FlipRows(image);
  return image;
}

class TxtrDocument final : public FileDocument<TxtrFile, kMetroidTxtrFormat, SerializeTxtr> {
 public:
  using FileDocument::FileDocument;

  Value Info() const override {
    Value j = Value::object();
    fields::Describe(j, file_.header, kHeaderFields);
    j["format_name"] = std::string(Traits(file_.header.format).name);
    if (Traits(file_.header.format).paletted) {
      fields::Describe(j, file_.palette_header, kPaletteHeaderFields);
      j["palette_format_name"] = std::string(PaletteFormatName(file_.palette_header.format));
      j["palette_entries"] = file_.palette.size();
    }
    Value mips = Value::array();
    size_t end = DataOffset(file_);
    const std::vector<MipLevel> levels = MipLevels(file_.header, DataOffset(file_));
    for (size_t i = 0; i < levels.size(); ++i) {
      const MipLevel& m = levels[i];
      mips.push_back({{"level", i}, {"width", m.width}, {"height", m.height}, {"offset", m.offset}, {"size", m.size}});
      end = m.offset + m.size;
    }
    j["mips"] = std::move(mips);
    j["trailing_bytes"] = DataOffset(file_) + file_.data.size() - end;
    return j;
  }

  Scene Decode(const DecodeContext& context) const override {
    bool flipped = false;
    Scene scene;
    scene.textures.push_back(Picture(file_, kRowsOption.Get(context.options) == RowOrder::Game, &flipped));
    scene.textures[0].name = "mip0";
    scene.metadata[kSourceFormatKey] = std::string(kMetroidTxtrFormat.id);
    scene.metadata[metadata_keys::kRowOrder] = flipped ? "flipped" : "stored";
    scene.metadata[metadata_keys::kTxtrFormat] = std::string(Traits(file_.header.format).name);
    scene.metadata[metadata_keys::kMipCount] = file_.header.mip_count;
    if (Traits(file_.header.format).paletted)
      scene.metadata[metadata_keys::kPaletteFormat] = std::string(PaletteFormatName(file_.palette_header.format));
    return scene;
  }
};

uint32_t Big32(ByteView d, size_t at) {
  return (uint32_t{d[at]} << 24) | (uint32_t{d[at + 1]} << 16) | (uint32_t{d[at + 2]} << 8) | d[at + 3];
}

int ProbeTxtr(ByteView data, std::string_view extension) {
  const bool ext = extension == ".txtr";
  if (data.size() < kHeaderSize) return ext ? kProbeExtension : kProbeNone;
  const uint32_t format = Big32(data, 0);
  const uint32_t width = uint32_t{data[4]} << 8 | data[5], height = uint32_t{data[6]} << 8 | data[7];
  const uint32_t mips = Big32(data, 8);
  const bool plausible = format < kFormatCount && width && height && mips <= 17;
  if (!plausible) return ext ? kProbeDamaged : kProbeNone;
  // No magic: the header's shape and an exact size for the levels it names.
  Header h{format, static_cast<uint16_t>(width), static_cast<uint16_t>(height), mips};
  const size_t palette = Traits(format).paletted ? kPaletteHeaderSize + 2 * Traits(format).palette_entries : 0;
  const std::vector<MipLevel> levels = MipLevels(h, kHeaderSize + palette);
  const size_t end = levels.empty() ? kHeaderSize : levels.back().offset + levels.back().size;
  if (ext) return kProbeMagic - 10;
  return end <= data.size() && data.size() - end < 64 ? kProbeStructure - 20 : kProbeNone;
}

std::unique_ptr<Document> ReadTxtr(ByteView data, const ReadContext&) {
  return std::make_unique<TxtrDocument>(ParseTxtr(data));
}

}  // namespace
}  // namespace metroid_txtr

namespace metroid_model {

Image DecodeTxtrImage(ByteView bytes, std::string_view file, bool game_rows) {
  try {
    bool flipped = false;
    return metroid_txtr::Picture(metroid_txtr::ParseTxtr(bytes), game_rows, &flipped);
  } catch (const Error& e) {
    throw e.InFile(std::string(file));
  }
}

bool TxtrRowsFlipped(ByteView bytes) {
  return bytes.size() >= 4 && metroid_txtr::GameFlipsRows(metroid_txtr::Big32(bytes, 0));
}

}  // namespace metroid_model

const FormatDescriptor kMetroidTxtrFormat{
    .id = "metroid-txtr", .description = "Metroid Prime TXTR texture", .extensions = {".txtr"}, .companions = {},
    .probe = metroid_txtr::ProbeTxtr, .read = metroid_txtr::ReadTxtr, .encode = nullptr,
    .options = {metroid_txtr::kRowsOption.spec()}};

}  // namespace animkit
