// Four floats at a time: SSE2 where the compiler targets it (the x86-64 baseline),
// plain loops elsewhere. Internal to the runtime.
#pragma once

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define ANIMKIT_RUNTIME_SSE2 1
#else
#include <cmath>
#include <cstdint>
#include <cstring>
#endif

namespace animkit::runtime::simd {

#if ANIMKIT_RUNTIME_SSE2
using V = __m128;
inline V Load(const float* p) { return _mm_load_ps(p); }
inline V LoadU(const float* p) { return _mm_loadu_ps(p); }
inline void Store(float* p, V v) { _mm_store_ps(p, v); }
inline void StoreU(float* p, V v) { _mm_storeu_ps(p, v); }
inline V Splat(float f) { return _mm_set1_ps(f); }
inline V Add(V a, V b) { return _mm_add_ps(a, b); }
inline V Sub(V a, V b) { return _mm_sub_ps(a, b); }
inline V Mul(V a, V b) { return _mm_mul_ps(a, b); }
inline V Div(V a, V b) { return _mm_div_ps(a, b); }
inline V Sqrt(V a) { return _mm_sqrt_ps(a); }
inline V CmpLe(V a, V b) { return _mm_cmple_ps(a, b); }
inline V CmpGe(V a, V b) { return _mm_cmpge_ps(a, b); }
inline V CmpLt(V a, V b) { return _mm_cmplt_ps(a, b); }
inline V And(V a, V b) { return _mm_and_ps(a, b); }
inline V Xor(V a, V b) { return _mm_xor_ps(a, b); }
// mask ? a : b
inline V Select(V mask, V a, V b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }
inline V SignBit() { return _mm_castsi128_ps(_mm_set1_epi32(static_cast<int>(0x80000000u))); }
template <int I>
inline V Broadcast(V v) { return _mm_shuffle_ps(v, v, _MM_SHUFFLE(I, I, I, I)); }
inline void Transpose(V& a, V& b, V& c, V& d) { _MM_TRANSPOSE4_PS(a, b, c, d); }
#else
struct V {
  float f[4];
};
inline V Load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline V LoadU(const float* p) { return Load(p); }
inline void Store(float* p, V v) {
  for (int i = 0; i < 4; ++i) p[i] = v.f[i];
}
inline void StoreU(float* p, V v) { Store(p, v); }
inline V Splat(float f) { return {{f, f, f, f}}; }
#define ANIMKIT_SIMD_OP(name, expr)                 \
  inline V name(V a, V b) {                         \
    V r;                                            \
    for (int i = 0; i < 4; ++i) r.f[i] = (expr);    \
    return r;                                       \
  }
ANIMKIT_SIMD_OP(Add, a.f[i] + b.f[i])
ANIMKIT_SIMD_OP(Sub, a.f[i] - b.f[i])
ANIMKIT_SIMD_OP(Mul, a.f[i] * b.f[i])
ANIMKIT_SIMD_OP(Div, a.f[i] / b.f[i])
#undef ANIMKIT_SIMD_OP
inline uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float Float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline V Sqrt(V a) { return {{std::sqrt(a.f[0]), std::sqrt(a.f[1]), std::sqrt(a.f[2]), std::sqrt(a.f[3])}}; }
inline V Mask(bool b0, bool b1, bool b2, bool b3) {
  return {{Float(b0 ? ~0u : 0u), Float(b1 ? ~0u : 0u), Float(b2 ? ~0u : 0u), Float(b3 ? ~0u : 0u)}};
}
inline V CmpLe(V a, V b) { return Mask(a.f[0] <= b.f[0], a.f[1] <= b.f[1], a.f[2] <= b.f[2], a.f[3] <= b.f[3]); }
inline V CmpGe(V a, V b) { return Mask(a.f[0] >= b.f[0], a.f[1] >= b.f[1], a.f[2] >= b.f[2], a.f[3] >= b.f[3]); }
inline V CmpLt(V a, V b) { return Mask(a.f[0] < b.f[0], a.f[1] < b.f[1], a.f[2] < b.f[2], a.f[3] < b.f[3]); }
inline V And(V a, V b) {
  V r;
  for (int i = 0; i < 4; ++i) r.f[i] = Float(Bits(a.f[i]) & Bits(b.f[i]));
  return r;
}
inline V Xor(V a, V b) {
  V r;
  for (int i = 0; i < 4; ++i) r.f[i] = Float(Bits(a.f[i]) ^ Bits(b.f[i]));
  return r;
}
inline V Select(V mask, V a, V b) {
  V r;
  for (int i = 0; i < 4; ++i) r.f[i] = Float((Bits(mask.f[i]) & Bits(a.f[i])) | (~Bits(mask.f[i]) & Bits(b.f[i])));
  return r;
}
inline V SignBit() { return Splat(Float(0x80000000u)); }
template <int I>
inline V Broadcast(V v) { return Splat(v.f[I]); }
inline void Transpose(V& a, V& b, V& c, V& d) {
  V r[4] = {a, b, c, d}, t[4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) t[i].f[j] = r[j].f[i];
  a = t[0], b = t[1], c = t[2], d = t[3];
}
#endif

}  // namespace animkit::runtime::simd
