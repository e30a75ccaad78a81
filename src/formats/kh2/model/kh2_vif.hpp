// The VIF1 unpacking of a KH2 model packet into VU1 memory, and the vertex tables the
// game's microprogram reads from it (docs/formats/kh2.md, "Meshes").
#pragma once

#include <animkit/core/binary.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace animkit::kh2::detail {

inline constexpr size_t kVuQwords = 1024;  // VU1 data memory: 16 KB

// VU1 data memory after a packet's unpacks, 4 words a qword.
struct VuMemory {
  std::vector<uint32_t> words = std::vector<uint32_t>(kVuQwords * 4, 0);
  bool microprogram = false;  // the packet called the microprogram (MSCAL/MSCNT)
};

// Runs the VIF codes of packet (absolute offset base, for errors) up to its first
// microprogram call or its end. Throws animkit::Error on an unknown or cut code or an
// unpack outside VU memory.
VuMemory UnpackVif(ByteView packet, uint64_t base);

// One strip node: texture coordinates (1/4096 units), the vertex it draws, its flag.
struct StripNode {
  int32_t u = 0, v = 0, index = 0, flag = 0;
};

// Packet types (header word 0): an object model's packet (4-qword header: strip nodes with
// texture coordinates, colours, weight groups) and a shadow model's (3-qword header: strip
// nodes, positions on one bone each; no texture coordinates, colours or weights).
inline constexpr int32_t kPacketObject = 1;
inline constexpr int32_t kPacketShadow = 2;

// The vertex tables of one packet as the microprogram reads them (VpuPacket in OpenKH).
struct VertexBatch {
  int32_t type = kPacketObject;  // header word 0
  std::vector<StripNode> strip;
  std::vector<std::array<int32_t, 4>> colors;  // one per strip node, or none
  std::vector<std::array<float, 4>> positions;  // xyz pre-weighted, w the weight
  std::vector<int32_t> per_matrix;              // positions per matrix slot, in order
  // The vertices strip nodes index: each lists (matrix slot, position index) pairs.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> vertices;
  std::vector<std::string> warnings;  // what was read past (colours that are not per node...)
};

// The tables of memory (after UnpackVif); what throws names base (the packet's offset).
VertexBatch ReadVertexBatch(const VuMemory& memory, uint64_t base);

// Strip flags (the fourth word of a strip node).
inline constexpr int32_t kStripBoth = 0x00;     // a triangle drawn both ways
inline constexpr int32_t kStripStock = 0x10;    // only stored
inline constexpr int32_t kStripDraw = 0x20;     // a triangle
inline constexpr int32_t kStripInverse = 0x30;  // a triangle, the other winding

// Triangles of a strip: node indices, 3 each, in the order the game draws them.
std::vector<uint32_t> StripTriangles(const std::vector<StripNode>& strip);

}  // namespace animkit::kh2::detail
