// Metroid Prime and Metroid Prime 2: Echoes (GameCube) skeletal animation: ANIM
// version 0 (float arrays) and version 2 (delta-coded, bit-packed keys over a key
// bitmap), and the CINF skeleton they animate. Big-endian. The layouts as implemented,
// with the corrections to the community description, are in docs/formats/metroid_anim.md.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animkit::metroid {

inline constexpr uint32_t kNoParent = 2;          // CINF parent id of a root bone
inline constexpr uint32_t kEchoesNoParent = 0x61; // the same in an Echoes CINF
inline constexpr uint32_t kDefaultDivisor = 0x7FFF;
inline constexpr size_t kMaxBoneTable = 256;      // version 0 bone id -> channel table
inline constexpr int kMaxBits = 32;               // widest delta the reader accepts

// Which game's layout a file has. An uncompressed ANIM and a CINF carry no game marker:
// readers take the layout that fits (ParseAnim, ParseCinf), or the one asked for.
enum class Game : uint8_t { Prime = 1, Echoes = 2 };

// ---------------------------------------------------------------- version 2

struct Descriptor {
  uint32_t bone_id = 0;
  uint16_t rotation_keys = 0;
  std::array<int16_t, 3> rotation_initial{};
  std::array<uint8_t, 3> rotation_bits{};
  uint16_t translation_keys = 0;  // 0: no translation fields follow
  std::array<int16_t, 3> translation_initial{};
  std::array<uint8_t, 3> translation_bits{};
  bool has_translation() const { return translation_keys != 0; }
  size_t byte_size() const { return has_translation() ? 26 : 17; }
  size_t key_bits() const;  // bits one key of this channel takes in the bitstream
};

struct AnimV2 {
  uint32_t scratch_size = 0;
  uint32_t evnt_id = 0xFFFFFFFF;
  uint32_t unknown_0c = 1;
  float duration = 0;
  float interval = 1.0f / 30;
  uint32_t root_bone = 3;
  uint32_t looping = 0;
  uint32_t rotation_divisor = kDefaultDivisor;
  float translation_multiplier = 1;
  uint32_t channel_count = 0;
  uint32_t unknown_2c = 1;
  uint32_t bitmap_bits = 0;
  std::vector<uint32_t> bitmap_words;
  uint32_t channel_count_again = 0;  // ignored by the game; writers repeat channel_count
  std::vector<Descriptor> descriptors;
  Bytes bitstream;  // everything after the descriptors, verbatim

  bool KeyBit(size_t frame) const { return (bitmap_words[frame / 32] >> (frame % 32)) & 1u; }
  size_t KeyedFrames() const;  // set bits among the first bitmap_bits
};

// ---------------------------------------------------------------- version 0

struct AnimV0 {
  float duration = 0;
  uint32_t unknown_08 = 0;
  float interval = 1.0f / 30;
  uint32_t unknown_10 = 0;
  uint32_t frame_count = 0;
  uint32_t root_bone = 3;
  std::vector<uint8_t> bone_table;         // bone id -> rotation channel, 0xFF none
  std::vector<uint8_t> translation_table;  // rotation channel -> translation channel, 0xFF none
  std::vector<std::array<float, 4>> rotations;     // w, x, y, z; channel-major
  std::vector<std::array<float, 3>> translations;  // channel-major
  uint32_t evnt_id = 0xFFFFFFFF;
  Bytes trailing;  // bytes after the EVNT id

  size_t RotationChannels() const;     // 1 + the largest channel in bone_table (0 when none)
  size_t TranslationChannels() const;  // 1 + the largest channel in translation_table
};

// ---------------------------------------------------------------- Echoes

// One axis of an Echoes sub-header: initial total and delta width.
struct AxisKey {
  int16_t initial = 0;
  uint8_t bits = 0;
};
// An Echoes descriptor's rotation, translation or scale part: a key count, and only when
// it is non-zero the three axes (2 or 11 bytes).
struct KeyedAxes {
  uint16_t keys = 0;
  std::array<AxisKey, 3> axes{};
  bool present() const { return keys != 0; }
};
struct EchoesDescriptor {
  uint8_t bone_id = 0;
  KeyedAxes rotation, translation, scale;
  size_t byte_size() const;  // 7 to 34
  size_t key_bits() const;   // W sign and rotation, translation and scale deltas of the parts present
};

