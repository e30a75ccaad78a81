#include <animkit/core/math.hpp>
#include <animkit/core/elementary.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace animkit {

QuatXYZW Normalize(QuatXYZW q) {
  float len = std::sqrt(Dot(q, q));
  if (!(len > 0) || !std::isfinite(len)) return {0, 0, 0, 1};
  return {q.x / len, q.y / len, q.z / len, q.w / len};
}

QuatXYZW Multiply(QuatXYZW a, QuatXYZW b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

QuatXYZW Conjugate(QuatXYZW q) { return {-q.x, -q.y, -q.z, q.w}; }

Vec3 Rotate(QuatXYZW q, Vec3 v) {
  // v' = v + 2w(u x v) + 2u x (u x v)
  Vec3 u{q.x, q.y, q.z};
  auto cross = [](Vec3 a, Vec3 b) { return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; };
  Vec3 t = cross(u, v) * 2.0f;
  return v + t * q.w + cross(u, t);
}

QuatXYZW AxisAngle(Vec3 a, float radians) {
  float s = Sin(radians * 0.5f);
  return {a.x * s, a.y * s, a.z * s, Cos(radians * 0.5f)};
}

Vec3 Lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

QuatXYZW Nlerp(QuatXYZW a, QuatXYZW b, float t) {
  if (Dot(a, b) < 0) b = {-b.x, -b.y, -b.z, -b.w};
  return Normalize({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t});
}

QuatXYZW Slerp(QuatXYZW a, QuatXYZW b, float t) {
  double d = Dot(a, b);
  if (d < 0) {
    b = {-b.x, -b.y, -b.z, -b.w};
    d = -d;
  }
  if (d > 0.9995) return Nlerp(a, b, t);
  double theta = Acos(std::min(d, 1.0));
  double s = Sin(theta);
  double wa = Sin((1 - t) * theta) / s, wb = Sin(t * theta) / s;
  return Normalize({static_cast<float>(wa * a.x + wb * b.x), static_cast<float>(wa * a.y + wb * b.y),
                    static_cast<float>(wa * a.z + wb * b.z), static_cast<float>(wa * a.w + wb * b.w)});
}

QuatXYZW QuatFromEuler(Vec3 r, EulerOrder order) {
  QuatXYZW qx = AxisAngle({1, 0, 0}, r.x), qy = AxisAngle({0, 1, 0}, r.y), qz = AxisAngle({0, 0, 1}, r.z);
  // XYZ: X applied first, R = Rz * Ry * Rx.
  if (order == EulerOrder::XYZ) return Normalize(Multiply(qz, Multiply(qy, qx)));
  return Normalize(Multiply(qx, Multiply(qy, qz)));
}

namespace {
struct Mat3 {
  double r[3][3];  // r[row][col]
};
Mat3 RotationMatrix(QuatXYZW q) {
  double x = q.x, y = q.y, z = q.z, w = q.w;
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}
QuatXYZW QuatFromMatrix(const Mat3& m) {
  double t = m.r[0][0] + m.r[1][1] + m.r[2][2];
  double x, y, z, w;
  if (t > 0) {
    double s = std::sqrt(t + 1.0) * 2;
    w = 0.25 * s;
    x = (m.r[2][1] - m.r[1][2]) / s;
    y = (m.r[0][2] - m.r[2][0]) / s;
    z = (m.r[1][0] - m.r[0][1]) / s;
  } else if (m.r[0][0] > m.r[1][1] && m.r[0][0] > m.r[2][2]) {
    double s = std::sqrt(1.0 + m.r[0][0] - m.r[1][1] - m.r[2][2]) * 2;
    w = (m.r[2][1] - m.r[1][2]) / s;
    x = 0.25 * s;
    y = (m.r[0][1] + m.r[1][0]) / s;
    z = (m.r[0][2] + m.r[2][0]) / s;
  } else if (m.r[1][1] > m.r[2][2]) {
    double s = std::sqrt(1.0 + m.r[1][1] - m.r[0][0] - m.r[2][2]) * 2;
    w = (m.r[0][2] - m.r[2][0]) / s;
    x = (m.r[0][1] + m.r[1][0]) / s;
    y = 0.25 * s;
    z = (m.r[1][2] + m.r[2][1]) / s;
  } else {
    double s = std::sqrt(1.0 + m.r[2][2] - m.r[0][0] - m.r[1][1]) * 2;
    w = (m.r[1][0] - m.r[0][1]) / s;
    x = (m.r[0][2] + m.r[2][0]) / s;
    y = (m.r[1][2] + m.r[2][1]) / s;
    z = 0.25 * s;
  }
  QuatXYZW q = Normalize({static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), static_cast<float>(w)});
  if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};
  return q;
}
}  // namespace

