// Stored curves through the pipeline (pipeline/curves.hpp): the JSON the CLI prints and takes
// back, the import file's section, and on the real movesets beside the checkout
// (../shared/real/kh2): the 1:1 key count, the curves against the decoder's pose at every
// frame, unedited submissions byte-identical, one replaced curve read back.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/curves.hpp>
#include <animkit/pipeline/curves.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace animkit {
namespace {

std::string SharedPath(const std::string& relative) {
  const std::filesystem::path p = std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared" / relative;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

Value EditWith(const std::string& clip, Value channel) {
  return {{"clips", Value::array({Value{{"name", clip}, {"channels", Value::array({std::move(channel)})}}})}};
}

Value GoodChannel() {
  return {{"joint", 3},
          {"property", "location"},
          {"index", 1},
          {"keys", Value::array({Value::array({0, 1.5, 0, 0, 2}), Value::array({4, 2.5, 0.25, 0.25, 1})})}};
}

TEST(Curves, EditsParseAndMalformedOnesNameTheClipAndChannel) {
  const std::vector<ClipCurves> ok = ParseCurveEdits(EditWith("010_A000", GoodChannel()));
  ASSERT_EQ(ok.size(), 1u);
  ASSERT_EQ(ok[0].curves.channels.size(), 1u);
  const StoredChannel& c = ok[0].curves.channels[0];
  EXPECT_EQ(c.joint, 3);
  EXPECT_EQ(c.property, CurveProperty::Location);
  EXPECT_EQ(c.axis, 1);
  ASSERT_EQ(c.keys.size(), 2u);
  EXPECT_EQ(c.keys[1].frame, 4.0f);
  EXPECT_EQ(c.keys[1].in_slope, 0.25f);
  EXPECT_EQ(c.keys[0].interpolation, CurveInterpolation::Hermite);
  auto error = [](const Value& edits) { return test::ErrorOf([&] { ParseCurveEdits(edits); }); };
  Value bad = GoodChannel();
  bad["property"] = "rotation_quaternion";
  EXPECT_TRUE(test::Has(error(EditWith("010_A000", bad)), "clip 010_A000, channel 0 (joint 3)")) << error(EditWith("010_A000", bad));
  bad = GoodChannel();
  bad["keys"] = Value::array({Value::array({0, 1.5, 0, 0, 7})});
  EXPECT_TRUE(test::Has(error(EditWith("010_A000", bad)), "key 0: the interpolation")) << error(EditWith("010_A000", bad));
  bad = GoodChannel();
  bad["keys"] = Value::array({Value::array({0, "x", 0, 0, 1})});
  EXPECT_TRUE(test::Has(error(EditWith("walk", bad)), "clip walk, channel 0 (joint 3), key 0: the value"));
  bad = GoodChannel();
  bad.erase("joint");
  EXPECT_TRUE(test::Has(error(EditWith("walk", bad)), "no \"joint\""));
  bad = GoodChannel();
  bad["index"] = 3;
  EXPECT_TRUE(test::Has(error(EditWith("walk", bad)), "\"index\""));
  EXPECT_TRUE(test::Has(error(Value{{"clip", 1}}), "{\"clips\""));
}

TEST(Curves, JsonRoundTripsThroughTheEditParser) {
  StoredCurves curves;
  StoredChannel c;
  c.joint = 2;
  c.joint_name = NumberedJointName(2);
  c.property = CurveProperty::RotationEuler;
  c.axis = 2;
  c.post = CurveCycle::Repeat;
  c.keys = {{0, 0.1f, 0.3f, 0.3f, CurveInterpolation::Hermite}, {7.5f, -1.0f / 3, 0, 0, CurveInterpolation::Constant}};
  curves.channels.push_back(c);
  curves.driven = {5};
  const Value json = CurvesJson(std::vector<ClipCurves>{{"000_A000", curves}});
  const std::vector<ClipCurves> back = ParseCurveEdits(ParseJson(DumpJson(json)));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].clip, "000_A000");
  ASSERT_EQ(back[0].curves.channels.size(), 1u);
  EXPECT_EQ(back[0].curves.channels[0].keys, c.keys);  // float32 values survive the text exactly
  EXPECT_EQ(back[0].curves.channels[0].post, CurveCycle::Repeat);
  EXPECT_EQ(json["clips"][0]["curves"]["driven"][0].get<int>(), 5);
  // The import file's section: node indices by name, 6 float32 per key.
  Bytes data(8, 0);
  const Value section = ImportCurvesSection(curves, {"root", NumberedJointName(2)}, data);
  EXPECT_EQ(section["channels"][0]["node"].get<int>(), 1);
  EXPECT_EQ(section["channels"][0]["keys"]["offset"].get<int>(), 8);
  EXPECT_EQ(section["channels"][0]["keys"]["count"].get<int>(), 2);
  ASSERT_EQ(data.size(), 8u + 2 * 6 * 4);
  float key[6];
  std::memcpy(key, data.data() + 8 + 24, 24);
  EXPECT_EQ(key[0], 7.5f);
  EXPECT_EQ(key[1], -1.0f / 3);
  EXPECT_EQ(key[4], 0.0f);  // constant
}

