// EDF CAS sets hand-built from the layout (docs/formats/edf_cas.md): every table of the three
// versions, byte-exact round trips, the stock serialisation order, clip replacement and the
// EDF 4.1/5 -> 6 conversion, and damage reported with offsets.
#include <animkit/formats/edf_canm/cas.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/test_support.hpp"

#include <bit>

namespace animkit {
namespace {

namespace cas = edf_canm::cas;
using Builder = test::LittleEndianBuilder;

const FormatDescriptor& CasFormat() { return *FindFormat("edf-cas"); }

size_t Align16(size_t v) { return (v + 15) / 16 * 16; }

// Where every record of the test set lies, in the stock order (2.2): header; tcontrols
// "walk" (words 1, 0) and "idle" (word 0); their words in name order (idle, walk); vcontrols
// "v", "w"; bone "Bone"; the unnamed group (1 record); anmgroup "player"; its mcanm "state";
// the first anmdata, its group (1 record); one more anmdata, its group (empty); groups 0
// (1 record) and 2 (empty); padding; the CANM; the set's strings.
struct Layout {
  size_t data = 0;
  size_t tc0 = 0x30, tc1 = 0x3C, words_idle = 0x48, words_walk = 0x4C, vc0 = 0x54, vc1 = 0x68, bone = 0x7C;
  size_t unnamed = 0x80, unnamed_data = 0x88, ag = 0, mc = 0, first = 0, first_group = 0, first_data = 0, more = 0,
         more_group = 0, g0 = 0, g0_data = 0, g2 = 0, tables_end = 0, canm = 0, canm_end = 0;
  size_t s_walk = 0, s_idle = 0, s_v = 0, s_w = 0, s_bone = 0, s_player = 0, s_state = 0, end = 0;
};

constexpr size_t kCanmSize = 0x68;

Layout LayoutFor(size_t data) {
  Layout l;
  l.data = data;
  l.ag = l.unnamed_data + data;
  l.mc = l.ag + 0x0C;
  l.first = l.mc + 0x24;
  l.first_group = l.first + 0x20;
  l.first_data = l.first_group + 8;
  l.more = l.first_data + data;
  l.more_group = l.more + 0x20;
  l.g0 = l.more_group + 8;
  l.g0_data = l.g0 + 8;
  l.g2 = l.g0_data + data;
  l.tables_end = l.g2 + 8;
  l.canm = Align16(l.tables_end);
  l.canm_end = l.canm + kCanmSize;
  l.s_walk = l.canm_end;
  l.s_idle = l.s_walk + 10;
  l.s_v = l.s_idle + 10;
  l.s_w = l.s_v + 4;
  l.s_bone = l.s_w + 4;
  l.s_player = l.s_bone + 10;
  l.s_state = l.s_player + 14;
  l.end = l.s_state + 12;
  return l;
}

// A CANM with two clips and no channel: "a" (looping) and "b_add".
Bytes TinyCanm(uint32_t version) {
  Builder w;
  w.b = {'C', 'A', 'N', 'M'};
  for (uint32_t v : {version, 2u, 0x20u, 0u, 0x20u, 0u, 0x58u}) w.U32(v);
  w.U32(1), w.U32(0x58 - 0x20), w.F32(0), w.F32(1), w.U32(1), w.U32(0), w.U32(0x1C);  // clip "a" at 0x20
  w.U32(0), w.U32(0x5C - 0x3C), w.F32(0), w.F32(1), w.U32(1), w.U32(0), w.U32(0x1C);  // clip "b_add" at 0x3C
  w.Str("a");
  w.Str("b_add");
  EXPECT_EQ(w.size(), kCanmSize);
  return w.b;
}

// Data commands of the three records (unnamed group, first anmdata's group, group 0).
std::array<uint32_t, 3> Commands(uint32_t version) {
  if (version == cas::kVersion41) return {0, 4, 7};
  if (version == cas::kVersion5) return {0, 6, 2};
  return {0, 8, 2};
}

void At(Builder& w, size_t at) {
  ASSERT_LE(w.size(), at);
  w.b.resize(at, 0);
}

// A data record: command, then args 1..8 (+0x04..+0x24) and, in 5/6, the tail 9..12.
void PutData(Builder& w, size_t data, uint32_t command, uint32_t seed) {
  w.U32(command);
  for (uint32_t i = 1; i <= 8; ++i) w.U32(seed + i);
  if (data == cas::kDataSize)
    for (uint32_t i = 9; i <= 12; ++i) w.U32(seed + i);
}

int32_t Rel(size_t target, size_t record) { return int32_t(int64_t(target) - int64_t(record)); }

Bytes BuildSet(uint32_t version) {
  const size_t data = version == cas::kVersion41 ? cas::kDataSize41 : cas::kDataSize;
  const Layout l = LayoutFor(data);
  const std::array<uint32_t, 3> cmd = Commands(version);
  Builder w;
  w.b = {'C', 'A', 'S', 0};
  w.U32(version);
  w.U32(uint32_t(l.canm));
  for (size_t v : {size_t(2), l.tc0, size_t(2), l.vc0, size_t(1), l.ag, size_t(1), l.bone, l.unnamed}) w.U32(uint32_t(v));
  At(w, l.tc0);
  w.U32(uint32_t(Rel(l.s_walk, l.tc0))), w.U32(2), w.U32(uint32_t(Rel(l.words_walk, l.tc0)));
  w.U32(uint32_t(Rel(l.s_idle, l.tc1))), w.U32(1), w.U32(uint32_t(Rel(l.words_idle, l.tc1)));
  w.U32(0);           // idle: clip 0
  w.U32(1), w.U32(0);  // walk: clips 1, 0
  At(w, l.vc0);
  w.U32(uint32_t(Rel(l.s_v, l.vc0))), w.U32(3), w.U32(uint32_t(-1)), w.F32(0.5f), w.U32(7);
  w.U32(uint32_t(Rel(l.s_w, l.vc1))), w.U32(4), w.U32(0), w.F32(2.0f), w.U32(0);
  w.U32(uint32_t(Rel(l.s_bone, l.bone)));
  At(w, l.unnamed);
  w.U32(1), w.U32(8);
  // Command 0: +0x10 a tcontrol index (1), +0x14 = 2 so +0x18 (0x55) is a stale slot.
  w.U32(cmd[0]), w.U32(10), w.U32(11), w.U32(12), w.U32(1), w.U32(2), w.U32(0x55), w.U32(16), w.U32(17);
  if (data == cas::kDataSize) w.U32(18), w.U32(19), w.U32(20), w.U32(21);
  At(w, l.ag);
  w.U32(uint32_t(Rel(l.s_player, l.ag))), w.U32(1), w.U32(uint32_t(Rel(l.mc, l.ag)));
  // mcanm "state": first anmdata, 1 more, groups 0 and 2, type 2 (tcontrol 1).
  w.U32(uint32_t(Rel(l.s_state, l.mc))), w.U32(uint32_t(Rel(l.first, l.mc))), w.U32(1),
      w.U32(uint32_t(Rel(l.more, l.mc)));
  w.U32(uint32_t(Rel(l.g0, l.mc))), w.U32(0), w.U32(uint32_t(Rel(l.g2, l.mc))), w.U32(2), w.U32(1);
  // first anmdata: 5, time 1.5, its group, type_a 0 (2.0f), type_b 1 (3), tail 0x11.
  w.U32(5), w.F32(1.5f), w.U32(uint32_t(Rel(l.first_group, l.first))), w.U32(0), w.F32(2.0f), w.U32(1), w.U32(3),
      w.U32(0x11);
  w.U32(1), w.U32(8);
  PutData(w, data, cmd[1], 100);
  // more anmdata: type_b 0, tail 0x22 (stale), an empty group.
  w.U32(6), w.F32(2.5f), w.U32(uint32_t(Rel(l.more_group, l.more))), w.U32(1), w.U32(9), w.U32(0), w.U32(4),
      w.U32(0x22);
  w.U32(0), w.U32(8);
  At(w, l.g0);
  w.U32(1), w.U32(8);
  PutData(w, data, cmd[2], 200);
  w.U32(0), w.U32(8);
  EXPECT_EQ(w.size(), l.tables_end);
  At(w, l.canm);
  const Bytes canm = TinyCanm(version == cas::kVersion6 ? edf_canm::kVersion6 : edf_canm::kVersion5);
  w.b.insert(w.b.end(), canm.begin(), canm.end());
  for (const char* s : {"walk", "idle", "v", "w", "Bone", "player", "state"}) w.Str(s);
  EXPECT_EQ(w.size(), l.end);
  return w.b;
}

uint32_t U32At(const Bytes& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void PutU32(Bytes& b, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

constexpr std::array kVersions = {cas::kVersion41, cas::kVersion5, cas::kVersion6};

TEST(EdfCas, ReadsEveryTableOfEveryVersion) {
  for (uint32_t version : kVersions) {
    SCOPED_TRACE(version);
    const Bytes bytes = BuildSet(version);
    const Layout l = LayoutFor(version == cas::kVersion41 ? 0x24 : 0x34);
    const cas::File f = cas::Parse(bytes);
    EXPECT_TRUE(f.damaged.empty()) << (f.damaged.empty() ? "" : f.damaged.front());
    EXPECT_TRUE(f.warnings.empty()) << (f.warnings.empty() ? "" : f.warnings.front());
    EXPECT_EQ(f.version, version);
    EXPECT_EQ(f.canm_offset, l.canm);
    EXPECT_EQ(f.canm_bytes.size(), kCanmSize);
    EXPECT_EQ(f.strings.size(), l.end - l.canm_end);
    ASSERT_TRUE(f.canm);
    ASSERT_EQ(f.canm->animations.size(), 2u);
    EXPECT_EQ(f.canm->animations[1].name, "b_add");
    ASSERT_EQ(f.tcontrols.size(), 2u);
    EXPECT_EQ(f.tcontrols[0].at, l.tc0);
    EXPECT_EQ(f.tcontrols[0].name.text, "walk");
    EXPECT_EQ(f.tcontrols[0].name.place, cas::Name::Place::Strings);
    EXPECT_EQ(f.tcontrols[0].name.at, 0u);
    EXPECT_EQ(f.tcontrols[0].words, (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(f.tcontrols[1].name.text, "idle");
    EXPECT_EQ(f.tcontrols[1].words_offset, Rel(l.words_idle, l.tc1));
    EXPECT_EQ(f.tcontrols[1].words, (std::vector<uint32_t>{0}));
    ASSERT_EQ(f.vcontrols.size(), 2u);
    EXPECT_EQ(f.vcontrols[0].name.text, "v");
    EXPECT_EQ(f.vcontrols[0].value0, 3);
    EXPECT_EQ(f.vcontrols[0].value1, -1);
    EXPECT_EQ(f.vcontrols[0].value2, 0.5f);
    EXPECT_EQ(f.vcontrols[0].value3, 7);
    EXPECT_EQ(f.vcontrols[1].name.text, "w");
    ASSERT_EQ(f.bones.size(), 1u);
    EXPECT_EQ(f.bones[0].name.text, "Bone");
    ASSERT_TRUE(f.unnamed_group);
    EXPECT_EQ(f.unnamed_group->at, l.unnamed);
    ASSERT_EQ(f.unnamed_group->data.size(), 1u);
    EXPECT_EQ(f.unnamed_group->data[0].at, l.unnamed_data);
    EXPECT_EQ(f.unnamed_group->data[0].command, 0u);
    EXPECT_EQ(f.unnamed_group->data[0].args[3], 1u);  // +0x10: tcontrol 1
    EXPECT_EQ(f.unnamed_group->data[0].args[5], 0x55u);
    ASSERT_EQ(f.anmgroups.size(), 1u);
    const cas::AnmGroup& g = f.anmgroups[0];
    EXPECT_EQ(g.name.text, "player");
    ASSERT_EQ(g.mcanms.size(), 1u);
    const cas::Mcanm& m = g.mcanms[0];
    EXPECT_EQ(m.at, l.mc);
    EXPECT_EQ(m.name.text, "state");
    EXPECT_EQ(m.type, 2u);
    EXPECT_EQ(m.value, 1u);
    ASSERT_TRUE(m.first);
    EXPECT_EQ(m.first->at, l.first);
    EXPECT_EQ(m.first->value0, 5);
    EXPECT_EQ(m.first->time, 1.5f);
    EXPECT_EQ(m.first->value_a, std::bit_cast<uint32_t>(2.0f));
    EXPECT_EQ(m.first->tail, 0x11u);
    ASSERT_TRUE(m.first->group);
    ASSERT_EQ(m.first->group->data.size(), 1u);
    EXPECT_EQ(m.first->group->data[0].at, l.first_data);
    EXPECT_EQ(m.first->group->data[0].command, Commands(version)[1]);
    EXPECT_EQ(m.first->group->data[0].args[7], 108u);
    EXPECT_EQ(m.first->group->data[0].args_tail[3], version == cas::kVersion41 ? 0u : 112u);
    ASSERT_EQ(m.more.size(), 1u);
    EXPECT_EQ(m.more[0].at, l.more);
    EXPECT_EQ(m.more[0].tail, 0x22u);
    ASSERT_TRUE(m.more[0].group);
    EXPECT_TRUE(m.more[0].group->data.empty());
    ASSERT_TRUE(m.groups[0]);
    EXPECT_EQ(m.groups[0]->at, l.g0);
    EXPECT_FALSE(m.groups[1]);
    ASSERT_TRUE(m.groups[2]);
    EXPECT_EQ(m.groups[2]->at, l.g2);
  }
}

TEST(EdfCas, WritesBackByteForByteAndReEmitsTheStockOrder) {
  for (uint32_t version : kVersions) {
    SCOPED_TRACE(version);
    const Bytes bytes = BuildSet(version);
    test::ExpectByteExactRoundTrip(CasFormat(), bytes);
    const cas::File f = cas::Parse(bytes);
    EXPECT_EQ(cas::Serialize(f), bytes);
    EXPECT_EQ(cas::Emit(f), bytes);  // the hand-built set follows the stock order
  }
}

TEST(EdfCas, EmitLaysOutAnEditedSetAfresh) {
  cas::File f = cas::Parse(BuildSet(cas::kVersion5));
  f.tcontrols[0].words.push_back(1);  // walk: 3 words; everything after moves by 4
  const cas::File g = cas::Parse(cas::Emit(f));
  const Layout l = LayoutFor(cas::kDataSize);
  EXPECT_TRUE(g.damaged.empty());
  EXPECT_EQ(g.tcontrols[0].words, (std::vector<uint32_t>{1, 0, 1}));
  EXPECT_EQ(g.vcontrols[0].at, l.vc0 + 4);
  EXPECT_EQ(g.canm_offset % 16, 0u);
  EXPECT_EQ(g.canm_offset, Align16(l.tables_end + 4));
  EXPECT_EQ(g.anmgroups[0].mcanms[0].name.text, "state");
  EXPECT_EQ(g.bones[0].name.text, "Bone");
  EXPECT_EQ(g.canm_bytes, f.canm_bytes);
  EXPECT_EQ(g.strings, f.strings);
}

TEST(EdfCas, DecodesTheClipsWithTheSetsMetadata) {
  const Bytes bytes = BuildSet(cas::kVersion6);
  const auto doc = CasFormat().read(bytes, ReadContext{});
  const Scene scene = doc->Decode(DecodeContext{});
  ASSERT_EQ(scene.clips.size(), 2u);
  EXPECT_EQ(scene.clips[0].name, "a");
  EXPECT_TRUE(scene.clips[0].loop);
  EXPECT_FALSE(scene.clips[0].metadata["additive"].get<bool>());
  EXPECT_TRUE(scene.clips[1].metadata["additive"].get<bool>());
  EXPECT_FALSE(scene.clips[0].additive);
  ASSERT_TRUE(scene.clips[1].additive);  // b_add: deltas over the bind pose, translation included
  EXPECT_FALSE(scene.clips[1].additive->rotation_only);
  EXPECT_EQ(scene.clips[1].additive->reference, "");
  EXPECT_EQ(scene.metadata["cas_version"].get<double>(), double(cas::kVersion6));
  EXPECT_EQ(scene.metadata["cas"]["tcontrols"][0]["clips"][0].get<std::string>(), "b_add");
  EXPECT_EQ(scene.metadata["cas"]["players"][0]["states"][0].get<std::string>(), "state");
  const Value summary = doc->InfoSummary();
  EXPECT_EQ(summary["tables"]["tcontrols"]["count"].get<double>(), 2);
  EXPECT_EQ(summary["tables"]["anmgroups"]["offset"].get<double>(), double(LayoutFor(0x34).ag));
  const Value info = doc->Info();
  EXPECT_EQ(info["anmgroups"][0]["mcanms"][0]["first"]["tail"].get<double>(), 0x11);
  EXPECT_EQ(info["tcontrols"][1]["clips"][0].get<std::string>(), "a");
}

TEST(EdfCas, ConvertsTablesToEdf6FieldByField) {
  for (uint32_t version : {cas::kVersion41, cas::kVersion5}) {
    SCOPED_TRACE(version);
    cas::File f = cas::Parse(BuildSet(version));
    cas::ConvertTablesTo6(f);
    const Bytes out = cas::Emit(f);
    // The same set in EDF 6's layout, but the CANM kept (converted apart).
    const Layout l = LayoutFor(cas::kDataSize);
    ASSERT_EQ(out.size(), l.end);
    EXPECT_EQ(U32At(out, 4), cas::kVersion6);
    const cas::File g = cas::Parse(out);
    EXPECT_TRUE(g.damaged.empty());
    EXPECT_EQ(g.anmgroups[0].at, l.ag);
    EXPECT_EQ(g.canm_offset, l.canm);
    const cas::Data& u = g.unnamed_group->data[0];
    EXPECT_EQ(u.command, 0u);
    EXPECT_EQ(u.args[3], 1u);
    EXPECT_EQ(u.args[5], 0u);  // command 0 with +0x14 == 2: +0x18 zeroed
    EXPECT_EQ(u.args[6], 16u);
    const cas::Mcanm& m = g.anmgroups[0].mcanms[0];
    EXPECT_EQ(m.first->group->data[0].command, 8u);  // 4.1: 4 -> 6 -> 8; 5: 6 -> 8
    EXPECT_EQ(m.first->group->data[0].args[0], 101u);
    EXPECT_EQ(m.first->group->data[0].args_tail[0], version == cas::kVersion41 ? 0u : 109u);
    const cas::Data& d = m.groups[0]->data[0];
    if (version == cas::kVersion41) {
      EXPECT_EQ(d.command, 11u);  // 7 -> 9 -> 11
      EXPECT_EQ(d.args_tail, (std::array<uint32_t, 4>{}));
    } else {
      EXPECT_EQ(d.command, 2u);
      EXPECT_EQ(d.args_tail[0], 209u);
      EXPECT_EQ(d.args_tail[1], 0u);  // command 2: +0x28 zeroed
      EXPECT_EQ(d.args_tail[2], 211u);
    }
    EXPECT_EQ(m.first->tail, 0x11u);  // +0x14 == 1: kept
    EXPECT_EQ(m.more[0].tail, 0u);    // zeroed
    EXPECT_EQ(g.tcontrols[0].name.text, "walk");
    EXPECT_EQ(g.strings, cas::Parse(BuildSet(version)).strings);
  }
}

TEST(EdfCas, RefusesAnUnknownCommandWithItsOffset) {
  Bytes bytes = BuildSet(cas::kVersion5);
  const Layout l = LayoutFor(cas::kDataSize);
  PutU32(bytes, l.g0_data, 3);  // EDF 5 command 3: no EDF 6 number known
  cas::File f = cas::Parse(bytes);
  try {
    cas::ConvertTablesTo6(f);
    FAIL() << "converted an unknown command";
  } catch (const Error& e) {
    EXPECT_EQ(e.byte_offset(), l.g0_data);
  }
  EXPECT_EQ(cas::Command6(cas::kVersion41, 2), std::nullopt);  // 4.1 commands 2/3 are refused
  EXPECT_EQ(cas::Command6(cas::kVersion41, 27), 35u);
  EXPECT_EQ(cas::Command6(cas::kVersion5, 33), 35u);
}

TEST(EdfCas, ReportsAMisalignedCanm) {
  const Bytes bytes = BuildSet(cas::kVersion6);
  cas::File f = cas::Parse(bytes);
  Bytes moved(bytes.begin(), bytes.begin() + f.canm_offset);
  moved.insert(moved.end(), 4, 0);
  moved.insert(moved.end(), bytes.begin() + f.canm_offset, bytes.end());
  f.canm_offset += 4;
  for (auto& t : f.tcontrols) t.name_offset += 4;
  for (auto& v : f.vcontrols) v.name_offset += 4;
  for (auto& b : f.bones) b.name_offset += 4;
  f.anmgroups[0].name_offset += 4;
  f.anmgroups[0].mcanms[0].name_offset += 4;
  f.image = moved;
  const cas::File g = cas::Parse(cas::Serialize(f));
  ASSERT_EQ(g.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(g.warnings[0], "not 16-aligned")) << g.warnings[0];
  EXPECT_TRUE(g.damaged.empty());
  EXPECT_EQ(g.tcontrols[1].name.text, "idle");
}

// Every prefix is an error naming an offset, or a set whose damaged parts name theirs.
TEST(EdfCas, EveryTruncationIsAnErrorOrDamageWithAnOffset) {
  for (uint32_t version : kVersions) {
    const Bytes bytes = BuildSet(version);
    for (size_t n = 0; n < bytes.size(); ++n) {
      SCOPED_TRACE(n);
      const ByteView prefix(bytes.data(), n);
      try {
        const cas::File f = cas::Parse(prefix);
        ASSERT_FALSE(f.damaged.empty());
        EXPECT_TRUE(test::Has(f.damaged.front(), "0x")) << f.damaged.front();
      } catch (const Error& e) {
        EXPECT_TRUE(e.byte_offset().has_value()) << e.what();
      }
    }
  }
}

TEST(EdfCas, CorruptCountsAndOffsetsAreDamageWithOffsets) {
  const Bytes good = BuildSet(cas::kVersion5);
  const Layout l = LayoutFor(cas::kDataSize);
  struct Case {
    size_t at;
    uint32_t value;
    const char* part;
  };
  const Case cases[] = {{0x0C, 0xFFFFFFFF, "tcontrol table"}, {0x10, 0xFFFFFF00, "tcontrol table"},
                        {0x14, 0x10000000, "vcontrol table"}, {0x1C, 0x7FFFFFFF, "anmgroup table"},
                        {0x24, 0xFFFFFFFF, "bone table"},     {0x2C, 0xFFFFFFF0, "unnamed datagroup"},
                        {l.tc0 + 4, 0x40000000, "tcontrol 0"}, {l.tc1 + 8, 0x7FFFFFF0, "tcontrol 1"},
                        {l.ag + 4, 0xFFFFFFFF, "anmgroup 0"},  {l.mc + 8, 0x10000000, "mcanm 0"},
                        {l.g0, 0x10000000, "mcanm 0"},         {l.first + 8, 0x80000000, "mcanm 0"},
                        {l.tc0, 0x7FFFFFFF, "tcontrol 0"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.part);
    Bytes bad = good;
    PutU32(bad, c.at, c.value);
    const cas::File f = cas::Parse(bad);
    ASSERT_EQ(f.damaged.size(), 1u);
    EXPECT_TRUE(test::Has(f.damaged[0], c.part)) << f.damaged[0];
    EXPECT_TRUE(test::Has(f.damaged[0], "0x")) << f.damaged[0];
    EXPECT_EQ(cas::Serialize(f), bad);  // the damaged part's bytes are kept
    EXPECT_TRUE(f.canm);                // the rest reads
  }
  Bytes bad = good;
  PutU32(bad, 8, uint32_t(good.size()));  // the CANM offset past the end: the header is an error
  EXPECT_TRUE(test::Has(test::ReadError(CasFormat(), bad), "0x8")) << test::ReadError(CasFormat(), bad);
  PutU32(bad, 4, 0x205);
  EXPECT_TRUE(test::Has(test::ReadError(CasFormat(), bad), "unknown CAS version"));
}

// Two tcontrols whose words are the whole file: records shared beyond the file's size are
// refused before they are allocated (a set of N tables over one array would cost N times).
TEST(EdfCas, SharedRecordsCannotOutgrowTheFile) {
  Bytes bad = BuildSet(cas::kVersion6);
  const Layout l = LayoutFor(cas::kDataSize);
  const uint32_t words = uint32_t(bad.size() / 4);
  PutU32(bad, l.tc0 + 4, words), PutU32(bad, l.tc0 + 8, uint32_t(-int32_t(l.tc0)));
  PutU32(bad, l.tc1 + 4, words), PutU32(bad, l.tc1 + 8, uint32_t(-int32_t(l.tc1)));
  const cas::File f = cas::Parse(bad);
  ASSERT_FALSE(f.damaged.empty());  // tcontrol 1, then what the exhausted file can no longer hold
  EXPECT_TRUE(test::Has(f.damaged[0], "tcontrol 1")) << f.damaged[0];
  EXPECT_TRUE(test::Has(f.damaged[0], "outgrow")) << f.damaged[0];
  EXPECT_EQ(f.tcontrols[0].words.size(), words);
  EXPECT_EQ(cas::Serialize(f), bad);
}

// ---------------------------------------------------------------- encoding

Clip TestClip(const std::string& name, float x) {
  Clip c;
  c.name = name;
  c.SetFrames(3, 30);
  JointTrack t;
  t.joint = "Bone";
  for (int i = 0; i < 3; ++i) {
    t.translation.Add(i / 30.0, Vec3{x + float(i), 0, 1});
    t.rotation.Add(i / 30.0, QuatXYZW{0, 0, 0, 1});
  }
  c.tracks.push_back(t);
  return c;
}

// A set made by the encoder without a template: clips "a", "b", "c"; the tcontrols then get
// words edited so that "b" is referenced twice.
Bytes ThreeClipSet() {
  Scene scene;
  scene.clips = {TestClip("a", 0), TestClip("b", 10), TestClip("c", 20)};
  EncodeContext context;
  const auto doc = CasFormat().encode(scene, context);
  return doc->Write();
}

struct Encoded {
  Bytes bytes;
  std::vector<std::string> warnings;
};

Encoded EncodeOver(const Bytes& templ_bytes, const Scene& scene, const std::string& clip = {}) {
  const auto templ_doc = CasFormat().read(templ_bytes, ReadContext{});
  EncodeTemplate templ{"t.cas", templ_bytes, templ_doc.get()};
  EncodeContext context;
  context.templ = &templ;
  context.template_clip = clip;
  const auto doc = CasFormat().encode(scene, context);
  return {doc->Write(), context.warnings};
}

TEST(EdfCas, WritesAMinimalSetAroundTheClips) {
  const cas::File f = cas::Parse(ThreeClipSet());
  EXPECT_TRUE(f.damaged.empty());
  EXPECT_EQ(f.version, cas::kVersion6);
  EXPECT_EQ(f.canm->version, edf_canm::kVersion6);
  EXPECT_EQ(f.canm_offset % 16, 0u);
  ASSERT_EQ(f.tcontrols.size(), 3u);
  EXPECT_EQ(f.tcontrols[2].name.text, "c");
  EXPECT_EQ(f.tcontrols[2].words, (std::vector<uint32_t>{2}));
  EXPECT_TRUE(f.unnamed_group && f.unnamed_group->data.empty());
  EXPECT_EQ(cas::Emit(f), ThreeClipSet());  // its own layout is the stock order
}

TEST(EdfCas, AnUneditedRoundTripThroughTheEncoderIsByteIdentical) {
  const Bytes set = ThreeClipSet();
  const Scene scene = CasFormat().read(set, ReadContext{})->Decode(DecodeContext{});
  EXPECT_EQ(EncodeOver(set, scene).bytes, set);
  Scene one;
  one.clips = {scene.clips[1]};
  EXPECT_EQ(EncodeOver(set, one, "b").bytes, set);
}

TEST(EdfCas, ReplacingOneClipKeepsItsIndexAndEveryTable) {
  const Bytes set = ThreeClipSet();
  const cas::File before = cas::Parse(set);
  Scene edited;
  edited.clips = {TestClip("whatever", 50)};
  const Encoded out = EncodeOver(set, edited, "b");
  const cas::File after = cas::Parse(out.bytes);
  EXPECT_TRUE(after.damaged.empty());
  ASSERT_EQ(after.canm->animations.size(), 3u);
  EXPECT_EQ(after.canm->animations[1].name, "b");
  EXPECT_EQ(after.canm_offset, before.canm_offset);
  // Every byte before the CANM but the name offsets (moved by the CANM's new size) is kept.
  const Scene decoded = CasFormat().read(out.bytes, ReadContext{})->Decode(DecodeContext{});
  EXPECT_NEAR(decoded.clips[1].tracks[0].translation.values[0].x, 50, 1e-3);
  EXPECT_NEAR(decoded.clips[2].tracks[0].translation.values[0].x, 20, 1e-3);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(after.tcontrols[i].at, before.tcontrols[i].at);
    EXPECT_EQ(after.tcontrols[i].words, before.tcontrols[i].words);
    EXPECT_EQ(after.tcontrols[i].name.text, before.tcontrols[i].name.text);
  }
  EXPECT_EQ(after.strings, before.strings);
}

TEST(EdfCas, AddingAndRemovingClipsKeepsTheIndexContract) {
  const Bytes set = ThreeClipSet();
  const Scene scene = CasFormat().read(set, ReadContext{})->Decode(DecodeContext{});
  Scene added = scene;
  added.clips.push_back(TestClip("d", 30));
  const cas::File with_d = cas::Parse(EncodeOver(set, added).bytes);
  ASSERT_EQ(with_d.canm->animations.size(), 4u);
  EXPECT_EQ(with_d.canm->animations[3].name, "d");
  EXPECT_EQ(with_d.tcontrols[2].words, (std::vector<uint32_t>{2}));

  Scene removed = scene;
  removed.clips.erase(removed.clips.begin() + 1);  // without "b"
  const Encoded out = EncodeOver(set, removed);
  const cas::File without_b = cas::Parse(out.bytes);
  ASSERT_EQ(without_b.canm->animations.size(), 2u);
  EXPECT_EQ(without_b.canm->animations[1].name, "c");
  EXPECT_EQ(without_b.tcontrols[0].words, (std::vector<uint32_t>{0}));
  EXPECT_EQ(without_b.tcontrols[1].words, (std::vector<uint32_t>{0xFFFFFFFFu}));
  EXPECT_EQ(without_b.tcontrols[2].words, (std::vector<uint32_t>{1}));  // c moved down
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_TRUE(test::Has(out.warnings[0], "tcontrol 'b'")) << out.warnings[0];
  EXPECT_TRUE(test::Has(out.warnings[0], "removed clip 1 'b'")) << out.warnings[0];
}

TEST(EdfCas, ConvertsAnEdf5SetWithTheEdfVersionOption) {
  const auto dir = test::TempDir("edf_cas_convert");
  const Bytes old = BuildSet(cas::kVersion5);
  WriteFileAtomic((dir / "old.cas").string(), old);
  ConvertRequest request;
  request.input = (dir / "old.cas").string();
  request.output = (dir / "new.cas").string();
  request.options.Set("edf-version", "6");
  const ConvertResult r = Convert(request);
  EXPECT_EQ(r.input_format, &CasFormat());
  const cas::File g = cas::Parse(ReadFileBytes(request.output));
  EXPECT_TRUE(g.damaged.empty());
  EXPECT_EQ(g.version, cas::kVersion6);
  ASSERT_TRUE(g.canm);
  EXPECT_EQ(g.canm->version, edf_canm::kVersion6);
  EXPECT_EQ(g.canm->animations[1].name, "b_add");
  EXPECT_EQ(g.anmgroups[0].at, LayoutFor(cas::kDataSize).ag);
  EXPECT_EQ(g.anmgroups[0].mcanms[0].first->group->data[0].command, 8u);
  EXPECT_EQ(g.strings, cas::Parse(old).strings);
  // The CANM as the CANM's own converter gives it, at the 16-aligned offset after the tables.
  EXPECT_EQ(g.canm_bytes, edf_canm::Serialize(edf_canm::ConvertTo768(*cas::Parse(old).canm)));
  EXPECT_EQ(g.canm_offset, LayoutFor(cas::kDataSize).canm);
  // Written again as EDF 6: nothing to convert, the same bytes.
  WriteFileAtomic((dir / "again.cas").string(), ReadFileBytes(request.output));
  request.input = (dir / "again.cas").string();
  request.output = (dir / "again6.cas").string();
  (void)Convert(request);
  EXPECT_EQ(ReadFileBytes(request.output), ReadFileBytes((dir / "again.cas").string()));
  // --clip with a set as input and output: the set with that clip alone, the other reported.
  request.output = (dir / "one.cas").string();
  request.clip = "a";
  const ConvertResult one = Convert(request);
  const cas::File h = cas::Parse(ReadFileBytes(request.output));
  ASSERT_EQ(h.canm->animations.size(), 1u);
  EXPECT_EQ(h.tcontrols[0].words, (std::vector<uint32_t>{0xFFFFFFFFu, 0}));  // walk: b_add removed, a kept
  EXPECT_EQ(one.warnings.size(), 1u);
}

}  // namespace
}  // namespace animkit
