// Hostile input, built by hand: limits checked before allocating, external glTF
// files confined to the glTF's folder, every output through one writer.
#include "support/test_support.hpp"

#include <cerrno>
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/text_anm.hpp>

#include <nlohmann/json.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cmath>
#include <fstream>
#include <limits>

namespace animkit {
extern const FormatDescriptor kMetroidAnimFormat;
extern const FormatDescriptor kKh2BarFormat;
namespace {

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

using test::ErrorOf;

void PutU32BE(Bytes& b, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
}
void PutF32BE(Bytes& b, float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  PutU32BE(b, v);
}

// The 48-byte Metroid Prime ANIM version 0 of the report: no bones, key count 0xFFFFFFFF.
Bytes FortyEightByteAnim(float duration = 1.0f) {
  Bytes b;
  PutU32BE(b, 0);             // 0x00 version
  PutF32BE(b, duration);      // 0x04 duration
  PutU32BE(b, 0);             // 0x08
  PutF32BE(b, 1.0f / 30);     // 0x0C key interval
  PutU32BE(b, 0);             // 0x10
  PutU32BE(b, 0xFFFFFFFFu);   // 0x14 frame (key) count
  PutU32BE(b, 0);             // 0x18 root bone
  PutU32BE(b, 0);             // 0x1C bone table size
  PutU32BE(b, 0);             // 0x20 translation table size
  PutU32BE(b, 0);             // 0x24 quaternion count: 0 channels x frames
  PutU32BE(b, 0);             // 0x28 translation count
  PutU32BE(b, 0);             // 0x2C EVNT id
  return b;
}

void WriteBytes(const std::filesystem::path& path, ByteView bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}
void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// ---------------------------------------------------------------------------
// The frame count helper

TEST(Limits, CheckedFrameCountRejectsNonFiniteNegativeAndOverLimit) {
  const Limits limits;
  EXPECT_EQ(CheckedFrameCount(1.0, 30, limits, "x"), 31u);
  EXPECT_EQ(CheckedFrameCount(0.0, 30, limits, "x"), 1u);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double d : {nan, inf, -inf, -1.0})
    EXPECT_TRUE(Contains(ErrorOf([&] { CheckedFrameCount(d, 30, limits, "clip", Place::At(0x10)); }), "offset 0x10"))
        << d;
  for (double r : {nan, inf, 0.0, -30.0}) EXPECT_NE(ErrorOf([&] { CheckedFrameCount(1, r, limits, "clip"); }), "") << r;
  // One frame under the limit passes, the limit itself does not.
  Limits small;
  small.max_frames = 100;
  EXPECT_EQ(CheckedFrameCount(99.0 / 30, 30, small, "x"), 100u);
  const std::string e = ErrorOf([&] { CheckedFrameCount(100.0 / 30, 30, small, "clip", Place::Line(3, 4)); });
  EXPECT_TRUE(Contains(e, "max-frames")) << e;
  EXPECT_TRUE(Contains(e, "line 3")) << e;
  // A product past 2^64 is an error, not a conversion.
  EXPECT_TRUE(Contains(ErrorOf([&] { CheckedFrameCount(1e300, 1e300, limits, "x"); }), "max-frames"));
}

TEST(Limits, CheckLimitNamesTheLimitAndTheOffset) {
  Limits limits;
  limits.max_joints = 10;
  EXPECT_NO_THROW(CheckLimit(10, &Limits::max_joints, limits, "the joint count"));
  const std::string e = ErrorOf([&] { CheckLimit(11, &Limits::max_joints, limits, "the joint count", Place::At(0x2c)); });
  EXPECT_TRUE(Contains(e, "offset 0x2c")) << e;
  EXPECT_TRUE(Contains(e, "max-joints = 10")) << e;
  EXPECT_TRUE(Contains(e, "--max-joints")) << e;
}

TEST(Limits, CheckSceneRejectsNonFiniteTimesAndOverLimitCounts) {
  Scene scene;
  scene.clips.resize(1);
  scene.clips[0].name = "c";
  scene.clips[0].frame_rate = 30;
  EXPECT_NO_THROW(CheckScene(scene, Limits{}));
  scene.clips[0].duration = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(Contains(ErrorOf([&] { CheckScene(scene, Limits{}); }), "duration"));
  scene.clips[0].duration = 1;
  scene.clips[0].tracks.resize(1);
  scene.clips[0].tracks[0].rotation.times = {0, -std::numeric_limits<float>::infinity()};
  scene.clips[0].tracks[0].rotation.values.resize(2);
  EXPECT_TRUE(Contains(ErrorOf([&] { CheckScene(scene, Limits{}); }), "key time"));
  scene.clips[0].tracks[0].rotation.times = {0, 1};
  Limits few;
  few.max_values = 1;
  EXPECT_TRUE(Contains(ErrorOf([&] { CheckScene(scene, few); }), "max-values"));
  Limits one_key;
  one_key.max_keys = 1;
  EXPECT_TRUE(Contains(ErrorOf([&] { CheckScene(scene, one_key); }), "rotation: the key count 2 is over the limit max-keys"));
  Limits one_clip;
  one_clip.max_clips = 1;
  EXPECT_NO_THROW(CheckScene(scene, one_clip));
  scene.clips.push_back(scene.clips[0]);
  EXPECT_TRUE(Contains(ErrorOf([&] { CheckScene(scene, one_clip); }), "the clip count 2 is over the limit max-clips = 1"));
}

// ---------------------------------------------------------------------------
// The 48-byte file

TEST(Limits, FortyEightByteAnimIsRejectedWithTheLimitsName) {
  const Bytes anim = FortyEightByteAnim();
  ASSERT_EQ(anim.size(), 48u);
  const LoadedFile loaded = LoadBytes(anim, "hostile.anim", "metroid-anim", Options{});
  const std::string e = ErrorOf([&] { DecodeDocument(loaded, DecodeContext{}); });
  EXPECT_TRUE(Contains(e, "hostile.anim: offset 0x14")) << e;
  EXPECT_TRUE(Contains(e, "4294967295")) << e;
  EXPECT_TRUE(Contains(e, "max-frames")) << e;
  // Raised past the frame count, sampling still refuses frames x joints over max-values.
  Options raised;
  Limits limits;
  limits.max_frames = uint64_t{1} << 32;
  raised.SetLimits(limits);
  const Scene scene = DecodeDocument(loaded, DecodeContext{nullptr, raised});
  std::string sampled;
  const std::string s = ErrorOf([&] {
    WriteSampleJson(scene, "metroid-anim", SampleRequest{0, {}, nullptr, limits}, [&](std::string_view p) { sampled += p; });
  });
  EXPECT_TRUE(Contains(s, "max-values")) << s;
  EXPECT_TRUE(sampled.empty());  // checked before the first byte
}

TEST(Limits, NonFiniteMetroidDurationIsAnErrorAtItsOffset) {
  Bytes anim = FortyEightByteAnim(std::numeric_limits<float>::quiet_NaN());
  anim[0x14] = anim[0x15] = anim[0x16] = 0;
  anim[0x17] = 3;  // 3 frames
  const LoadedFile loaded = LoadBytes(anim, "nan.anim", "metroid-anim", Options{});
  const std::string e = ErrorOf([&] { DecodeDocument(loaded, DecodeContext{}); });
  EXPECT_TRUE(Contains(e, "offset 0x4")) << e;
  EXPECT_TRUE(Contains(e, "duration")) << e;
}

TEST(Limits, ValidateFailsWhereSampleFails) {
  const auto dir = test::TempDir("limits-validate");
  WriteBytes(dir / "hostile.anim", FortyEightByteAnim());
  std::string out, err;
  EXPECT_EQ(test::RunCli("validate " + (dir / "hostile.anim").string(), &out, &err), 1);
  EXPECT_TRUE(Contains(out, "offset 0x14")) << out;
  EXPECT_TRUE(Contains(out, "max-frames")) << out;
  EXPECT_EQ(test::RunCli("sample " + (dir / "hostile.anim").string(), &out, &err), 1);
  EXPECT_TRUE(Contains(err, "max-frames")) << err;
  EXPECT_TRUE(out.empty());
  // --max-frames raises the limit; the next one (max-values, in sampling) stops validate and sample alike.
  EXPECT_EQ(test::RunCli("validate --max-frames 5000000000 " + (dir / "hostile.anim").string(), &out, &err), 1);
  EXPECT_TRUE(Contains(out, "max-values")) << out;
  EXPECT_EQ(test::RunCli("sample --max-frames 5000000000 " + (dir / "hostile.anim").string(), &out, &err), 1);
  EXPECT_TRUE(Contains(err, "max-values")) << err;
  // Resampling at a rate: duration x rate is checked the same way.
  Bytes small = FortyEightByteAnim(1e30f);
  small[0x14] = small[0x15] = small[0x16] = 0;
  small[0x17] = 2;
  WriteBytes(dir / "long.anim", small);
  EXPECT_EQ(test::RunCli("sample --rate 60 " + (dir / "long.anim").string(), &out, &err), 1);
  EXPECT_TRUE(Contains(err, "max-frames")) << err;
}

// ---------------------------------------------------------------------------
// Nested archives: bounded depth, overlapping payloads parsed once

void PutU32LE(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

// levels BARs, each holding `fan` ANB entries that all point at the next level.
Bytes FanOfNestedBars(int levels, uint32_t fan) {
  const size_t level_size = 16 + 16 * size_t(fan);
  Bytes b(level_size * size_t(levels) + 16, 0);
  for (int l = 0; l <= levels; ++l) {
    const size_t at = level_size * size_t(l);
    b[at] = 'B', b[at + 1] = 'A', b[at + 2] = 'R', b[at + 3] = 1;
    if (l == levels) break;  // the innermost BAR is empty
    PutU32LE(b, at + 4, fan);
    for (uint32_t e = 0; e < fan; ++e) {
      const size_t entry = at + 16 + 16 * size_t(e);
      b[entry] = uint8_t(kh2::kEntryAnb);
      b[entry + 4] = 'a';
      PutU32LE(b, entry + 8, uint32_t(level_size));
      PutU32LE(b, entry + 12, uint32_t(b.size() - at - level_size));
    }
  }
  return b;
}

TEST(Limits, OverlappingNestedArchivesParseEachPayloadOnce) {
  // 8 entries per level, 9 levels: 8^9 = 134 million parses if each entry were parsed on its own.
  const Bytes bar = FanOfNestedBars(9, 8);
  const auto t0 = std::chrono::steady_clock::now();
  const kh2::Bar parsed = kh2::ParseBar(bar);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 1.0);
  ASSERT_EQ(parsed.entries.size(), 8u);
  for (const kh2::BarEntry& e : parsed.entries) EXPECT_EQ(e.bar.get(), parsed.entries[0].bar.get());
  const LoadedFile loaded = LoadBytes(bar, "fan.bar", "kh2-bar", Options{});
  EXPECT_NO_THROW(DecodeDocument(loaded, DecodeContext{}));
}

TEST(Limits, ArchivesNestedTooDeepAreRejectedWithTheLimitsName) {
  const Bytes bar = FanOfNestedBars(20, 1);
  const std::string e = ErrorOf([&] { kh2::ParseBar(bar); });
  EXPECT_TRUE(Contains(e, "max-depth")) << e;
  Limits deep;
  deep.max_depth = 32;
  EXPECT_NO_THROW(kh2::ParseBar(bar, 0, deep));
  // An archive whose entry is the archive itself ends at the depth limit, not in a stack overflow.
  Bytes self(32, 0);
  self[0] = 'B', self[1] = 'A', self[2] = 'R', self[3] = 1;
  PutU32LE(self, 4, 1);
  self[16] = uint8_t(kh2::kEntryAnb);
  PutU32LE(self, 24, 0);
  PutU32LE(self, 28, 32);
  EXPECT_TRUE(Contains(ErrorOf([&] { kh2::ParseBar(self); }), "max-depth"));
}

// ---------------------------------------------------------------------------
// glTF external files

std::string GltfWithBuffer(const std::string& uri, uint64_t byte_length) {
  return R"({"asset":{"version":"2.0"},"buffers":[{"uri":")" + uri + R"(","byteLength":)" +
         std::to_string(byte_length) + "}]}";
}

TEST(GltfExternal, ParentDirectoryUriIsRefusedWithoutNamingTheOutsideFile) {
  const auto dir = test::TempDir("gltf-outside");
  std::filesystem::create_directories(dir / "upload" / "x");
  WriteText(dir / "secret.bin", std::string(21, 'S'));
  const std::string gltf = (dir / "upload" / "a.gltf").string();
  for (const std::string uri : {"x/../../secret.bin", "../secret.bin", "%2e%2e/secret.bin", "x/..%2F..%2Fsecret.bin"}) {
    for (uint64_t length : {20u, 21u}) {
      WriteText(gltf, GltfWithBuffer(uri, length));
      std::string out, err;
      EXPECT_EQ(test::RunCli("sample " + gltf, &out, &err), 1) << uri;
      EXPECT_TRUE(Contains(err, "'" + uri + "'")) << err;  // the URI as written
      EXPECT_TRUE(Contains(err, "outside the glTF's folder")) << err;
      EXPECT_FALSE(Contains(err, (dir / "secret.bin").string())) << err;
      EXPECT_FALSE(Contains(err, (dir / "upload" / "x").string())) << err;
      EXPECT_FALSE(Contains(err, " 21")) << err;  // the outside file's size
      EXPECT_TRUE(out.empty());
    }
  }
}

TEST(GltfExternal, AbsoluteSchemeAndSymlinkedUrisAreRefused) {
  const auto dir = test::TempDir("gltf-absolute");
  std::filesystem::create_directories(dir / "in");
  WriteText(dir / "secret.bin", std::string(16, 'S'));
  std::filesystem::create_symlink(dir / "secret.bin", dir / "in" / "link.bin");
  const std::string gltf = (dir / "in" / "a.gltf").string();
  const std::string absolute = (dir / "secret.bin").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {absolute, "absolute"},
      {"file://" + absolute, "scheme"},
      {"http://example.com/a.bin", "scheme"},
      {"link.bin", "outside the glTF's folder"},
      {"a%00.bin", "not a file name"},
      {"a%zz.bin", "percent-encoding"}};
  for (const auto& [uri, why] : cases) {
    WriteText(gltf, GltfWithBuffer(uri, 16));
    const std::string e = ErrorOf([&] { LoadFile(gltf, "", Options{}); });
    EXPECT_TRUE(Contains(e, why)) << uri << ": " << e;
    EXPECT_TRUE(Contains(e, "'" + uri + "'")) << e;
  }
  // Images are checked the same way (and never read).
  WriteText(gltf, R"({"asset":{"version":"2.0"},"images":[{"uri":"../secret.bin"}]})");
  EXPECT_TRUE(Contains(ErrorOf([&] { LoadFile(gltf, "", Options{}); }), "image 0: the URI '../secret.bin'"));
}