// The file's curves as read through the pipeline (no skeleton file: the moveset alone).
std::vector<ClipCurves> CurvesOf(const std::string& path, Scene* scene_out = nullptr) {
  Options options;
  const LoadedFile loaded = LoadFile(path, "", options);
  const DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource("none"), options);
  if (scene_out) *scene_out = decoded.scene;
  return StoredCurvesOfFile(loaded, decoded.scene, options.limits());
}

TEST(Curves, RealMovesetOneToOneKeysAndTheDecodersPose) {
  ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  const std::string path = SharedPath("real/kh2/airslide/P_EX100.mset");
  if (path.empty()) GTEST_SKIP() << "../shared/real/kh2/airslide/P_EX100.mset absent";
  const Bytes bytes = ReadFileBytes(path);
  const kh2::Bar bar = kh2::ParseBar(bytes);
  // Stored keys: per clip (a link's clip counts its own), the keys of the forward curve the game
  // applies to each joint's channel (the last one); what every table holds, for the record.
  size_t stored = 0, in_tables = 0, clips = 0, read_past = 0;
  const std::vector<kh2::MotionClip> motion_clips = kh2::MotionClips(bar);
  for (const kh2::MotionClip& c : motion_clips) {
    if (c.motion->raw) continue;
    ++clips;
    const kh2::InterpolatedMotion& im = c.motion->interpolated;
    std::map<std::pair<int, int>, size_t> last;
    for (const kh2::Curve& k : im.forward)
      if (k.key_count > 0 && im.AnimatesJoint(k, false) && k.channel() < kh2::kChannelCount)
        last[{k.joint, k.channel()}] = k.key_count;
    for (const auto& [key, n] : last) stored += n;
    for (const kh2::Curve& k : im.forward) in_tables += k.key_count;
    for (const kh2::Curve& k : im.inverse) in_tables += k.key_count;
    read_past += im.read_past.any() ? 1 : 0;
  }
  const std::vector<ClipCurves> curves = CurvesOf(path);
  ASSERT_EQ(curves.size(), clips);
  size_t exported = 0, all = 0, driven = 0;
  for (const ClipCurves& c : curves) {
    all += c.curves.KeyCount();
    driven += c.curves.driven.size();
    for (const StoredChannel& ch : c.curves.channels)
      if (!c.curves.Driven(ch.joint)) exported += ch.keys.size();
  }
  std::printf("airslide: %zu clips, %zu stored keys applied (%zu in the curves' ranges, inverse and overridden "
              "curves too), %zu keys on curve-moved joints (%zu with driven joints'), %zu driven joints in all, %zu "
              "clips with curves reading past a table\n",
              clips, stored, in_tables, exported, all, driven, read_past);
  EXPECT_EQ(all, stored);  // every applied key, once
  EXPECT_LE(double(exported), 1.05 * double(stored));
  // Every clip's curves at every frame: the decoder's per-frame pose of the joints they move.
  kh2::DecodeSettings settings;
  settings.stored_keys = false;
  size_t compared = 0, mismatched = 0;
  std::string first;
  for (size_t i = 0; i < motion_clips.size(); ++i) {
    const kh2::MotionClip& mc = motion_clips[i];
    if (mc.motion->raw) continue;
    const ClipCurves* cc = nullptr;
    for (const ClipCurves& c : curves)
      if (c.clip == mc.name) cc = &c;
    ASSERT_NE(cc, nullptr) << mc.name;
    const Clip clip = kh2::DecodeMotion(*mc.motion, {}, {}, settings);
    std::vector<kh2::ChannelValues> channels(clip.tracks.size(), kh2::ChannelValues{1, 1, 1, 0, 0, 0, 0, 0, 0});
    auto slot = [](CurveProperty p, int axis) {
      return size_t((p == CurveProperty::Scale ? 0 : p == CurveProperty::RotationEuler ? 3 : 6) + axis);
    };
    for (const StoredConstant& k : cc->curves.constants) channels[size_t(k.joint)][slot(k.property, k.axis)] = k.value;
    std::vector<std::array<bool, 3>> keyed(clip.tracks.size(), {false, false, false});  // location, rotation, scale
    for (const StoredChannel& ch : cc->curves.channels) keyed[size_t(ch.joint)][size_t(ch.property)] = true;
    for (size_t f = 0; f < clip.frame_count; ++f) {
      for (const StoredChannel& ch : cc->curves.channels)
        channels[size_t(ch.joint)][slot(ch.property, ch.axis)] = float(EvaluateStoredChannel(ch, double(f)));
      for (size_t j = 0; j < clip.tracks.size(); ++j) {
        if (cc->curves.Driven(int(j))) continue;
        const TransformTRS x = kh2::TransformFromChannels(channels[j]);
        const JointTrack& t = clip.tracks[j];
        auto near = [](Vec3 a, Vec3 b) {
          const double d = std::sqrt(double(a.x - b.x) * (a.x - b.x) + double(a.y - b.y) * (a.y - b.y) + double(a.z - b.z) * (a.z - b.z));
          const double n = std::sqrt(double(b.x) * b.x + double(b.y) * b.y + double(b.z) * b.z);
          return d <= 1e-5 * (1 + n);
        };
        // Each property the curves key (all three axes: curves and constants).
        const bool ok[3] = {!keyed[j][0] || near(x.translation, t.translation.values[f]),
                            !keyed[j][1] || AngleBetween(x.rotation, t.rotation.values[f]) <= 1e-5,
                            !keyed[j][2] || near(x.scale, t.scale.values[f])};
        for (int p = 0; p < 3; ++p) {
          if (!keyed[j][size_t(p)]) continue;
          ++compared;
          if (!ok[p] && mismatched++ == 0)
            first = mc.name + " joint " + std::to_string(j) + " property " + std::to_string(p) + " frame " + std::to_string(f);
        }
      }
    }
  }
  std::printf("airslide: %zu joint-property-frames compared, %zu differ\n", compared, mismatched);
  EXPECT_GT(compared, 0u);
  EXPECT_EQ(mismatched, 0u) << "first: " << first;
}

