// One set of limits for everything decoded from a file, the same for every format:
// a count, size or duration from a header is checked against them before
// anything proportional to it is allocated (docs/reliability.md lists them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

struct Limits {
  uint64_t max_frames = uint64_t{1} << 20;        // frames in one clip, stored or resampled
  uint64_t max_joints = 32767;                    // joints in a skeleton, tracks in a clip
  uint64_t max_clips = 65536;                     // clips in one file
  uint64_t max_keys = uint64_t{1} << 20;          // keys in one track
  uint64_t max_values = uint64_t{1} << 21;        // keys decoded from one file; samples (frames x joints) of one clip
  uint64_t max_depth = 16;                        // archives nested in archives
  uint64_t max_buffer_bytes = uint64_t{1} << 28;  // one external glTF buffer (declared byteLength)
  uint64_t max_member_bytes = uint64_t{1} << 28;  // one archive member once unpacked (declared size)
};

// Keys decoded from one file may reach max-values or this many per byte of the
// file, whichever is more: a whole real moveset decodes to more than max-values,
// a small hostile file cannot. Real KH2 files decode to 0.6-2.7 keys a byte (every
// frame of every joint; long clips of few curves to more): 8 leaves them room, and at
// 20-40 bytes a key memory stays near 320 x the input.
inline constexpr uint64_t kDecodedValuesPerInputByte = 8;
// limits with max_values raised to what an input of input_bytes justifies.
Limits ForInputSize(const Limits& limits, uint64_t input_bytes);

// A limit by the name the error messages and the CLI use ("max-frames" is --max-frames).
struct LimitInfo {
  std::string_view name;
  uint64_t Limits::*field;
  std::string_view help;
};
const std::vector<LimitInfo>& LimitTable();

// Where a checked value comes from, for the error: a byte offset, a line (and
// column) of a text file, or neither.
struct Place {
  std::optional<uint64_t> offset;
  int line = 0, column = 0;
  static Place At(uint64_t offset) { return Place{offset, 0, 0}; }
  static Place Line(int line, int column = 1) { return Place{std::nullopt, line, column}; }
};

// Throws animkit::Error naming the place, the value and the limit ("offset 0x14:
// the frame count 4294967295 is over the limit max-frames = 1048576 (--max-frames
// raises it)") unless value <= limits.*field.
void CheckLimit(uint64_t value, uint64_t Limits::*field, const Limits& limits, std::string_view what,
                const Place& place = {});

// The frames from time 0 to duration at rate, both ends included:
// floor(duration * rate + 1e-6) + 1. Throws animkit::Error for a NaN, infinite
// or negative duration, a rate that is not finite and > 0, and a count over max-frames.
uint64_t CheckedFrameCount(double duration, double rate, const Limits& limits, std::string_view what,
                           const Place& place = {});

// A time, duration or rate from a file: throws unless finite and >= 0.
double CheckedTime(double value, std::string_view what, const Place& place = {});

// The error of a failed check at place.
[[noreturn]] void FailAt(const Place& place, std::string message);

}  // namespace animkit
