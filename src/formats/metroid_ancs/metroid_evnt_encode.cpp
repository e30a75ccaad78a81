// The common model's events as points of interest: the kinds and params DecodeEvents gives,
// back into the EVNT's bool, int32, particle and sound lists.
#include <animkit/formats/metroid_ancs.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

namespace animkit::metroid_ancs {
namespace {

constexpr uint32_t kPart = 0x50415254;  // 'PART'
constexpr uint32_t kNonZero = 0, kZeroSteady = 2;  // CCharAnimTime states

double Param(const Event& e, size_t i, double fallback) {
  return i < e.params.size() && std::isfinite(e.params[i]) ? e.params[i] : fallback;
}

template <class T>
T Integer(double v) {
  const double lo = double(std::numeric_limits<T>::min()), hi = double(std::numeric_limits<T>::max());
  return static_cast<T>(std::llround(std::clamp(v, lo, hi)));
}

PoiNode NodeOf(const Event& e, std::string_view name, uint16_t type) {
  PoiNode n;
  n.name = std::string(name);
  n.fixed.type = type;
  n.fixed.time = e.time;
  n.fixed.time_state = e.time == 0 ? kZeroSteady : kNonZero;
  return n;
}

// The int32 node types by the decoder's kind names.
bool IntType(std::string_view kind, uint16_t& type) {
  if (kind == "int") type = kEmptyInt32;
  else if (kind == "user") type = kUserEvent;
  else if (kind == "sound_int") type = kSoundInt32;
  else if (kind == "rand_rate") type = kRandRate;
  else return false;
  return true;
}

}  // namespace

EvntFile EncodeEvnt(const std::vector<Event>& events, std::vector<std::string>* warnings) {
  EvntFile f;
  f.set.version = 2;
  for (const Event& e : events) {
    const size_t colon = e.name.find(':');
    const std::string_view kind = colon == std::string::npos ? std::string_view() : std::string_view(e.name).substr(0, colon);
    const std::string_view name = colon == std::string::npos ? std::string_view(e.name) : std::string_view(e.name).substr(colon + 1);
    uint16_t int_type = 0;
    if (kind == "loop" || kind == "bool") {
      BoolPoi p{NodeOf(e, name, kind == "loop" ? kLoop : kEmptyBool), Integer<uint8_t>(Param(e, 0, 1))};
      f.set.bools.push_back(std::move(p));
    } else if (IntType(kind, int_type)) {
      f.set.ints.push_back({NodeOf(e, name, int_type), Integer<int32_t>(Param(e, 0, 0)), {}});
    } else if (kind == "particle") {
      ParticlePoi p;
      p.node = NodeOf(e, name, kParticle);
      p.head = {Integer<uint32_t>(Param(e, 0, 0)), kPart, Integer<uint32_t>(Param(e, 1, kNoId))};
      p.tail = {static_cast<float>(Param(e, 2, 1)), Integer<uint32_t>(Param(e, 3, 0))};
      f.set.particles.push_back(std::move(p));
    } else if (kind == "sound") {
      SoundPoi p;
      p.node = NodeOf(e, name, kSound);
      p.sound = {Integer<uint32_t>(Param(e, 0, 0)), static_cast<float>(Param(e, 1, 0)), static_cast<float>(Param(e, 2, 0))};
      f.set.sounds.push_back(std::move(p));
    } else if (warnings) {
      warnings->push_back("event '" + e.name + "' at " + std::to_string(e.time) +
                          " s names no kind an EVNT holds (loop, bool, int, user, sound_int, rand_rate, particle, "
                          "sound): left out");
    }
  }
  return f;
}

}  // namespace animkit::metroid_ancs