TEST(GltfExternal, InsideBufferIsReadUpToItsByteLengthWithinTheLimit) {
  const auto dir = test::TempDir("gltf-inside");
  std::filesystem::create_directories(dir / "sub");
  WriteText(dir / "sub" / "data file.bin", std::string(40, 'D'));
  const std::string gltf = (dir / "a.gltf").string();
  // Percent-decoded, normalised inside the folder; a file longer than byteLength is cut to it.
  WriteText(gltf, GltfWithBuffer("sub/./data%20file.bin", 24));
  EXPECT_NO_THROW(LoadFile(gltf, "", Options{}));
  // Shorter than byteLength: an error naming the URI and the declared length only.
  WriteText(gltf, GltfWithBuffer("sub/data%20file.bin", 64));
  std::string e = ErrorOf([&] { LoadFile(gltf, "", Options{}); });
  EXPECT_TRUE(Contains(e, "shorter than its byteLength 64")) << e;
  EXPECT_FALSE(Contains(e, "40")) << e;
  // byteLength over max-buffer-bytes: refused before reading.
  Options small;
  Limits limits;
  limits.max_buffer_bytes = 16;
  small.SetLimits(limits);
  WriteText(gltf, GltfWithBuffer("sub/data%20file.bin", 24));
  e = ErrorOf([&] { LoadFile(gltf, "", small); });
  EXPECT_TRUE(Contains(e, "max-buffer-bytes")) << e;
}

