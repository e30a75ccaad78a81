// Earth Defense Force CANM (EDF 4.1/5: version 512; EDF 6: version 768). Little-endian.
// Header 0x20: "CANM", u32 version, then count/offset pairs (absolute) of the animation
// table (0x1C-byte entries), the channel table (0x20 or 0x30-byte entries) and the bone
// name table (4-byte entries). Animation entry: i32 loop, u32 name offset (from the entry),
// f32 duration, f32 interval (engine frames), i32 keyframes, u32 bone count, i32 bone
// table offset (from the entry); bone entry: i16 name index, i16 position, rotation and
// scale channel indices (-1 for none). Channel (512): i16 hasKeyframes, u16 key count,
// f32 base xyz, f32 speed xyz, i32 key offset (from the channel entry); keys u16 xyz.
// Channel (768): f32 base xyzw, f32 speed xyzw, i32 key offset, i32 type (0 static vector
// in base, 1 u16 xyz keys, 2 static quaternion in base, 3 float quaternion keys), i32 key
// count, u32 pad. The game's files: docs/formats/edf_canm.md (LayOutStock below).
// Name entry: u32 offset (from the entry) of a zero-terminated UTF-16LE string.
// value = base + key * speed; rotations are Euler radians, local = T * Rz * Ry * Rx * S.
//
// A File keeps the bytes it was read from (`image`) and every parsed field with the
// place it came from; Serialize writes the image with every parsed field written back
// at its place, so Serialize(Parse(x)) == x and edits to fixed-size fields are kept.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace animkit::edf_canm {

inline constexpr uint32_t kVersion5 = 512;  // EDF 4.1 / EDF 5
inline constexpr uint32_t kVersion6 = 768;  // EDF 6
inline constexpr size_t kHeaderSize = 0x20;
inline constexpr size_t kAnimationSize = 0x1C;
inline constexpr size_t kBoneSize = 0x08;
inline constexpr size_t kChannelSize5 = 0x20;
inline constexpr size_t kChannelSize6 = 0x30;
inline constexpr size_t kNameEntrySize = 0x04;
// The largest keyframe count an animation may claim (decoding allocates per frame).
inline constexpr int32_t kMaxKeyframes = 1 << 20;
inline constexpr double kEngineFramesPerSecond = 60;

// EDF 6 channel key types.
inline constexpr int32_t kTypeU16Xyz = 1, kTypeStaticQuat = 2, kTypeFloatQuat = 3;
// EDF 6 kind 0: a static vector (translation or scale) in base xyz; count 1, offset 0.
inline constexpr int32_t kTypeStaticVector = 0;
// EDF 6 reads kind-2 bases and kind-3 keys with aligned 16-byte loads (MOVAPS).
inline constexpr size_t kQuatAlignment = 16;

struct BoneEntry {
  int16_t name_index = 0;
  int16_t position = -1, rotation = -1, scale = -1;  // channel indices, -1 for none
};

struct Animation {
  int32_t loop = 0;            // 1 == looping
  uint32_t name_offset = 0;    // from the animation entry
  float duration = 0;          // engine frames
  float interval = 0;          // engine frames between keyframes
  int32_t keyframes = 0;
  uint32_t bone_count = 0;
  int32_t bone_offset = 0;     // from the animation entry
  std::string name;            // UTF-8, decoded from the pool (read-only)
  std::vector<BoneEntry> bones;
};

struct Channel {
  // Version 512: has_keyframes, key count (u16), base/speed xyz (w unused, kept 0).
  // Version 768: type, key count (i32), base/speed xyzw, pad.
  int16_t has_keyframes = 0;    // 512
  int32_t type = kTypeU16Xyz;   // 768
  uint32_t key_count = 0;
  std::array<float, 4> base{0, 0, 0, 0};
  std::array<float, 4> speed{0, 0, 0, 0};
  int32_t key_offset = 0;       // from the channel entry
  uint32_t pad = 0;             // 768
  std::vector<std::array<uint16_t, 3>> keys;  // u16 xyz keys
  std::vector<std::array<float, 4>> quats;    // float quaternion keys (768, type 3)
  bool quaternion(uint32_t version) const {
    return version == kVersion6 && (type == kTypeStaticQuat || type == kTypeFloatQuat);
  }
};

struct NameEntry {
  uint32_t offset = 0;  // from the entry itself
  std::string name;     // UTF-8 (read-only)
};

struct File {
  uint32_t version = kVersion5;
  uint32_t animation_count = 0, animation_offset = 0;
  uint32_t channel_count = 0, channel_offset = 0;
  uint32_t name_count = 0, name_offset = 0;
  std::vector<Animation> animations;
  std::vector<Channel> channels;
  std::vector<NameEntry> names;
  Bytes image;  // the file's bytes: strings, padding and gaps live here
  // What the reader accepted that EDF 6 faults on or never writes, each "offset 0x..: why"
  // (version 768 only; Document::Warnings lists them).
  std::vector<std::string> warnings;
  size_t channel_size() const { return version == kVersion6 ? kChannelSize6 : kChannelSize5; }
};

