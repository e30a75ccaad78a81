// EncodeEvnt: the common model's events back into an EVNT of the documented layout, which
// reads and decodes to the same events.
#include <animkit/formats/metroid_ancs.hpp>

#include "ancs_bytes.hpp"
#include "support/test_support.hpp"

namespace animkit {
namespace {

using namespace metroid_ancs;
using test::BigBytes;

// One event of each kind the decoder names, in time order, with the decoder's params.
std::vector<Event> EveryKind() {
  return {
      {0.0f, "loop:Loop", {1}, {}},
      {0.1f, "bool:Flag", {0}, {}},
      {0.2f, "int:Count", {-5}, {}},
      {0.3f, "user:Landing", {12}, {}},
      {0.4f, "sound_int:Chirp", {77}, {}},
      {0.5f, "rand_rate:Rate", {3}, {}},
      {0.6f, "particle:Dust", {10, double(0xABCD1234u), 1.5, 1}, {}},
      {0.7f, "sound:Step", {double(0x00010203u), 2.5, 30}, {}},
  };
}

// The node base of §6.1 as the writer fills what events lack: node version 1, the state
// ZeroSteady at 0 s (else NonZero), index -1, not unique, weight 1, every character, no flags.
void Base(BigBytes& w, const char* name, uint16_t type, float time) {
  w.U16(1).Str(name).U16(type).F32(time).U32(time == 0 ? 2 : 0).U32(0xFFFFFFFF).U8(0).F32(1).U32(0xFFFFFFFF).U32(0);
}

Bytes ExpectedBytes() {
  BigBytes w;
  w.U32(2).U32(2);
  Base(w, "Loop", kLoop, 0.0f);
  w.U8(1);
  Base(w, "Flag", kEmptyBool, 0.1f);
  w.U8(0);
  w.U32(4);
  Base(w, "Count", kEmptyInt32, 0.2f);
  w.U32(uint32_t(-5)).Str("");
  Base(w, "Landing", kUserEvent, 0.3f);
  w.U32(12).Str("");
  Base(w, "Chirp", kSoundInt32, 0.4f);
  w.U32(77).Str("");
  Base(w, "Rate", kRandRate, 0.5f);
  w.U32(3).Str("");
  w.U32(1);
  Base(w, "Dust", kParticle, 0.6f);
  w.U32(10).Magic("PART").U32(0xABCD1234).Str("").F32(1.5f).U32(1);
  w.U32(1);
  Base(w, "Step", kSound, 0.7f);
  w.U32(0x00010203).F32(2.5f).F32(30);
  return w.b;
}

TEST(MetroidEvntEncode, WritesTheLayoutAndDecodesToTheSameEvents) {
  std::vector<std::string> warnings;
  const EvntFile f = EncodeEvnt(EveryKind(), &warnings);
  EXPECT_TRUE(warnings.empty());
  const Bytes bytes = SerializeEvnt(f);
  EXPECT_EQ(bytes, ExpectedBytes());
  const EvntFile back = ParseEvnt(bytes);
  EXPECT_EQ(SerializeEvnt(back), bytes);
  const std::vector<Event> events = DecodeEvents(back.set);
  const std::vector<Event> in = EveryKind();
  ASSERT_EQ(events.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(in[i].name);
    EXPECT_EQ(events[i].name, in[i].name);
    EXPECT_FLOAT_EQ(events[i].time, in[i].time);
    ASSERT_EQ(events[i].params.size(), in[i].params.size());
    for (size_t p = 0; p < in[i].params.size(); ++p) EXPECT_FLOAT_EQ(float(events[i].params[p]), float(in[i].params[p]));
  }
}

TEST(MetroidEvntEncode, MissingParamsTakeDefaultsAndUnknownKindsAreLeftOut) {
  std::vector<std::string> warnings;
  const EvntFile f = EncodeEvnt({{0.5f, "particle:Bare", {}, {}}, {1.0f, "footstep", {}, {}}, {1.0f, "loop:", {}, {}}},
                                &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(test::Has(warnings[0], "'footstep'"));
  ASSERT_EQ(f.set.particles.size(), 1u);
  EXPECT_EQ(f.set.particles[0].head.effect_id, kNoId);
  EXPECT_EQ(f.set.particles[0].tail.scale, 1.0f);
  ASSERT_EQ(f.set.bools.size(), 1u);
  EXPECT_EQ(f.set.bools[0].node.name, "");
  EXPECT_EQ(f.set.bools[0].value, 1);  // a loop event without a value loops
  // Params past a field's range are clamped to it.
  const EvntFile big = EncodeEvnt({{0, "user:U", {1e12}, {}}});
  EXPECT_EQ(big.set.ints.at(0).value, 2147483647);
}

}  // namespace
}  // namespace animkit
