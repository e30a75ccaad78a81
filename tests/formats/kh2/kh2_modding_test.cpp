// KH2 files as modders have them: lenient reading of what the game reads, the hermite
// key fitting, templates and replacing one MSET slot.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "formats/kh2/kh2_test_motion.hpp"
#include "support/test_support.hpp"

#include <cmath>
#include <cstring>

namespace animkit {
extern const FormatDescriptor kKh2BarFormat;
extern const FormatDescriptor kKh2MotionFormat;
namespace {

using namespace kh2;

ByteView Text(const char* s) { return ByteView(reinterpret_cast<const uint8_t*>(s), std::strlen(s)); }

struct EntrySpec {
  uint16_t type = 0, index = 0;
  const char* name = "";
  uint32_t offset = 0, size = 0;
};

// A BAR header and entry table (payloads are appended by the caller).
void WriteBarHead(ByteWriter& w, const std::vector<EntrySpec>& entries, uint32_t flags = 0, int32_t type = 0) {
  w.Append(Text("BAR\x01"));
  w.U32(uint32_t(entries.size())), w.U32(flags), w.I32(type);
  for (const EntrySpec& e : entries) {
    char name[4] = {0, 0, 0, 0};
    std::memcpy(name, e.name, std::min<size_t>(4, std::strlen(e.name)));
    w.U16(e.type), w.U16(e.index), w.Append(ByteView(reinterpret_cast<const uint8_t*>(name), 4)), w.U32(e.offset),
        w.U32(e.size);
  }
}

void Pad16(ByteWriter& w) {
  while (w.size() % 16) w.U8(0);
}

// A small interpolated motion: bone 0 translation X keyed hermite 0 -> 1 over key time 0..10.
Bytes SmallMotion() {
  Motion m = kh2_test::InterpolatedMotionOf(2, 30, 5);
  InterpolatedMotion& im = m.interpolated;
  im.frame_loop = 2;
  im.key_times = {0, 10};
  im.values = {0, 1};
  im.tangents = {0.1f, 0};
  im.keys = {{static_cast<uint16_t>((0 << 2) | 2), 0, 1, 0}, {static_cast<uint16_t>((1 << 2) | 2), 1, 1, 0}};
  Curve c;
  c.joint = 0, c.packed = 6, c.key_count = 2, c.first_key = 0;
  im.forward = {c};
  im.initial_pose = {{1, 8, 3.0f}};
  BoneRecord helper;
  helper.parent = 0;
  helper.translation = {0, 5, 0, 0};
  im.ik_helpers = {helper};
  im.constraints = {{1, 0, 1, 2, -1, 0, 0}};
  LayoutMotion(m);
  return SerializeMotion(m);
}

// Triggers: one range (id 0, 0..-1) and `frames` frame triggers of id 2 with one param.
Bytes SmallTriggers(int frames) {
  ByteWriter w(Endian::Little);
  w.U8(1), w.U8(uint8_t(frames)), w.I16(10);
  w.I16(0), w.I16(-1), w.U8(0), w.U8(0);
  for (int i = 0; i < frames; ++i) w.I16(int16_t(i + 1)), w.U8(2), w.U8(1), w.I16(int16_t(7 + i));
  return w.Take();
}

// An ANB: motion then triggers, 16-aligned, no padding after the triggers.
Bytes SmallAnb(const Bytes& motion, const Bytes& triggers) {
  const uint32_t m_off = 0x30;
  const uint32_t t_off = uint32_t((m_off + motion.size() + 15) / 16 * 16);
  ByteWriter w(Endian::Little);
  WriteBarHead(w, {{kEntryMotion, 0, "A000", m_off, uint32_t(motion.size())},
                   {kEntryTriggers, 0, "A000", t_off, uint32_t(triggers.size())}});
  w.Append(motion);
  Pad16(w);
  w.Append(triggers);
  return w.Take();
}

// An MSET whose first ANB's declared size is `shortfall` bytes short of its triggers' end;
// a second ANB follows after the real end.
Bytes ShortMset(uint32_t shortfall) {
  const Bytes anb = SmallAnb(SmallMotion(), SmallTriggers(shortfall >= 34 ? 5 : 1));
  const uint32_t a = 0x30;
  const uint32_t b = uint32_t((a + anb.size() + 15) / 16 * 16);
  ByteWriter w(Endian::Little);
  WriteBarHead(w, {{kEntryAnb, 0, "A000", a, uint32_t(anb.size()) - shortfall}, {kEntryAnb, 0, "A001", b, uint32_t(anb.size())}},
               0, 2);
  w.Append(anb);
  Pad16(w);
  w.Append(anb);
  return w.Take();
}

TEST(Kh2Leniency, OuterSizeShortOfTheTriggersBy4And34Bytes) {
  for (uint32_t shortfall : {4u, 34u}) {
    const Bytes data = ShortMset(shortfall);
    test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
    const Bar bar = ParseBar(data);
    ASSERT_EQ(bar.entries.size(), 2u);
    ASSERT_TRUE(bar.entries[0].bar);
    EXPECT_EQ(bar.entries[0].bar->size, bar.entries[0].size);
    EXPECT_EQ(Extent(*bar.entries[0].bar), size_t(bar.entries[0].size) + shortfall);
    ASSERT_EQ(bar.warnings.size(), 1u);
    EXPECT_NE(bar.warnings[0].find("offset 0x30: the archive's entries run " + Hex(shortfall) + " bytes past"),
              std::string::npos)
        << bar.warnings[0];
    const auto doc = kKh2BarFormat.read(data, {});
    EXPECT_EQ(doc->Info()["warnings"].size(), 1u);
    const Scene scene = doc->Decode({});
    ASSERT_EQ(scene.clips.size(), 2u);
    EXPECT_EQ(scene.clips[0].events.size(), scene.clips[1].events.size());  // the triggers past the size are read
    // Re-laid out, the archive's sizes are consistent again: no warning.
    Bar relaid = bar;
    LayoutBar(relaid);
    EXPECT_TRUE(ParseBar(SerializeBar(relaid)).warnings.empty());
  }
  // An inner entry past the end of the file damages that entry alone, named by its record.
  Bytes cut = ShortMset(4);
  const Bar bar = ParseBar(cut);
  cut.resize(bar.entries[1].offset);  // drop the second ANB
  cut[0x04] = 1;                      // one entry
  cut.resize(0x30 + bar.entries[0].size + 2);  // the first ANB's triggers now run past the file
  const auto doc = kKh2BarFormat.read(cut, {});
  const std::vector<std::string> damaged = doc->Damaged();
  ASSERT_EQ(damaged.size(), 1u);
  EXPECT_NE(damaged[0].find("entry 0 (A000) > entry 1 (A000): offset " + Hex(0x30 + 0x20 + 8)), std::string::npos)
      << damaged[0];
  EXPECT_NE(damaged[0].find("runs past the end of the file"), std::string::npos) << damaged[0];
  EXPECT_EQ(doc->Write(), cut);
  EXPECT_EQ(doc->Decode({}).clips.size(), 1u) << "the motion before the damaged triggers still gives its clip";
}

TEST(Kh2Leniency, TriggersPastTheirEntryAreReadWithAWarning) {
  const Bytes triggers = SmallTriggers(2);  // 10 + 2 * 6 = 22 bytes
  ByteWriter w(Endian::Little);
  // Declared 20: the last frame trigger starts 2 bytes before the end and runs 4 past it.
  WriteBarHead(w, {{kEntryMotion, 0, "A000", 0x30, uint32_t(SmallMotion().size())},
                   {kEntryTriggers, 0, "A000", 0, 20}});
  w.Append(SmallMotion());
  Pad16(w);
  const uint32_t t_off = uint32_t(w.size());
  w.Append(triggers);
  Bytes data = w.Take();
  for (int k = 0; k < 4; ++k) data[0x10 + 16 + 8 + size_t(k)] = uint8_t(t_off >> (8 * k));
  test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
  const Bar bar = ParseBar(data);
  ASSERT_TRUE(bar.entries[1].triggers);
  EXPECT_EQ(bar.entries[1].triggers->frames.size(), 2u);
  EXPECT_EQ(bar.entries[1].triggers->frames[1].params, std::vector<int16_t>{8});
  ASSERT_EQ(bar.warnings.size(), 1u);
  EXPECT_NE(bar.warnings[0].find("offset " + Hex(t_off) + ": the triggers run 0x2 bytes past"), std::string::npos)
      << bar.warnings[0];
  // Past the end of the file: the triggers entry is damaged, kept as the bytes the file holds.
  data.resize(data.size() - 1);
  const auto doc = kKh2BarFormat.read(data, {});
  ASSERT_EQ(doc->Damaged().size(), 1u);
  EXPECT_NE(doc->Damaged()[0].find("entry 1 (A000)"), std::string::npos) << doc->Damaged()[0];
  EXPECT_EQ(doc->Write(), data);
}

TEST(Kh2Leniency, ZeroSizeEntryPastTheEndAndPlaceholderMotion) {
  const Bytes placeholder(0x90, 0);
  const Bytes anb = SmallAnb(placeholder, SmallTriggers(1));
  ByteWriter w(Endian::Little);
  WriteBarHead(w, {{kEntryAnb, 0, "A000", 0x30, uint32_t(anb.size())}, {kEntryModel, 0, "shdw", 0, 0}});
  w.Append(anb);
  Bytes data = w.Take();
  // The zero-size entry's offset: 8 bytes past the end of the file.
  const uint32_t past = uint32_t(data.size() + 8);
  for (int k = 0; k < 4; ++k) data[0x10 + 16 + 8 + size_t(k)] = uint8_t(past >> (8 * k));
  test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
  const Bar bar = ParseBar(data);
  const Motion& m = *bar.entries[0].bar->entries[0].motion;
  EXPECT_TRUE(m.placeholder);
  EXPECT_EQ(m.size, 0x90u);
  const auto doc = kKh2BarFormat.read(data, {});
  EXPECT_TRUE(doc->Decode({}).clips.empty());  // an empty slot: no clip
  const Value info = doc->Info();
  EXPECT_EQ(info["entries"][0]["bar"]["placeholder_slots"], 1);
  EXPECT_EQ(info["entries"][0]["bar"]["entries"][0]["motion"]["kind"], "placeholder");
  EXPECT_EQ(info["entries"][1]["empty"], true);
  // A bare motion file must have its header.
  EXPECT_NE(test::ReadError(kKh2MotionFormat, placeholder), "");
}

// An MSET with a P_EX-style flags word, a link, a DUMM slot, an empty slot and a
// type-0x14 sub-archive.
Bytes SlotMset() {
  const Bytes anb = SmallAnb(SmallMotion(), SmallTriggers(1));
  ByteWriter sub(Endian::Little);
  WriteBarHead(sub, {{5, 0, "sub0", 0x20, 4}});
  sub.U32(0xDEADBEEF);
  const Bytes sub_archive = sub.Take();
  const uint32_t a = 0x70;
  const uint32_t b = uint32_t((a + anb.size() + 15) / 16 * 16);
  const uint32_t c = uint32_t((b + anb.size() + 15) / 16 * 16);
  ByteWriter w(Endian::Little);
  WriteBarHead(w,
               {{kEntryAnb, 0, "A000", a, uint32_t(anb.size())},
                {kEntryAnb, 1, "A001", a, uint32_t(anb.size())},  // a link to slot 0's data
                {kEntryAnb, 0, "DUMM", b, uint32_t(anb.size())},
                {kEntryAnb, 0, "A003", 0, 0},
                {kEntryAnb, 0, "A004", c, uint32_t(anb.size())},
                {kEntrySubArchive, 0, "SUBA", c + uint32_t((anb.size() + 15) / 16 * 16), uint32_t(sub_archive.size())}},
               0x00010004, 2);
  w.Append(anb);
  Pad16(w);
  w.Append(anb);
  Pad16(w);
  w.Append(anb);
  Pad16(w);
  w.Append(sub_archive);
  return w.Take();
}

TEST(Kh2Leniency, MsetSlotSemanticsAreListedAndKept) {
  const Bytes data = SlotMset();
  test::ExpectByteExactRoundTrip(kKh2BarFormat, data);
  const Bar bar = ParseBar(data);
  EXPECT_EQ(LinkTarget(bar, 1), 0);
  EXPECT_EQ(LinkTarget(bar, 2), -1);
  EXPECT_TRUE(bar.entries[2].IsDummy());
  ASSERT_TRUE(bar.entries[5].bar);
  EXPECT_EQ(bar.entries[5].bar->entries[0].raw, (Bytes{0xEF, 0xBE, 0xAD, 0xDE}));
  const Value info = kKh2BarFormat.read(data, {})->Info();
  EXPECT_EQ(info["header_flags"], 0x00010004);
  EXPECT_EQ(info["entries"][1]["link_to"], 0);
  EXPECT_EQ(info["entries"][2]["dummy"], true);
  EXPECT_EQ(info["entries"][3]["empty"], true);
  EXPECT_EQ(info["entries"][5]["sub_archive"], true);
  EXPECT_EQ(info["link_entries"], 1);
  EXPECT_EQ(info["dummy_entries"], 1);
  EXPECT_EQ(info["empty_slots"], 1);
}

// A limit refuses the file (it names the option that raises it); it damages no entry.
TEST(Kh2Leniency, SelfNestingArchiveIsBoundedWithAnError) {
  ByteWriter w(Endian::Little);
  WriteBarHead(w, {{kEntryAnb, 0, "SELF", 0, 0x20}});
  const Bytes data = w.Take();
  const std::string e = test::ReadError(kKh2BarFormat, data);
  EXPECT_NE(e.find("max-depth"), std::string::npos) << e;
  EXPECT_NE(e.find("offset 0x0"), std::string::npos) << e;
}

TEST(Kh2Leniency, RawMatricesAreReadWhereTheHeaderPoints) {
  Motion m;
  m.raw = true;
  m.raw_motion.bone_count = 1;
  m.raw_motion.matrices = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1}};
  LayoutMotion(m);
  EXPECT_EQ(m.raw_motion.matrix_offset, 0x60);  // right after the raw header
  // Move the matrices 16 bytes further: offset 0x70, the 16 bytes between kept as a gap.
  Bytes bytes = SerializeMotion(m);
  bytes.insert(bytes.begin() + 0xF0, 16, 0xAB);
  bytes[0xA0 + 0x18] = 0x70;
  test::ExpectByteExactRoundTrip(kKh2MotionFormat, bytes);
  const Motion read = ParseMotion(bytes);
  EXPECT_EQ(read.raw_motion.matrix_offset, 0x70);
  EXPECT_FLOAT_EQ(read.raw_motion.matrices[0][12], 5);
  EXPECT_FLOAT_EQ(read.raw_motion.matrices[0][14], 7);
  bytes[0xA0 + 0x18] = 0xF0;  // past the data
  bytes[0xA0 + 0x19] = 0x01;
  const std::string e = test::ReadError(kKh2MotionFormat, bytes);
  EXPECT_NE(e.find("offset 0xb8: animation matrix offset 0x1f0 points past the end"), std::string::npos) << e;
}

