// The ANIM version 2 key bitstream: fields packed LSB-first into big-endian 32-bit words.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/formats/metroid_anim.hpp>

namespace animkit::metroid {

// Reads fields LSB-first from big-endian 32-bit words.
class BitReader {
 public:
  explicit BitReader(const Bytes& bytes) : data_(bytes.data()), words_(bytes.size() / 4) {}
  // Two's complement field of width bits (0..32); the caller has checked the length.
  int32_t Signed(unsigned bits) {
    if (bits == 0) return 0;
    while (avail_ < bits) Refill();
    const uint64_t v = buf_ & ((uint64_t{1} << bits) - 1);
    buf_ >>= bits;
    avail_ -= bits;
    const uint64_t sign = uint64_t{1} << (bits - 1);
    return static_cast<int32_t>(static_cast<int64_t>(v ^ sign) - static_cast<int64_t>(sign));
  }
  bool Bit() {
    if (avail_ == 0) Refill();
    const bool b = buf_ & 1u;
    buf_ >>= 1;
    --avail_;
    return b;
  }

 private:
  void Refill() {
    uint64_t word = 0;
    if (next_ < words_) {
      word = be::Load32(data_ + 4 * next_);
    }
    ++next_;
    buf_ |= word << avail_;
    avail_ += 32;
  }
  const uint8_t* data_;
  size_t words_, next_ = 0;
  uint64_t buf_ = 0;
  unsigned avail_ = 0;
};

// Writes fields as BitReader reads them.
class BitWriter {
 public:
  void Put(uint32_t value, unsigned bits) {
    if (bits == 0) return;
    const uint64_t mask = bits >= 32 ? 0xFFFFFFFFull : ((uint64_t{1} << bits) - 1);
    buf_ |= (uint64_t{value} & mask) << avail_;
    avail_ += bits;
    while (avail_ >= 32) Flush();
  }
  Bytes Finish() {
    if (avail_ > 0) Flush();
    return std::move(out_);
  }

 private:
  void Flush() {
    const uint32_t w = static_cast<uint32_t>(buf_);
    out_.push_back(uint8_t(w >> 24)), out_.push_back(uint8_t(w >> 16)), out_.push_back(uint8_t(w >> 8)),
        out_.push_back(uint8_t(w));
    buf_ >>= 32;
    avail_ = avail_ >= 32 ? avail_ - 32 : 0;
  }
  uint64_t buf_ = 0;
  unsigned avail_ = 0;
  Bytes out_;
};

// Bits the version 2 bitstream needs; Error when the descriptors ask for more than
// any file could hold.
uint64_t BitsNeeded(const AnimV2& a);

// The key bitmap both games' version 2 share: a bit count, then a bit per frame (set: a key
// frame) in 32-bit words.
void ReadKeyBitmap(ByteReader& r, uint32_t& bits, std::vector<uint32_t>& words);
void WriteKeyBitmap(ByteWriter& w, uint32_t bits, const std::vector<uint32_t>& words);
// The set bits among the first `bits`: the frames that carry a key.
size_t KeyedFrameCount(uint32_t bits, const std::vector<uint32_t>& words);

}  // namespace animkit::metroid
