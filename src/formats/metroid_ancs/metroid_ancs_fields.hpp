// The fixed records of the ANCS and EVNT, in file order: reading, writing and `info`
// walk these lists. Strings and counted lists between them are read by hand.
#pragma once

#include <animkit/formats/metroid_ancs.hpp>

#include "formats/common/fields.hpp"

namespace animkit::metroid_ancs {

using fields::Field;

inline constexpr auto kCharAnimTime =
    fields::List(Field{"seconds", &CharAnimTime::seconds}, Field{"state", &CharAnimTime::state});
inline constexpr auto kObjectTag = fields::List(Field{"type", &ObjectTag::fourcc}, Field{"id", &ObjectTag::id});
inline constexpr auto kAabb = fields::List(Field{"min", &Aabb::min}, Field{"max", &Aabb::max});

// ---- EVNT
inline constexpr auto kEventSetHead = fields::List(Field{"version", &EventSet::version});
inline constexpr auto kNodeVersion = fields::List(Field{"node_version", &PoiNode::node_version});
inline constexpr auto kPoiFixed = fields::List(
    Field{"type", &PoiFixed::type}, Field{"time", &PoiFixed::time}, Field{"time_state", &PoiFixed::time_state},
    Field{"index", &PoiFixed::index}, Field{"unique", &PoiFixed::unique}, Field{"weight", &PoiFixed::weight},
    Field{"character", &PoiFixed::character}, Field{"flags", &PoiFixed::flags});
inline constexpr auto kBoolValue = fields::List(Field{"value", &BoolPoi::value});
inline constexpr auto kInt32Value = fields::List(Field{"value", &Int32Poi::value});
inline constexpr auto kParticleHead =
    fields::List(Field{"duration", &ParticlePoiHead::duration}, Field{"effect_type", &ParticlePoiHead::effect_type},
                 Field{"effect_id", &ParticlePoiHead::effect_id});
inline constexpr auto kParticleTail =
    fields::List(Field{"scale", &ParticlePoiTail::scale}, Field{"parented_mode", &ParticlePoiTail::parented_mode});
inline constexpr auto kSoundFields =
    fields::List(Field{"sound_id", &SoundPoiFields::sound_id}, Field{"falloff", &SoundPoiFields::falloff},
                 Field{"max_distance", &SoundPoiFields::max_distance});
inline constexpr auto kSoundPitch =
    fields::List(Field{"bone_id", &SoundPoiPitch::bone_id}, Field{"pitch_start", &SoundPoiPitch::pitch_start},
                 Field{"pitch_end", &SoundPoiPitch::pitch_end}, Field{"pitch_duration", &SoundPoiPitch::pitch_duration});

// ---- ANCS characters
inline constexpr auto kAncsHeader =
    fields::List(Field{"version", &AncsFile::version}, Field{"set_table_count", &AncsFile::set_table_count});
inline constexpr auto kCharacterHead =
    fields::List(Field{"id", &Character::id}, Field{"table_count", &Character::table_count});
inline constexpr auto kAnimationNameIndex = fields::List(Field{"index", &AnimationName::index});
inline constexpr auto kPasDefault = fields::List(Field{"pas_default_state", &PasDatabase::default_state});
inline constexpr auto kPasAnimationIndex = fields::List(Field{"anim_index", &PasAnimation::anim_index});
inline constexpr auto kCharacterUnknown = fields::List(Field{"unknown", &Character::unknown});
inline constexpr auto kIndexedBox =
    fields::List(Field{"anim_index", &IndexedBox::anim_index}, fields::Sub{"box", &IndexedBox::box, kAabb});
inline constexpr auto kCharacterIds = fields::List(Field{"model", &CharacterIds::model}, Field{"skin", &CharacterIds::skin},
                                                   Field{"skeleton", &CharacterIds::skeleton});
inline constexpr auto kPasStateHead =
    fields::List(Field{"id", &PasStateHead::id}, Field{"parameter_count", &PasStateHead::parameter_count},
                 Field{"animation_count", &PasStateHead::animation_count});
struct PasParameterHead {
  uint32_t type = 0, weight_function = 0;
  float weight = 0;
};
inline constexpr auto kPasParameterHead =
    fields::List(Field{"type", &PasParameterHead::type}, Field{"weight_function", &PasParameterHead::weight_function},
                 Field{"weight", &PasParameterHead::weight});
inline constexpr auto kEffectComponentTail =
    fields::List(Field{"scale", &EffectComponentTail::scale}, Field{"parented_mode", &EffectComponentTail::parented_mode},
                 Field{"flags", &EffectComponentTail::flags});
struct OverlayIds {
  uint32_t model = 0, skin = 0;
};
inline constexpr auto kOverlay = fields::List(Field{"overlay_model", &OverlayIds::model}, Field{"overlay_skin", &OverlayIds::skin});

// ---- ANCS animation set
inline constexpr auto kAnimationSetHead = fields::List(Field{"table_count", &AnimationSet::table_count});
inline constexpr auto kMetaAnimType = fields::List(Field{"type", &MetaAnim::type});
inline constexpr auto kMetaTransType = fields::List(Field{"type", &MetaTrans::type});
inline constexpr auto kHalfTransitionIndex = fields::List(Field{"anim_index", &HalfTransition::anim_index});
inline constexpr auto kPlayFields =
    fields::List(Field{"anim_id", &PlayFields::anim_id}, Field{"primitive_index", &PlayFields::primitive_index});
inline constexpr auto kBlendFields = fields::List(Field{"weight", &BlendFields::weight}, Field{"flag", &BlendFields::flag});
inline constexpr auto kTransFields =
    fields::List(Field{"duration", &TransFields::duration}, Field{"duration_state", &TransFields::duration_state},
                 Field{"unknown", &TransFields::unknown}, Field{"run_a", &TransFields::run_a},
                 Field{"flags", &TransFields::flags});
inline constexpr auto kTransitionHead = fields::List(Field{"unknown", &TransitionHead::unknown},
                                                     Field{"anim_a", &TransitionHead::anim_a},
                                                     Field{"anim_b", &TransitionHead::anim_b});
inline constexpr auto kAdditive = fields::List(Field{"anim_index", &Additive::anim_index},
                                               Field{"fade_in", &Additive::fade_in}, Field{"fade_out", &Additive::fade_out});
inline constexpr auto kFadePair = fields::List(Field{"fade_in", &FadePair::fade_in}, Field{"fade_out", &FadePair::fade_out});
inline constexpr auto kAnimEvnt =
    fields::List(Field{"anim_id", &AnimEvntPair::anim_id}, Field{"evnt_id", &AnimEvntPair::evnt_id});

using fields::WriteCount;
// A u32 count, checked to fit min_size bytes per element in what is left; the error names
// the count's offset.
size_t ReadCount(ByteReader& r, size_t min_size, std::string_view what);
// A counted list of u32s (the particle lists, the animation index list).
inline std::vector<uint32_t> ReadIdList(ByteReader& r, std::string_view what) {
  return fields::ReadValues<uint32_t>(r, ReadCount(r, 4, what), what);
}
inline void WriteIdList(ByteWriter& w, const std::vector<uint32_t>& ids) { fields::WriteCountedValues(w, ids); }

AnimationSet ReadAnimationSet(ByteReader& r, Game game);
void WriteAnimationSet(ByteWriter& w, const AnimationSet& set, Game game);

}  // namespace animkit::metroid_ancs
