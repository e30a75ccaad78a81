// Points of interest: the MP1 EVNT file and MP2's event sets (one body, two games),
// read and written through the field lists, and decoded to the common model's events.
#include <animkit/formats/metroid_ancs.hpp>

#include "metroid_ancs_fields.hpp"

#include <algorithm>

namespace animkit::metroid_ancs {

size_t ReadCount(ByteReader& r, size_t min_size, std::string_view what) {
  const size_t at = r.tell();
  const uint32_t n = r.U32(std::string("the count of ") + std::string(what));
  if (uint64_t{n} * min_size > r.remaining())
    r.FailAt(at, "the count " + std::to_string(n) + " of " + std::string(what) + " (at least " +
                     std::to_string(min_size) + " bytes each) does not fit in the " + Hex(r.remaining()) + " bytes left");
  return n;
}

namespace {

// u16 node version, name (1), the fixed part.
constexpr size_t kMinNode = 2 + 1 + fields::Size(kPoiFixed);

void ReadNode(ByteReader& r, PoiNode& n, Game game) {
  fields::ReadAll(r, n, kNodeVersion);
  n.name = r.CString("a node name");
  if (game == Game::Mp2 && n.node_version >= 3) n.name_crc = r.U32("the node name's CRC");
  fields::ReadAll(r, n.fixed, kPoiFixed);
}

void WriteNode(ByteWriter& w, const PoiNode& n, Game game) {
  fields::WriteAll(w, n, kNodeVersion);
  w.CString(n.name);
  if (game == Game::Mp2 && n.node_version >= 3) w.U32(n.name_crc);
  fields::WriteAll(w, n.fixed, kPoiFixed);
}

template <class T, class ReadOne>
std::vector<T> ReadNodes(ByteReader& r, size_t min_size, std::string_view what, ReadOne read_one) {
  std::vector<T> out(ReadCount(r, min_size, what));
  for (T& t : out) read_one(t);
  return out;
}

}  // namespace

EventSet ReadEventSet(ByteReader& r, Game game) {
  EventSet s;
  fields::ReadAll(r, s, kEventSetHead);
  s.bools = ReadNodes<BoolPoi>(r, kMinNode + 1, "bool nodes", [&](BoolPoi& p) {
    ReadNode(r, p.node, game);
    fields::ReadAll(r, p, kBoolValue);
  });
  s.ints = ReadNodes<Int32Poi>(r, kMinNode + 5, "int32 nodes", [&](Int32Poi& p) {
    ReadNode(r, p.node, game);
    fields::ReadAll(r, p, kInt32Value);
    p.locator = r.CString("an int32 node's locator");
  });
  const size_t bone = game == Game::Mp1 ? 1 : 4;
  s.particles = ReadNodes<ParticlePoi>(
      r, kMinNode + fields::Size(kParticleHead) + bone + fields::Size(kParticleTail), "particle nodes", [&](ParticlePoi& p) {
        ReadNode(r, p.node, game);
        fields::ReadAll(r, p.head, kParticleHead);
        if (game == Game::Mp1)
          p.bone_name = r.CString("a particle node's bone name");
        else
          p.bone_id = r.U32("a particle node's bone id");
        fields::ReadAll(r, p.tail, kParticleTail);
      });
  if (s.version > 1) {
    s.sounds = ReadNodes<SoundPoi>(r, kMinNode + fields::Size(kSoundFields), "sound nodes", [&](SoundPoi& p) {
      ReadNode(r, p.node, game);
      fields::ReadAll(r, p.sound, kSoundFields);
      if (game == Game::Mp2 && p.node.node_version > 1) fields::ReadAll(r, p.pitch, kSoundPitch);
    });
  }
  return s;
}

void WriteEventSet(ByteWriter& w, const EventSet& s, Game game) {
  fields::WriteAll(w, s, kEventSetHead);
  WriteCount(w, s.bools.size());
  for (const BoolPoi& p : s.bools) {
    WriteNode(w, p.node, game);
    fields::WriteAll(w, p, kBoolValue);
  }
  WriteCount(w, s.ints.size());
  for (const Int32Poi& p : s.ints) {
    WriteNode(w, p.node, game);
    fields::WriteAll(w, p, kInt32Value);
    w.CString(p.locator);
  }
  WriteCount(w, s.particles.size());
  for (const ParticlePoi& p : s.particles) {
    WriteNode(w, p.node, game);
    fields::WriteAll(w, p.head, kParticleHead);
    if (game == Game::Mp1)
      w.CString(p.bone_name);
    else
      w.U32(p.bone_id);
    fields::WriteAll(w, p.tail, kParticleTail);
  }
  if (s.version <= 1) {
    if (!s.sounds.empty()) throw Error::General("an event set of version 1 holds no sound nodes");
    return;
  }
  WriteCount(w, s.sounds.size());
  for (const SoundPoi& p : s.sounds) {
    WriteNode(w, p.node, game);
    fields::WriteAll(w, p.sound, kSoundFields);
    if (game == Game::Mp2 && p.node.node_version > 1) fields::WriteAll(w, p.pitch, kSoundPitch);
  }
}

EvntFile ParseEvnt(ByteView data) {
  ByteReader r(data, Endian::Big);
  EvntFile f;
  f.set = ReadEventSet(r, Game::Mp1);
  const ByteView rest = r.Take(r.remaining(), "the trailing bytes");
  f.trailing.assign(rest.begin(), rest.end());
  return f;
}

Bytes SerializeEvnt(const EvntFile& f) {
  ByteWriter w(Endian::Big);
  WriteEventSet(w, f.set, Game::Mp1);
  w.Append(f.trailing);
  return w.Take();
}

namespace {

std::string KindOf(uint16_t type, std::string_view list) {
  switch (type) {
    case kLoop: return "loop";
    case kUserEvent: return "user";
    case kSoundInt32: return "sound_int";
    case kParticle: return "particle";
    case kSound: return "sound";
    case kRandRate: return "rand_rate";
    default: return std::string(list);
  }
}

Event MakeEvent(const PoiNode& n, std::string_view list, std::vector<double> params) {
  return Event{n.fixed.time, KindOf(n.fixed.type, list) + ":" + n.name, std::move(params), {}};
}

Value NodeValue(const PoiNode& n, Game game) {
  Value v = {{"name", n.name}};
  fields::Describe(v, n, kNodeVersion);
  if (game == Game::Mp2 && n.node_version >= 3) v["name_crc"] = n.name_crc;
  fields::Describe(v, n.fixed, kPoiFixed);
  return v;
}

}  // namespace

std::vector<Event> DecodeEvents(const EventSet& s) {
  std::vector<Event> out;
  for (const BoolPoi& p : s.bools) out.push_back(MakeEvent(p.node, "bool", {double(p.value)}));
  for (const Int32Poi& p : s.ints) out.push_back(MakeEvent(p.node, "int", {double(p.value)}));
  for (const ParticlePoi& p : s.particles)
    out.push_back(MakeEvent(p.node, "particle",
                            {double(p.head.duration), double(p.head.effect_id), double(p.tail.scale), double(p.tail.parented_mode)}));
  for (const SoundPoi& p : s.sounds)
    out.push_back(MakeEvent(p.node, "sound", {double(p.sound.sound_id), double(p.sound.falloff), double(p.sound.max_distance)}));
  std::stable_sort(out.begin(), out.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
  return out;
}

Value EventSetValue(const EventSet& s, Game game) {
  Value bools = Value::array(), ints = Value::array(), particles = Value::array(), sounds = Value::array();
  for (const BoolPoi& p : s.bools) {
    Value v = NodeValue(p.node, game);
    fields::Describe(v, p, kBoolValue);
    bools.push_back(std::move(v));
  }
  for (const Int32Poi& p : s.ints) {
    Value v = NodeValue(p.node, game);
    fields::Describe(v, p, kInt32Value);
    v["locator"] = p.locator;
    ints.push_back(std::move(v));
  }
  for (const ParticlePoi& p : s.particles) {
    Value v = NodeValue(p.node, game);
    fields::Describe(v, p.head, kParticleHead);
    if (game == Game::Mp1)
      v["bone_name"] = p.bone_name;
    else
      v["bone_id"] = p.bone_id;
    fields::Describe(v, p.tail, kParticleTail);
    particles.push_back(std::move(v));
  }
  for (const SoundPoi& p : s.sounds) {
    Value v = NodeValue(p.node, game);
    fields::Describe(v, p.sound, kSoundFields);
    if (game == Game::Mp2 && p.node.node_version > 1) fields::Describe(v, p.pitch, kSoundPitch);
    sounds.push_back(std::move(v));
  }
  Value out = {{"bool_nodes", std::move(bools)}, {"int32_nodes", std::move(ints)},
               {"particle_nodes", std::move(particles)}};
  fields::Describe(out, s, kEventSetHead);
  if (s.version > 1) out["sound_nodes"] = std::move(sounds);
  return out;
}

}  // namespace animkit::metroid_ancs
