// A Metroid Prime character of 100 animations in a PAK, made by the project's writers (as
// tools/make_samples/metroid_character_samples.cpp makes the bundled one): decoding the
// character, and the whole `animkit convert X.pak out.glb --character NAME`. Target: under
// 2 s for the convert (docs/performance.md, "Metroid Prime character").
// ANIMKIT_BENCH_WRITE=PATH writes the PAK there as well, to time the command itself.
#include <animkit/animkit.hpp>
#include <animkit/formats/metroid_ancs.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_model.hpp>
#include <animkit/formats/metroid_pak.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/load.hpp>
#include <synthetic/synthetic.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numbers>
#include <unistd.h>

namespace {

using namespace animkit;
namespace fs = std::filesystem;

constexpr int kAnimations = 100;
constexpr int kJoints = 50;
constexpr double kRate = 30;
constexpr char kCharacter[] = "Bench";
constexpr uint32_t kAncsId = 0xBE000001, kCinfId = 0xBE000002, kCmdlId = 0xBE000003;
constexpr uint32_t kFirstAnimId = 0xBE001000, kFirstEvntId = 0xBE002000;

// SyntheticSkeleton's five chains of ten, its rest rotations cleared (a CINF holds origins alone).
Skeleton CharacterSkeleton() {
  Skeleton s = SyntheticSkeleton({.joints = kJoints, .translation_scale = 0.2f, .animate_scale = false});
  for (Joint& j : s.joints) j.rest.rotation = {0, 0, 0, 1};
  return s;
}

// A 256x256 colour checker with a gradient: something CMPR does not flatten.
Image CharacterTexture() {
  Image img;
  img.name = "bench_skin";
  img.width = img.height = 256;
  img.rgba.reserve(size_t{256} * 256 * 4);
  for (uint32_t y = 0; y < 256; ++y)
    for (uint32_t x = 0; x < 256; ++x) {
      const bool dark = ((x / 32) + (y / 32)) % 2 != 0;
      img.rgba.insert(img.rgba.end(), {uint8_t(dark ? x / 2 : 128 + x / 2), uint8_t(y), uint8_t(dark ? 64 : 192), 255});
    }
  return img;
}

// One tube per bone, from its parent's origin to its own (11 x 8 vertices, the seam doubled
// for the UVs): the two rings at the parent blend the parent and the bone, the rest on the bone.
Mesh CharacterMesh(const Skeleton& s) {
  constexpr int kSides = 10, kRings = 8;
  constexpr float kRadius = 0.04f, kTwoPi = 2 * std::numbers::pi_v<float>;
  std::vector<Vec3> origin(s.joints.size());
  for (size_t j = 0; j < s.joints.size(); ++j)
    origin[j] = (s.joints[j].parent < 0 ? Vec3{} : origin[size_t(s.joints[j].parent)]) + s.joints[j].rest.translation;
  Mesh m;
  m.name = "bench_body";
  m.material = 0;
  for (size_t j = 1; j < s.joints.size(); ++j) {
    const uint16_t parent = uint16_t(s.joints[j].parent), bone = uint16_t(j);
    const Vec3 a = origin[parent], b = origin[j];
    const uint32_t first = uint32_t(m.positions.size());
    for (int r = 0; r < kRings; ++r) {
      const float t = float(r) / (kRings - 1);
      const Vec3 centre = a + (b - a) * t;
      const float blend = r == 0 ? 0.5f : r == 1 ? 0.75f : 1.0f;
      for (int k = 0; k <= kSides; ++k) {
        const float angle = kTwoPi * float(k) / kSides;
        const Vec3 n{std::cos(angle), 0, std::sin(angle)};
        m.positions.push_back(centre + n * kRadius);
        m.normals.push_back(n);
        m.uvs.push_back({float(k) / kSides, t});
        m.joints.push_back({parent, bone, 0, 0});
        m.weights.push_back({1 - blend, blend, 0, 0});
      }
    }
    for (int r = 0; r + 1 < kRings; ++r)
      for (int k = 0; k < kSides; ++k) {
        const uint32_t p = first + uint32_t(r * (kSides + 1) + k), q = p + kSides + 1;
        m.triangles.insert(m.triangles.end(), {p, q, p + 1, p + 1, q, q + 1});
      }
  }
  return m;
}

Scene CharacterModel(const Skeleton& s) {
  Scene scene;
  scene.skeleton = s;
  scene.meshes.push_back(CharacterMesh(s));
  Material material;
  material.name = "bench_skin";
  material.texture = 0;
  scene.materials.push_back(material);
  scene.textures.push_back(CharacterTexture());
  return scene;
}

// Animation i: 60-120 frames at 30 fps, its own phases and axes; the root alone translated.
Clip CharacterClip(const Skeleton& s, int i) {
  SyntheticSpec spec{.joints = kJoints, .frames = size_t(60 + (i * 37) % 61), .frame_rate = kRate,
                     .translation_scale = 0.2f, .amplitude = 0.2f + 0.005f * float(i % 80), .animate_scale = false,
                     .seed = unsigned(i + 1)};
  Clip clip = SyntheticClip(s, spec);
  char name[16];
  std::snprintf(name, sizeof name, "Anim_%03d", i);
  clip.name = name;
  for (size_t t = 1; t < clip.tracks.size(); ++t) clip.tracks[t].translation = {};
  clip.metadata[metroid::metadata_keys::kEvntId] = kFirstEvntId + uint32_t(i);
  return clip;
}

// A loop point, two footsteps and a dust particle, spread over the clip.
std::vector<Event> ClipEvents(const Clip& clip) {
  const Seconds d = clip.duration;
  return {{0.0f, "loop:Loop", {1}, {}},
          {0.25f * d, "sound:Footstep", {0x0101, 1, 20}, {}},
          {0.5f * d, "particle:Dust", {0, 0xBE003000, 1, 0}, {}},
          {0.75f * d, "sound:Footstep", {0x0102, 1, 20}, {}}};
}

metroid_ancs::AncsFile CharacterAncs(const metroid_model::CmdlEncoded& model) {
  using namespace metroid_ancs;
  AncsFile f;
  Character c;
  c.table_count = 6;
  c.name = kCharacter;
  c.ids = {kCmdlId, model.skin_id, kCinfId};
  for (uint32_t i = 0; i < kAnimations; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "Anim_%03u", i);
    MetaAnim play;
    play.type = kPlay;
    play.play.anim_id = kFirstAnimId + i;
    play.name = name;
    play.start = {0, 2};  // 0 s, ZeroSteady
    c.animations.push_back({i, "", name});
    f.animation_set.animations.push_back({name, play});
    f.animation_set.anim_evnt.push_back({kFirstAnimId + i, kFirstEvntId + i});
  }
  c.unknown = 1;
  f.characters.push_back(std::move(c));
  f.animation_set.default_transition.type = kTrans;
  f.animation_set.default_transition.trans.duration = 0.25f;
  return f;
}

