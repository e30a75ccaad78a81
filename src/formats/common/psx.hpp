// What the PS1 formats (psx-anm, psx-anc) share: the frame rate their headers imply.
#pragma once

#include "formats/common/options.hpp"

#include <array>
#include <cstdint>

namespace animkit::psx {

// --psx-rate, declared by both formats (inline: initialized before the descriptors that copy its spec).
inline const NumberOption<double> kRateOption{
    {.name = "psx-rate", .help = "PS1 ANM/ANC frames per second (0: the header's second field when 1..240, else 60)",
     .default_value = "0", .min = 0, .max = 1000}};

// The header both open with: the 0x8000 marker (checked) and a second field.
struct Header {
  uint16_t marker = 0;
  int16_t unknown = 0;
};
Header ReadHeader(ByteReader& r);
// Reads the header into the marker and unknown fields that both files keep.
template <class File>
void ReadHeaderInto(ByteReader& r, File& file) {
  const Header header = ReadHeader(r);
  file.marker = header.marker;
  file.unknown = header.unknown;
}

// A rotation, scale or position triple as `info` shows it.
Value Triple(const std::array<int16_t, 3>& v);

// The rate PS1 ANM and ANC files imply: override when > 0, else the header's
// second field when it is in 1..240 (unverified: it looks like a frame rate), else 60.
double RateFromHeader(int16_t header_unknown, double override_rate);

}  // namespace animkit::psx