TEST(Kh2Triggers, EventsNamedWithTheTableWordForWord) {
  Triggers t;
  t.ranges = {{0, -1, 0, {}}, {3, 9, 10, {5, 1}}, {1, 2, 200, {}}};
  t.frames = {{4, 2, {3}}, {6, 99, {}}};
  LayoutTriggers(t);
  const auto events = DecodeTriggers(t, 30, 1);
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[0].name, "STATE: Grounded");
  EXPECT_EQ(events[1].name, "Attack hitbox");
  EXPECT_EQ(events[1].params, (std::vector<double>{10, 9, 5, 1}));
  EXPECT_EQ(events[2].name, "Trigger 200");
  EXPECT_EQ(events[3].name, "Play footstep sound");
  EXPECT_EQ(events[4].name, "Trigger 99");
  EXPECT_EQ(SerializeTriggers(EncodeTriggers(events, 30)), SerializeTriggers(t));
  // An event whose name does not match its id is not a trigger.
  size_t skipped = 0;
  EncodeTriggers({{0, "Play footstep sound", {19}, std::nullopt}}, 30, &skipped);
  EXPECT_EQ(skipped, 1u);
}

// ---------------------------------------------------------------------------
// Key fitting


// The largest channel difference between two motions over frames (rotation as the angle).
struct Deviation {
  double rotation = 0, translation = 0;
  size_t worst_joint = 0, worst_frame = 0;  // of the rotation, for the failure message
};
Deviation Compare(const InterpolatedMotion& a, const InterpolatedMotion& b, size_t frames) {
  Deviation d;
  std::vector<ChannelValues> pa, pb, rest(size_t(a.bone_count), ChannelValues{1, 1, 1, 0, 0, 0, 0, 0, 0});
  for (const BoneRecord& h : a.ik_helpers) rest.push_back(ChannelsFromBone(h));  // as DecodeMotion does
  for (size_t f = 0; f < frames; ++f) {
    const float t = static_cast<float>(double(f) * 60 / a.fps);
    EvaluatePose(a, t, rest, pa);
    EvaluatePose(b, t, {}, pb);
    for (size_t j = 0; j < std::min(pa.size(), pb.size()); ++j) {
      const TransformTRS x = TransformFromChannels(pa[j]), y = TransformFromChannels(pb[j]);
      const double angle = RotationDifference(x.rotation, y.rotation);
      if (angle > d.rotation) d.rotation = angle, d.worst_joint = j, d.worst_frame = f;
      for (int c : {0, 1, 2, 6, 7, 8})
        d.translation = std::max(d.translation, std::abs(double(pa[j][size_t(c)]) - pb[j][size_t(c)]) /
                                                    std::max(1.0, std::abs(double(pa[j][size_t(c)]))));
    }
  }
  return d;
}

