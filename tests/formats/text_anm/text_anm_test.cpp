#include <animkit/formats/text_anm.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/offline/sampling.hpp>

#include "support/test_support.hpp"

#include <synthetic/synthetic_clips.hpp>

#include <nlohmann/json.hpp>
#include <cmath>
#include <fstream>

namespace animkit {
extern const FormatDescriptor kTextAnmFormat;
extern const FormatDescriptor kPsxAnmFormat;
namespace {

using text_anm::LineKind;

// The seed's own example is read from the seed page (../shared/seeds) rather than
// copied into the project; the tests that need it skip when the page is absent.
const std::string& SeedExample() {
  static const std::string text = [] {
    std::ifstream in(test::SourcePath("../shared/seeds/001_00d1bba94ad4a361.txt"));
    std::string line, block;
    bool inside = false;
    while (std::getline(in, line)) {
      if (line.rfind("#lines starting with #", 0) == 0) inside = true;
      if (inside) block += line + "\n";
      if (inside && line.rfind("an 55 100 run", 0) == 0) return block;
    }
    return std::string();
  }();
  return text;
}

// Its canonical form, by the rules in docs/formats/text_anm.md: a blank line before
// every set but the first, and the flags of bl in the order +children +parent.
const std::string& SeedCanonical() {
  static const std::string text = [] {
    std::string t = SeedExample();
    if (t.empty()) return t;
    for (const std::string set : {"as Head\n", "as Legs\n"}) t.insert(t.find(set), "\n");
    const std::string flags = "bl lHip +parent +children";
    t.replace(t.find(flags), flags.size(), "bl lHip +children +parent");
    return t;
  }();
  return text;
}

#define REQUIRE_SEED() \
  if (SeedExample().empty()) GTEST_SKIP() << "the seed page ../shared/seeds/001_00d1bba94ad4a361.txt is absent"

ByteView View(const std::string& s) { return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }
std::string Text(const Bytes& b) { return std::string(b.begin(), b.end()); }

// A figure: lShoulder > lElbow > lHand is a chain, as the seed's comment implies.
Skeleton Figure() { return FigureSkeleton(); }

// The timeline: every joint keyed at frames 0, 4, 8, ..., 100 (24 per second);
// translation = (frame, joint index, 0), so a key names where it came from.
Scene FigureModel() {
  Scene model;
  model.skeleton = Figure();
  model.clips.push_back(FigureTimeline(model.skeleton, 4, [](size_t j, int f, Seconds time, JointTrack& t) {
    t.translation.Add(time, Vec3{static_cast<float>(f), static_cast<float>(j), 0});
    t.rotation.Add(time, AxisAngle(Vec3{0, 0, 1}, 0.01f * static_cast<float>(f)));
  }));
  return model;
}

std::vector<std::string> Joints(const Clip& c) {
  std::vector<std::string> names;
  for (const JointTrack& t : c.tracks) names.push_back(t.joint);
  return names;
}

const Clip& Find(const Scene& s, const std::string& name) {
  for (const Clip& c : s.clips)
    if (c.name == name) return c;
  throw std::runtime_error("no clip " + name);
}

// The first key's frame and the number of keys of a clip's track, from translation.x.
void ExpectKeys(const Clip& c, const std::string& joint, float first_frame, size_t count) {
  const JointTrack* t = c.FindTrack(joint);
  ASSERT_NE(t, nullptr) << c.name << " " << joint;
  ASSERT_EQ(t->translation.size(), count) << c.name << " " << joint;
  ASSERT_EQ(t->rotation.size(), count) << c.name << " " << joint;
  EXPECT_FLOAT_EQ(t->translation.values.front().x, first_frame) << c.name;
  EXPECT_NEAR(t->translation.times.front(), 0.0, 1e-6) << c.name;
  for (size_t i = 0; i < count; ++i) {
    EXPECT_NEAR(t->translation.times[i], (t->translation.values[i].x - first_frame) / 24.0, 1e-5) << c.name;
  }
}

TEST(TextAnm, ParsesTheSeedExample) {
  REQUIRE_SEED();
  const text_anm::File f = text_anm::Parse(View(SeedExample()));
  ASSERT_EQ(f.lines.size(), 20u);
  EXPECT_EQ(f.lines[0].kind, LineKind::Comment);
  EXPECT_EQ(f.lines[1].kind, LineKind::As);
  ASSERT_EQ(f.sets.size(), 3u);
  const auto& arm = f.sets[0];
  EXPECT_EQ(arm.name, "LeftArm");
  EXPECT_EQ(arm.at.line, 2);
  ASSERT_EQ(arm.bones.size(), 1u);
  EXPECT_EQ(arm.bones[0].bone, "lShoulder");
  EXPECT_TRUE(arm.bones[0].children);
  EXPECT_FALSE(arm.bones[0].parent);
  EXPECT_EQ(arm.bones[0].at.line, 3);
  EXPECT_EQ(arm.bones[0].at.column, 4);
  ASSERT_EQ(arm.events.size(), 1u);
  EXPECT_EQ(arm.events[0].frame, 48u);
  EXPECT_EQ(arm.events[0].name, "Hi");
  ASSERT_EQ(arm.anims.size(), 2u);
  EXPECT_EQ(arm.anims[1].start, 56u);
  EXPECT_EQ(arm.anims[1].end, 100u);
  EXPECT_EQ(arm.anims[1].name, "Wave");
  const auto& legs = f.sets[2];
  ASSERT_EQ(legs.bones.size(), 2u);
  EXPECT_TRUE(legs.bones[0].parent && legs.bones[0].children && legs.bones[0].parent_first);
  EXPECT_TRUE(legs.bones[1].children && !legs.bones[1].parent);
  EXPECT_EQ(legs.events.size(), 2u);
  EXPECT_EQ(legs.anims.size(), 3u);
  EXPECT_EQ(text_anm::ClipNames(f), (std::vector<std::string>{"LeftArm/Hello", "LeftArm/Wave", "Head/Bobbing",
                                                               "Legs/walk", "Legs/jog", "Legs/run"}));
}

TEST(TextAnm, SeedExampleOnAFigureGivesTheExpectedSetsAndRanges) {
  REQUIRE_SEED();
  const Scene scene = text_anm::DecodeSets(text_anm::Parse(View(SeedExample())), FigureModel());
  ASSERT_EQ(scene.clips.size(), 6u);
  EXPECT_EQ(scene.skeleton.joints.size(), 15u);
  // +children adds the whole chain below lShoulder.
  EXPECT_EQ(Joints(Find(scene, "LeftArm/Hello")), (std::vector<std::string>{"lShoulder", "lElbow", "lHand"}));
  EXPECT_EQ(Joints(Find(scene, "Head/Bobbing")), (std::vector<std::string>{"neck", "head"}));
  // +parent adds hips (lHip's parent only); +children the legs below each hip.
  EXPECT_EQ(Joints(Find(scene, "Legs/walk")),
            (std::vector<std::string>{"hips", "lHip", "lKnee", "lFoot", "rHip", "rKnee", "rFoot"}));

  // an 0 50: keys at 0..48 -> 13 keys, the clip runs 0..48 (2 s); the event at 48 is at 2 s.
  const Clip& hello = Find(scene, "LeftArm/Hello");
  ExpectKeys(hello, "lElbow", 0, 13);
  EXPECT_FLOAT_EQ(hello.duration, 2.0f);
  EXPECT_EQ(hello.frame_count, 49u);
  EXPECT_DOUBLE_EQ(hello.frame_rate, 24.0);
  ASSERT_EQ(hello.events.size(), 1u);
  EXPECT_EQ(hello.events[0].name, "Hi");
  EXPECT_FLOAT_EQ(hello.events[0].time, 2.0f);
  // an 56 100: keys 56..100, 12 keys, 44 frames; the event at 48 is outside.
  const Clip& wave = Find(scene, "LeftArm/Wave");
  ExpectKeys(wave, "lShoulder", 56, 12);
  EXPECT_NEAR(wave.duration, 44.0 / 24.0, 1e-5);
  EXPECT_TRUE(wave.events.empty());
  ExpectKeys(Find(scene, "Head/Bobbing"), "head", 0, 13);
  // walk 0..24: 7 keys, events at frames 5 and 10.
  const Clip& walk = Find(scene, "Legs/walk");
  ExpectKeys(walk, "hips", 0, 7);
  EXPECT_FLOAT_EQ(walk.duration, 1.0f);
  ASSERT_EQ(walk.events.size(), 2u);
  EXPECT_FLOAT_EQ(walk.events[0].time, 5.0f / 24.0f);
  EXPECT_FLOAT_EQ(walk.events[1].time, 10.0f / 24.0f);
  EXPECT_EQ(walk.events[1].name, "footstep_sound");
  // jog 30..50: the first key in the range is frame 32, the last 48.
  const Clip& jog = Find(scene, "Legs/jog");
  ExpectKeys(jog, "rFoot", 32, 5);
  EXPECT_NEAR(jog.duration, 16.0 / 24.0, 1e-5);
  EXPECT_TRUE(jog.events.empty());
  // run 55..100: 56..100.
  const Clip& run = Find(scene, "Legs/run");
  ExpectKeys(run, "lKnee", 56, 12);
  EXPECT_NEAR(run.duration, 44.0 / 24.0, 1e-5);
  EXPECT_EQ(run.metadata[text_anm::metadata_keys::kSet], "Legs");
  EXPECT_EQ(run.metadata[text_anm::metadata_keys::kAnimation], "run");
  EXPECT_EQ(run.metadata[text_anm::metadata_keys::kStartFrame], 55);
  // The key values are the timeline's: joint index in y, rotation 0.01 rad per frame about z.
  const JointTrack* knee = run.FindTrack("lKnee");
  EXPECT_FLOAT_EQ(knee->translation.values[0].y, 10.0f);
  EXPECT_NEAR(knee->rotation.values[0].z, std::sin(0.56 / 2), 1e-6);
}

TEST(TextAnm, ChildrenEqualsParentOfTheChildPlusChildren) {
  const Scene model = FigureModel();
  const Scene a = text_anm::DecodeSets(text_anm::Parse(View("as A\nbl lShoulder +children\nan 0 1 x\n")), model);
  const Scene b = text_anm::DecodeSets(text_anm::Parse(View("as A\nbl lElbow +parent +children\nan 0 1 x\n")), model);
  EXPECT_EQ(Joints(a.clips[0]), Joints(b.clips[0]));
  // +parent alone: the bone and its parent; bl lines are a set union.
  const Scene c = text_anm::DecodeSets(
      text_anm::Parse(View("as A\nbl lHand +parent\nbl lHand\nbl\tlElbow   +parent\nan 0 1 x\n")), model);
  EXPECT_EQ(Joints(c.clips[0]), (std::vector<std::string>{"lShoulder", "lElbow", "lHand"}));
  // +parent on a root adds nothing.
  const Scene d = text_anm::DecodeSets(text_anm::Parse(View("as A\nbl hips +parent\nan 0 1 x\n")), model);
  EXPECT_EQ(Joints(d.clips[0]), (std::vector<std::string>{"hips"}));
}

TEST(TextAnm, ClipStartsAndEndsAtTheFirstAndLastKeyOrEvent) {
  const Scene scene = text_anm::DecodeSets(
      text_anm::Parse(View("as S\nbl head\nev 1 a\nev 103 b\nan 1 10 early\nan 98 103 late\nan 101 102 none\n")),
      FigureModel());
  const Clip& early = Find(scene, "S/early");  // event at 1, keys 4 and 8
  EXPECT_NEAR(early.duration, 7.0 / 24.0, 1e-6);
  ASSERT_EQ(early.events.size(), 1u);
  EXPECT_FLOAT_EQ(early.events[0].time, 0.0f);
  EXPECT_NEAR(early.tracks[0].translation.times[0], 3.0 / 24.0, 1e-6);
  const Clip& late = Find(scene, "S/late");  // key at 100, event at 103
  EXPECT_NEAR(late.duration, 3.0 / 24.0, 1e-6);
  EXPECT_NEAR(late.events.at(0).time, 3.0 / 24.0, 1e-6);
  const Clip& none = Find(scene, "S/none");  // nothing in 101..102
  EXPECT_FLOAT_EQ(none.duration, 0.0f);
  EXPECT_TRUE(none.tracks[0].translation.empty());
  EXPECT_EQ(none.metadata[text_anm::metadata_keys::kEmpty], true);
}

// The error's line and column, and a piece of its message.
void ExpectError(const std::string& text, int line, int column, const std::string& piece) {
  try {
    (void)text_anm::Parse(View(text));
    ADD_FAILURE() << "accepted: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(e.message().find(piece), std::string::npos) << e.what();
  }
}

TEST(TextAnm, EveryViolationIsAnErrorWithLineAndColumn) {
  // Unknown directive (the format is case-sensitive).
  ExpectError("as A\nbl head\nfoo 1\nan 0 1 x\n", 3, 1, "unknown directive 'foo'");
  ExpectError("AS A\n", 1, 1, "unknown directive 'AS'");
  ExpectError("# c\n  xy\n", 2, 3, "unknown directive 'xy'");
  // Missing fields.
  ExpectError("as\n", 1, 3, "missing the set name");
  ExpectError("as A\nbl\n", 2, 3, "missing the bone name");
  ExpectError("as A\nbl head\nev 5\n", 3, 5, "missing the event name");
  ExpectError("as A\nbl head\nan 0 5\n", 3, 7, "missing the animation name");
  ExpectError("as A\nbl head\nan\n", 3, 3, "missing the start frame");
  ExpectError("as A\nbl head\nan 0\n", 3, 5, "missing the end frame");
  // Numbers that are not.
  ExpectError("as A\nbl head\nan x 5 walk\n", 3, 4, "the start frame as a whole number of frames");
  ExpectError("as A\nbl head\nan 0 5.5 walk\n", 3, 6, "found '5.5'");
  ExpectError("as A\nbl head\nev -3 step\nan 0 1 x\n", 3, 4, "the event frame");
  ExpectError("as A\nbl head\nan 0 99999999999 x\n", 3, 6, "too large");
  // an with end < start.
  ExpectError("as A\nbl head\nan 10 5 walk\n", 3, 7, "end frame 5 is before start frame 10");
  // Order: bl after ev, bl/ev after an, no bl, directives before 'as'.
  ExpectError("as A\nbl head\nev 1 e\nbl neck\nan 0 1 w\n", 4, 1, "'bl' after 'ev'");
  ExpectError("as A\nbl head\nan 0 1 w\nbl neck\n", 4, 1, "'bl' after 'an'");
  ExpectError("as A\nbl head\nan 0 1 w\nev 3 e\n", 4, 1, "'ev' after 'an'");
  ExpectError("as A\nan 0 1 w\n", 2, 1, "expected a 'bl' line after 'as A'");
  ExpectError("as A\nev 0 e\n", 2, 1, "expected a 'bl' line after 'as A'");
  ExpectError("bl head\n", 1, 1, "expected 'as SET'");
  // A set with no 'an': at the next set, or at its own 'as' when the file ends.
  ExpectError("as A\nbl head\nas B\nbl neck\nan 0 1 w\n", 3, 1, "set 'A' (line 1) has no 'an' line");
  ExpectError("as A\nbl head\nev 1 e\n\n", 1, 1, "set 'A' has no 'an' line");
  ExpectError("# only a comment\n", 1, 1, "expected at least one animation set");
  ExpectError("", 1, 1, "expected at least one animation set");
  // Extra fields, flags, duplicates, control characters.
  ExpectError("as A B\n", 1, 6, "unexpected 'B' after the set name");
  ExpectError("as A\nbl head +chidren\n", 2, 9, "expected '+children' or '+parent'");
  ExpectError("as A\nbl head +parent +parent\n", 2, 17, "'+parent' is given twice");
  ExpectError("as A\nbl head\nan 0 1 w # note\n", 3, 10, "unexpected '#'");
  ExpectError("as A\nbl head\nan 0 1 w\nan 2 3 w\n", 4, 8, "declared twice");
  ExpectError("as A\nbl he\x01" "ad\n", 2, 6, "control character 0x1");
}

TEST(TextAnm, MissingBoneIsADecodeErrorAtTheBoneName) {
  const text_anm::File f = text_anm::Parse(View("as A\nbl head\nbl  nope +children\nan 0 1 w\n"));
  try {
    (void)text_anm::DecodeSets(f, FigureModel());
    FAIL() << "accepted a bone the model lacks";
  } catch (const Error& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.column(), 5);
    EXPECT_NE(e.message().find("bone 'nope' is not in the model's skeleton"), std::string::npos) << e.what();
  }
}

TEST(TextAnm, DecodeNeedsAModelWithATimeline) {
  REQUIRE_SEED();
  auto doc = kTextAnmFormat.read(View(SeedExample()), {});
  try {
    (void)doc->Decode(DecodeContext{});
    FAIL() << "decoded without a model";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--skeleton"), std::string::npos) << e.what();
  }
  Scene no_timeline;
  no_timeline.skeleton = Figure();
  DecodeContext ctx{&no_timeline, {}};
  EXPECT_THROW((void)doc->Decode(ctx), Error);
  // Without --skeleton the document still describes what it declares.
  const auto info = doc->Info();
  EXPECT_EQ(info["set_count"], 3);
  EXPECT_EQ(info["declared_clips"].size(), 6u);
  EXPECT_EQ(info["declared_clips"][4]["name"], "Legs/jog");
  EXPECT_EQ(info["sets"][2]["bones"][0]["flags"], Value::array({"+parent", "+children"}));
  EXPECT_EQ(info["comment_lines"], 3);
  EXPECT_EQ(info["canonical"], false);
}

TEST(TextAnm, WritesBackByteForByteAndCanonically) {
  REQUIRE_SEED();
  test::ExpectByteExactRoundTrip(kTextAnmFormat, View(SeedExample()));
  const std::string messy = "  # head  \r\nas  A\t\r\n\r\nbl  head\t+parent   +children\r\nev 007 e\r\nan 0 010 w";
  test::ExpectByteExactRoundTrip(kTextAnmFormat, View(messy));
  EXPECT_EQ(text_anm::Canonical(text_anm::Parse(View(messy))),
            "# head\nas A\nbl head +children +parent\nev 7 e\nan 0 10 w\n");
  EXPECT_EQ(text_anm::Canonical(text_anm::Parse(View(SeedExample()))), SeedCanonical());
  // Canonical text round-trips byte for byte through the canonical writer.
  EXPECT_EQ(text_anm::Canonical(text_anm::Parse(View(SeedCanonical()))), SeedCanonical());
  auto doc = kTextAnmFormat.read(View(SeedCanonical()), {});
  EXPECT_EQ(doc->Info()["canonical"], true);
}

TEST(TextAnm, EveryTruncationFailsOrIsAShorterValidFile) {
  REQUIRE_SEED();
  const text_anm::File full = text_anm::Parse(View(SeedExample()));
  size_t valid = 0;
  for (size_t n = 0; n < SeedExample().size(); ++n) {
    const std::string prefix = SeedExample().substr(0, n);
    try {
      const text_anm::File f = text_anm::Parse(View(prefix));
      ++valid;
      // Only cuts inside or after an 'an' line leave a valid file.
      EXPECT_EQ(f.lines.back().kind, LineKind::An) << n;
      EXPECT_EQ(Text(text_anm::Serialize(f)), prefix);
    } catch (const Error& e) {
      EXPECT_TRUE(e.line().has_value()) << n;
    }
  }
  EXPECT_GT(valid, 0u);
  EXPECT_LT(valid, SeedExample().size() / 2);
  EXPECT_EQ(full.sets.size(), 3u);
}

TEST(TextAnm, ProbeScoresTextAboveTheBinaryAnm) {
  REQUIRE_SEED();
  const int text = kTextAnmFormat.probe(View(SeedExample()), ".anm");
  EXPECT_GT(text, kPsxAnmFormat.probe(View(SeedExample()), ".anm"));
  EXPECT_GT(text, kProbeMagic - 10);  // above the best binary ANM score
  EXPECT_EQ(kTextAnmFormat.probe(View("as A\nbl b\nan 0 1 c\n"), ""), text);
  EXPECT_EQ(kTextAnmFormat.probe(View("# just a comment\n"), ".anm"), kProbeStructure);
  EXPECT_EQ(kTextAnmFormat.probe(View("{\"asset\": {}}"), ".gltf"), kProbeNone);
  EXPECT_EQ(Detect(View(SeedExample()), "x.anm").format, &kTextAnmFormat);
  const Bytes binary = ReadFileBytes(test::SourcePath("samples/psx_anm/wave.anm"));
  EXPECT_EQ(kTextAnmFormat.probe(binary, ".anm"), kProbeNone);
  EXPECT_EQ(Detect(binary, "wave.anm").format, &kPsxAnmFormat);
}

// glTF-like clips named as Blender users would: with and without a set prefix.
std::vector<Clip> AuthoredClips(const Skeleton& skeleton) {
  std::vector<Clip> clips;
  const std::vector<std::pair<std::string, size_t>> specs = {{"walk", 25}, {"Arms/wave", 13}, {"Arms/point", 31}};
  unsigned seed = 3;
  for (const auto& [name, frames] : specs) {
    SyntheticSpec spec;
    spec.joints = static_cast<int>(skeleton.joints.size());
    spec.frames = frames;
    spec.frame_rate = 24;
    spec.seed = seed++;
    spec.name = name;
    Clip c = SyntheticClip(skeleton, spec);
    c.loop = false;
    if (name.rfind("Arms/", 0) == 0) {  // the arm clips animate the arm chain only
      std::erase_if(c.tracks, [](const JointTrack& t) { return t.joint.find("Shoulder") == std::string::npos &&
                                                                 t.joint.find("Elbow") == std::string::npos &&
                                                                 t.joint.find("Hand") == std::string::npos; });
    }
    c.events.push_back(Event{static_cast<Seconds>(4.0 / 24.0), "step", {}, {}});
    clips.push_back(std::move(c));
  }
  return clips;
}

void ExpectSameClip(const Clip& original, const Clip& decoded) {
  SCOPED_TRACE(original.name);
  EXPECT_NEAR(decoded.duration, original.duration, 1e-5);
  for (const JointTrack& o : original.tracks) {
    const JointTrack* d = decoded.FindTrack(o.joint);
    ASSERT_NE(d, nullptr) << o.joint;
    // A property at its rest throughout is one key of the rest in the glb's clip and no key
    // in the timeline's cut (the rest either way).
    auto same_count = [&](size_t decoded, size_t original) { return decoded == original || (decoded == 0 && original == 1); };
    ASSERT_TRUE(same_count(d->translation.size(), o.translation.size())) << o.joint;
    ASSERT_EQ(d->rotation.size(), o.rotation.size()) << o.joint;
    ASSERT_TRUE(same_count(d->scale.size(), o.scale.size())) << o.joint;
    for (size_t i = 0; i < o.rotation.size(); ++i) {
      EXPECT_NEAR(d->rotation.times[i], o.rotation.times[i], 1e-4);
      EXPECT_NEAR(d->rotation.values[i].x, o.rotation.values[i].x, 1e-6);
      EXPECT_NEAR(d->rotation.values[i].w, o.rotation.values[i].w, 1e-6);
    }
    for (size_t i = 0; i < d->translation.size(); ++i)
      EXPECT_NEAR(d->translation.values[i].y, o.translation.values[i].y, 1e-5);
    for (size_t i = 0; i < d->scale.size(); ++i) EXPECT_NEAR(d->scale.values[i].z, o.scale.values[i].z, 1e-6);
  }
  // Joints of the set that this clip does not animate come back without keys.
  for (const JointTrack& d : decoded.tracks) {
    if (!original.FindTrack(d.joint)) {
      EXPECT_TRUE(d.rotation.empty() && d.translation.empty()) << d.joint;
    }
  }
  ASSERT_EQ(decoded.events.size(), original.events.size());
  for (size_t i = 0; i < original.events.size(); ++i) {
    EXPECT_EQ(decoded.events[i].name, original.events[i].name);
    EXPECT_NEAR(decoded.events[i].time, original.events[i].time, 1e-5);
  }
}

TEST(TextAnm, LayoutThenCutGivesBackTheClips) {
  const Skeleton skeleton = Figure();
  const std::vector<Clip> clips = AuthoredClips(skeleton);
  const text_anm::Layout layout = text_anm::LayOut(clips, skeleton, text_anm::LayoutSettings{});
  // walk: 25 frames at 24 fps = frames 0..24; each clip starts 10 frames after the
  // previous one's last frame: wave 34..46, point 56..86.
  EXPECT_EQ(text_anm::Canonical(layout.file),
            "as anim\n"
            "bl hips +children\n"
            "ev 4 step\n"
            "an 0 24 walk\n"
            "\n"
            "as Arms\n"
            "bl lShoulder +children\n"
            "bl rShoulder +children\n"
            "ev 38 step\n"
            "ev 60 step\n"
            "an 34 46 wave\n"
            "an 56 86 point\n");
  ASSERT_EQ(layout.timeline.clips.size(), 1u);
  EXPECT_EQ(layout.timeline.clips[0].frame_count, 87u);
  const Scene cut = text_anm::DecodeSets(layout.file, layout.timeline);
  ASSERT_EQ(cut.clips.size(), 3u);
  EXPECT_EQ(cut.clips[0].name, "anim/walk");
  ExpectSameClip(clips[0], cut.clips[0]);
  ExpectSameClip(clips[1], Find(cut, "Arms/wave"));
  ExpectSameClip(clips[2], Find(cut, "Arms/point"));
  // Cut clips laid out again keep their set and animation names (from metadata).
  const text_anm::Layout again = text_anm::LayOut(cut.clips, skeleton, text_anm::LayoutSettings{});
  EXPECT_EQ(text_anm::ClipNames(again.file), text_anm::ClipNames(layout.file));
}

TEST(TextAnm, GltfToTextAndTimelineThenBackThroughTheEncoder) {
  const auto dir = test::TempDir("text-anm-inverse");
  Scene authored;
  authored.skeleton = Figure();
  authored.clips = AuthoredClips(authored.skeleton);
  const Bytes glb = ExportGltf(authored, GltfExportOptions{});
  const Scene imported = ImportGltf(glb, "authored.glb");
  ASSERT_EQ(imported.clips.size(), 3u);

  EncodeContext ectx;
  ectx.output_path = (dir / "sets.anm").string();
  ectx.options.Set("anm-gap", "6");
  auto doc = kTextAnmFormat.encode(imported, ectx);
  const std::string timeline_path = text_anm::TimelinePathFor(ectx.output_path);
  EXPECT_EQ(ectx.report["timeline"], timeline_path);
  // The encoder hands the timeline back to its caller; it writes nothing itself.
  EXPECT_FALSE(std::filesystem::exists(timeline_path));
  ASSERT_EQ(ectx.extra_outputs.size(), 1u);
  EXPECT_EQ(ectx.extra_outputs[0].path, timeline_path);
  WriteFileAtomic(timeline_path, ectx.extra_outputs[0].bytes);
  const Bytes text = doc->Write();
  EXPECT_EQ(Text(text).substr(0, 33), "# timeline: sets.anm.timeline.glb");
  // The written text is canonical.
  EXPECT_EQ(text_anm::Canonical(text_anm::Parse(text)), Text(text));

  const Scene model = LoadReference(timeline_path, Options{});
  auto reread = kTextAnmFormat.read(text, {});
  const Scene cut = reread->Decode(DecodeContext{&model, {}});
  ASSERT_EQ(cut.clips.size(), 3u);
  ExpectSameClip(imported.clips[0], Find(cut, "anim/walk"));
  ExpectSameClip(imported.clips[1], Find(cut, "Arms/wave"));
  ExpectSameClip(imported.clips[2], Find(cut, "Arms/point"));
}

TEST(TextAnm, EncoderKeepsDeclaredSetsOfADecodedTextAnm) {
  REQUIRE_SEED();
  const Scene model = FigureModel();
  auto doc = kTextAnmFormat.read(View(SeedExample()), {});
  const Scene scene = doc->Decode(DecodeContext{&model, {}});
  EncodeContext ectx;
  ectx.reference = &model;
  EXPECT_EQ(Text(kTextAnmFormat.encode(scene, ectx)->Write()), SeedCanonical());
  // --anm-layout new lays the cut clips out again (no output path: no timeline file).
  EncodeContext fresh;
  fresh.reference = &model;
  fresh.options.Set("anm-layout", "new");
  const std::string text = Text(kTextAnmFormat.encode(scene, fresh)->Write());
  EXPECT_EQ(text_anm::ClipNames(text_anm::Parse(View(text))), text_anm::ClipNames(text_anm::Parse(View(SeedExample()))));
  EXPECT_TRUE(fresh.report["timeline"].is_null());
}

TEST(TextAnm, LayoutWritesMixedInterpolationsOneKeyPerFrame) {
  const Skeleton skeleton = Figure();
  std::vector<Clip> clips = AuthoredClips(skeleton);
  ASSERT_EQ(clips[0].FindTrack("lShoulder")->rotation.interpolation, Interpolation::Linear);
  clips[1].tracks[0].rotation.interpolation = Interpolation::Step;  // lShoulder, STEP here
  const text_anm::Layout layout = text_anm::LayOut(clips, skeleton, text_anm::LayoutSettings{});
  const JointTrack* line = layout.timeline.clips[0].FindTrack("lShoulder");
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->rotation.interpolation, Interpolation::Linear);
  const Scene cut = text_anm::DecodeSets(layout.file, layout.timeline);
  for (const Clip* original : {&clips[0], &clips[1]}) {
    const Clip& back = Find(cut, original == &clips[0] ? "anim/walk" : "Arms/wave");
    const JointTrack *o = original->FindTrack("lShoulder"), *d = back.FindTrack("lShoulder");
    ASSERT_TRUE(o && d);
    // One key per frame (24 fps), each the original's value at that frame.
    const size_t frames = static_cast<size_t>(std::lround(original->duration * 24.0)) + 1;
    ASSERT_EQ(d->rotation.size(), frames) << original->name;
    for (size_t f = 0; f < frames; ++f) {
      const auto t = static_cast<Seconds>(f / 24.0);
      const QuatXYZW a = SampleTrack(o->rotation, t), b = d->rotation.values[f];
      EXPECT_NEAR(d->rotation.times[f], t, 1e-4);
      EXPECT_NEAR(std::abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w), 1.0, 1e-6) << original->name << " " << f;
    }
  }
}

