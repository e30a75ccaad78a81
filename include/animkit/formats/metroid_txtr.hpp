// Metroid Prime (GameCube) TXTR textures: a 12-byte big-endian header, a palette for the
// colour-indexed formats, then the mip levels, largest first, in GX tiles. The layout as
// implemented is in docs/formats/metroid_txtr.md.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace animkit::metroid_txtr {

// The GX texel formats (the header's format word).
enum class TexelFormat : uint32_t {
  I4 = 0, I8 = 1, IA4 = 2, IA8 = 3, C4 = 4, C8 = 5, C14X2 = 6, RGB565 = 7, RGB5A3 = 8, RGBA8 = 9, CMPR = 10
};
inline constexpr uint32_t kFormatCount = 11;
// The palette formats of C4, C8 and C14X2 (the palette header's format word).
enum class PaletteFormat : uint32_t { IA8 = 0, RGB565 = 1, RGB5A3 = 2 };
inline constexpr uint32_t kPaletteFormatCount = 3;

// How one texel format is tiled: a tile of tile_width x tile_height texels takes
// tile_width * tile_height * bits / 8 bytes (RGBA8: 64 bytes a 4x4 tile).
struct FormatTraits {
  std::string_view name;
  uint32_t tile_width, tile_height, bits;
  bool paletted;
  uint32_t palette_entries;  // the indices a paletted format can name (16, 256, 16384); 0 otherwise
};
// The traits of a format word below kFormatCount.
const FormatTraits& Traits(uint32_t format);
std::string_view PaletteFormatName(uint32_t palette_format);

struct Header {
  uint32_t format = 0;
  uint16_t width = 0, height = 0;
  uint32_t mip_count = 1;
};
struct PaletteHeader {
  uint32_t format = 1;  // PaletteFormat
  uint16_t width = 0, height = 0;  // entries = width * height
};

struct TxtrFile {
  Header header;
  PaletteHeader palette_header;   // paletted formats only
  std::vector<uint16_t> palette;  // paletted formats only: width * height entries as stored
  Bytes data;                     // everything after the header and palette: the mips, then any trailing bytes
};

// One mip level: its size in texels and where its bytes lie (offset in the file).
struct MipLevel {
  uint32_t width = 0, height = 0;
  size_t offset = 0, size = 0;
};
// The stored size of a level: bits x each side rounded up to 4 (not to the tile) / 8.
size_t LevelBytes(uint32_t format, uint32_t width, uint32_t height);
// Every level the header names, with its file offset; data_offset is where TxtrFile::data starts.
std::vector<MipLevel> MipLevels(const Header& header, size_t data_offset);
size_t DataOffset(const TxtrFile& file);

// Parse checks the format words, the sides, the mip count (at most the levels down to 1x1),
// the palette's size against its format and that every level's bytes are present.
TxtrFile ParseTxtr(ByteView data);
Bytes SerializeTxtr(const TxtrFile& file);

// A level as 8-bit RGBA with its rows as stored (row 0 first). A tile that reaches past the
// level's bytes reads on into what follows (the next level, as the GX tile fetch does), and
// zeros past the end of the file.
Image DecodeLevel(const TxtrFile& file, size_t level);
// Whether the game's view of the format is the stored rows upside down: the model textures
// are stored bottom-up; the paletted ones (banners) are not (docs/formats/metroid_txtr.md).
bool GameFlipsRows(uint32_t format);
// The rows of an RGBA image in reverse order.
void FlipRows(Image& image);

// What the encoder writes: a format, its mip count (levels made by a 2x2 box filter), the
// palette's format and size for the paletted formats (0 x 0: the format's index range x 1),
// and zero bytes after the levels up to a multiple of pad_to (0: none).
struct EncodeSettings {
  uint32_t format = uint32_t(TexelFormat::RGBA8);
  uint32_t mip_count = 1;
  PaletteHeader palette;
  size_t pad_to = 0;
};
// The image's rows are written as given (row 0 first). Error for an empty image, sides over
// 65535, or a mip count past 1x1.
TxtrFile EncodeTxtr(const Image& image, const EncodeSettings& settings);

// The metadata keys a decoded TXTR holds.
namespace metadata_keys {
inline constexpr char kRowOrder[] = "row_order";        // scene: "flipped" (the game's view) or "stored"
inline constexpr char kTxtrFormat[] = "txtr_format";    // scene: the texel format's name ("RGB5A3")
inline constexpr char kMipCount[] = "mip_count";        // scene: the header's mip count
inline constexpr char kPaletteFormat[] = "palette_format";  // scene (paletted formats): "RGB565", ...
inline constexpr std::array kTxtrScene{kSourceFormatKey, kRowOrder, kTxtrFormat, kMipCount, kPaletteFormat};
}  // namespace metadata_keys

}  // namespace animkit::metroid_txtr
