// PS1 ANM (Vib-Ribbon): per-frame keyframes that place the objects of a TMD model.
// Little-endian. Layout: i16 marker 0x8000, i16 unknown (1/15/20/30/60: probably a
// frame rate, unverified), u16 frame count, u16 offset table[count + 1] in 2-byte
// units, then frames of keyframes {u8 object, u8 flags, [i16 rot xyz], [i16 scale xyz],
// [i16 pos xyz]}; flags bit 0 rotation, bit 1 scale, bit 2 position.
#pragma once

#include <animkit/core/format.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace animkit::psx_anm {

inline constexpr uint16_t kMarker = 0x8000;
inline constexpr uint8_t kFlagRotation = 1, kFlagScale = 2, kFlagPosition = 4;
inline constexpr double kAngleUnitsPerTurn = 4096;
inline constexpr double kScaleOne = 4096;

struct Keyframe {
  uint8_t object = 0;
  uint8_t flags = 0;  // kept whole: bits above 2 are unknown and written back as read
  std::array<int16_t, 3> rotation{};  // 4096 per turn; meaningful when flags & kFlagRotation
  std::array<int16_t, 3> scale{};     // 4096 = 1.0; meaningful when flags & kFlagScale
  std::array<int16_t, 3> position{};  // model units; meaningful when flags & kFlagPosition
  size_t byte_size() const;
};

struct Frame {
  std::vector<Keyframe> keyframes;
};

struct File {
  uint16_t marker = kMarker;
  int16_t unknown = 60;       // kept verbatim
  std::vector<Frame> frames;
  Bytes gap;                  // bytes between the offset table and frame 0 (none in known files)
  Bytes trailing;             // bytes after the end offset
};

// How a keyframe that omits rotation or position is read (unverified in the game).
enum class MissingField { Hold, Interpolate };

struct DecodeSettings {
  EulerOrder euler = EulerOrder::XYZ;
  MissingField missing = MissingField::Hold;
  double frame_rate = 0;  // 0: the header's second field when in 1..240, else 60
};

File Parse(ByteView data);
Bytes Serialize(const File& file);
// One clip; joints are the keyed objects in index order, named "#N" unless names
// gives a name for index N.
Clip DecodeClip(const File& file, const DecodeSettings& settings, const std::vector<std::string>& names = {});
// Error at the keyframe's byte offset when one animates an object index >= object_count
// (what names the skeleton, e.g. "the --skeleton model").
void CheckObjects(const File& file, size_t object_count, const std::string& what);
// Quantizes a clip; the smallest flags that reproduce each keyframe under settings.missing.
File EncodeClip(const Clip& clip, const DecodeSettings& settings, const Skeleton* rest = nullptr);

double FrameRateOf(const File& file, const DecodeSettings& settings);

// The metadata keys a decoded PS1 ANM holds (glTF extras keep them).
namespace metadata_keys {
inline constexpr char kHeaderUnknown[] = "header_unknown";  // clip: the header's second field; the encoder keeps it
inline constexpr char kEuler[] = "euler";                   // clip: the Euler order decoded with, "xyz" or "zyx"
inline constexpr char kMissingFields[] = "missing_fields";  // clip: how omitted fields were read, "hold" or "interpolate"
inline constexpr std::array kClip{kSourceFormatKey, kHeaderUnknown, kEuler, kMissingFields};
}  // namespace metadata_keys

}  // namespace animkit::psx_anm
