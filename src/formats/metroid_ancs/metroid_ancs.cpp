// The ANCS character set: characters (names, ids, animation names, PAS database, particle
// lists, action boxes, effects, overlay), then the animation set; MP1 or MP2 by the first
// character's table count.
#include <animkit/formats/metroid_ancs.hpp>

#include "metroid_ancs_fields.hpp"

namespace animkit::metroid_ancs {

namespace {

constexpr char kPasMagic[] = "PAS4";
constexpr uint32_t kPasBool = 3;

uint32_t ReadPasValue(ByteReader& r, uint32_t type) { return type == kPasBool ? r.U8("a PAS bool") : r.U32("a PAS value"); }
void WritePasValue(ByteWriter& w, uint32_t type, uint32_t v) {
  if (type == kPasBool)
    w.U8(static_cast<uint8_t>(v));
  else
    w.U32(v);
}

PasDatabase ReadPas(ByteReader& r) {
  PasDatabase p;
  r.Magic(kPasMagic);
  const size_t n = ReadCount(r, fields::Size(kPasStateHead), "PAS states");
  fields::ReadAll(r, p, kPasDefault);
  p.states.resize(n);
  for (PasState& s : p.states) {
    fields::ReadAll(r, s.head, kPasStateHead);
    r.Count(s.head.parameter_count, fields::Size(kPasParameterHead) + 2, "PAS parameters");
    s.parameters.resize(s.head.parameter_count);
    for (PasParameter& q : s.parameters) {
      PasParameterHead h;
      fields::ReadAll(r, h, kPasParameterHead);
      q.type = h.type, q.weight_function = h.weight_function, q.weight = h.weight;
      q.min = ReadPasValue(r, q.type);
      q.max = ReadPasValue(r, q.type);
    }
    r.Count(s.head.animation_count, 4, "PAS animations");
    s.animations.resize(s.head.animation_count);
    for (PasAnimation& a : s.animations) {
      fields::ReadAll(r, a, kPasAnimationIndex);
      for (const PasParameter& q : s.parameters) a.values.push_back(ReadPasValue(r, q.type));
    }
  }
  return p;
}

void WritePas(ByteWriter& w, const PasDatabase& p) {
  w.Append(ByteView(reinterpret_cast<const uint8_t*>(kPasMagic), 4));
  WriteCount(w, p.states.size());
  fields::WriteAll(w, p, kPasDefault);
  for (const PasState& s : p.states) {
    if (s.head.parameter_count != s.parameters.size() || s.head.animation_count != s.animations.size())
      throw Error::General("a PAS state's counts differ from its lists");
    fields::WriteAll(w, s.head, kPasStateHead);
    for (const PasParameter& q : s.parameters) {
      fields::WriteAll(w, PasParameterHead{q.type, q.weight_function, q.weight}, kPasParameterHead);
      WritePasValue(w, q.type, q.min);
      WritePasValue(w, q.type, q.max);
    }
    for (const PasAnimation& a : s.animations) {
      if (a.values.size() != s.parameters.size()) throw Error::General("a PAS animation needs one value per parameter");
      fields::WriteAll(w, a, kPasAnimationIndex);
      for (size_t i = 0; i < a.values.size(); ++i) WritePasValue(w, s.parameters[i].type, a.values[i]);
    }
  }
}

void ReadEffects(ByteReader& r, Character& c, Game game) {
  c.effects.resize(ReadCount(r, 5, "effects"));
  const size_t bone = game == Game::Mp1 ? 1 : 4;
  for (Effect& e : c.effects) {
    e.name = r.CString("an effect name");
    e.components.resize(ReadCount(r, 1 + 8 + bone + fields::Size(kEffectComponentTail), "effect components"));
    for (EffectComponent& k : e.components) {
      k.name = r.CString("an effect component's name");
      fields::ReadAll(r, k.particle, kObjectTag);
      if (game == Game::Mp1)
        k.locator = r.CString("an effect component's locator");
      else
        k.bone_id = r.U32("an effect component's bone id");
      fields::ReadAll(r, k.tail, kEffectComponentTail);
    }
  }
}

void WriteEffects(ByteWriter& w, const Character& c, Game game) {
  WriteCount(w, c.effects.size());
  for (const Effect& e : c.effects) {
    w.CString(e.name);
    WriteCount(w, e.components.size());
    for (const EffectComponent& k : e.components) {
      w.CString(k.name);
      fields::WriteAll(w, k.particle, kObjectTag);
      if (game == Game::Mp1)
        w.CString(k.locator);
      else
        w.U32(k.bone_id);
      fields::WriteAll(w, k.tail, kEffectComponentTail);
    }
  }
}

// What follows the PAS database: particle lists and the parts the table count gates.
void ReadCharacterTail(ByteReader& r, Character& c, Game game) {
  const uint16_t tc = c.table_count;
  c.part = ReadIdList(r, "PART ids");
  c.swhc = ReadIdList(r, "SWHC ids");
  c.third = ReadIdList(r, "the third particle list");
  if (tc > 5) c.elsc = ReadIdList(r, "ELSC ids");
  if (game == Game::Mp2 && tc > 8) {
    c.spsc = ReadIdList(r, "SPSC ids");
    c.srsc = ReadIdList(r, "SRSC ids");
  }
  fields::ReadAll(r, c, kCharacterUnknown);
  if (tc > 1) {
    c.action_boxes.resize(ReadCount(r, 1 + fields::Size(kAabb), "action boxes"));
    for (ActionBox& b : c.action_boxes) {
      b.name = r.CString("an action box's animation name");
      fields::ReadAll(r, b.box, kAabb);
    }
  }
  if (tc > 2) ReadEffects(r, c, game);
  if (tc > 3) {
    OverlayIds o;
    fields::ReadAll(r, o, kOverlay);
    c.overlay_model = o.model, c.overlay_skin = o.skin;
  }
  if (tc > 4) c.anim_indices = ReadIdList(r, "animation indices");
  if (game == Game::Mp2 && tc > 6) c.cspp = r.U32("the CSPP id");
  if (game == Game::Mp2 && tc > 7) c.animated_scale = r.U8("the animated-scale flag");
  if (game == Game::Mp2 && tc > 9) {
    c.indexed_boxes =
        fields::ReadTable<IndexedBox>(r, ReadCount(r, fields::Size(kIndexedBox), "indexed action boxes"), kIndexedBox,
                                      "indexed action boxes");
  }
}

Character ReadCharacter(ByteReader& r, Game game) {
  Character c;
  fields::ReadAll(r, c, kCharacterHead);
  c.name = r.CString("a character name");
  fields::ReadAll(r, c.ids, kCharacterIds);
  c.animations.resize(ReadCount(r, game == Game::Mp1 ? 6 : 5, "animation names"));
  for (AnimationName& a : c.animations) {
    fields::ReadAll(r, a, kAnimationNameIndex);
    if (game == Game::Mp1) a.unused = r.CString("an animation name's first string");
    a.name = r.CString("an animation name");
  }
  c.pas = ReadPas(r);
  ReadCharacterTail(r, c, game);
  return c;
}

void WriteCharacter(ByteWriter& w, const Character& c, Game game) {
  const uint16_t tc = c.table_count;
  fields::WriteAll(w, c, kCharacterHead);
  w.CString(c.name);
  fields::WriteAll(w, c.ids, kCharacterIds);
  WriteCount(w, c.animations.size());
  for (const AnimationName& a : c.animations) {
    fields::WriteAll(w, a, kAnimationNameIndex);
    if (game == Game::Mp1) w.CString(a.unused);
    w.CString(a.name);
  }
  WritePas(w, c.pas);
  WriteIdList(w, c.part);
  WriteIdList(w, c.swhc);
  WriteIdList(w, c.third);
  if (tc > 5) WriteIdList(w, c.elsc);
  if (game == Game::Mp2 && tc > 8) WriteIdList(w, c.spsc), WriteIdList(w, c.srsc);
  fields::WriteAll(w, c, kCharacterUnknown);
  if (tc > 1) {
    WriteCount(w, c.action_boxes.size());
    for (const ActionBox& b : c.action_boxes) w.CString(b.name), fields::WriteAll(w, b.box, kAabb);
  }
  if (tc > 2) WriteEffects(w, c, game);
  if (tc > 3) fields::WriteAll(w, OverlayIds{c.overlay_model, c.overlay_skin}, kOverlay);
  if (tc > 4) WriteIdList(w, c.anim_indices);
  if (game == Game::Mp2 && tc > 6) w.U32(c.cspp);
  if (game == Game::Mp2 && tc > 7) w.U8(c.animated_scale);
  if (game == Game::Mp2 && tc > 9) fields::WriteCounted(w, c.indexed_boxes, kIndexedBox);
}

constexpr const char* GameName(Game g) { return g == Game::Mp1 ? "MP1" : "MP2"; }

// The documented rule: MP2 files give their characters table count 10, MP1's 1 to 6.
Game GameByRule(ByteView data) {
  // u16 version, u16 set table count, u32 count, u32 first id, u16 first table count.
  if (data.size() < 14) return Game::Mp1;
  const uint32_t count = be::Load32(data.data() + 4);
  const uint16_t tc = be::Load16(data.data() + 12);
  return count > 0 && tc > 6 ? Game::Mp2 : Game::Mp1;
}

}  // namespace

AncsFile ParseAncs(ByteView data, Game game) {
  ByteReader r(data, Endian::Big);
  AncsFile f;
  f.game = game;
  fields::ReadAll(r, f, kAncsHeader);
  f.characters.resize(ReadCount(r, 4 + 2 + 1 + 12 + 4 + 12, "characters"));
  for (Character& c : f.characters) c = ReadCharacter(r, game);
  f.animation_set = ReadAnimationSet(r, game);
  const ByteView rest = r.Take(r.remaining(), "the trailing bytes");
  f.trailing.assign(rest.begin(), rest.end());
  return f;
}

AncsFile ParseAncs(ByteView data) {
  const Game game = GameByRule(data);
  try {
    return ParseAncs(data, game);
  } catch (const Error& first) {
    const Game other = game == Game::Mp1 ? Game::Mp2 : Game::Mp1;
    AncsFile f;
    try {
      f = ParseAncs(data, other);
    } catch (const Error&) {
      throw first;  // the rule's reading names what went wrong
    }
    f.warnings.push_back(std::string("read as ") + GameName(other) + ": the table count rule chose " + GameName(game) +
                         ", which failed (" + first.what() + ")");
    return f;
  }
}

Bytes SerializeAncs(const AncsFile& f) {
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, f, kAncsHeader);
  WriteCount(w, f.characters.size());
  for (const Character& c : f.characters) WriteCharacter(w, c, f.game);
  WriteAnimationSet(w, f.animation_set, f.game);
  w.Append(f.trailing);
  return w.Take();
}

