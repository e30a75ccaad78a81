// CMPL: golden streams written by hand from the bit layout (docs/formats/edf_rab.md, "CMPL"),
// damaged streams, and round trips over many inputs.
#include <animkit/formats/edf_rab.hpp>

#include "support/test_support.hpp"

#include <array>
#include <random>

namespace animkit {
namespace {

using test::Has;

Bytes Stream(uint32_t raw_size, std::initializer_list<uint8_t> body) {
  Bytes b = {'C', 'M', 'P', 'L', uint8_t(raw_size >> 24), uint8_t(raw_size >> 16), uint8_t(raw_size >> 8),
             uint8_t(raw_size)};
  b.insert(b.end(), body);
  return b;
}

Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }

// Both directions: the encoder makes the golden stream, the decoder reads it back.
void ExpectGolden(const Bytes& raw, const Bytes& stream) {
  EXPECT_EQ(edf_rab::Compress(raw), stream);
  EXPECT_EQ(edf_rab::Decompress(stream), raw);
}

TEST(EdfCmpl, EmptyInputIsTheBareHeader) { ExpectGolden({}, Stream(0, {})); }

TEST(EdfCmpl, LiteralsOnly) {
  // Flags LSB first, 1 = literal: three literals set bits 0..2.
  ExpectGolden(Text("ABC"), Stream(3, {0x07, 'A', 'B', 'C'}));
  // Ten literals: a full flag byte, then a second one for the last two.
  ExpectGolden(Text("ABCDEFGHIJ"), Stream(10, {0xFF, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 0x03, 'I', 'J'}));
}

TEST(EdfCmpl, AMatch) {
  // "ABCD" written at ring 0xFEE..0xFF1, then a 4-byte match of ring position 0xFEE:
  // b0 = 0xFEE >> 4 = 0xFE, b1 = (0xE << 4) | (4 - 3) = 0xE1; flags 1,1,1,1,0.
  ExpectGolden(Text("ABCDABCD"), Stream(8, {0x0F, 'A', 'B', 'C', 'D', 0xFE, 0xE1}));
}

TEST(EdfCmpl, AnOverlappingMatch) {
  // Six bytes copied from 0xFEE while they are written from 0xFF1: the copy reads what it wrote.
  ExpectGolden(Text("ABCABCABC"), Stream(9, {0x07, 'A', 'B', 'C', 0xFE, 0xE3}));
  // A run: one literal, then a match one byte behind.
  EXPECT_EQ(edf_rab::Decompress(Stream(7, {0x01, 'x', 0xFE, 0xE3})), Text("xxxxxxx"));
}

TEST(EdfCmpl, AMatchIntoTheInitialZeroRing) {
  // 20 zero bytes: 18 from ring 0xFDC (the zeroed part, the last of the 18 positions inserted
  // before 0xFEE), then two left that the encoder sends as literals (a match <= 2 bytes).
  Bytes zeros(20, 0);
  ExpectGolden(zeros, Stream(20, {0x06, 0xFD, 0xCF, 0x00, 0x00}));
  // Reading position 0 of the ring before anything was written there gives zeros.
  EXPECT_EQ(edf_rab::Decompress(Stream(5, {0x00, 0x00, 0x02})), Bytes(5, 0));
}

TEST(EdfCmpl, EveryTruncationIsAnErrorWithItsOffset) {
  const Bytes stream = edf_rab::Compress(Text("ABCDABCDABCDxyzxyzxyzxyz0123456789"));
  for (size_t n = 0; n < stream.size(); ++n) {
    const Bytes cut(stream.begin(), stream.begin() + std::ptrdiff_t(n));
    const std::string e = test::ErrorOf([&] { edf_rab::Decompress(cut); });
    EXPECT_TRUE(Has(e, "0x")) << n << ": " << e;
  }
}

TEST(EdfCmpl, DamagedStreamsAreErrors) {
  // A match running past the declared size: the match's offset (0xa) is named.
  EXPECT_TRUE(Has(test::ErrorOf([] { edf_rab::Decompress(Stream(3, {0x01, 'x', 0xFE, 0xE3})); }), "offset 0xa"));
  // Bytes left after the declared size.
  EXPECT_TRUE(Has(test::ErrorOf([] { edf_rab::Decompress(Stream(1, {0x01, 'x', 'y'})); }), "past the raw size"));
  // A size no stream of this length can hold.
  EXPECT_TRUE(Has(test::ErrorOf([] { edf_rab::Decompress(Stream(1000, {0x01, 'x'})); }), "offset 0x4"));
  // The limit on unpacked member bytes.
  Limits limits;
  limits.max_member_bytes = 2;
  EXPECT_TRUE(Has(test::ErrorOf([&] { edf_rab::Decompress(Stream(3, {0x07, 'A', 'B', 'C'}), limits); }),
                  "max-member-bytes"));
  EXPECT_TRUE(Has(test::ErrorOf([] { edf_rab::Decompress(Text("CMPX\0\0\0\0")); }), "CMPL"));
}


// The encoder as Okumura wrote it (byte-by-byte comparisons, a branch per step down the tree):
// the library's faster descent must choose the same matches.
constexpr int kRing = 4096, kLookahead = 18, kThreshold = 2, kStartPosition = kRing - kLookahead, kNil = kRing;

class ReferenceTree {
 public:
  ReferenceTree() {
    std::fill(right_.begin() + kRing + 1, right_.end(), kNil);
    std::fill(parent_.begin(), parent_.end(), kNil);
  }