const char* const kMovesets[] = {"real/kh2/M_EX530.mset", "real/kh2/F_PO030.mset", "real/kh2/N_CM080_TSURU.mset",
                                 "real/kh2/M_EX690.mset", "real/kh2/P_EX100.mset", "real/kh2/airslide/P_EX100.mset"};

TEST(Curves, UneditedSubmissionIsTheTemplatesBytesOnRealMovesets) {
  ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  size_t present = 0;
  for (const char* relative : kMovesets) {
    const std::string path = SharedPath(relative);
    if (path.empty()) continue;
    ++present;
    const std::filesystem::path dir = test::TempDir("curves_unedited");
    CurvesReplaceJob job;
    job.template_path = path;
    job.edits = CurvesJson(CurvesOf(path));
    job.output = (dir / "out.mset").string();
    const Value report = job.Run();
    std::printf("%s: %llu channels submitted unedited\n", relative,
                static_cast<unsigned long long>(report["unchanged"].get<uint64_t>()));
    EXPECT_TRUE(report["identical"].get<bool>()) << relative;
    EXPECT_EQ(report["replaced"].get<uint64_t>(), 0u) << relative;
    EXPECT_EQ(ReadFileBytes(job.output), ReadFileBytes(path)) << relative;
  }
  if (present == 0) GTEST_SKIP() << "../shared/real/kh2 absent";
}