Value CharacterValue(const Character& c, const AnimationSet& set, Game game) {
  Value anims = Value::array();
  for (const AnimationName& a : c.animations) {
    Value v = {{"name", a.name}};
    fields::Describe(v, a, kAnimationNameIndex);
    if (a.index < set.animations.size()) {
      if (const MetaAnim* play = FirstPlay(set.animations[a.index].anim)) v["anim_id"] = play->play.anim_id;
    }
    anims.push_back(std::move(v));
  }
  Value pas = Value::array();
  for (const PasState& s : c.pas.states) {
    Value v = Value::object();
    fields::Describe(v, s.head, kPasStateHead);
    pas.push_back(std::move(v));
  }
  Value boxes = Value::array(), effects = Value::array();
  for (const ActionBox& b : c.action_boxes) {
    Value v = {{"name", b.name}};
    fields::Describe(v, b.box, kAabb);
    boxes.push_back(std::move(v));
  }
  for (const Effect& e : c.effects) {
    Value comps = Value::array();
    for (const EffectComponent& k : e.components) {
      Value v = {{"name", k.name}, {"particle_type", k.particle.fourcc}, {"particle_id", k.particle.id}};
      if (game == Game::Mp1)
        v["locator"] = k.locator;
      else
        v["bone_id"] = k.bone_id;
      fields::Describe(v, k.tail, kEffectComponentTail);
      comps.push_back(std::move(v));
    }
    effects.push_back({{"name", e.name}, {"components", std::move(comps)}});
  }
  Value v = {{"name", c.name}, {"animations", std::move(anims)}, {"pas_states", std::move(pas)},
             {"part", c.part}, {"swhc", c.swhc}, {"third_particle_list", c.third},
             {"action_boxes", std::move(boxes)}, {"effects", std::move(effects)}};
  fields::Describe(v, c, kCharacterHead);
  fields::Describe(v, c.ids, kCharacterIds);
  fields::Describe(v, c.pas, kPasDefault);
  fields::Describe(v, c, kCharacterUnknown);
  if (c.table_count > 5) v["elsc"] = c.elsc;
  if (c.table_count > 3) fields::Describe(v, OverlayIds{c.overlay_model, c.overlay_skin}, kOverlay);
  if (c.table_count > 4) v["anim_indices"] = c.anim_indices;
  if (game == Game::Mp2) {
    if (c.table_count > 8) v["spsc"] = c.spsc, v["srsc"] = c.srsc;
    if (c.table_count > 6) v["cspp"] = c.cspp;
    if (c.table_count > 7) v["animated_scale"] = c.animated_scale;
    if (c.table_count > 9) v["indexed_boxes"] = fields::DescribeTable(c.indexed_boxes, kIndexedBox);
  }
  return v;
}

}  // namespace animkit::metroid_ancs
