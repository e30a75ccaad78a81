// Movesets nested in movesets (BAR entries of type 20 holding ANB slots), damage reported
// by every verb, and the values the game writes outside the pose it reads (an initial
// pose of a joint past the motion's joints, a curve on a channel past the 9 known).
// The archives are built here byte by byte from the layout (docs/formats/kh2.md).
#include <animkit/formats/kh2.hpp>

#include "formats/kh2/kh2_test_motion.hpp"
#include "support/test_support.hpp"

#include <cstring>
#include <fstream>

namespace animkit {
extern const FormatDescriptor kKh2BarFormat;
extern const FormatDescriptor kKh2MotionFormat;
namespace {

using namespace kh2;

std::string Joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

bool Has(const std::vector<std::string>& lines, const std::string& a, const std::string& b = "") {
  for (const std::string& l : lines)
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  return false;
}

void Put16(Bytes& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v), b[at + 1] = uint8_t(v >> 8);
}
void Put32(Bytes& b, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + size_t(k)] = uint8_t(v >> (8 * k));
}

// One BAR entry as the layout stores it: type, name, data (none: an empty slot, offset
// and size 0).
struct RawEntry {
  uint16_t type = 0;
  std::string name;
  Bytes data;
};

// A BAR: "BAR\x01", count, two zero words, 16-byte entries, then each entry's data at the
// next multiple of 16. offsets (when given) receives each entry's data offset.
Bytes Archive(const std::vector<RawEntry>& entries, std::vector<size_t>* offsets = nullptr) {
  Bytes out(16 + entries.size() * 16, 0);
  out[0] = 'B', out[1] = 'A', out[2] = 'R', out[3] = 1;
  Put32(out, 4, uint32_t(entries.size()));
  for (size_t i = 0; i < entries.size(); ++i) {
    const RawEntry& e = entries[i];
    const size_t rec = 16 + i * 16;
    Put16(out, rec, e.type);
    std::memcpy(&out[rec + 4], e.name.data(), std::min<size_t>(4, e.name.size()));
    size_t at = 0;
    if (!e.data.empty()) {
      at = (out.size() + 15) / 16 * 16;
      out.resize(at, 0);
      out.insert(out.end(), e.data.begin(), e.data.end());
    }
    Put32(out, rec + 8, uint32_t(at));
    Put32(out, rec + 12, uint32_t(e.data.size()));
    if (offsets) offsets->push_back(at);
  }
  return out;
}

// Bone 0's translation y: linear from 1 at key time 0 to 3 at key time 10; scale x an
// initial pose value 2. Built by the project's own writer.
Motion OneBoneMotion() {
  Motion m = kh2_test::InterpolatedMotionOf(1, 30, 5);
  InterpolatedMotion& im = m.interpolated;
  im.key_times = {0, 10};
  im.values = {1, 3};
  im.keys = {{uint16_t((0 << 2) | 1), 0, 0, 0}, {uint16_t((1 << 2) | 1), 1, 0, 0}};
  Curve c;
  c.joint = 0, c.packed = 7, c.key_count = 2, c.first_key = 0;
  im.forward = {c};
  im.initial_pose = {{0, 0, 2.0f}};
  LayoutMotion(m);
  return m;
}

// A triggers entry of one frame trigger (frame 2, id 7, no parameters).
Bytes OneFrameTrigger() { return {0, 1, 4, 0, 2, 0, 7, 0}; }

// An ANB: a motion entry and a triggers entry, both named name.
Bytes Anb(const Bytes& motion, const std::string& name, std::vector<size_t>* offsets = nullptr) {
  return Archive({{kEntryMotion, name, motion}, {kEntryTriggers, name, OneFrameTrigger()}}, offsets);
}

