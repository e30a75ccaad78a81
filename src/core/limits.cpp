#include <animkit/core/error.hpp>
#include <animkit/core/limits.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace animkit {

const std::vector<LimitInfo>& LimitTable() {
  static const std::vector<LimitInfo> table = {
      {"max-frames", &Limits::max_frames, "frames in one clip, stored or resampled"},
      {"max-joints", &Limits::max_joints, "joints in a skeleton or tracks in a clip"},
      {"max-clips", &Limits::max_clips, "clips in one file"},
      {"max-keys", &Limits::max_keys, "keys in one track"},
      {"max-values", &Limits::max_values, "keys decoded from one file; samples made for one clip"},
      {"max-depth", &Limits::max_depth, "archives nested in archives"},
      {"max-buffer-bytes", &Limits::max_buffer_bytes, "bytes of one external glTF buffer"},
      {"max-member-bytes", &Limits::max_member_bytes, "bytes of one archive member once unpacked"},
  };
  return table;
}

void FailAt(const Place& place, std::string message) {
  if (place.offset) throw Error::AtOffset(*place.offset, std::move(message));
  if (place.line > 0) throw Error::AtLine(place.line, place.column, std::move(message));
  throw Error::General(std::move(message));
}

namespace {

std::string_view NameOf(uint64_t Limits::*field) {
  for (const LimitInfo& info : LimitTable())
    if (info.field == field) return info.name;
  return "a limit";
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

Limits ForInputSize(const Limits& limits, uint64_t input_bytes) {
  Limits scaled = limits;
  if (input_bytes <= UINT64_MAX / kDecodedValuesPerInputByte)
    scaled.max_values = std::max(limits.max_values, input_bytes * kDecodedValuesPerInputByte);
  return scaled;
}

void CheckLimit(uint64_t value, uint64_t Limits::*field, const Limits& limits, std::string_view what,
                const Place& place) {
  const uint64_t limit = limits.*field;
  if (value <= limit) return;
  const std::string name(NameOf(field));
  FailAt(place, std::string(what) + " " + std::to_string(value) + " is over the limit " + name + " = " +
                    std::to_string(limit) + " (--" + name + " raises it)");
}

double CheckedTime(double value, std::string_view what, const Place& place) {
  if (!std::isfinite(value) || value < 0)
    FailAt(place, std::string(what) + " is " + Number(value) + ", expected a finite number >= 0");
  return value;
}

uint64_t CheckedFrameCount(double duration, double rate, const Limits& limits, std::string_view what,
                           const Place& place) {
  CheckedTime(duration, std::string(what) + ": the duration", place);
  if (!std::isfinite(rate) || rate <= 0)
    FailAt(place, std::string(what) + ": the frame rate is " + Number(rate) + ", expected a finite number > 0");
  const double last = std::floor(duration * rate + 1e-6);  // finite: both factors are
  // Compared in double first: a count past 2^64 must not be converted.
  if (!(last < double(limits.max_frames))) {
    const std::string name = "max-frames";
    FailAt(place, std::string(what) + ": " + Number(duration) + " s at " + Number(rate) + " frames per second is " +
                      Number(last + 1) + " frames, over the limit " + name + " = " + std::to_string(limits.max_frames) +
                      " (--" + name + " raises it)");
  }
  return uint64_t(last) + 1;
}

}  // namespace animkit