TEST(Curves, OneCurveReplacedInTheRealMovesetReadsBack) {
  ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  const std::string path = SharedPath("real/kh2/airslide/P_EX100.mset");
  if (path.empty()) GTEST_SKIP() << "../shared/real/kh2/airslide/P_EX100.mset absent";
  const std::vector<ClipCurves> before = CurvesOf(path);
  // A clip from the middle of the moveset whose motion no other clip shares, its first channel
  // with at least three keys.
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(path));  // the clips point into it
  const std::vector<kh2::MotionClip> motions = kh2::MotionClips(bar);
  auto shared = [&](const std::string& name) {
    const kh2::Motion* m = nullptr;
    for (const kh2::MotionClip& c : motions)
      if (c.name == name) m = c.motion;
    return std::count_if(motions.begin(), motions.end(), [&](const kh2::MotionClip& c) { return c.motion == m; }) > 1;
  };
  size_t pick = before.size() / 2;
  while (pick < before.size() && shared(before[pick].clip)) ++pick;
  ASSERT_LT(pick, before.size());
  const ClipCurves& clip = before[pick];
  const StoredChannel* picked = nullptr;
  for (const StoredChannel& c : clip.curves.channels)
    if (!picked && c.keys.size() >= 3) picked = &c;
  ASSERT_NE(picked, nullptr);
  StoredChannel edited = *picked;
  edited.keys[1].value += 0.125f;
  edited.keys[1].out_slope = 0.01f;
  edited.keys[1].interpolation = CurveInterpolation::Hermite;
  Value edits = CurvesJson(std::vector<ClipCurves>{{clip.clip, StoredCurves{"XYZ", {edited}, {}, {}}}});
  const std::filesystem::path dir = test::TempDir("curves_replace_real");
  CurvesReplaceJob job;
  job.template_path = path;
  job.edits = edits;
  job.output = (dir / "out.mset").string();
  const Value report = job.Run();
  EXPECT_EQ(report["replaced"].get<uint64_t>(), 1u);
  EXPECT_FALSE(report["identical"].get<bool>());
  const std::vector<ClipCurves> after = CurvesOf(job.output);
  ASSERT_EQ(after.size(), before.size());
  size_t changed = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    ASSERT_EQ(after[i].curves.channels.size(), before[i].curves.channels.size());
    for (size_t k = 0; k < before[i].curves.channels.size(); ++k) {
      const StoredChannel &a = before[i].curves.channels[k], &b = after[i].curves.channels[k];
      if (a.keys == b.keys) continue;
      ++changed;
      EXPECT_EQ(after[i].clip, clip.clip);
      EXPECT_EQ(b.keys, edited.keys);
    }
  }
  EXPECT_EQ(changed, 1u);
  // Only the edited clip's entry changed bytes: the other entries' payloads are the same.
  const kh2::Bar x = kh2::ParseBar(ReadFileBytes(path)), y = kh2::ParseBar(ReadFileBytes(job.output));
  ASSERT_EQ(x.entries.size(), y.entries.size());
  size_t differing = 0;
  for (size_t i = 0; i < x.entries.size(); ++i)
    differing += kh2::SerializePayload(x.entries[i]) != kh2::SerializePayload(y.entries[i]) ? 1 : 0;
  EXPECT_EQ(differing, 1u);
}

