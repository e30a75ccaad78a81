// glTF export/import: round trips, the Khronos validator, malformed input.
#include "support/test_support.hpp"

#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <sys/wait.h>

namespace animkit {
namespace {

using nlohmann::json;

template <class T>
Track<T> MakeTrack(Interpolation interpolation, std::vector<Seconds> times, std::vector<T> values) {
  Track<T> t;
  t.interpolation = interpolation;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}
constexpr auto Vec3Track = &MakeTrack<Vec3>;
constexpr auto QuatTrack = &MakeTrack<QuatXYZW>;

QuatXYZW Turn(Vec3 axis, float radians) { return AxisAngle(axis, radians); }

// A small character: hierarchy, a clip of every interpolation, hidden frames,
// events, a model-space clip and a clip with no tracks at all.
Scene MakeCharacter() {
  Scene scene;
  scene.skeleton.joints = {
      {"hips", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
      {"spine", 0, {{0, 0.25f, 0}, Turn({1, 0, 0}, 0.1f), {1, 1, 1}}},
      {"head", 1, {{0, 0.5f, 0.125f}, {0, 0, 0, 1}, {1, 1, 1}}},
      {"arm_l", 1, {{0.5f, 0.375f, 0}, Turn({0, 0, 1}, 1.5f), {2, 2, 2}}},
      {"arm_r", 1, {{-0.5f, 0.375f, 0}, Turn({0, 0, 1}, -1.5f), {1, 1, 1}}},
  };
  scene.metadata = {{"source", "unit test"}, {"empty", Value::array()}, {"big", uint64_t{1} << 60}};

  Clip walk;
  walk.name = "walk";
  walk.frame_rate = 30;
  walk.frame_count = 31;
  walk.duration = 1;
  walk.loop = true;
  walk.metadata = {{"origin", "hand made"}, {"ids", {1, 2, 3}}, {"ratio", 0.5}};
  JointTrack hips;
  hips.joint = "hips";
  hips.translation = Vec3Track(Interpolation::Linear, {0, 0.5f, 1}, {{0, 1, 0}, {0, 1.125f, 0.5f}, {0, 1, 1}});
  hips.rotation = QuatTrack(Interpolation::Linear, {0, 1}, {Turn({0, 1, 0}, 0), Turn({0, 1, 0}, 0.75f)});
  JointTrack spine;
  spine.joint = "spine";
  spine.rotation = QuatTrack(Interpolation::Hermite, {0, 0.25f, 1},
                             {Turn({1, 0, 0}, 0.1f), Turn({1, 0, 0}, 0.3f), Turn({1, 0, 0}, 0.1f)});
  spine.rotation.in_tangents = {{0, 0, 0, 0}, {0.25f, 0, 0, -0.125f}, {0.5f, 0, 0, 0}};
  spine.rotation.out_tangents = {{0.125f, 0, 0, 0}, {-0.25f, 0, 0, 0.0625f}, {0, 0, 0, 0}};
  spine.translation = Vec3Track(Interpolation::Hermite, {0, 1}, {{0, 0.25f, 0}, {0, 0.375f, 0}});
  spine.translation.in_tangents = {{0, 1, 0}, {0, -1, 0}};
  spine.translation.out_tangents = {{0, 0.5f, 0}, {0, 2, 0}};
  JointTrack head;
  head.joint = "head";
  head.scale = Vec3Track(Interpolation::Step, {0, 0.5f}, {{1, 1, 1}, {1.5f, 1.5f, 1.5f}});
  JointTrack arm_l;  // hidden frames 5..9, no scale track: scale comes from the rest pose
  arm_l.joint = "arm_l";
  arm_l.rotation = QuatTrack(Interpolation::Linear, {0, 1}, {Turn({0, 0, 1}, 1.5f), Turn({0, 0, 1}, 1.0f)});
  arm_l.visible.assign(31, true);
  for (int f = 5; f <= 9; ++f) arm_l.visible[f] = false;
  JointTrack arm_r;  // hidden at the start and the end, with an animated scale
  arm_r.joint = "arm_r";
  arm_r.scale = Vec3Track(Interpolation::Linear, {0, 1}, {{1, 1, 1}, {3, 3, 3}});
  arm_r.visible.assign(20, true);
  for (int f : {0, 1, 2, 19}) arm_r.visible[f] = false;
  walk.tracks = {hips, spine, head, arm_l, arm_r};
  walk.events = {{0.25f, "footstep", {3, -1.5}, std::nullopt}, {0.5f, "swing", {}, 0.75f}, {1.0f, "", {0.1}, std::nullopt}};
  scene.clips.push_back(walk);

  Clip idle;
  idle.name = "idle";
  idle.frame_rate = 24;
  idle.frame_count = 1;
  idle.space = Space::Model;
  JointTrack idle_spine;
  idle_spine.joint = "spine";
  idle_spine.rotation = QuatTrack(Interpolation::Step, {0}, {Turn({0, 1, 0}, 0.5f)});
  idle.tracks = {idle_spine};
  scene.clips.push_back(idle);

  Clip cue;  // events only
  cue.name = "cue";
  cue.frame_rate = 60;
  cue.frame_count = 121;
  cue.duration = 2;
  cue.events = {{1.5f, "sound", {7}, std::nullopt}};
  scene.clips.push_back(cue);
  return scene;
}

// No skeleton: joints come from the tracks, named as a game file would.
Scene MakeTracksOnly() {
  Scene scene;
  Clip clip;
  clip.name = "anm_0";
  clip.frame_rate = 15;
  clip.frame_count = 16;
  clip.duration = 1;
  JointTrack a;
  a.joint = "#3";
  a.translation = Vec3Track(Interpolation::Step, {0, 0.2f, 0.4f}, {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  JointTrack b;
  b.joint = "#7";
  b.rotation = QuatTrack(Interpolation::Linear, {0, 1}, {{0, 0, 0, 1}, Turn({0, 1, 0}, 1)});
  clip.tracks = {a, b};
  scene.clips.push_back(clip);
  return scene;
}

// Data the exporter has to repair: repeated and unsorted times, negative times,
// rotations that are not unit length, one-key linear tracks, a broken parent.
Scene MakeUntidy() {
  Scene scene;
  scene.skeleton.joints = {{"root", 7, {}}, {"child", 0, {{1, 0, 0}, {0, 0, 0, 2}, {1, 1, 1}}}};
  Clip clip;
  clip.name = "untidy";
  JointTrack t;
  t.joint = "child";
  t.translation = Vec3Track(Interpolation::Linear, {-1, 0, 0, 0.5f, 0.25f, 1}, {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}});
  t.rotation = QuatTrack(Interpolation::Linear, {0.5f}, {{0, 0, 0, 5}});
  t.scale = Vec3Track(Interpolation::Hermite, {0, 1}, {{1, 1, 1}, {2, 2, 2}});  // tangents missing
  JointTrack u;
  u.joint = "extra";
  u.rotation = QuatTrack(Interpolation::Step, {0, 0.1f}, {{0, 0, 0, 0}, {1, 1, 1, 1}});
  clip.tracks = {t, u, t};
  scene.clips.push_back(clip);
  return scene;
}

template <class T>
void ExpectSameTrack(const Track<T>& a, const Track<T>& b, const std::string& what) {
  EXPECT_EQ(a.interpolation, b.interpolation) << what;
  EXPECT_EQ(a.times, b.times) << what;
  EXPECT_EQ(a.values, b.values) << what;
  EXPECT_EQ(a.in_tangents, b.in_tangents) << what;
  EXPECT_EQ(a.out_tangents, b.out_tangents) << what;
}

void ExpectSameSkeleton(const Skeleton& a, const Skeleton& b) {
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (size_t i = 0; i < a.joints.size(); ++i) {
    EXPECT_EQ(a.joints[i].name, b.joints[i].name);
    EXPECT_EQ(a.joints[i].parent, b.joints[i].parent) << a.joints[i].name;
    EXPECT_EQ(a.joints[i].rest, b.joints[i].rest) << a.joints[i].name;
  }
}

void ExpectSameEvents(const std::vector<Event>& a, const std::vector<Event>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time, b[i].time);
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].params, b[i].params);
    EXPECT_EQ(a[i].end_time, b[i].end_time);
  }
}

