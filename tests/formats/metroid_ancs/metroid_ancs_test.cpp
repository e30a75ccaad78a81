#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_ancs.hpp>
#include <animkit/formats/registry.hpp>

#include "ancs_bytes.hpp"
#include "support/test_support.hpp"

#include <filesystem>
#include <fstream>
#include <map>

namespace animkit {
namespace {

using namespace metroid_ancs;
using test::BigBytes;
using test::HandMp1;
using test::OneLoopEvnt;
using test::SideFiles;

// An MP2 ANCS: one character of table count 10 (one name string per animation, every gated
// part), an animation set with one event set of one bool node.
Bytes HandMp2() {
  BigBytes w;
  w.U16(1).U16(1).U32(1);
  w.U32(0).U16(10).Str("Dark").U32(1).U32(2).U32(3);
  w.U32(1).U32(0).Str("idle");
  w.Magic("PAS4").U32(0).U32(0);
  for (int i = 0; i < 6; ++i) w.U32(i == 5 ? 1 : 0), (i == 5 ? w.U32(0x99) : w);  // PART SWHC 3rd ELSC SPSC SRSC
  w.U32(0);                                                                     // unknown
  w.U32(0);                                                                     // action boxes
  w.U32(1).Str("Fx").U32(1).Str("c").U32(0x50415254).U32(5).U32(7).F32(1).U32(1).U32(2);  // bone id 7
  w.U32(0xFFFFFFFF).U32(0xFFFFFFFF);
  w.U32(0);
  w.U32(0xC0FFEE).U8(1).U32(1).U32(0).Box();  // CSPP, animated scale, indexed boxes
  w.U16(4).U32(1).Str("idle").Play(0x300, "idle");
  w.U32(0).U32(3).U32(0).F32(0).F32(0).U32(0);
  w.U32(1).U32(2).U32(1);  // one event set: version 2, one bool node
  w.U16(2).Str("Loop").U16(0).F32(0.5f).U32(0).U32(0xFFFFFFFF).U8(0).F32(1).U32(0xFFFFFFFF).U32(0).U8(1);
  w.U32(0).U32(0).U32(0);
  return w.b;
}

TEST(MetroidAncs, Mp1ReadsEveryPartFromTheLayout) {
  const Bytes bytes = HandMp1();
  const AncsFile f = ParseAncs(bytes);
  EXPECT_EQ(f.game, Game::Mp1);
  EXPECT_TRUE(f.warnings.empty());
  ASSERT_EQ(f.characters.size(), 1u);
  const Character& c = f.characters[0];
  EXPECT_EQ(c.name, "Samus");
  EXPECT_EQ(c.ids.model, 0xAAAA0001u);
  EXPECT_EQ(c.ids.skin, 0xBBBB0002u);
  EXPECT_EQ(c.ids.skeleton, 0x10u);
  ASSERT_EQ(c.animations.size(), 2u);
  EXPECT_EQ(c.animations[1].name, "walk");
  ASSERT_EQ(c.pas.states.size(), 1u);
  EXPECT_EQ(c.pas.states[0].parameters[1].max, 1u);
  EXPECT_EQ(c.pas.states[0].animations[0].values[1], 1u);
  EXPECT_EQ(c.part, (std::vector<uint32_t>{0x1234}));
  EXPECT_EQ(c.action_boxes[0].box.max[2], 5.0f);
  EXPECT_EQ(c.effects[0].components[0].locator, "R_hand");
  EXPECT_EQ(c.anim_indices, (std::vector<uint32_t>{0}));
  const AnimationSet& s = f.animation_set;
  ASSERT_EQ(s.animations.size(), 2u);
  EXPECT_EQ(s.animations[0].anim.play.anim_id, 0x100u);
  EXPECT_EQ(s.animations[1].anim.type, kRandom);
  EXPECT_EQ(s.animations[1].anim.thresholds, (std::vector<uint32_t>{50, 100}));
  EXPECT_EQ(s.animations[1].anim.children[1].type, kBlend);
  EXPECT_EQ(s.animations[1].anim.children[1].children[1].play.anim_id, 0x103u);
  EXPECT_EQ(s.transitions[0].trans.type, kTrans);
  EXPECT_EQ(s.transitions[0].trans.trans.run_a, 1);
  EXPECT_EQ(s.default_transition.type, kSnap);
  EXPECT_EQ(s.additives[0].fade_out, 0.2f);
  EXPECT_EQ(s.default_additive.fade_in, 0.3f);
  EXPECT_EQ(s.half_transitions[0].trans.anim[0].name, "half");
  EXPECT_EQ(s.anim_evnt[0].evnt_id, 0x200u);
  EXPECT_TRUE(f.trailing.empty());
  EXPECT_EQ(SerializeAncs(f), bytes);
}

TEST(MetroidAncs, Mp2ReadsEveryPartFromTheLayout) {
  const Bytes bytes = HandMp2();
  const AncsFile f = ParseAncs(bytes);
  EXPECT_EQ(f.game, Game::Mp2);
  const Character& c = f.characters.at(0);
  EXPECT_EQ(c.table_count, 10);
  EXPECT_EQ(c.animations.at(0).name, "idle");
  EXPECT_EQ(c.srsc, (std::vector<uint32_t>{0x99}));
  EXPECT_EQ(c.effects.at(0).components.at(0).bone_id, 7u);
  EXPECT_EQ(c.effects[0].components[0].tail.flags, 2u);
  EXPECT_EQ(c.overlay_model, 0xFFFFFFFFu);
  EXPECT_EQ(c.cspp, 0xC0FFEEu);
  EXPECT_EQ(c.animated_scale, 1);
  ASSERT_EQ(c.indexed_boxes.size(), 1u);
  ASSERT_EQ(f.animation_set.event_sets.size(), 1u);
  EXPECT_EQ(f.animation_set.event_sets[0].bools.at(0).node.name, "Loop");
  EXPECT_EQ(f.animation_set.event_sets[0].bools[0].node.node_version, 2);
  EXPECT_EQ(SerializeAncs(f), bytes);
}

TEST(MetroidAncs, TrailingBytesAreKept) {
  Bytes bytes = HandMp1();
  bytes.insert(bytes.end(), {1, 2, 3});
  const AncsFile f = ParseAncs(bytes);
  EXPECT_EQ(f.trailing.size(), 3u);
  EXPECT_EQ(SerializeAncs(f), bytes);
}

TEST(MetroidAncs, AGameThatFailsTheRuleIsReadAsTheOtherWithAWarning) {
  Bytes bytes = HandMp1(6);
  bytes[13] = 10;  // the first character claims MP2's table count, yet the rest is MP1's
  const std::string mp1 = test::ErrorOf([&] { ParseAncs(bytes, Game::Mp2); });
  EXPECT_NE(mp1, "");
  // With table count 10 MP1 reads the same gated parts as 6 (the MP2-only ones are skipped).
  const AncsFile f = ParseAncs(bytes);
  EXPECT_EQ(f.game, Game::Mp1);
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(f.warnings[0], "read as MP1"));
  EXPECT_EQ(SerializeAncs(f), bytes);
}

TEST(MetroidAncs, EveryTruncationIsAnError) {
  for (const Bytes& bytes : {HandMp1(), HandMp2()}) {
    for (size_t n = 0; n < bytes.size(); ++n) {
      const Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      EXPECT_NE(test::ErrorOf([&] { ParseAncs(cut); }), "") << n;
    }
  }
}

TEST(MetroidAncs, CorruptedCountsAndTypesAreErrorsWithOffsets) {
  Bytes bytes = HandMp1();
  bytes[4] = 0x40;  // character count
  std::string e = test::ErrorOf([&] { ParseAncs(bytes); });
  EXPECT_TRUE(test::Has(e, "characters")) << e;
  EXPECT_TRUE(test::Has(e, "0x4")) << e;
  bytes = HandMp1();
  // the animation set's first meta-animation type (after u16 4, u32 2, "idle\0"): set to 9
  const Bytes set_start = {0, 4, 0, 0, 0, 2, 'i', 'd', 'l', 'e', 0};
  const auto at = std::search(bytes.begin(), bytes.end(), set_start.begin(), set_start.end());
  ASSERT_NE(at, bytes.end());
  const size_t type_at = static_cast<size_t>(at - bytes.begin()) + set_start.size();
  bytes[type_at + 3] = 9;
  e = test::ErrorOf([&] { ParseAncs(bytes, Game::Mp1); });
  EXPECT_TRUE(test::Has(e, "meta-animation type 0 to 4, found 9")) << e;
  EXPECT_TRUE(test::Has(e, Hex(type_at))) << e;
}

TEST(MetroidAncs, CorruptedInnerCountsAreErrorsNamingTheirList) {
  // The PAS state's parameter count (after "PAS4", the state count, the default, the state id).
  Bytes bytes = HandMp1();
  const Bytes pas = {'P', 'A', 'S', '4'};
  const size_t pas_at = static_cast<size_t>(std::search(bytes.begin(), bytes.end(), pas.begin(), pas.end()) - bytes.begin());
  bytes[pas_at + 4 + 4 + 4 + 4] = 0x7F;
  std::string e = test::ErrorOf([&] { ParseAncs(bytes, Game::Mp1); });
  EXPECT_TRUE(test::Has(e, "PAS parameters")) << e;
  // MP2's event set count: the u32 before the last set (version 2, one bool node).
  bytes = HandMp2();
  const Bytes set = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 2, 'L'};
  const size_t set_at = static_cast<size_t>(std::search(bytes.begin(), bytes.end(), set.begin(), set.end()) - bytes.begin());
  ASSERT_LT(set_at, bytes.size());
  bytes[set_at] = 0x7F;
  e = test::ErrorOf([&] { ParseAncs(bytes, Game::Mp2); });
  EXPECT_TRUE(test::Has(e, "event sets")) << e;
  EXPECT_TRUE(test::Has(e, Hex(set_at))) << e;
}

