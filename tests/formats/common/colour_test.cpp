// The sRGB curve display colour bytes are read and written through.
#include "formats/common/colour.hpp"

#include <gtest/gtest.h>

namespace animkit {
namespace {

// Every byte comes back from its linear value. Golden values from IEC 61966-2-1's formula.
TEST(Colour, SrgbBytesComeBackFromTheirLinearValues) {
  for (int b = 0; b < 256; ++b) EXPECT_EQ(colour::LinearToSrgb(colour::SrgbToLinear(uint8_t(b))), b) << b;
  EXPECT_NEAR(colour::SrgbToLinear(0x80), 0.2158605, 1e-6);  // ((128/255 + 0.055) / 1.055)^2.4
  EXPECT_NEAR(colour::SrgbToLinear(10), 10 / 255.0 / 12.92, 1e-9);
  EXPECT_EQ(colour::LinearToSrgb(0.5f), 188);  // 1.055 x 0.5^(1/2.4) - 0.055 = 0.7354
}

}  // namespace
}  // namespace animkit