Scene RoundTrip(const Scene& scene, bool binary) {
  Bytes bytes = ExportGltf(scene, {.binary = binary});
  return ImportGltf(bytes, binary ? "test.glb" : "test.gltf");
}

class GltfRoundTrip : public ::testing::TestWithParam<bool> {};

TEST_P(GltfRoundTrip, CharacterKeepsEverything) {
  const Scene in = MakeCharacter();
  const Scene out = RoundTrip(in, GetParam());
  ExpectSameSkeleton(in.skeleton, out.skeleton);
  EXPECT_EQ(out.metadata, in.metadata);
  ASSERT_EQ(out.clips.size(), 3u);

  const Clip& walk = out.clips[0];
  EXPECT_EQ(walk.name, "walk");
  EXPECT_EQ(walk.frame_rate, 30);
  EXPECT_EQ(walk.frame_count, 31u);
  EXPECT_EQ(walk.duration, 1.0f);
  EXPECT_TRUE(walk.loop);
  EXPECT_EQ(walk.space, Space::Local);
  EXPECT_EQ(walk.metadata, in.clips[0].metadata);
  ExpectSameEvents(walk.events, in.clips[0].events);
  ASSERT_EQ(walk.tracks.size(), 5u);
  for (size_t i = 0; i < 4; ++i) {
    const JointTrack& a = in.clips[0].tracks[i];
    const JointTrack& b = walk.tracks[i];
    EXPECT_EQ(b.joint, a.joint);
    ExpectSameTrack(a.translation, b.translation, a.joint + " translation");
    ExpectSameTrack(a.rotation, b.rotation, a.joint + " rotation");
    ExpectSameTrack(a.scale, b.scale, a.joint + " scale");
    EXPECT_EQ(b.visible, a.visible) << a.joint;
  }
  // arm_r: visibility back, its scale now a per-frame STEP track.
  const JointTrack& arm_r = walk.tracks[4];
  EXPECT_EQ(arm_r.visible, in.clips[0].tracks[4].visible);
  EXPECT_EQ(arm_r.scale.interpolation, Interpolation::Step);
  ASSERT_EQ(arm_r.scale.size(), 31u);
  EXPECT_EQ(arm_r.scale.values[0], (Vec3{0, 0, 0}));
  EXPECT_EQ(arm_r.scale.values[30], (Vec3{3, 3, 3}));
  EXPECT_EQ(arm_r.scale.times[15], FrameTime(15, 30));

  const Clip& idle = out.clips[1];
  EXPECT_EQ(idle.name, "idle");
  EXPECT_EQ(idle.space, Space::Model);
  EXPECT_EQ(idle.frame_rate, 24);
  ASSERT_EQ(idle.tracks.size(), 1u);
  ExpectSameTrack(in.clips[1].tracks[0].rotation, idle.tracks[0].rotation, "idle spine");

  const Clip& cue = out.clips[2];
  EXPECT_EQ(cue.name, "cue");
  EXPECT_TRUE(cue.tracks.empty());
  EXPECT_EQ(cue.frame_count, 121u);
  EXPECT_EQ(cue.duration, 2.0f);
  ExpectSameEvents(cue.events, in.clips[2].events);
}

