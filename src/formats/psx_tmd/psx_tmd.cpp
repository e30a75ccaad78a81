#include <animkit/formats/psx_tmd.hpp>

#include "formats/common/colour.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace animkit::psx_tmd {

std::optional<Layout> LayoutOf(uint8_t mode, uint8_t flag, std::optional<size_t> ilen) {
  Layout l;
  switch (mode >> 5) {
    case kCodePolygon: {
      const bool quad = (mode & kModeQuad) != 0;
      l.kind = Kind::Polygon;
      l.vertices = quad ? 4 : 3;
      l.lit = (flag & kFlagNoLight) == 0;
      l.textured = (mode & kModeTextured) != 0;
      l.gouraud = (mode & kModeGouraud) != 0;
      l.uvs = l.textured ? l.vertices : 0;
      size_t index_words = 0;
      if (l.lit) {
        l.normals = l.gouraud ? l.vertices : 1;
        l.colors = l.textured ? 0 : ((flag & kFlagGradation) ? l.vertices : 1);
        // Gouraud: {normal, vertex} per word; flat: normal 0 then the vertices, two per word.
        index_words = l.gouraud ? size_t(l.vertices) : size_t(l.vertices + 2) / 2;
      } else {
        l.colors = l.gouraud ? l.vertices : 1;
        index_words = size_t(l.vertices + 1) / 2;
      }
      l.words = size_t(l.uvs) + size_t(l.colors) + index_words;
      l.name = std::string(l.gouraud ? "gouraud " : "flat ") + (l.textured ? "textured " : "") +
               (quad ? "quad" : "triangle") +
               (l.lit ? (!l.textured && (flag & kFlagGradation) ? " (lit, gradation)" : " (lit)") : " (unlit)");
      return l;
    }
    case kCodeLine:
      l.kind = Kind::Line;
      l.vertices = 2;
      l.gouraud = (mode & kModeGouraud) != 0;
      l.colors = l.gouraud ? 2 : 1;
      l.words = size_t(l.colors) + 1;
      l.name = l.gouraud ? "gradated line" : "line";
      return l;
    case kCodeSprite: {
      static const char* const kSizes[] = {"sprite", "sprite 1x1", "sprite 8x8", "sprite 16x16"};
      static const uint16_t kSides[] = {0, 1, 8, 16};
      const unsigned size = (mode >> 3) & 3;
      l.kind = Kind::Sprite;
      l.vertices = 1;
      l.textured = true;
      l.uvs = 1;
      l.sprite_side = kSides[size];
      // A free-size sprite needs its {W, H} word; a fixed-size one has none (ilen 2),
      // though some files still store it (ilen 3): the packet's own ilen decides.
      l.size_word = size == 0 || ilen == 3;
      l.words = l.size_word ? 3 : 2;
      l.name = kSizes[size];
      return l;
    }
    default:
      return std::nullopt;
  }
}

namespace {

uint16_t Lo(uint32_t w) { return static_cast<uint16_t>(w & 0xFFFF); }
uint16_t Hi(uint32_t w) { return static_cast<uint16_t>(w >> 16); }
std::array<uint8_t, 3> Rgb(uint32_t w) {
  return {static_cast<uint8_t>(w), static_cast<uint8_t>(w >> 8), static_cast<uint8_t>(w >> 16)};
}
uint32_t RgbWord(std::array<uint8_t, 3> c, uint8_t top) {
  return uint32_t{c[0]} | uint32_t{c[1]} << 8 | uint32_t{c[2]} << 16 | uint32_t{top} << 24;
}

}  // namespace