// What an editor gives back for unedited keys: frames, values and slopes a few float32 ulps
// off (slopes read from Bezier handles at thirds) are the stored keys; a real change is not.
TEST(Curves, KeysWithinFloatRoundingOfTheStoredOnesAreTheStoredKeys) {
  const std::string path = SharedPath("real/kh2/M_EX530.mset");
  if (path.empty()) GTEST_SKIP() << "../shared/real/kh2/M_EX530.mset absent";
  std::vector<ClipCurves> rounded = CurvesOf(path);
  size_t perturbed = 0;
  for (ClipCurves& clip : rounded)
    for (StoredChannel& c : clip.curves.channels)
      for (CurveKey& k : c.keys) {
        k.value = std::nextafter(k.value, k.value + 1.0f);
        k.in_slope = k.in_slope * (1 + 3e-7f) + 1e-7f;
        k.out_slope = k.out_slope * (1 - 3e-7f) - 1e-7f;
        k.frame = std::nextafter(k.frame, k.frame - 1.0f);
        ++perturbed;
      }
  ASSERT_GT(perturbed, 100u);
  const std::filesystem::path dir = test::TempDir("curves_rounding");
  CurvesReplaceJob job;
  job.template_path = path;
  job.edits = CurvesJson(rounded);
  job.output = (dir / "same.mset").string();
  Value report = job.Run();
  EXPECT_TRUE(report["identical"].get<bool>());
  EXPECT_EQ(ReadFileBytes(job.output), ReadFileBytes(path));
  // A slope changed by 1 % of itself (and at least 1e-3 per frame) is an edit.
  std::vector<ClipCurves> edited = CurvesOf(path);
  StoredChannel* channel = nullptr;
  for (StoredChannel& c : edited.front().curves.channels)
    if (!channel && c.keys.size() >= 2 && c.keys[0].interpolation == CurveInterpolation::Hermite) channel = &c;
  ASSERT_NE(channel, nullptr);
  channel->keys[0].out_slope += std::max(1e-3f, std::abs(channel->keys[0].out_slope) * 0.01f);
  job.edits = CurvesJson(std::vector<ClipCurves>{edited.front()});
  job.output = (dir / "edited.mset").string();
  report = job.Run();
  EXPECT_EQ(report["replaced"].get<uint64_t>(), 1u);
  EXPECT_NE(ReadFileBytes(job.output), ReadFileBytes(path));
}

