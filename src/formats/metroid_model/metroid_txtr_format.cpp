// The registry entry and document of Metroid Prime TXTR textures, and the image the
// folder's models take from one.
#include <animkit/formats/metroid_txtr.hpp>

#include "formats/common/document.hpp"
#include "formats/common/options.hpp"
#include "metroid_txtr_fields.hpp"
#include "metroid_txtr_image.hpp"

#include <algorithm>
#include <cmath>

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

const ChoiceOption<uint32_t> kFormatOption{
    {.name = "txtr-format",
     .help = "TXTR texel format to write; default: the --template's, else the input TXTR's, else RGBA8 "
             "(the paletted ones take the template's palette format, else RGB565)",
     .use = OptionUse::Write},
    {{"I4", 0}, {"I8", 1}, {"IA4", 2}, {"IA8", 3}, {"C4", 4}, {"C8", 5}, {"C14X2", 6}, {"RGB565", 7}, {"RGB5A3", 8},
     {"RGBA8", 9}, {"CMPR", 10}}};

// Mip 0 in the rows asked for, and whether they were flipped.
Image Picture(const TxtrFile& file, bool game_rows, bool* flipped) {
  if (file.header.mip_count == 0) {  // a placeholder: a picture of no levels
    *flipped = false;
    Image none;
    none.width = file.header.width, none.height = file.header.height;
    none.source_format = std::string(Traits(file.header.format).name);
    none.missing = "the TXTR has no mip levels";
    return none;
  }
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

int ProbeTxtr(ByteView data, std::string_view extension) {
  const bool ext = extension == ".txtr";
  if (data.size() < kHeaderSize) return ext ? kProbeExtension : kProbeNone;
  const uint32_t format = be::Load32(data.data());
  const uint32_t width = be::Load16(data.data() + 4), height = be::Load16(data.data() + 6);
  const uint32_t mips = be::Load32(data.data() + 8);
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


// The format, mip count, palette and padding the output takes: the template's (a TXTR the
// output replaces), else the scene's own when it was decoded from a TXTR, else RGBA8 with one level.
EncodeSettings SettingsFor(const Scene& scene, const Image& image, const EncodeContext& context) {
  EncodeSettings s;
  const auto* templ = context.templ ? dynamic_cast<const TxtrDocument*>(context.templ->document) : nullptr;
  if (templ) {
    const TxtrFile& t = templ->file();
    s.format = t.header.format, s.mip_count = t.header.mip_count, s.palette = t.palette_header;
    const std::vector<MipLevel> levels = MipLevels(t.header, DataOffset(t));
    const size_t end = levels.empty() ? DataOffset(t) : levels.back().offset + levels.back().size;
    const size_t total = DataOffset(t) + t.data.size();
    s.pad_to = total > end && total % 32 == 0 ? 32 : 0;  // zeros up to a multiple of 32, as its writer did
  } else if (scene.metadata.is_object() && scene.metadata.value(kSourceFormatKey, "") == kMetroidTxtrFormat.id) {
    const std::string name = scene.metadata.value(metadata_keys::kTxtrFormat, "RGBA8");
    for (uint32_t f = 0; f < kFormatCount; ++f)
      if (Traits(f).name == name) s.format = f;
    const double mips = scene.metadata.value(metadata_keys::kMipCount, 1.0);  // clamped below to what fits
    s.mip_count = std::isfinite(mips) ? static_cast<uint32_t>(std::clamp(mips, 1.0, 32.0)) : 1;
    const std::string palette = scene.metadata.value(metadata_keys::kPaletteFormat, "RGB565");
    for (uint32_t f = 0; f < kPaletteFormatCount; ++f)
      if (PaletteFormatName(f) == palette) s.palette.format = f;
  }
  s.format = kFormatOption.Get(context.options, s.format);
  // A picture of another size keeps as many of the levels as it has.
  const Header h{s.format, static_cast<uint16_t>(std::min(image.width, 0xFFFFu)),
                 static_cast<uint16_t>(std::min(image.height, 0xFFFFu)), 0xFFFFFFFF};
  s.mip_count = std::clamp<uint32_t>(s.mip_count, 1, static_cast<uint32_t>(MipLevels(h, 0).size()));
  return s;
}

std::unique_ptr<Document> EncodeTxtrDocument(const Scene& scene, EncodeContext& context) {
  const auto it = std::find_if(scene.textures.begin(), scene.textures.end(), [](const Image& i) { return !i.Missing(); });
  if (it == scene.textures.end()) throw Error::General("nothing to write: the input has no texture with pixels");
  Image image = *it;
  const EncodeSettings s = SettingsFor(scene, image, context);
  // The picture as the game shows it goes back to the stored rows.
  const bool flip = kRowsOption.Get(context.options) == RowOrder::Game && GameFlipsRows(s.format);
  if (flip) FlipRows(image);
  TxtrFile file = EncodeTxtr(image, s);
  context.report = {{"format", std::string(Traits(s.format).name)},
                    {"width", image.width},
                    {"height", image.height},
                    {"mip_count", s.mip_count},
                    {"rows_flipped", flip},
                    {"bytes", DataOffset(file) + file.data.size()}};
  if (Traits(s.format).paletted) context.report["palette_format"] = std::string(PaletteFormatName(s.palette.format));
  if (scene.textures.size() > 1)
    context.warnings.push_back("a TXTR holds one texture: the first with pixels written, " +
                               std::to_string(scene.textures.size() - 1) + " left out");
  return std::make_unique<TxtrDocument>(std::move(file));
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
  return bytes.size() >= 4 && metroid_txtr::GameFlipsRows(be::Load32(bytes.data()));
}

}  // namespace metroid_model

const FormatDescriptor kMetroidTxtrFormat{
    .id = "metroid-txtr", .description = "Metroid Prime TXTR texture", .extensions = {".txtr"}, .companions = {},
    .probe = metroid_txtr::ProbeTxtr, .read = metroid_txtr::ReadTxtr, .encode = metroid_txtr::EncodeTxtrDocument,
    .options = {metroid_txtr::kRowsOption.spec(), metroid_txtr::kFormatOption.spec()},
    .part_of = "textures of the Metroid models (.cmdl) beside them", .picture = true};

}  // namespace animkit