TEST(Kh2Fit, FixtureRoundTripNeedsFewKeysAndStaysWithinTolerance) {
  const Bytes data = test::FixtureBytes("kh2/interpolated.motion");
  if (data.empty()) GTEST_SKIP() << "fixture kh2/interpolated.motion not found beside the checkout";
  const Motion original = ParseMotion(data);
  DecodeSettings curves;  // the curves alone: what is fitted here (its constraints move joints)
  curves.evaluation.constraints = false;
  const Clip clip = DecodeMotion(original, {}, {}, curves);
  EncodeReport report;
  const Motion encoded = EncodeMotion(clip, {}, {}, &report);
  const size_t original_keys = original.interpolated.keys.size();
  EXPECT_LE(double(encoded.interpolated.keys.size()), 1.5 * double(original_keys))
      << encoded.interpolated.keys.size() << " keys for the original's " << original_keys;
  // Every frame within the tolerance: 1e-4 per Euler channel (at most 3e-4 as an angle),
  // 1e-4 relative for translation and scale (plus float rounding of the glTF-side values).
  const Deviation d = Compare(original.interpolated, ParseMotion(SerializeMotion(encoded)).interpolated, clip.frame_count);
  EXPECT_LE(d.rotation, 3e-4) << "joint " << d.worst_joint << " frame " << d.worst_frame;
  EXPECT_LE(d.translation, 1.01e-4);
}