// Every clip submitted, one key of one clip changed (what Blender's export of a control rig
// sends after a one-key edit): the report says which clip's curves were written and that
// the others were kept as they were, in its summary too; the CLI prints that summary.
TEST(Curves, TheReportSaysWhichClipsWereWrittenAndWhichKept) {
  const std::string path = test::SourcePath("samples/kh2_bar/p_ex00.mset");
  const Bytes file = ReadFileBytes(path);
  const kh2::Bar bar = kh2::ParseBar(file);  // the clips point into it
  const std::vector<kh2::MotionClip> motions = kh2::MotionClips(bar);
  std::string alone;  // a clip no other clip shares its motion with
  for (const kh2::MotionClip& c : motions)
    if (alone.empty() && !c.motion->raw &&
        std::count_if(motions.begin(), motions.end(), [&](const kh2::MotionClip& o) { return o.motion == c.motion; }) == 1)
      alone = c.name;
  ASSERT_FALSE(alone.empty());
  std::vector<ClipCurves> edits = CurvesOf(path);
  ASSERT_GE(edits.size(), 3u);
  const std::filesystem::path dir = test::TempDir("curves_written_kept");
  CurvesReplaceJob job;
  job.template_path = path;
  job.edits = CurvesJson(edits);
  job.output = (dir / "same.mset").string();
  Value report = job.Run();  // nothing changed: no clip written, every one kept
  EXPECT_EQ(report["written_clips"].size(), 0u);
  EXPECT_EQ(report["summary"].get<std::string>().rfind(
                "no clip's curves changed: " + std::to_string(edits.size()) + " kept as they were; 0 curves replaced", 0),
            0u)
      << report["summary"].get<std::string>();
  ClipCurves* changed = nullptr;
  for (ClipCurves& c : edits)
    if (c.clip == alone) changed = &c;
  ASSERT_NE(changed, nullptr);
  ASSERT_FALSE(changed->curves.channels.empty());
  changed->curves.channels.front().keys.front().value += 0.25f;
  job.edits = CurvesJson(edits);
  job.output = (dir / "out.mset").string();
  report = job.Run();
  ASSERT_EQ(report["written_clips"].size(), 1u) << DumpJson(report);
  EXPECT_EQ(report["written_clips"][0].get<std::string>(), alone);
  EXPECT_EQ(report["kept_clips"].size(), edits.size() - 1);
  const std::string want = "1 clip's curves written (" + alone + "); " + std::to_string(edits.size() - 1) +
                           " kept as they were; 1 curves replaced, ";
  EXPECT_EQ(report["summary"].get<std::string>().rfind(want, 0), 0u) << report["summary"].get<std::string>();
  // The CLI prints it.
  const std::string edits_path = (dir / "edits.json").string();
  const std::string text = DumpJson(CurvesJson(edits));
  WriteFileAtomic(edits_path, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  std::string out, err;
  ASSERT_EQ(test::RunCli("curves-replace " + path + " " + edits_path + " -o " + (dir / "cli.mset").string(), &out, &err), 0)
      << err;
  EXPECT_TRUE(test::Has(out, "cli.mset: " + want)) << out;
}

// A clip whose motion other clips play (a link): the edit changes them all, and says so once.
TEST(Curves, AnEditOfASharedMotionChangesEveryClipThatPlaysIt) {
  ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  const std::string path = SharedPath("real/kh2/airslide/P_EX100.mset");
  if (path.empty()) GTEST_SKIP() << "../shared/real/kh2/airslide/P_EX100.mset absent";
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(path));  // the clips point into it
  const std::vector<kh2::MotionClip> motions = kh2::MotionClips(bar);
  const kh2::MotionClip* link = nullptr;
  for (const kh2::MotionClip& c : motions)
    if (!link && !c.shares_data_with.empty() && !c.motion->raw) link = &c;
  ASSERT_NE(link, nullptr);
  const std::vector<ClipCurves> before = CurvesOf(path);
  const ClipCurves* clip = nullptr;
  for (const ClipCurves& c : before)
    if (c.clip == link->name) clip = &c;
  ASSERT_NE(clip, nullptr);
  StoredChannel edited = clip->curves.channels.front();
  edited.keys.front().value += 0.25f;
  CurvesReplaceJob job;
  job.template_path = path;
  job.edits = CurvesJson(std::vector<ClipCurves>{{clip->clip, StoredCurves{"XYZ", {edited}, {}, {}}}});
  job.output = (test::TempDir("curves_replace_shared") / "out.mset").string();
  const Value report = job.Run();
  ASSERT_EQ(report["notes"].size(), 1u);
  EXPECT_TRUE(test::Has(report["notes"][0].get<std::string>(), link->shares_data_with)) << DumpJson(report);
  size_t changed = 0;
  for (const ClipCurves& c : CurvesOf(job.output))
    for (const StoredChannel& ch : c.curves.channels)
      if (ch.joint == edited.joint && ch.property == edited.property && ch.axis == edited.axis && ch.keys == edited.keys)
        ++changed;
  size_t sharing = 0;
  for (const kh2::MotionClip& c : motions) sharing += c.motion == link->motion ? 1 : 0;
  EXPECT_EQ(changed, sharing);
  EXPECT_GE(sharing, 2u);
}

