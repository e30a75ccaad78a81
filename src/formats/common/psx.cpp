#include "formats/common/psx.hpp"

namespace animkit::psx {

Header ReadHeader(ByteReader& r) {
  Header h;
  h.marker = r.U16("the 0x8000 marker");
  if (h.marker != 0x8000) r.FailAt(0, "expected the marker 0x8000 (bytes 00 80), found " + Hex(h.marker));
  h.unknown = r.I16("the second header field");
  return h;
}

Value Triple(const std::array<int16_t, 3>& v) { return Value::array({v[0], v[1], v[2]}); }

double RateFromHeader(int16_t header_unknown, double override_rate) {
  if (override_rate > 0) return override_rate;
  return (header_unknown >= 1 && header_unknown <= 240) ? header_unknown : 60.0;
}

}  // namespace animkit::psx
