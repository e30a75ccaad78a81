// A Metroid Prime character as a game PAK holds one, made by the project's writers alone:
// the ANCS (one character, three named animations, one additive), its CINF, ANIMs and the
// Walk's EVNT, the CMDL with its CSKR and TXTR, packed with MP1's zlib.
#include <animkit/formats/metroid_ancs.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_model.hpp>
#include <animkit/formats/metroid_pak.hpp>

#include "sample_writers.hpp"

#include <cmath>
#include <numbers>

namespace animkit::samples {

namespace {

// The character's asset ids (the CSKR's and TXTR's derive from the model's).
constexpr uint32_t kAncsId = 0x5E170001, kCinfId = 0x5E170002, kCmdlId = 0x5E170003;
constexpr uint32_t kIdleId = 0x5E170010, kWalkId = 0x5E170011, kNodId = 0x5E170012;
constexpr uint32_t kWalkEvntId = 0x5E170020;
constexpr double kRate = 30;
constexpr float kPi = std::numbers::pi_v<float>;

// Z up, Y forward (the game's axes): root on the ground (CINF id 3), hips, chest, head.
Skeleton SentrySkeleton() {
  Skeleton s;
  s.joints = {{"root", -1, {}},
              {"hips", 0, {{0, 0, 0.5f}, {0, 0, 0, 1}, {1, 1, 1}}},
              {"chest", 1, {{0, 0, 0.5f}, {0, 0, 0, 1}, {1, 1, 1}}},
              {"head", 2, {{0, 0, 0.45f}, {0, 0, 0, 1}, {1, 1, 1}}}};
  return s;
}

// A 32 x 32 grey checker with a red band along its top rows and a blue one down its left
// columns: which way up and round a face is stands out.
Image SentryTexture() {
  Image img;
  img.name = "sentry";
  img.width = img.height = 32;
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x) {
      std::array<uint8_t, 4> c = ((x / 8) + (y / 8)) % 2 ? std::array<uint8_t, 4>{96, 96, 96, 255}
                                                         : std::array<uint8_t, 4>{224, 224, 224, 255};
      if (x < 4) c = {0, 0, 255, 255};
      if (y < 4) c = {255, 0, 0, 255};
      img.rgba.insert(img.rgba.end(), c.begin(), c.end());
    }
  return img;
}

// One tapered box per bone from z0 to z1 (half widths w0, w1), each face the whole texture
// (its top row up); corners at a joint weigh half each of the bones it joins.
struct Segment {
  uint16_t bone;
  float z0, z1, w0, w1;
};

void AddSegment(Mesh& m, const Segment& s, bool has_parent, bool has_child) {
  const std::array<float, 4> bottom = has_parent ? std::array<float, 4>{0.5f, 0.5f, 0, 0} : std::array<float, 4>{1, 0, 0, 0};
  const std::array<uint16_t, 4> bottom_joints{has_parent ? uint16_t(s.bone - 1) : s.bone, s.bone, 0, 0};
  const std::array<float, 4> top = has_child ? std::array<float, 4>{0.5f, 0.5f, 0, 0} : std::array<float, 4>{1, 0, 0, 0};
  const std::array<uint16_t, 4> top_joints{s.bone, has_child ? uint16_t(s.bone + 1) : s.bone, 0, 0};
  auto corner = [&](int i, bool upper) {  // i: 0..3 round the box, counter-clockwise from above
    const float w = upper ? s.w1 : s.w0;
    const float x = (i == 1 || i == 2) ? w : -w, y = (i >= 2) ? w : -w;
    return Vec3{x, y, upper ? s.z1 : s.z0};
  };
  auto quad = [&](std::array<Vec3, 4> p, std::array<bool, 4> upper) {  // counter-clockwise from outside
    const Vec3 e1 = p[1] - p[0], e2 = p[3] - p[0];
    Vec3 n{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
    n = n * (1 / std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z));
    const uint32_t first = static_cast<uint32_t>(m.positions.size());
    const std::array<std::array<float, 2>, 4> uv{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}};
    for (size_t k = 0; k < 4; ++k) {
      m.positions.push_back(p[k]);
      m.normals.push_back(n);
      m.uvs.push_back(uv[k]);
      m.joints.push_back(upper[k] ? top_joints : bottom_joints);
      m.weights.push_back(upper[k] ? top : bottom);
    }
    m.triangles.insert(m.triangles.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
  };
  for (int i = 0; i < 4; ++i)  // the sides: bottom edge, then top edge, left to right from outside
    quad({corner(i, false), corner((i + 1) % 4, false), corner((i + 1) % 4, true), corner(i, true)},
         {false, false, true, true});
  quad({corner(0, true), corner(1, true), corner(2, true), corner(3, true)}, {true, true, true, true});
  quad({corner(3, false), corner(2, false), corner(1, false), corner(0, false)}, {false, false, false, false});
}

Scene SentryModel() {
  Scene scene;
  scene.skeleton = SentrySkeleton();
  Mesh body;
  body.name = "sentry";
  body.material = 0;
  const Segment segments[] = {
      {0, 0.0f, 0.5f, 0.30f, 0.25f}, {1, 0.5f, 1.0f, 0.25f, 0.35f}, {2, 1.0f, 1.45f, 0.35f, 0.15f}, {3, 1.45f, 1.85f, 0.2f, 0.2f}};
  for (size_t i = 0; i < 4; ++i) AddSegment(body, segments[i], i > 0, i < 3);
  scene.meshes.push_back(std::move(body));
  Material m;
  m.name = "sentry";
  m.texture = 0;
  scene.materials.push_back(m);
  scene.textures.push_back(SentryTexture());
  return scene;
}

// A clip keyed at every frame; rotate(joint, t) and move(t) give each key.
template <class Pose>
Clip MakeClip(const std::string& name, double seconds, bool loop, const std::vector<std::string>& joints, Pose pose) {
  Clip clip;
  clip.name = name;
  clip.loop = loop;
  const size_t frames = static_cast<size_t>(std::lround(seconds * kRate)) + 1;
  clip.SetFrames(frames, kRate);
  for (const std::string& joint : joints) {
    JointTrack track;
    track.joint = joint;
    for (size_t f = 0; f < frames; ++f) {
      const float t = static_cast<float>(double(f) / kRate);
      const auto [rotation, translation] = pose(joint, t);
      track.rotation.Add(t, rotation);
      if (translation) track.translation.Add(t, *translation);
    }
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

using Key = std::pair<QuatXYZW, std::optional<Vec3>>;

Clip Idle() {  // a breathing sway, the head looking round
  return MakeClip("Idle", 2.0, true, {"hips", "chest", "head"}, [](const std::string& j, float t) {
    const float phase = std::sin(kPi * t);
    if (j == "head") return Key{AxisAngle({0, 0, 1}, 0.3f * phase), std::nullopt};
    return Key{AxisAngle({0, 1, 0}, (j == "hips" ? 0.04f : -0.06f) * phase), std::nullopt};
  });
}

Clip Walk() {  // the root travels 1.2 forward (+Y) a second, the body rocking and bobbing
  Clip clip = MakeClip("Walk", 1.0, true, {"root", "hips", "chest"}, [](const std::string& j, float t) {
    const float rock = std::sin(2 * kPi * t);
    if (j == "root") return Key{{0, 0, 0, 1}, Vec3{0, 1.2f * t, 0.04f * std::abs(rock)}};
    return Key{AxisAngle({0, 1, 0}, (j == "hips" ? 0.12f : -0.08f) * rock), std::nullopt};
  });
  clip.metadata[metroid::metadata_keys::kEvntId] = kWalkEvntId;  // the ANIM names its EVNT
  return clip;
}

Clip Nod() {  // rotation only: the game adds an additive clip's rotations to the pose
  return MakeClip("Nod_additive", 1.0, false, {"head"}, [](const std::string&, float t) {
    return Key{AxisAngle({1, 0, 0}, 0.35f * std::sin(kPi * t)), std::nullopt};
  });
}

metroid_ancs::MetaAnim Play(uint32_t anim_id, const std::string& name) {
  metroid_ancs::MetaAnim m;
  m.type = metroid_ancs::kPlay;
  m.play.anim_id = anim_id;
  m.name = name;
  m.start = {0, 2};  // 0 s, ZeroSteady
  return m;
}

metroid_ancs::AncsFile SentryAncs(const metroid_model::CmdlEncoded& model) {
  using namespace metroid_ancs;
  AncsFile f;
  Character c;
  c.table_count = 6;
  c.name = "Sentry";
  c.ids = {kCmdlId, model.skin_id, kCinfId};
  const std::pair<uint32_t, const char*> anims[] = {{kIdleId, "Idle"}, {kWalkId, "Walk"}, {kNodId, "Nod_additive"}};
  for (uint32_t i = 0; i < 3; ++i) {
    c.animations.push_back({i, "", anims[i].second});
    f.animation_set.animations.push_back({anims[i].second, Play(anims[i].first, anims[i].second)});
    f.animation_set.anim_evnt.push_back({anims[i].first, anims[i].first == kWalkId ? kWalkEvntId : kNoId});
  }
  c.unknown = 1;
  f.characters.push_back(std::move(c));
  AnimationSet& set = f.animation_set;
  set.default_transition.type = kTrans;
  set.default_transition.trans.duration = 0.25f;
  set.additives.push_back({2, 0.25f, 0.25f});
  set.default_additive = {0.25f, 0.25f};
  return f;
}

std::vector<Event> WalkEvents() { return {{0.0f, "loop:Loop", {1}, {}}, {0.5f, "sound:Footstep", {0x0101, 1, 20}, {}}}; }

}  // namespace

void WriteMetroidCharacterSamples(const std::filesystem::path& dir) {
  const metroid::CinfFile cinf = metroid::EncodeCinf(SentrySkeleton());
  metroid::EncodeSettings anim_settings;
  anim_settings.bone_ids = metroid::BoneIdsOf(metroid::DecodeCinf(cinf, metroid::RestRule::Relative));
  const metroid_model::CmdlEncoded model =
      metroid_model::EncodeCmdl(SentryModel(), SentrySkeleton(), {kCmdlId, anim_settings.bone_ids});
  if (!model.warnings.empty() || !model.skin || model.textures.size() != 1)
    throw Error::General("the Sentry model does not write as designed");
  auto anim = [&](const Clip& clip) { return metroid::SerializeAnim(metroid::EncodeAnim(clip, anim_settings)); };
  using metroid_pak::Packing;
  const Packing z = Packing::Zlib;
  const Bytes pak = metroid_pak::Build({
      {{'A', 'N', 'C', 'S'}, kAncsId, metroid_ancs::SerializeAncs(SentryAncs(model)), z, {"Sentry"}},
      {{'C', 'I', 'N', 'F'}, kCinfId, metroid::SerializeCinf(cinf), z, {}},
      {{'C', 'M', 'D', 'L'}, kCmdlId, metroid_model::SerializeCmdl(model.model), z, {}},
      {{'C', 'S', 'K', 'R'}, model.skin_id, metroid_model::SerializeCskr(*model.skin), z, {}},
      {{'T', 'X', 'T', 'R'}, model.textures[0].id, model.textures[0].bytes, z, {}},
      {{'A', 'N', 'I', 'M'}, kIdleId, anim(Idle()), z, {}},
      {{'A', 'N', 'I', 'M'}, kWalkId, anim(Walk()), z, {}},
      {{'A', 'N', 'I', 'M'}, kNodId, anim(Nod()), z, {}},
      {{'E', 'V', 'N', 'T'}, kWalkEvntId, metroid_ancs::SerializeEvnt(metroid_ancs::EncodeEvnt(WalkEvents())), z, {}},
  });
  WriteSample(dir, "Character.pak", pak);
}

}  // namespace animkit::samples