// A boss moveset: 252 empty ANB slots, then two entries of type 20, each a moveset of
// three ANB slots of which two hold a motion (slots 1 and 2 of the first, 0 and 2 of the
// second; the others empty).
Bytes NestedMoveset(std::vector<size_t>* top_offsets = nullptr) {
  const Bytes motion = SerializeMotion(OneBoneMotion());
  const Bytes first = Archive({{kEntryAnb, "0010", {}}, {kEntryAnb, "0010", Anb(motion, "0010")},
                               {kEntryAnb, "0011", Anb(motion, "0011")}});
  const Bytes second = Archive({{kEntryAnb, "0020", Anb(motion, "0020")}, {kEntryAnb, "0021", {}},
                                {kEntryAnb, "0022", Anb(motion, "0022")}});
  std::vector<RawEntry> top(252, RawEntry{kEntryAnb, "DUMM", {}});
  top.push_back({kEntrySubArchive, "B000", first});
  top.push_back({kEntrySubArchive, "B001", second});
  return Archive(top, top_offsets);
}

std::vector<std::string> ClipNames(const Scene& scene) {
  std::vector<std::string> names;
  for (const Clip& c : scene.clips) names.push_back(c.name);
  return names;
}

std::string WriteTemp(const std::filesystem::path& dir, const std::string& name, const Bytes& bytes) {
  const std::string path = (dir / name).string();
  WriteFileAtomic(path, bytes);
  return path;
}

TEST(Kh2Nested, MotionsOfNestedMovesetsAreClipsNamedByTheirPath) {
  const Bytes bytes = NestedMoveset();
  test::ExpectByteExactRoundTrip(kKh2BarFormat, bytes);
  auto doc = kKh2BarFormat.read(bytes, {});
  EXPECT_TRUE(doc->Damaged().empty()) << Joined(doc->Damaged());
  const Scene scene = doc->Decode(DecodeContext{});
  EXPECT_EQ(ClipNames(scene), (std::vector<std::string>{"252_B000/001_0010", "252_B000/002_0011",
                                                         "253_B001/000_0020", "253_B001/002_0022"}));
  for (const Clip& c : scene.clips) {
    EXPECT_EQ(c.frame_count, 6u) << c.name;  // frames 0..5 at 30 fps
    ASSERT_EQ(c.events.size(), 1u) << c.name << ": its ANB's triggers";
    EXPECT_NEAR(c.events[0].time, 2.0 / 30, 1e-6) << c.name;  // frame 2 at the motion's 30 fps
  }
}

TEST(Kh2Nested, NestingDeeperThanTheLimitIsRefused) {
  Bytes bytes = Anb(SerializeMotion(OneBoneMotion()), "A000");
  for (int depth = 0; depth < 4; ++depth) bytes = Archive({{kEntrySubArchive, "N00" + std::to_string(depth), bytes}});
  Limits limits;
  limits.max_depth = 3;  // four nested movesets and the ANB: five levels below the top
  EXPECT_NE(test::ErrorOf([&] { (void)ParseBar(bytes, 0, limits); }).find("nesting depth"), std::string::npos);
  const Scene scene = DecodeBar(ParseBar(bytes), nullptr, {});
  EXPECT_EQ(ClipNames(scene), (std::vector<std::string>{"000_N003/000_N002/000_N001/000_N000"}))
      << "the ANB's one motion is named by the path to it";
}

TEST(Kh2Nested, AnUneditedTemplateRoundTripKeepsEveryByte) {
  const Bytes bytes = NestedMoveset();
  const auto dir = test::TempDir("kh2_nested_template");
  const std::string mset = WriteTemp(dir, "boss.mset", bytes);
  const std::string glb = (dir / "boss.glb").string();
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert " + mset + " " + glb, &out, &err), 0) << out << err;
  const std::string back = (dir / "back.mset").string();
  ASSERT_EQ(test::RunCli("convert " + glb + " " + back + " --template " + mset + " -v", &out, &err), 0) << out << err;
  EXPECT_EQ(ReadFileBytes(back), bytes);
  EXPECT_NE(err.find("\"slots_replaced\": 0"), std::string::npos) << err;
}