// ---------------------------------------------------------------------------
// One writer

TEST(Writer, AtomicFileNeverWritesOverAnInputAndLeavesNoTemporary) {
  const auto dir = test::TempDir("writer");
  const std::string input = (dir / "in.bin").string();
  WriteText(input, "input");
  EXPECT_THROW(AtomicFile(input, {input}), Error);
  EXPECT_THROW(WriteFileAtomic((dir / "." / "in.bin").string(), Bytes{1}, {input}), Error);
  {
    AtomicFile out((dir / "out.txt").string(), {input});
    out.Write(std::string_view("abc"));
    out.Write(std::string_view("def"));
    EXPECT_FALSE(std::filesystem::exists(dir / "out.txt"));  // nothing until Commit
  }  // destroyed uncommitted: no file, no temporary
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1u);
  AtomicFile out((dir / "out.txt").string());
  out.Write(std::string_view("abcdef"));
  out.Commit();
  EXPECT_EQ(ReadFileBytes((dir / "out.txt").string()).size(), 6u);
}

TEST(Writer, AMissingOutputFolderIsNamed) {
  const auto dir = test::TempDir("writer-missing-folder");
  const std::string missing = (dir / "no" / "such").string();
  const std::string target = missing + "/out.glb";
  std::string e = ErrorOf([&] { WriteFileAtomic(target, Bytes{1}); });
  EXPECT_EQ(e, target + ": cannot write: the folder " + missing + " does not exist");
  try {
    WriteFileAtomic(target, Bytes{1});
  } catch (const Error& error) {
    EXPECT_EQ(error.system_error(), ENOENT);  // what Python turns into FileNotFoundError
  }
  // A file where the folder should be.
  WriteText(dir / "plain", "x");
  e = ErrorOf([&] { WriteFileAtomic((dir / "plain" / "out.glb").string(), Bytes{1}); });
  EXPECT_EQ(e, (dir / "plain" / "out.glb").string() + ": cannot write: " + (dir / "plain").string() + " is not a folder");
  // The CLI says the same when converting into it.
  std::string out, err;
  EXPECT_EQ(test::RunCli("convert " + test::SourcePath("samples/psx_anm/wave.anm") + " " + target, &out, &err), 1);
  EXPECT_NE(err.find("the folder " + missing + " does not exist"), std::string::npos) << err;
  EXPECT_EQ(err.find("temporary"), std::string::npos) << err;
}