PrimitiveView View(const Primitive& p) {
  PrimitiveView v;
  v.layout = *LayoutOf(p.mode, p.flag, p.words.size());
  const Layout& l = v.layout;
  const auto& w = p.words;
  if (l.kind == Kind::Sprite) {
    // {vertex, TSB} {U, V, CBA}, then {W, H} when the packet has it; the mode's size
    // bits decide a fixed-size sprite's size (a stored W/H is kept, not used).
    v.vertices = {Lo(w[0])};
    v.tsb = Hi(w[0]);
    v.uvs = {{static_cast<uint8_t>(w[1]), static_cast<uint8_t>(w[1] >> 8)}};
    v.cba = Hi(w[1]);
    v.width = v.height = l.sprite_side;
    if (l.sprite_side == 0) v.width = Lo(w[2]), v.height = Hi(w[2]);
    return v;
  }
  size_t i = 0;
  for (int k = 0; k < l.uvs; ++k, ++i) {
    v.uvs.push_back({static_cast<uint8_t>(w[i]), static_cast<uint8_t>(w[i] >> 8)});
    if (k == 0) v.cba = Hi(w[i]);
    if (k == 1) v.tsb = Hi(w[i]);
  }
  for (int k = 0; k < l.colors; ++k, ++i) v.colors.push_back(Rgb(w[i]));
  auto half = [&](size_t h) { return h % 2 == 0 ? Lo(w[i + h / 2]) : Hi(w[i + h / 2]); };
  if (l.normals > 0 && l.gouraud) {
    for (int k = 0; k < l.vertices; ++k) {
      v.normals.push_back(half(2 * size_t(k)));
      v.vertices.push_back(half(2 * size_t(k) + 1));
    }
  } else if (l.normals > 0) {
    v.normals.push_back(half(0));
    for (int k = 0; k < l.vertices; ++k) v.vertices.push_back(half(1 + size_t(k)));
  } else {
    for (int k = 0; k < l.vertices; ++k) v.vertices.push_back(half(size_t(k)));
  }
  return v;
}

Primitive MakeLine(uint16_t v0, uint16_t v1, std::array<uint8_t, 3> rgb) {
  return Primitive{3, kFlagNoLight, kModeLine, {RgbWord(rgb, kModeLine), uint32_t{v0} | uint32_t{v1} << 16}};
}

Primitive MakeFlatTriangle(uint16_t v0, uint16_t v1, uint16_t v2, std::array<uint8_t, 3> rgb) {
  return Primitive{4, kFlagNoLight, kModeFlatTriangle,
                   {RgbWord(rgb, kModeFlatTriangle), uint32_t{v0} | uint32_t{v1} << 16, uint32_t{v2}}};
}

Primitive MakeFlatQuad(uint16_t v0, uint16_t v1, uint16_t v2, uint16_t v3, std::array<uint8_t, 3> rgb) {
  return Primitive{5, kFlagNoLight, kModeFlatQuad,
                   {RgbWord(rgb, kModeFlatQuad), uint32_t{v0} | uint32_t{v1} << 16, uint32_t{v2} | uint32_t{v3} << 16}};
}

size_t PrimitiveBytes(const Object& object) {
  size_t n = 0;
  for (const Primitive& p : object.primitives) n += 4 + 4 * p.words.size();
  return n;
}

namespace {

// Objects may share blocks; the parser reads at most this many times the file's
// size in blocks, so a small file cannot make it work or allocate without bound.
constexpr uint64_t kShareLimit = 16;

std::string ObjectName(size_t i) { return "object " + std::to_string(i); }

// Every vertex and normal a primitive packet (at `at`) names is one its object has.
void CheckIndices(ByteReader& pr, size_t at, const std::string& named, const Primitive& p, const Object& obj) {
  const PrimitiveView view = View(p);
  for (uint16_t v : view.vertices) {
    if (v >= obj.vertices.size()) {
      pr.FailAt(at, named + ": vertex index " + std::to_string(v) + " is out of range (the object has " +
                        std::to_string(obj.vertices.size()) + " vertices)");
    }
  }
  for (uint16_t v : view.normals) {
    if (v >= obj.normals.size()) {
      pr.FailAt(at, named + ": normal index " + std::to_string(v) + " is out of range (the object has " +
                        std::to_string(obj.normals.size()) + " normals)");
    }
  }
}

// Whatever nothing claimed, kept for the writer.
std::vector<Gap> Unclaimed(ByteView data, const std::vector<bool>& covered) {
  std::vector<Gap> gaps;
  for (size_t pos = 0; pos < covered.size();) {
    if (covered[pos]) {
      ++pos;
      continue;
    }
    size_t end = pos;
    while (end < covered.size() && !covered[end]) ++end;
    gaps.push_back({static_cast<uint32_t>(pos), Bytes(data.begin() + std::ptrdiff_t(pos),
                                                      data.begin() + std::ptrdiff_t(end))});
    pos = end;
  }
  return gaps;
}

}  // namespace