// The front ends as a person uses them: import-data's curves section, curves, curves-replace.
TEST(Curves, CliImportDataCurvesAndReplace) {
  const std::string mset = test::SourcePath("samples/kh2_bar/p_ex00.mset");
  const std::filesystem::path dir = test::TempDir("curves_cli");
  const std::string akimport = (dir / "p.akimport").string();
  std::string out, err;
  ASSERT_EQ(test::RunCli("import-data " + mset + " -o " + akimport, &out, &err), 0) << err;
  const Bytes file = ReadFileBytes(akimport);
  uint32_t version = 0, length = 0;
  std::memcpy(&version, file.data() + 8, 4);
  std::memcpy(&length, file.data() + 12, 4);
  EXPECT_EQ(version, 3u);
  const Value header = ParseJson(std::string_view(reinterpret_cast<const char*>(file.data()) + 16, length));
  const size_t data = 16 + length;
  const std::vector<ClipCurves> stored = CurvesOf(mset);
  size_t with_curves = 0, keys = 0;
  for (const Value& clip : header["clips"]) {
    if (!clip.contains("curves")) continue;
    ++with_curves;
    const Value& curves = clip["curves"];
    EXPECT_EQ(curves["rotation_mode"].get<std::string>(), "XYZ");
    const ClipCurves* mine = nullptr;
    for (const ClipCurves& c : stored)
      if (c.clip == clip["name"].get<std::string>()) mine = &c;
    ASSERT_NE(mine, nullptr);
    ASSERT_EQ(curves["channels"].size(), mine->curves.channels.size());
    for (size_t i = 0; i < mine->curves.channels.size(); ++i) {
      const Value& ch = curves["channels"][i];
      const StoredChannel& want = mine->curves.channels[i];
      ASSERT_TRUE(ch["node"].is_number_integer()) << DumpJson(ch);
      EXPECT_EQ(header["scene"]["nodes"][ch["node"].get<size_t>()]["name"].get<std::string>(), want.joint_name);
      ASSERT_EQ(ch["keys"]["count"].get<size_t>(), want.keys.size());
      for (size_t k = 0; k < want.keys.size(); ++k) {
        float row[6];
        std::memcpy(row, file.data() + data + ch["keys"]["offset"].get<size_t>() + k * 24, 24);
        EXPECT_EQ(row[0], want.keys[k].frame);
        EXPECT_EQ(row[1], want.keys[k].value);
        EXPECT_EQ(row[3], want.keys[k].out_slope);
        EXPECT_EQ(row[4], float(int(want.keys[k].interpolation)));
      }
      keys += want.keys.size();
    }
  }
  EXPECT_GT(with_curves, 0u);
  EXPECT_GT(keys, 0u);
  // The curves are in the glTF's units and node space: at every key time of the glTF channel of
  // a property they key (all three axes: curves and constants), they give its value.
  auto f32 = [&](size_t offset) {
    float f;
    std::memcpy(&f, file.data() + data + offset, 4);
    return f;
  };
  size_t checked = 0;
  for (const Value& clip : header["clips"]) {
    if (!clip.contains("curves")) continue;
    const Value& curves = clip["curves"];
    std::set<size_t> driven;
    for (const Value& d : curves["driven"])
      if (d.is_number_integer()) driven.insert(d.get<size_t>());
    // node -> path -> 3 axes (a channel's keys, or a constant)
    std::map<std::pair<size_t, std::string>, std::array<StoredChannel, 3>> props;
    const std::map<std::string, std::string> path_of = {
        {"location", "translation"}, {"rotation_euler", "rotation"}, {"scale", "scale"}};
    for (const Value& ch : curves["channels"]) {
      StoredChannel& s = props[{ch["node"].get<size_t>(), path_of.at(ch["property"].get<std::string>())}][ch["index"].get<size_t>()];
      s.pre = *ParseCurveCycle(ch["pre"].get<std::string>());
      s.post = *ParseCurveCycle(ch["post"].get<std::string>());
      for (size_t k = 0; k < ch["keys"]["count"].get<size_t>(); ++k) {
        const size_t at = ch["keys"]["offset"].get<size_t>() + k * 24;
        s.keys.push_back({f32(at), f32(at + 4), f32(at + 8), f32(at + 12), CurveInterpolation(int(f32(at + 16)))});
      }
    }
    for (const Value& c : curves["constants"])
      props[{c["node"].get<size_t>(), path_of.at(c["property"].get<std::string>())}][c["index"].get<size_t>()].keys = {
          {0, c["value"].get<float>(), 0, 0, CurveInterpolation::Constant}};
    const Value& animation = header["scene"]["animations"][clip["animation"].get<size_t>()];
    for (const Value& g : animation["channels"]) {
      const auto it = props.find({g["node"].get<size_t>(), g["path"].get<std::string>()});
      if (it == props.end() || driven.count(g["node"].get<size_t>())) continue;
      const bool rotation = g["path"].get<std::string>() == "rotation";
      const size_t width = rotation ? 4 : 3, stride = g["interpolation"].get<std::string>() == "CUBICSPLINE" ? 3 : 1;
      for (size_t k = 0; k < g["times"]["count"].get<size_t>(); ++k) {
        const double frame = double(f32(g["times"]["offset"].get<size_t>() + k * 4)) * clip["frame_rate"].get<double>();
        const size_t at = g["values"]["offset"].get<size_t>() + ((k * stride + (stride == 3 ? 1 : 0)) * width) * 4;
        float v[3];
        for (int a = 0; a < 3; ++a) v[a] = float(EvaluateStoredChannel(it->second[size_t(a)], frame));
        if (rotation) {
          const QuatXYZW q = QuatFromEuler({v[0], v[1], v[2]}, EulerOrder::XYZ);
          EXPECT_LE(AngleBetween(q, {f32(at), f32(at + 4), f32(at + 8), f32(at + 12)}), 1e-5) << clip["name"].get<std::string>();
        } else {
          for (int a = 0; a < 3; ++a)
            EXPECT_NEAR(v[a], f32(at + size_t(a) * 4), 1e-5 * (1 + std::abs(v[a]))) << clip["name"].get<std::string>();
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u);
  // curves: a line per clip and a total; --json back into curves-replace unedited: the same bytes.
  ASSERT_EQ(test::RunCli("curves " + mset, &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, std::to_string(stored.size()) + " clips: ")) << out;
  const std::string json = (dir / "curves.json").string(), back = (dir / "back.mset").string();
  ASSERT_EQ(test::RunCli("curves " + mset + " --json -o " + json, &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("curves-replace " + mset + " " + json + " -o " + back, &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, "(the template's bytes)")) << out;
  EXPECT_EQ(ReadFileBytes(back), ReadFileBytes(mset));
  // A malformed edit: exit 1, the clip and channel named.
  const std::string bad = (dir / "bad.json").string();
  const std::string text = DumpJson(EditWith(stored[0].clip, Value{{"joint", 0}, {"property", "location"}, {"index", 0}}));
  WriteFileAtomic(bad, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  EXPECT_EQ(test::RunCli("curves-replace " + mset + " " + bad + " -o " + back, &out, &err), 1);
  EXPECT_TRUE(test::Has(err, "clip " + stored[0].clip + ", channel 0 (joint 0): \"keys\"")) << err;
}

}  // namespace
}  // namespace animkit
