// Big-endian bytes written by hand for the ANCS, EVNT and PAK tests (not through the writers
// under test), and a small character's side files.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/metroid_ancs.hpp>

#include <bit>
#include <cstdint>
#include <map>
#include <string>

namespace animkit::test {

struct BigBytes {
  Bytes b;
  BigBytes& U8(uint8_t v) { return b.push_back(v), *this; }
  BigBytes& U16(uint16_t v) { return b.insert(b.end(), {uint8_t(v >> 8), uint8_t(v)}), *this; }
  BigBytes& U32(uint32_t v) {
    return b.insert(b.end(), {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)}), *this;
  }
  BigBytes& F32(float v) { return U32(std::bit_cast<uint32_t>(v)); }
  BigBytes& Str(const char* s) {
    for (; *s; ++s) b.push_back(static_cast<uint8_t>(*s));
    return U8(0);
  }
  BigBytes& Magic(const char* s) {
    for (; *s; ++s) b.push_back(static_cast<uint8_t>(*s));
    return *this;
  }
  BigBytes& Box() {
    for (int i = 0; i < 6; ++i) F32(float(i));
    return *this;
  }
  // A Play meta-animation: type 0, ANIM id, primitive index, name, CCharAnimTime start.
  BigBytes& Play(uint32_t anim_id, const char* name) { return U32(0).U32(anim_id).U32(0).Str(name).F32(0).U32(0); }
};


// An MP1 ANCS per §2: one character of table count 5 (two animation names, a PAS state of
// an f32 and a bool parameter, one PART, an action box, an effect, the overlay, an index
// list), then an animation set of table count 4: "idle" a Play of ANIM 0x100, "walk" a
// Random over a Play of 0x101 and a Blend; a Trans transition, a Snap default, an additive,
// a half transition and one ANIM/EVNT pair.
inline Bytes HandMp1(uint16_t table_count = 5) {
  BigBytes w;
  w.U16(1).U16(1).U32(1);
  w.U32(0).U16(table_count).Str("Samus").U32(0xAAAA0001).U32(0xBBBB0002).U32(0x10);
  w.U32(2).U32(0).Str("").Str("idle").U32(1).Str("").Str("walk");
  w.Magic("PAS4").U32(1).U32(0);
  w.U32(7).U32(2).U32(1);
  w.U32(2).U32(0).F32(1).F32(0).F32(1);  // f32 parameter
  w.U32(3).U32(3).F32(0.5f).U8(0).U8(1);  // bool parameter: one byte each
  w.U32(1).F32(0.5f).U8(1);
  w.U32(1).U32(0x1234).U32(0).U32(0);  // PART, SWHC, third
  if (table_count > 5) w.U32(0);       // ELSC
  w.U32(1);                            // unknown
  w.U32(1).Str("idle").Box();
  w.U32(1).Str("Sparks").U32(1).Str("c").U32(0x50415254).U32(0x1234).Str("R_hand").F32(1).U32(0).U32(0);
  w.U32(0).U32(0);  // overlay (MP1 none = 0)
  w.U32(1).U32(0);
  // animation set
  w.U16(4).U32(2);
  w.Str("idle").Play(0x100, "idle_prim");
  w.Str("walk").U32(3).U32(2).Play(0x101, "walk_prim").U32(50);
  w.U32(1).Play(0x102, "a").Play(0x103, "b").F32(0.5f).U8(0).U32(100);
  w.U32(1).U32(0).U32(0).U32(1).U32(1).F32(0.25f).U32(0).U8(0).U8(1).U32(0);  // Trans
  w.U32(3);                                                                  // default: Snap
  w.U32(1).U32(1).F32(0.1f).F32(0.2f).F32(0.3f).F32(0.4f);                   // additives + default
  w.U32(1).U32(0).U32(0).Play(0x100, "half");                                // half transition: MetaAnim
  w.U32(1).U32(0x100).U32(0x200);
  return w.b;
}

// The side files of HandMp1's character, through the project's own CINF and ANIM writers.
inline std::map<std::string, Bytes> SideFiles(const Bytes& evnt) {
  metroid::CinfFile cinf;
  cinf.bones.push_back({.id = 3, .parent = metroid::kNoParent, .origin = {0, 0, 0}, .linked = {}});
  cinf.bones.push_back({.id = 4, .parent = 3, .origin = {0, 1, 0}, .linked = {3}});
  cinf.bone_ids = {3, 4};
  cinf.names = {{"root", 3}, {"spine", 4}};
  auto anim = [](uint32_t evnt_id) {
    metroid::AnimFile f;
    f.version = 0;
    f.v0.duration = 1.0f / 30;
    f.v0.frame_count = 2;
    f.v0.bone_table = {0xFF, 0xFF, 0xFF, 0xFF, 0};  // bone 4 -> channel 0
    f.v0.translation_table = {0xFF};
    f.v0.rotations = {{1, 0, 0, 0}, {1, 0, 0, 0}};
    f.v0.evnt_id = evnt_id;
    return metroid::SerializeAnim(f);
  };
  return {{"00000010.CINF", metroid::SerializeCinf(cinf)},
          {"00000100.ANIM", anim(0xFFFFFFFF)},  // no id in the ANIM: the ANCS's pair names 0x200
          {"00000101.ANIM", anim(0xFFFFFFFF)},
          {"00000200.EVNT", evnt}};
}

inline Bytes OneLoopEvnt() {
  BigBytes w;
  w.U32(1).U32(1);
  w.U16(1).Str("Loop").U16(metroid_ancs::kLoop).F32(0.25f).U32(0).U32(0xFFFFFFFF).U8(0).F32(1).U32(0xFFFFFFFF).U32(0).U8(1);
  w.U32(0).U32(0);
  return w.b;
}

}  // namespace animkit::test