File Parse(ByteView data, const ParseSettings& settings) {
  ByteReader r(data, Endian::Little);
  File file;
  file.id = r.U32("the TMD id");
  if (file.id != kId) r.FailAt(0, "expected the TMD id 0x41, found " + Hex(file.id));
  file.flags = r.U32("the TMD flags");
  const uint32_t count = r.U32("the object count");
  r.Count(count, kObjectRecordSize, "object table");
  file.offset_base = ((file.flags & kFlagFixp) && settings.fixp_base == FixpBase::File) ? 0 : kHeaderSize;
  const uint64_t size = data.size();
  std::vector<bool> covered(data.size(), false);
  auto cover = [&](uint64_t begin, uint64_t n) { std::fill_n(covered.begin() + std::ptrdiff_t(begin), n, true); };
  cover(0, kHeaderSize + uint64_t{count} * kObjectRecordSize);

  struct Record {
    uint32_t top[3], n[3];
    int32_t scale;
  };
  std::vector<Record> records(count);
  for (Record& rec : records) {
    for (int b = 0; b < 3; ++b) {
      rec.top[b] = r.U32(b == 0 ? "vert_top" : b == 1 ? "normal_top" : "prim_top");
      rec.n[b] = r.U32(b == 0 ? "n_vert" : b == 1 ? "n_normal" : "n_primitive");
    }
    rec.scale = r.I32("the object scale");
  }

  const uint64_t budget = kShareLimit * size + 4096;
  uint64_t used = 0;
  auto spend = [&](uint64_t bytes, size_t record_pos) {
    used += bytes;
    if (used > budget) {
      r.FailAt(record_pos, "the objects' blocks add up to more than " + std::to_string(kShareLimit) +
                               " times the file's size (objects sharing data without bound)");
    }
  };
  file.objects.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const Record& rec = records[i];
    Object& obj = file.objects[i];
    obj.vert_top = rec.top[0], obj.normal_top = rec.top[1], obj.prim_top = rec.top[2], obj.scale = rec.scale;
    const size_t rec_pos = kHeaderSize + i * kObjectRecordSize;
    // Vertices and normals: 8 bytes each.
    for (int b = 0; b < 2; ++b) {
      const uint64_t n = rec.n[b];
      if (n == 0) continue;
      const char* what = b == 0 ? "vertices" : "normals";
      const uint64_t begin = file.offset_base + uint64_t{rec.top[b]};
      if (begin > size || n > (size - begin) / 8) {
        r.FailAt(rec_pos + 4 + 8 * size_t(b), ObjectName(i) + ": " + std::to_string(n) + " " + what + " at " + Hex(begin) +
                                              " run past the end of the file (need " + Hex(begin + n * 8) +
                                              " bytes, file has " + Hex(size) + ")");
      }
      spend(n * 8, rec_pos);
      ByteReader vr = r.Sub(begin, n * 8, what);
      auto& out = b == 0 ? obj.vertices : obj.normals;
      out.resize(n);
      for (Vertex& v : out) {
        v.x = vr.I16(), v.y = vr.I16(), v.z = vr.I16(), v.pad = vr.I16();
      }
      cover(begin, n * 8);
    }
    // Primitives: packets of 4 + 4 * ilen bytes.
    const uint64_t n = rec.n[2];
    if (n == 0) continue;
    const uint64_t begin = file.offset_base + uint64_t{rec.top[2]};
    if (begin > size || n > (size - begin) / 4) {
      r.FailAt(rec_pos + 20, ObjectName(i) + ": " + std::to_string(n) + " primitives at " + Hex(begin) +
                                 " cannot fit before the end of the file (" + Hex(size) + ")");
    }
    ByteReader pr(data, Endian::Little);
    pr.Seek(begin, "the primitives");
    obj.primitives.resize(n);
    for (size_t k = 0; k < n; ++k) {
      const size_t at = pr.tell();
      const std::string where = ObjectName(i) + " primitive " + std::to_string(k);
      pr.Require(4, where + "'s header");
      Primitive& p = obj.primitives[k];
      p.olen = pr.U8();
      const uint8_t ilen = pr.U8();
      p.flag = pr.U8();
      p.mode = pr.U8();
      const std::optional<Layout> layout = LayoutOf(p.mode, p.flag, ilen);
      if (!layout) pr.FailAt(at + 3, where + ": mode " + Hex(p.mode) + " has code " + std::to_string(p.mode >> 5) +
                                          ", which is no primitive kind (1 polygon, 2 line, 3 sprite)");
      const std::string named = where + " (mode " + Hex(p.mode) + ", " + layout->name + ")";
      if (ilen != layout->words) {
        pr.FailAt(at + 1, named + ": ilen " + std::to_string(ilen) + ", the layout has " +
                              (layout->sprite_side ? std::string("2 words (3 with a {W, H} word)")
                                                   : std::to_string(layout->words) + " words"));
      }
      if (uint64_t{ilen} * 4 > pr.remaining()) {
        pr.FailAt(at, named + ": the packet runs past the end of the file (needs " + Hex(at + 4 + ilen * 4) +
                          " bytes, file has " + Hex(size) + ")");
      }
      spend(4 + uint64_t{ilen} * 4, rec_pos);
      p.words.resize(ilen);
      for (uint32_t& w : p.words) w = pr.U32();
      CheckIndices(pr, at, named, p, obj);
    }
    cover(begin, pr.tell() - begin);
  }
  file.gaps = Unclaimed(data, covered);
  return file;
}

