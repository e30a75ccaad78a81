// The elementary functions animkit computes with: its own, the same to the bit on every
// platform it is built for (docs/conventions.md, "Arithmetic"). The C libraries' differ in
// the last bit between glibc and MinGW-w64 (up to 16% of arguments) and MinGW-w64's are
// six times slower; these are built from + - * / and sqrt only, which IEEE 754 rounds
// alike everywhere. Within 2 units in the last place of glibc's (tan, asin, acos: 4; pow,
// as e^(y log x): 32), tested in tests/core/elementary_test.cpp. A float argument is
// evaluated in double and rounded once, which the error in double almost never reaches.
#pragma once

namespace animkit {

double Sin(double x);
double Cos(double x);
double Tan(double x);
double Asin(double x);
double Acos(double x);
double Atan(double x);
double Atan2(double y, double x);
double Exp(double x);
double Log(double x);
double Pow(double x, double y);
double Hypot(double x, double y);

inline float Sin(float x) { return static_cast<float>(Sin(double{x})); }
inline float Cos(float x) { return static_cast<float>(Cos(double{x})); }
inline float Tan(float x) { return static_cast<float>(Tan(double{x})); }
inline float Asin(float x) { return static_cast<float>(Asin(double{x})); }
inline float Acos(float x) { return static_cast<float>(Acos(double{x})); }
inline float Atan(float x) { return static_cast<float>(Atan(double{x})); }
inline float Atan2(float y, float x) { return static_cast<float>(Atan2(double{y}, double{x})); }
inline float Exp(float x) { return static_cast<float>(Exp(double{x})); }
inline float Log(float x) { return static_cast<float>(Log(double{x})); }
inline float Pow(float x, float y) { return static_cast<float>(Pow(double{x}, double{y})); }
inline float Hypot(float x, float y) { return static_cast<float>(Hypot(double{x}, double{y})); }

}  // namespace animkit
