// CMPL: the LZSS codec of EDF archives (docs/formats/edf_rab.md, "CMPL").
#include <animkit/formats/edf_rab.hpp>

#include <animkit/core/error.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace animkit::edf_rab {

namespace {

constexpr int kRing = 4096;          // N
constexpr int kLookahead = 18;       // F: the longest match
constexpr int kThreshold = 2;        // matches this long or shorter are sent as literals
constexpr int kStartPosition = kRing - kLookahead;  // 0xFEE
constexpr int kNil = kRing;

uint32_t BigEndian32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }

uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Okumura's comparison of the F bytes from key and other, from byte 1 (byte 0 chose the tree):
// the first index where they differ (F when none) and in cmp the sign of the difference there
// (0 when none). Eight bytes at a time, the same answer as byte by byte.
int Compare(const uint8_t* key, const uint8_t* other, int& cmp) {
  static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);
  for (int at : {1, 9}) {
    const uint64_t a = Load64(key + at), b = Load64(other + at);
    if (a != b) {
      // Only the sign of cmp is used: the words in memory order compare as the bytes do.
      if constexpr (std::endian::native == std::endian::little) {
        cmp = __builtin_bswap64(a) > __builtin_bswap64(b) ? 1 : -1;
        return at + std::countr_zero(a ^ b) / 8;
      } else {
        cmp = a > b ? 1 : -1;
        return at + std::countl_zero(a ^ b) / 8;
      }
    }
  }
  cmp = int(key[17]) - int(other[17]);
  return cmp != 0 ? 17 : kLookahead;
}

// Okumura's binary search tree over the ring's positions, keyed by the F bytes from each
// position: the same node order and replacement rule give the same match choices. The two
// children sit in one array indexed by the comparison's sign, so the descent takes no
// data-dependent branch.
class MatchTree {
 public:
  MatchTree() {
    child_.fill(kNil);
    parent_.fill(kNil);
  }

  // text holds N + F - 1 bytes (the ring and the first F - 1 bytes again).
  void Insert(const uint8_t* text, int r) {
    int cmp = 1;
    const uint8_t* key = text + r;
    int p = kRing + 1 + key[0];
    Left(r) = Right(r) = kNil;
    match_length = 0;
    for (;;) {
      int& next = child_[size_t(cmp >= 0) * kNodes + size_t(p)];
      if (next == kNil) {
        next = r;
        parent_[size_t(r)] = p;
        return;
      }
      p = next;
      const int i = Compare(key, text + p, cmp);
      if (i > match_length) {
        match_position = p;
        if ((match_length = i) >= kLookahead) break;
      }
    }
    // A node with the same F bytes: r takes its place (the newer position wins).
    parent_[size_t(r)] = parent_[size_t(p)];
    Left(r) = Left(p);
    Right(r) = Right(p);
    parent_[size_t(Left(p))] = r;
    parent_[size_t(Right(p))] = r;
    if (Right(parent_[size_t(p)]) == p)
      Right(parent_[size_t(p)]) = r;
    else
      Left(parent_[size_t(p)]) = r;
    parent_[size_t(p)] = kNil;
  }

  void Delete(int p) {
    if (parent_[size_t(p)] == kNil) return;
    int q;
    if (Right(p) == kNil) {
      q = Left(p);
    } else if (Left(p) == kNil) {
      q = Right(p);
    } else {
      q = Left(p);
      if (Right(q) != kNil) {
        do q = Right(q);
        while (Right(q) != kNil);
        Right(parent_[size_t(q)]) = Left(q);
        parent_[size_t(Left(q))] = parent_[size_t(q)];
        Left(q) = Left(p);
        parent_[size_t(Left(p))] = q;
      }
      Right(q) = Right(p);
      parent_[size_t(Right(p))] = q;
    }
    parent_[size_t(q)] = parent_[size_t(p)];
    if (Right(parent_[size_t(p)]) == p)
      Right(parent_[size_t(p)]) = q;
    else
      Left(parent_[size_t(p)]) = q;
    parent_[size_t(p)] = kNil;
  }

  int match_position = 0, match_length = 0;

 private:
  // Nodes 0..N-1 are ring positions, N is "none", N + 1 + c the root of first byte c (its
  // tree hangs on its right).
  static constexpr size_t kNodes = kRing + 257;
  int& Left(int node) { return child_[size_t(node)]; }
  int& Right(int node) { return child_[kNodes + size_t(node)]; }
  std::array<int, 2 * kNodes> child_{};
  std::array<int, kNodes> parent_{};
};

}  // namespace

bool IsCmpl(ByteView data) { return data.size() >= 4 && std::memcmp(data.data(), "CMPL", 4) == 0; }

uint32_t CmplRawSize(ByteView data) {
  if (data.size() < kCmplHeaderSize)
    throw Error::AtOffset(0, "expected a CMPL header of 8 bytes, found " + std::to_string(data.size()));
  return BigEndian32(data.data() + 4);
}