TEST(Kh2Nested, AClipReplacesItsNestedSlotAloneAndTheRestKeepsItsBytes) {
  std::vector<size_t> top;
  const Bytes bytes = NestedMoveset(&top);
  const auto dir = test::TempDir("kh2_nested_replace");
  const std::string mset = WriteTemp(dir, "boss.mset", bytes);
  // A two-bone clip (not the template's motion) replaces nested slot 253/2.
  Motion other = OneBoneMotion();
  other.interpolated.values = {-4, 8};
  LayoutMotion(other);
  const std::string anb = WriteTemp(dir, "other.anb", Anb(SerializeMotion(other), "0022"));
  const std::string back = (dir / "back.mset").string();
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert " + anb + " " + back + " --template " + mset + " --clip 253_B001/002_0022", &out, &err), 0)
      << out << err;
  const Bytes written = ReadFileBytes(back);
  // Everything before the second nested moveset is as it was, but its size in the table.
  ASSERT_GT(written.size(), top[253]);
  const size_t size_field = 16 + 253 * 16 + 12;
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.begin() + std::ptrdiff_t(size_field), written.begin()));
  EXPECT_TRUE(std::equal(bytes.begin() + std::ptrdiff_t(size_field + 4), bytes.begin() + std::ptrdiff_t(top[253]),
                         written.begin() + std::ptrdiff_t(size_field + 4)))
      << "the bytes before the replaced nested moveset";
  const Scene before = DecodeBar(ParseBar(bytes), nullptr, {});
  const Scene after = DecodeBar(ParseBar(written), nullptr, {});
  ASSERT_EQ(ClipNames(after), ClipNames(before));
  for (size_t k = 0; k < 3; ++k)
    EXPECT_EQ(after.clips[k].tracks[0].translation.values, before.clips[k].tracks[0].translation.values)
        << after.clips[k].name;
  // The replaced slot plays the other motion: translation y -4 at frame 0.
  ASSERT_FALSE(after.clips[3].tracks[0].translation.values.empty());
  EXPECT_NEAR(after.clips[3].tracks[0].translation.values[0].y, -4, 1e-3);
}

// ---------------------------------------------------------------------------
// Damage

// The ANB of one motion, damaged as `damage` says; the offset its damage names.
struct DamagedAnb {
  std::string what;
  Bytes bytes;
  size_t offset;  // the offset the error names
};

std::vector<DamagedAnb> DamagedAnbs() {
  const Motion built = OneBoneMotion();
  const Bytes motion = SerializeMotion(built);
  std::vector<size_t> at;
  const Bytes anb = Anb(motion, "A000", &at);
  std::vector<DamagedAnb> out;
  {  // the file ends inside its only motion (the triggers after it are gone too)
    out.push_back({"truncated", Bytes(anb.begin(), anb.begin() + std::ptrdiff_t(at[0] + 0x40)), 0x10 + 8});
  }
  {  // a motion type neither 0 nor 1
    Bytes b = anb;
    Put32(b, at[0] + 0x90, 7);
    out.push_back({"unknown motion type", b, at[0] + 0x90});
  }
  {  // the motion entry's offset past the end of the file
    Bytes b = anb;
    Put32(b, 0x10 + 8, 0x100000);
    out.push_back({"entry past the end", b, 0x10 + 8});
  }
  {  // a key index far past every table and the file
    Bytes b = anb;
    const size_t curve = at[0] + 0x90 + size_t(built.interpolated.forward_offset);
    Put16(b, curve + 4, 0xF000);
    out.push_back({"key index out of range", b, curve + 4});
  }
  {  // a raw motion whose bone count asks for more matrices than the file holds
    Motion raw;
    raw.raw = true;
    raw.raw_motion.bone_count = 1;
    raw.raw_motion.matrices.resize(2);
    LayoutMotion(raw);
    Bytes m = SerializeMotion(raw);
    Put32(m, 0xA0, 0x7FFFFFFF);  // bone count
    out.push_back({"huge raw bone count", Anb(m, "A000"), 0});  // the offset depends on the layout: any named
  }
  return out;
}