struct EchoesAnimV2 {
  uint32_t scratch_size = 0;
  std::array<uint8_t, 2> marker{1, 1};  // where Metroid Prime has its EVNT id
  float duration = 0;
  float interval = 1.0f / 30;
  uint32_t root_bone = 0;
  uint32_t looping = 0;
  uint32_t rotation_divisor = kDefaultDivisor;
  float translation_multiplier = 1;
  float scale_multiplier = 0;
  uint32_t channel_count = 0;
  uint32_t unknown_2a = 1;
  uint32_t bitmap_bits = 0;
  std::vector<uint32_t> bitmap_words;
  std::vector<EchoesDescriptor> descriptors;
  Bytes bitstream;  // everything after the descriptors, verbatim

  bool KeyBit(size_t frame) const { return (bitmap_words[frame / 32] >> (frame % 32)) & 1u; }
  size_t KeyedFrames() const;
};

struct EchoesAnimV0 {
  float duration = 0;
  uint32_t duration_state = 0;  // CCharAnimTime state
  float interval = 1.0f / 30;
  uint32_t interval_state = 0;
  uint32_t frame_count = 0;
  uint32_t root_bone = 0;
  std::vector<uint8_t> bone_table;         // bone id -> channel (s8; negative: none)
  std::vector<uint8_t> rotation_flags;     // channel -> rotation (s8; >= 0: rotations of that channel)
  std::vector<uint8_t> translation_table;  // channel -> translation index (s8; negative: none)
  std::vector<uint8_t> scale_table;        // channel -> scale index (s8; negative: none)
  std::vector<std::array<float, 3>> scales;        // frame-major: frame x scales per frame + index
  std::vector<std::array<float, 4>> rotations;     // w, x, y, z; channel-major
  std::vector<std::array<float, 3>> translations;  // channel-major
  Bytes trailing;

  size_t Channels() const { return rotation_flags.size(); }
  size_t RotationChannels() const;     // 1 + the last channel whose flag is >= 0
  size_t TranslationChannels() const;  // 1 + the largest translation index
  size_t ScalesPerFrame() const;       // 1 + the largest scale index
};

struct AnimFile {
  uint32_t version = 2;
  Game game = Game::Prime;
  AnimV0 v0;  // Metroid Prime, version 0
  AnimV2 v2;  // Metroid Prime, version 2
  EchoesAnimV0 echoes_v0;
  EchoesAnimV2 echoes_v2;
};

// game: the layout to read; none (auto): a version 2 file with 0x0101 at 0x08 is Echoes',
// a version 0 file takes the layout that fits (both: the one with fewer trailing bytes,
// Metroid Prime's on a tie, and a line in warnings); fitting neither is an Error naming both.
AnimFile ParseAnim(ByteView data, std::optional<Game> game = std::nullopt,
                   std::vector<std::string>* warnings = nullptr);
Bytes SerializeAnim(const AnimFile& file);

// Decoded keys of one version 2 channel, one per set bit of the bitmap.
struct DecodedChannel {
  uint32_t bone_id = 0;
  std::vector<std::array<int16_t, 3>> rotation;  // running totals; empty without rotation (Echoes)
  std::vector<uint8_t> w_negative;
  std::vector<std::array<int16_t, 3>> translation;  // empty without translation
  std::vector<std::array<int16_t, 3>> scale;        // Echoes; empty without scale
};
// Unpacks the bitstream; Error (with the offset) when it is shorter than the descriptors need.
std::vector<DecodedChannel> UnpackV2(const AnimV2& anim);
std::vector<DecodedChannel> UnpackEchoesV2(const EchoesAnimV2& anim);
// Number of key components (rotation and translation deltas) the bitstream holds.
size_t KeyComponents(const AnimV2& anim);

QuatXYZW RotationFromTotals(const std::array<int16_t, 3>& totals, bool w_negative, uint32_t divisor);
// The game's slerp: no shortest-path flip (a negative dot goes the long way).
QuatXYZW SlerpLongWay(QuatXYZW a, QuatXYZW b, float t);

struct DecodeSettings {
  // joint name for a bone id; "#N" when absent
  std::vector<std::pair<uint32_t, std::string>> names;
  Limits limits;  // frames, and keys x channels, checked before decoding
};

// One clip keyed at every frame (keyed or interpolated), joints named per settings.
Clip DecodeAnim(const AnimFile& file, const DecodeSettings& settings);

struct EncodeSettings {
  int version = 2;
  Game game = Game::Prime;
  size_t bone_count = 0;             // Echoes version 2: a descriptor for every id below it
  uint32_t rotation_divisor = kDefaultDivisor;
  double max_error_rot = 0.001;      // radians
  double max_error_pos = -1;         // units; < 0: 0.001 x the clip's translation range
  size_t bone_table_size = 100;      // version 0; grown to the largest bone id + 1
  // joint name -> bone id (from a CINF); the rest: "#N" -> N, else numbered after the highest id
  std::vector<std::pair<std::string, uint32_t>> bone_ids;
};

