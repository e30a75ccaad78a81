#include <animkit/formats/metroid_ancs.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

namespace animkit {
namespace {

using namespace metroid_ancs;

// Bytes of a string and its terminating zero, written by hand (not through the writer under test).
void Str(Bytes& b, const char* s) {
  for (; *s; ++s) b.push_back(static_cast<uint8_t>(*s));
  b.push_back(0);
}
void U16(Bytes& b, uint16_t v) { b.insert(b.end(), {uint8_t(v >> 8), uint8_t(v)}); }
void U32(Bytes& b, uint32_t v) { b.insert(b.end(), {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)}); }
void F32(Bytes& b, float v) { U32(b, std::bit_cast<uint32_t>(v)); }

// The node base of §6.1: u16 1, name, u16 type, f32 time, u32 state, u32 index, u8 unique,
// f32 weight, i32 character, u32 flags.
void Base(Bytes& b, const char* name, uint16_t type, float time, uint16_t node_version = 1) {
  U16(b, node_version);
  Str(b, name);
  U16(b, type);
  F32(b, time);
  U32(b, 0);
  U32(b, 0xFFFFFFFF);
  b.push_back(1);
  F32(b, 1.0f);
  U32(b, 0xFFFFFFFF);
  U32(b, 7);
}

// An MP1 EVNT: a loop bool node, a user-event int32 node, a particle node and (version 2) a sound node.
Bytes HandEvnt(uint32_t version) {
  Bytes b;
  U32(b, version);
  U32(b, 1);
  Base(b, "Loop", kLoop, 0.5f);
  b.push_back(1);
  U32(b, 1);
  Base(b, "Step", kUserEvent, 0.25f);
  U32(b, 12);  // landing
  Str(b, "L_foot");
  U32(b, 1);
  Base(b, "Spark", kParticle, 0.75f);
  U32(b, 3);
  U32(b, 0x50415254);  // PART
  U32(b, 0x11223344);
  Str(b, "R_hand");
  F32(b, 2.0f);
  U32(b, 1);
  if (version > 1) {
    U32(b, 1);
    Base(b, "Roar", kSound, 0.125f);
    U32(b, 0x00010203);
    F32(b, 10.0f);
    F32(b, 50.0f);
  }
  return b;
}

TEST(MetroidEvnt, Version2ReadsEveryListFromTheLayout) {
  const EvntFile f = ParseEvnt(HandEvnt(2));
  EXPECT_EQ(f.set.version, 2u);
  ASSERT_EQ(f.set.bools.size(), 1u);
  EXPECT_EQ(f.set.bools[0].node.name, "Loop");
  EXPECT_EQ(f.set.bools[0].value, 1);
  EXPECT_EQ(f.set.bools[0].node.fixed.flags, 7u);
  EXPECT_EQ(f.set.bools[0].node.fixed.character, -1);
  ASSERT_EQ(f.set.ints.size(), 1u);
  EXPECT_EQ(f.set.ints[0].value, 12);
  EXPECT_EQ(f.set.ints[0].locator, "L_foot");
  ASSERT_EQ(f.set.particles.size(), 1u);
  EXPECT_EQ(f.set.particles[0].head.effect_type, 0x50415254u);
  EXPECT_EQ(f.set.particles[0].head.effect_id, 0x11223344u);
  EXPECT_EQ(f.set.particles[0].bone_name, "R_hand");
  EXPECT_EQ(f.set.particles[0].tail.scale, 2.0f);
  ASSERT_EQ(f.set.sounds.size(), 1u);
  EXPECT_EQ(f.set.sounds[0].sound.sound_id, 0x00010203u);
  EXPECT_EQ(f.set.sounds[0].sound.max_distance, 50.0f);
  EXPECT_TRUE(f.trailing.empty());
}

TEST(MetroidEvnt, Version1HasNoSoundList) {
  const Bytes bytes = HandEvnt(1);
  const EvntFile f = ParseEvnt(bytes);
  EXPECT_EQ(f.set.version, 1u);
  EXPECT_TRUE(f.set.sounds.empty());
  EXPECT_TRUE(f.trailing.empty());
  EXPECT_EQ(SerializeEvnt(f), bytes);
}

TEST(MetroidEvnt, RoundTripIsByteExactWithTrailingBytes) {
  Bytes bytes = HandEvnt(2);
  bytes.insert(bytes.end(), {0xAB, 0xCD});
  const EvntFile f = ParseEvnt(bytes);
  EXPECT_EQ(f.trailing, (Bytes{0xAB, 0xCD}));
  EXPECT_EQ(SerializeEvnt(f), bytes);
}

TEST(MetroidEvnt, DecodesEventsInTimeOrderWithKindsAndParams) {
  const std::vector<Event> events = DecodeEvents(ParseEvnt(HandEvnt(2)).set);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].name, "sound:Roar");
  EXPECT_FLOAT_EQ(events[0].time, 0.125f);
  EXPECT_EQ(events[0].params, (std::vector<double>{double(0x00010203), 10.0, 50.0}));
  EXPECT_EQ(events[1].name, "user:Step");
  EXPECT_EQ(events[1].params, (std::vector<double>{12.0}));
  EXPECT_EQ(events[2].name, "loop:Loop");
  EXPECT_EQ(events[3].name, "particle:Spark");
  EXPECT_EQ(events[3].params, (std::vector<double>{3.0, double(0x11223344), 2.0, 1.0}));
}