Bytes Serialize(const File& file) {
  constexpr uint64_t kMaxSize = uint64_t{1} << 31;
  if (file.objects.size() > (kMaxSize - kHeaderSize) / kObjectRecordSize)
    throw Error::General("too many TMD objects to write");
  uint64_t end = kHeaderSize + file.objects.size() * kObjectRecordSize;
  for (const Gap& g : file.gaps) end = std::max(end, uint64_t{g.offset} + g.bytes.size());
  for (const Object& o : file.objects) {
    if (o.vertices.size() > 0xFFFFFFFFu || o.normals.size() > 0xFFFFFFFFu || o.primitives.size() > 0xFFFFFFFFu)
      throw Error::General("a TMD object holds at most 2^32-1 elements of each kind");
    if (!o.vertices.empty()) end = std::max(end, file.offset_base + uint64_t{o.vert_top} + 8 * o.vertices.size());
    if (!o.normals.empty()) end = std::max(end, file.offset_base + uint64_t{o.normal_top} + 8 * o.normals.size());
    if (!o.primitives.empty()) end = std::max(end, file.offset_base + uint64_t{o.prim_top} + PrimitiveBytes(o));
  }
  if (end > kMaxSize) throw Error::General("the TMD's blocks reach past 2 GiB: assign offsets first");
  Bytes out(end, 0);
  for (const Gap& g : file.gaps) std::copy(g.bytes.begin(), g.bytes.end(), out.begin() + std::ptrdiff_t(g.offset));
  auto put = [&](uint64_t at, const Bytes& bytes) { std::copy(bytes.begin(), bytes.end(), out.begin() + std::ptrdiff_t(at)); };
  auto vertices = [](const std::vector<Vertex>& vs) {
    ByteWriter w(Endian::Little);
    for (const Vertex& v : vs) w.I16(v.x), w.I16(v.y), w.I16(v.z), w.I16(v.pad);
    return w.Take();
  };
  ByteWriter table(Endian::Little);
  table.U32(file.id);
  table.U32(file.flags);
  table.U32(static_cast<uint32_t>(file.objects.size()));
  for (const Object& o : file.objects) {
    table.U32(o.vert_top), table.U32(static_cast<uint32_t>(o.vertices.size()));
    table.U32(o.normal_top), table.U32(static_cast<uint32_t>(o.normals.size()));
    table.U32(o.prim_top), table.U32(static_cast<uint32_t>(o.primitives.size()));
    table.I32(o.scale);
    if (!o.vertices.empty()) put(file.offset_base + uint64_t{o.vert_top}, vertices(o.vertices));
    if (!o.normals.empty()) put(file.offset_base + uint64_t{o.normal_top}, vertices(o.normals));
    ByteWriter pw(Endian::Little);
    for (const Primitive& p : o.primitives) {
      if (p.words.size() > 255) throw Error::General("a TMD primitive holds at most 255 words");
      pw.U8(p.olen), pw.U8(static_cast<uint8_t>(p.words.size())), pw.U8(p.flag), pw.U8(p.mode);
      for (uint32_t w : p.words) pw.U32(w);
    }
    if (!o.primitives.empty()) put(file.offset_base + uint64_t{o.prim_top}, pw.bytes());
  }
  put(0, table.bytes());
  return out;
}

void AssignOffsets(File& file) {
  file.gaps.clear();
  uint64_t at = kHeaderSize + file.objects.size() * kObjectRecordSize;
  auto take = [&](uint64_t bytes) {
    const uint64_t rel = at - file.offset_base;
    if (rel > 0xFFFFFFFFu) throw Error::General("the TMD is too large for 32-bit offsets");
    at += bytes;
    return static_cast<uint32_t>(rel);
  };
  for (Object& o : file.objects) {
    o.vert_top = take(8 * o.vertices.size());
    o.normal_top = take(8 * o.normals.size());
    o.prim_top = take(PrimitiveBytes(o));
  }
}

namespace {

// The GPU's colour bytes are display colours (sRGB); the library's are linear.
std::array<float, 4> Color(std::array<uint8_t, 3> c) {
  return {colour::SrgbToLinear(c[0]), colour::SrgbToLinear(c[1]), colour::SrgbToLinear(c[2]), 1.0f};
}

}  // namespace

