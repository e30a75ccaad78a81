// Metroid Prime CSKR skin rules: weight groups ("virtual bones"), then the MP1 footer
// (position and normal counts) or the Echoes matrix-index list and per-position map.
#include <animkit/formats/metroid_model.hpp>

#include <algorithm>

namespace animkit::metroid_model {
namespace {

SkinFooterCount ReadFooterCount(ByteReader& r, const char* what) {
  SkinFooterCount c;
  c.stored = r.I32(what);
  if (c.stored < 0) {
    if (c.stored != -1) r.FailAt(r.tell() - 4, std::string(what) + " is " + std::to_string(c.stored) + " (-1 or a count)");
    c.count = r.U32(what);
    return c;
  }
  c.copy.resize(r.Count(uint64_t(c.stored) * 3, 4, "copied vertex data"));
  for (uint32_t& v : c.copy) v = r.U32("copied vertex data");
  return c;
}

void WriteFooterCount(ByteWriter& w, const SkinFooterCount& c) {
  w.I32(c.stored);
  if (c.stored < 0) w.U32(c.count);
  else for (uint32_t v : c.copy) w.U32(v);
}

bool AllZero(ByteView v) { return std::all_of(v.begin(), v.end(), [](uint8_t b) { return b == 0; }); }

// The MP1 footer; false (nothing kept) when zero_rest and non-zero bytes follow it.
bool ReadMp1Footer(ByteReader& r, CskrFile& f, bool zero_rest) {
  f.positions = ReadFooterCount(r, "the position count");
  f.normals = ReadFooterCount(r, "the normal count");
  const ByteView rest = r.Take(r.remaining(), "trailing bytes");
  if (zero_rest && !AllZero(rest)) return false;
  f.trailing.assign(rest.begin(), rest.end());
  return true;
}

void ReadMp2Footer(ByteReader& r, CskrFile& f) {
  f.mp2 = true;
  const uint32_t n = r.U32("the matrix-index count");
  f.matrix_indices.resize(r.Count(n, 2, "matrix indices"));
  for (int16_t& v : f.matrix_indices) v = r.I16("a matrix index");
  const uint32_t v = r.U32("the per-position group count");
  const ByteView map = r.Take(r.Count(v, 1, "per-position groups"), "per-position groups");
  f.position_groups.assign(map.begin(), map.end());
  const ByteView rest = r.Take(r.remaining(), "trailing bytes");
  f.trailing.assign(rest.begin(), rest.end());
}

}  // namespace

CskrFile ParseCskr(ByteView data) {
  ByteReader r(data, Endian::Big);
  CskrFile f;
  const uint32_t groups = r.U32("the weight group count");
  r.Count(groups, 8, "weight groups");
  f.groups.resize(groups);
  for (size_t g = 0; g < groups; ++g) {
    const uint32_t n = r.U32("the weight count of a group");
    f.groups[g].weights.resize(r.Count(n, 8, "weights of group " + std::to_string(g)));
    for (SkinWeight& w : f.groups[g].weights) {
      w.bone_id = r.U32("a bone id");
      w.weight = r.F32("a weight");
    }
    f.groups[g].vertex_count = r.U32("the vertex count of a group");
  }
  const size_t footer_at = r.tell();
  // MP1's footer when it reads with only padding after it; else Echoes' lists; else MP1's
  // footer with its trailing bytes kept (or its error).
  try {
    ByteReader mp1 = r;
    CskrFile one = f;
    if (ReadMp1Footer(mp1, one, true)) return one;
  } catch (const Error&) {
  }
  try {
    ByteReader mp2 = r;
    CskrFile two = f;
    ReadMp2Footer(mp2, two);
    return two;
  } catch (const Error&) {
  }
  r.Seek(footer_at, "the footer");
  ReadMp1Footer(r, f, false);
  return f;
}

Bytes SerializeCskr(const CskrFile& f) {
  ByteWriter w(Endian::Big);
  w.U32(static_cast<uint32_t>(f.groups.size()));
  for (const WeightGroup& g : f.groups) {
    w.U32(static_cast<uint32_t>(g.weights.size()));
    for (const SkinWeight& s : g.weights) {
      w.U32(s.bone_id);
      w.F32(s.weight);
    }
    w.U32(g.vertex_count);
  }
  if (f.mp2) {
    w.U32(static_cast<uint32_t>(f.matrix_indices.size()));
    for (int16_t v : f.matrix_indices) w.I16(v);
    w.U32(static_cast<uint32_t>(f.position_groups.size()));
    w.Append(f.position_groups);
  } else {
    WriteFooterCount(w, f.positions);
    WriteFooterCount(w, f.normals);
  }
  w.Append(f.trailing);
  return w.Take();
}

std::vector<uint32_t> GroupOfPositions(const CskrFile& skin, size_t position_count) {
  std::vector<uint32_t> out;
  out.reserve(position_count);
  if (skin.mp2) {
    if (skin.position_groups.size() < position_count) {
      throw Error::General("the CSKR maps " + std::to_string(skin.position_groups.size()) + " positions, the model has " +
                           std::to_string(position_count));
    }
    for (size_t p = 0; p < position_count; ++p) {
      if (skin.position_groups[p] >= skin.groups.size()) {
        throw Error::General("the CSKR maps position " + std::to_string(p) + " to weight group " +
                             std::to_string(skin.position_groups[p]) + " of " + std::to_string(skin.groups.size()));
      }
      out.push_back(skin.position_groups[p]);
    }
    return out;
  }
  for (uint32_t g = 0; g < skin.groups.size() && out.size() < position_count; ++g)
    for (uint32_t k = 0; k < skin.groups[g].vertex_count && out.size() < position_count; ++k) out.push_back(g);
  if (out.size() < position_count) {
    throw Error::General("the CSKR's weight groups cover " + std::to_string(out.size()) + " positions, the model has " +
                         std::to_string(position_count));
  }
  return out;
}

}  // namespace animkit::metroid_model