namespace {

// Euler angles of q in double, from the quaternion normalized in double: y from atan2
// (asin near +-1 loses half the digits: 3.5e-4 rad from a float quaternion at Y = 90
// degrees). cos_y is |cos y|; at 0 (gimbal lock) x or z is set to 0.
struct EulerSolution {
  double x = 0, y = 0, z = 0, cos_y = 1;
};

EulerSolution SolveEuler(QuatXYZW q, EulerOrder order) {
  double v[4] = {q.x, q.y, q.z, q.w};
  const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
  if (!(n > 0) || !std::isfinite(n)) return {};
  for (double& c : v) c /= n;
  const double x = v[0], y = v[1], z = v[2], w = v[3];
  const double m00 = 1 - 2 * (y * y + z * z), m01 = 2 * (x * y - w * z), m02 = 2 * (x * z + w * y);
  const double m10 = 2 * (x * y + w * z), m11 = 1 - 2 * (x * x + z * z), m12 = 2 * (y * z - w * x);
  const double m20 = 2 * (x * z - w * y), m21 = 2 * (y * z + w * x), m22 = 1 - 2 * (x * x + y * y);
  EulerSolution e;
  constexpr double kLock = 1e-12;
  if (order == EulerOrder::XYZ) {  // R = Rz Ry Rx
    e.cos_y = Hypot(m00, m10);
    e.y = Atan2(-m20, e.cos_y);
    if (e.cos_y > kLock) e.x = Atan2(m21, m22), e.z = Atan2(m10, m00);
    else e.x = 0, e.z = Atan2(-m01, m11);
  } else {  // R = Rx Ry Rz
    e.cos_y = Hypot(m00, m01);
    e.y = Atan2(m02, e.cos_y);
    if (e.cos_y > kLock) e.x = Atan2(-m12, m22), e.z = Atan2(-m01, m00);
    else e.z = 0, e.x = Atan2(m21, m11);
  }
  return e;
}

}  // namespace

Vec3 EulerFromQuat(QuatXYZW q, EulerOrder order) {
  const EulerSolution e = SolveEuler(q, order);
  return {static_cast<float>(e.x), static_cast<float>(e.y), static_cast<float>(e.z)};
}

std::array<double, 3> EulerNearest(QuatXYZW q, EulerOrder order, const std::array<double, 3>& previous) {
  const EulerSolution e = SolveEuler(q, order);
  const double pi = std::numbers::pi, turn = 2 * pi;
  auto toward = [&](double v, size_t k) { return v - turn * std::round((v - previous[k]) / turn); };
  std::array<std::array<double, 3>, 2> solutions = {{{e.x, e.y, e.z}, {e.x + pi, pi - e.y, e.z + pi}}};
  double best = std::numeric_limits<double>::infinity();
  size_t pick = 0;
  for (size_t s = 0; s < solutions.size(); ++s) {
    double distance = 0;
    for (size_t k = 0; k < 3; ++k) {
      double& v = solutions[s][k];
      v = toward(v, k);
      distance += (v - previous[k]) * (v - previous[k]);
    }
    if (distance < best) best = distance, pick = s;
  }
  std::array<double, 3> out = solutions[pick];
  // At (or next to) gimbal lock only x - z (or x + z) is fixed: move the split toward
  // previous's, as far as the rotation stays the same to about 1e-7 rad (the change
  // is at most |a| cos y).
  const double sign_y = Sin(out[1]) < 0 ? -1.0 : 1.0;
  const double sigma = order == EulerOrder::XYZ ? sign_y : -sign_y;  // z moves by sigma * a
  const double a = ((previous[0] - out[0]) + sigma * (previous[2] - out[2])) / 2;
  if (std::abs(a) * e.cos_y <= 1e-7 && std::abs(a) > 0) {
    out[0] = toward(out[0] + a, 0);
    out[2] = toward(out[2] + sigma * a, 2);
  }
  return out;
}

double AngleBetween(QuatXYZW a, QuatXYZW b) {
  // In double, and as 4 atan2(|a - b|, |a + b|) (that atan2 is a quarter of the
  // rotation angle): acos of a dot product near 1 cannot tell angles apart below
  // about 5e-4 rad in float.
  const double qa[4] = {a.x, a.y, a.z, a.w}, qb[4] = {b.x, b.y, b.z, b.w};
  double na = 0, nb = 0, dot = 0;
  for (int i = 0; i < 4; ++i) na += qa[i] * qa[i], nb += qb[i] * qb[i], dot += qa[i] * qb[i];
  na = std::sqrt(na), nb = std::sqrt(nb);
  if (!(na > 0 && nb > 0)) return std::numeric_limits<double>::quiet_NaN();
  const double sign = dot < 0 ? -1.0 : 1.0;  // q and -q are one rotation
  double diff = 0, sum = 0;
  for (int i = 0; i < 4; ++i) {
    const double u = qa[i] / na, v = sign * qb[i] / nb;
    diff += (u - v) * (u - v), sum += (u + v) * (u + v);
  }
  return 4 * Atan2(std::sqrt(diff), std::sqrt(sum));
}