struct EncodeReport {
  size_t frames = 0, keyed_frames = 0, channels = 0, translated_channels = 0;
  size_t bytes = 0, every_frame_bytes = 0;
  double max_error_rot = 0, max_error_pos = 0;  // measured over all frames
  double max_error_scale = 0;                   // Echoes: scale, measured likewise
  double tolerance_rot = 0, tolerance_pos = 0;
  float translation_multiplier = 0;
};

AnimFile EncodeAnim(const Clip& clip, const EncodeSettings& settings, EncodeReport* report = nullptr);

// Bone ids for joint names: names from `named`, "#N" -> N, others after the highest id
// (Metroid Prime: from 3, skipping 2; Echoes: from 0).
std::vector<uint32_t> AssignBoneIds(const std::vector<std::string>& joints,
                                    const std::vector<std::pair<std::string, uint32_t>>& named,
                                    Game game = Game::Prime);

// The Echoes layouts of Metroid Prime version 0 and 2 data (no scale; the encoder adds
// the clip's). Version 2: the
// descriptors sorted by bone id, one for every id below max(bone_count, largest id + 1),
// the bitstream packed anew; bone ids must fit a byte.
EchoesAnimV0 EchoesFromPrime(const AnimV0& anim);
EchoesAnimV2 EchoesFromPrime(const AnimV2& anim, size_t bone_count);

// ---------------------------------------------------------------- CINF

struct CinfBone {
  uint32_t id = 0;
  uint32_t parent = kNoParent;
  std::array<float, 3> origin{};  // model space
  std::array<float, 4> rotation{1, 0, 0, 0};        // Echoes only; kept verbatim
  std::array<float, 4> local_rotation{1, 0, 0, 0};  // Echoes only; kept verbatim
  std::vector<uint32_t> linked;
};

struct CinfFile {
  Game game = Game::Prime;
  std::vector<CinfBone> bones;
  std::vector<uint32_t> bone_ids;  // the second id list
  std::vector<std::pair<std::string, uint32_t>> names;
  Bytes trailing;
};

// game: as ParseAnim's for a version 0 file (an Echoes CINF has ids 0..count-1).
CinfFile ParseCinf(ByteView data, std::optional<Game> game = std::nullopt,
                   std::vector<std::string>* warnings = nullptr);
Bytes SerializeCinf(const CinfFile& file);
uint32_t NoParentOf(Game game);

// Rest translation of a bone: origin minus the parent's origin (Relative, the default)
// or the model-space origin as is (Absolute).
enum class RestRule { Relative, Absolute };

// Skeleton with parents before children; bone ids in scene.metadata[metadata_keys::kBoneIds].
Scene DecodeCinf(const CinfFile& file, RestRule rule);
CinfFile EncodeCinf(const Skeleton& skeleton, const std::vector<std::pair<std::string, uint32_t>>& named = {},
                    Game game = Game::Prime);

// The bone-id map a CINF-decoded scene carries ({} for other scenes).
std::vector<std::pair<std::string, uint32_t>> BoneIdsOf(const Scene& scene);

// The metadata keys a decoded ANIM or CINF holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kAnimVersion[] = "anim_version";  // ANIM clip: the file's version; a version 0 source stays 0
inline constexpr char kEvntId[] = "evnt_id";            // ANIM clip: the EVNT resource id; the encoder keeps it
inline constexpr char kRootBone[] = "root_bone";        // ANIM clip: the root bone id; the encoder keeps it
inline constexpr char kScratchSize[] = "scratch_size";  // ANIM clip (version 2): the header's scratch size
inline constexpr char kTranslationMultiplier[] = "translation_multiplier";  // ANIM clip (version 2): the encoder keeps it where the translations fit
inline constexpr char kBoneIds[] = "bone_ids";          // scene: each joint's bone id (CINF; an ANIM decoded with one)
inline constexpr char kRestRule[] = "rest_rule";        // CINF scene: "relative" or "absolute" (--cinf-rest)
inline constexpr char kGame[] = "metroid_game";         // ANIM clip, CINF scene: 1 (Metroid Prime) or 2 (Echoes)
inline constexpr std::array kAnimScene{kBoneIds};
inline constexpr std::array kAnimClip{kSourceFormatKey, kAnimVersion, kEvntId, kRootBone, kScratchSize,
                                      kTranslationMultiplier, kGame};
inline constexpr std::array kCinfScene{kSourceFormatKey, kBoneIds, kRestRule, kGame};
}  // namespace metadata_keys

}  // namespace animkit::metroid
