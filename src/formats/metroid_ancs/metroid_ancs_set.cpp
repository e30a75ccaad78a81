// The ANCS animation set: meta-animations and meta-transitions (trees, read with a depth
// cap), transitions, additive animations, half transitions and MP1's ANIM/EVNT list or
// MP2's event sets.
#include <animkit/formats/metroid_ancs.hpp>

#include "metroid_ancs_fields.hpp"

namespace animkit::metroid_ancs {

namespace {

constexpr size_t kMinMeta = 4;  // a type word

void CheckDepth(const ByteReader& r, size_t depth, std::string_view what) {
  if (depth >= kMaxMetaDepth)
    r.Fail(std::string(what) + " nests deeper than " + std::to_string(kMaxMetaDepth) + " levels");
}

MetaAnim ReadMetaAnim(ByteReader& r, size_t depth) {
  CheckDepth(r, depth, "a meta-animation");
  MetaAnim m;
  const size_t at = r.tell();
  fields::ReadAll(r, m, kMetaAnimType);
  switch (m.type) {
    case kPlay:
      fields::ReadAll(r, m.play, kPlayFields);
      m.name = r.CString("a Play meta-animation's name");
      fields::ReadAll(r, m.start, kCharAnimTime);
      break;
    case kBlend:
    case kPhaseBlend:
      m.children.push_back(ReadMetaAnim(r, depth + 1));
      m.children.push_back(ReadMetaAnim(r, depth + 1));
      fields::ReadAll(r, m.blend, kBlendFields);
      break;
    case kRandom: {
      const size_t n = ReadCount(r, kMinMeta + 4, "random meta-animation children");
      for (size_t i = 0; i < n; ++i) {
        m.children.push_back(ReadMetaAnim(r, depth + 1));
        m.thresholds.push_back(r.U32("a random child's threshold"));
      }
      break;
    }
    case kSequence: {
      const size_t n = ReadCount(r, kMinMeta, "sequence meta-animation children");
      for (size_t i = 0; i < n; ++i) m.children.push_back(ReadMetaAnim(r, depth + 1));
      break;
    }
    default:
      r.FailAt(at, "expected a meta-animation type 0 to 4, found " + std::to_string(m.type));
  }
  return m;
}

void WriteMetaAnim(ByteWriter& w, const MetaAnim& m) {
  fields::WriteAll(w, m, kMetaAnimType);
  switch (m.type) {
    case kPlay:
      fields::WriteAll(w, m.play, kPlayFields);
      w.CString(m.name);
      fields::WriteAll(w, m.start, kCharAnimTime);
      break;
    case kBlend:
    case kPhaseBlend:
      if (m.children.size() != 2) throw Error::General("a blend meta-animation needs two children");
      WriteMetaAnim(w, m.children[0]);
      WriteMetaAnim(w, m.children[1]);
      fields::WriteAll(w, m.blend, kBlendFields);
      break;
    case kRandom:
      if (m.thresholds.size() != m.children.size()) throw Error::General("a random meta-animation needs one threshold per child");
      WriteCount(w, m.children.size());
      for (size_t i = 0; i < m.children.size(); ++i) {
        WriteMetaAnim(w, m.children[i]);
        w.U32(m.thresholds[i]);
      }
      break;
    case kSequence:
      WriteCount(w, m.children.size());
      for (const MetaAnim& c : m.children) WriteMetaAnim(w, c);
      break;
    default:
      throw Error::General("no meta-animation type " + std::to_string(m.type));
  }
}

MetaTrans ReadMetaTrans(ByteReader& r) {
  MetaTrans t;
  const size_t at = r.tell();
  fields::ReadAll(r, t, kMetaTransType);
  switch (t.type) {
    case kTransMetaAnim: t.anim.push_back(ReadMetaAnim(r, 1)); break;
    case kTrans:
    case kPhaseTrans: fields::ReadAll(r, t.trans, kTransFields); break;
    case kSnap: break;
    default: r.FailAt(at, "expected a meta-transition type 0 to 3, found " + std::to_string(t.type));
  }
  return t;
}

void WriteMetaTrans(ByteWriter& w, const MetaTrans& t) {
  fields::WriteAll(w, t, kMetaTransType);
  if (t.type == kTransMetaAnim) {
    if (t.anim.size() != 1) throw Error::General("a meta-animation transition needs one meta-animation");
    WriteMetaAnim(w, t.anim[0]);
  } else if (t.type == kTrans || t.type == kPhaseTrans) {
    fields::WriteAll(w, t.trans, kTransFields);
  }
}

Value MetaAnimValue(const MetaAnim& m) {
  static constexpr const char* kNames[] = {"play", "blend", "phase_blend", "random", "sequence"};
  Value v = {{"type", m.type < 5 ? kNames[m.type] : "unknown"}};
  if (m.type == kPlay) {
    fields::Describe(v, m.play, kPlayFields);
    v["name"] = m.name;
    v["start"] = m.start.seconds;
    v["start_state"] = m.start.state;
    return v;
  }
  if (m.type == kBlend || m.type == kPhaseBlend) fields::Describe(v, m.blend, kBlendFields);
  if (m.type == kRandom) v["thresholds"] = m.thresholds;
  Value children = Value::array();
  for (const MetaAnim& c : m.children) children.push_back(MetaAnimValue(c));
  v["children"] = std::move(children);
  return v;
}

Value MetaTransValue(const MetaTrans& t) {
  static constexpr const char* kNames[] = {"meta_animation", "trans", "phase_trans", "snap"};
  Value v = {{"type", t.type < 4 ? kNames[t.type] : "unknown"}};
  if (t.type == kTransMetaAnim && !t.anim.empty()) v["animation"] = MetaAnimValue(t.anim[0]);
  if (t.type == kTrans || t.type == kPhaseTrans) fields::Describe(v, t.trans, kTransFields);
  return v;
}

}  // namespace

const MetaAnim* FirstPlay(const MetaAnim& m) {
  if (m.type == kPlay) return &m;
  return m.children.empty() ? nullptr : FirstPlay(m.children.front());
}

AnimationSet ReadAnimationSet(ByteReader& r, Game game) {
  AnimationSet s;
  fields::ReadAll(r, s, kAnimationSetHead);
  s.animations.resize(ReadCount(r, 1 + kMinMeta, "animations"));
  for (NamedAnimation& a : s.animations) {
    a.name = r.CString("an animation name");
    a.anim = ReadMetaAnim(r, 0);
  }
  s.transitions.resize(ReadCount(r, fields::Size(kTransitionHead) + 4, "transitions"));
  for (Transition& t : s.transitions) {
    fields::ReadAll(r, t.head, kTransitionHead);
    t.trans = ReadMetaTrans(r);
  }
  s.default_transition = ReadMetaTrans(r);
  if (s.table_count > 1) {
    s.additives = fields::ReadTable<Additive>(r, ReadCount(r, fields::Size(kAdditive), "additive animations"), kAdditive,
                                              "additive animations");
    fields::ReadAll(r, s.default_additive, kFadePair);
  }
  if (s.table_count > 2) {
    s.half_transitions.resize(ReadCount(r, 8, "half transitions"));
    for (HalfTransition& h : s.half_transitions) {
      fields::ReadAll(r, h, kHalfTransitionIndex);
      h.trans = ReadMetaTrans(r);
    }
  }
  if (s.table_count > 3) {
    if (game == Game::Mp1) {
      s.anim_evnt = fields::ReadTable<AnimEvntPair>(r, ReadCount(r, fields::Size(kAnimEvnt), "ANIM/EVNT pairs"), kAnimEvnt,
                                                    "ANIM/EVNT pairs");
    } else {
      s.event_sets.resize(ReadCount(r, 16, "event sets"));
      for (EventSet& e : s.event_sets) e = ReadEventSet(r, game);
    }
  }
  return s;
}

void WriteAnimationSet(ByteWriter& w, const AnimationSet& s, Game game) {
  fields::WriteAll(w, s, kAnimationSetHead);
  WriteCount(w, s.animations.size());
  for (const NamedAnimation& a : s.animations) {
    w.CString(a.name);
    WriteMetaAnim(w, a.anim);
  }
  WriteCount(w, s.transitions.size());
  for (const Transition& t : s.transitions) {
    fields::WriteAll(w, t.head, kTransitionHead);
    WriteMetaTrans(w, t.trans);
  }
  WriteMetaTrans(w, s.default_transition);
  if (s.table_count > 1) {
    fields::WriteCounted(w, s.additives, kAdditive);
    fields::WriteAll(w, s.default_additive, kFadePair);
  }
  if (s.table_count > 2) {
    WriteCount(w, s.half_transitions.size());
    for (const HalfTransition& h : s.half_transitions) {
      fields::WriteAll(w, h, kHalfTransitionIndex);
      WriteMetaTrans(w, h.trans);
    }
  }
  if (s.table_count > 3) {
    if (game == Game::Mp1) {
      fields::WriteCounted(w, s.anim_evnt, kAnimEvnt);
    } else {
      WriteCount(w, s.event_sets.size());
      for (const EventSet& e : s.event_sets) WriteEventSet(w, e, game);
    }
  }
}

Value AnimationSetValue(const AnimationSet& s, Game game) {
  Value animations = Value::array(), transitions = Value::array(), halves = Value::array(), events = Value::array();
  for (size_t i = 0; i < s.animations.size(); ++i) {
    Value a = MetaAnimValue(s.animations[i].anim);
    a["index"] = i;
    a["name"] = s.animations[i].name;
    animations.push_back(std::move(a));
  }
  for (const Transition& t : s.transitions) {
    Value v = MetaTransValue(t.trans);
    fields::Describe(v, t.head, kTransitionHead);
    transitions.push_back(std::move(v));
  }
  for (const HalfTransition& h : s.half_transitions) {
    Value v = MetaTransValue(h.trans);
    fields::Describe(v, h, kHalfTransitionIndex);
    halves.push_back(std::move(v));
  }
  for (const EventSet& e : s.event_sets) events.push_back(EventSetValue(e, game));
  Value out = {{"animations", std::move(animations)}, {"transitions", std::move(transitions)},
               {"default_transition", MetaTransValue(s.default_transition)}};
  fields::Describe(out, s, kAnimationSetHead);
  if (s.table_count > 1) {
    out["additive_animations"] = fields::DescribeTable(s.additives, kAdditive);
    Value d = Value::object();
    fields::Describe(d, s.default_additive, kFadePair);
    out["default_additive"] = std::move(d);
  }
  if (s.table_count > 2) out["half_transitions"] = std::move(halves);
  if (s.table_count > 3 && game == Game::Mp1) out["anim_evnt"] = fields::DescribeTable(s.anim_evnt, kAnimEvnt);
  if (s.table_count > 3 && game == Game::Mp2) out["event_sets"] = std::move(events);
  return out;
}

}  // namespace animkit::metroid_ancs
