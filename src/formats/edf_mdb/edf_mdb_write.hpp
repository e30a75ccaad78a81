// Shared by the MDB reader's and writer's files: stored vertex values, and a mesh in the
// file's own space with its vertex bytes.
#pragma once

#include <animkit/formats/edf_mdb.hpp>

namespace animkit::edf_mdb::write {

uint16_t HalfBits(float f);  // round to nearest even
float HalfValue(uint16_t h);
// One stored element of type at p as four floats (missing components 0; ubyte4 as 0..255).
std::array<float, 4> ElementValue(const uint8_t* p, uint32_t type);
// A mesh's declared layout as `info` and the decoded metadata list it.
Value LayoutValue(const StoredMesh& m);

// A mesh as the file stores it: positions and normals in the file's space, bone indices global.
struct FileMesh {
  std::string name;
  std::vector<Vec3> positions, normals;
  std::vector<std::array<float, 2>> uvs;
  std::vector<std::array<float, 4>> colors;
  std::vector<std::array<uint8_t, 4>> joints;
  std::vector<std::array<float, 4>> weights;
  std::vector<uint32_t> triangles;
};

// base: the template's vertices (same layout), or empty; keep[v]: vertex v is the template's
// (every byte kept); the others get their elements written and tangent frames computed from
// the triangles and uvs. binormal_sign -1 negates computed binormals (EDF 6).
Bytes BuildVertices(const std::vector<StoredElement>& layout, uint16_t stride, const FileMesh& m, const Bytes& base,
                    const std::vector<bool>& keep, float binormal_sign);
Bytes BuildIndices(const FileMesh& m);
// The positions a mesh stores (its channel-0 "position" element; empty without one).
std::vector<Vec3> StoredPositions(const StoredMesh& m);

// The stock layout of a version (docs/formats/edf_mdb.md "Writing models").
std::vector<StoredElement> StockLayout(uint32_t version, bool skinned, bool colored, uint16_t& stride);

std::string Lower(std::string s);
std::u16string Wide(const std::string& utf8);

// What a mesh loses on its way into an MDB, one warning each: lines (an MDB mesh is a
// triangle list) and influences past 4 (metadata kMeshInfluencesKey: an MDB vertex names 4).
void WarnLosses(const Mesh& m, std::vector<std::string>& warnings);

}  // namespace animkit::edf_mdb::write
