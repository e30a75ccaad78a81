// SkinnedArmScene: a skinned, textured scene small enough to check by hand.
#include <animkit/core/math.hpp>
#include <animkit/offline/sampling.hpp>
#include <synthetic/synthetic.hpp>

#include <numbers>

namespace animkit {

Scene SkinnedArmScene() {
  Scene scene;
  scene.skeleton.joints = {{"upper", -1, {}}, {"lower", 0, {{0, 2, 0}, {}, {1, 1, 1}}}};

  Mesh arm;
  arm.name = "arm";
  for (float y : {0.0f, 2.0f, 4.0f})
    for (float x : {-0.5f, 0.5f}) {
      arm.positions.push_back({x, y, 0});
      arm.normals.push_back({0, 0, 1});
      arm.uvs.push_back({x + 0.5f, y / 4});
      const float lower = y / 4;  // 0, 0.5, 1
      if (lower == 0) arm.joints.push_back({0, 0, 0, 0}), arm.weights.push_back({1, 0, 0, 0});
      else if (lower == 1) arm.joints.push_back({1, 0, 0, 0}), arm.weights.push_back({1, 0, 0, 0});
      else arm.joints.push_back({0, 1, 0, 0}), arm.weights.push_back({0.5f, 0.5f, 0, 0});
    }
  arm.triangles = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
  arm.material = 0;
  arm.metadata = {{"group", 0}};

  Mesh badge;
  badge.name = "badge";
  badge.joint = 1;
  badge.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  badge.triangles = {0, 1, 2};
  badge.material = 1;

  Mesh floor;
  floor.name = "floor";
  floor.positions = {{-3, -1, -3}, {3, -1, -3}, {0, -1, 3}};
  floor.colors = {{1, 1, 1, 1}, {0.5f, 0.5f, 0.5f, 1}, {0, 0, 0, 1}};
  floor.triangles = {0, 2, 1};
  scene.meshes = {arm, badge, floor};

  Image skin;
  skin.name = "skin";
  skin.width = skin.height = 2;
  skin.rgba = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128};
  skin.source_format = "synthetic RGBA8";
  Image lost;
  lost.name = "lost.dds";
  lost.source_format = "DDS";
  lost.missing = "no file lost.dds beside the model";
  scene.textures = {skin, lost};

  Material skin_material;
  skin_material.name = "skin";
  skin_material.texture = 0;
  skin_material.alpha = AlphaMode::Mask;
  skin_material.alpha_cutoff = 0.25f;
  skin_material.double_sided = false;
  Material badge_material;
  badge_material.name = "badge";
  badge_material.texture = 1;
  badge_material.base_color = {1, 0.5f, 0.25f, 1};
  badge_material.alpha = AlphaMode::Blend;
  scene.materials = {skin_material, badge_material};

  Clip& bend = scene.clips.emplace_back();
  bend.name = "bend";
  bend.SetFrames(3, 30);
  const Seconds last = FrameTime(2, 30);  // both joints move linearly over frames 0..2
  JointTrack& upper = bend.tracks.emplace_back();
  upper.joint = "upper";
  upper.translation.Add(0, {0, 0, 0});
  upper.translation.Add(last, {2, 0, 0});
  JointTrack& lower = bend.tracks.emplace_back();
  lower.joint = "lower";
  lower.rotation.Add(0, {0, 0, 0, 1});
  lower.rotation.Add(last, AxisAngle({0, 0, 1}, float(std::numbers::pi / 2)));
  return scene;
}

}  // namespace animkit