struct Input {
  Bytes pak;
  size_t frames = 0, anim_bytes = 0;
};

const Input& CharacterPak() {
  static const Input input = [] {
    const Skeleton skeleton = CharacterSkeleton();
    const metroid::CinfFile cinf = metroid::EncodeCinf(skeleton);
    metroid::EncodeSettings anim_settings;
    anim_settings.bone_ids = metroid::BoneIdsOf(metroid::DecodeCinf(cinf, metroid::RestRule::Relative));
    const metroid_model::CmdlEncoded model =
        metroid_model::EncodeCmdl(CharacterModel(skeleton), skeleton, {kCmdlId, anim_settings.bone_ids});
    if (!model.warnings.empty() || !model.skin || model.textures.size() != 1)
      throw Error::General("the bench character's model does not write as designed");
    const metroid_pak::Packing z = metroid_pak::Packing::Zlib;
    std::vector<metroid_pak::BuildMember> members = {
        {{'A', 'N', 'C', 'S'}, kAncsId, metroid_ancs::SerializeAncs(CharacterAncs(model)), z, {kCharacter}},
        {{'C', 'I', 'N', 'F'}, kCinfId, metroid::SerializeCinf(cinf), z, {}},
        {{'C', 'M', 'D', 'L'}, kCmdlId, metroid_model::SerializeCmdl(model.model), z, {}},
        {{'C', 'S', 'K', 'R'}, model.skin_id, metroid_model::SerializeCskr(*model.skin), z, {}},
        {{'T', 'X', 'T', 'R'}, model.textures[0].id, model.textures[0].bytes, z, {}}};
    Input in;
    for (int i = 0; i < kAnimations; ++i) {
      const Clip clip = CharacterClip(skeleton, i);
      Bytes anim = metroid::SerializeAnim(metroid::EncodeAnim(clip, anim_settings));
      in.frames += clip.frame_count;
      in.anim_bytes += anim.size();
      members.push_back({{'A', 'N', 'I', 'M'}, kFirstAnimId + uint32_t(i), std::move(anim), z, {}});
      members.push_back({{'E', 'V', 'N', 'T'}, kFirstEvntId + uint32_t(i),
                         metroid_ancs::SerializeEvnt(metroid_ancs::EncodeEvnt(ClipEvents(clip))), z, {}});
    }
    in.pak = metroid_pak::Build(members);
    if (const char* path = std::getenv("ANIMKIT_BENCH_WRITE")) WriteFileAtomic(path, in.pak);
    return in;
  }();
  return input;
}

