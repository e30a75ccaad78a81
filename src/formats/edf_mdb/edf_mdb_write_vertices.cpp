// Vertex and index bytes of a written MDB mesh, in the layout the mesh declares.
#include "edf_mdb_write.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>

namespace animkit::edf_mdb::write {
namespace {

float Dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 Cross3(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
Vec3 Unit(Vec3 v, Vec3 fallback) {
  const float len = std::sqrt(Dot3(v, v));
  return len > 1e-12f && std::isfinite(len) ? v * (1 / len) : fallback;
}

// Per-vertex tangent (dP/du) and binormal (dP/dv) from the triangles and uvs, orthogonal to
// the normal.
void TangentFrames(const FileMesh& m, std::vector<Vec3>& tangents, std::vector<Vec3>& binormals) {
  const size_t n = m.positions.size();
  tangents.assign(n, {}), binormals.assign(n, {});
  if (m.uvs.size() == n) {
    for (size_t t = 0; t + 2 < m.triangles.size(); t += 3) {
      const uint32_t a = m.triangles[t], b = m.triangles[t + 1], c = m.triangles[t + 2];
      const Vec3 e1 = m.positions[b] - m.positions[a], e2 = m.positions[c] - m.positions[a];
      const float du1 = m.uvs[b][0] - m.uvs[a][0], dv1 = m.uvs[b][1] - m.uvs[a][1];
      const float du2 = m.uvs[c][0] - m.uvs[a][0], dv2 = m.uvs[c][1] - m.uvs[a][1];
      const float det = du1 * dv2 - du2 * dv1;
      if (std::fabs(det) < 1e-12f) continue;
      const Vec3 tu = (e1 * dv2 - e2 * dv1) * (1 / det), tv = (e2 * du1 - e1 * du2) * (1 / det);
      for (uint32_t v : {a, b, c}) tangents[v] = tangents[v] + tu, binormals[v] = binormals[v] + tv;
    }
  }
  for (size_t v = 0; v < n; ++v) {
    const Vec3 normal = m.normals.size() == n ? m.normals[v] : Vec3{0, 1, 0};
    const Vec3 any = std::fabs(normal.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    const Vec3 t = Unit(tangents[v] - normal * Dot3(normal, tangents[v]), Unit(Cross3(any, normal), {1, 0, 0}));
    Vec3 b = Cross3(normal, t);
    if (Dot3(b, binormals[v]) < 0) b = b * -1.0f;
    tangents[v] = t, binormals[v] = b;
  }
}

// Writes up to `count` components of v; the others (w) stay as the base bytes hold them.
void PutElement(uint8_t* p, uint32_t type, std::array<float, 4> v, size_t count) {
  for (float& x : v) x += 0.0f;  // -0 as +0: computed frames write the bytes stock files hold
  switch (ElementType(type)) {
    case ElementType::Float4: for (size_t i = 0; i < std::min<size_t>(count, 4); ++i) le::StoreF32(p + 4 * i, v[i]); break;
    case ElementType::Float3: for (size_t i = 0; i < std::min<size_t>(count, 3); ++i) le::StoreF32(p + 4 * i, v[i]); break;
    case ElementType::Float2: for (size_t i = 0; i < std::min<size_t>(count, 2); ++i) le::StoreF32(p + 4 * i, v[i]); break;
    case ElementType::Half4:
      for (size_t i = 0; i < std::min<size_t>(count, 4); ++i) {
        le::Store16(p + 2 * i, HalfBits(v[i]));
      }
      break;
    case ElementType::UByte4:
      for (size_t i = 0; i < std::min<size_t>(count, 4); ++i) p[i] = uint8_t(std::clamp(v[i], 0.0f, 255.0f) + 0.5f);
      break;
  }
}

// The fourth component 1 where a new vertex has no base bytes (positions and frames of stock files).
void PutOne(uint8_t* p, uint32_t type) {
  if (ElementType(type) == ElementType::Float4) le::StoreF32(p + 12, 1);
  if (ElementType(type) == ElementType::Half4) le::Store16(p + 6, 0x3C00);  // half 1.0
}

}  // namespace

uint16_t HalfBits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = uint16_t((x >> 16) & 0x8000);
  const uint32_t abs = x & 0x7FFFFFFF;
  if (abs >= 0x7F800000) return uint16_t(sign | 0x7C00 | (abs > 0x7F800000 ? 0x200 : 0));  // inf, NaN
  if (abs >= 0x477FF000) return uint16_t(sign | 0x7C00);                                       // overflow
  if (abs < 0x38800000) {  // subnormal half: round the value times 2^24
    const float scaled = std::bit_cast<float>(abs) * 16777216.0f;
    return uint16_t(sign | uint16_t(std::nearbyint(scaled)));
  }
  const uint32_t rounded = abs + 0xFFF + ((abs >> 13) & 1);  // nearest, ties to even
  return uint16_t(sign | ((rounded - 0x38000000) >> 13));
}

float HalfValue(uint16_t h) {
  const uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  float magnitude;
  if (exponent == 0) magnitude = std::ldexp(float(mantissa), -24);
  else if (exponent == 31) magnitude = mantissa ? NAN : INFINITY;
  else magnitude = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

std::string Lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::u16string Wide(const std::string& utf8) {
  const std::vector<uint16_t> u = Utf16FromUtf8(utf8);
  return std::u16string(u.begin(), u.end());
}

Bytes BuildVertices(const std::vector<StoredElement>& layout, uint16_t stride, const FileMesh& m, const Bytes& base,
                    const std::vector<bool>& keep, float binormal_sign) {
  const size_t n = m.positions.size();
  std::vector<Vec3> tangents, binormals;
  TangentFrames(m, tangents, binormals);
  Bytes out(n * stride, 0);
  for (size_t v = 0; v < n; ++v) {
    uint8_t* vertex = out.data() + v * stride;
    const bool has_base = (v + 1) * stride <= base.size();
    if (has_base) std::memcpy(vertex, base.data() + v * stride, stride);
    if (has_base && v < keep.size() && keep[v]) continue;  // unedited: every byte as the template's
    for (const StoredElement& e : layout) {
      uint8_t* p = vertex + e.offset;
      const std::string name = Lower(e.name);
      if (!has_base) PutOne(p, e.type);
      if (name == "position") {
        const Vec3 q = m.positions[v];
        PutElement(p, e.type, {q.x, q.y, q.z, 1}, 4);
      } else if (name == "normal" && m.normals.size() == n) {
        const Vec3 q = m.normals[v];
        PutElement(p, e.type, {q.x, q.y, q.z, 0}, 3);
      } else if (name == "tangent" || name == "binormal") {
        const Vec3 q = name == "tangent" ? tangents[v] : binormals[v] * binormal_sign;
        PutElement(p, e.type, {q.x, q.y, q.z, 0}, 3);
      } else if (name == "texcoord" && m.uvs.size() == n && (e.channel == 0 || !has_base)) {
        PutElement(p, e.type, {m.uvs[v][0], m.uvs[v][1], 0, 0}, 2);
      } else if (name == "color" && m.colors.size() == n) {
        std::array<float, 4> c = m.colors[v];
        if (ElementType(e.type) == ElementType::UByte4)
          for (float& x : c) x = std::clamp(x, 0.0f, 1.0f) * 255.0f;
        PutElement(p, e.type, c, 4);
      } else if (name == "blendindices" && m.joints.size() == n) {
        const auto& j = m.joints[v];
        PutElement(p, e.type, {float(j[0]), float(j[1]), float(j[2]), float(j[3])}, 4);
      } else if (name == "blendweight" && m.weights.size() == n) {
        std::array<float, 4> w = m.weights[v];
        if (ElementType(e.type) == ElementType::UByte4)
          for (float& x : w) x *= 255.0f;
        PutElement(p, e.type, w, 4);
      }
    }
  }
  return out;
}

std::array<float, 4> ElementValue(const uint8_t* p, uint32_t type) {
  std::array<float, 4> v{};
  switch (ElementType(type)) {
    case ElementType::Float4: for (size_t i = 0; i < 4; ++i) v[i] = le::LoadF32(p + 4 * i); break;
    case ElementType::Float3: for (size_t i = 0; i < 3; ++i) v[i] = le::LoadF32(p + 4 * i); break;
    case ElementType::Float2: for (size_t i = 0; i < 2; ++i) v[i] = le::LoadF32(p + 4 * i); break;
    case ElementType::Half4: for (size_t i = 0; i < 4; ++i) v[i] = HalfValue(le::Load16(p + 2 * i)); break;
    case ElementType::UByte4: for (size_t i = 0; i < 4; ++i) v[i] = float(p[i]); break;
  }
  return v;
}

Value LayoutValue(const StoredMesh& m) {
  Value layout = Value::array();
  for (const StoredElement& e : m.layout)
    layout.push_back({{"name", AsciiName(e.name)}, {"type", e.type}, {"offset", e.offset}, {"channel", e.channel}});
  return layout;
}

std::vector<Vec3> StoredPositions(const StoredMesh& m) {
  std::vector<Vec3> out;
  for (const StoredElement& e : m.layout) {
    if (e.channel != 0 || Lower(e.name) != "position" || e.offset + ElementBytes(e.type) > m.stride) continue;
    for (size_t v = 0; v < m.VertexCount(); ++v) {
      const std::array<float, 4> c = ElementValue(m.vertices.data() + v * m.stride + e.offset, e.type);
      out.push_back({c[0], c[1], c[2]});
    }
    break;
  }
  return out;
}

void WarnLosses(const Mesh& m, std::vector<std::string>& warnings) {
  if (!m.lines.empty())
    warnings.push_back("mesh '" + m.name + "': " + std::to_string(m.lines.size() / 2) +
                       " lines not written (an MDB mesh is a triangle list)");
  const auto over = m.metadata.find(kMeshInfluencesKey);
  if (over == m.metadata.end() || !over->is_array() || over->empty()) return;
  double dropped = 0;
  for (const Value& e : *over) {
    if (!e.is_object() || !e.contains("weights") || !e["weights"].is_array()) continue;
    std::vector<double> w;
    for (const Value& x : e["weights"]) w.push_back(x.is_number() ? x.get<double>() : 0.0);
    std::sort(w.rbegin(), w.rend());
    double past = 0;
    for (size_t k = 4; k < w.size(); ++k) past += w[k];
    dropped = std::max(dropped, past);
  }
  warnings.push_back("mesh '" + m.name + "': " + std::to_string(over->size()) +
                     " vertices have more than 4 influences; an MDB vertex holds 4: the 4 heaviest are written, "
                     "renormalised (the largest share of a vertex's weight left out: " + std::to_string(dropped) + ")");
}

Bytes BuildIndices(const FileMesh& m) {
  Bytes out;
  out.reserve(m.triangles.size() * 2);
  for (uint32_t i : m.triangles) le::Append16(out, uint16_t(i));
  return out;
}

std::vector<StoredElement> StockLayout(uint32_t version, bool skinned, bool colored, uint16_t& stride) {
  std::vector<StoredElement> layout;
  uint32_t at = 0;
  auto add = [&](ElementType t, const char* name, uint32_t channel = 0) {
    layout.push_back({.type = uint32_t(t), .offset = at, .channel = channel, .name = name});
    at += uint32_t(ElementBytes(uint32_t(t)));
  };
  const bool edf6 = version == kVersionEdf6;
  if (skinned && !edf6) add(ElementType::Float4, "BLENDWEIGHT"), add(ElementType::UByte4, "BLENDINDICES");
  add(ElementType::Half4, "position"), add(ElementType::Half4, "normal");
  add(ElementType::Half4, "binormal"), add(ElementType::Half4, "tangent");
  add(ElementType::Float2, "texcoord", 0), add(ElementType::Float2, "texcoord", 1);
  if (colored) add(ElementType::UByte4, "color");
  if (skinned && edf6) add(ElementType::Float4, "BLENDWEIGHT"), add(ElementType::UByte4, "BLENDINDICES");
  stride = uint16_t(at);
  return layout;
}

}  // namespace animkit::edf_mdb::write