Scene DecodeScene(const File& file) {
  Scene scene;
  scene.metadata = {{kSourceFormatKey, "psx-tmd"},
                    {metadata_keys::kFlags, file.flags},
                    {metadata_keys::kObjectCount, file.objects.size()}};
  for (size_t i = 0; i < file.objects.size(); ++i) {
    const Object& o = file.objects[i];
    const std::string name = NumberedJointName(i);
    scene.skeleton.joints.push_back(Joint{name, -1, {}});
    Mesh mesh;
    mesh.name = name;
    mesh.joint = static_cast<int>(i);
    std::map<std::pair<uint16_t, uint32_t>, uint32_t> index;  // (vertex, rgb) -> mesh vertex
    auto vertex = [&](uint16_t v, std::array<uint8_t, 3> rgb) {
      const uint32_t key = RgbWord(rgb, 0);
      auto [it, inserted] = index.try_emplace({v, key}, static_cast<uint32_t>(mesh.positions.size()));
      if (inserted) {
        const Vertex& p = o.vertices.at(v);
        mesh.positions.push_back({float(p.x), float(p.y), float(p.z)});
        mesh.colors.push_back(Color(rgb));
      }
      return it->second;
    };
    for (const Primitive& p : o.primitives) {
      const PrimitiveView view = View(p);
      if (view.layout.kind == Kind::Sprite) continue;
      std::vector<uint32_t> corners;
      for (size_t k = 0; k < view.vertices.size(); ++k) {
        std::array<uint8_t, 3> rgb{255, 255, 255};  // lit textured polygons carry no colour
        if (!view.colors.empty()) rgb = view.colors[std::min(k, view.colors.size() - 1)];
        corners.push_back(vertex(view.vertices[k], rgb));
      }
      if (view.layout.kind == Kind::Line) {
        mesh.lines.insert(mesh.lines.end(), {corners[0], corners[1]});
      } else {
        mesh.triangles.insert(mesh.triangles.end(), {corners[0], corners[1], corners[2]});
        if (corners.size() == 4) mesh.triangles.insert(mesh.triangles.end(), {corners[1], corners[3], corners[2]});
      }
    }
    scene.meshes.push_back(std::move(mesh));
  }
  return scene;
}

namespace {

int16_t Coordinate(float v, const std::string& where) {
  const double q = std::round(double(v));
  if (!(q >= -32768 && q <= 32767)) throw Error::General(where + " " + std::to_string(v) + " does not fit in 16 bits");
  return static_cast<int16_t>(q);
}

}  // namespace

File EncodeScene(const Scene& scene) {
  File file;
  for (const Mesh& mesh : scene.meshes) {
    Object o;
    const std::string where = "mesh '" + mesh.name + "'";
    std::map<std::array<int16_t, 3>, uint16_t> unique;
    std::vector<uint16_t> remap(mesh.positions.size());
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      const Vec3& p = mesh.positions[i];
      const std::array<int16_t, 3> q{Coordinate(p.x, where + " position"), Coordinate(p.y, where + " position"),
                                     Coordinate(p.z, where + " position")};
      auto [it, inserted] = unique.try_emplace(q, static_cast<uint16_t>(o.vertices.size()));
      if (inserted) {
        if (o.vertices.size() >= 0x10000) throw Error::General(where + " has more than 65536 distinct vertices");
        o.vertices.push_back({q[0], q[1], q[2], 0});
      }
      remap[i] = it->second;
    }
    auto rgb = [&](uint32_t i) -> std::array<uint8_t, 3> {
      if (i >= mesh.colors.size()) return {128, 128, 128};
      const auto& c = mesh.colors[i];
      return {colour::LinearToSrgb(c[0]), colour::LinearToSrgb(c[1]), colour::LinearToSrgb(c[2])};
    };
    auto at = [&](uint32_t i) {
      if (i >= remap.size()) throw Error::General(where + " indexes vertex " + std::to_string(i) + ", past its positions");
      return remap[i];
    };
    for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
      const uint32_t* c = &mesh.triangles[t];
      o.primitives.push_back(MakeFlatTriangle(at(c[0]), at(c[1]), at(c[2]), rgb(c[0])));
    }
    for (size_t l = 0; l + 1 < mesh.lines.size(); l += 2) {
      o.primitives.push_back(MakeLine(at(mesh.lines[l]), at(mesh.lines[l + 1]), rgb(mesh.lines[l])));
    }
    file.objects.push_back(std::move(o));
  }
  AssignOffsets(file);
  return file;
}

}  // namespace animkit::psx_tmd