Bytes Decompress(ByteView data, const Limits& limits) {
  if (!IsCmpl(data)) throw Error::AtOffset(0, "expected the magic 'CMPL'");
  const uint64_t raw = CmplRawSize(data);
  CheckLimit(raw, &Limits::max_member_bytes, limits, "the CMPL raw size", Place::At(4));
  const size_t end = data.size();
  // One stream byte gives at most 9 raw bytes (a 2-byte match of 18): a larger size is a lie.
  if (raw > uint64_t(end - kCmplHeaderSize) * 9)
    throw Error::AtOffset(4, "the CMPL raw size " + std::to_string(raw) + " is more than " +
                                 std::to_string(end - kCmplHeaderSize) + " stream bytes can hold");
  Bytes out(raw);
  uint8_t* o = out.data();
  const uint8_t* const o_end = o + raw;
  const uint8_t* in = data.data();
  std::array<uint8_t, kRing> ring{};
  unsigned r = kStartPosition;
  size_t pos = kCmplHeaderSize;
  auto ends_early = [&](size_t at) -> Error {
    return Error::AtOffset(at, "the CMPL stream ends with " + std::to_string(o - out.data()) + " of " +
                                   std::to_string(raw) + " bytes unpacked");
  };
  while (o < o_end) {
    if (pos >= end) throw ends_early(pos);
    unsigned flags = in[pos++] | 0x100u;  // the 9th bit marks the flag byte used up
    for (; flags != 1 && o < o_end; flags >>= 1) {
      if (flags & 1) {
        if (pos >= end) throw ends_early(pos);
        const uint8_t c = in[pos++];
        *o++ = c;
        ring[r] = c;
        r = (r + 1) & (kRing - 1);
      } else {
        if (end - pos < 2) throw ends_early(pos);
        const unsigned b0 = in[pos], b1 = in[pos + 1];
        unsigned from = (b0 << 4) | (b1 >> 4);
        const unsigned length = (b1 & 0xF) + 3;
        if (length > size_t(o_end - o))
          throw Error::AtOffset(pos, "a CMPL match of " + std::to_string(length) + " bytes overruns the raw size " +
                                         std::to_string(raw) + " (" + std::to_string(o_end - o) + " bytes left)");
        pos += 2;
        for (unsigned k = 0; k < length; ++k) {
          const uint8_t c = ring[from];
          from = (from + 1) & (kRing - 1);
          *o++ = c;
          ring[r] = c;
          r = (r + 1) & (kRing - 1);
        }
      }
    }
  }
  if (pos != end)
    throw Error::AtOffset(pos, "the CMPL stream goes on for " + std::to_string(end - pos) + " bytes past the raw size " +
                                   std::to_string(raw));
  return out;
}

Bytes Compress(ByteView raw) {
  if (raw.size() > UINT32_MAX) throw Error::General("a CMPL member holds at most 4 GiB");
  Bytes out;
  out.reserve(kCmplHeaderSize + raw.size() + raw.size() / 8 + 2);
  out.insert(out.end(), {'C', 'M', 'P', 'L'});
  const uint32_t size = uint32_t(raw.size());
  out.insert(out.end(), {uint8_t(size >> 24), uint8_t(size >> 16), uint8_t(size >> 8), uint8_t(size)});
  if (raw.empty()) return out;

  // The ring plus the first F - 1 bytes again, so comparisons need no wrap; zero-filled.
  std::vector<uint8_t> text(kRing + kLookahead - 1, 0);
  MatchTree tree;
  const uint8_t* input = raw.data();
  size_t next = 0;  // the next input byte
  const size_t input_end = raw.size();

  std::array<uint8_t, 17> code{};
  size_t code_size = 1;
  unsigned mask = 1;
  int s = 0, r = kStartPosition;
  int len = 0;
  for (; len < kLookahead && next < input_end; ++len) text[size_t(r + len)] = input[next++];
  for (int i = 1; i <= kLookahead; ++i) tree.Insert(text.data(), r - i);
  tree.Insert(text.data(), r);
  do {
    if (tree.match_length > len) tree.match_length = len;
    if (tree.match_length <= kThreshold) {
      tree.match_length = 1;
      code[0] = uint8_t(code[0] | mask);
      code[code_size++] = text[size_t(r)];
    } else {
      // The game's order: the high 8 bits of the position first.
      const int p = tree.match_position;
      code[code_size++] = uint8_t(p >> 4);
      code[code_size++] = uint8_t(((p & 0xF) << 4) | (tree.match_length - (kThreshold + 1)));
    }
    mask <<= 1;
    if (mask == 0x100) {
      out.insert(out.end(), code.begin(), code.begin() + std::ptrdiff_t(code_size));
      code[0] = 0;
      code_size = 1;
      mask = 1;
    }
    const int last_match_length = tree.match_length;
    int i = 0;
    for (; i < last_match_length && next < input_end; ++i) {
      const uint8_t c = input[next++];
      tree.Delete(s);
      text[size_t(s)] = c;
      if (s < kLookahead - 1) text[size_t(s + kRing)] = c;
      s = (s + 1) & (kRing - 1);
      r = (r + 1) & (kRing - 1);
      tree.Insert(text.data(), r);
    }
    while (i++ < last_match_length) {
      tree.Delete(s);
      s = (s + 1) & (kRing - 1);
      r = (r + 1) & (kRing - 1);
      if (--len) tree.Insert(text.data(), r);
    }
  } while (len > 0);
  if (code_size > 1) out.insert(out.end(), code.begin(), code.begin() + std::ptrdiff_t(code_size));
  return out;
}

}  // namespace animkit::edf_rab
