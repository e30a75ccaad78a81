// KH2 texture entries written back: which form the template uses, texture-set lists,
// quantisation (libimagequant) and the swizzle of indexed pictures (docs/formats/kh2.md,
// "Writing textures").
#include "formats/kh2/texture/kh2_texture_limits.hpp"
#include "formats/kh2/texture/kh2_texture_write.hpp"

#include <animkit/core/error.hpp>

#include <libimagequant.h>

#include <unordered_map>

namespace animkit::kh2::detail {

uint8_t ToPs2Alpha(uint8_t a) { return uint8_t((a * 128 + 127) / 255); }

bool SameImage(const animkit::Image& a, const animkit::Image& b) { return a.width == b.width && a.height == b.height && a.rgba == b.rgba; }

namespace quantise {

std::string SizeText(const animkit::Image& img) { return std::to_string(img.width) + "x" + std::to_string(img.height); }

// libimagequant's palette and remap of rgba (alpha already at PS2 precision).
Indexed QuantiseWithLiq(const animkit::Image& img, const std::vector<uint8_t>& rgba, size_t colours) {
  struct Free {
    void operator()(liq_attr* p) const { liq_attr_destroy(p); }
    void operator()(liq_image* p) const { liq_image_destroy(p); }
    void operator()(liq_result* p) const { liq_result_destroy(p); }
  };
  const std::unique_ptr<liq_attr, Free> attr(liq_attr_create());
  if (!attr) throw Error::General("texture '" + img.name + "': libimagequant could not start");
  // Quality 0..100: never refuse (the palette size is fixed by the form); speed 4 is
  // libimagequant's default balance (docs/performance.md has the cost).
  liq_set_max_colors(attr.get(), int(colours));
  liq_set_quality(attr.get(), 0, 100);
  liq_set_speed(attr.get(), 4);
  const std::unique_ptr<liq_image, Free> image(liq_image_create_rgba(attr.get(), rgba.data(), int(img.width), int(img.height), 0));
  liq_result* raw = nullptr;
  if (!image || liq_image_quantize(image.get(), attr.get(), &raw) != LIQ_OK || raw == nullptr)
    throw Error::General("texture '" + img.name + "': libimagequant could not quantise it to " + std::to_string(colours) + " colours");
  const std::unique_ptr<liq_result, Free> result(raw);
  // No dithering: textures are magnified and filtered in game, where dither noise shows;
  // and a picture quantised again stays as it was.
  liq_set_dithering_level(result.get(), 0.0f);
  Indexed out;
  out.width = img.width, out.height = img.height;
  out.index.resize(size_t(img.width) * img.height);
  if (liq_write_remapped_image(result.get(), image.get(), out.index.data(), out.index.size()) != LIQ_OK)
    throw Error::General("texture '" + img.name + "': libimagequant could not remap it");
  const liq_palette* pal = liq_get_palette(result.get());
  for (unsigned i = 0; i < pal->count; ++i)
    out.palette.push_back({pal->entries[i].r, pal->entries[i].g, pal->entries[i].b, ToPs2Alpha(pal->entries[i].a)});
  return out;
}

}  // namespace quantise

Indexed Quantise(const animkit::Image& img, size_t colours) {
  std::vector<uint8_t> rgba = img.rgba;
  for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = AlphaOf(ToPs2Alpha(rgba[i]));
  Indexed out;
  out.width = img.width, out.height = img.height;
  out.index.resize(size_t(img.width) * img.height);
  std::unordered_map<uint32_t, uint8_t> seen;
  for (size_t p = 0; p < out.index.size(); ++p) {
    const uint32_t key = uint32_t(rgba[p * 4]) | uint32_t(rgba[p * 4 + 1]) << 8 | uint32_t(rgba[p * 4 + 2]) << 16 | uint32_t(rgba[p * 4 + 3]) << 24;
    auto it = seen.find(key);
    if (it == seen.end()) {
      if (seen.size() == colours) return quantise::QuantiseWithLiq(img, rgba, colours);
      it = seen.emplace(key, uint8_t(seen.size())).first;
      out.palette.push_back({rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2], ToPs2Alpha(rgba[p * 4 + 3])});
    }
    out.index[p] = it->second;
  }
  return out;
}

