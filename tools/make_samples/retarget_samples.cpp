// A glTF humanoid to retarget onto (docs/retarget.md): 22 joints named as glTF rigs commonly
// name them (Hips, Spine, LeftUpLeg, ...), Y up, facing +Z, 1.7 units tall, a box per bone
// skinned to it. Written by animkit's glTF writer.
#include "sample_writers.hpp"

#include <cmath>

namespace animkit::samples {

namespace {

struct Bone {
  const char* name;
  int parent;
  Vec3 head;  // model-space rest position
  float width;
};

// Joint positions in model space; every rest rotation the identity, so offsets are differences.
const Bone kBones[] = {
    {"Root", -1, {0, 0, 0}, 0},           {"Hips", 0, {0, 0.95f, 0}, 0.14f},
    {"Spine", 1, {0, 1.08f, 0}, 0.13f},   {"Chest", 2, {0, 1.25f, 0}, 0.15f},
    {"Neck", 3, {0, 1.45f, 0}, 0.05f},    {"Head", 4, {0, 1.53f, 0.01f}, 0.1f},
    {"LeftShoulder", 3, {0.05f, 1.42f, 0}, 0.05f},  {"LeftArm", 6, {0.17f, 1.42f, 0}, 0.05f},
    {"LeftForeArm", 7, {0.45f, 1.42f, 0}, 0.04f},   {"LeftHand", 8, {0.70f, 1.42f, 0}, 0.04f},
    {"RightShoulder", 3, {-0.05f, 1.42f, 0}, 0.05f}, {"RightArm", 10, {-0.17f, 1.42f, 0}, 0.05f},
    {"RightForeArm", 11, {-0.45f, 1.42f, 0}, 0.04f}, {"RightHand", 12, {-0.70f, 1.42f, 0}, 0.04f},
    {"LeftUpLeg", 1, {0.10f, 0.92f, 0}, 0.07f},     {"LeftLeg", 14, {0.10f, 0.50f, 0}, 0.06f},
    {"LeftFoot", 15, {0.10f, 0.08f, 0}, 0.05f},     {"LeftToeBase", 16, {0.10f, 0.02f, 0.14f}, 0.04f},
    {"RightUpLeg", 1, {-0.10f, 0.92f, 0}, 0.07f},   {"RightLeg", 18, {-0.10f, 0.50f, 0}, 0.06f},
    {"RightFoot", 19, {-0.10f, 0.08f, 0}, 0.05f},   {"RightToeBase", 20, {-0.10f, 0.02f, 0.14f}, 0.04f},
};
constexpr size_t kBoneCount = sizeof(kBones) / sizeof(kBones[0]);

// Where a bone's box ends: its first child's head, else a little past its own head.
Vec3 TailOf(size_t bone) {
  for (size_t c = bone + 1; c < kBoneCount; ++c)
    if (kBones[c].parent == static_cast<int>(bone)) return kBones[c].head;
  const Vec3 from = kBones[static_cast<size_t>(kBones[bone].parent)].head, head = kBones[bone].head;
  return head + (head - from) * 0.4f;
}

// A box of half width w from a to b, every vertex on one joint.
void AddBox(Mesh& m, Vec3 a, Vec3 b, float w, uint16_t joint) {
  const Vec3 axis = b - a;
  const float length = std::sqrt(Dot(axis, axis));
  if (!(length > 0)) return;
  const Vec3 d = axis * (1 / length);
  Vec3 u = std::abs(d.y) < 0.9f ? Cross(d, Vec3{0, 1, 0}) : Cross(d, Vec3{1, 0, 0});
  u = u * (1 / std::sqrt(Dot(u, u)));
  const Vec3 v = Cross(d, u);
  auto corner = [&](int i, bool top) {
    const float su = (i == 1 || i == 2) ? w : -w, sv = i >= 2 ? w : -w;
    return (top ? b : a) + u * su + v * sv;
  };
  auto quad = [&](Vec3 p0, Vec3 p1, Vec3 p2, Vec3 p3) {
    Vec3 n = Cross(p1 - p0, p3 - p0);
    n = n * (1 / std::sqrt(Dot(n, n)));
    const uint32_t first = static_cast<uint32_t>(m.positions.size());
    for (Vec3 p : {p0, p1, p2, p3}) {
      m.positions.push_back(p);
      m.normals.push_back(n);
      m.joints.push_back({joint, 0, 0, 0});
      m.weights.push_back({1, 0, 0, 0});
    }
    m.triangles.insert(m.triangles.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
  };
  for (int i = 0; i < 4; ++i) quad(corner(i, false), corner((i + 1) % 4, false), corner((i + 1) % 4, true), corner(i, true));
  quad(corner(0, true), corner(1, true), corner(2, true), corner(3, true));
  quad(corner(3, false), corner(2, false), corner(1, false), corner(0, false));
}

Scene Humanoid() {
  Scene scene;
  Mesh body;
  body.name = "humanoid";
  body.material = 0;
  for (size_t i = 0; i < kBoneCount; ++i) {
    const Bone& bone = kBones[i];
    const Vec3 offset = bone.parent < 0 ? bone.head : bone.head - kBones[static_cast<size_t>(bone.parent)].head;
    scene.skeleton.joints.push_back({bone.name, bone.parent, {offset, {0, 0, 0, 1}, {1, 1, 1}}});
    if (bone.width > 0) AddBox(body, bone.head, TailOf(i), bone.width, static_cast<uint16_t>(i));
  }
  scene.meshes.push_back(std::move(body));
  Material m;
  m.name = "humanoid";
  m.base_color = {0.55f, 0.62f, 0.75f, 1};
  scene.materials.push_back(m);
  return scene;
}

}  // namespace

void WriteRetargetSamples(const std::filesystem::path& dir) {
  WriteSample(dir, "humanoid.glb", ExportGltf(Humanoid(), {}));
}

}  // namespace animkit::samples
