// Camera rotations for glTF: the exporter aims a camera at its target; the importer
// gives the target and roll back from the rotation and the stored distance.
#include "formats/gltf/gltf_internal.hpp"

#include <animkit/core/elementary.hpp>

#include <cmath>
#include <numbers>

namespace animkit::gltf {

namespace {

float Length(Vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

}  // namespace

float Distance(Vec3 a, Vec3 b) { return Length(b - a); }

QuatXYZW CameraRotation(Vec3 eye, Vec3 target, float roll) {
  Vec3 f = target - eye;
  const float len = Length(f);
  QuatXYZW q;
  if (len > 0 && std::isfinite(len)) {
    f = f * (1 / len);
    Vec3 up_hint{0, -1, 0};
    if (Length(Cross(f, up_hint)) < 1e-4f) up_hint = {0, 0, 1};
    Vec3 right = Cross(f, up_hint);
    right = right * (1 / Length(right));
    const Vec3 up = Cross(right, f);
    Mat4 m;
    m.m[0] = {right.x, right.y, right.z, 0};
    m.m[1] = {up.x, up.y, up.z, 0};
    m.m[2] = {-f.x, -f.y, -f.z, 0};
    q = Normalize(DecomposeTRS(m).rotation);
  }
  if (roll != 0 && std::isfinite(roll)) q = Normalize(Multiply(q, AxisAngle({0, 0, 1}, roll)));
  return q;
}

CameraAim AimOf(Vec3 eye, QuatXYZW rotation, float distance) {
  const QuatXYZW q = Normalize(rotation);
  const Vec3 forward = Rotate(q, {0, 0, -1});
  CameraAim aim;
  aim.target = eye + forward * distance;
  // The roll is what turns the unrolled aim into q, about the camera's Z.
  const QuatXYZW r = Multiply(Conjugate(CameraRotation(eye, aim.target, 0)), q);
  double roll = 2 * Atan2(double(r.z), double(r.w));
  if (roll > std::numbers::pi) roll -= 2 * std::numbers::pi;
  if (roll <= -std::numbers::pi) roll += 2 * std::numbers::pi;
  aim.roll = static_cast<float>(roll);
  return aim;
}

}  // namespace animkit::gltf
