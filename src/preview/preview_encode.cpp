#include "preview/preview_encode.hpp"

#include <animkit/core/error.hpp>

#include <zlib.h>

namespace animkit::preview_encode {

Bytes Gzip(ByteView bytes) {
  if (bytes.size() > 0xFFFFFFFFu) throw Error::General("the page's data is over 4 GiB");
  z_stream stream{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw Error::General("zlib: cannot start compressing the page's data");
  }
  // The header names no operating system (zlib writes the build's own: 3 on Linux, 10 on
  // Windows), so that a page is the same bytes wherever it was made; no time, no name.
  gz_header header{};
  header.os = 255;
  if (deflateSetHeader(&stream, &header) != Z_OK) {
    deflateEnd(&stream);
    throw Error::General("zlib: cannot set the gzip header of the page's data");
  }
  Bytes out(deflateBound(&stream, static_cast<uLong>(bytes.size())) + 32);
  stream.next_in = const_cast<Bytef*>(bytes.data());  // zlib's API is not const-correct; it only reads
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  const size_t written = stream.total_out;
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw Error::General("zlib: compressing the page's data did not finish");
  out.resize(written);
  return out;
}

namespace {

// Appends code point cp (< 0x800) as UTF-8.
void AppendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

int EscapedIndex(unsigned group) {
  for (int i = 0; i < 3; ++i) {
    if (group == static_cast<unsigned char>(kText7Escaped[i])) return i;
  }
  return -1;
}

}  // namespace

// The bytes' bits, most significant first, as groups of 7 (zero-padded at the end).
class Groups7 {
 public:
  explicit Groups7(ByteView bytes) : bytes_(bytes), left_((bytes.size() * 8 + 6) / 7) {}
  bool done() const { return left_ == 0; }
  unsigned next() {
    if (left_ == 0) return 0;
    --left_;
    while (bits_ < 7) {
      acc_ = acc_ << 8 | (at_ < bytes_.size() ? bytes_[at_] : 0u);
      ++at_;
      bits_ += 8;
    }
    bits_ -= 7;
    return (acc_ >> bits_) & 0x7Fu;
  }

 private:
  ByteView bytes_;
  size_t left_, at_ = 0;
  uint32_t acc_ = 0;
  int bits_ = 0;
};

std::string Text7(ByteView bytes) {
  Groups7 groups(bytes);
  std::string out;
  out.reserve(bytes.size() * 8 / 7 + bytes.size() / 64 + 2);
  while (!groups.done()) {
    const unsigned value = groups.next();
    const int escaped = EscapedIndex(value);
    if (escaped < 0) {
      out += static_cast<char>(value);
    } else {
      AppendUtf8(out, 0x100u + static_cast<unsigned>(escaped) * 128u + groups.next());
    }
  }
  return out;
}

}  // namespace animkit::preview_encode