TEST_P(GltfRoundTrip, TracksOnlySceneHasNoSkeleton) {
  const Scene in = MakeTracksOnly();
  const Scene out = RoundTrip(in, GetParam());
  EXPECT_TRUE(out.skeleton.empty());
  ASSERT_EQ(out.clips.size(), 1u);
  ASSERT_EQ(out.clips[0].tracks.size(), 2u);
  EXPECT_EQ(out.clips[0].tracks[0].joint, "#3");
  EXPECT_EQ(out.clips[0].tracks[1].joint, "#7");
  ExpectSameTrack(in.clips[0].tracks[0].translation, out.clips[0].tracks[0].translation, "#3");
  ExpectSameTrack(in.clips[0].tracks[1].rotation, out.clips[0].tracks[1].rotation, "#7");
  EXPECT_EQ(out.clips[0].frame_rate, 15);
}

TEST_P(GltfRoundTrip, EmptySceneStaysEmpty) {
  const Scene out = RoundTrip(Scene{}, GetParam());
  EXPECT_TRUE(out.skeleton.empty());
  EXPECT_TRUE(out.clips.empty());
}

TEST_P(GltfRoundTrip, UntidyDataIsRepaired) {
  const Scene out = RoundTrip(MakeUntidy(), GetParam());
  ASSERT_EQ(out.skeleton.joints.size(), 3u);
  EXPECT_EQ(out.skeleton.joints[0].parent, -1);  // parent 7 does not exist
  EXPECT_EQ(out.skeleton.joints[2].name, "extra");
  ASSERT_EQ(out.clips.size(), 1u);
  const Clip& clip = out.clips[0];
  ASSERT_EQ(clip.tracks.size(), 2u);  // the repeated track is dropped
  const auto& t = clip.tracks[0].translation;
  EXPECT_EQ(t.times, (std::vector<Seconds>{0, 0.5f, 1}));
  EXPECT_EQ(t.values[0].x, 2);  // time 0 three times (one clamped): the last wins
  EXPECT_EQ(t.values[1].x, 3);  // 0.25 after 0.5 is out of order: dropped
  // One key at the joint's rest: no channel, and import gives it back as one STEP key (at_rest).
  EXPECT_EQ(clip.tracks[0].rotation.interpolation, Interpolation::Step);
  EXPECT_EQ(clip.tracks[0].rotation.values[0], (QuatXYZW{0, 0, 0, 1}));
  EXPECT_EQ(clip.tracks[0].scale.interpolation, Interpolation::Linear);
  for (const QuatXYZW& q : clip.tracks[1].rotation.values) EXPECT_NEAR(Dot(q, q), 1.0f, 1e-6f);
}