void CheckTextureSize(const animkit::Image& img, uint32_t max_side) {
  auto pow2 = [](uint32_t v) { return v != 0 && (v & (v - 1)) == 0; };
  if (img.Missing() || img.rgba.size() != size_t(img.width) * img.height * 4)
    throw Error::General("texture '" + img.name + "' has no pixels to write" + (img.missing.empty() ? "" : " (" + img.missing + ")"));
  if (!pow2(img.width) || !pow2(img.height) || img.width > max_side || img.height > max_side)
    throw Error::General("texture '" + img.name + "' is " + quantise::SizeText(img) + ": KH2 textures are powers of two up to " +
                         std::to_string(max_side) + " a side (GS TEX0 TW/TH; the GS memory KH2 models upload textures to, blocks " +
                         Hex(kTextureFirstBlock) + ".." + Hex(kTextureEndBlock) + ")");
}

IndexedLayout LayoutOf(uint32_t w, uint32_t h, size_t psm) {
  IndexedLayout l;
  if (psm == kT4) {  // PSMT4 pages (128x128) are PSMCT32 pages, their blocks in another order: whole pages
    const size_t pw = std::max<size_t>(w, 128), ph = std::max<size_t>(h, 128);
    l.tbw = std::max<size_t>(pw / 64, 2), l.rect_w = pw / 2, l.rect_h = ph / 4, l.blocks = (pw / 128) * (ph / 128) * 32;
  } else {  // a PSMT8 block (16x16) is a PSMCT32 block (8x8) in the same place of its page
    const size_t pw = std::max<size_t>(w, 16), ph = std::max<size_t>(h, 16);
    l.tbw = std::max<size_t>(pw / 64, 2), l.rect_w = pw / 2, l.rect_h = ph / 2;
    l.blocks = std::max<size_t>(pw / 128, 1) * ((ph + 63) / 64) * 32;
  }
  return l;
}

Bytes SwizzleIndexed(const std::vector<uint8_t>& index, uint32_t w, uint32_t h, size_t psm) {
  const IndexedLayout l = LayoutOf(w, h, psm);
  GsMemory gs;
  for (size_t y = 0; y < l.rect_h; ++y)  // the padding of the rectangle no index covers: 0
    for (size_t x = 0; x < l.rect_w; ++x)
      for (size_t k = 0; k < 4; ++k) gs.Write(Address32(0, l.tbw / 2, x, y) + k, 0);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      const uint8_t v = index[y * w + x];
      if (psm == kT4) {
        const size_t nibble = Address4(0, l.tbw, x, y);
        gs.Write(nibble / 2, uint8_t(v << (4 * (nibble & 1))), uint8_t(15 << (4 * (nibble & 1))));
      } else {
        gs.Write(Address8(0, l.tbw, x, y), v);
      }
    }
  Bytes out(l.rect_w * l.rect_h * 4, 0);
  for (size_t y = 0; y < l.rect_h; ++y)
    for (size_t x = 0; x < l.rect_w; ++x)
      for (size_t k = 0; k < 4; ++k) {
        uint8_t v = 0;
        gs.Read(Address32(0, l.tbw / 2, x, y) + k, v);
        out[(y * l.rect_w + x) * 4 + k] = v;
      }
  return out;
}

std::vector<uint8_t> UnswizzleIndexed(ByteView upload, uint32_t w, uint32_t h, size_t psm) {
  const IndexedLayout l = LayoutOf(w, h, psm);
  GsMemory gs;
  for (size_t y = 0; y < l.rect_h; ++y)
    for (size_t x = 0; x < l.rect_w; ++x)
      for (size_t k = 0; k < 4; ++k) {
        const size_t at = (y * l.rect_w + x) * 4 + k;
        if (at < upload.size()) gs.Write(Address32(0, l.tbw / 2, x, y) + k, upload[at]);
      }
  std::vector<uint8_t> index(size_t(w) * h, 0);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      uint8_t v = 0;
      if (psm == kT4) {
        const size_t nibble = Address4(0, l.tbw, x, y), shift = 4 * (nibble & 1);
        gs.Read(nibble / 2, v, uint8_t(15 << shift));
        v = uint8_t(v >> shift);
      } else {
        gs.Read(Address8(0, l.tbw, x, y), v);
      }
      index[y * w + x] = v;
    }
  return index;
}

