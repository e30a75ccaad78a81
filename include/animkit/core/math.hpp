// Small value types shared by every format. Conventions (stated once, see docs/conventions.md):
//  - right-handed, column vectors: a point p is transformed as M * p;
//  - quaternions are stored x, y, z, w (QuatXYZW), unit length when they express a rotation;
//  - Euler angles are radians; EulerOrder names the axes in the order they are applied,
//    so EulerOrder::XYZ means R = Rz * Ry * Rx (X applied first).
#pragma once

#include <array>
#include <cmath>

namespace animkit {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

struct QuatXYZW {
  float x = 0, y = 0, z = 0, w = 1;
  friend bool operator==(const QuatXYZW&, const QuatXYZW&) = default;
};

// Euler angle order, letters in the order the rotations are applied to a column vector.
enum class EulerOrder { XYZ, ZYX };

// Translation, rotation, scale; the matrix is T * R * S.
struct TransformTRS {
  Vec3 translation{0, 0, 0};
  QuatXYZW rotation{0, 0, 0, 1};
  Vec3 scale{1, 1, 1};
  friend bool operator==(const TransformTRS&, const TransformTRS&) = default;
};

// Column-major 4x4 matrix (m[column][row]), as glTF stores matrices.
struct Mat4 {
  std::array<std::array<float, 4>, 4> m{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
};

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3 Mul(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
inline float Dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 Cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline float Dot(QuatXYZW a, QuatXYZW b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

QuatXYZW Normalize(QuatXYZW q);
QuatXYZW Multiply(QuatXYZW a, QuatXYZW b);  // a * b: b applied first
QuatXYZW Conjugate(QuatXYZW q);
Vec3 Rotate(QuatXYZW q, Vec3 v);
QuatXYZW AxisAngle(Vec3 unit_axis, float radians);
// Shortest-path spherical interpolation.
QuatXYZW Slerp(QuatXYZW a, QuatXYZW b, float t);
// Shortest-path normalized linear interpolation.
QuatXYZW Nlerp(QuatXYZW a, QuatXYZW b, float t);
Vec3 Lerp(Vec3 a, Vec3 b, float t);

// Euler radians (rotation about X, Y, Z) to a quaternion and back, for the given order.
QuatXYZW QuatFromEuler(Vec3 radians, EulerOrder order);
Vec3 EulerFromQuat(QuatXYZW q, EulerOrder order);
// The Euler radians of q nearest `previous`, for writers whose readers interpolate the
// angles themselves: of the two solutions every rotation has, (x, y, z) and
// (x + pi, pi - y, z + pi), each angle moved by whole turns toward previous's, the
// one closest to previous (least sum of squared differences).
std::array<double, 3> EulerNearest(QuatXYZW q, EulerOrder order, const std::array<double, 3>& previous);

// Angle in radians between two rotations (0..pi), sign of q ignored; computed in
// double so that tests can assert angles down to about 1e-7 rad.
double AngleBetween(QuatXYZW a, QuatXYZW b);

Mat4 MatrixFromTRS(const TransformTRS& t);
Mat4 Multiply(const Mat4& a, const Mat4& b);  // a * b
Vec3 TransformPoint(const Mat4& m, Vec3 p);
// Decomposes an affine matrix into T * R * S (no shear); a negative determinant flips scale.x.
TransformTRS DecomposeTRS(const Mat4& m);
// Inverse of an affine matrix.
Mat4 InverseAffine(const Mat4& m);

// Per-axis scale inheritance (docs/conventions.md), the rule of engines that keep a
// joint's scale along its own axes: S_w = S_p * S_l, R_w = R_p R_l,
// T_w = T_p + R_p (S_p * t_l). Unlike a matrix product it never shears.
TransformTRS ComposePerAxis(const TransformTRS& parent_model, const TransformTRS& local);
// The local transform that ComposePerAxis(parent_model, local) turns into model (a zero
// parent scale axis gives a zero local translation and unit local scale on that axis).
TransformTRS RelativePerAxis(const TransformTRS& parent_model, const TransformTRS& model);

}  // namespace animkit