INSTANTIATE_TEST_SUITE_P(Gltf, GltfRoundTrip, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? std::string("glb") : std::string("gltf"); });

// Edits the JSON of a .gltf export (tests only; the library never writes JSON by hand).
Bytes EditGltf(const Scene& scene, const std::function<void(json&)>& edit) {
  Bytes bytes = ExportGltf(scene, {.binary = false});
  json doc = json::parse(bytes.begin(), bytes.end());
  edit(doc);
  std::string text = doc.dump();
  return Bytes(text.begin(), text.end());
}

void StripAnimkitExtras(json& doc) {
  doc["asset"].erase("extras");
  for (json& a : doc["animations"]) a.erase("extras");
}

// Names read from game files need not be UTF-8 (found by fuzzing a CINF whose joint
// name ends in 0xFF 0xFF): the export replaces the bad bytes instead of aborting.
TEST(GltfExport, NamesThatAreNotUtf8BecomeReplacementCharacters) {
  Scene scene;
  scene.skeleton.joints.push_back(Joint{"root", -1, {}});
  scene.skeleton.joints.push_back(Joint{"joint\xff\xff", 0, {}});
  Clip clip;
  clip.name = "clip\xfe";
  clip.frame_rate = 30;
  clip.frame_count = 2;
  clip.duration = 1.0 / 30;
  clip.events.push_back(Event{0, "step\xc3", {}, std::nullopt});
  scene.clips.push_back(clip);
  for (bool binary : {true, false}) {
    Scene out;
    ASSERT_NO_THROW(out = RoundTrip(scene, binary));
    ASSERT_EQ(out.skeleton.joints.size(), 2u);
    EXPECT_EQ(out.skeleton.joints[1].name, "joint\xEF\xBF\xBD\xEF\xBF\xBD");
    ASSERT_EQ(out.clips.size(), 1u);
    EXPECT_EQ(out.clips[0].name, "clip\xEF\xBF\xBD");
    ASSERT_EQ(out.clips[0].events.size(), 1u);
    EXPECT_EQ(out.clips[0].events[0].name, "step\xEF\xBF\xBD");
  }
}