Options CharacterOptions() {
  Options o;
  SetOption(o, "character", kCharacter);
  return o;
}

void Count(benchmark::State& state, const Scene& scene, const Input& in) {
  state.counters["animations"] = double(scene.clips.size());
  state.counters["joints"] = double(scene.skeleton.joints.size());
  state.counters["frames"] = double(in.frames);
  size_t vertices = 0;
  for (const Mesh& m : scene.meshes) vertices += m.positions.size();
  state.counters["vertices"] = double(vertices);
  state.counters["pak_bytes"] = double(in.pak.size());
  state.counters["anim_bytes"] = double(in.anim_bytes);
}

// What convert decodes: the PAK read, the character assembled and decoded with glTF's options.
void BM_MetroidCharacterDecode(benchmark::State& state) {
  const Input& in = CharacterPak();
  const DecodeContext context{nullptr, DecodeOptionsFor(OutputFormatFor("out.glb", ""), CharacterOptions())};
  Scene scene;
  for (auto _ : state) {
    const LoadedFile loaded = LoadBytes(in.pak, "char100.pak", "", context.options);
    scene = DecodeDocument(loaded, context);
    benchmark::DoNotOptimize(scene.clips.data());
  }
  if (scene.clips.size() != kAnimations) state.SkipWithError("the character did not decode its 100 animations");
  Count(state, scene, in);
}
BENCHMARK(BM_MetroidCharacterDecode)->Unit(benchmark::kMillisecond)->UseRealTime();

// `animkit convert char100.pak out.glb --character Bench`: Convert as the CLI calls it, the
// PAK's bytes in memory, the .glb written (atomically) to a temporary folder.
void BM_MetroidCharacterToGlb(benchmark::State& state) {
  const Input& in = CharacterPak();
  const fs::path dir = fs::temp_directory_path() / ("animkit-metroid-character-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ConvertRequest request;
  request.input = (dir / "char100.pak").string();
  request.output = (dir / "char100.glb").string();
  request.options = CharacterOptions();
  request.input_bytes = ByteView(in.pak);
  ConvertResult result;
  for (auto _ : state) result = Convert(request);
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (result.clips != kAnimations) return state.SkipWithError("the character did not convert its 100 animations");
  state.counters["animations"] = double(result.clips);
  state.counters["joints"] = double(result.joints);
  state.counters["frames"] = double(result.frames);
  state.counters["events"] = double(result.events);
  state.counters["pak_bytes"] = double(result.bytes_in);
  state.counters["glb_bytes"] = double(result.bytes_out);
}
BENCHMARK(BM_MetroidCharacterToGlb)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
