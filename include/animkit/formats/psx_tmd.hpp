// PS1 TMD model (PsyQ 3D model format, as Vib-Ribbon uses it). Little-endian.
// Layout: u32 id 0x41, u32 flags (bit 0 FIXP), u32 object count, then 28-byte
// object records {vert_top, n_vert, normal_top, n_normal, prim_top, n_prim, scale}
// whose *_top offsets count from the object table (0x0C) when FIXP is 0; vertices
// and normals are 8 bytes (i16 x, y, z, pad); a primitive is a 4-byte header
// {u8 olen, u8 ilen, u8 flag, u8 mode} followed by ilen 32-bit words whose layout
// the mode and flag bytes select (docs/formats/psx_tmd.md lists every one).
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animkit::psx_tmd {

inline constexpr uint32_t kId = 0x41;
inline constexpr uint32_t kFlagFixp = 1;
inline constexpr uint32_t kHeaderSize = 12;
inline constexpr uint32_t kObjectRecordSize = 28;

// Mode byte: the code in bits 7..5, then per-code option bits.
inline constexpr uint8_t kCodePolygon = 1, kCodeLine = 2, kCodeSprite = 3;
inline constexpr uint8_t kModeGouraud = 0x10;   // IIP: polygons and lines
inline constexpr uint8_t kModeQuad = 0x08;      // polygons: 4 vertices
inline constexpr uint8_t kModeTextured = 0x04;  // polygons: TME (always set for sprites)
inline constexpr uint8_t kModeSemiTrans = 0x02; // ABE
inline constexpr uint8_t kModeNoBright = 0x01;  // TGE: polygons
// Flag byte.
inline constexpr uint8_t kFlagNoLight = 0x01;    // LGT: no light-source calculation
inline constexpr uint8_t kFlagDoubleSided = 0x02;  // FCE
inline constexpr uint8_t kFlagGradation = 0x04;  // GRD: one colour per vertex (lit, untextured)

// The three kinds Vib-Ribbon draws with.
inline constexpr uint8_t kModeLine = 0x40, kModeFlatTriangle = 0x21, kModeFlatQuad = 0x29;

struct Vertex {  // also used for normals (4.12 fixed point there)
  int16_t x = 0, y = 0, z = 0, pad = 0;
  bool operator==(const Vertex&) const = default;
};

struct Primitive {
  uint8_t olen = 0;  // GPU packet length in words, kept verbatim
  uint8_t flag = 0;
  uint8_t mode = 0;
  std::vector<uint32_t> words;  // the packet data; ilen = words.size()
  bool operator==(const Primitive&) const = default;
};

struct Object {
  uint32_t vert_top = 0, normal_top = 0, prim_top = 0;  // offsets as stored
  int32_t scale = 0;                                    // kept verbatim (unused by the game)
  std::vector<Vertex> vertices;
  std::vector<Vertex> normals;
  std::vector<Primitive> primitives;
};

// Bytes no object claims (padding between blocks, trailing data).
struct Gap {
  uint32_t offset = 0;
  Bytes bytes;
};

struct File {
  uint32_t id = kId;
  uint32_t flags = 0;
  uint32_t offset_base = kHeaderSize;  // absolute offset the *_top fields count from
  std::vector<Object> objects;
  std::vector<Gap> gaps;
};

// Where FIXP = 1 offsets count from (sources disagree): the file start or the object table.
enum class FixpBase { File, Table };

struct ParseSettings {
  FixpBase fixp_base = FixpBase::File;
};

enum class Kind { Polygon, Line, Sprite };

// What a primitive's mode and flag bytes say about its packet.
struct Layout {
  Kind kind = Kind::Polygon;
  int vertices = 0;    // 1 (sprite), 2 (line), 3 or 4
  int normals = 0;     // normal indices (lit polygons)
  int colors = 0;      // RGB words
  int uvs = 0;         // texture coordinate words
  bool lit = false;
  bool textured = false;
  bool gouraud = false;
  size_t words = 0;    // the ilen the layout needs
  bool size_word = false;     // sprites: a {W, H} word ends the packet
  uint16_t sprite_side = 0;   // fixed-size sprites: 1, 8 or 16 (0: free size, from W/H)
  std::string name;    // "flat triangle", "gouraud textured quad", "line", "sprite 8x8", ...
};

// The layout for mode/flag; nullopt for a code the format does not define. A fixed-size
// sprite (1x1, 8x8, 16x16) has no {W, H} word (2 words) unless the packet's own ilen is
// 3; without ilen the 2-word layout is given. A free-size sprite always has 3 words.
std::optional<Layout> LayoutOf(uint8_t mode, uint8_t flag, std::optional<size_t> ilen = std::nullopt);

// The fields of one primitive, read out of its words by its layout.
struct PrimitiveView {
  Layout layout;
  std::vector<uint16_t> vertices;
  std::vector<uint16_t> normals;
  std::vector<std::array<uint8_t, 3>> colors;
  std::vector<std::array<uint8_t, 2>> uvs;
  uint16_t cba = 0, tsb = 0;          // CLUT and texture page (textured kinds)
  uint16_t width = 0, height = 0;     // sprites
};
// p must have a defined layout with the right word count (Parse guarantees it).
PrimitiveView View(const Primitive& p);

// Builders for the geometry kinds (light-source calculation off, as Vib-Ribbon's).
Primitive MakeLine(uint16_t v0, uint16_t v1, std::array<uint8_t, 3> rgb);
Primitive MakeFlatTriangle(uint16_t v0, uint16_t v1, uint16_t v2, std::array<uint8_t, 3> rgb);
Primitive MakeFlatQuad(uint16_t v0, uint16_t v1, uint16_t v2, uint16_t v3, std::array<uint8_t, 3> rgb);

File Parse(ByteView data, const ParseSettings& settings = {});
// Writes the header, the object table and each block at its object's offsets;
// bytes nothing covers are the gaps (zero where there is none).
Bytes Serialize(const File& file);
// Assigns contiguous offsets (vertices, normals, primitives per object, after the
// table) and drops the gaps: for files built in memory.
void AssignOffsets(File& file);

// Total packet bytes of an object's primitives.
size_t PrimitiveBytes(const Object& object);

// One joint "#N" per object (rest identity, no parent) and one mesh per object.
// Polygons become triangles (quads split 0-1-2, 1-3-2), lines become lines, each
// vertex coloured by its primitive (value / 255); sprites have no geometry.
Scene DecodeScene(const File& file);
// Meshes -> objects: one object per mesh in order, triangles as flat triangles,
// lines as lines, coloured by the first vertex of each primitive; positions rounded.
File EncodeScene(const Scene& scene);

// The metadata keys a decoded TMD holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kFlags[] = "flags";                // scene: the header's flags word
inline constexpr char kObjectCount[] = "object_count";  // scene: the header's object count
inline constexpr std::array kScene{kSourceFormatKey, kFlags, kObjectCount};
}  // namespace metadata_keys

}  // namespace animkit::psx_tmd