void Download(const Transfer& t, const GsMemory& gs, Bytes& data) {
  const size_t bits = BitsPerTexel(t.dpsm);
  if (bits == 0 || t.rrw == 0) return;
  const size_t texels = TexelsSent(t, data.size());
  for (size_t k = 0; k < texels; ++k) {
    const size_t x = (t.dsax + k % t.rrw) % 2048, y = (t.dsay + k / t.rrw) % 2048;
    uint8_t v = 0;
    switch (t.dpsm) {
      case kCt32:
      case kCt24: {
        const size_t at = Address32(t.dbp, t.dbw, x, y), n = bits / 8;
        for (size_t b = 0; b < n; ++b)
          if (gs.Read(at + b, v)) data[k * n + b] = v;
        break;
      }
      case kCt16: {
        const size_t at = Address16(t.dbp, t.dbw, x, y);
        for (size_t b = 0; b < 2; ++b)
          if (gs.Read(at + b, v)) data[k * 2 + b] = v;
        break;
      }
      case kT8:
        if (gs.Read(Address8(t.dbp, t.dbw, x, y), v)) data[k] = v;
        break;
      default: {  // PSMT4: low nibble first
        const size_t nibble = Address4(t.dbp, t.dbw, x, y), shift = 4 * (nibble & 1);
        if (gs.Read(nibble / 2, v, uint8_t(15 << shift))) {
          const size_t s = 4 * (k & 1);
          data[k / 2] = uint8_t((data[k / 2] & ~(15 << s)) | (((v >> shift) & 15) << s));
        }
      }
    }
  }
}

}  // namespace animkit::kh2::detail

