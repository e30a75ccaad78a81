// PS1 ANC camera animation (Vib-Ribbon). Little-endian. Layout: i16 marker 0x8000,
// i16 unknown (as in the ANM: probably a frame rate, unverified), u16 keyframe
// count, then at 0x06 one 16-byte keyframe per frame: i16 camera position x, y, z,
// i16 target x, y, z, i16 twist, i16 field of view. The units of twist and field
// of view are unverified: the file's values are kept raw, and the decoder's
// reading of them is an option.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace animkit::psx_anc {

inline constexpr uint16_t kMarker = 0x8000;
inline constexpr size_t kHeaderSize = 6;
inline constexpr size_t kKeyframeSize = 16;

struct Keyframe {
  std::array<int16_t, 3> position{};
  std::array<int16_t, 3> target{};
  int16_t twist = 0;
  int16_t fov = 0;
};

struct File {
  uint16_t marker = kMarker;
  int16_t unknown = 60;  // kept verbatim
  std::vector<Keyframe> keyframes;
  Bytes trailing;        // bytes after the last keyframe
};

// How the twist and field-of-view values are read (unverified in the game).
enum class TwistUnit { Angle4096, Ignore };            // 4096 per turn (the PS1 angle unit), or roll 0
enum class FovUnit { Raw, Angle4096, Projection };     // unknown / 4096 per turn / GTE projection distance

struct DecodeSettings {
  TwistUnit twist = TwistUnit::Angle4096;
  FovUnit fov = FovUnit::Raw;
  double frame_rate = 0;        // 0: the header's second field when in 1..240, else 60
  double screen_height = 240;   // for FovUnit::Projection: yfov = 2 atan(height / 2 / fov)
};

File Parse(ByteView data);
Bytes Serialize(const File& file);
double FrameRateOf(const File& file, const DecodeSettings& settings);
// One clip "camera" with one CameraTrack (STEP, one key per frame); the raw twist
// and fov values are in the track's metadata.
Clip DecodeClip(const File& file, const DecodeSettings& settings);
// The clip's first camera, sampled at each frame (STEP: the latest key).
File EncodeClip(const Clip& clip, const DecodeSettings& settings);

// The metadata keys a decoded PS1 ANC holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kHeaderUnknown[] = "header_unknown";  // clip: the header's second field; the encoder keeps it
inline constexpr char kTwist[] = "twist";                   // clip: how twist was read, "angle" or "ignore"
inline constexpr char kFov[] = "fov";                       // clip: how fov was read (the --anc-fov choice)
inline constexpr char kTwistRaw[] = "twist_raw";            // camera: the raw twist per key; the encoder keeps it
inline constexpr char kFovRaw[] = "fov_raw";                // camera: the raw fov per key; the encoder keeps it
inline constexpr std::array kClip{kSourceFormatKey, kHeaderUnknown, kTwist, kFov};
inline constexpr std::array kCamera{kTwistRaw, kFovRaw};
}  // namespace metadata_keys

}  // namespace animkit::psx_anc