TEST(MetroidAncs, WhenNeitherGameReadsTheRulesErrorIsGiven) {
  Bytes bytes = HandMp1();
  bytes.resize(bytes.size() - 2);
  const std::string e = test::ErrorOf([&] { ParseAncs(bytes); });
  EXPECT_EQ(e, test::ErrorOf([&] { ParseAncs(bytes, Game::Mp1); }));
  EXPECT_TRUE(test::Has(e, "ANIM/EVNT pairs")) << e;
}

TEST(MetroidAncs, MetaAnimationsNestedPastTheCapAreRefused) {
  auto nested = [](size_t depth) {
    BigBytes w;
    w.U16(1).U16(1).U32(0).U16(1).U32(1).Str("deep");
    for (size_t i = 0; i < depth; ++i) w.U32(kSequence).U32(1);
    w.Play(1, "leaf");
    w.U32(0).U32(3);
    return w.b;
  };
  EXPECT_EQ(ParseAncs(nested(kMaxMetaDepth - 1)).animation_set.animations.size(), 1u);
  const std::string e = test::ErrorOf([&] { ParseAncs(nested(kMaxMetaDepth + 5)); });
  EXPECT_TRUE(test::Has(e, "nests deeper than")) << e;
  EXPECT_NE(test::ErrorOf([&] { ParseAncs(nested(100000)); }), "");
}

