// Metroid's seeds: how the ANIM encoder runs, and ANIM layouts it never writes.
#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

// An Echoes bit-packed ANIM with a scale part (the encoder writes none) and an empty
// descriptor: 3 frames keyed on 0 and 2, one delta key.
void AddEchoesLayouts(Corpus& corpus) {
  ByteWriter w(Endian::Big);
  w.U32(2), w.U32(0x40), w.U8(1), w.U8(1);
  w.F32(0.1f), w.F32(0.05f);
  for (uint32_t v : {0u, 1u, 0x7FFFu}) w.U32(v);
  w.F32(0.5f), w.F32(0.25f);
  for (uint32_t v : {2u, 1u, 3u, 0b101u, 2u}) w.U32(v);  // channels, unknown, 3 frames, bitmap, 2 descriptors
  w.U8(0);
  w.U16(1), w.I16(100), w.U8(2), w.I16(0), w.U8(1), w.I16(0), w.U8(1);  // rotation
  w.U16(0);                                                              // no translation
  w.U16(1), w.I16(4), w.U8(3), w.I16(4), w.U8(3), w.I16(4), w.U8(2);     // scale
  w.U8(1), w.U16(0), w.U16(0), w.U16(0);                                 // empty
  // W 1, rotation 1, -1, 0 (2, 1, 1 bits), scale 3, -4, 1 (3, 3, 2 bits): 13 bits.
  w.U32(0b01'100'011'0'1'01'1u);
  corpus.Add("metroid_anim", "echoes-scale.anim", w.Take());
}

// ANIM version 2 layouts: both key counts, and 32-bit deltas that wrap the 16-bit totals.
void AddAnimLayouts(Corpus& corpus) {
  auto anim = [](uint16_t keys, uint8_t width, uint32_t delta) {
    ByteWriter w(Endian::Big);
    for (uint32_t v : {2u, 0x40u, 0xFFFFFFFFu, 1u}) w.U32(v);
    w.F32(0.1f), w.F32(0.05f);
    for (uint32_t v : {3u, 1u, 0x7FFFu}) w.U32(v);
    w.F32(0.5f);
    for (uint32_t v : {1u, 1u, 3u, 0b101u, 1u, 1u}) w.U32(v);  // channels, 1, 3 frames, bitmap, channels, 1 descriptor
    w.U32(3), w.U16(keys);
    w.I16(-10182), w.U8(width), w.I16(0), w.U8(1), w.I16(0), w.U8(1);
    w.U16(keys);
    w.I16(5), w.U8(2), w.I16(-5), w.U8(2), w.I16(0), w.U8(0);
    // One delta key: W bit, X delta (width bits), Y, Z (1 bit each), translation X, Y (2 bits each).
    uint64_t bits = 0;
    size_t at = 0;
    auto put = [&](uint64_t v, unsigned n) {
      bits |= (v & ((uint64_t{1} << n) - 1)) << at;
      at += n;
    };
    put(1, 1), put(delta, width), put(1, 1), put(0, 1), put(1, 2), put(3, 2);
    for (size_t word = 0; word < (at + 31) / 32; ++word) w.U32(uint32_t(bits >> (32 * word)));
    return w.Take();
  };
  corpus.Add("metroid_anim", "keys-delta.anim", anim(1, 8, 0x7F));
  corpus.Add("metroid_anim", "keys-setbits.anim", anim(2, 8, 0x80));
  corpus.Add("metroid_anim", "delta32-wrap.anim", anim(1, 32, 0x80000447u));
  AddEchoesLayouts(corpus);
}

}  // namespace

const FormatSeeds kMetroidSeeds{
    {{"metroid-anim",
      {{}, {{"anim-version", "0"}}, {{"rotation-divisor", "7"}}, {{"max-error-rot", "0"}, {"max-error-pos", "0"}},
       {{"metroid-game", "2"}}, {{"metroid-game", "2"}, {"anim-version", "0"}}}},
     {"metroid-cinf", {{}, {{"metroid-game", "2"}}}}},
    AddAnimLayouts};

}  // namespace animkit::fuzz_corpus
