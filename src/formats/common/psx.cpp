#include "formats/common/psx.hpp"

namespace animkit::psx {

const OptionSpec kRateOption{.name = "psx-rate", .type = OptionType::Number,
                             .help = "PS1 ANM/ANC frames per second (0: the header's second field when 1..240, else 60)",
                             .default_value = "0", .min = 0, .max = 1000};

double RateFromHeader(int16_t header_unknown, double override_rate) {
  if (override_rate > 0) return override_rate;
  return (header_unknown >= 1 && header_unknown <= 240) ? header_unknown : 60.0;
}

}  // namespace animkit::psx