  // text holds N + F - 1 bytes (the ring and the first F - 1 bytes again).
  void Insert(const uint8_t* text, int r) {
    int cmp = 1;
    const uint8_t* key = text + r;
    int p = kRing + 1 + key[0];
    right_[size_t(r)] = left_[size_t(r)] = kNil;
    match_length = 0;
    for (;;) {
      if (cmp >= 0) {
        if (right_[size_t(p)] != kNil) {
          p = right_[size_t(p)];
        } else {
          right_[size_t(p)] = r;
          parent_[size_t(r)] = p;
          return;
        }
      } else {
        if (left_[size_t(p)] != kNil) {
          p = left_[size_t(p)];
        } else {
          left_[size_t(p)] = r;
          parent_[size_t(r)] = p;
          return;
        }
      }
      const uint8_t* other = text + p;
      int i = 1;
      for (; i < kLookahead; ++i)
        if ((cmp = int(key[i]) - int(other[i])) != 0) break;
      if (i > match_length) {
        match_position = p;
        if ((match_length = i) >= kLookahead) break;
      }
    }
    // A node with the same F bytes: r takes its place (the newer position wins).
    parent_[size_t(r)] = parent_[size_t(p)];
    left_[size_t(r)] = left_[size_t(p)];
    right_[size_t(r)] = right_[size_t(p)];
    parent_[size_t(left_[size_t(p)])] = r;
    parent_[size_t(right_[size_t(p)])] = r;
    if (right_[size_t(parent_[size_t(p)])] == p)
      right_[size_t(parent_[size_t(p)])] = r;
    else
      left_[size_t(parent_[size_t(p)])] = r;
    parent_[size_t(p)] = kNil;
  }

  void Delete(int p) {
    if (parent_[size_t(p)] == kNil) return;
    int q;
    if (right_[size_t(p)] == kNil) {
      q = left_[size_t(p)];
    } else if (left_[size_t(p)] == kNil) {
      q = right_[size_t(p)];
    } else {
      q = left_[size_t(p)];
      if (right_[size_t(q)] != kNil) {
        do q = right_[size_t(q)];
        while (right_[size_t(q)] != kNil);
        right_[size_t(parent_[size_t(q)])] = left_[size_t(q)];
        parent_[size_t(left_[size_t(q)])] = parent_[size_t(q)];
        left_[size_t(q)] = left_[size_t(p)];
        parent_[size_t(left_[size_t(p)])] = q;
      }
      right_[size_t(q)] = right_[size_t(p)];
      parent_[size_t(right_[size_t(p)])] = q;
    }
    parent_[size_t(q)] = parent_[size_t(p)];
    if (right_[size_t(parent_[size_t(p)])] == p)
      right_[size_t(parent_[size_t(p)])] = q;
    else
      left_[size_t(parent_[size_t(p)])] = q;
    parent_[size_t(p)] = kNil;
  }

  int match_position = 0, match_length = 0;