TEST(Kh2Fit, SmoothChannelGetsFewHermiteKeysAndConstantsBecomeInitialPose) {
  Clip clip;
  clip.frame_rate = 30;
  clip.frame_count = 121;
  clip.duration = 4;
  JointTrack t;
  t.joint = "#0";
  for (size_t f = 0; f < clip.frame_count; ++f) {
    const float s = float(f) / 30;
    t.translation.Add(s, {10 * std::sin(s), 2, 0});
    t.rotation.Add(s, QuatFromEuler({0, 0, 0.5f * s}, EulerOrder::XYZ));
    t.scale.Add(s, {1, 1, 1});
  }
  clip.tracks = {t};
  EncodeReport report;
  const Motion m = EncodeMotion(clip, {}, {}, &report);
  const InterpolatedMotion& im = m.interpolated;
  ASSERT_EQ(im.forward.size(), 2u);  // translation X and rotation Z; the rest are constant
  EXPECT_EQ(im.initial_pose.size(), 7u);
  EXPECT_LT(im.keys.size(), 40u);
  for (const Key& k : im.keys) EXPECT_NE(k.type(), KeyType::Linear);
  std::vector<ChannelValues> pose;
  for (size_t f = 0; f < clip.frame_count; ++f) {
    EvaluatePose(im, float(f) * 2, {}, pose);
    const float s = float(f) / 30;
    EXPECT_NEAR(pose[0][6], 10 * std::sin(s), 10 * 1e-4 + 1e-6) << f;
    EXPECT_NEAR(pose[0][5], 0.5f * s, 1e-4 + 1e-6) << f;  // continuous past pi: no wrap
  }
  // A looser tolerance needs fewer keys.
  EncodeSettings loose;
  loose.tolerance = loose.relative_tolerance = 1e-2f;
  EXPECT_LT(EncodeMotion(clip, {}, loose).interpolated.keys.size(), im.keys.size());
}