TEST(GltfImport, FrameRateFromKeySpacingWithoutExtras) {
  Scene scene = MakeTracksOnly();  // keys every 0.2 s and 1 s
  Scene out = ImportGltf(EditGltf(scene, StripAnimkitExtras), "plain.gltf");
  ASSERT_EQ(out.clips.size(), 1u);
  EXPECT_EQ(out.clips[0].frame_rate, 5);
  EXPECT_EQ(out.clips[0].duration, 1.0f);
  EXPECT_EQ(out.clips[0].frame_count, 6u);
  EXPECT_FALSE(out.clips[0].loop);
  // Without animkit extras the skin's joints are the skeleton.
  EXPECT_EQ(out.skeleton.joints.size(), 2u);

  scene.clips[0].tracks[0].translation.times = {0, 0.1f, 0.35f};  // uneven
  out = ImportGltf(EditGltf(scene, StripAnimkitExtras), "plain.gltf");
  EXPECT_EQ(out.clips[0].frame_rate, 30);
  EXPECT_EQ(out.clips[0].frame_count, 31u);
}

TEST(GltfImport, UnnamedObjectsGetNames) {
  Bytes bytes = EditGltf(MakeTracksOnly(), [](json& doc) {
    StripAnimkitExtras(doc);
    doc["animations"][0].erase("name");
    doc["nodes"][0].erase("name");
  });
  Scene out = ImportGltf(bytes, "x.gltf");
  EXPECT_EQ(out.clips[0].name, "animation_0");
  EXPECT_EQ(out.clips[0].tracks[0].joint, "node_0");
}

TEST(GltfImport, MatrixNodesAreDecomposed) {
  Bytes bytes = EditGltf(MakeTracksOnly(), [](json& doc) {
    StripAnimkitExtras(doc);
    doc["nodes"][0] = {{"name", "m"}, {"matrix", {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}}};
  });
  Scene out = ImportGltf(bytes, "x.gltf");
  ASSERT_FALSE(out.skeleton.empty());
  EXPECT_EQ(out.skeleton.joints[0].rest.translation, (Vec3{1, 2, 3}));
  EXPECT_NEAR(out.skeleton.joints[0].rest.scale.x, 2, 1e-6);
}

TEST(GltfImport, NormalizedShortRotationsAreDecoded) {
  // Replace the rotation output of "#7" with normalized shorts (identity, then -1 on x).
  Scene scene = MakeTracksOnly();
  Bytes bytes = EditGltf(scene, [](json& doc) {
    json& buffer = doc["buffers"][0];
    const std::string head = "data:application/octet-stream;base64,";
    // 2 keys x 4 shorts: (0,0,0,32767), (-32768,0,0,0)
    std::string extra = "AAAAAAAA/38AgAAAAAAAAA==";
    json view = {{"buffer", 1}, {"byteLength", 16}};
    doc["buffers"].push_back({{"byteLength", 16}, {"uri", head + extra}});
    doc["bufferViews"].push_back(view);
    json accessor = {{"bufferView", doc["bufferViews"].size() - 1}, {"componentType", 5122}, {"normalized", true},
                     {"count", 2}, {"type", "VEC4"}};
    doc["accessors"].push_back(accessor);
    json& animation = doc["animations"][0];
    for (json& channel : animation["channels"])
      if (channel["target"]["path"] == "rotation")
        animation["samplers"][channel["sampler"].get<int>()]["output"] = doc["accessors"].size() - 1;
    (void)buffer;
  });
  Scene out = ImportGltf(bytes, "x.gltf");
  const auto& r = out.clips[0].tracks[1].rotation;
  ASSERT_EQ(r.values.size(), 2u);
  EXPECT_EQ(r.values[0], (QuatXYZW{0, 0, 0, 1}));
  EXPECT_EQ(r.values[1], (QuatXYZW{-1, 0, 0, 0}));
}

