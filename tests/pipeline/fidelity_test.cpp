// The edit round trip on every format: each sample and fixture goes file -> glb -> file
// (with its companion skeleton or model), once with --template (the original) and once
// from the glTF's extras alone, and comes back within the format's own precision, with
// its timing, events and metadata, and no more than 1.5x its keys. One line per file
// is printed; docs/fidelity.md keeps that table.
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/io/io.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "support/test_support.hpp"

namespace animkit {
namespace {

namespace fs = std::filesystem;

// What a format stores a pose with, as the largest error a round trip may add.
struct Precision {
  double rotation;     // radians
  double translation;  // relative to the clip's largest translation (its model's size)
  const char* what;
};

constexpr double kTurn = 6.283185307179586;
const Precision kFloats{1e-5, 1e-5, "32-bit floats"};

Precision PrecisionOf(std::string_view format, const Scene& scene) {
  if (format == "psx-anm") return {kTurn / 4096, 1e-3, "1/4096 turn; 16-bit integer translation"};
  if (format == "edf-canm") return {kTurn / 65535, 2e-5, "16-bit steps over each channel's range"};
  if (format == "metroid-anim") {
    const bool v0 = !scene.clips.empty() && scene.clips[0].metadata.value(metroid::metadata_keys::kAnimVersion, 2) == 0;
    if (!v0) return {1e-3, 1e-3, "v2 quantization (--max-error-rot 0.001, --max-error-pos 0.001 x range)"};
  }
  if (format == "kh2-bar" || format == "kh2-motion")
    return {3e-4, 3e-4, "KH2 key fit (--kh2-tolerance 1e-4 per Euler channel, 3 channels), floats"};
  return kFloats;
}

// Keys a file stores: KH2's key tables (every "keys" array its info lists), else the
// keys it decodes to (per frame or per keyed frame, as the other formats store them).
size_t StoredKeys(const Value& info) {
  size_t keys = 0;
  if (info.is_object()) {
    for (auto item : info.items())
      keys += item.key() == "keys" && item.value().is_array() ? item.value().size() : StoredKeys(item.value());
  } else if (info.is_array()) {
    for (const Value& v : info) keys += StoredKeys(v);
  }
  return keys;
}

size_t KeyCount(const Scene& scene) {
  size_t keys = 0;
  for (const Clip& c : scene.clips) {
    for (const JointTrack& t : c.tracks) keys += t.translation.times.size() + t.rotation.times.size() + t.scale.times.size();
    for (const CameraTrack& cam : c.cameras) keys += cam.times.size();
  }
  return keys;
}

// The largest translation a clip or its rest pose holds: the model's size, for relative errors.
double SizeOf(const Scene& scene, const Skeleton& rest) {
  auto length = [](Vec3 v) { return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z); };
  double size = 0;
  for (const Joint& j : rest.joints) size = std::max(size, length(j.rest.translation));
  for (const Clip& c : scene.clips) {
    for (const JointTrack& t : c.tracks)
      for (Vec3 v : t.translation.values) size = std::max(size, length(v));
    for (const CameraTrack& cam : c.cameras)
      for (size_t k = 0; k < cam.times.size(); ++k)
        size = std::max({size, length(cam.positions[k]), length(cam.targets[k])});
  }
  return size > 0 ? size : 1;
}

// Metadata without the decoders' note of the file it was read from (KH2's kh2_source).
Value Carried(Value metadata) {
  if (metadata.is_object()) metadata.erase(kh2::metadata_keys::kSource);
  return metadata;
}

struct Difference {
  double rotation = 0, translation = 0;  // translation relative to the size
};

// Poses at every frame, cameras at every key; timing, events and metadata must match.
// Files whose extras alone cannot restore everything, and what only --template does.
const std::map<std::string, std::string> kTemplateOnly = {
    {"kh2/interpolated.motion", "IK helpers, constraints and the header's frame count (a warning names the template)"},
    {"kh2_bar/p_ex00.mset", "the empty and duplicate slots of the MSET: the clips are laid out in slots 0, 1, 2"},
    {"kh2-baked/M_EX660.mset", "IK helpers, constraints, the frame count and the slot layout (links, empty slots)"},
    {"kh2-baked/M_EX660_RAW.mset", "the slot layout of the MSET (links, empty slots): the clips are laid out in slots 0.."},
};

Difference Compare(const Scene& a, const Scene& b, const Skeleton& rest, double size, const std::string& what,
                   bool all_metadata) {
  Difference d;
  EXPECT_EQ(a.clips.size(), b.clips.size()) << what;
  if (all_metadata) {
    EXPECT_EQ(Carried(a.metadata), Carried(b.metadata)) << what << ": scene metadata";
  }
  for (size_t i = 0; i < std::min(a.clips.size(), b.clips.size()); ++i) {
    const Clip& x = a.clips[i];
    const Clip& y = b.clips[i];
    const std::string clip = what + " clip '" + x.name + "'";
    if (all_metadata) {
      EXPECT_EQ(x.name, y.name) << clip;
      EXPECT_EQ(Carried(x.metadata), Carried(y.metadata)) << clip << ": metadata";
    }
    EXPECT_EQ(x.frame_count, y.frame_count) << clip;
    EXPECT_NEAR(x.frame_rate, y.frame_rate, 1e-6) << clip;
    EXPECT_EQ(x.loop, y.loop) << clip;
    EXPECT_EQ(x.events.size(), y.events.size()) << clip << ": events";
    for (size_t e = 0; e < std::min(x.events.size(), y.events.size()); ++e) {
      EXPECT_EQ(x.events[e].name, y.events[e].name) << clip << " event " << e;
      EXPECT_NEAR(x.events[e].time, y.events[e].time, 1e-4) << clip << " event " << e;
      EXPECT_EQ(x.events[e].params, y.events[e].params) << clip << " event " << e;
    }
    const PoseDifference p = ComparePoses(x, y, &rest);
    d.rotation = std::max(d.rotation, p.rotation);
    d.translation = std::max(d.translation, p.translation / size);
    EXPECT_EQ(x.cameras.size(), y.cameras.size()) << clip << ": cameras";
    for (size_t c = 0; c < std::min(x.cameras.size(), y.cameras.size()); ++c) {
      const CameraTrack& u = x.cameras[c];
      const CameraTrack& v = y.cameras[c];
      EXPECT_EQ(u.times.size(), v.times.size()) << clip << " camera " << c;
      for (size_t k = 0; k < std::min(u.times.size(), v.times.size()); ++k) {
        const Vec3 dp = u.positions[k] - v.positions[k], dt = u.targets[k] - v.targets[k];
        d.translation = std::max({d.translation, std::hypot(dp.x, dp.y, dp.z) / size, std::hypot(dt.x, dt.y, dt.z) / size});
      }
    }
  }
  return d;
}

struct Leg {
  Difference error;
  size_t keys = 0, bytes = 0;
  bool identical = false;
};

struct Row {
  std::string file, format;
  size_t keys = 0, bytes = 0;
  Leg in_glb;  // the glb itself, read back, against the original (keys: the glb's, bytes: its size)
  Leg with_template, from_extras;
};

// The pose a glb can hold of a scene: a per-axis clip as its closest matrix-rule locals,
// converted back (the loss where a joint with children scales non-uniformly is measured
// apart: ScaleRuleFidelity.*).
Scene ThroughGltfScaleRule(const Scene& original) {
  Scene carried = original;
  ConvertScaleInheritance(carried, ScaleInheritance::Matrix);
  for (size_t c = 0; c < carried.clips.size(); ++c)
    if (original.clips[c].scale_inheritance == ScaleInheritance::PerAxis)
      ConvertScaleInheritance(carried.skeleton, carried.clips[c], ScaleInheritance::PerAxis);
  return carried;
}

// A file and the skeleton to give it ("": its companion, found as --skeleton auto finds it).
struct Source {
  std::string path, skeleton;
};

// One file through glb and back; both ways back are checked against the original.
Row RoundTrip(const Source& source, const fs::path& dir) {
  const std::string& path = source.path;
  const std::string skeleton = source.skeleton.empty() ? std::string(kSkeletonAuto) : source.skeleton;
  Row row;
  row.file = fs::path(path).parent_path().filename().string() + "/" + fs::path(path).filename().string();
  const LoadedFile loaded = LoadFile(path, "", {});
  row.format = std::string(loaded.format->id);
  const DecodedScene original = DecodeWithSkeleton(loaded, skeleton, {});
  const Skeleton& rest = original.rest();
  const std::string companion = original.skeleton.path;
  const bool has_key_tables = StoredKeys(loaded.document->Info()) > 0;
  auto keys_of = [&](const LoadedFile& file, const Scene& scene) {
    return has_key_tables ? StoredKeys(file.document->Info()) : KeyCount(scene);
  };
  row.keys = keys_of(loaded, original.scene);
  row.bytes = loaded.input_bytes;
  const Precision precision = PrecisionOf(row.format, original.scene);
  const double size = SizeOf(original.scene, rest);
  const std::string stem = fs::path(path).filename().string();

  ConvertRequest to_glb;
  to_glb.input = path;
  to_glb.output = (dir / (stem + ".glb")).string();
  to_glb.skeleton = skeleton;
  (void)Convert(to_glb);
  {  // What glTF itself holds: the keys that move, a KH2 rotation within its spline's tolerance.
    const Bytes glb = ReadFileBytes(to_glb.output);
    const Scene in_glb = ImportGltf(glb, to_glb.output);
    row.in_glb.bytes = glb.size();
    row.in_glb.keys = KeyCount(in_glb);
    const std::string what = row.file + " (glb)";
    row.in_glb.error = Compare(ThroughGltfScaleRule(original.scene), in_glb, rest, size, what, false);
    EXPECT_LE(row.in_glb.error.rotation, precision.rotation) << what << ": " << precision.what;
    EXPECT_LE(row.in_glb.error.translation, precision.translation) << what << ": " << precision.what;
  }

  auto back = [&](bool with_template) {
    Leg leg;
    ConvertRequest request;
    request.input = to_glb.output;
    request.output = (dir / ((with_template ? "template." : "extras.") + stem)).string();
    if (!with_template) request.output_format = row.format;  // with one: the template's format (.anm is shared)
    request.skeleton = with_template ? skeleton : companion;
    if (with_template) request.template_path = path;
    const std::string what = row.file + (with_template ? " (--template)" : " (extras)");
    const ConvertResult result = Convert(request);
    EXPECT_EQ(result.skeleton.path, companion) << what << ": the template's companion";
    const Bytes written = ReadFileBytes(request.output);
    const Bytes source = ReadFileBytes(path);
    leg.bytes = written.size();
    leg.identical = written == source;
    const LoadedFile written_file = LoadFile(request.output, row.format, {});
    const DecodedScene decoded = DecodeWithSkeleton(written_file, companion, {});
    leg.keys = keys_of(written_file, decoded.scene);
    const bool all_metadata = with_template || !kTemplateOnly.contains(row.file);
    // From the extras: against the pose the glb holds. A per-axis clip (KH2) is in glTF as
    // its closest matrix-rule locals, converted back when read; that loss, where a joint
    // with children scales non-uniformly, is measured apart (ScaleRuleFidelity.*).
    const Scene carried = with_template ? original.scene : ThroughGltfScaleRule(original.scene);
    leg.error = Compare(carried, decoded.scene, rest, size, what, all_metadata);
    EXPECT_LE(leg.error.rotation, precision.rotation) << what << ": " << precision.what;
    EXPECT_LE(leg.error.translation, precision.translation) << what << ": " << precision.what;
    EXPECT_LE(double(leg.keys), 1.5 * double(row.keys)) << what << ": key count";
    // Unedited through its template: the template's bytes (docs/fidelity.md).
    if (with_template) {
      EXPECT_TRUE(leg.identical) << what << ": not the template's bytes";
    }
    return leg;
  };
  row.with_template = back(true);
  row.from_extras = back(false);
  return row;
}

std::vector<Source> Files() {
  std::vector<Source> files;
  for (const char* sample :
       {"psx_anm/dance.anm", "psx_anm/wave.anm", "psx_tmd/figure.anm", "psx_anc/orbit.anc", "text_anm/authored.anm",
        "text_anm/figure.anm", "metroid_anim/run.anim", "metroid_anim/hologram_v0.anim", "edf_canm/soldier5.canm",
        "edf_canm/soldier6.canm", "kh2_bar/walk.anb", "kh2_bar/raw.anb", "kh2_bar/p_ex00.mset",
        "kh2_motion/wave.motion", "kh2_motion/wave_raw.motion"})
    files.push_back({test::SourcePath("samples/" + std::string(sample)), ""});
  if (const std::string p = test::FixturePath("kh2/interpolated.motion"); !p.empty()) files.push_back({p, ""});
  // Sora's P_EX100.mdlx (229 bones) is the only model beside these and not theirs (3 bones, and
  // none): they go through alone, from a copy in a folder of their own, as they were made.
  const fs::path alone = test::TempDir("fidelity-alone") / "kh2";
  fs::create_directories(alone);
  for (const char* fixture : {"kh2/raw.motion", "kh2/test-0000.anb"}) {
    if (const std::string p = test::FixturePath(fixture); !p.empty()) {
      const fs::path copy = alone / fs::path(p).filename();
      fs::copy_file(p, copy, fs::copy_options::overwrite_existing);
      files.push_back({copy.string(), ""});
    }
  }
  // A real moveset (interpolated, with IK helpers and links) and the same motions baked
  // to raw matrices; no model exists for them: their skeleton is a glTF beside them.
  const std::string skeleton = test::FixturePath("kh2-baked/M_EX660.skeleton.gltf");
  for (const char* fixture : {"kh2-baked/M_EX660.mset", "kh2-baked/M_EX660_RAW.mset"})
    if (const std::string p = test::FixturePath(fixture); !p.empty() && !skeleton.empty()) files.push_back({p, skeleton});
  return files;
}

std::string Cell(const Leg& leg) {
  char text[160];
  std::snprintf(text, sizeof text, "%.2g rad, %.2g | %zu | %zu%s", leg.error.rotation, leg.error.translation, leg.keys,
                leg.bytes, leg.identical ? " (identical)" : "");
  return text;
}

TEST(Fidelity, EveryFileComesBackThroughGlbWithinItsFormatsPrecision) {
  ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  const fs::path dir = test::TempDir("fidelity");
  const std::vector<Source> files = Files();
  if (test::FixturePath("kh2/interpolated.motion").empty())
    std::printf("fidelity: ../shared/fixtures/kh2 absent: its fixtures are skipped\n");
  if (test::FixturePath("kh2-baked/M_EX660.mset").empty())
    std::printf("fidelity: ../shared/fixtures/kh2-baked absent: the real moveset is skipped\n");
  std::printf("| file | format | keys | bytes | glb: error (rotation, translation / size) | keys | bytes "
              "| --template: error | keys | bytes | extras only: error | keys | bytes |\n");
  std::printf("|---|---|--:|--:|---|--:|--:|---|--:|--:|---|--:|--:|\n");
  for (const Source& source : files) {
    SCOPED_TRACE(source.path);
    const Row row = RoundTrip(source, dir);
    std::printf("| %s | %s | %zu | %zu | %s | %s | %s |\n", row.file.c_str(), row.format.c_str(), row.keys, row.bytes,
                Cell(row.in_glb).c_str(), Cell(row.with_template).c_str(), Cell(row.from_extras).c_str());
  }
}

// A text ANM only cuts a model's timeline: an edited clip cannot go back into the
// declared sets, so the sets are laid out on a new timeline (with a warning), and the
// edit is what the new pair decodes to.
TEST(Fidelity, AnEditedTextAnmClipGoesToANewTimelineInsteadOfBeingDropped) {
  const fs::path dir = test::TempDir("fidelity-text-anm-edit");
  const std::string source = test::SourcePath("samples/text_anm/figure.anm");
  ConvertRequest to_glb;
  to_glb.input = source;
  to_glb.output = (dir / "exported.glb").string();  // not figure.*: that would be the companion
  to_glb.skeleton = std::string(kSkeletonAuto);
  (void)Convert(to_glb);
  Scene scene = ImportGltf(ReadFileBytes(to_glb.output), to_glb.output);
  ASSERT_FALSE(scene.clips.empty());
  Clip& clip = scene.clips[1];
  JointTrack* edited = nullptr;
  for (JointTrack& t : clip.tracks)
    if (!t.rotation.values.empty() && !edited) edited = &t;
  ASSERT_NE(edited, nullptr);
  const QuatXYZW turn = AxisAngle({0, 0, 1}, 0.5f);
  for (QuatXYZW& q : edited->rotation.values) q = Normalize(Multiply(turn, q));
  WriteFileAtomic((dir / "edited.glb").string(), ExportGltf(scene, {}));

  ConvertRequest back;
  back.input = (dir / "edited.glb").string();
  back.output = (dir / "figure.anm").string();
  back.skeleton = std::string(kSkeletonAuto);
  back.template_path = source;
  const ConvertResult result = Convert(back);
  EXPECT_EQ(result.output_format->id, "text-anm");
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_NE(result.warnings[0].find("clip '" + clip.name + "' is not the motion its set cuts"), std::string::npos)
      << result.warnings[0];
  ASSERT_EQ(result.written.size(), 2u);  // the sets and their new timeline
  const LoadedFile written = LoadFile(back.output, "text-anm", {});
  const DecodedScene decoded = DecodeWithSkeleton(written, std::string(kSkeletonAuto), {});
  EXPECT_EQ(decoded.skeleton.path, result.written[1].path);
  ASSERT_EQ(decoded.scene.clips.size(), scene.clips.size());
  const PoseDifference d = ComparePoses(clip, decoded.scene.clips[1], &decoded.rest());
  EXPECT_LT(d.rotation, 1e-4) << "the edit is kept";
  const Scene original = DecodeWithSkeleton(LoadFile(source, "", {}), std::string(kSkeletonAuto), {}).scene;
  EXPECT_GT(ComparePoses(original.clips[1], decoded.scene.clips[1], &decoded.rest()).rotation, 0.4);
}

}  // namespace
}  // namespace animkit