// Found by fuzzing: translations near float's limit (2.4e33) whose tangents are never
// finite made the encoder double its tolerance forever. Past the channel's whole range
// the middle value is within the tolerance everywhere: the channel becomes constant.
TEST(Kh2Fit, ValuesNoTangentFitsEndAsAConstantWithinTheLoosenedTolerance) {
  Clip clip;
  clip.SetFrames(321, 30);
  JointTrack t;
  t.joint = "#0";
  for (size_t f = 0; f < clip.frame_count; ++f) {
    const float x = (f % 2 ? 2.4e33f : -2.4e33f) * float(1 + f % 7);
    t.translation.Add(FrameTime(f, 30), {x, 0, 0});
  }
  clip.tracks = {t};
  EncodeReport report;
  const Motion m = EncodeMotion(clip, {}, {}, &report);
  const InterpolatedMotion& im = m.interpolated;
  EXPECT_LE(im.keys.size(), 255u * im.forward.size());
  bool x_constant = false;
  for (const InitialPose& p : im.initial_pose) x_constant |= p.bone == 0 && p.channel == 6;
  EXPECT_TRUE(x_constant);
  EXPECT_GE(report.tolerance_used, 1.0f);  // said in the report: far looser than asked
}

// ---------------------------------------------------------------------------
// Templates