TEST(Writer, TextAnmTimelineGoesThroughTheConversionsWriter) {
  const auto dir = test::TempDir("writer-timeline");
  Scene scene;
  scene.skeleton = SyntheticSkeleton(SyntheticSpec{});
  scene.clips.push_back(SyntheticClip(scene.skeleton, SyntheticSpec{}));
  WriteFileAtomic((dir / "walk.glb").string(), ExportGltf(scene, {}));
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert -v " + (dir / "walk.glb").string() + " " + (dir / "walk.anm").string() +
                             " --to text-anm",
                         &out, &err),
            0)
      << err;
  const auto report = nlohmann::json::parse(err);
  ASSERT_EQ(report["written"].size(), 2u) << err;
  EXPECT_EQ(report["written"][0]["path"], (dir / "walk.anm").string());
  EXPECT_EQ(report["written"][1]["path"], (dir / "walk.anm.timeline.glb").string());
  EXPECT_EQ(report["written"][1]["bytes"], std::filesystem::file_size(dir / "walk.anm.timeline.glb"));
  // A timeline that would replace the input: refused before anything is written.
  std::filesystem::rename(dir / "walk.glb", dir / "x.anm.timeline.glb");
  EXPECT_EQ(test::RunCli("convert " + (dir / "x.anm.timeline.glb").string() + " " + (dir / "x.anm").string() +
                             " --to text-anm",
                         &out, &err),
            1);
  EXPECT_TRUE(Contains(err, "refusing to write over a file this command reads")) << err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.anm"));
}

