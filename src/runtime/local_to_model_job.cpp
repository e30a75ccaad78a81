#include <animkit/runtime/local_to_model_job.hpp>

#include "simd.hpp"

#include <algorithm>

namespace animkit::runtime {

namespace {

using namespace simd;

// column[c] of the 4 local matrices T * R * S of a SoA group, one V per joint.
struct Locals {
  V col[4][4];  // [column][joint]
};

inline Locals LocalMatrices(const SoaTransform& s) {
  const V x = LoadU(s.rx), y = LoadU(s.ry), z = LoadU(s.rz), w = LoadU(s.rw);
  const V two = Splat(2), one = Splat(1), zero = Splat(0);
  const V x2 = Mul(x, two), y2 = Mul(y, two), z2 = Mul(z, two);
  const V xx = Mul(x, x2), yy = Mul(y, y2), zz = Mul(z, z2);
  const V xy = Mul(x, y2), xz = Mul(x, z2), yz = Mul(y, z2);
  const V wx = Mul(w, x2), wy = Mul(w, y2), wz = Mul(w, z2);
  const V sx = LoadU(s.sx), sy = LoadU(s.sy), sz = LoadU(s.sz);
  Locals l;
  // Entries [column][row], each a V over the 4 joints, then transposed per column.
  V c0r0 = Mul(Sub(one, Add(yy, zz)), sx), c0r1 = Mul(Add(xy, wz), sx), c0r2 = Mul(Sub(xz, wy), sx), c0r3 = zero;
  V c1r0 = Mul(Sub(xy, wz), sy), c1r1 = Mul(Sub(one, Add(xx, zz)), sy), c1r2 = Mul(Add(yz, wx), sy), c1r3 = zero;
  V c2r0 = Mul(Add(xz, wy), sz), c2r1 = Mul(Sub(yz, wx), sz), c2r2 = Mul(Sub(one, Add(xx, yy)), sz), c2r3 = zero;
  V c3r0 = LoadU(s.tx), c3r1 = LoadU(s.ty), c3r2 = LoadU(s.tz), c3r3 = one;
  Transpose(c0r0, c0r1, c0r2, c0r3);
  Transpose(c1r0, c1r1, c1r2, c1r3);
  Transpose(c2r0, c2r1, c2r2, c2r3);
  Transpose(c3r0, c3r1, c3r2, c3r3);
  l.col[0][0] = c0r0, l.col[0][1] = c0r1, l.col[0][2] = c0r2, l.col[0][3] = c0r3;
  l.col[1][0] = c1r0, l.col[1][1] = c1r1, l.col[1][2] = c1r2, l.col[1][3] = c1r3;
  l.col[2][0] = c2r0, l.col[2][1] = c2r1, l.col[2][2] = c2r2, l.col[2][3] = c2r3;
  l.col[3][0] = c3r0, l.col[3][1] = c3r1, l.col[3][2] = c3r2, l.col[3][3] = c3r3;
  return l;
}

// parent * local for an affine local matrix (last row 0, 0, 0, 1).
inline void MultiplyAffine(const float* parent, V c0, V c1, V c2, V c3, float* out) {
  const V p0 = LoadU(parent), p1 = LoadU(parent + 4), p2 = LoadU(parent + 8), p3 = LoadU(parent + 12);
  StoreU(out, Add(Add(Mul(p0, Broadcast<0>(c0)), Mul(p1, Broadcast<1>(c0))), Mul(p2, Broadcast<2>(c0))));
  StoreU(out + 4, Add(Add(Mul(p0, Broadcast<0>(c1)), Mul(p1, Broadcast<1>(c1))), Mul(p2, Broadcast<2>(c1))));
  StoreU(out + 8, Add(Add(Mul(p0, Broadcast<0>(c2)), Mul(p1, Broadcast<1>(c2))), Mul(p2, Broadcast<2>(c2))));
  StoreU(out + 12,
         Add(Add(Mul(p0, Broadcast<0>(c3)), Mul(p1, Broadcast<1>(c3))), Add(Mul(p2, Broadcast<2>(c3)), p3)));
}

}  // namespace

bool LocalToModelJob::Validate() const {
  if (!skeleton) return false;
  const int n = skeleton->num_joints();
  const int end = to < 0 ? n : to;
  if (from < 0 || end < from || end > n) return false;
  if (input.size() < static_cast<size_t>(skeleton->num_soa_joints()) || output.size() < static_cast<size_t>(n)) {
    return false;
  }
  if (skeleton->parents.size() != static_cast<size_t>(n)) return false;
  for (int i = from; i < end; ++i) {
    const int p = skeleton->parents[static_cast<size_t>(i)];
    if (p < -1 || p >= i) return false;  // parents first
  }
  return true;
}

bool LocalToModelJob::Run() const {
  if (!Validate()) return false;
  const int n = skeleton->num_joints();
  const int end = to < 0 ? n : to;
  const Float4x4 identity = Float4x4::Identity();
  const float* root_matrix = root ? root->m : identity.m;
  const int16_t* parents = skeleton->parents.data();
  Float4x4* out = output.data();
  for (int g = from / 4; g * 4 < end; ++g) {
    const Locals l = LocalMatrices(input[static_cast<size_t>(g)]);
    const int first = std::max(from, g * 4), last = std::min(end, g * 4 + 4);
    for (int j = first; j < last; ++j) {
      const int lane = j - g * 4;
      const int p = parents[j];
      const float* parent = p < 0 ? root_matrix : out[p].m;
      MultiplyAffine(parent, l.col[0][lane], l.col[1][lane], l.col[2][lane], l.col[3][lane], out[j].m);
    }
  }
  return true;
}

}  // namespace animkit::runtime
