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


// FNV-1a over streams, each length first: the encoder's choice of matches pinned. The digests
// were recorded when a second encoder as Okumura wrote it (byte-by-byte comparisons, a branch
// per step down the tree) chose the same streams as the library's faster descent.
uint64_t Digest(const std::vector<Bytes>& streams) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto add = [&](uint8_t b) { h = (h ^ b) * 0x100000001b3ull; };
  for (const Bytes& s : streams) {
    for (int k = 0; k < 8; ++k) add(uint8_t(uint64_t(s.size()) >> (8 * k)));
    for (uint8_t b : s) add(b);
  }
  return h;
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
  std::vector<Bytes> streams;
  for (const Bytes& raw : Inputs()) {
    const Bytes stream = edf_rab::Compress(raw);
    ASSERT_EQ(edf_rab::Decompress(stream), raw) << raw.size();
    EXPECT_EQ(edf_rab::Compress(edf_rab::Decompress(stream)), stream);
    EXPECT_EQ(edf_rab::CmplRawSize(stream), raw.size());
    streams.push_back(stream);
  }
  EXPECT_EQ(Digest(streams), 0xc3e24be697c85d87ull);
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

TEST(EdfCmpl, TheEncoderChoosesTheRecordedMatches) {
  std::vector<Bytes> streams;
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
    streams.push_back(edf_rab::Compress(raw));
  }
  EXPECT_EQ(Digest(streams), 0x084fcdaff81f04f0ull);
  const Bytes real = test::FixtureBytes("edf/airtortoise_missile.mdb");
  if (!real.empty()) {
    EXPECT_EQ(Digest({edf_rab::Compress(real)}), 0x3dfb30eb1b9a5f4cull);
  }
}

}  // namespace
}  // namespace animkit
