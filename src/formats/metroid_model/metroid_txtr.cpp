// TXTR parse and write-back: the header and palette through their field lists, the mip
// levels and whatever follows them kept as bytes.
#include <animkit/formats/metroid_txtr.hpp>

#include "metroid_txtr_fields.hpp"

#include <algorithm>

namespace animkit::metroid_txtr {

namespace {

constexpr FormatTraits kTraits[kFormatCount] = {
    {"I4", 8, 8, 4, false, 0},      {"I8", 8, 4, 8, false, 0},      {"IA4", 8, 4, 8, false, 0},
    {"IA8", 4, 4, 16, false, 0},    {"C4", 8, 8, 4, true, 16},      {"C8", 8, 4, 8, true, 256},
    {"C14X2", 4, 4, 16, true, 16384}, {"RGB565", 4, 4, 16, false, 0}, {"RGB5A3", 4, 4, 16, false, 0},
    {"RGBA8", 4, 4, 32, false, 0},  {"CMPR", 8, 8, 4, false, 0}};

// The levels a w x h texture has down to 1 x 1.
uint32_t FullChain(uint32_t width, uint32_t height) {
  uint32_t levels = 1;
  for (uint32_t side = std::max(width, height); side > 1; side >>= 1) ++levels;
  return levels;
}

}  // namespace

const FormatTraits& Traits(uint32_t format) { return kTraits[std::min(format, kFormatCount - 1)]; }

std::string_view PaletteFormatName(uint32_t palette_format) {
  static constexpr std::string_view kNames[] = {"IA8", "RGB565", "RGB5A3"};
  return palette_format < kPaletteFormatCount ? kNames[palette_format] : "unknown";
}

size_t LevelBytes(uint32_t format, uint32_t width, uint32_t height) {
  const size_t w = (size_t{width} + 3) & ~size_t{3}, h = (size_t{height} + 3) & ~size_t{3};
  return Traits(format).bits * w * h / 8;
}

std::vector<MipLevel> MipLevels(const Header& header, size_t data_offset) {
  std::vector<MipLevel> levels;
  size_t offset = data_offset;
  const uint32_t count = std::min(header.mip_count, FullChain(header.width, header.height));
  for (uint32_t i = 0; i < count; ++i) {
    MipLevel m{std::max(1u, uint32_t{header.width} >> i), std::max(1u, uint32_t{header.height} >> i), offset, 0};
    m.size = LevelBytes(header.format, m.width, m.height);
    offset += m.size;
    levels.push_back(m);
  }
  return levels;
}

size_t DataOffset(const TxtrFile& file) {
  const bool paletted = file.header.format < kFormatCount && Traits(file.header.format).paletted;
  return kHeaderSize + (paletted ? kPaletteHeaderSize + 2 * file.palette.size() : 0);
}

bool GameFlipsRows(uint32_t format) { return format < kFormatCount && !Traits(format).paletted; }

TxtrFile ParseTxtr(ByteView data) {
  ByteReader r(data, Endian::Big);
  TxtrFile f;
  fields::ReadAll(r, f.header, kHeaderFields);
  const Header& h = f.header;
  if (h.format >= kFormatCount)
    r.FailAt(0, "expected a texel format 0-10 (I4 ... CMPR), found " + std::to_string(h.format));
  if (h.width == 0) r.FailAt(4, "expected a width of at least 1, found 0");
  if (h.height == 0) r.FailAt(6, "expected a height of at least 1, found 0");
  const uint32_t most = FullChain(h.width, h.height);
  if (h.mip_count > most)
    r.FailAt(8, "expected at most " + std::to_string(most) + " mip levels for " + std::to_string(h.width) + "x" +
                    std::to_string(h.height) + ", found " + std::to_string(h.mip_count));
  const FormatTraits& traits = Traits(h.format);
  if (traits.paletted) {
    fields::ReadAll(r, f.palette_header, kPaletteHeaderFields);
    if (f.palette_header.format >= kPaletteFormatCount)
      r.FailAt(12, "expected a palette format 0-2 (IA8, RGB565, RGB5A3), found " + std::to_string(f.palette_header.format));
    const uint64_t entries = uint64_t{f.palette_header.width} * f.palette_header.height;
    if (entries < traits.palette_entries)
      r.FailAt(16, "expected a palette of at least " + std::to_string(traits.palette_entries) + " entries for " +
                       std::string(traits.name) + ", found " + std::to_string(f.palette_header.width) + "x" +
                       std::to_string(f.palette_header.height));
    f.palette = fields::ReadValues<uint16_t>(r, entries, "the palette entries");
  }
  const size_t data_offset = r.tell();
  const std::vector<MipLevel> levels = MipLevels(h, data_offset);
  for (size_t i = 0; i < levels.size(); ++i) {
    const MipLevel& m = levels[i];
    if (m.offset + m.size > data.size())
      r.FailAt(std::min(m.offset, data.size()),
               "expected mip level " + std::to_string(i) + " (" + std::to_string(m.width) + "x" +
                   std::to_string(m.height) + " " + std::string(traits.name) + ") of " + std::to_string(m.size) +
                   " bytes at " + Hex(m.offset) + ", found " + std::to_string(data.size() - std::min(data.size(), m.offset)));
  }
  const ByteView rest = r.Take(r.remaining(), "the mip levels");
  f.data.assign(rest.begin(), rest.end());
  return f;
}

Bytes SerializeTxtr(const TxtrFile& file) {
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, file.header, kHeaderFields);
  if (file.header.format < kFormatCount && Traits(file.header.format).paletted) {
    fields::WriteAll(w, file.palette_header, kPaletteHeaderFields);
    fields::WriteValues(w, file.palette);
  }
  w.Append(file.data);
  return w.Take();
}

}  // namespace animkit::metroid_txtr
