#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/edf_canm/cas.hpp>
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/edf_rab.hpp>

#include <animkit/offline/skinning.hpp>

#include "sample_writers.hpp"

namespace animkit::samples {
namespace {

SyntheticSpec SoldierSpec() {
  // 30 per second: interval 2 engine frames.
  return {.joints = 11, .frames = 31, .frame_rate = 30, .translation_scale = 0.5f};
}

// The soldier's joints in the order its MDB stores them (edf_mdb::BoneOrder), so that its
// CANM and CAS files list the bones as the model does.
Skeleton Soldier() {
  const Skeleton built = SyntheticSkeleton(SoldierSpec());
  const std::vector<size_t> order = edf_mdb::BoneOrder(built);
  std::vector<int> position(order.size());
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = int(i);
  Skeleton s;
  for (size_t j : order) {
    Joint joint = built.joints[j];
    if (joint.parent >= 0) joint.parent = position[size_t(joint.parent)];
    s.joints.push_back(std::move(joint));
  }
  return s;
}

// Two clips that share their leg motion, plus a Scene_Root bone the skeleton lacks.
std::vector<Clip> SoldierClips(bool animate_scale, size_t frames) {
  SyntheticSpec spec = SoldierSpec();
  spec.frames = frames;
  spec.animate_scale = animate_scale;
  spec.name = "walk";
  const Skeleton skeleton = SyntheticSkeleton(SoldierSpec());  // tracks by name: any joint order
  Clip walk = SyntheticClip(skeleton, spec);
  spec.name = "idle";
  spec.seed = 3;
  spec.amplitude = 0.2f;
  spec.frames = frames * 2 / 3;
  Clip idle = SyntheticClip(skeleton, spec);
  idle.loop = false;
  // Joints 6.. move in idle exactly as in walk over idle's frames: identical channels.
  for (size_t j = 6; j < idle.tracks.size(); ++j) {
    JointTrack t = walk.tracks[j];
    auto cut = [&](auto& track) {
      track.times.resize(idle.frame_count);
      track.values.resize(idle.frame_count);
    };
    cut(t.translation), cut(t.rotation);
    if (!t.scale.empty()) cut(t.scale);
    idle.tracks[j] = t;
  }
  for (Clip* c : {&walk, &idle}) {
    JointTrack root;
    root.joint = "Scene_Root";
    root.translation.times = {0};
    root.translation.values = {{0, 0, 0}};
    c->tracks.insert(c->tracks.begin(), root);
  }
  return {walk, idle};
}

// A flat ribbon along every bone: two vertices at the parent (bound to it) and two at the
// child (bound to the child), a quad of two triangles; the ribbon's v runs down its length.
Mesh SoldierRibbon(const Skeleton& skeleton) {
  const std::vector<Mat4> rest = BindMatrices(skeleton);
  Mesh mesh;
  mesh.name = "body";
  mesh.material = 0;
  for (size_t j = 0; j < skeleton.joints.size(); ++j) {
    const int parent = skeleton.joints[j].parent;
    if (parent < 0) continue;
    const uint32_t base = uint32_t(mesh.positions.size());
    const Vec3 from = TransformPoint(rest[size_t(parent)], {0, 0, 0}), to = TransformPoint(rest[j], {0, 0, 0});
    for (int end = 0; end < 2; ++end)
      for (float side : {-0.05f, 0.05f}) {
        const Vec3 at = end ? to : from;
        mesh.positions.push_back({at.x + side, at.y, at.z});
        mesh.normals.push_back({0, 0, 1});
        mesh.uvs.push_back({side < 0 ? 0.0f : 1.0f, float(end)});
        mesh.joints.push_back({uint16_t(end ? j : size_t(parent)), 0, 0, 0});
        mesh.weights.push_back({1, 0, 0, 0});
      }
    for (uint32_t i : {0u, 2u, 1u, 1u, 2u, 3u}) mesh.triangles.push_back(base + i);
  }
  return mesh;
}

// 8 x 8 checks of olive and sand, the soldier's texture.
Image SoldierTexture() {
  Image image{"soldier.dds", 8, 8, std::vector<uint8_t>(8 * 8 * 4, 255), "", ""};
  for (size_t y = 0; y < 8; ++y)
    for (size_t x = 0; x < 8; ++x) {
      const bool dark = ((x / 4) + (y / 4)) % 2 == 0;
      uint8_t* p = &image.rgba[(y * 8 + x) * 4];
      p[0] = dark ? 96 : 200, p[1] = dark ? 112 : 184, p[2] = dark ? 48 : 136;
    }
  return image;
}

// A set around the soldier's clips: tcontrols "walk" (clip 0) and "idle" (clip 1); a player
// "soldier" whose states "walk" and "idle" play them (type 2: a tcontrol index) from a first
// anmdata each; an unnamed datagroup with one command-0 record (+0x10: tcontrol 0); the
// skeleton's bones. In the stock serialisation order (cas::Emit).
Bytes SoldierSet(uint32_t version, const Skeleton& skeleton, const std::vector<Clip>& clips) {
  namespace cas = edf_canm::cas;
  edf_canm::EncodeSettings settings;
  settings.version = version == cas::kVersion6 ? edf_canm::kVersion6 : edf_canm::kVersion5;
  cas::File f;
  f.version = version;
  f.canm_bytes = edf_canm::Serialize(edf_canm::EncodeClips(clips, settings, &skeleton));
  for (uint32_t i = 0; i < clips.size(); ++i) {
    cas::TControl t;
    t.name = cas::AddString(f, clips[i].name);
    t.words = {i};
    f.tcontrols.push_back(std::move(t));
  }
  for (const Joint& j : skeleton.joints) f.bones.push_back({.name = cas::AddString(f, j.name)});
  cas::Data start;
  start.args[3] = 0;  // +0x10: tcontrol 0
  f.unnamed_group = cas::DataGroup{.data = {start}};
  cas::AnmGroup player;
  player.name = cas::AddString(f, "soldier");
  for (uint32_t i = 0; i < clips.size(); ++i) {
    cas::Mcanm state;
    state.name = cas::AddString(f, clips[i].name);
    state.type = 2, state.value = i;
    state.first = cas::AnmData{.time = 0, .type_a = 1, .value_a = i};
    player.mcanms.push_back(std::move(state));
  }
  f.anmgroups.push_back(std::move(player));
  return cas::Emit(f);
}

// The soldier written as a new EDF5 model (the writer `animkit convert x.glb y.mdb` runs):
// the ribbon, one material on the checks; its texture is the DDS beside it.
edf_mdb::WriteResult SoldierModel() {
  Scene scene;
  scene.skeleton = Soldier();
  scene.meshes = {SoldierRibbon(scene.skeleton)};
  Material material;
  material.name = "soldier";
  material.texture = 0;
  scene.materials = {material};
  scene.textures = {SoldierTexture()};
  edf_mdb::WriteResult result = edf_mdb::WriteModel(scene, edf_mdb::WriteOptions{});
  if (result.textures.size() != 1 || result.textures[0].first != "soldier.dds")
    throw Error::General("the soldier model names one texture, soldier.dds");
  return result;
}

}  // namespace

void WriteEdfMdbSamples(const std::filesystem::path& dir) {
  const edf_mdb::WriteResult model = SoldierModel();
  WriteSample(dir, "soldier.mdb", model.mdb);
  WriteSample(dir, "soldier.dds", model.textures[0].second);
}

// The model and its texture in one archive, CMPL-packed, folders in the stock order.
void WriteEdfRabSample(const std::filesystem::path& dir) {
  const edf_mdb::WriteResult model = SoldierModel();
  WriteSample(dir, "soldier.rab", edf_rab::Build({{"TEXTURE", "soldier.dds", model.textures[0].second, true},
                                                  {"MODEL", "soldier.mdb", model.mdb, true}}));
}

void WriteEdfCasSamples(const std::filesystem::path& dir) {
  const Skeleton skeleton = Soldier();
  WriteEdfRabSample(dir);  // the model as the game ships it, beside the sets
  WriteSample(dir, "soldier5.cas", SoldierSet(edf_canm::cas::kVersion5, skeleton, SoldierClips(false, 31)));
  WriteSample(dir, "soldier6.cas", SoldierSet(edf_canm::cas::kVersion6, skeleton, SoldierClips(true, 10)));
}

void WriteEdfCanmSamples(const std::filesystem::path& dir) {
  const Skeleton skeleton = Soldier();
  WriteEdfMdbSamples(dir);
  edf_canm::EncodeSettings v5;
  WriteSample(dir, "soldier5.canm", edf_canm::Serialize(edf_canm::EncodeClips(SoldierClips(false, 31), v5, &skeleton)));
  edf_canm::EncodeSettings v6;
  v6.version = edf_canm::kVersion6;
  WriteSample(dir, "soldier6.canm", edf_canm::Serialize(edf_canm::EncodeClips(SoldierClips(true, 10), v6, &skeleton)));
}

}  // namespace animkit::samples