uint32_t U32At(const Bytes& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}

TEST(GltfImport, ExternalBufferNextToTheFile) {
  // Split a GLB into .gltf + .bin.
  Bytes glb = ExportGltf(MakeCharacter(), {.binary = true});
  size_t json_length = U32At(glb, 12);
  json doc = json::parse(glb.begin() + 20, glb.begin() + 20 + static_cast<std::ptrdiff_t>(json_length));
  size_t bin_at = 20 + json_length;
  Bytes bin(glb.begin() + static_cast<std::ptrdiff_t>(bin_at + 8),
            glb.begin() + static_cast<std::ptrdiff_t>(bin_at + 8 + doc["buffers"][0]["byteLength"].get<size_t>()));
  doc["buffers"][0]["uri"] = "walk data.bin";
  std::filesystem::path dir = test::TempDir("gltf-external");
  std::ofstream(dir / "walk data.bin", std::ios::binary).write(reinterpret_cast<const char*>(bin.data()), std::streamsize(bin.size()));
  std::string text = doc.dump();
  Bytes bytes(text.begin(), text.end());
  Scene scene = ImportGltf(bytes, (dir / "walk.gltf").string());
  ASSERT_EQ(scene.clips.size(), 3u);
  EXPECT_EQ(scene.clips[0].tracks[0].translation.values, MakeCharacter().clips[0].tracks[0].translation.values);
  // Without a path (or elsewhere) the file is not found: an Error, not a crash.
  EXPECT_THROW(ImportGltf(bytes, ""), Error);
  EXPECT_THROW(ImportGltf(bytes, "/nonexistent/dir/walk.gltf"), Error);
}

TEST(GltfFormat, ProbeReadWriteInfoDecode) {
  const FormatDescriptor* format = FindFormat("gltf");
  ASSERT_NE(format, nullptr);
  Bytes glb = ExportGltf(MakeCharacter(), {.binary = true});
  Bytes text = ExportGltf(MakeCharacter(), {.binary = false});
  EXPECT_EQ(format->probe(glb, ""), kProbeMagic);
  EXPECT_EQ(format->probe(text, ""), kProbeStructure);
  EXPECT_EQ(format->probe(Bytes{'x'}, ".glb"), kProbeExtension);
  EXPECT_EQ(format->probe(Bytes{'x'}, ".bin"), kProbeNone);
  for (const Bytes& bytes : {glb, text}) {
    auto doc = format->read(bytes, {});
    EXPECT_EQ(doc->Write(), bytes);
    Value info = doc->Info();
    EXPECT_EQ(info["animations"]["count"], 3);
    EXPECT_EQ(info["skins"]["count"], 1);
    EXPECT_EQ(info["nodes"]["count"], 6);
    EXPECT_EQ(info["asset"]["version"], "2.0");
    Scene scene = doc->Decode(DecodeContext{});
    EXPECT_EQ(scene.clips.size(), 3u);
  }
  EncodeContext context;
  context.output_path = "out/walk.gltf";
  EXPECT_EQ(format->encode(MakeCharacter(), context)->Write(), text);
  context.output_path = "out/walk.glb";
  EXPECT_EQ(format->encode(MakeCharacter(), context)->Write(), glb);
}

TEST(GltfValidator, ExportsHaveNoErrorsOrWarnings) {
  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) GTEST_SKIP() << reason;

  std::filesystem::path dir = test::TempDir("gltf-validator");
  std::vector<std::filesystem::path> files;
  std::vector<std::pair<std::string, Scene>> scenes = {
      {"character", MakeCharacter()}, {"tracks_only", MakeTracksOnly()}, {"untidy", MakeUntidy()}, {"empty", Scene{}}};
  for (const auto& [name, scene] : scenes)
    for (bool binary : {true, false}) {
      std::filesystem::path file = dir / (name + (binary ? ".glb" : ".gltf"));
      Bytes bytes = ExportGltf(scene, {.binary = binary});
      std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
      files.push_back(file);
    }
  std::string output;
  int status = test::RunGltfValidator(files, &output);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("\"errors\":0,\"warnings\":0"), std::string::npos) << output;
}

