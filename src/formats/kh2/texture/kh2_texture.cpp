// KH2 model textures (BAR type 7): TIM2 pictures decoded to RGBA8, KH2's raw GS form
// (kh2_raw_texture.cpp) and lists of texture sets of it; Scene materials for the meshes
// (docs/formats/kh2.md, "Textures"; facts from OpenKH's docs/common/tm2.md,
// docs/kh2/file/raw-texture.md and Tm2.cs).
#include "formats/kh2/kh2_internal.hpp"
#include "formats/kh2/texture/kh2_gs_memory.hpp"
#include "formats/kh2/texture/kh2_texture_limits.hpp"

#include <animkit/core/limits.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace animkit::kh2 {

namespace {

using Pixel = std::array<uint8_t, 4>;
constexpr size_t kTim2HeaderSize = 0x10;
constexpr size_t kPictureHeaderSize = 0x30;

std::string Number(uint64_t v) { return std::to_string(v); }

// A colour of a TIM2 colour type (1: 16-bit A1B5G5R5, 2: 24-bit RGB, 3: 32-bit RGBA) at p.
Pixel Colour(int type, const uint8_t* p) {
  if (type == 1) return detail::From16(le::Load16(p));
  if (type == 2) return {p[0], p[1], p[2], 255};
  return {p[0], p[1], p[2], detail::AlphaOf(p[3])};
}
size_t ColourBytes(int type) { return type == 1 ? 2 : type == 2 ? 3 : 4; }

struct PictureHeader {
  uint32_t total = 0, clut_size = 0, image_size = 0;
  uint16_t header_size = 0, clut_colours = 0;
  uint8_t format = 0, mipmaps = 0, clut_type = 0, image_type = 0;
  uint16_t width = 0, height = 0;
};

std::string TypeName(int image_type) {
  switch (image_type) {
    case 1: return "TIM2 16-bit direct";
    case 2: return "TIM2 24-bit direct";
    case 3: return "TIM2 32-bit direct";
    case 4: return "TIM2 4-bit indexed";
    case 5: return "TIM2 8-bit indexed";
    default: return "TIM2 image type " + Number(uint64_t(image_type));
  }
}

// One picture's pixels; throws on what the bytes cannot hold.
animkit::Image DecodePicture(ByteReader& r, const PictureHeader& h, const Limits& limits) {
  animkit::Image img;
  img.source_format = TypeName(h.image_type);
  if (h.image_type < 1 || h.image_type > 5) r.Fail("unknown TIM2 image type " + Number(h.image_type));
  if (h.width == 0 || h.height == 0 || h.width > detail::kTim2MaxSide || h.height > detail::kTim2MaxSide)
    r.Fail("TIM2 picture size " + Number(h.width) + "x" + Number(h.height) + " (1.." + Number(detail::kTim2MaxSide) + " expected)");
  CheckLimit(uint64_t(h.width) * h.height, &Limits::max_values, limits, "the pixels of a TIM2 picture", Place::At(r.absolute(r.tell())));
  const uint64_t bits = h.image_type == 4 ? 4 : h.image_type == 5 ? 8 : 8 * ColourBytes(h.image_type);
  const uint64_t need = (uint64_t(h.width) * h.height * bits + 7) / 8;
  if (h.image_size < need) r.Fail("TIM2 image data of " + Hex(h.image_size) + " bytes; " + Number(h.width) + "x" + Number(h.height) + " needs " + Hex(need));
  const ByteView pixels = r.Take(h.image_size, "the TIM2 image data");
  std::vector<Pixel> palette;
  if (h.image_type >= 4) {
    const int clut_type = h.clut_type & 0x3F;
    if (clut_type < 1 || clut_type > 3) r.Fail("unknown TIM2 CLUT type " + Hex(h.clut_type));
    const size_t colours = h.clut_colours;
    if (colours == 0 || colours * ColourBytes(clut_type) > h.clut_size)
      r.Fail("TIM2 CLUT of " + Number(colours) + " colours in " + Hex(h.clut_size) + " bytes");
    const ByteView clut = r.Take(h.clut_size, "the TIM2 CLUT");
    palette.resize(colours);
    const bool csm1 = (h.clut_type & 0x80) == 0 && colours >= 32;  // 16-colour CLUTs need no reorder
    for (size_t i = 0; i < colours; ++i) {
      const size_t stored = csm1 ? detail::Csm1Slot(i) : i;
      palette[i] = stored < colours ? Colour(clut_type, clut.data() + stored * ColourBytes(clut_type)) : Pixel{0, 0, 0, 0};
    }
  }
  img.width = h.width, img.height = h.height;
  img.rgba.resize(size_t(h.width) * h.height * 4);
  for (size_t i = 0; i < size_t(h.width) * h.height; ++i) {
    Pixel px;
    if (h.image_type == 4 || h.image_type == 5) {
      const size_t index = h.image_type == 5 ? pixels[i] : (pixels[i / 2] >> (4 * (i & 1))) & 15;  // low nibble first
      px = index < palette.size() ? palette[index] : Pixel{0, 0, 0, 0};
    } else {
      px = Colour(h.image_type, pixels.data() + i * ColourBytes(h.image_type));
    }
    std::copy(px.begin(), px.end(), img.rgba.begin() + std::ptrdiff_t(i * 4));
  }
  return img;
}

PictureHeader ReadPictureHeader(ByteReader& r) {
  PictureHeader h;
  h.total = r.U32("TIM2 picture total size"), h.clut_size = r.U32("TIM2 CLUT size"), h.image_size = r.U32("TIM2 image size");
  h.header_size = r.U16("TIM2 picture header size"), h.clut_colours = r.U16("TIM2 CLUT colour count");
  h.format = r.U8(), h.mipmaps = r.U8(), h.clut_type = r.U8(), h.image_type = r.U8();
  h.width = r.U16("TIM2 width"), h.height = r.U16("TIM2 height");
  return h;
}

}  // namespace