TEST(MetroidAncs, InfoListsCharactersWithIdsAndAnimationsByName) {
  const FormatDescriptor* format = FindFormat("metroid-ancs");
  ASSERT_NE(format, nullptr);
  const Bytes bytes = HandMp1();
  EXPECT_GT(format->probe(bytes, ".ancs"), kProbeExtension);
  const auto doc = format->read(bytes, ReadContext{});
  EXPECT_EQ(doc->Write(), bytes);
  const Value info = doc->Info();
  EXPECT_EQ(info["game"], "MP1");
  const Value& c = info["characters"][0];
  EXPECT_EQ(c["name"], "Samus");
  EXPECT_EQ(c["model"], 0xAAAA0001u);
  EXPECT_EQ(c["skin"], 0xBBBB0002u);
  EXPECT_EQ(c["skeleton"], 0x10u);
  EXPECT_EQ(c["animations"][0]["name"], "idle");
  EXPECT_EQ(c["animations"][0]["anim_id"], 0x100);
  EXPECT_EQ(c["animations"][1]["anim_id"], 0x101);
  EXPECT_EQ(info["animation_set"]["animations"][1]["type"], "random");
}

// ---------------------------------------------------------------- assembly

std::unique_ptr<Document> ReadWithSides(const Bytes& ancs, const std::map<std::string, Bytes>& files) {
  ReadContext rc;
  rc.neighbour = [files](std::string_view name) -> std::optional<Bytes> {
    const auto it = files.find(std::string(name));
    return it == files.end() ? std::nullopt : std::optional<Bytes>(it->second);
  };
  return FindFormat("metroid-ancs")->read(ancs, rc);
}

