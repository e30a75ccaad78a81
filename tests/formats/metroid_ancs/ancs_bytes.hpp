// Big-endian bytes written by hand for the ANCS and EVNT tests (not through the writers
// under test).
#pragma once

#include <animkit/core/binary.hpp>

#include <bit>
#include <cstdint>

namespace animkit::test {

struct BigBytes {
  Bytes b;
  BigBytes& U8(uint8_t v) { return b.push_back(v), *this; }
  BigBytes& U16(uint16_t v) { return b.insert(b.end(), {uint8_t(v >> 8), uint8_t(v)}), *this; }
  BigBytes& U32(uint32_t v) {
    return b.insert(b.end(), {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)}), *this;
  }
  BigBytes& F32(float v) { return U32(std::bit_cast<uint32_t>(v)); }
  BigBytes& Str(const char* s) {
    for (; *s; ++s) b.push_back(static_cast<uint8_t>(*s));
    return U8(0);
  }
  BigBytes& Magic(const char* s) {
    for (; *s; ++s) b.push_back(static_cast<uint8_t>(*s));
    return *this;
  }
  BigBytes& Box() {
    for (int i = 0; i < 6; ++i) F32(float(i));
    return *this;
  }
  // A Play meta-animation: type 0, ANIM id, primitive index, name, CCharAnimTime start.
  BigBytes& Play(uint32_t anim_id, const char* name) { return U32(0).U32(anim_id).U32(0).Str(name).F32(0).U32(0); }
};

}  // namespace animkit::test