struct DecodeSettings {
  double engine_fps = kEngineFramesPerSecond;  // engine frames per second (interval/duration units)
  Limits limits;  // keys decoding may create (max-values)
};

struct EncodeSettings {
  uint32_t version = kVersion5;
  double engine_fps = kEngineFramesPerSecond;
};

File Parse(ByteView data);
Bytes Serialize(const File& file);

// The value of a channel's component triple at key k (held at the last key; the base when
// it has none). Quaternion channels give x, y, z, w; u16 channels x, y, z (w = base w).
std::array<float, 4> ChannelValue(const File& file, const Channel& channel, size_t key);
// Frames per second of an animation: engine_fps / interval (or duration / (keyframes - 1)).
double FrameRateOf(const Animation& animation, const DecodeSettings& settings);
// Clips, one per animation, joints named by the bone name table ("#N" where absent).
std::vector<Clip> DecodeClips(const File& file, const DecodeSettings& settings);
// Quantizes clips into a new file. order (optional) lists bone names to place first.
File EncodeClips(const std::vector<Clip>& clips, const EncodeSettings& settings,
                 const Skeleton* skeleton = nullptr, Value* report = nullptr);

// ---------------------------------------------------------------- EDF 6 stock layout
// Where LayOutStock writes blocks and strings (both optional).
struct StockOrder {
  // Channel indices in the order their key blocks are written (kind-1 blocks first, then
  // kind-3 ones, each group in this order); channels it leaves out follow in table order.
  std::vector<size_t> blocks;
  // The string pool in order; empty = StockStrings of the content. Every clip and bone
  // name must be in it; a name refers to its first occurrence.
  std::vector<std::string> strings;
};
// The pool rule for new files (a documented choice, the exact stock rule is unverified):
// every distinct clip and bone name once, "Scene_Root" first, the rest by code point.
std::vector<std::string> StockStrings(const File& content);
// Lays a version-768 file out in the game's stock order: header; channel table at 0x20;
// kind-1 key blocks (6-byte keys, contiguous); zero fill to 16 (when kind-3 blocks
// follow); kind-3 blocks (16-byte keys, each 16-aligned); zero pad to 4; clip table;
// the track tables of all clips, clip after clip; bone-name table; the string pool.
// content: channels (type, base, speed, keys or quats), animations (loop, duration,
// interval, keyframes, name, bones) and names (name). Every count, offset, reserved word
// and the image are assigned; base and speed are written as given (see docs for the
// stock words). Kind 0/2 get count 1 and offset 0; a kind-1/3 channel without keys is an
// error (the game never has a count of 0). The result is Parse(image).
File LayOutStock(File content, const StockOrder& order = {});

// EDF 6's Euler -> quaternion (EDF.dll 0x649A0) in float32 at every step: (x, y, z, w).
std::array<float, 4> EulerToQuat768(float x, float y, float z);
// An EDF 4.1/5 CANM (512) as EDF 6 has it (768): one channel per (role, old channel),
// numbered by first use over clips -> tracks -> translation, rotation, scale; vectors
// kind 0/1 (EDF 5's base/step kept), rotations kind 2/3 through EulerToQuat768; vector
// blocks in the old blocks' address order, then quaternion blocks; strings in the old
// pool's address order. Throws for a file that is not version 512.
File ConvertTo768(const File& v512);

// The metadata keys a decoded CANM holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kCanmVersion[] = "canm_version";  // scene and clip: the file's version; the encoder keeps it
inline constexpr char kLoop[] = "loop";                 // clip: the animation entry's loop field
inline constexpr char kDuration[] = "duration";         // clip: the entry's duration, engine frames
inline constexpr char kInterval[] = "interval";         // clip: the entry's interval, engine frames
inline constexpr char kKeyframes[] = "keyframes";       // clip: the entry's keyframe count
inline constexpr char kEngineFps[] = "engine_fps";      // clip: the engine rate it was decoded with
// clip: per joint, each keyed 16-bit channel's quantization, {"position"|"rotation"|"scale":
// [base xyz, speed xyz]} (rotation adds its first key's angles, which fix the turns of
// multi-turn angles); the encoder quantizes on that grid wherever the values fit it.
inline constexpr char kChannels[] = "canm_channels";
inline constexpr std::array kScene{kSourceFormatKey, kCanmVersion};
inline constexpr std::array kClip{kSourceFormatKey, kCanmVersion, kLoop,      kDuration,
                                  kInterval,        kKeyframes,   kEngineFps, kChannels};
}  // namespace metadata_keys

}  // namespace animkit::edf_canm