TextureSet DecodeTim2(ByteView data, uint64_t base, const Limits& limits) {
  ByteReader r(data, Endian::Little, base);
  TextureSet set;
  set.container = "TIM2";
  r.Require(kTim2HeaderSize, "a TIM2 header");
  r.Magic("TIM2");
  r.U8("TIM2 version");
  const uint8_t align = r.U8("TIM2 format");
  const uint16_t count = r.U16("TIM2 picture count");
  size_t at = align != 0 ? 0x80 : kTim2HeaderSize;  // format 1: pictures start 128-aligned
  r.Count(count, kPictureHeaderSize, "the TIM2 pictures");
  for (size_t i = 0; i < count; ++i) {
    animkit::Image img;
    img.name = "texture " + Number(i);
    try {
      ByteReader p = r.Table(int64_t(at), 1, kPictureHeaderSize, 0, "a TIM2 picture");
      const PictureHeader h = ReadPictureHeader(p);
      if (h.header_size < kPictureHeaderSize || h.total < h.header_size || h.total > data.size() - at)
        p.FailAt(0, "TIM2 picture total size " + Hex(h.total) + " / header size " + Hex(h.header_size) + " do not fit the file");
      ByteReader body = r.Sub(at + h.header_size, h.total - h.header_size, "a TIM2 picture's data");
      animkit::Image decoded = DecodePicture(body, h, limits);
      decoded.name = img.name;
      // Mipmaps: level 0 comes first in the image data (the smaller levels after it, their
      // sizes in the header's mipmap block); the full-size picture is the texture.
      if (h.mipmaps > 1) decoded.source_format += ", mipmap level 0 of " + Number(h.mipmaps);
      img = std::move(decoded);
      at += h.total;
    } catch (const Error& e) {
      if (img.source_format.empty()) img.source_format = "TIM2";
      img.missing = std::string("damaged TIM2 picture: ") + e.what();
      set.warnings.push_back(img.name + ": " + img.missing);
      set.images.push_back(std::move(img));
      for (size_t j = i + 1; j < count; ++j) {  // the pictures after it cannot be found
        animkit::Image rest;
        rest.name = "texture " + Number(j), rest.source_format = "TIM2";
        rest.missing = "follows a damaged TIM2 picture";
        set.images.push_back(std::move(rest));
      }
      break;
    }
    set.images.push_back(std::move(img));
  }
  return set;
}

namespace {

// A raw texture (magic 0) at `at` in the entry, `own` bytes long; its DMA reads on to the
// entry's end and into `after`.
std::vector<animkit::Image> DecodeRawForm(ByteView entry, size_t at, size_t own, ByteView after, uint64_t base, std::vector<std::string>& warnings,
                                         std::vector<UnheldTexels>* unheld) {
  const ByteView rest = entry.subspan(at);
  ByteReader r(rest.first(own), Endian::Little, base + at);
  r.Require(0x24, "a KH2 raw texture header");
  if (r.U32("texture magic") != 0) r.FailAt(0, "expected a KH2 raw texture (magic 0)");
  detail::RawTextureHeader h;
  h.colour_count = r.U32("colour count"), h.texture_count = r.U32("texture transfer count");
  h.gs_count = r.U32("GS info count"), h.offset_data_offset = r.U32("offset data offset");
  h.transfer_offset = r.U32("transfer offset"), h.gs_info_offset = r.U32("GS info offset");
  h.picture_offset = r.U32("picture offset"), h.palette_offset = r.U32("palette offset");
  return detail::DecodeRawTextures({rest, own, after}, h, base + at, warnings, unheld);
}

}  // namespace

