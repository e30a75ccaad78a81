// KH2 raw textures: the file holds the DMA programs that upload its pictures and CLUTs
// into PS2 GS memory (BITBLTBUF/TRXPOS/TRXREG + an IMAGE GIF packet of QWC qwords read
// from a REF address), and per texture the GS registers (TEX2's CLUT load, TEX0) the
// game draws with. Replaying the uploads into GS memory and reading texels as the GS does
// gives the images (GS User's Manual, "Local memory" page/block/column layouts; the
// layout from OpenKH's docs/kh2/file/raw-texture.md and ModelTexture.cs; docs/formats/kh2.md,
// "Textures").
#include "formats/kh2/texture/kh2_gs_memory.hpp"
#include "formats/kh2/texture/kh2_texture_limits.hpp"

#include <animkit/core/limits.hpp>

#include <algorithm>
#include <array>
#include <memory>

namespace animkit::kh2::detail {

namespace {

std::string FormatName(size_t psm) {
  switch (psm) {
    case kCt32: return "32-bit direct colour";
    case kCt24: return "24-bit direct colour";
    case kCt16: return "16-bit direct colour";
    case kT8: return "8-bit indexed";
    case kT4: return "4-bit indexed";
    default: return "GS format " + std::to_string(psm);
  }
}

// Why an upload cannot give all it sends: its bytes past the file, its damage.
std::string Shortfall(const Transfer& t, const RawTextureBytes& bytes, uint64_t base, std::string_view what) {
  if (!t.damage.empty()) return std::string(what) + " at " + Hex(t.record) + " is not replayed: " + t.damage;
  if (BitsPerTexel(t.dpsm) == 0) return std::string(what) + " at " + Hex(t.record) + " uploads GS format " + std::to_string(t.dpsm) + ", not replayed";
  const UploadData d = DataOf(t, bytes);
  std::string out;
  if (d.held < d.sent)
    out = std::string(what) + " sends " + Hex(d.sent) + " bytes from " + Hex(base + t.data_offset) + "; the file holds " + Hex(d.held) + " of them";
  if (uint64_t(t.rrw) * t.rrh * BitsPerTexel(t.dpsm) > uint64_t(d.sent) * 8)
    out += (out.empty() ? std::string(what) : std::string("; it")) + " sends fewer texels than its " + std::to_string(t.rrw) + "x" +
           std::to_string(t.rrh) + " rectangle";
  return out;
}

// The texels of img (its size set) read from GS memory as TEX0 says, indexed ones through
// the CLUT; those no upload wrote (or whose CLUT colour none wrote) are listed, transparent.
struct TexelsRead {
  std::vector<uint32_t> unwritten, uncoloured;  // y * width + x
};
TexelsRead ReadTexels(const GsMemory& gs, animkit::Image& img, size_t psm, size_t tbp, size_t tbw, const ClutBuffer& clut, size_t csa) {
  TexelsRead out;
  const bool indexed = psm == kT8 || psm == kT4;
  for (size_t y = 0; y < img.height; ++y)
    for (size_t x = 0; x < img.width; ++x) {
      Rgba c{0, 0, 0, 0};
      uint8_t index = 0;
      bool ok = true;
      if (psm == kT8) {
        ok = gs.Read(Address8(tbp, tbw, x, y), index);
      } else if (psm == kT4) {
        const size_t nibble = Address4(tbp, tbw, x, y), shift = 4 * (nibble & 1);
        ok = gs.Read(nibble / 2, index, uint8_t(15 << shift));
        index = uint8_t(index >> shift);
      } else {
        ok = ColourAt(gs, psm, psm == kCt16 ? Address16(tbp, tbw, x, y) : Address32(tbp, tbw, x, y), c);
      }
      if (!ok) {
        out.unwritten.push_back(uint32_t(y * img.width + x));
      } else if (indexed) {
        const size_t slot = (csa + index) % clut.colour.size();
        if (clut.held[slot]) c = clut.colour[slot];
        else out.uncoloured.push_back(uint32_t(y * img.width + x));
      }
      std::copy(c.begin(), c.end(), img.rgba.begin() + std::ptrdiff_t((y * img.width + x) * 4));
    }
  return out;
}

}  // namespace

std::vector<animkit::Image> DecodeRawTextures(const RawTextureBytes& bytes, const RawTextureHeader& h, uint64_t base,
                                              std::vector<std::string>& warnings, std::vector<UnheldTexels>* unheld, bool alone) {
  const ByteView own = bytes.rest.first(std::min(bytes.own, bytes.rest.size()));
  ByteReader r(own, Endian::Little, base);
  ByteReader offsets = r.Table(h.offset_data_offset, h.gs_count, 1, 0x10, "the texture offset data");
  ByteReader transfers = r.Table(h.transfer_offset, uint64_t(h.texture_count) + 1, kTransferSize, 0x14, "the texture transfers");
  ByteReader gs_info = r.Table(h.gs_info_offset, h.gs_count, kGsInfoSize, 0x18, "the GS info table");
  std::vector<Transfer> table;
  for (size_t i = 0; i <= h.texture_count; ++i) table.push_back(ReadTransfer(transfers.Sub(i * kTransferSize, kTransferSize, "a transfer")));

  // Work is bounded by what the input holds: the CLUT upload and each texture upload are
  // replayed once, an image samples at most 2 texels per byte its upload wrote, and all
  // images together at most 64 per byte the upload data holds (plus 4M).
  // One GS memory, as the model's draws leave it: the CLUT upload, then each texture's upload
  // before its draws (in the order the GS infos first use them), over what the uploads before
  // it wrote. A texture whose upload covers fewer texels than it samples (P_EX020_CA's 4x4
  // texture uploads 2x2 PSMCT32 texels at the block texture 0 filled) reads what they left.
  GsMemory gs_memory;
  const GsMemory* gs = &gs_memory;
  Upload(table[0], bytes, gs_memory);
  std::vector<animkit::Image> images(h.gs_count);
  std::vector<std::vector<size_t>> users(256);  // the GS infos of each transfer index
  std::vector<size_t> order;                    // transfer indices in the order GS infos first use them
  for (size_t i = 0; i < h.gs_count; ++i) {
    const size_t which = offsets.U8("a texture's transfer index");
    if (users[which].empty()) order.push_back(which);
    users[which].push_back(i);
  }
  uint64_t budget = 64 * uint64_t(bytes.rest.size() + bytes.after.size()) + (uint64_t{1} << 22);
  for (const size_t which : order) {
    const size_t t = which + 1;
    if (alone && which != order.front()) {  // each texture's upload over the CLUT upload alone
      gs_memory = GsMemory();
      Upload(table[0], bytes, gs_memory);
    }
    const size_t written = t < table.size() ? Upload(table[t], bytes, gs_memory) : 0;
    for (const size_t i : users[which]) {
      animkit::Image& img = images[i];
      img.name = "texture " + std::to_string(i);
      ByteReader g = gs_info.Sub(i * kGsInfoSize, kGsInfoSize, "a GS info");
      g.Seek(0x50, "TEX2");
      const uint64_t tex2 = U64(g, "TEX2");
      g.Seek(0x70, "TEX0");
      const uint64_t tex0 = U64(g, "TEX0");
      const size_t tbp = tex0 & 0x3FFF, tbw = (tex0 >> 14) & 63, psm = (tex0 >> 20) & 63;
      const size_t tw = (tex0 >> 26) & 15, th = (tex0 >> 30) & 15;
      const ClutLoad tex0_clut = ClutLoadOf(tex0), tex2_clut = ClutLoadOf(tex2);
      // The CLUT the draw uses: the last load (TEX0's, else TEX2's); with none, TEX0's CBP.
      const ClutLoad load = tex0_clut.cld != 0 ? tex0_clut : tex2_clut.cld != 0 ? tex2_clut : tex0_clut;
      const bool indexed = psm == kT8 || psm == kT4;
      img.source_format = "KH2 raw texture, " + FormatName(psm);
      const std::string at = " (GS info at " + Hex(g.absolute(0)) + ")";
      std::string why;
      if (t >= table.size()) {
        why = "its transfer index " + std::to_string(which) + " is past the " + std::to_string(h.texture_count) + " texture transfers";
      } else if (BitsPerTexel(psm) == 0) {
        why = "GS format " + std::to_string(psm) + " is not decoded";
      } else if (indexed && ((load.cpsm != kCt32 && load.cpsm != kCt16) || load.csm != 0)) {
        why = "a CLUT in GS format " + std::to_string(load.cpsm) + ", storage mode " + std::to_string(load.csm + 1) + " is not decoded";
      } else if (tw > kGsMaxSideLog2 || th > kGsMaxSideLog2) {
        why = "TEX0 gives a " + std::to_string(size_t(1) << tw) + "x" + std::to_string(size_t(1) << th) + " texture; the GS reads at most " +
              std::to_string(size_t(1) << kGsMaxSideLog2);
      } else if ((size_t(1) << (tw + th)) > budget) {
        why = "the images before it sample as many texels as the entry's size allows";
      } else if ((size_t(1) << (tw + th)) > 2 * written + 64) {
        why = "it samples " + std::to_string(size_t(1) << tw) + "x" + std::to_string(size_t(1) << th) + " texels, its upload wrote " + Hex(written) +
              " bytes";
        if (const std::string s = Shortfall(table[t], bytes, base, "the upload"); !s.empty()) why += " (" + s + ")";
      }
      if (!why.empty()) {
        img.missing = why;
        warnings.push_back(img.name + at + ": " + why);
        continue;
      }
      img.width = uint32_t(1) << tw, img.height = uint32_t(1) << th;
      budget -= uint64_t(img.width) * img.height;
      img.rgba.assign(size_t(img.width) * img.height * 4, 0);
      const ClutBuffer clut = indexed ? LoadClut(*gs, load) : ClutBuffer{};
      const size_t csa = psm == kT4 ? tex0_clut.csa * 16 : 0;
      TexelsRead read = ReadTexels(*gs, img, psm, tbp, tbw, clut, csa);
      g.Seek(0x80, "CLAMP");
      const uint64_t clamp = U64(g, "CLAMP");
      auto note = [&](std::vector<uint32_t>&& texels, std::string what, const Transfer& upload, std::string_view upload_name) {
        if (texels.empty()) return;
        if (const std::string s = Shortfall(upload, bytes, base, upload_name); !s.empty()) what += ": " + s;
        warnings.push_back(img.name + at + ": " + std::to_string(texels.size()) + " of its " + std::to_string(img.width) + "x" +
                           std::to_string(img.height) + " texels " + what);
        if (!unheld) return;
        UnheldTexels u;
        u.image = i, u.warning = warnings.back(), u.texture = img.name + at, u.what = std::move(what), u.texels = std::move(texels);
        u.clamp_u = (clamp & 3) == 1 || (clamp & 3) == 2, u.clamp_v = ((clamp >> 2) & 3) == 1 || ((clamp >> 2) & 3) == 2;
        unheld->push_back(std::move(u));
      };
      note(std::move(read.unwritten), "lie where its upload wrote nothing (left transparent)", table[t], "the upload");
      note(std::move(read.uncoloured), "use CLUT colours the palette upload did not write (left transparent)", table[0], "the palette upload");
    }
  }
  return images;
}

}  // namespace animkit::kh2::detail
