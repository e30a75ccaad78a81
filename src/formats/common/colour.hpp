// The sRGB transfer curve (IEC 61966-2-1): a stored 8-bit display colour channel to the
// linear value the library's colours hold (Mesh::colors, Material::base_color), and back.
#pragma once

#include <animkit/core/elementary.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace animkit::colour {

inline float SrgbToLinear(uint8_t byte) {
  const double c = byte / 255.0;
  return static_cast<float>(c <= 0.04045 ? c / 12.92 : Pow((c + 0.055) / 1.055, 2.4));
}

// The nearest byte; not finite: 0. SrgbToLinear's values come back as their bytes.
inline uint8_t LinearToSrgb(float linear) {
  if (!std::isfinite(linear)) return 0;
  const double v = std::clamp(double(linear), 0.0, 1.0);
  const double c = v <= 0.0031308 ? v * 12.92 : 1.055 * Pow(v, 1 / 2.4) - 0.055;
  return static_cast<uint8_t>(std::lround(c * 255));
}

}  // namespace animkit::colour