TEST(Kh2Damage, AFileWithNothingReadableFailsInEveryVerb) {
  const auto dir = test::TempDir("kh2_damage_every_verb");
  for (const DamagedAnb& d : DamagedAnbs()) {
    SCOPED_TRACE(d.what);
    const std::string path = WriteTemp(dir, "broken.anb", d.bytes);
    auto doc = kKh2BarFormat.read(d.bytes, {});
    const std::vector<std::string> damaged = doc->Damaged();
    ASSERT_FALSE(damaged.empty());
    EXPECT_EQ(doc->Write(), d.bytes) << "a damaged file writes back its bytes";
    const std::string offset = d.offset ? "offset " + Hex(d.offset) : "offset 0x";
    EXPECT_TRUE(Has(damaged, offset)) << Joined(damaged);
    for (const std::string verb : {"sample", "info", "info --json", "validate"}) {
      std::string out, err;
      EXPECT_EQ(test::RunCli(verb + " " + path, &out, &err), 1) << verb << ": " << out << err;
      const std::string& said = std::string(verb) == "validate" ? out : err;
      EXPECT_NE(said.find(path), std::string::npos) << verb << ": " << said;
      EXPECT_NE(said.find(offset), std::string::npos) << verb << ": " << said;
    }
    std::string out, err;
    const std::string glb = (dir / "broken.glb").string();
    std::filesystem::remove(glb);
    EXPECT_EQ(test::RunCli("convert " + path + " " + glb, &out, &err), 1) << out << err;
    EXPECT_NE(err.find(path + ": "), std::string::npos) << err;
    EXPECT_NE(err.find("nothing could be read"), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(glb)) << "no empty glb is written";
  }
}