TEST(Writer, BatchReportListsTheFilesAnEncoderAdds) {
  const auto dir = test::TempDir("writer-batch");
  std::filesystem::create_directories(dir / "in");
  Scene scene;
  scene.skeleton = SyntheticSkeleton(SyntheticSpec{});
  scene.clips.push_back(SyntheticClip(scene.skeleton, SyntheticSpec{}));
  WriteFileAtomic((dir / "in" / "walk.glb").string(), ExportGltf(scene, {}));
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert " + (dir / "in").string() + " " + (dir / "out").string() +
                             " --to text-anm -q --report " + (dir / "report.json").string(),
                         &out, &err),
            0)
      << err;
  const auto report = nlohmann::json::parse(ReadFileBytes((dir / "report.json").string()));
  ASSERT_EQ(report["files"].size(), 1u);
  EXPECT_EQ(report["files"][0]["output"], "walk.anm");
  ASSERT_EQ(report["files"][0]["extra_outputs"].size(), 1u);
  EXPECT_EQ(report["files"][0]["extra_outputs"][0], "walk.anm.timeline.glb");
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "walk.anm.timeline.glb"));
}

// ---------------------------------------------------------------------------
// Angles in tests

TEST(AngleBetween, SeesAnglesFarBelowFloatResolution) {
  const QuatXYZW id{0, 0, 0, 1};
  for (double angle : {1e-7, 1e-6, 1e-5, 3e-4, 1.0, 3.0}) {
    const QuatXYZW q = AxisAngle({0, 0, 1}, float(angle));
    EXPECT_NEAR(AngleBetween(id, q), double(float(angle)), 1e-9 + 1e-6 * angle) << angle;
  }
  // q and -q are the same rotation.
  const QuatXYZW q = AxisAngle({1, 0, 0}, 0.5f);
  EXPECT_NEAR(AngleBetween(q, {-q.x, -q.y, -q.z, -q.w}), 0.0, 1e-12);
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

// An archive whose entries all name one motion: wave.motion (4 joints) played to frame
// end 400 (401 frames x 4 joints x 3 channels = 4812 keys each), padded with pad bytes.
constexpr uint64_t kKeysPerEntry = 401 * 4 * 3;
Bytes ArchiveRepeatingOneMotion(uint32_t entries, size_t pad) {
  Bytes motion = ReadFileBytes(test::SourcePath("samples/kh2_motion/wave.motion"));
  const float frame_end = 400;
  std::memcpy(&motion[0xA0 + 0x84], &frame_end, 4);
  const size_t table = 16 + 16 * size_t(entries);
  Bytes b(table, 0);
  b[0] = 'B', b[1] = 'A', b[2] = 'R', b[3] = 1;
  PutU32LE(b, 4, entries);
  for (uint32_t e = 0; e < entries; ++e) {
    const size_t at = 16 + 16 * size_t(e);
    b[at] = uint8_t(kh2::kEntryMotion);
    b[at + 4] = 'm';
    PutU32LE(b, at + 8, uint32_t(table));
    PutU32LE(b, at + 12, uint32_t(motion.size()));
  }
  b.insert(b.end(), motion.begin(), motion.end());
  b.resize(b.size() + pad, 0);
  return b;
}

TEST(Limits, DecodedKeysMayGrowWithTheInputsSize) {
  // 1000 x 4812 = 4,812,000 keys: over max-values (2,097,152) for a 19 KB file...
  const Bytes small = ArchiveRepeatingOneMotion(1000, 0);
  ASSERT_GT(1000 * kKeysPerEntry, Limits{}.max_values);
  Options frames;  // one key per played frame: the most a motion decodes to
  frames.Set("kh2-keys", "frames");
  const LoadedFile a = LoadBytes(small, "many.anb", "kh2-bar", frames);
  EXPECT_TRUE(Contains(ErrorOf([&] { DecodeDocument(a, DecodeContext{nullptr, frames}); }), "max-values"));
  // ...but what a file of 4,812,000 / 8 = 602 KB justifies (kDecodedValuesPerInputByte).
  const size_t needed = 1000 * kKeysPerEntry / kDecodedValuesPerInputByte + 1;
  const Bytes large = ArchiveRepeatingOneMotion(1000, needed - small.size());
  const LoadedFile b = LoadBytes(large, "many.anb", "kh2-bar", frames);
  EXPECT_EQ(DecodeDocument(b, DecodeContext{nullptr, frames}).clips.size(), 1000u);
  EXPECT_EQ(ForInputSize(Limits{}, 10).max_values, Limits{}.max_values);
  EXPECT_EQ(ForInputSize(Limits{}, 1'000'000).max_values, 1'000'000 * kDecodedValuesPerInputByte);
}

}  // namespace
}  // namespace animkit