// Every malformed input throws animkit::Error: nothing else, no crash.
void ExpectImportError(const Bytes& bytes, const std::string& what) {
  try {
    ImportGltf(bytes, "bad.gltf");
    ADD_FAILURE() << what << ": accepted";
  } catch (const Error&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw a non-animkit error: " << e.what();
  }
}

std::vector<size_t> TruncationLengths(size_t size) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n < size; n += n < 200 ? 1 : 1 + size / 300) lengths.push_back(n);
  lengths.push_back(size - 1);
  return lengths;
}

TEST(GltfMalformed, EveryTruncationFails) {
  const FormatDescriptor* format = FindFormat("gltf");
  ASSERT_NE(format, nullptr);
  for (bool binary : {true, false}) {
    Bytes bytes = ExportGltf(MakeCharacter(), {.binary = binary});
    for (size_t n : TruncationLengths(bytes.size())) {
      // Only a trailing newline may go: what is left is still the whole document.
      if (!binary && std::all_of(bytes.begin() + static_cast<std::ptrdiff_t>(n), bytes.end(), [](uint8_t c) { return std::isspace(c); }))
        continue;
      Bytes prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      ExpectImportError(prefix, (binary ? "glb" : "gltf") + std::string(" truncated to ") + std::to_string(n));
      EXPECT_THROW(format->read(prefix, {}), Error) << n;
    }
  }
}

TEST(GltfMalformed, GlbErrorsNameAnOffset) {
  Bytes bytes = ExportGltf(MakeCharacter(), {.binary = true});
  bytes.resize(bytes.size() - 4);
  try {
    ImportGltf(bytes, "cut.glb");
    FAIL();
  } catch (const Error& e) {
    EXPECT_TRUE(e.byte_offset().has_value()) << e.what();
    EXPECT_EQ(e.file(), "cut.glb");
  }
  Bytes version = ExportGltf(MakeCharacter(), {.binary = true});
  version[4] = 1;
  ExpectImportError(version, "GLB version 1");
  Bytes chunk = ExportGltf(MakeCharacter(), {.binary = true});
  chunk[12] = 0xff, chunk[13] = 0xff;  // JSON chunk longer than the file
  ExpectImportError(chunk, "JSON chunk length");
}

// The accessors of the first sampler of the first animation.
json& Input(json& d) { return d["accessors"][d["animations"][0]["samplers"][0]["input"].get<int>()]; }
json& Output(json& d) { return d["accessors"][d["animations"][0]["samplers"][0]["output"].get<int>()]; }

