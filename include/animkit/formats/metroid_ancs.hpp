// Metroid Prime 1/2 (GameCube) character sets: the ANCS (characters, their animation
// names and effects, the PAS database, the animation set of meta-animations and
// transitions) and MP1's EVNT file of points of interest (MP2 keeps its event sets
// inside the ANCS). Big-endian. Layout and sources: docs/formats/metroid_ancs.md.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace animkit::metroid_ancs {

enum class Game { Mp1, Mp2 };

inline constexpr uint32_t kNoId = 0xFFFFFFFF;
// Meta-animations and meta-transitions nest; deeper trees are refused (no stock file
// comes near it; a hostile one would recurse without end).
inline constexpr size_t kMaxMetaDepth = 32;

// f32 seconds + u32 state (0 NonZero, 1 ZeroIncreasing, 2 ZeroSteady, 3 ZeroDecreasing, 4 Infinity).
struct CharAnimTime {
  float seconds = 0;
  uint32_t state = 0;
};

struct ObjectTag {
  uint32_t fourcc = 0;
  uint32_t id = kNoId;
};

// ---------------------------------------------------------------- EVNT (points of interest)

// EPOIType.
enum PoiType : uint16_t { kLoop = 0, kEmptyBool = 1, kEmptyInt32 = 2, kSoundInt32 = 4, kParticle = 5, kUserEvent = 6,
                          kRandRate = 7, kSound = 8 };

// The fixed part after a node's name (and, MP2 node version >= 3, its CRC).
struct PoiFixed {
  uint16_t type = 0;
  float time = 0;  // seconds from the clip's start
  uint32_t time_state = 0;
  uint32_t index = kNoId;  // state slot, -1 none
  uint8_t unique = 0;
  float weight = 1;
  int32_t character = -1;  // -1: every character of the ANCS
  uint32_t flags = 0;
};

struct PoiNode {
  uint16_t node_version = 1;
  std::string name;
  uint32_t name_crc = 0;  // MP2, node version >= 3 only
  PoiFixed fixed;
};

struct BoolPoi {
  PoiNode node;
  uint8_t value = 0;
};

struct Int32Poi {
  PoiNode node;
  int32_t value = 0;
  std::string locator;  // bone name
};

struct ParticlePoiHead {
  uint32_t duration = 0;
  uint32_t effect_type = 0;  // FourCC: PART, SWHC or ELSC
  uint32_t effect_id = kNoId;
};
struct ParticlePoiTail {
  float scale = 1;
  uint32_t parented_mode = 0;  // 0 initial, 1 continuous emitter, 2 continuous system
};
struct ParticlePoi {
  PoiNode node;
  ParticlePoiHead head;
  std::string bone_name;  // MP1
  uint32_t bone_id = 0;   // MP2
  ParticlePoiTail tail;
};

struct SoundPoiFields {
  uint32_t sound_id = 0;  // low 16 bits: the SFX id
  float falloff = 0;
  float max_distance = 0;
};
// MP2 sound nodes of node version > 1.
struct SoundPoiPitch {
  uint32_t bone_id = 0;
  uint16_t pitch_start = 0;
  uint16_t pitch_end = 0;
  float pitch_duration = 0;
};
struct SoundPoi {
  PoiNode node;
  SoundPoiFields sound;
  SoundPoiPitch pitch;  // MP2, node version > 1 only
};

// The body of an MP1 EVNT file, or one of MP2's event sets inside the ANCS.
struct EventSet {
  uint32_t version = 2;  // > 1: the sound list follows
  std::vector<BoolPoi> bools;
  std::vector<Int32Poi> ints;
  std::vector<ParticlePoi> particles;
  std::vector<SoundPoi> sounds;
};

EventSet ReadEventSet(ByteReader& r, Game game);
void WriteEventSet(ByteWriter& w, const EventSet& set, Game game);

struct EvntFile {
  EventSet set;
  Bytes trailing;  // bytes after the last list, kept
};
EvntFile ParseEvnt(ByteView data);
Bytes SerializeEvnt(const EvntFile& file);