TextureSet DecodeTextures(ByteView entry, uint64_t base, const Limits& limits, ByteView after) {
  if (entry.size() >= 4 && entry[0] == 'T' && entry[1] == 'I' && entry[2] == 'M' && entry[3] == '2')
    return DecodeTim2(entry, base, limits);
  ByteReader r(entry, Endian::Little, base);
  TextureSet set;
  r.Require(4, "a KH2 texture entry");
  const uint32_t magic = r.U32("texture magic");
  if (magic == 0) {
    set.container = "KH2 raw texture";
    set.images = DecodeRawForm(entry, 0, entry.size(), after, base, set.warnings, &set.unheld);
    return set;
  }
  if (magic != 0xFFFFFFFF) r.FailAt(0, "expected the TIM2 magic, a KH2 raw texture (magic 0) or a texture-set list (magic 0xFFFFFFFF)");
  // A list of texture sets: a count, then the offset of each set (a raw texture) in the entry.
  set.container = "KH2 texture sets";
  const uint32_t count = r.U32("the texture set count");
  if (count == 0) r.FailAt(4, "a texture-set list of no sets");
  r.Count(count, 4, "the texture set offsets");
  std::vector<uint32_t> at(count);
  for (uint32_t& o : at) o = r.U32("a texture set offset");
  const size_t table_end = 8 + size_t(count) * 4;
  for (size_t k = 0; k < count; ++k) {
    std::vector<std::string> notes;
    std::vector<UnheldTexels> unheld;
    std::vector<animkit::Image> images;
    const std::string label = "set " + Number(k);
    try {
      if (at[k] < table_end || at[k] >= entry.size())
        r.FailAt(8 + k * 4, "texture set offset " + Hex(at[k]) + " lies outside " + Hex(table_end) + ".." + Hex(entry.size()));
      // A set runs to the next set that lies after it, else to the entry's end.
      size_t end = entry.size();
      for (uint32_t o : at)
        if (o > at[k] && o < end) end = o;
      images = DecodeRawForm(entry, at[k], end - at[k], after, base, notes, k == 0 ? &unheld : nullptr);
    } catch (const Error& e) {
      notes.push_back(std::string("the set could not be read: ") + e.what());
    }
    for (const std::string& n : notes) set.warnings.push_back(label + ": " + n);
    if (k == 0) {
      set.images = std::move(images);
      for (UnheldTexels& u : unheld) u.warning = label + ": " + u.warning;
      set.unheld = std::move(unheld);
    } else {
      for (animkit::Image& img : images) {
        img.name = label + " " + img.name;
        set.other_sets.push_back(std::move(img));
      }
    }
  }
  return set;
}

namespace {

// How many of `unheld`'s texels of a w x h image the mesh's UV triangles sample: a texel
// whose bilinear footprint (its square grown by half a texel each side: a sample at u reads
// the texels around u * w - 0.5) overlaps a triangle, the coordinates repeated or clamped
// as the texture's CLAMP says.
size_t SampledTexels(const Mesh& mesh, const UnheldTexels& unheld, uint32_t w, uint32_t h) {
  if (mesh.uvs.size() != mesh.positions.size() || w == 0 || h == 0) return 0;
  std::vector<bool> wanted(size_t(w) * h, false), seen(size_t(w) * h, false);
  for (uint32_t t : unheld.texels)
    if (t < wanted.size()) wanted[t] = true;
  size_t count = 0;
  auto wrap = [](int64_t v, uint32_t n, bool clamp) {
    return clamp ? size_t(std::clamp<int64_t>(v, 0, int64_t(n) - 1)) : size_t(((v % int64_t(n)) + int64_t(n)) % int64_t(n));
  };
  for (size_t k = 0; k + 2 < mesh.triangles.size(); k += 3) {
    std::array<std::array<double, 2>, 3> p{};
    bool ok = true;
    for (size_t j = 0; j < 3; ++j) {
      const uint32_t v = mesh.triangles[k + j];
      if (v >= mesh.uvs.size()) ok = false;
      else p[j] = {double(mesh.uvs[v][0]) * w, double(mesh.uvs[v][1]) * h};
    }
    if (!ok) continue;
    const double x0 = std::min({p[0][0], p[1][0], p[2][0]}), x1 = std::max({p[0][0], p[1][0], p[2][0]});
    const double y0 = std::min({p[0][1], p[1][1], p[2][1]}), y1 = std::max({p[0][1], p[1][1], p[2][1]});
    if (!(x1 - x0 < 4.0 * w && y1 - y0 < 4.0 * h)) continue;  // a degenerate UV (or NaN) spans no texel the game samples
    // Separating axes: the box's two and the triangle's three edge normals.
    auto overlaps = [&](double bx0, double by0, double bx1, double by1) {
      for (size_t e = 0; e < 3; ++e) {
        const auto& a = p[e];
        const auto& b = p[(e + 1) % 3];
        const double nx = b[1] - a[1], ny = a[0] - b[0];
        double tmin = 1e300, tmax = -1e300, cmin = 1e300, cmax = -1e300;
        for (const auto& q : p) tmin = std::min(tmin, nx * q[0] + ny * q[1]), tmax = std::max(tmax, nx * q[0] + ny * q[1]);
        for (double cx : {bx0, bx1})
          for (double cy : {by0, by1}) cmin = std::min(cmin, nx * cx + ny * cy), cmax = std::max(cmax, nx * cx + ny * cy);
        if (tmax < cmin || tmin > cmax) return false;
      }
      return true;
    };
    for (int64_t ty = int64_t(std::floor(y0 - 1.5)); ty <= int64_t(std::ceil(y1 + 0.5)); ++ty)
      for (int64_t tx = int64_t(std::floor(x0 - 1.5)); tx <= int64_t(std::ceil(x1 + 0.5)); ++tx) {
        const double bx0 = double(tx) - 0.5, bx1 = double(tx) + 1.5, by0 = double(ty) - 0.5, by1 = double(ty) + 1.5;
        if (bx1 < x0 || bx0 > x1 || by1 < y0 || by0 > y1 || !overlaps(bx0, by0, bx1, by1)) continue;
        const size_t at = wrap(ty, h, unheld.clamp_v) * w + wrap(tx, w, unheld.clamp_u);
        if (wanted[at] && !seen[at]) seen[at] = true, ++count;
      }
  }
  return count;
}

}  // namespace