TEST(TextAnm, LayoutRejectsWhatATimelineCannotHold) {
  Skeleton s = Figure();
  std::vector<Clip> clips = AuthoredClips(s);
  EXPECT_THROW((void)text_anm::LayOut({}, s, {}), Error);
  text_anm::LayoutSettings zero_gap;
  zero_gap.gap_frames = 0;
  EXPECT_THROW((void)text_anm::LayOut(clips, s, zero_gap), Error);
  // A bone name with a space cannot be written on a 'bl' line.
  Skeleton spaced = s;
  spaced.joints[4].name = "l Shoulder";
  std::vector<Clip> one = {AuthoredClips(s)[1]};
  for (JointTrack& t : one[0].tracks)
    if (t.joint == "lShoulder") t.joint = "l Shoulder";
  EXPECT_THROW((void)text_anm::LayOut(one, spaced, {}), Error);
  // A clip animating a joint the skeleton lacks.
  one[0].tracks[0].joint = "tail";
  EXPECT_THROW((void)text_anm::LayOut(one, s, {}), Error);
}

TEST(TextAnm, CliSampleConvertAndInfo) {
  REQUIRE_SEED();
  const auto dir = test::TempDir("text-anm-cli");
  const std::string anm = (dir / "sets.anm").string(), model = (dir / "model.glb").string();
  { std::ofstream(anm, std::ios::binary) << SeedExample(); }
  WriteFileAtomic(model, ExportGltf(FigureModel(), GltfExportOptions{}));
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample " + anm + " --skeleton " + model, &out, &err), 0) << err;
  auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["format"], "text-anm");
  ASSERT_EQ(j["clips"].size(), 6u);
  EXPECT_EQ(j["clips"][4]["name"], "Legs/jog");
  EXPECT_EQ(j["clips"][4]["frames"].size(), 17u);  // frames 32..48
  EXPECT_EQ(j["clips"][0]["joints"], nlohmann::json({"lShoulder", "lElbow", "lHand"}));
  EXPECT_EQ(j["clips"][0]["frames"][0][0]["t"], nlohmann::json({0, 4, 0}));
  // Without a skeleton file: info shows the declarations, sample says what is missing.
  ASSERT_EQ(test::RunCli("info --json " + anm + " --skeleton none", &out, &err), 0) << err;
  j = nlohmann::json::parse(out);
  EXPECT_EQ(j["format"], "text-anm");
  EXPECT_EQ(j["fields"]["declared_clips"], nlohmann::json({{"count", 6}}));  // --full lists them
  EXPECT_NE(j["decode_error"].get<std::string>().find("--skeleton"), std::string::npos);
  EXPECT_EQ(test::RunCli("sample " + anm + " --skeleton none", &out, &err), 1);
  EXPECT_NE(err.find("sets.anm"), std::string::npos);
  // By default the model beside it is its companion (the only .glb there).
  ASSERT_EQ(test::RunCli("sample " + anm, &out, &err), 0) << err;
  EXPECT_EQ(nlohmann::json::parse(out)["skeleton"], "model.glb (companion)");
  // convert to glTF: one animation per clip, events in extras.
  const std::string glb = (dir / "clips.glb").string();
  ASSERT_EQ(test::RunCli("convert " + anm + " " + glb + " --skeleton " + model, &out, &err), 0) << err;
  const Scene clips = ImportGltf(ReadFileBytes(glb), glb);
  ASSERT_EQ(clips.clips.size(), 6u);
  EXPECT_EQ(clips.skeleton.joints.size(), 15u);
  EXPECT_EQ(Find(clips, "Legs/walk").events.size(), 2u);
  // A missing bone names the line and column.
  { std::ofstream(anm, std::ios::binary) << "as A\nbl nope\nan 0 1 x\n"; }
  EXPECT_EQ(test::RunCli("sample " + anm + " --skeleton " + model, &out, &err), 1);
  EXPECT_NE(err.find("sets.anm: line 2, column 4"), std::string::npos) << err;
  // glTF with several animations -> text ANM + timeline, picked with --to text-anm.
  const std::string authored = (dir / "authored.glb").string(), back = (dir / "back.anm").string();
  Scene a;
  a.skeleton = Figure();
  a.clips = AuthoredClips(a.skeleton);
  WriteFileAtomic(authored, ExportGltf(a, GltfExportOptions{}));
  EXPECT_EQ(test::RunCli("convert " + authored + " " + back, &out, &err), 1);  // .anm alone means psx-anm
  ASSERT_EQ(test::RunCli("convert " + authored + " " + back + " --to text-anm", &out, &err), 0) << err;
  ASSERT_TRUE(std::filesystem::exists(back + ".timeline.glb"));
  ASSERT_EQ(test::RunCli("sample " + back + " --skeleton " + back + ".timeline.glb", &out, &err), 0) << err;
  j = nlohmann::json::parse(out);
  ASSERT_EQ(j["clips"].size(), 3u);
  EXPECT_EQ(j["clips"][1]["name"], "Arms/wave");
  EXPECT_EQ(j["clips"][1]["frames"].size(), 13u);
}

}  // namespace
}  // namespace animkit