Bar AnbOf(const Bytes& motion, const Bytes& triggers) { return ParseBar(SmallAnb(motion, triggers)); }

TEST(Kh2Template, UnchangedClipIsCopiedAndAnEditKeepsEverythingElse) {
  const Bytes data = test::FixtureBytes("kh2/interpolated.motion");
  if (data.empty()) GTEST_SKIP() << "fixture kh2/interpolated.motion not found beside the checkout";
  const Motion original = ParseMotion(data);
  const InterpolatedMotion& o = original.interpolated;
  Clip clip = DecodeMotion(original, {}, {}, {});
  EncodeReport report;
  Motion same = EncodeMotion(clip, {}, {}, &report, &original);
  EXPECT_TRUE(report.unchanged);
  EXPECT_EQ(SerializeMotion(same), data);

  // Move bone 0 up by 5 at every frame: only its curves change.
  for (Vec3& v : clip.tracks[0].translation.values) v.y += 5;
  const Motion edited = ParseMotion(SerializeMotion(EncodeMotion(clip, {}, {}, &report, &original)));
  EXPECT_FALSE(report.unchanged);
  const InterpolatedMotion& e = edited.interpolated;
  EXPECT_EQ(e.bone_count, o.bone_count);
  EXPECT_EQ(e.total_bone_count, o.total_bone_count);
  EXPECT_EQ(e.ik_helpers.size(), o.ik_helpers.size());
  EXPECT_EQ(e.inverse.size(), o.inverse.size());
  ASSERT_EQ(e.constraints.size(), o.constraints.size());
  for (size_t i = 0; i < o.constraints.size(); ++i) {
    EXPECT_EQ(e.constraints[i].joint, o.constraints[i].joint);
    EXPECT_EQ(e.constraints[i].source, o.constraints[i].source);
  }
  EXPECT_EQ(e.expressions.size(), o.expressions.size());
  EXPECT_EQ(e.limiters.size(), o.limiters.size());
  EXPECT_EQ(e.frame_loop, o.frame_loop);
  EXPECT_EQ(e.frame_end, o.frame_end);
  // Other joints' curves: the same keys, values and tangents, bit for bit.
  auto curve_values = [](const InterpolatedMotion& m, const Curve& c) {
    std::vector<float> v;
    for (int k = 0; k < c.key_count; ++k) {
      const Key& key = m.keys[size_t(c.first_key) + size_t(k)];
      v.push_back(m.key_times[size_t(key.time_index())]);
      v.push_back(m.values[size_t(key.value)]);
      v.push_back(float(key.type()));
    }
    return v;
  };
  size_t compared = 0;
  for (const Curve& oc : o.forward) {
    if (oc.joint == 0) continue;
    const auto it = std::find_if(e.forward.begin(), e.forward.end(),
                                 [&](const Curve& c) { return c.joint == oc.joint && c.channel() == oc.channel(); });
    ASSERT_NE(it, e.forward.end());
    EXPECT_EQ(it->packed, oc.packed);
    EXPECT_EQ(curve_values(e, *it), curve_values(o, oc));
    ++compared;
  }
  EXPECT_GT(compared, 100u);
  std::vector<ChannelValues> pa, pb;
  EvaluatePose(o, 20, {}, pa);
  EvaluatePose(e, 20, {}, pb);
  EXPECT_NEAR(pb[0][7], pa[0][7] + 5, 5e-3);
}