// The points of interest as the common model's events, in time order. Names are
// "<kind>:<node name>" (kind: loop, bool, int, user, sound_int, particle, sound); params:
// bool/loop [value]; int/user [value]; particle [duration, effect id, scale, parented
// mode]; sound [sound id, fall-off, max distance]. The character index, weight and
// flags of every node stay in Value form (EventSetValue).
std::vector<Event> DecodeEvents(const EventSet& set);
Value EventSetValue(const EventSet& set, Game game);
// The common model's events as an MP1 EVNT (version 2): DecodeEvents' names and params read
// back (docs/formats/metroid_ancs.md, "Writing events"); each kind's list in the events'
// order. The fields events do not carry take the stock values (character -1, weight 1,
// index -1, PART effects, empty bone names). An event of no kind the decoder names is left
// out with a line in warnings.
EvntFile EncodeEvnt(const std::vector<Event>& events, std::vector<std::string>* warnings = nullptr);

// ---------------------------------------------------------------- ANCS: characters

struct AnimationName {
  uint32_t index = 0;   // into the animation set
  std::string unused;   // MP1 only ("" in files)
  std::string name;
};

struct PasParameter {
  uint32_t type = 0;             // 0 i32, 1 u32, 2 f32, 3 bool, 4 enum
  uint32_t weight_function = 0;  // 0 exact, 1 percent error, 2 angular percent, 3 none
  float weight = 0;
  uint32_t min = 0, max = 0;  // raw bits (a bool takes one byte)
};
struct PasAnimation {
  uint32_t anim_index = 0;
  std::vector<uint32_t> values;  // raw bits, one per parameter
};
struct PasStateHead {
  uint32_t id = 0;
  uint32_t parameter_count = 0;
  uint32_t animation_count = 0;
};
struct PasState {
  PasStateHead head;
  std::vector<PasParameter> parameters;
  std::vector<PasAnimation> animations;
};
struct PasDatabase {
  uint32_t default_state = 0;
  std::vector<PasState> states;
};

struct Aabb {
  std::array<float, 3> min{}, max{};
};
struct ActionBox {
  std::string name;
  Aabb box;
};
struct EffectComponentTail {
  float scale = 1;
  uint32_t parented_mode = 0;
  uint32_t flags = 0;
};
struct EffectComponent {
  std::string name;
  ObjectTag particle;
  std::string locator;   // MP1: the bone name
  uint32_t bone_id = 0;  // MP2
  EffectComponentTail tail;
};
struct Effect {
  std::string name;
  std::vector<EffectComponent> components;
};
struct IndexedBox {
  uint32_t anim_index = 0;
  Aabb box;
};

struct CharacterIds {
  uint32_t model = kNoId;     // CMDL
  uint32_t skin = kNoId;      // CSKR
  uint32_t skeleton = kNoId;  // CINF
};

struct Character {
  uint32_t id = 0;
  uint16_t table_count = 1;  // MP1 1..6, MP2 10: gates the optional parts
  std::string name;
  CharacterIds ids;
  std::vector<AnimationName> animations;
  PasDatabase pas;
  std::vector<uint32_t> part, swhc, third, elsc, spsc, srsc;  // particle id lists (elsc: tc > 5; spsc/srsc: MP2 tc > 8)
  uint32_t unknown = 0;                 // "default animation"? (meaning unknown)
  std::vector<ActionBox> action_boxes;  // tc > 1
  std::vector<Effect> effects;          // tc > 2
  uint32_t overlay_model = 0, overlay_skin = 0;  // tc > 3 (MP1 "none" is 0)
  std::vector<uint32_t> anim_indices;   // tc > 4
  uint32_t cspp = kNoId;                // MP2 tc > 6
  uint8_t animated_scale = 0;           // MP2 tc > 7
  std::vector<IndexedBox> indexed_boxes;  // MP2 tc > 9
};

