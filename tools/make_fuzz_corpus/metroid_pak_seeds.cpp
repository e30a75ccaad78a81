// The Metroid PAK's seeds, laid out by its builder: an MP1 PAK (zlib and raw members, named
// entries), an MP2 PAK (LZO segments over more than one block, raw segments), a repeated id, and
// the entries' streams alone for the unpacking target.
#include <animkit/formats/metroid_pak.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

Bytes PakPattern(size_t n, unsigned seed) {
  Bytes out(n);
  uint32_t x = seed;
  for (size_t i = 0; i < n; ++i) out[i] = uint8_t(i % 7 == 0 ? (x = x * 1103515245u + 12345u) >> 24 : i / 64);
  return out;
}

void AddMetroidPakLayouts(Corpus& corpus) {
  using metroid_pak::Packing;
  const Bytes small = PakPattern(300, 1), large = PakPattern(0x4000 + 200, 2), noise = PakPattern(64, 3);
  corpus.Add("metroid_pak", "mp1-zlib-raw-names.pak",
             metroid_pak::Build({{{'A', 'N', 'C', 'S'}, 0x11223344, small, Packing::Zlib, {"Samus", "samus_alt"}},
                                 {{'E', 'V', 'N', 'T'}, 0x55667788, noise, Packing::Raw, {}},
                                 {{'T', 'X', 'T', 'R'}, 0x99AABBCC, small, Packing::Zlib, {}}}));
  corpus.Add("metroid_pak", "mp2-segments.pak",
             metroid_pak::Build({{{'A', 'N', 'I', 'M'}, 0x42, large, Packing::Segments, {"Anim"}},
                                 {{'C', 'I', 'N', 'F'}, 0x43, noise, Packing::Segments, {}}}));
  corpus.Add("metroid_pak", "repeated-id.pak",
             metroid_pak::Build({{{'M', 'R', 'E', 'A'}, 7, noise, Packing::Raw, {}},
                                 {{'M', 'R', 'E', 'A'}, 7, small, Packing::Zlib, {}}}));
  corpus.Add("metroid_pak_unpack", "zlib-300.bin", metroid_pak::Compress(small, Packing::Zlib));
  corpus.Add("metroid_pak_unpack", "segments-lzo-16584.bin", metroid_pak::Compress(large, Packing::Segments));
  corpus.Add("metroid_pak_unpack", "segments-raw-64.bin", metroid_pak::Compress(noise, Packing::Segments));
}

}  // namespace

const FormatSeeds kMetroidPakSeeds{{}, AddMetroidPakLayouts};

}  // namespace animkit::fuzz_corpus
