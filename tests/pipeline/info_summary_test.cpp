// `info` summaries: per table its count, offset and size (expected values read from the
// files' layout), the clip counts, --full as the document always was, and the size bound
// on a real-size moveset.
#include <animkit/formats/kh2.hpp>
#include <animkit/pipeline/rate_text.hpp>
#include <nlohmann/json.hpp>
#include <synthetic/synthetic_moveset.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "support/test_support.hpp"

namespace animkit {
namespace {

using kh2::kEntryAnb;
using kh2::kEntryTriggers;


nlohmann::json InfoOf(const LoadedFile& loaded, InfoDetail detail) {
  InfoRequest request;
  request.skeleton = SkeletonSource::None();
  request.detail = detail;
  return nlohmann::json::parse(InfoJson(loaded, request));
}

// Triggers: 1 range (5..20, id 4, one param) and 1 frame trigger (frame 10, id 2, one
// param), the frame list at byte 12.
const Bytes kTriggers = {1, 1, 12, 0, 5, 0, 20, 0, 4, 1, 7, 0, 10, 0, 2, 1, 3, 0};

// One row of a BAR's entry table.
struct TableEntry {
  uint16_t type;
  const char* name;  // 4 characters
  uint32_t offset, size;
};

// A BAR's 16-byte header and its entry table (docs/formats/kh2.md, "Archives").
Bytes BarHead(int32_t mset_type, const std::vector<TableEntry>& table) {
  ByteWriter w(Endian::Little);
  w.Append(ByteView(reinterpret_cast<const uint8_t*>("BAR\x01"), 4));
  w.U32(uint32_t(table.size())), w.U32(0), w.I32(mset_type);
  for (const TableEntry& e : table) {
    w.U16(e.type), w.U16(0);
    w.Append(ByteView(reinterpret_cast<const uint8_t*>(e.name), 4));
    w.U32(e.offset), w.U32(e.size);
  }
  return w.Take();
}

// An MSET: [0] an ANB at 0x40 holding the triggers entry at 0x20, [1] an empty slot,
// [2] a second slot at [0]'s offset (a link); 6 bytes after the data no entry covers.
Bytes HandMset() {
  Bytes anb = BarHead(0, {{kEntryTriggers, "A000", 0x20, uint32_t(kTriggers.size())}});
  anb.insert(anb.end(), kTriggers.begin(), kTriggers.end());
  const auto size = uint32_t(anb.size());
  Bytes mset = BarHead(2, {{kEntryAnb, "A000", 0x40, size}, {kEntryAnb, "A001", 0x40 + size, 0},
                           {kEntryAnb, "A002", 0x40, size}});
  mset.insert(mset.end(), anb.begin(), anb.end());
  mset.insert(mset.end(), 6, 0xEE);
  return mset;
}

TEST(InfoSummary, WarningsFoldOneLinePerKindAndJoint) {
  const std::string skipped = "joint 39: Direction constraint (type 3): not verified; skipped";
  const std::vector<std::string> warnings = {
      "entry 0 (A000) > entry 0 (A000): joint 11 (flags 0x2) asks for two-bone IK: left as forward kinematics",
      "entry 0 (A000) > entry 0 (A000): " + skipped,
      "entry 4 (A001) > entry 0 (A001): joint 11 (flags 0x2) asks for two-bone IK: left as forward kinematics",
      "entry 4 (A001) > entry 0 (A001): " + skipped,
      "entry 8 (A002) > entry 0 (A002): " + skipped,
      "entry 9 (B000) > entry 0 (B000): " + skipped,
      "entry 8 (A002) > entry 0 (A002): joint 7 (flags 0x2) asks for two-bone IK: left as forward kinematics",
      "offset 0x10: the archive's entries run 0x8 bytes past its declared size 0x51c0",
      "offset 0x90: the archive's entries run 0x18 bytes past its declared size 0x8050",
      "in.glb: entry 1 (up  ) > entry 0 (up  ): " + skipped,
      "in.glb: entry 2 (down) > entry 0 (down): " + skipped,
  };
  const std::vector<std::string> folded = FoldWarnings(warnings);
  ASSERT_EQ(folded.size(), 5u);
  // The same text in several clips: one line, the clip count and the first names.
  EXPECT_EQ(folded[0], "joint 11 (flags 0x2) asks for two-bone IK: left as forward kinematics (in 2 clips: A000, A001)");
  EXPECT_EQ(folded[1], skipped + " (in 4 clips: A000, A001, A002, ...)");
  // Another joint is another line.
  EXPECT_EQ(folded[2], warnings[6]);
  // Other numbers, the same kind: the first, and how many more.
  EXPECT_EQ(folded[3], warnings[7] + " (and 1 more like it: info --full lists them)");
  // The file a line names stays in front (convert's "IN: "); its entry names trimmed.
  EXPECT_EQ(folded[4], "in.glb: " + skipped + " (in 2 clips: up, down)");
  // The same text twice in one place is said with its count.
  EXPECT_EQ(FoldWarnings({"offset 0x10: cut", "offset 0x10: cut"}), std::vector<std::string>{"offset 0x10: cut (2 times)"});
  EXPECT_TRUE(FoldWarnings({}).empty());
}

TEST(InfoSummary, RateTextIsShort) {
  EXPECT_EQ(RateText(48.89228439331055), "48.89");
  EXPECT_EQ(RateText(30), "30");
  EXPECT_EQ(RateText(29.97002997), "29.97");
  EXPECT_EQ(RateText(12.5), "12.5");
  EXPECT_EQ(RateText(59.999), "60");
}

// A moveset of 60 slots whose motions (written by the project's own writers) each have a
// constraint of a type not verified against the game on joint 2: the reader notes it in
// every clip, the folded warnings are one line, and `info` says it once.
Bytes FloodMoveset(int clips) {
  kh2::Motion motion;
  kh2::InterpolatedMotion& im = motion.interpolated;
  im.bone_count = 3;
  for (int16_t b = 0; b < 3; ++b) im.joints.push_back({b, 0});
  kh2::Constraint c;
  c.type = uint8_t(kh2::ConstraintType::Direction);
  c.temporary_active = 1;
  c.joint = 2;
  c.source = 1;
  im.constraints = {c};
  kh2::LayoutMotion(motion);
  kh2::Bar mset;
  mset.mset_type = 2;
  for (int k = 0; k < clips; ++k) {
    char name[8];
    std::snprintf(name, sizeof name, "A%03d", k);
    kh2::BarEntry entry;
    entry.type = kh2::kEntryMotion;
    std::memcpy(entry.name.data(), name, 4);
    entry.motion = std::make_shared<kh2::Motion>(motion);
    kh2::Bar anb;
    anb.entries = {entry};
    kh2::BarEntry slot;
    slot.type = kEntryAnb;
    slot.name = entry.name;
    slot.bar = std::make_shared<kh2::Bar>(anb);
    mset.entries.push_back(slot);
  }
  kh2::LayoutBar(mset);
  return kh2::SerializeBar(mset);
}

TEST(InfoSummary, AConstraintSkippedInEveryClipIsOneLine) {
  const LoadedFile loaded = LoadBytes(FloodMoveset(60), "flood.mset", "", Options{});
  const std::vector<std::string> warnings = ReadWarnings(loaded);
  size_t skipped = 0;
  for (const std::string& w : warnings) skipped += test::Has(w, "Direction constraint (type 3)") ? 1 : 0;
  EXPECT_EQ(skipped, 60u);
  const std::vector<std::string> folded = FoldWarnings(warnings);
  ASSERT_EQ(folded.size(), 1u) << folded.front();
  EXPECT_TRUE(test::Has(folded[0], "joint 2: Direction constraint (type 3): animkit's reading of Direction constraints is "
                                   "not verified against the game"))
      << folded[0];
  EXPECT_TRUE(test::Has(folded[0], "; skipped (in 60 clips: A000, A001, A002, ...)")) << folded[0];
  InfoRequest request;
  request.skeleton = SkeletonSource::None();
  const std::string text = InfoText(loaded, request);
  size_t lines = 0;
  for (size_t at = text.find("  warning: "); at != std::string::npos; at = text.find("  warning: ", at + 1)) ++lines;
  EXPECT_EQ(lines, 1u) << text;
}

// Sora's moveset from a mod: the warnings a person reads, against every one the reader gives.
TEST(InfoSummary, ARealMovesetsWarningsFoldToAFewLines) {
  const std::filesystem::path path =
      std::filesystem::path(ANIMKIT_SOURCE_DIR).parent_path() / "shared" / "real" / "kh2" / "P_EX100.mset";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "../shared/real/kh2/P_EX100.mset absent";
  const LoadedFile loaded = LoadFile(path.string(), "", Options{});
  const std::vector<std::string> warnings = ReadWarnings(loaded);
  const std::vector<std::string> folded = FoldWarnings(warnings);
  size_t bytes = 0;
  for (const std::string& w : folded) bytes += w.size() + 1;
  EXPECT_GT(warnings.size(), 2000u);
  EXPECT_LT(folded.size(), 120u);
  EXPECT_LT(bytes, 40000u);
  for (const std::string& w : folded)  // one line per joint: each text said once
    EXPECT_EQ(std::count(folded.begin(), folded.end(), w), 1) << w;
}

TEST(InfoSummary, ArchiveEntriesKeepTheirPlaceAndTriggersAreCounted) {
  const Bytes data = HandMset();
  const nlohmann::json f = InfoOf(LoadBytes(data, "hand.mset", "", Options{}), InfoDetail::Summary)["fields"];
  EXPECT_EQ(f["entry_count"], 3);
  EXPECT_EQ(f["mset_type"], 2);
  EXPECT_EQ(f["empty_slots"], 1);
  EXPECT_EQ(f["link_entries"], 1);
  EXPECT_EQ(f["gaps"], nlohmann::json({{"count", 1}, {"bytes", 6}}));
  const nlohmann::json& e = f["entries"];
  ASSERT_EQ(e.size(), 3u);
  const size_t inner = 0x20 + kTriggers.size();
  EXPECT_EQ(e[0]["offset"], 0x40);
  EXPECT_EQ(e[0]["size"], inner);
  EXPECT_EQ(e[1]["empty"], true);
  EXPECT_EQ(e[2]["link_to"], 0);
  EXPECT_EQ(e[2]["bar"], nlohmann::json({{"same_as_entry", 0}}));
  const nlohmann::json& t = e[0]["bar"]["entries"][0];
  EXPECT_EQ(t["offset"], 0x20);
  EXPECT_EQ(t["triggers"]["ranges"], 1);
  EXPECT_EQ(t["triggers"]["frames"], 1);
  EXPECT_EQ(t["triggers"]["frame_list_offset"], 12);
}

// The tables of a motion: offsets and counts from the header at 0xA0 (offsets from 0x90),
// the key count from the room between the key table and the key time table.
void ExpectTablesFromTheHeader(const std::string& path) {
  const Bytes b = ReadFileBytes(path);
  const nlohmann::json tables = InfoOf(LoadBytes(b, path, "", Options{}), InfoDetail::Summary)["fields"]["tables"];
  auto expect = [&](const char* name, size_t offset_at, int64_t count, size_t record) {
    SCOPED_TRACE(name);
    EXPECT_EQ(tables[name]["offset"], int32_t(le::Load32At(b, 0xA0 + offset_at)));
    EXPECT_EQ(tables[name]["count"], count);
    EXPECT_EQ(tables[name]["size"], count * int64_t(record));
  };
  expect("initial_pose", 0x14, int32_t(le::Load32At(b, 0xA0 + 0x18)), 8);
  expect("forward_curves", 0x20, int32_t(le::Load32At(b, 0xA0 + 0x24)), 6);
  expect("inverse_curves", 0x28, int32_t(le::Load32At(b, 0xA0 + 0x2C)), 6);
  expect("keys", 0x30, (int32_t(le::Load32At(b, 0xA0 + 0x34)) - int32_t(le::Load32At(b, 0xA0 + 0x30))) / 8, 8);
  expect("key_times", 0x34, int32_t(le::Load32At(b, 0xA0 + 0x10)), 4);
  expect("constraints", 0x40, int32_t(le::Load32At(b, 0xA0 + 0x44)), 12);
  expect("expressions", 0x50, int32_t(le::Load32At(b, 0xA0 + 0x54)), 8);
  expect("expression_nodes", 0x58, int32_t(le::Load32At(b, 0xA0 + 0x5C)), 12);
  EXPECT_EQ(tables["root_position"]["offset"], int32_t(le::Load32At(b, 0xA0 + 0x1C)));
}

TEST(InfoSummary, MotionTablesAreTheHeadersCountsAndOffsets) {
  ExpectTablesFromTheHeader(test::SourcePath("samples/kh2_motion/wave.motion"));
  const std::string fixture = test::FixturePath("kh2/interpolated.motion");
  if (fixture.empty()) GTEST_SKIP() << "../shared/fixtures/kh2/interpolated.motion is absent";
  ExpectTablesFromTheHeader(fixture);
}

TEST(InfoSummary, ClipsGiveTheirCountsAndFullTheirJointNames) {
  // A PS1 ANM sample of 8 objects: each object keyed at each of its 90 frames, 3 properties.
  const LoadedFile loaded = LoadFile(test::SourcePath("samples/psx_anm/dance.anm"), "", Options{});
  const nlohmann::json summary = InfoOf(loaded, InfoDetail::Summary);
  const nlohmann::json full = InfoOf(loaded, InfoDetail::Full);
  const nlohmann::json& clip = summary["clips"][0];
  EXPECT_EQ(clip["joint_count"], full["clips"][0]["joints"].size());
  EXPECT_FALSE(clip.contains("joints"));
  EXPECT_GT(clip["key_count"].get<size_t>(), 0u);
  EXPECT_EQ(clip["format_fields"]["source_format"], "psx-anm");
  EXPECT_TRUE(summary.contains("detail"));
  EXPECT_FALSE(full.contains("detail"));
  // The same top-level keys but detail; joints and events whole in both.
  for (auto it = full.begin(); it != full.end(); ++it) EXPECT_TRUE(summary.contains(it.key())) << it.key();
  EXPECT_EQ(summary["joints"], full["joints"]);
  EXPECT_EQ(summary["events"], full["events"]);
}

// The linked slot's facts the Blender add-on reads stay in the summary.
TEST(InfoSummary, LinkedSlotsShareDataInTheSummary) {
  const LoadedFile loaded = LoadBytes(HandMset(), "hand.mset", "", Options{});
  EXPECT_EQ(InfoOf(loaded, InfoDetail::Summary)["fields"]["entries"][2]["link_to"],
            InfoOf(loaded, InfoDetail::Full)["fields"]["entries"][2]["link_to"]);
}

TEST(InfoSummary, FullFieldsAreTheFormatsWholeInfo) {
  for (const char* sample : {"kh2_bar/p_ex00.mset", "edf_canm/soldier.mdb", "psx_tmd/figure.tmd", "text_anm/authored.anm", "metroid_anim/run.anim"}) {
    SCOPED_TRACE(sample);
    const std::string path = test::SourcePath(std::string("samples/") + sample);
    const LoadedFile loaded = LoadFile(path, "", Options{});
    EXPECT_EQ(nlohmann::json::parse(DumpJson(InfoValue(loaded, InfoRequest{{}, SkeletonSource::None(), {}, InfoDetail::Full})["fields"])),
              nlohmann::json::parse(DumpJson(loaded.document->Info())));
  }
}

TEST(InfoSummary, CutTablesKeepsNamesAndVectorsAndCountsRecords) {
  const Value fields = {{"version", 3},
                        {"warnings", Value::array({"a", "b"})},
                        {"bbox", Value::array({1.0, 2.0, 3.0})},
                        {"values", Value(std::vector<int>(17, 0))},
                        {"records", Value::array({{{"x", 1}}, {{"x", 2}}})},
                        {"header", {{"table", Value::array({{{"y", 1}}})}, {"offset", 64}}}};
  const Value cut = CutTables(fields);
  EXPECT_EQ(cut["version"], 3);
  EXPECT_EQ(cut["warnings"], fields["warnings"]);
  EXPECT_EQ(cut["bbox"], fields["bbox"]);
  EXPECT_EQ(cut["values"], Value({{"count", 17}}));
  EXPECT_EQ(cut["records"], Value({{"count", 2}}));
  EXPECT_EQ(cut["header"], Value({{"table", {{"count", 1}}}, {"offset", 64}}));
}

// The bound: `info --json` of a 101-clip x 229-joint moveset within 1 MB (the time
// is bench/info_bench.cpp's).
TEST(InfoSummary, RealSizeMovesetStaysWithinOneMegabyte) {
  ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  const MovesetSpec spec;
  const Bytes mset = Kh2MovesetBytes(MovesetSkeleton(spec), spec);
  const LoadedFile loaded = LoadBytes(mset, "moveset.mset", "", Options{});
  InfoRequest request;
  request.skeleton = SkeletonSource::None();
  const std::string json = InfoJson(loaded, request);
  EXPECT_LE(json.size(), size_t{1000000});
  const nlohmann::json info = nlohmann::json::parse(json);
  EXPECT_EQ(info["clips"].size(), size_t(spec.clips));
  EXPECT_EQ(info["clips"][0]["joint_count"], spec.joints);
}

}  // namespace
}  // namespace animkit