// ---------------------------------------------------------------- ANCS: animation set

enum MetaAnimType : uint32_t { kPlay = 0, kBlend = 1, kPhaseBlend = 2, kRandom = 3, kSequence = 4 };

struct PlayFields {
  uint32_t anim_id = kNoId;
  uint32_t primitive_index = 0;
};
struct BlendFields {
  float weight = 0;
  uint8_t flag = 0;
};

struct MetaAnim {
  uint32_t type = kPlay;
  PlayFields play;           // Play
  std::string name;          // Play
  CharAnimTime start;        // Play
  std::vector<MetaAnim> children;    // Blend/PhaseBlend: A and B; Random, Sequence: each
  BlendFields blend;                 // Blend/PhaseBlend
  std::vector<uint32_t> thresholds;  // Random: one cumulative percentage per child
};

enum MetaTransType : uint32_t { kTransMetaAnim = 0, kTrans = 1, kPhaseTrans = 2, kSnap = 3 };
struct TransFields {
  float duration = 0;
  uint32_t duration_state = 0;
  uint8_t unknown = 0;
  uint8_t run_a = 0;
  uint32_t flags = 0;
};
struct MetaTrans {
  uint32_t type = kSnap;
  std::vector<MetaAnim> anim;  // kTransMetaAnim: one
  TransFields trans;           // kTrans / kPhaseTrans
};

struct NamedAnimation {
  std::string name;
  MetaAnim anim;
};
struct TransitionHead {
  uint32_t unknown = 0;
  uint32_t anim_a = 0, anim_b = 0;
};
struct Transition {
  TransitionHead head;
  MetaTrans trans;
};
struct Additive {
  uint32_t anim_index = 0;
  float fade_in = 0, fade_out = 0;
};
struct FadePair {
  float fade_in = 0, fade_out = 0;
};
struct HalfTransition {
  uint32_t anim_index = 0;
  MetaTrans trans;
};
struct AnimEvntPair {
  uint32_t anim_id = kNoId, evnt_id = kNoId;
};

struct AnimationSet {
  uint16_t table_count = 4;
  std::vector<NamedAnimation> animations;
  std::vector<Transition> transitions;
  MetaTrans default_transition;
  std::vector<Additive> additives;     // tc > 1
  FadePair default_additive;           // tc > 1
  std::vector<HalfTransition> half_transitions;  // tc > 2
  std::vector<AnimEvntPair> anim_evnt;  // tc > 3, MP1
  std::vector<EventSet> event_sets;     // tc > 3, MP2
};

struct AncsFile {
  Game game = Game::Mp1;
  uint16_t version = 1;
  uint16_t set_table_count = 1;
  std::vector<Character> characters;
  AnimationSet animation_set;
  Bytes trailing;
  std::vector<std::string> warnings;  // how the game was chosen, when not by the rule
};

// The game: MP2 when the first character's table count is over 6, else MP1 (MP1 also
// without characters); a file that does not read as that game is read as the other, with
// a warning.
AncsFile ParseAncs(ByteView data);
AncsFile ParseAncs(ByteView data, Game game);  // that game only
Bytes SerializeAncs(const AncsFile& file);

Value CharacterValue(const Character& c, const AnimationSet& set, Game game);
Value AnimationSetValue(const AnimationSet& set, Game game);

// The first Play a meta-animation plays (Blend: A, Random/Sequence: the first child); null when none.
const MetaAnim* FirstPlay(const MetaAnim& anim);

// Clip metadata keys of an assembled character.
namespace metadata_keys {
inline constexpr char kAnimMember[] = "anim_member";  // "<ID>.ANIM" the clip was decoded from
inline constexpr char kAdditive[] = "additive";       // {"fade_in": s, "fade_out": s}
inline constexpr char kCharacter[] = "character";     // scene: the character's name
inline constexpr char kMetaType[] = "meta_animation";  // clip: the meta-animation's kind
}  // namespace metadata_keys

}  // namespace animkit::metroid_ancs