 private:
  // Nodes 0..N-1 are ring positions, N is "none"; right_[N + 1 + c] is the root for first byte c.
  std::array<int, kRing + 1> left_{};
  std::array<int, kRing + 257> right_{};
  std::array<int, kRing + 1> parent_{};
};


Bytes ReferenceCompress(ByteView raw) {
  Bytes out;
  out.reserve(edf_rab::kCmplHeaderSize + raw.size() + raw.size() / 8 + 2);
  out.insert(out.end(), {'C', 'M', 'P', 'L'});
  const uint32_t size = uint32_t(raw.size());
  out.insert(out.end(), {uint8_t(size >> 24), uint8_t(size >> 16), uint8_t(size >> 8), uint8_t(size)});
  if (raw.empty()) return out;

  // The ring plus the first F - 1 bytes again, so comparisons need no wrap; zero-filled.
  std::vector<uint8_t> text(kRing + kLookahead - 1, 0);
  ReferenceTree tree;
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

// Inputs of the kinds the game packs and the worst cases of a ring coder.
std::vector<Bytes> Inputs() {
  std::vector<Bytes> inputs;
  std::mt19937 rng(42);
  for (size_t n : {1, 2, 3, 17, 18, 19, 100, 4095, 4096, 4097, 5000, 20000}) {
    Bytes random(n), runs(n), periodic(n), words(n);
    for (size_t i = 0; i < n; ++i) {
      random[i] = uint8_t(rng());
      runs[i] = uint8_t((i / 37) % 3 == 0 ? 0 : (i / 11) & 0xFF);
      periodic[i] = uint8_t("vertex-data-1234"[i % 16] + (i / 4096));
      words[i] = uint8_t("aaab"[rng() % 4]);
    }
    inputs.insert(inputs.end(), {random, runs, periodic, words, Bytes(n, 0), Bytes(n, 0xFF)});
  }
  // Vertex-like records: floats that repeat with small changes.
  Bytes vertices;
  for (int i = 0; i < 3000; ++i) {
    const float v[6] = {float(i % 50) * 0.25f, 1.0f, float(i / 50) * 0.5f, 0, 0, 1};
    const auto* p = reinterpret_cast<const uint8_t*>(v);
    vertices.insert(vertices.end(), p, p + sizeof v);
  }
  inputs.push_back(vertices);
  return inputs;
}

TEST(EdfCmpl, RoundTripsAndTheEncodersStreamsComeBack) {
  for (const Bytes& raw : Inputs()) {
    const Bytes stream = edf_rab::Compress(raw);
    ASSERT_EQ(edf_rab::Decompress(stream), raw) << raw.size();
    EXPECT_EQ(edf_rab::Compress(edf_rab::Decompress(stream)), stream);
    EXPECT_EQ(edf_rab::CmplRawSize(stream), raw.size());
    EXPECT_EQ(stream, ReferenceCompress(raw)) << raw.size();
  }
}

TEST(EdfCmpl, EveryByteChangedUnpacksWithinItsSizeOrFailsWithAnError) {
  const Bytes stream = edf_rab::Compress(Text("ABCDABCD abc abc abc abc 0123456789 0123456789 ABCDABCD"));
  for (size_t at = 0; at < stream.size(); ++at)
    for (int value = 0; value < 256; ++value) {
      Bytes changed = stream;
      changed[at] = uint8_t(value);
      try {
        EXPECT_EQ(edf_rab::Decompress(changed).size(), edf_rab::CmplRawSize(changed));
      } catch (const Error& e) {
        EXPECT_TRUE(e.byte_offset().has_value()) << e.what();
      }
    }
}

TEST(EdfCmpl, TheFastSearchChoosesTheMatchesOfTheReferenceEncoder) {
  std::mt19937 rng(7);
  for (int n = 0; n < 300; ++n) {
    // Small alphabets and copied spans give long, many-way ties: the cases a changed
    // descent would choose differently in.
    const size_t size = rng() % 9000;
    const uint32_t alphabet = 1 + rng() % (n % 3 == 0 ? 4 : 256);
    Bytes raw;
    while (raw.size() < size) {
      if (raw.size() > 20 && rng() % 3 == 0) {
        const size_t from = rng() % raw.size(), length = 1 + rng() % 40;
        for (size_t k = 0; k < length && raw.size() < size; ++k) raw.push_back(raw[from + k]);
      } else {
        raw.push_back(uint8_t(rng() % alphabet));
      }
    }
    ASSERT_EQ(edf_rab::Compress(raw), ReferenceCompress(raw)) << n;
  }
  const Bytes real = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (!real.empty()) {
    EXPECT_EQ(edf_rab::Compress(real), ReferenceCompress(real));
  }
}

}  // namespace
}  // namespace animkit
