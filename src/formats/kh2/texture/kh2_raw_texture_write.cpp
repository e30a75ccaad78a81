// KH2 raw textures (magic 0) written back: a changed picture of the template's size in
// place (its upload's bytes and its CLUT's, every other byte kept); otherwise the form
// rebuilt in the layout of the game's files (docs/formats/kh2.md, "Writing textures").
#include "formats/kh2/texture/kh2_texture_limits.hpp"
#include "formats/kh2/texture/kh2_texture_write.hpp"

#include <animkit/core/error.hpp>

#include <algorithm>

namespace animkit::kh2::detail {

// Named, not anonymous: the library compiles as unity batches (no shared anonymous names).
namespace raw_write {

constexpr size_t kPaletteBlock = kTextureFirstBlock;  // where the game's files upload their CLUTs
constexpr uint64_t kTex0Layout = 0x3FFFull | 63ull << 14 | 63ull << 20 | 15ull << 26 | 15ull << 30;
constexpr uint64_t kClutFields = 0x3FFFull << 37 | 15ull << 51 | 1ull << 55 | 31ull << 56;

// A GS register (64 bits) of a GS info record, as two words.
uint64_t RegisterAt(ByteView b, size_t at) { return uint64_t(le::Load32At(b, at)) | uint64_t(le::Load32At(b, at + 4)) << 32; }
void SetRegisterAt(Bytes& b, size_t at, uint64_t v) { le::Store32At(b, at, uint32_t(v)), le::Store32At(b, at + 4, uint32_t(v >> 32)); }
// DMA, VIF and GIF words of a transfer or GS info record.
void AppendWords(Bytes& b, std::initializer_list<uint32_t> words) {
  for (uint32_t w : words) le::Append32(b, w);
}
// A GIF A+D pair: a register's value, then its address.
void AppendRegister(Bytes& b, uint64_t value, uint32_t reg) { AppendWords(b, {uint32_t(value), uint32_t(value >> 32), reg, 0}); }
size_t RegisterField(uint64_t v, int shift, uint64_t mask) { return size_t((v >> shift) & mask); }
std::string Name(const animkit::Image& img, size_t i) { return img.name.empty() ? "texture " + std::to_string(i) : img.name; }

struct Template {
  RawTextureHeader h;
  std::vector<Transfer> transfers;  // the CLUT's first
  std::vector<size_t> which;        // per GS info: its texture transfer (an index into transfers)
  std::vector<size_t> gs_at;        // per GS info: its record's offset
};

Template ReadTemplate(ByteView form) {
  ByteReader r(form, Endian::Little, 0);
  r.Require(0x24, "a KH2 raw texture header");
  Template t;
  r.Skip(4, "texture magic");
  t.h.colour_count = r.U32("colour count"), t.h.texture_count = r.U32("texture transfer count");
  t.h.gs_count = r.U32("GS info count"), t.h.offset_data_offset = r.U32("offset data offset");
  t.h.transfer_offset = r.U32("transfer offset"), t.h.gs_info_offset = r.U32("GS info offset");
  t.h.picture_offset = r.U32("picture offset"), t.h.palette_offset = r.U32("palette offset");
  ByteReader offsets = r.Table(t.h.offset_data_offset, t.h.gs_count, 1, 0x10, "the texture offset data");
  ByteReader transfers = r.Table(t.h.transfer_offset, uint64_t(t.h.texture_count) + 1, kTransferSize, 0x14, "the texture transfers");
  r.Table(t.h.gs_info_offset, t.h.gs_count, kGsInfoSize, 0x18, "the GS info table");
  for (size_t i = 0; i <= t.h.texture_count; ++i) t.transfers.push_back(ReadTransfer(transfers.Sub(i * kTransferSize, kTransferSize, "a transfer")));
  for (size_t i = 0; i < t.h.gs_count; ++i) {
    t.which.push_back(size_t(offsets.U8("a texture's transfer index")) + 1);
    if (t.which.back() >= t.transfers.size()) throw Error::General("KH2 raw texture: texture " + std::to_string(i) + " names no transfer");
    t.gs_at.push_back(t.h.gs_info_offset + i * kGsInfoSize);
  }
  return t;
}

// The byte address of colour `index` of a texture's CLUT as the GS reads it (the decoder's
// rule: the last CLUT load, CSM1, CSA for 4-bit), its CLUT format; false: none holds it.
bool ClutAddress(uint64_t tex0, uint64_t tex2, size_t index, size_t& at, size_t& cpsm) {
  const ClutLoad t0 = ClutLoadOf(tex0), t2 = ClutLoadOf(tex2);
  const ClutLoad load = t0.cld != 0 ? t0 : t2.cld != 0 ? t2 : t0;
  const size_t psm = RegisterField(tex0, 20, 63), slot = (psm == kT4 ? t0.csa * 16 : 0) + index;
  const size_t first = load.psm == kT4 ? load.csa * 16 : 0, count = load.psm == kT4 ? 16 : 256;
  if (slot < first || slot - first >= count || load.csm != 0 || (load.cpsm != kCt32 && load.cpsm != kCt16)) return false;
  const size_t e = slot - first, x = Csm1X(e), y = Csm1Y(e);
  cpsm = load.cpsm;
  at = load.cpsm == kCt16 ? Address16(load.cbp, 1, x, y) : Address32(load.cbp, 1, x, y);
  return true;
}

void WriteColour(GsMemory& gs, size_t psm, size_t at, const Rgba& c) {  // c carries PS2 alpha
  if (psm == kCt16) {
    const uint16_t v = To16(c);
    gs.Write(at, uint8_t(v)), gs.Write(at + 1, uint8_t(v >> 8));
    return;
  }
  for (size_t k = 0; k < (psm == kCt24 ? 3u : 4u); ++k) gs.Write(at + k, c[k]);
}

// Replays upload t of `form`, lets `change` write into GS memory, and writes the upload's
// bytes back: only bytes the form holds may change.
template <typename F>
void Rewrite(Bytes& form, const Transfer& t, size_t limit, const std::string& what, F change) {
  GsMemory gs;
  Upload(t, {form, form.size(), {}}, gs);
  change(gs);
  if (t.data_offset >= form.size()) throw Error::General(what + ": its upload's bytes lie past the texture entry");
  Bytes data(form.begin() + std::ptrdiff_t(t.data_offset), form.begin() + std::ptrdiff_t(std::min(form.size(), t.data_offset + SentBytes(t))));
  const Bytes before = data;
  Download(t, gs, data);
  for (size_t k = 0; k < data.size(); ++k)
    if (data[k] != before[k] && t.data_offset + k >= limit)
      throw Error::General(what + ": it needs bytes at " + Hex(t.data_offset + k) + ", past what the entry's layout holds (" + Hex(limit) + ")");
  std::copy(data.begin(), data.end(), form.begin() + std::ptrdiff_t(t.data_offset));
}

// A changed texture of the template's size: its texels and its CLUT colours in place.
void Replace(Bytes& form, const Template& tp, size_t i, const animkit::Image& img) {
  const uint64_t tex0 = RegisterAt(form, tp.gs_at[i] + 0x70), tex2 = RegisterAt(form, tp.gs_at[i] + 0x50);
  const size_t tbp = RegisterField(tex0, 0, 0x3FFF), tbw = RegisterField(tex0, 14, 63), psm = RegisterField(tex0, 20, 63);
  const std::string what = "texture '" + Name(img, i) + "'";
  const Transfer& t = tp.transfers[tp.which[i]];
  const size_t picture_end = std::min<size_t>(form.size(), tp.h.palette_offset > t.data_offset ? tp.h.palette_offset : form.size());
  if (psm == kT8 || psm == kT4) {
    const Indexed q = Quantise(img, psm == kT8 ? 256 : 16);
    Rewrite(form, t, picture_end, what, [&](GsMemory& gs) {
      for (size_t y = 0; y < img.height; ++y)
        for (size_t x = 0; x < img.width; ++x) {
          const uint8_t v = q.index[y * img.width + x];
          if (psm == kT8) {
            gs.Write(Address8(tbp, tbw, x, y), v);
          } else {
            const size_t nibble = Address4(tbp, tbw, x, y);
            gs.Write(nibble / 2, uint8_t(v << (4 * (nibble & 1))), uint8_t(15 << (4 * (nibble & 1))));
          }
        }
    });
    const size_t palette_end = std::min<size_t>(form.size(), size_t(tp.h.palette_offset) + size_t(tp.h.colour_count) * 4);
    Rewrite(form, tp.transfers[0], palette_end, what + "'s palette", [&](GsMemory& gs) {
      for (size_t e = 0; e < q.palette.size(); ++e) {
        size_t at = 0, cpsm = 0;
        if (!ClutAddress(tex0, tex2, e, at, cpsm)) throw Error::General(what + ": its CLUT load does not read colour " + std::to_string(e));
        WriteColour(gs, cpsm, at, q.palette[e]);
      }
    });
    return;
  }
  if (psm != kCt32 && psm != kCt24 && psm != kCt16) throw Error::General(what + ": GS format " + std::to_string(psm) + " is not written");
  Rewrite(form, t, picture_end, what, [&](GsMemory& gs) {
    for (size_t y = 0; y < img.height; ++y)
      for (size_t x = 0; x < img.width; ++x) {
        const uint8_t* p = img.rgba.data() + (y * img.width + x) * 4;
        const size_t at = psm == kCt16 ? Address16(tbp, tbw, x, y) : Address32(tbp, tbw, x, y);
        WriteColour(gs, psm, at, {p[0], p[1], p[2], ToPs2Alpha(p[3])});
      }
  });
}

// A texture as the rebuilt form holds it.
struct Item {
  Indexed pic;
  size_t psm = kT8;
  Bytes gs_info;  // the template's record (0xA0), or empty: the game files' usual one
};

// A kept texture's own indices and CLUT colours (as stored), read from the template.
bool Extract(ByteView form, const Template& tp, size_t i, const animkit::Image& decoded, Item& item) {
  const uint64_t tex0 = RegisterAt(form, tp.gs_at[i] + 0x70), tex2 = RegisterAt(form, tp.gs_at[i] + 0x50);
  const size_t tbp = RegisterField(tex0, 0, 0x3FFF), tbw = RegisterField(tex0, 14, 63), psm = RegisterField(tex0, 20, 63);
  size_t at = 0, cpsm = 0;
  if ((psm != kT8 && psm != kT4) || !ClutAddress(tex0, tex2, 0, at, cpsm) || cpsm != kCt32) return false;
  GsMemory texels, clut;
  Upload(tp.transfers[tp.which[i]], {form, form.size(), {}}, texels);
  Upload(tp.transfers[0], {form, form.size(), {}}, clut);
  item.psm = psm;
  item.pic.width = decoded.width, item.pic.height = decoded.height;
  for (size_t y = 0; y < decoded.height; ++y)
    for (size_t x = 0; x < decoded.width; ++x) {
      uint8_t v = 0;
      if (psm == kT8) {
        texels.Read(Address8(tbp, tbw, x, y), v);
      } else {
        const size_t nibble = Address4(tbp, tbw, x, y), shift = 4 * (nibble & 1);
        texels.Read(nibble / 2, v, uint8_t(15 << shift));
        v = uint8_t(v >> shift);
      }
      item.pic.index.push_back(v);
    }
  for (size_t e = 0; e < (psm == kT8 ? 256u : 16u); ++e) {
    Rgba c{0, 0, 0, 0};
    if (ClutAddress(tex0, tex2, e, at, cpsm))
      for (size_t k = 0; k < 4; ++k) clut.Read(at + k, c[k]);
    item.pic.palette.push_back(c);
  }
  return true;
}

void AppendTransfer(Bytes& b, size_t dbp, size_t dbw, size_t w, size_t h, uint32_t offset) {
  const uint32_t qwc = uint32_t(w * h * 4 / 16);
  AppendWords(b, {0x10000006, 0, 0x13000000, 0x50000006, 4, 0x10000000, 0xE, 0});
  AppendRegister(b, uint64_t(dbp) << 32 | uint64_t(dbw) << 48, 0x50);  // BITBLTBUF, DPSM PSMCT32
  AppendRegister(b, 0, 0x51);                                          // TRXPOS
  AppendRegister(b, uint64_t(w) | uint64_t(h) << 32, 0x52);            // TRXREG
  AppendRegister(b, 0, 0x53);                                          // TRXDIR
  AppendWords(b, {qwc | 0x8000, 0x08000000, 0, 0});                    // IMAGE GIF tag
  AppendWords(b, {0x30000000 | qwc, offset, 0, 0x50000000 | qwc});     // DMA REF, VIF DIRECT
  AppendWords(b, {0x60000000, 0, 0x13000000, 0});                      // DMA RET
}

Bytes DefaultGsInfo() {
  Bytes b;
  AppendWords(b, {0x10000008, 0, 0x13000000, 0x50000008, 0x8007, 0x10000000, 0xE, 0});
  AppendRegister(b, 0, 0x3F), AppendRegister(b, 0, 0x34), AppendRegister(b, 0, 0x36);  // TEXFLUSH, MIPTBP1, MIPTBP2
  AppendRegister(b, uint64_t(4) << 61, 0x16);                                          // TEX2: CLUT load (CLD 4)
  AppendRegister(b, 0x20, 0x14);                                                       // TEX1
  AppendRegister(b, uint64_t(1) << 34, 0x06);                                          // TEX0: TCC RGBA
  AppendRegister(b, 0xA, 0x08);                                                        // CLAMP: region clamp on both
  AppendWords(b, {0x60000000, 0, 0x13000000, 0});
  return b;
}

// The GS info of a texture at tbp/tbw with its CLUT at cbp: TEX0, TEX2 and a region
// clamp that covered the old picture follow the new size.
void PlaceTexture(Bytes& g, const Item& it, size_t tbp, size_t tbw, size_t cbp) {
  auto log2 = [](uint32_t v) { uint64_t n = 0; while ((1u << n) < v) ++n; return n; };
  const uint64_t old0 = RegisterAt(g, 0x70), old2 = RegisterAt(g, 0x50), clamp = RegisterAt(g, 0x80);
  const uint64_t layout = uint64_t(tbp) | uint64_t(tbw) << 14 | uint64_t(it.psm) << 20 | log2(it.pic.width) << 26 | log2(it.pic.height) << 30;
  SetRegisterAt(g, 0x70, (old0 & ~kTex0Layout & ~kClutFields) | layout | uint64_t(cbp) << 37);
  SetRegisterAt(g, 0x50, (old2 & ~(63ull << 20) & ~kClutFields) | uint64_t(kT8) << 20 | uint64_t(cbp) << 37);
  const size_t old_w = size_t(1) << RegisterField(old0, 26, 15), old_h = size_t(1) << RegisterField(old0, 30, 15);
  uint64_t c = clamp;
  if (RegisterField(c, 0, 3) == 2 && RegisterField(c, 14, 0x3FF) == old_w - 1) c = (c & ~(0x3FFull << 14)) | uint64_t(it.pic.width - 1) << 14;
  if (RegisterField(c, 2, 3) == 2 && RegisterField(c, 34, 0x3FF) == old_h - 1) c = (c & ~(0x3FFull << 34)) | uint64_t(it.pic.height - 1) << 34;
  SetRegisterAt(g, 0x80, c);
}

// The form in the game files' layout: header, offset data, transfers (the CLUTs' first,
// PSMCT32 64 wide at block 0x3A00, one 256-colour CLUT every 4 blocks), GS infos, pictures
// (0x80-aligned, each its own transfer from block 0x3A00 + the CLUT pages), the CLUTs as
// far as the last colour used, then the footer.
Bytes Build(const std::vector<Item>& items, const std::vector<std::string>& names, ByteView footer) {
  const size_t n = items.size();
  const size_t clut_pages = (n + 7) / 8;
  GsMemory clut;
  size_t block = kPaletteBlock + clut_pages * 32;
  std::vector<Bytes> pictures(n);
  std::vector<IndexedLayout> layouts(n);
  std::vector<size_t> tbps(n);
  size_t colours = 0;
  for (size_t i = 0; i < n; ++i) {
    const Item& it = items[i];
    layouts[i] = LayoutOf(it.pic.width, it.pic.height, it.psm);
    if (block + layouts[i].blocks > kTextureEndBlock)
      throw Error::General("texture '" + names[i] + "' does not fit the GS memory KH2 models upload textures to (blocks " + Hex(kPaletteBlock) + ".." +
                           Hex(kTextureEndBlock) + "): the textures before it take " + Hex(block - kPaletteBlock) + " blocks, it needs " + Hex(layouts[i].blocks));
    tbps[i] = block, block += layouts[i].blocks;
    pictures[i] = SwizzleIndexed(it.pic.index, it.pic.width, it.pic.height, it.psm);
    const size_t cbp = kPaletteBlock + 4 * i;
    for (size_t e = 0; e < it.pic.palette.size(); ++e) {  // CSM1: x, y of entry e in the CLUT
      WriteColour(clut, kCt32, Address32(cbp, 1, Csm1X(e), Csm1Y(e)), it.pic.palette[e]);
    }
  }
  Bytes palette;
  for (size_t y = 0; y < clut_pages * 32; ++y)
    for (size_t x = 0; x < 64; ++x)
      for (size_t k = 0; k < 4; ++k) {
        uint8_t v = 0;
        if (clut.Read(Address32(kPaletteBlock, 1, x, y) + k, v)) colours = y * 64 + x + 1;
        palette.push_back(v);
      }
  palette.resize(colours * 4);
  const size_t transfer_offset = (0x24 + n + 15) / 16 * 16, gs_info_offset = transfer_offset + (n + 1) * kTransferSize;
  const size_t picture_offset = (gs_info_offset + n * kGsInfoSize + 0x7F) / 0x80 * 0x80;
  size_t palette_offset = picture_offset;
  for (const Bytes& p : pictures) palette_offset += p.size();
  Bytes out;
  AppendWords(out, {0, uint32_t(colours), uint32_t(n), uint32_t(n), 0x24, uint32_t(transfer_offset), uint32_t(gs_info_offset),
                 uint32_t(picture_offset), uint32_t(palette_offset)});
  for (size_t i = 0; i < n; ++i) out.push_back(uint8_t(i));
  out.resize(transfer_offset, 0);
  AppendTransfer(out, kPaletteBlock, 1, 64, clut_pages * 32, uint32_t(palette_offset));
  size_t at = picture_offset;
  for (size_t i = 0; i < n; ++i) {
    AppendTransfer(out, tbps[i], layouts[i].tbw / 2, layouts[i].rect_w, layouts[i].rect_h, uint32_t(at));
    at += pictures[i].size();
  }
  for (size_t i = 0; i < n; ++i) {
    Bytes g = items[i].gs_info.size() == kGsInfoSize ? items[i].gs_info : DefaultGsInfo();
    PlaceTexture(g, items[i], tbps[i], layouts[i].tbw, kPaletteBlock + 4 * i);
    out.insert(out.end(), g.begin(), g.end());
  }
  out.resize(picture_offset, 0);
  for (const Bytes& p : pictures) out.insert(out.end(), p.begin(), p.end());
  out.insert(out.end(), palette.begin(), palette.end());
  out.insert(out.end(), footer.begin(), footer.end());
  return out;
}

}  // namespace raw_write

FormWrite WriteRawForm(ByteView form, const std::vector<animkit::Image>& decoded, const std::vector<const animkit::Image*>& images, bool rebuild) {
  using namespace raw_write;
  FormWrite out;
  const Template tp = form.empty() ? Template{} : ReadTemplate(form);
  const size_t old_n = form.empty() ? 0 : std::min<size_t>(tp.h.gs_count, decoded.size());
  std::vector<bool> changed(images.size(), true);
  for (size_t i = 0; i < images.size(); ++i) {
    const animkit::Image& img = *images[i];
    if (i < old_n && (SameImage(img, decoded[i]) || (img.Missing() && decoded[i].Missing()))) {
      changed[i] = false, ++out.kept;
    } else if (i < old_n && img.Missing()) {
      changed[i] = false, ++out.kept;
      out.warnings.push_back("texture '" + Name(img, i) + "' has no pixels: the template's picture is kept");
    } else {
      // In the template's layout a picture of its size fits as the template's did (H_EX500_CA: 1024 x 1024).
      const bool same_size = i < old_n && img.width == decoded[i].width && img.height == decoded[i].height;
      CheckTextureSize(img, same_size ? uint32_t(1) << kGsMaxSideLog2 : kMaxTextureSide);
      ++(i < old_n ? out.reencoded : out.added);
      if (i < old_n && (img.width != decoded[i].width || img.height != decoded[i].height)) rebuild = true;
    }
  }
  rebuild = rebuild || images.size() != old_n || form.empty();
  if (!rebuild) {
    out.bytes.assign(form.begin(), form.end());
    for (size_t i = 0; i < old_n; ++i)
      if (changed[i]) Replace(out.bytes, tp, i, *images[i]);
  } else {
    std::vector<Item> items(images.size());
    std::vector<std::string> names;
    for (size_t i = 0; i < images.size(); ++i) {
      Item& it = items[i];
      names.push_back(Name(*images[i], i));
      if (i < old_n) it.gs_info.assign(form.begin() + std::ptrdiff_t(tp.gs_at[i]), form.begin() + std::ptrdiff_t(tp.gs_at[i] + kGsInfoSize));
      if (i < old_n && !changed[i]) {
        if (decoded[i].Missing()) throw Error::General("texture '" + names[i] + "': the template's picture could not be read, so the layout cannot be rebuilt");
        if (Extract(form, tp, i, decoded[i], it)) continue;
        out.warnings.push_back("texture '" + names[i] + "': its template format is re-encoded as 8-bit indexed (the layout is rebuilt)");
      }
      const size_t old_psm = i < old_n ? RegisterField(RegisterAt(form, tp.gs_at[i] + 0x70), 20, 63) : kT8;
      it.psm = old_psm == kT4 ? kT4 : kT8;
      it.pic = Quantise(changed[i] ? *images[i] : decoded[i], it.psm == kT4 ? 16 : 256);
      it.pic.palette.resize(it.psm == kT4 ? 16 : 256, Rgba{0, 0, 0, 0});
    }
    Bytes footer = {'_', 'K', 'N', '5'};
    if (!form.empty() && size_t(tp.h.palette_offset) + size_t(tp.h.colour_count) * 4 <= form.size())
      footer.assign(form.begin() + std::ptrdiff_t(size_t(tp.h.palette_offset) + size_t(tp.h.colour_count) * 4), form.end());
    const std::string tags(footer.begin(), footer.end());
    if (tags.find("TEXA") != std::string::npos || tags.find("UVSC") != std::string::npos)
      out.warnings.push_back("the texture layout was rebuilt; the footer's TEXA/UVSC records (texture animation) are kept as they were");
    out.bytes = Build(items, names, footer);
  }
  // The written form read back: kept textures as they were, no new warning.
  std::vector<std::string> notes;
  const Template back = ReadTemplate(out.bytes);
  const std::vector<animkit::Image> read = DecodeRawTextures({out.bytes, out.bytes.size(), {}}, back.h, 0, notes);
  std::vector<UnheldTexels> leftovers;  // the template's textures that read texels an earlier upload left
  bool looked = false;
  for (size_t i = 0; i < images.size() && i < read.size(); ++i) {
    if (i >= old_n || changed[i] || SameImage(read[i], decoded[i])) continue;
    if (!looked) {
      std::vector<std::string> ignored;
      DecodeRawTextures({form, form.size(), {}}, tp.h, 0, ignored, &leftovers, true);
      looked = true;
    }
    const bool leans = std::any_of(leftovers.begin(), leftovers.end(), [&](const UnheldTexels& u) { return u.image == i; });
    if (!leans) throw Error::General("texture '" + Name(*images[i], i) + "' is kept but shares picture or CLUT bytes with a changed texture");
    out.warnings.push_back("texture '" + Name(*images[i], i) +
                           "' reads texels an earlier texture's upload left at its blocks (as the GS draws it): they follow the changed picture");
  }
  for (const std::string& n : notes) out.warnings.push_back("written texture entry: " + n);
  return out;
}

}  // namespace animkit::kh2::detail