void AttachMaterials(std::vector<Mesh>& meshes, TextureSet textures, Scene& scene, std::vector<std::string>& warnings) {
  const size_t first_material = scene.materials.size();
  const size_t held = textures.images.size();
  // Texels no upload wrote are said once per mesh that samples them, and not when none does.
  std::vector<std::string> sampled;
  for (const UnheldTexels& u : textures.unheld) {
    if (auto it = std::find(textures.warnings.begin(), textures.warnings.end(), u.warning); it != textures.warnings.end())
      textures.warnings.erase(it);
    if (u.image >= held) continue;
    const animkit::Image& img = textures.images[u.image];
    for (const Mesh& mesh : meshes)
      if (mesh.material == int(u.image))
        if (const size_t n = SampledTexels(mesh, u, img.width, img.height); n != 0)
          sampled.push_back(mesh.name + ": samples " + std::to_string(n) + " texels of " + u.texture + " that " + u.what);
  }
  warnings.insert(warnings.end(), textures.warnings.begin(), textures.warnings.end());
  warnings.insert(warnings.end(), sampled.begin(), sampled.end());
  for (animkit::Image& img : textures.images) {
    Material m;
    m.name = img.name;
    m.texture = int(scene.textures.size());
    scene.materials.push_back(std::move(m));
    scene.textures.push_back(std::move(img));
  }
  for (animkit::Image& img : textures.other_sets) {  // kept, with a material no mesh uses
    Material m;
    m.name = img.name;
    m.texture = int(scene.textures.size());
    scene.materials.push_back(std::move(m));
    scene.textures.push_back(std::move(img));
  }
  std::map<int, int> extra;  // texture index past the entry's -> its material
  for (Mesh& mesh : meshes) {
    const int index = mesh.material;
    if (index < 0) continue;  // an untextured mesh (a shadow model's) gets no material
    if (size_t(index) < held) {
      mesh.material = int(first_material) + index;
    } else if (auto it = extra.find(index); it != extra.end()) {
      mesh.material = it->second;
    } else {
      animkit::Image img;
      img.name = "texture " + std::to_string(index);
      img.missing = held == 0 && textures.container == "unreadable" ? "the texture entry could not be read"
                    : held == 0 ? "the MDLX has no texture entry (PC releases may keep textures elsewhere)"
                              : "texture index " + std::to_string(index) + " is past the " + Number(held) + " textures of the entry";
      warnings.push_back(mesh.name + ": " + img.missing);
      Material m;
      m.name = img.name;
      m.texture = int(scene.textures.size());
      scene.textures.push_back(std::move(img));
      mesh.material = int(scene.materials.size());
      extra.emplace(index, mesh.material);
      scene.materials.push_back(std::move(m));
    }
    const Value& flags = std::as_const(mesh.metadata)["render_flags"];
    if (flags.is_number_integer() && (flags.get<int64_t>() & 1) != 0)
      scene.materials[size_t(mesh.material)].alpha = AlphaMode::Blend;  // the group's transparency flag
  }
}

}  // namespace animkit::kh2