TEST(MetroidAncs, AssemblesTheCharacterWithNamedClipsAndEvents) {
  const auto doc = ReadWithSides(HandMp1(), SideFiles(OneLoopEvnt()));
  const Scene scene = doc->Decode(DecodeContext{});
  ASSERT_EQ(scene.skeleton.joints.size(), 2u);
  EXPECT_EQ(scene.skeleton.joints[1].name, "spine");
  ASSERT_EQ(scene.clips.size(), 2u);
  const Clip& idle = scene.clips[0];
  EXPECT_EQ(idle.name, "idle");
  EXPECT_EQ(idle.metadata[metadata_keys::kAnimMember], "00000100.ANIM");
  ASSERT_EQ(idle.tracks.size(), 1u);
  EXPECT_EQ(idle.tracks[0].joint, "spine");  // bone 4, named by the CINF
  ASSERT_EQ(idle.events.size(), 1u);
  EXPECT_EQ(idle.events[0].name, "loop:Loop");
  EXPECT_FLOAT_EQ(idle.events[0].time, 0.25f);
  EXPECT_FALSE(idle.metadata.contains(metadata_keys::kAdditive));
  const Clip& walk = scene.clips[1];
  EXPECT_EQ(walk.name, "walk");
  EXPECT_EQ(walk.metadata[metadata_keys::kAnimMember], "00000101.ANIM");
  EXPECT_FLOAT_EQ(walk.metadata[metadata_keys::kAdditive]["fade_in"].get<float>(), 0.1f);
  EXPECT_FLOAT_EQ(walk.metadata[metadata_keys::kAdditive]["fade_out"].get<float>(), 0.2f);
  // The core's mark too: rotation only over the rest pose (facts 7.6), the list's fades.
  EXPECT_FALSE(idle.additive);
  ASSERT_TRUE(walk.additive);
  EXPECT_TRUE(walk.additive->rotation_only);
  EXPECT_EQ(walk.additive->reference, "");
  EXPECT_EQ(walk.additive->fade_in, 0.1f);
  EXPECT_EQ(walk.additive->fade_out, 0.2f);
  bool sampled_first = false, mesh_skipped = false;
  for (const std::string& w : doc->Warnings()) {
    sampled_first |= w.find("'walk'") != std::string::npos && w.find("first ANIM") != std::string::npos;
    mesh_skipped |= w.find("AAAA0001.CMDL") != std::string::npos;
  }
  EXPECT_TRUE(sampled_first);
  EXPECT_TRUE(mesh_skipped);
}

TEST(MetroidAncs, CharacterOptionChoosesAndAnUnknownNameIsAnError) {
  const auto doc = ReadWithSides(HandMp1(), SideFiles(OneLoopEvnt()));
  DecodeContext dc;
  dc.options.Set("character", "Samus");
  EXPECT_EQ(doc->Decode(dc).metadata[metadata_keys::kCharacter], "Samus");
  dc.options.Set("character", "Ridley");
  const std::string e = test::ErrorOf([&] { doc->Decode(dc); });
  EXPECT_TRUE(test::Has(e, "'Ridley'")) << e;
  EXPECT_TRUE(test::Has(e, "'Samus'")) << e;
}

TEST(MetroidAncs, MissingSideFilesAreSkippedWithWarnings) {
  std::map<std::string, Bytes> files = SideFiles(OneLoopEvnt());
  files.erase("00000101.ANIM");
  files.erase("00000200.EVNT");
  const auto doc = ReadWithSides(HandMp1(), files);
  const Scene scene = doc->Decode(DecodeContext{});
  ASSERT_EQ(scene.clips.size(), 1u);
  EXPECT_TRUE(scene.clips[0].events.empty());
  size_t missing = 0;
  for (const std::string& w : doc->Warnings()) missing += w.find("not found beside the ANCS") != std::string::npos;
  EXPECT_GE(missing, 2u);
}

TEST(MetroidAncs, Mp2ClipsTakeTheirEventSets) {
  metroid::AnimFile f;
  f.version = 0;
  f.v0.duration = 0;
  f.v0.frame_count = 1;
  f.v0.bone_table = {0};
  f.v0.translation_table = {0xFF};
  f.v0.rotations = {{1, 0, 0, 0}};
  const auto doc = ReadWithSides(HandMp2(), {{"00000300.ANIM", metroid::SerializeAnim(f)}});
  const Scene scene = doc->Decode(DecodeContext{});
  ASSERT_EQ(scene.clips.size(), 1u);
  ASSERT_EQ(scene.clips[0].events.size(), 1u);
  EXPECT_EQ(scene.clips[0].events[0].name, "loop:Loop");
}

TEST(MetroidAncs, CliSamplesACharacterFromItsFolderAndInfoListsIt) {
  const std::filesystem::path dir = test::TempDir("metroid_ancs_cli");
  auto put = [&](const std::string& name, const Bytes& bytes) {
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  };
  put("0000AAAA.ANCS", HandMp1());
  for (const auto& [name, bytes] : SideFiles(OneLoopEvnt())) put(name, bytes);
  const std::string ancs = (dir / "0000AAAA.ANCS").string();
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample \"" + ancs + "\" --character Samus", &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, "\"idle\""));
  EXPECT_TRUE(test::Has(out, "\"walk\""));
  EXPECT_TRUE(test::Has(out, "loop:Loop"));
  for (const char* detail : {"", " --full"}) {
    ASSERT_EQ(test::RunCli("info \"" + ancs + "\" --json" + detail, &out, &err), 0) << err;
    EXPECT_TRUE(test::Has(out, "\"Samus\""));
    EXPECT_TRUE(test::Has(out, "2863267841"));  // the model id 0xAAAA0001
    EXPECT_TRUE(test::Has(out, "\"walk\""));
  }
}

}  // namespace
}  // namespace animkit
