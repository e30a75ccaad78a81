// VIF1 unpacking (EE User's Manual, "VIFcode Reference") of KH2 model packets, and the
// vertex tables the game's microprogram reads (facts from OpenKH's VifUnpacker/VpuPacket).
#include "formats/kh2/model/kh2_vif.hpp"

#include <animkit/core/limits.hpp>

#include <bit>

namespace animkit::kh2::detail {

namespace {

[[noreturn]] void Fail(uint64_t at, const std::string& message) { throw Error::AtOffset(at, message); }

struct VifState {
  uint8_t cycle_cl = 1, cycle_wl = 1;
  uint32_t mask = 0;
  std::array<uint32_t, 4> row{}, col{};
};

// One element of an unpack's source (vl: 0 = 32, 1 = 16, 2 = 8 bits), extended.
uint32_t Element(ByteView p, size_t at, int vl, bool is_unsigned) {
  if (vl == 0) return le::Load32(p.data() + at);
  if (vl == 1) {
    const uint16_t h = le::Load16(p.data() + at);
    return is_unsigned ? h : uint32_t(int32_t(int16_t(h)));
  }
  return is_unsigned ? p[at] : uint32_t(int32_t(int8_t(p[at])));
}

// UNPACK: num vectors of vn+1 elements into VU memory from qword address addr.
size_t Unpack(ByteView p, size_t pc, uint32_t code, const VifState& s, VuMemory& mem, uint64_t base) {
  const int cmd = int(code >> 24) & 0x7F;
  const int vn = (cmd >> 2) & 3, vl = cmd & 3;
  const bool masked = (cmd >> 4) & 1;
  const size_t num = ((code >> 16) & 0xFF) == 0 ? 256 : ((code >> 16) & 0xFF);
  const size_t addr = code & 0x3FF;
  const bool is_unsigned = (code >> 14) & 1;
  if (vn == 3 && vl == 3) Fail(base + pc - 4, "VIF UNPACK V4-5 (16-bit colour) is not used by KH2 models");
  const size_t elements = size_t(vn) + 1, bits = 32u >> vl;
  const size_t bytes = (num * elements * bits / 8 + 3) / 4 * 4;
  if (pc + bytes > p.size())
    Fail(base + pc - 4, "VIF UNPACK of " + std::to_string(num) + " vectors needs " + Hex(bytes) +
                            " bytes; the packet has " + Hex(p.size() - pc) + " left");
  if (s.cycle_wl == 0 || s.cycle_wl > s.cycle_cl)
    Fail(base + pc - 4, "VIF STCYCL with WL > CL (filling write) is not used by KH2 models");
  for (size_t i = 0; i < num; ++i) {
    const size_t q = addr + (i / s.cycle_wl) * s.cycle_cl + i % s.cycle_wl;
    if (q >= kVuQwords)
      Fail(base + pc - 4, "VIF UNPACK writes qword " + Hex(q) + ", past VU memory (" + Hex(kVuQwords) + " qwords)");
    std::array<uint32_t, 4> v{};
    for (size_t e = 0; e < elements; ++e) v[e] = Element(p, pc + (i * elements + e) * bits / 8, vl, is_unsigned);
    if (vn == 0) v = {v[0], v[0], v[0], v[0]};  // S: the value in every field
    if (vn == 1) v[2] = v[0], v[3] = v[1];       // V2: z, w repeat x, y (as PCSX2 does)
    const uint32_t cycle_mask = (s.mask >> (8 * std::min<size_t>(i % s.cycle_wl, 3))) & 0xFF;
    for (int f = 0; f < 4; ++f) {
      const int m = masked ? int(cycle_mask >> (2 * f)) & 3 : 0;
      uint32_t& dst = mem.words[q * 4 + size_t(f)];
      if (m == 0) dst = (vn == 2 && f == 3) ? 0 : v[size_t(f)];  // V3: w undefined, 0 here
      else if (m == 1) dst = s.row[size_t(f)];
      else if (m == 2) dst = s.col[std::min<size_t>(i % s.cycle_wl, 3)];
    }
  }
  return pc + bytes;
}

}  // namespace

VuMemory UnpackVif(ByteView p, uint64_t base) {
  VuMemory mem;
  VifState s;
  size_t pc = 0;
  auto need = [&](size_t n, const char* what) {
    if (pc + n > p.size()) Fail(base + pc, std::string("VIF ") + what + " is cut by the end of the packet");
  };
  while (pc + 4 <= p.size()) {
    const uint32_t code = le::Load32(p.data() + pc);
    pc += 4;
    const int cmd = int(code >> 24) & 0x7F;
    if ((cmd & 0x60) == 0x60) {
      pc = Unpack(p, pc, code, s, mem, base);
      continue;
    }
    switch (cmd) {
      case 0x00: case 0x02: case 0x03: case 0x04: case 0x05: case 0x06: case 0x07:  // NOP, OFFSET..MARK
      case 0x10: case 0x11: case 0x13: break;                                        // FLUSHE, FLUSH, FLUSHA
      case 0x01: s.cycle_cl = uint8_t(code & 0xFF), s.cycle_wl = uint8_t((code >> 8) & 0xFF); break;
      case 0x14: case 0x15: case 0x17: mem.microprogram = true; return mem;  // MSCAL, MSCALF, MSCNT
      case 0x20: need(4, "STMASK"), s.mask = le::Load32(p.data() + pc), pc += 4; break;
      case 0x30: case 0x31: {
        need(16, cmd == 0x30 ? "STROW" : "STCOL");
        auto& reg = cmd == 0x30 ? s.row : s.col;
        for (size_t k = 0; k < 4; ++k) reg[k] = le::Load32(p.data() + pc + 4 * k);
        pc += 16;
        break;
      }
      default: Fail(base + pc - 4, "unknown VIF code " + Hex(uint32_t(cmd)) + " (KH2 model packets use NOP, "
                                   "STCYCL, STMASK, STROW, STCOL, UNPACK and MSCAL/MSCNT)");
    }
  }
  return mem;
}

namespace {

// A table of count qwords from qword offset in VU memory, checked.
size_t TableAt(int32_t offset, int64_t count, size_t per_qword, const char* what, uint64_t base) {
  if (offset < 0 || count < 0 || size_t(offset) > kVuQwords ||
      uint64_t(count) > (kVuQwords - size_t(offset)) * per_qword)
    Fail(base, std::string("the packet's ") + what + " table (" + std::to_string(count) + " at qword " +
                   std::to_string(offset) + ") lies outside VU memory (" + std::to_string(kVuQwords) + " qwords)");
  return size_t(offset) * 4;
}

}  // namespace

VertexBatch ReadVertexBatch(const VuMemory& mem, uint64_t base) {
  const auto& w = mem.words;
  auto i32 = [&](size_t k) { return int32_t(w[k]); };
  VertexBatch b;
  b.type = i32(0);
  // Object header (qwords 0-3): strip count/offset 4/5, matrix-count table 6, colours 8/9,
  // weight groups 10/11, positions 12/13, matrix slots 15. Shadow header (qwords 0-2, the
  // strip nodes may start at qword 3): strip 4/5, matrix-count table 6, positions 8/9, word
  // 10 (0 in every known file), matrix slots 11.
  const bool shadow = b.type == kPacketShadow;
  if (!shadow && b.type != kPacketObject)
    b.warnings.push_back("offset " + Hex(base) + ": packet type " + std::to_string(b.type) +
                         " (1 object, 2 shadow); read as an object packet");
  const int32_t strip_count = i32(4), strip_at = i32(5), count_at = i32(6);
  const int32_t color_count = shadow ? 0 : i32(8), color_at = shadow ? 0 : i32(9);
  const int32_t group_count = shadow ? 0 : i32(10), group_at = shadow ? 0 : i32(11);
  const int32_t pos_count = i32(shadow ? 8 : 12), pos_at = i32(shadow ? 9 : 13), slots = i32(shadow ? 11 : 15);
  if (shadow && i32(10) != 0)
    b.warnings.push_back("offset " + Hex(base) + ": shadow packet header word 10 is " + std::to_string(i32(10)) +
                         " (0 in every known file); not read");
  size_t k = TableAt(strip_at, strip_count, 1, "strip node", base);
  b.strip.resize(size_t(strip_count));
  for (StripNode& n : b.strip) n = {i32(k), i32(k + 1), i32(k + 2), i32(k + 3)}, k += 4;
  // Colours are per strip node only when the counts match (as OpenKH's reader applies them).
  if (color_count != 0 && color_count != strip_count) {
    b.warnings.push_back("offset " + Hex(base) + ": the packet has " + std::to_string(color_count) +
                         " colours for " + std::to_string(strip_count) + " strip nodes; its colours are left out");
  } else {
    k = TableAt(color_at, color_count, 1, "colour", base);
    b.colors.resize(size_t(color_count));
    for (auto& c : b.colors) c = {i32(k), i32(k + 1), i32(k + 2), i32(k + 3)}, k += 4;
  }
  k = TableAt(pos_at, pos_count, 1, "position", base);
  b.positions.resize(size_t(pos_count));
  for (auto& p : b.positions) {
    for (size_t f = 0; f < 4; ++f) p[f] = std::bit_cast<float>(w[k + f]);
    k += 4;
  }
  k = TableAt(count_at, slots, 4, "matrix count", base);
  b.per_matrix.assign(w.begin() + std::ptrdiff_t(k), w.begin() + std::ptrdiff_t(k) + slots);
  // Position i belongs to the slot whose run of per_matrix covers it.
  std::vector<std::pair<uint32_t, uint32_t>> flat;
  for (size_t slot = 0; slot < b.per_matrix.size(); ++slot) {
    const int32_t n = b.per_matrix[slot];
    if (n < 0 || size_t(n) > b.positions.size() - flat.size())
      Fail(base, "matrix slot " + std::to_string(slot) + " claims " + std::to_string(n) + " positions; the packet has " +
                     std::to_string(b.positions.size() - flat.size()) + " left");
    for (int32_t j = 0; j < n; ++j) flat.emplace_back(uint32_t(slot), uint32_t(flat.size()));
  }
  if (group_count <= 0) {
    for (const auto& f : flat) b.vertices.push_back({f});
    return b;
  }
  // Weight groups: group_count counts, then per amount a (1-based influences a + 1) that many
  // vertices of a + 1 position indices, each list starting on a qword.
  if (group_count > 64) Fail(base, "the packet has " + std::to_string(group_count) + " weight groups (at most 64 read)");
  k = TableAt(group_at, group_count, 4, "weight group", base);
  std::vector<int32_t> counts(w.begin() + std::ptrdiff_t(k), w.begin() + std::ptrdiff_t(k) + group_count);
  k += size_t(group_count);
  for (size_t a = 0; a < counts.size(); ++a) {
    k = (k + 3) / 4 * 4;
    const uint64_t need = uint64_t(std::max(counts[a], 0)) * (a + 1);
    if (counts[a] < 0 || k + need > w.size())
      Fail(base, "weight group " + std::to_string(a + 1) + " (" + std::to_string(counts[a]) +
                     " vertices) runs past VU memory");
    for (int32_t v = 0; v < counts[a]; ++v) {
      std::vector<std::pair<uint32_t, uint32_t>> refs;
      for (size_t j = 0; j <= a; ++j, ++k) {
        const uint32_t at = w[k];
        if (at >= flat.size())
          Fail(base, "a vertex of weight group " + std::to_string(a + 1) + " names position " + std::to_string(at) +
                         "; the packet's matrix slots cover " + std::to_string(flat.size()));
        refs.push_back(flat[at]);
      }
      b.vertices.push_back(std::move(refs));
    }
  }
  return b;
}

std::vector<uint32_t> StripTriangles(const std::vector<StripNode>& strip) {
  std::vector<uint32_t> tris;
  std::array<uint32_t, 4> ring{};
  size_t seen = 0;
  for (size_t i = 0; i < strip.size(); ++i) {
    ring[seen & 3] = uint32_t(i);
    ++seen;
    if (seen < 3) continue;  // a flag before the third node has no triangle to draw
    const uint32_t newest = ring[(seen - 1) & 3], middle = ring[(seen - 2) & 3], oldest = ring[(seen - 3) & 3];
    const int32_t flag = strip[i].flag;
    if (flag == kStripDraw || flag == kStripBoth) tris.insert(tris.end(), {newest, oldest, middle});
    if (flag == kStripInverse || flag == kStripBoth) tris.insert(tris.end(), {newest, middle, oldest});
  }
  return tris;
}

}  // namespace animkit::kh2::detail
