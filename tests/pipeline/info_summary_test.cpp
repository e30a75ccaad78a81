// `info` summaries: per table its count, offset and size (expected values read from the
// files' layout), the clip counts, --full as the document always was, and the size bound
// on a real-size moveset.
#include <animkit/formats/kh2.hpp>
#include <nlohmann/json.hpp>
#include <synthetic/synthetic_moveset.hpp>

#include <cstring>

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

TEST(InfoSummary, WarningsOfOneKindFoldIntoTheirFirst) {
  const std::vector<std::string> warnings = {
      "entry 0 (A000) > entry 0 (A000): joint 11 (flags 0x2) asks for two-bone IK: left as forward kinematics",
      "entry 0 (A000) > entry 0 (A000): constraint 2 (type 3 Direction, joint 39): not verified",
      "entry 4 (A001) > entry 0 (A001): joint 40 (flags 0x2) asks for two-bone IK: left as forward kinematics",
      "entry 8 (A002) > entry 0 (A002): joint 7 (flags 0x2) asks for two-bone IK: left as forward kinematics",
      "offset 0x10: the archive's entries run past its declared size",
  };
  const std::vector<std::string> folded = FoldWarnings(warnings);
  ASSERT_EQ(folded.size(), 3u);
  EXPECT_EQ(folded[0], warnings[0] + " (and 2 more like it: info --full lists them)");
  EXPECT_EQ(folded[1], warnings[1]);
  EXPECT_EQ(folded[2], warnings[4]);
  EXPECT_TRUE(FoldWarnings({}).empty());
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