TEST(Kh2Template, TriggersAreKeptUnlessTheEventsChangedThem) {
  const Bar templ = AnbOf(SmallMotion(), SmallTriggers(1));
  Clip clip = DecodeMotion(*templ.entries[0].motion, {}, {}, {});
  clip.events = DecodeTriggers(*templ.entries[1].triggers, 30, clip.duration);
  bool unchanged = false;
  EncodeAnbFromTemplate(clip, {}, {}, templ, nullptr, &unchanged);
  EXPECT_TRUE(unchanged);
  clip.events.pop_back();  // the frame trigger removed
  const Bar edited = EncodeAnbFromTemplate(clip, {}, {}, templ, nullptr, &unchanged);
  EXPECT_FALSE(unchanged);
  EXPECT_TRUE(edited.entries[1].triggers->frames.empty());
  EXPECT_EQ(SerializeMotion(*edited.entries[0].motion), SerializeMotion(*templ.entries[0].motion));
}

// The CLI: game file -> glTF -> back with --template, and one MSET slot replaced.
TEST(Kh2Template, CliRoundTripWithTemplateAndSlotReplacement) {
  const auto dir = test::TempDir("kh2_template");
  const std::string mset = (dir / "P_EX100.mset").string();
  WriteFileAtomic(mset, SlotMset());
  std::string out, err;
  ASSERT_EQ(test::RunCli("convert " + mset + " " + (dir / "p.glb").string(), &out, &err), 0) << err;
  // Back without a template: the source and its IK helpers are named in a warning.
  ASSERT_EQ(test::RunCli("convert " + (dir / "p.glb").string() + " " + (dir / "x.anb").string() + " --clip 000_A000",
                         &out, &err),
            0)
      << err;
  EXPECT_NE(err.find("give --template P_EX100.mset"), std::string::npos) << err;
  EXPECT_NE(err.find("1 IK helpers (#2..#2)"), std::string::npos) << err;
  // With the template and nothing edited: the template's bytes.
  ASSERT_EQ(test::RunCli("convert " + (dir / "p.glb").string() + " " + (dir / "same.mset").string() + " --template " +
                             mset,
                         &out, &err),
            0)
      << err;
  EXPECT_EQ(ReadFileBytes((dir / "same.mset").string()), SlotMset());

  // A new clip for slot A004 (a longer motion): only that slot changes.
  Clip clip;
  clip.name = "attack";
  clip.SetFrames(40, 30);
  JointTrack t;
  t.joint = "#0";
  for (size_t f = 0; f < clip.frame_count; ++f) {
    const float s = float(f) / 30;
    t.translation.Add(s, {s * s, 3 * s, 0});
  }
  clip.tracks = {t};
  Scene scene;
  scene.clips = {clip};
  const FormatDescriptor* gltf = FindFormat("gltf");
  ASSERT_NE(gltf, nullptr);
  EncodeContext ctx;
  ctx.output_path = (dir / "attack.glb").string();
  WriteFileAtomic(ctx.output_path, gltf->encode(scene, ctx)->Write());
  ASSERT_EQ(test::RunCli("convert " + ctx.output_path + " " + (dir / "out.mset").string() + " --template " + mset +
                             " --clip A004",
                         &out, &err),
            0)
      << err;
  const Bytes before = SlotMset(), after = ReadFileBytes((dir / "out.mset").string());
  const Bar old_bar = ParseBar(before), new_bar = ParseBar(after);
  const BarEntry &o4 = old_bar.entries[4], &n4 = new_bar.entries[4];
  EXPECT_EQ(n4.offset, o4.offset);
  EXPECT_NE(n4.size, o4.size);
  // Everything before the slot is unchanged except the slot's size and the moved offsets.
  const size_t table_end = 16 + 16 * old_bar.entries.size();
  EXPECT_TRUE(std::equal(before.begin() + table_end, before.begin() + o4.offset, after.begin() + table_end));
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(new_bar.entries[i].offset, old_bar.entries[i].offset);
    EXPECT_EQ(new_bar.entries[i].size, old_bar.entries[i].size);
  }
  // After it: the sub-archive moved by a multiple of 16 with its bytes intact.
  const int64_t delta = int64_t(new_bar.entries[5].offset) - int64_t(old_bar.entries[5].offset);
  EXPECT_EQ(delta % 16, 0);
  EXPECT_TRUE(std::equal(before.begin() + old_bar.entries[5].offset, before.end(), after.begin() + new_bar.entries[5].offset));
  // The new slot holds the clip, with the template's IK helper and constraint.
  const Motion& m = *n4.bar->entries[0].motion;
  EXPECT_EQ(m.interpolated.ik_helpers.size(), 1u);
  EXPECT_EQ(m.interpolated.constraints.size(), 1u);
  EXPECT_EQ(m.interpolated.frame_loop, 2);  // the template's frame start: the clip is played from it
  EXPECT_EQ(m.interpolated.frame_end, 2 + 39);
  std::vector<ChannelValues> pose;
  EvaluatePose(m.interpolated, (2 + 39) * 2, {}, pose);
  EXPECT_NEAR(pose[0][7], 3 * 1.3, 1e-3);
  // Replacing slot A000, its link A001 follows the new data.
  ASSERT_EQ(test::RunCli("convert " + ctx.output_path + " " + (dir / "out0.mset").string() + " --template " + mset +
                             " --clip A000",
                         &out, &err),
            0)
      << err;
  const Bar b0 = ParseBar(ReadFileBytes((dir / "out0.mset").string()));
  EXPECT_EQ(b0.entries[1].offset, b0.entries[0].offset);
  EXPECT_EQ(b0.entries[1].size, b0.entries[0].size);
  EXPECT_EQ(LinkTarget(b0, 1), 0);
  EXPECT_EQ(b0.entries[1].duplicate, 1);
}

}  // namespace
}  // namespace animkit
