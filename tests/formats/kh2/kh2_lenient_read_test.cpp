// Real movesets break rules the game never checks: keys past the key table, curves of
// joints the motion lacks, more than 32,767 keys, entries past the end of the file, cut
// files. Each is read as the game reads it, or damages its own entry alone.
#include <animkit/formats/kh2.hpp>

#include "formats/kh2/kh2_test_motion.hpp"
#include "support/test_support.hpp"

#include <cstring>

namespace animkit {
extern const FormatDescriptor kKh2BarFormat;
extern const FormatDescriptor kKh2MotionFormat;
namespace {

using namespace kh2;

bool Has(const std::vector<std::string>& lines, const std::string& a, const std::string& b = "") {
  for (const std::string& l : lines)
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  return false;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

uint16_t U16At(const Bytes& b, size_t at) { return uint16_t(b[at] | (b[at + 1] << 8)); }
float F32At(const Bytes& b, size_t at) {
  float f;
  std::memcpy(&f, &b[at], 4);
  return f;
}

// Bone 1's translation x: linear keys 1 at time 0 and 3 at time 10 (the last keys of the
// key table); helper 0's translation y: a constant 5. Key times {0, 10, 0, 0}: the two
// unused zero times make the bytes after the key table read as keys of time 0, value 0.
Motion KeyedMotion() {
  Motion m = kh2_test::InterpolatedMotionOf(2, 30, 5);
  InterpolatedMotion& im = m.interpolated;
  im.key_times = {0, 10, 0, 0};
  im.values = {1, 3, 5};
  im.keys = {{uint16_t((0 << 2) | 0), 2, 0, 0},                  // helper curve: constant 5
             {uint16_t((0 << 2) | 1), 0, 0, 0},                  // bone curve: linear 1 ...
             {uint16_t((1 << 2) | 1), 1, 0, 0}};                 // ... to 3 at time 10
  Curve helper;
  helper.joint = 0, helper.packed = 7, helper.key_count = 1, helper.first_key = 0;
  Curve bone;
  bone.joint = 1, bone.packed = 6, bone.key_count = 2, bone.first_key = 1;
  im.forward = {bone};
  im.inverse = {helper};
  BoneRecord h;
  h.index = 2, h.parent = 0;
  im.ik_helpers = {h};
  LayoutMotion(m);
  return m;
}

size_t ForwardCurveAt(const Motion& m, size_t i) { return 0x90 + size_t(m.interpolated.forward_offset) + i * 6; }
size_t InverseCurveAt(const Motion& m, size_t i) { return 0x90 + size_t(m.interpolated.inverse_offset) + i * 6; }

TEST(Kh2LenientRead, KeysPastTheKeyTableReadTheBytesThatFollow) {
  const Motion built = KeyedMotion();
  const size_t keys_at = 0x90 + size_t(built.interpolated.key_offset);
  const size_t times_at = 0x90 + size_t(built.interpolated.key_time_offset);
  ASSERT_EQ(times_at, keys_at + 3 * 8) << "the layout puts the key times right after the keys";
  for (int past = 1; past <= 2; ++past) {
    Bytes bytes = SerializeMotion(built);
    bytes[ForwardCurveAt(built, 0) + 3] = uint8_t(2 + past);  // key count 2 -> 3 or 4
    test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
    const Motion m = ParseMotion(bytes);
    const InterpolatedMotion& im = m.interpolated;
    ASSERT_EQ(im.keys.size(), 3u + size_t(past));
    EXPECT_EQ(im.read_past.keys, size_t(past));
    // Key 3 (+4) are the key time table's bytes, read as key records.
    for (int k = 0; k < past; ++k) {
      const size_t at = times_at + size_t(k) * 8;
      EXPECT_EQ(im.keys[3 + size_t(k)].packed, U16At(bytes, at));
      EXPECT_EQ(im.keys[3 + size_t(k)].value, U16At(bytes, at + 2));
      EXPECT_EQ(im.keys[3 + size_t(k)].out_tangent, U16At(bytes, at + 6));
    }
    const std::string range = "keys 1.." + std::to_string(2 + past) + " run past the key table (3 keys)";
    EXPECT_TRUE(Has(m.warnings, "offset " + Hex(ForwardCurveAt(built, 0)) + ": forward curve 0", range))
        << Joined(m.warnings);
    // The last key read is at time 0 (key time 0): t = 5 is past the curve's end, where its
    // post cycle (clamp) holds that key's value, value 0 = 1.
    EXPECT_FLOAT_EQ(EvaluateCurve(im, im.forward[0], 5), 1.0f);
  }
}

TEST(Kh2LenientRead, KeysAndIndicesPastTheFileAreAnError) {
  const Motion built = KeyedMotion();
  Bytes bytes = SerializeMotion(built);
  bytes[ForwardCurveAt(built, 0) + 3] = 200;  // 200 keys: far past the end of the file
  const std::string e = test::ReadError(kKh2MotionFormat, bytes);
  EXPECT_NE(e.find("offset " + Hex(ForwardCurveAt(built, 0) + 4)), std::string::npos) << e;
  EXPECT_NE(e.find("past the end of the file"), std::string::npos) << e;

  bytes = SerializeMotion(built);
  const size_t value_index_at = 0x90 + size_t(built.interpolated.key_offset) + 8 + 2;  // key 1's value
  bytes[value_index_at + 1] = 0x40;                                                  // value 16384
  const std::string v = test::ReadError(kKh2MotionFormat, bytes);
  EXPECT_NE(v.find("offset " + Hex(value_index_at)), std::string::npos) << v;
  EXPECT_NE(v.find("value 16384 lies past the end of the file"), std::string::npos) << v;
}

TEST(Kh2LenientRead, AValueIndexPastItsTableReadsOnWithAWarning) {
  const Motion built = KeyedMotion();
  Bytes bytes = SerializeMotion(built);
  const size_t value_index_at = 0x90 + size_t(built.interpolated.key_offset) + 8 + 2;  // key 1's value
  bytes[value_index_at] = 4;  // value 4: the second float after the 3 values (the tangent table is empty)
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
  const Motion m = ParseMotion(bytes);
  const size_t expected_at = 0x90 + size_t(built.interpolated.key_value_offset) + 4 * 4;
  ASSERT_EQ(m.interpolated.values.size(), 5u);
  EXPECT_EQ(m.interpolated.read_past.values, 2u);
  EXPECT_EQ(std::bit_cast<uint32_t>(m.interpolated.values[4]), std::bit_cast<uint32_t>(F32At(bytes, expected_at)));
  EXPECT_TRUE(Has(m.warnings, "key 1 reads value 4 past the value table (3)")) << Joined(m.warnings);
}

TEST(Kh2LenientRead, ACurveOfAJointTheMotionLacksMovesNoJoint) {
  const Motion built = KeyedMotion();
  Bytes bytes = SerializeMotion(built);
  bytes[InverseCurveAt(built, 0)] = 228;  // helper 228 of 1
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
  const Motion m = ParseMotion(bytes);
  EXPECT_TRUE(Has(m.warnings, "offset " + Hex(InverseCurveAt(built, 0)) + ": inverse curve 0: joint 228",
                  "moves no joint"))
      << Joined(m.warnings);
  const Clip clip = DecodeMotion(m, {}, {}, {});
  ASSERT_EQ(clip.tracks.size(), 3u);
  std::vector<ChannelValues> pose;
  EvaluatePose(m.interpolated, 0, {}, pose);
  EXPECT_FLOAT_EQ(pose[2][7], 0.0f) << "the helper keeps its rest (identity), not the stray curve's 5";
  EXPECT_FLOAT_EQ(pose[1][6], 1.0f);
}

// 33,000 keys: bone 0's translation x has 132 linear keys at the end of the key table,
// first key 32,868 (a negative number if read as signed).
TEST(Kh2LenientRead, KeyIndicesAreUnsigned) {
  Motion m;
  InterpolatedMotion& im = m.interpolated;
  im.bone_count = 1;
  im.fps = 30;
  im.frame_end = 3;
  im.key_times = {0, 6};
  im.values = {0, 12};
  im.keys.assign(33000, Key{uint16_t(0 << 2), 0, 0, 0});
  im.keys[32999] = Key{uint16_t((1 << 2) | 1), 1, 0, 0};
  im.keys[32998] = Key{uint16_t((0 << 2) | 1), 0, 0, 0};
  Curve c;
  c.joint = 0, c.packed = 6, c.key_count = 2, c.first_key = 32998;
  im.forward = {c};
  LayoutMotion(m);
  const Bytes bytes = SerializeMotion(m);
  const size_t first_key_at = 0x90 + size_t(im.forward_offset) + 4;
  EXPECT_EQ(U16At(bytes, first_key_at), 32998) << "stored as an unsigned 16-bit index";
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
  const Motion read = ParseMotion(bytes);
  EXPECT_TRUE(read.warnings.empty()) << Joined(read.warnings);
  EXPECT_EQ(read.interpolated.forward[0].first_key, 32998);
  const Clip clip = DecodeMotion(read, {}, {}, {});
  std::vector<TransformTRS> pose(clip.tracks.size());
  SampleClipJob{&clip, nullptr, FrameTime(1, clip.frame_rate), pose}.Run();
  EXPECT_FLOAT_EQ(pose[0].translation.x, 4.0f);  // key time 2 of 0..6: 0 + 12 x 2/6
}

// An MSET of four ANB slots, each a motion (KeyedMotion) and no triggers: slot i's motion
// entry is named A00i.
Bytes FourSlotMset(std::vector<size_t>* slot_offsets = nullptr) {
  const Bytes motion = SerializeMotion(KeyedMotion());
  Bar mset;
  mset.mset_type = 2;
  for (int i = 0; i < 4; ++i) {
    auto anb = std::make_shared<Bar>();
    BarEntry me;
    me.type = kEntryMotion;
    const std::string name = "A00" + std::to_string(i);
    std::memcpy(me.name.data(), name.data(), 4);
    me.motion = std::make_shared<Motion>(ParseMotion(motion));
    anb->entries.push_back(me);
    BarEntry slot;
    slot.type = kEntryAnb;
    std::memcpy(slot.name.data(), name.data(), 4);
    slot.bar = anb;
    mset.entries.push_back(slot);
  }
  LayoutBar(mset);
  if (slot_offsets)
    for (const BarEntry& e : mset.entries) slot_offsets->push_back(e.offset);
  return SerializeBar(mset);
}

std::vector<std::string> ClipNames(const Scene& scene) {
  std::vector<std::string> names;
  for (const Clip& c : scene.clips) names.push_back(c.name);
  return names;
}

TEST(Kh2LenientRead, ADamagedMotionDamagesItsSlotAlone) {
  std::vector<size_t> slots;
  Bytes bytes = FourSlotMset(&slots);
  // Slot 2's motion: motion type 7, neither interpolated nor raw, which no reading makes sense of.
  const size_t motion_at = slots[2] + 0x20;  // the ANB's header and one entry
  bytes[motion_at + 0x90] = 7;
  test::ExpectByteExactRoundTrip(kKh2BarFormat, bytes);
  auto doc = kKh2BarFormat.read(bytes, {});
  const std::vector<std::string> damaged = doc->Damaged();
  ASSERT_EQ(damaged.size(), 1u) << Joined(damaged);
  EXPECT_NE(damaged[0].find("entry 2 (A002) > entry 0 (A002)"), std::string::npos) << damaged[0];
  EXPECT_NE(damaged[0].find("offset " + Hex(motion_at + 0x90)), std::string::npos)
      << damaged[0];
  const Scene scene = doc->Decode(DecodeContext{});
  EXPECT_EQ(ClipNames(scene), (std::vector<std::string>{"000_A000", "001_A001", "003_A003"}));
}

TEST(Kh2LenientRead, AnEntryPastTheEndOfTheFileIsDamagedAndTheRestOpens) {
  std::vector<size_t> slots;
  Bytes bytes = FourSlotMset(&slots);
  const size_t size_field = 0x10 + 1 * 16 + 12;  // slot 1's size
  bytes[size_field + 2] = 0x10;                   // + 0x100000 bytes
  test::ExpectByteExactRoundTrip(kKh2BarFormat, bytes);
  auto doc = kKh2BarFormat.read(bytes, {});
  const std::vector<std::string> damaged = doc->Damaged();
  ASSERT_EQ(damaged.size(), 1u) << Joined(damaged);
  EXPECT_NE(damaged[0].find("entry 1 (A001): offset " + Hex(size_field - 4)), std::string::npos) << damaged[0];
  EXPECT_NE(damaged[0].find("runs past the end of the file"), std::string::npos) << damaged[0];
  EXPECT_EQ(ClipNames(doc->Decode(DecodeContext{})), (std::vector<std::string>{"000_A000", "002_A002", "003_A003"}));
}

TEST(Kh2LenientRead, AnOffsetPastTheEndOfTheFileDamagesItsEntryAlone) {
  Bytes bytes = FourSlotMset();
  const size_t offset_field = 0x10 + 0 * 16 + 8;  // slot 0's offset
  bytes[offset_field + 2] = 0xF0;
  auto doc = kKh2BarFormat.read(bytes, {});
  const std::vector<std::string> damaged = doc->Damaged();
  ASSERT_EQ(damaged.size(), 1u) << Joined(damaged);
  EXPECT_NE(damaged[0].find("entry 0 (A000): offset " + Hex(offset_field)), std::string::npos) << damaged[0];
  EXPECT_NE(damaged[0].find("the file holds none of it"), std::string::npos) << damaged[0];
  EXPECT_EQ(doc->Write(), bytes);
  EXPECT_EQ(doc->Decode(DecodeContext{}).clips.size(), 3u);
}

TEST(Kh2LenientRead, ATruncatedMsetKeepsTheSlotsBeforeTheCut) {
  std::vector<size_t> slots;
  const Bytes whole = FourSlotMset(&slots);
  const Bytes cut(whole.begin(), whole.begin() + std::ptrdiff_t(slots[2] + 0x40));  // inside slot 2
  test::ExpectByteExactRoundTrip(kKh2BarFormat, cut);
  auto doc = kKh2BarFormat.read(cut, {});
  const std::vector<std::string> damaged = doc->Damaged();
  ASSERT_EQ(damaged.size(), 2u) << Joined(damaged);
  EXPECT_TRUE(Has(damaged, "entry 2 (A002)", "the 0x40 bytes the file holds are kept")) << Joined(damaged);
  EXPECT_TRUE(Has(damaged, "entry 3 (A003)", "the file holds none of it")) << Joined(damaged);
  EXPECT_EQ(ClipNames(doc->Decode(DecodeContext{})), (std::vector<std::string>{"000_A000", "001_A001"}));
}

// Every cut of a moveset either fails with an error that names its place, or reads with
// its damaged parts listed and writes back to exactly the bytes it was given.
TEST(Kh2LenientRead, EveryTruncationFailsOrKeepsWhatItHolds) {
  for (const std::string name : {"p_ex00.mset", "walk.anb", "raw.anb"}) {
    const Bytes data = ReadFileBytes(test::SourcePath("samples/kh2_bar/" + name));
    size_t damaged_reads = 0;
    for (size_t len = 0; len < data.size(); ++len) {
      const Bytes prefix(data.begin(), data.begin() + std::ptrdiff_t(len));
      try {
        auto doc = kKh2BarFormat.read(prefix, {});
        ASSERT_EQ(doc->Write(), prefix) << name << " cut to " << len;
        damaged_reads += doc->Damaged().empty() ? 0 : 1;
        (void)doc->Decode(DecodeContext{});
      } catch (const Error& e) {
        EXPECT_TRUE(e.byte_offset().has_value()) << name << " cut to " << len << ": " << e.what();
      }
    }
    EXPECT_GT(damaged_reads, 0u) << name;
  }
}

TEST(Kh2LenientRead, ValidateListsTheReadableClipsAndConvertWarns) {
  std::vector<size_t> slots;
  const Bytes whole = FourSlotMset(&slots);
  const auto dir = test::TempDir("kh2_lenient_validate");
  const std::string cut_path = (dir / "cut.mset").string();
  WriteFileAtomic(cut_path, Bytes(whole.begin(), whole.begin() + std::ptrdiff_t(slots[2] + 0x40)));
  std::string out, err;
  EXPECT_EQ(test::RunCli("validate " + cut_path, &out, &err), 1) << out << err;
  EXPECT_NE(out.find("damaged: entry 2 (A002)"), std::string::npos) << out;
  EXPECT_NE(out.find("2 clip(s) readable: 000_A000, 001_A001"), std::string::npos) << out;
  const std::string glb = (dir / "cut.glb").string();
  EXPECT_EQ(test::RunCli("convert " + cut_path + " " + glb, &out, &err), 0) << out << err;
  EXPECT_NE(err.find("damaged, no clip from it"), std::string::npos) << err;
  // Back over the cut file as template: the readable clips unedited, the damaged slot as
  // it was, so the very bytes.
  const std::string back = (dir / "back.mset").string();
  EXPECT_EQ(test::RunCli("convert " + glb + " " + back + " --template " + cut_path, &out, &err), 0) << out << err;
  EXPECT_EQ(ReadFileBytes(back), ReadFileBytes(cut_path));
}

}  // namespace
}  // namespace animkit