Mat4 MatrixFromTRS(const TransformTRS& t) {
  Mat3 r = RotationMatrix(t.rotation);
  Mat4 out;
  const float s[3] = {t.scale.x, t.scale.y, t.scale.z};
  for (int c = 0; c < 3; ++c) {
    for (int row = 0; row < 3; ++row) out.m[c][row] = static_cast<float>(r.r[row][c] * s[c]);
    out.m[c][3] = 0;
  }
  out.m[3] = {t.translation.x, t.translation.y, t.translation.z, 1};
  return out;
}

Mat4 Multiply(const Mat4& a, const Mat4& b) {
  Mat4 out;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      double v = 0;
      for (int k = 0; k < 4; ++k) v += static_cast<double>(a.m[k][r]) * b.m[c][k];
      out.m[c][r] = static_cast<float>(v);
    }
  }
  return out;
}

Vec3 TransformPoint(const Mat4& m, Vec3 p) {
  return {m.m[0][0] * p.x + m.m[1][0] * p.y + m.m[2][0] * p.z + m.m[3][0],
          m.m[0][1] * p.x + m.m[1][1] * p.y + m.m[2][1] * p.z + m.m[3][1],
          m.m[0][2] * p.x + m.m[1][2] * p.y + m.m[2][2] * p.z + m.m[3][2]};
}

TransformTRS DecomposeTRS(const Mat4& m) {
  TransformTRS t;
  t.translation = {m.m[3][0], m.m[3][1], m.m[3][2]};
  double col[3][3];
  double scale[3];
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) col[c][r] = m.m[c][r];
    scale[c] = std::sqrt(col[c][0] * col[c][0] + col[c][1] * col[c][1] + col[c][2] * col[c][2]);
  }
  double det = col[0][0] * (col[1][1] * col[2][2] - col[2][1] * col[1][2]) -
               col[1][0] * (col[0][1] * col[2][2] - col[2][1] * col[0][2]) +
               col[2][0] * (col[0][1] * col[1][2] - col[1][1] * col[0][2]);
  if (det < 0) scale[0] = -scale[0];
  Mat3 r{};
  for (int c = 0; c < 3; ++c) {
    for (int row = 0; row < 3; ++row) r.r[row][c] = scale[c] != 0 ? col[c][row] / scale[c] : (row == c ? 1 : 0);
  }
  t.rotation = QuatFromMatrix(r);
  t.scale = {static_cast<float>(scale[0]), static_cast<float>(scale[1]), static_cast<float>(scale[2])};
  return t;
}

Mat4 InverseAffine(const Mat4& m) {
  double a[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a[r][c] = m.m[c][r];
  double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
               a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  Mat4 out;
  if (det == 0 || !std::isfinite(det)) return out;
  double inv[3][3];
  inv[0][0] = (a[1][1] * a[2][2] - a[1][2] * a[2][1]) / det;
  inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
  inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
  inv[1][0] = (a[1][2] * a[2][0] - a[1][0] * a[2][2]) / det;
  inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
  inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
  inv[2][0] = (a[1][0] * a[2][1] - a[1][1] * a[2][0]) / det;
  inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
  inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
  double t[3] = {m.m[3][0], m.m[3][1], m.m[3][2]};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out.m[c][r] = static_cast<float>(inv[r][c]);
    out.m[3][r] = static_cast<float>(-(inv[r][0] * t[0] + inv[r][1] * t[1] + inv[r][2] * t[2]));
  }
  return out;
}

TransformTRS ComposePerAxis(const TransformTRS& parent, const TransformTRS& local) {
  TransformTRS out;
  out.scale = Mul(parent.scale, local.scale);
  out.rotation = Normalize(Multiply(parent.rotation, local.rotation));
  out.translation = parent.translation + Rotate(parent.rotation, Mul(parent.scale, local.translation));
  return out;
}

TransformTRS RelativePerAxis(const TransformTRS& parent, const TransformTRS& model) {
  auto divide = [](float a, float b, float otherwise) { return b != 0 ? a / b : otherwise; };
  TransformTRS out;
  out.scale = {divide(model.scale.x, parent.scale.x, 1), divide(model.scale.y, parent.scale.y, 1),
               divide(model.scale.z, parent.scale.z, 1)};
  out.rotation = Normalize(Multiply(Conjugate(parent.rotation), model.rotation));
  const Vec3 t = Rotate(Conjugate(parent.rotation), model.translation - parent.translation);
  out.translation = {divide(t.x, parent.scale.x, 0), divide(t.y, parent.scale.y, 0), divide(t.z, parent.scale.z, 0)};
  return out;
}

}  // namespace animkit