TEST(Kh2Damage, ADamagedPartIsListedByEveryVerbAndTheRestReads) {
  const Bytes motion = SerializeMotion(OneBoneMotion());
  std::vector<size_t> anb_at;
  const Bytes good = Anb(motion, "A000");
  Bytes bad = Anb(motion, "A001", &anb_at);
  Put32(bad, anb_at[0] + 0x90, 7);  // motion type 7
  std::vector<size_t> slot_at;
  const Bytes mset = Archive({{kEntryAnb, "A000", good}, {kEntryAnb, "A001", bad}}, &slot_at);
  const size_t damaged_at = slot_at[1] + anb_at[0] + 0x90;
  const auto dir = test::TempDir("kh2_damage_listed");
  const std::string path = WriteTemp(dir, "one_bad.mset", mset);
  const std::string where = "entry 1 (A001) > entry 0 (A001): offset " + Hex(damaged_at);
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample " + path, &out, &err), 0) << err;
  EXPECT_NE(err.find(path + ": warning: damaged, no clip from it (its bytes are kept): " + where), std::string::npos) << err;
  const Value json = ParseJson(out);
  ASSERT_TRUE(json.contains("warnings")) << out.substr(0, 400);
  EXPECT_NE(DumpJson(json["warnings"]).find(where), std::string::npos) << DumpJson(json["warnings"]);
  ASSERT_EQ(json["clips"].size(), 1u);
  EXPECT_EQ(json["clips"][0]["name"], "000_A000");
  ASSERT_EQ(test::RunCli("info --json " + path, &out, &err), 0) << err;
  EXPECT_NE(DumpJson(ParseJson(out)["damaged"]).find(where), std::string::npos) << out.substr(0, 400);
  ASSERT_EQ(test::RunCli("convert " + path + " " + (dir / "one.glb").string(), &out, &err), 0) << err;
  EXPECT_NE(err.find(where), std::string::npos) << err;
  EXPECT_EQ(test::RunCli("validate " + path, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("damaged: " + where), std::string::npos) << out;
}

TEST(Kh2Damage, TriggersPastTheEndOfTheFileAreListed) {
  // The triggers say 3 frame triggers; the file ends after the first.
  const Bytes motion = SerializeMotion(OneBoneMotion());
  Bytes triggers = OneFrameTrigger();
  triggers[1] = 3;
  std::vector<size_t> at;
  const Bytes anb = Archive({{kEntryMotion, "A000", motion}, {kEntryTriggers, "A000", triggers}}, &at);
  const auto dir = test::TempDir("kh2_damage_triggers");
  const std::string path = WriteTemp(dir, "triggers.anb", anb);
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample " + path, &out, &err), 0) << err;
  EXPECT_NE(err.find("damaged, no clip from it (its bytes are kept): entry 1 (A000)"), std::string::npos) << err;
  EXPECT_NE(DumpJson(ParseJson(out)["warnings"]).find("entry 1 (A000)"), std::string::npos) << out.substr(0, 400);
  EXPECT_EQ(ParseJson(out)["clips"].size(), 1u) << "the motion still reads";
}

// ---------------------------------------------------------------------------
// Joints past the motion's and channels past the 9 known

TEST(Kh2PastThePose, AnInitialPoseOfAJointPastTheMotionAndAChannelPast8MoveNothing) {
  const Motion plain = OneBoneMotion();
  Motion odd = plain;
  InterpolatedMotion& im = odd.interpolated;
  // Three values for joint 1 (the motion has joint 0 alone), one for channel 9 of joint 0.
  im.initial_pose.push_back({1, 0, 5.0f});
  im.initial_pose.push_back({1, 1, 5.0f});
  im.initial_pose.push_back({1, 2, 5.0f});
  im.initial_pose.push_back({0, 9, 7.0f});
  // A curve on channel 9 of joint 0, reading the same two keys.
  Curve c = im.forward[0];
  c.packed = 9;
  im.forward.push_back(c);
  LayoutMotion(odd);
  const Bytes bytes = SerializeMotion(odd);
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
  const Motion m = ParseMotion(bytes);
  const std::vector<std::string>& w = m.warnings;
  const size_t pose_at = 0x90 + size_t(m.interpolated.initial_pose_offset);
  const size_t curve_at = 0x90 + size_t(m.interpolated.forward_offset) + 6;
  EXPECT_TRUE(Has(w, "offset " + Hex(pose_at + 8) + ": initial pose 1..3: bone 1 is past the motion's joints (0..0)",
                  "moves nothing"))
      << Joined(w);
  EXPECT_TRUE(Has(w, "offset " + Hex(pose_at + 32) + ": initial pose 4: channel 9")) << Joined(w);
  EXPECT_TRUE(Has(w, "offset " + Hex(curve_at) + ": forward curve 1: channel 9 is none of the 9 known channels"))
      << Joined(w);
  // The pose is the plain motion's at every frame.
  const Clip a = DecodeMotion(ParseMotion(SerializeMotion(plain)), {}, {}, {});
  const Clip b = DecodeMotion(m, {}, {}, {});
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (size_t t = 0; t < a.tracks.size(); ++t) {
    EXPECT_EQ(a.tracks[t].translation.values, b.tracks[t].translation.values);
    EXPECT_EQ(a.tracks[t].scale.values, b.tracks[t].scale.values);
    EXPECT_EQ(a.tracks[t].rotation.values, b.tracks[t].rotation.values);
  }
}

TEST(Kh2PastThePose, TheRealSoraMovesetHasNoDamagedClip) {
  const std::string path = test::FixturePath("../real/kh2/P_EX100.mset");
  if (path.empty()) GTEST_SKIP() << "../shared/real/kh2/P_EX100.mset is absent";
  auto doc = kKh2BarFormat.read(ReadFileBytes(path), {});
  EXPECT_TRUE(doc->Damaged().empty()) << Joined(doc->Damaged());
  const std::vector<std::string> w = doc->Warnings();
  EXPECT_TRUE(Has(w, "initial pose 36..80: bone 228 is past the motion's joints (0..227)")) << "entry 260";
  EXPECT_TRUE(Has(w, "forward curve 530: channel 9 is none of the 9 known channels")) << "entry 660";
  EXPECT_EQ(doc->Write(), ReadFileBytes(path));
}

}  // namespace
}  // namespace animkit