namespace animkit::kh2 {

namespace entry_write {  // named: the library compiles as unity batches

void Absorb(TextureWrite& out, detail::FormWrite&& f) {
  out.warnings.insert(out.warnings.end(), f.warnings.begin(), f.warnings.end());
  out.kept += f.kept, out.reencoded += f.reencoded, out.added += f.added;
}

// A single form's entry: every image at its own index of the first set.
TextureWrite OfForm(detail::FormWrite&& f, size_t images) {
  TextureWrite out;
  out.entry = std::move(f.bytes);
  Absorb(out, std::move(f));
  for (size_t i = 0; i < images; ++i) out.index.push_back(int(i));
  return out;
}

void CheckCount(const std::vector<animkit::Image>& images) {
  if (images.size() > detail::kMaxTextures)
    throw Error::General("KH2 texture entry: " + std::to_string(images.size()) + " textures; a model holds at most " +
                         std::to_string(detail::kMaxTextures) + " (the raw form's offset data gives each a byte)");
}

std::vector<const animkit::Image*> Pointers(const std::vector<animkit::Image>& images) {
  std::vector<const animkit::Image*> out;
  for (const animkit::Image& img : images) out.push_back(&img);
  return out;
}

// A texture-set list (magic 0xFFFFFFFF, a count, an offset per set; each set a raw form):
// each set written by the raw form's writer; the list is rebuilt (sets 0x80-aligned, as the
// game's files have them) only when a set's size changed.
TextureWrite WriteSetList(ByteView entry, const TextureSet& decoded, const std::vector<animkit::Image>& images) {
  const uint32_t count = le::Load32At(entry, 4);
  std::vector<size_t> at(count), end(count, entry.size());
  for (size_t k = 0; k < count; ++k) at[k] = le::Load32At(entry, 8 + 4 * k);
  for (size_t k = 0; k < count; ++k)
    for (size_t o : at)
      if (o > at[k] && o < end[k]) end[k] = o;
  const size_t n0 = decoded.images.size(), total = n0 + decoded.other_sets.size();
  if (images.size() < total)
    throw Error::General("KH2 texture sets: " + std::to_string(images.size()) + " images for a template of " + std::to_string(total));
  TextureWrite out;
  std::vector<Bytes> sets(count);
  size_t next = n0, other = 0;  // the next image of `images` and of decoded.other_sets for sets 1..
  for (size_t k = 0; k < count; ++k) {
    if (k > 0 && at[k] <= at[k - 1]) throw Error::General("KH2 texture sets: the template's sets are not in file order");
    const ByteView form = entry.subspan(at[k], end[k] - at[k]);
    std::vector<animkit::Image> old;
    std::vector<const animkit::Image*> mine;
    if (k == 0) {  // added images join the first set (the one the model's materials use)
      old = decoded.images;
      for (size_t i = 0; i < n0; ++i) mine.push_back(&images[i]);
      for (size_t i = total; i < images.size(); ++i) mine.push_back(&images[i]);
    } else {
      const size_t n = std::min<size_t>(le::Load32At(form, 12), decoded.other_sets.size() - other);
      old.assign(decoded.other_sets.begin() + std::ptrdiff_t(other), decoded.other_sets.begin() + std::ptrdiff_t(other + n));
      for (size_t i = 0; i < n; ++i) mine.push_back(&images[next++]);
      other += n;
    }
    detail::FormWrite f = detail::WriteRawForm(form, old, mine);
    sets[k] = std::move(f.bytes);
    Absorb(out, std::move(f));
  }
  for (size_t i = 0; i < images.size(); ++i) out.index.push_back(i < n0 ? int(i) : i < total ? -1 : int(n0 + i - total));
  bool same = true;
  for (size_t k = 0; k < count; ++k) same = same && sets[k].size() == end[k] - at[k];
  if (same) {
    out.entry.assign(entry.begin(), entry.end());
    for (size_t k = 0; k < count; ++k) std::copy(sets[k].begin(), sets[k].end(), out.entry.begin() + std::ptrdiff_t(at[k]));
    return out;
  }
  out.entry.assign(entry.begin(), entry.begin() + std::ptrdiff_t(std::min(at[0], entry.size())));
  for (size_t k = 0; k < count; ++k) {
    out.entry.resize((out.entry.size() + 0x7F) / 0x80 * 0x80, 0);
    le::Store32At(out.entry, 8 + 4 * k, uint32_t(out.entry.size()));
    out.entry.insert(out.entry.end(), sets[k].begin(), sets[k].end());
  }
  return out;
}

}  // namespace entry_write

TextureWrite WriteTextureEntry(ByteView template_entry, const std::vector<animkit::Image>& images, const Limits& limits) {
  using namespace entry_write;
  CheckCount(images);
  const bool tim2 = template_entry.size() >= 4 && template_entry[0] == 'T' && template_entry[1] == 'I' && template_entry[2] == 'M' &&
                    template_entry[3] == '2';
  if (!template_entry.empty() && !tim2 && template_entry.size() >= 8 && le::Load32At(template_entry, 0) == 0xFFFFFFFF) {
    const TextureSet decoded = DecodeTextures(template_entry, 0, limits);
    if (!decoded.warnings.empty()) throw Error::General("KH2 texture template: " + decoded.warnings.front());
    return WriteSetList(template_entry, decoded, images);
  }
  std::vector<animkit::Image> old;
  if (!template_entry.empty()) {
    TextureSet decoded = DecodeTextures(template_entry, 0, limits);
    old = std::move(decoded.images);
  }
  if (images.size() < old.size())
    throw Error::General("KH2 texture entry: " + std::to_string(images.size()) + " images for a template of " + std::to_string(old.size()) +
                         " (a texture the model's meshes name cannot be deleted)");
  const std::vector<const animkit::Image*> mine = Pointers(images);
  return OfForm(tim2 ? detail::WriteTim2(template_entry, old, mine) : detail::WriteRawForm(template_entry, old, mine), images.size());
}

TextureWrite WriteNewTextureEntry(const std::vector<animkit::Image>& images, TextureForm form) {
  using namespace entry_write;
  if (form == TextureForm::Raw) return WriteTextureEntry({}, images);
  CheckCount(images);
  return OfForm(detail::WriteTim2({}, {}, Pointers(images)), images.size());
}

}  // namespace animkit::kh2
