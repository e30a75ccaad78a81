// Metroid Prime CSKR skin rules: weight groups ("virtual bones"), then the MP1 footer
// (position and normal counts) or the Echoes matrix-index list and per-position map.
#include "metroid_cmdl_fields.hpp"

#include <algorithm>

namespace animkit::metroid_model {
namespace {

SkinFooterCount ReadFooterCount(ByteReader& r, const char* what) {
  SkinFooterCount c;
  const size_t at = r.tell();
  fields::ReadAll(r, c, kFooterStored);
  if (c.stored < 0) {
    if (c.stored != -1) r.FailAt(at, std::string(what) + " is " + std::to_string(c.stored) + " (-1 or a count)");
    fields::ReadAll(r, c, kFooterCount);
    return c;
  }
  c.copy = fields::ReadValues<uint32_t>(r, uint64_t(c.stored) * 3, "copied vertex data");
  return c;
}

void WriteFooterCount(ByteWriter& w, const SkinFooterCount& c) {
  fields::WriteAll(w, c, kFooterStored);
  if (c.stored < 0) fields::WriteAll(w, c, kFooterCount);
  else fields::WriteValues(w, c.copy);
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
  f.matrix_indices = fields::ReadCountedValues<int16_t>(r, "matrix indices");
  const ByteView map = r.Take(fields::ReadCount(r, 1, "per-position groups"), "per-position groups");
  f.position_groups.assign(map.begin(), map.end());
  const ByteView rest = r.Take(r.remaining(), "trailing bytes");
  f.trailing.assign(rest.begin(), rest.end());
}

}  // namespace

CskrFile ParseCskr(ByteView data) {
  ByteReader r(data, Endian::Big);
  CskrFile f;
  f.groups.resize(fields::ReadCount(r, 4 + fields::Size(kGroupVertexCount), "weight groups"));
  for (size_t g = 0; g < f.groups.size(); ++g) {
    f.groups[g].weights = fields::ReadCounted<SkinWeight>(r, kSkinWeight, "weights of group " + std::to_string(g));
    fields::ReadAll(r, f.groups[g], kGroupVertexCount);
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
  fields::WriteCount(w, f.groups.size());
  for (const WeightGroup& g : f.groups) {
    fields::WriteCounted(w, g.weights, kSkinWeight);
    fields::WriteAll(w, g, kGroupVertexCount);
  }
  if (f.mp2) {
    fields::WriteCountedValues(w, f.matrix_indices);
    fields::WriteCount(w, f.position_groups.size());
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