TEST(GltfMalformed, BadJsonStructureFails) {
  const Scene scene = MakeCharacter();
  using Edit = std::function<void(json&)>;
  const std::vector<std::pair<std::string, Edit>> edits = {
      {"accessor offset past its view", [](json& d) { Input(d)["byteOffset"] = 1 << 20; }},
      {"accessor count past its view", [](json& d) { Output(d)["count"] = 1 << 20; }},
      {"huge accessor count", [](json& d) { Input(d)["count"] = 4294967295u; }},
      {"accessor without view, huge count", [](json& d) { Input(d).erase("bufferView"), Input(d)["count"] = 1 << 30; }},
      {"zero accessor count", [](json& d) { Input(d)["count"] = 0; }},
      {"unknown buffer view", [](json& d) { Output(d)["bufferView"] = 99; }},
      {"negative buffer view", [](json& d) { Output(d)["bufferView"] = -5; }},
      {"sparse count past count", [](json& d) {
         Output(d)["sparse"] = {{"count", 100}, {"indices", {{"bufferView", 0}, {"componentType", 5125}, {"byteOffset", 0}}},
                                {"values", {{"bufferView", 0}}}};
         Output(d)["bufferView"] = -1;
       }},
      {"view past buffer", [](json& d) { d["bufferViews"][0]["byteLength"] = 1 << 20; }},
      {"view offset past buffer", [](json& d) { d["bufferViews"][1]["byteOffset"] = 1 << 20; }},
      {"tiny stride", [](json& d) { d["bufferViews"][1]["byteStride"] = 4; }},
      {"missing buffers", [](json& d) { d.erase("buffers"); }},
      {"buffer without data", [](json& d) { d["buffers"][0].erase("uri"); }},
      {"external buffer that does not exist", [](json& d) { d["buffers"][0]["uri"] = "nope.bin"; }},
      {"wrong input component type", [](json& d) {
         for (json& a : d["animations"]) for (json& s : a["samplers"]) d["accessors"][s["input"].get<int>()]["componentType"] = 5123;
       }},
      {"wrong output type", [](json& d) {
         for (json& a : d["animations"]) for (json& s : a["samplers"]) d["accessors"][s["output"].get<int>()]["type"] = "VEC2";
       }},
      {"unnormalized integer rotations", [](json& d) {
         for (json& a : d["animations"]) for (json& s : a["samplers"]) d["accessors"][s["output"].get<int>()]["componentType"] = 5122;
       }},
      {"unknown component type", [](json& d) { Output(d)["componentType"] = 1234; }},
      {"unknown sampler", [](json& d) { d["animations"][0]["channels"][0]["sampler"] = 42; }},
      {"unknown target node", [](json& d) { d["animations"][0]["channels"][0]["target"]["node"] = 42; }},
      {"unknown input accessor", [](json& d) { d["animations"][0]["samplers"][0]["input"] = 420; }},
      {"unknown interpolation", [](json& d) { d["animations"][0]["samplers"][0]["interpolation"] = "BEZIER"; }},
      {"output count mismatch", [](json& d) {
         json& s = d["animations"][0]["samplers"][0];
         s["output"] = s["input"];
       }},
      {"node child that does not exist", [](json& d) { d["nodes"][0]["children"].push_back(99); }},
      {"node with two parents", [](json& d) { d["nodes"][2]["children"].push_back(3); }},
      {"node cycle", [](json& d) { d["nodes"][2]["children"].push_back(0); }},
      {"bad skin joint", [](json& d) { d["skins"][0]["joints"].push_back(77); }},
      {"bad node rotation", [](json& d) { d["nodes"][1]["rotation"] = {1, 2}; }},
      {"not json at all", [](json& d) { d = "just a string"; }},
      {"no asset", [](json& d) { d.erase("asset"); }},
  };
  for (const auto& [name, edit] : edits) ExpectImportError(EditGltf(scene, edit), name);
  // Nesting deeper than anything glTF needs is refused before tinygltf recurses into it.
  Bytes plain = EditGltf(scene, [](json&) {});
  std::string text(plain.begin(), plain.end());
  text.insert(text.find('{') + 1, "\"extras\": " + std::string(100000, '[') + std::string(100000, ']') + ",");
  ExpectImportError(Bytes(text.begin(), text.end()), "deep extras");
  ExpectImportError(Bytes{}, "empty");
  const std::string junk = "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [";
  ExpectImportError(Bytes(junk.begin(), junk.end()), "cut JSON");
}

TEST(GltfMalformed, CorruptedBytesNeverCrash) {
  // Flip bytes across a GLB: each result either imports or throws animkit::Error.
  Bytes original = ExportGltf(MakeCharacter(), {.binary = true});
  for (size_t i = 0; i < original.size(); i += 1 + original.size() / 400) {
    for (uint8_t value : {uint8_t{0x00}, uint8_t{0xff}, uint8_t{0x7f}}) {
      Bytes bytes = original;
      bytes[i] = value;
      try {
        ImportGltf(bytes, "corrupt.glb");
      } catch (const Error&) {
      } catch (const std::exception& e) {
        ADD_FAILURE() << "byte " << i << " = " << int(value) << ": " << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace animkit