TEST(MetroidEvnt, EveryTruncationIsAnError) {
  const Bytes bytes = HandEvnt(2);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_NE(test::ErrorOf([&] { ParseEvnt(cut); }), "") << n;
  }
}

TEST(MetroidEvnt, CorruptedCountsAreErrorsNamingTheList) {
  Bytes bytes = HandEvnt(2);
  bytes[4] = 0x7F;  // the bool node count
  const std::string e = test::ErrorOf([&] { ParseEvnt(bytes); });
  EXPECT_TRUE(test::Has(e, "bool nodes")) << e;
  EXPECT_TRUE(test::Has(e, "0x4")) << e;
}

TEST(MetroidEvnt, Mp2NodesKeepTheCrcAndPitchFields) {
  Bytes b;
  U32(b, 2);
  U32(b, 0);
  U32(b, 0);
  U32(b, 1);
  Base(b, "Fx", kParticle, 0.5f, 3);  // node version 3: the name's CRC follows the name
  b.insert(b.begin() + 16 + 2 + 3, {0xDE, 0xAD, 0xBE, 0xEF});
  U32(b, 1);
  U32(b, 0x50415254);
  U32(b, 5);
  U32(b, 9);  // bone id instead of a name
  F32(b, 1.0f);
  U32(b, 0);
  U32(b, 1);
  Base(b, "Snd", kSound, 0.5f, 2);
  U32(b, 4);
  F32(b, 1.0f);
  F32(b, 2.0f);
  U32(b, 6);  // bone id, pitch start/end, pitch duration
  U16(b, 100);
  U16(b, 200);
  F32(b, 0.5f);
  ByteReader r(b, Endian::Big);
  const EventSet s = ReadEventSet(r, Game::Mp2);
  EXPECT_EQ(r.remaining(), 0u);
  ASSERT_EQ(s.particles.size(), 1u);
  EXPECT_EQ(s.particles[0].node.name_crc, 0xDEADBEEFu);
  EXPECT_EQ(s.particles[0].bone_id, 9u);
  ASSERT_EQ(s.sounds.size(), 1u);
  EXPECT_EQ(s.sounds[0].pitch.bone_id, 6u);
  EXPECT_EQ(s.sounds[0].pitch.pitch_end, 200);
  ByteWriter w(Endian::Big);
  WriteEventSet(w, s, Game::Mp2);
  EXPECT_EQ(w.bytes(), b);
}

TEST(MetroidEvnt, RegistryReadsInfoAndDecodes) {
  const FormatDescriptor* f = FindFormat("metroid-evnt");
  ASSERT_NE(f, nullptr);
  const Bytes bytes = HandEvnt(2);
  EXPECT_GT(f->probe(bytes, ".evnt"), kProbeExtension);
  const auto doc = f->read(bytes, ReadContext{});
  EXPECT_EQ(doc->Write(), bytes);
  const Value info = doc->Info();
  EXPECT_EQ(info["version"], 2);
  EXPECT_EQ(info["int32_nodes"][0]["locator"], "L_foot");
  const Scene scene = doc->Decode(DecodeContext{});
  ASSERT_EQ(scene.clips.size(), 1u);
  EXPECT_EQ(scene.clips[0].events.size(), 4u);
  EXPECT_FLOAT_EQ(scene.clips[0].duration, 0.75f);
}

}  // namespace
}  // namespace animkit
