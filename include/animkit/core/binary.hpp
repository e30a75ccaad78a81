// Bounds-checked binary reading and writing with explicit byte order.
// Every read names what it reads, so a failure says what was expected and where.
#pragma once

#include <animkit/core/error.hpp>

#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

using ByteView = std::span<const uint8_t>;
using Bytes = std::vector<uint8_t>;

enum class Endian { Little, Big };

class ByteReader {
 public:
  // base is the absolute offset of data[0] in the file, so errors in a sub-reader
  // still name file offsets.
  ByteReader(ByteView data, Endian endian, uint64_t base = 0)
      : data_(data), endian_(endian), base_(base) {}

  size_t size() const { return data_.size(); }
  size_t tell() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  uint64_t base() const { return base_; }
  uint64_t absolute(size_t pos) const { return base_ + pos; }
  Endian endian() const { return endian_; }
  ByteView data() const { return data_; }

  void Seek(uint64_t pos, std::string_view what);
  void Skip(uint64_t n, std::string_view what);
  // Fails unless n bytes are left.
  void Require(uint64_t n, std::string_view what) const;
  // Checks that count elements of elem_size bytes fit in what is left, before
  // anything is allocated for them; returns count.
  size_t Count(uint64_t count, uint64_t elem_size, std::string_view what) const;

  uint8_t U8(std::string_view what = "a byte");
  int8_t I8(std::string_view what = "a byte");
  uint16_t U16(std::string_view what = "a 16-bit value");
  int16_t I16(std::string_view what = "a 16-bit value");
  uint32_t U32(std::string_view what = "a 32-bit value");
  int32_t I32(std::string_view what = "a 32-bit value");
  float F32(std::string_view what = "a float");
  ByteView Take(uint64_t n, std::string_view what);
  // Consumes expected.size() bytes and fails unless they are expected
  // ("expected the magic 'CANM', found 'CAN.'").
  void Magic(std::string_view expected);
  // A zero-terminated 8-bit string (terminator consumed, not returned).
  std::string CString(std::string_view what);

  // A zero-terminated UTF-16 string (this reader's byte order) at pos, as UTF-8 (unpaired
  // surrogates become U+FFFD). field is where the offset that led here was read: the error
  // when pos lies outside names it; an unterminated string is an error at pos.
  std::string Utf16z(int64_t pos, size_t field, std::string_view what) const;

  // A reader over [offset, offset + n) of this one.
  ByteReader Sub(uint64_t offset, uint64_t n, std::string_view what) const;
  // A table of count entries of entry_size bytes at offset (a file value: negative or
  // past the end is an error at field, where the offset was read), checked to fit before
  // anything is allocated for it; the reader runs to the end of this one.
  ByteReader Table(int64_t offset, uint64_t count, uint64_t entry_size, size_t field, std::string_view what) const;

  [[noreturn]] void Fail(std::string message) const;  // at the current position
  [[noreturn]] void FailAt(size_t pos, std::string message) const;

 private:
  uint64_t ReadUnsigned(int bytes, std::string_view what);
  ByteView data_;
  Endian endian_;
  uint64_t base_;
  size_t pos_ = 0;
};

class ByteWriter {
 public:
  explicit ByteWriter(Endian endian) : endian_(endian) {}
  void U8(uint8_t v) { out_.push_back(v); }
  void I8(int8_t v) { out_.push_back(static_cast<uint8_t>(v)); }
  void U16(uint16_t v) { WriteUnsigned(v, 2); }
  void I16(int16_t v) { WriteUnsigned(static_cast<uint16_t>(v), 2); }
  void U32(uint32_t v) { WriteUnsigned(v, 4); }
  void I32(int32_t v) { WriteUnsigned(static_cast<uint32_t>(v), 4); }
  void F32(float v);
  void Append(ByteView bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }
  // A zero-terminated 8-bit string (ByteReader::CString's counterpart); Error when text
  // holds a zero byte, which would end it early.
  void CString(std::string_view text);
  void Fill(size_t n, uint8_t value = 0) { out_.insert(out_.end(), n, value); }
  void AlignTo(size_t alignment, uint8_t fill = 0);
  void PatchU16(size_t pos, uint16_t v);
  void PatchU32(size_t pos, uint32_t v);
  size_t size() const { return out_.size(); }
  const Bytes& bytes() const { return out_; }
  Bytes Take() { return std::move(out_); }

 private:
  void WriteUnsigned(uint64_t v, int bytes);
  void PatchUnsigned(size_t pos, uint64_t v, int bytes);
  Endian endian_;
  Bytes out_;
};

// Little-endian loads and stores on memory the caller has already bounds-checked (a
// vertex buffer, a kept file image patched in place). Untrusted input is read through
// ByteReader; the `At` forms check the offset and throw instead.
namespace le {
inline uint16_t Load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
inline uint32_t Load32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline float LoadF32(const uint8_t* p) { return std::bit_cast<float>(Load32(p)); }
inline void Store16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
inline void Store32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void StoreF32(uint8_t* p, float v) { Store32(p, std::bit_cast<uint32_t>(v)); }
inline void Append16(Bytes& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v));
  b.push_back(static_cast<uint8_t>(v >> 8));
}
inline void Append32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void AppendF32(Bytes& b, float v) { Append32(b, std::bit_cast<uint32_t>(v)); }
inline void Append64(Bytes& b, uint64_t v) {
  Append32(b, static_cast<uint32_t>(v));
  Append32(b, static_cast<uint32_t>(v >> 32));
}
// Checked: an Error naming `at` when [at, at + width) lies outside b.
uint16_t Load16At(ByteView b, size_t at);
uint32_t Load32At(ByteView b, size_t at);
inline float LoadF32At(ByteView b, size_t at) { return std::bit_cast<float>(Load32At(b, at)); }
void Store16At(Bytes& b, size_t at, uint16_t v);
void Store32At(Bytes& b, size_t at, uint32_t v);
inline void StoreF32At(Bytes& b, size_t at, float v) { Store32At(b, at, std::bit_cast<uint32_t>(v)); }
}  // namespace le

// Big-endian loads and stores on memory the caller has already bounds-checked (a GX texel
// tile copied out of a checked level).
// Bytes a reader keeps viewing after the read: the owner's (a mapped file) when there is
// one, else a copy, which becomes the owner.
inline ByteView KeepAlive(ByteView data, std::shared_ptr<const void>& owner) {
  if (owner) return data;
  auto copy = std::make_shared<const Bytes>(data.begin(), data.end());
  const ByteView view(*copy);
  owner = std::move(copy);
  return view;
}

namespace be {
inline uint16_t Load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
inline uint32_t Load32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
inline void Store16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
}  // namespace be

// UTF-16 code units to UTF-8 (unpaired surrogates become U+FFFD) and back (invalid
// UTF-8 bytes become U+FFFD).
std::string Utf8FromUtf16(const std::vector<uint16_t>& units);
std::vector<uint16_t> Utf16FromUtf8(std::string_view text);

// "0x1c4": offsets in messages are always written this way.
std::string Hex(uint64_t v);

}  // namespace animkit
