// Metroid Prime (GameCube) skeletal animation: ANIM version 0 (float quaternion
// arrays) and version 2 (delta-coded, bit-packed keys over a key bitmap), and the
// CINF skeleton they animate. Big-endian. The layout as implemented, with the
// corrections to the community description, is in docs/formats/metroid_anim.md.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animkit::metroid {

inline constexpr uint32_t kNoParent = 2;          // CINF parent id of a root bone
inline constexpr uint32_t kDefaultDivisor = 0x7FFF;
inline constexpr size_t kMaxBoneTable = 256;      // version 0 bone id -> channel table
inline constexpr int kMaxBits = 32;               // widest delta the reader accepts

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

struct AnimFile {
  uint32_t version = 2;
  AnimV0 v0;  // when version == 0
  AnimV2 v2;  // when version == 2
};

AnimFile ParseAnim(ByteView data);
Bytes SerializeAnim(const AnimFile& file);

// Decoded keys of one version 2 channel, one per set bit of the bitmap.
struct DecodedChannel {
  uint32_t bone_id = 0;
  std::vector<std::array<int16_t, 3>> rotation;  // running totals
  std::vector<uint8_t> w_negative;
  std::vector<std::array<int16_t, 3>> translation;  // empty without translation
};
// Unpacks the bitstream; Error (with the offset) when it is shorter than the descriptors need.
std::vector<DecodedChannel> UnpackV2(const AnimV2& anim);
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
  double tolerance_rot = 0, tolerance_pos = 0;
  float translation_multiplier = 0;
};

AnimFile EncodeAnim(const Clip& clip, const EncodeSettings& settings, EncodeReport* report = nullptr);

// Bone ids for joint names: names from `named`, "#N" -> N, others after the highest id (skipping 2).
std::vector<uint32_t> AssignBoneIds(const std::vector<std::string>& joints,
                                    const std::vector<std::pair<std::string, uint32_t>>& named);

// ---------------------------------------------------------------- CINF

struct CinfBone {
  uint32_t id = 0;
  uint32_t parent = kNoParent;
  std::array<float, 3> origin{};  // model space
  std::vector<uint32_t> linked;
};

struct CinfFile {
  std::vector<CinfBone> bones;
  std::vector<uint32_t> bone_ids;  // the second id list
  std::vector<std::pair<std::string, uint32_t>> names;
  Bytes trailing;
};

CinfFile ParseCinf(ByteView data);
Bytes SerializeCinf(const CinfFile& file);

// Rest translation of a bone: origin minus the parent's origin (Relative, the default)
// or the model-space origin as is (Absolute).
enum class RestRule { Relative, Absolute };

// Skeleton with parents before children; bone ids in scene.metadata[metadata_keys::kBoneIds].
Scene DecodeCinf(const CinfFile& file, RestRule rule);
CinfFile EncodeCinf(const Skeleton& skeleton, const std::vector<std::pair<std::string, uint32_t>>& named = {});

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
inline constexpr std::array kAnimScene{kBoneIds};
inline constexpr std::array kAnimClip{kSourceFormatKey, kAnimVersion, kEvntId, kRootBone, kScratchSize,
                                      kTranslationMultiplier};
inline constexpr std::array kCinfScene{kSourceFormatKey, kBoneIds, kRestRule};
}  // namespace metadata_keys

}  // namespace animkit::metroid
