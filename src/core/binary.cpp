#include <animkit/core/binary.hpp>

#include <bit>
#include <cstring>

namespace animkit {

std::string Hex(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

void ByteReader::Fail(std::string message) const { FailAt(pos_, std::move(message)); }

void ByteReader::FailAt(size_t pos, std::string message) const {
  throw Error::AtOffset(base_ + pos, std::move(message));
}

void ByteReader::Require(uint64_t n, std::string_view what) const {
  if (n > remaining()) {
    Fail(std::string(what) + " runs past the end of the data (needs " + Hex(n) + " bytes, " +
         Hex(remaining()) + " left)");
  }
}

size_t ByteReader::Count(uint64_t count, uint64_t elem_size, std::string_view what) const {
  // Division avoids overflow of count * elem_size.
  if (elem_size != 0 && count > remaining() / elem_size) {
    Fail(std::string(what) + ": count " + std::to_string(count) + " of " + std::to_string(elem_size) +
         "-byte entries does not fit in the " + Hex(remaining()) + " bytes left");
  }
  return static_cast<size_t>(count);
}

void ByteReader::Seek(uint64_t pos, std::string_view what) {
  if (pos > data_.size()) {
    Fail(std::string(what) + " points to " + Hex(base_ + pos) + ", past the end (" + Hex(base_ + data_.size()) + ")");
  }
  pos_ = static_cast<size_t>(pos);
}

void ByteReader::Skip(uint64_t n, std::string_view what) {
  Require(n, what);
  pos_ += static_cast<size_t>(n);
}

uint64_t ByteReader::ReadUnsigned(int bytes, std::string_view what) {
  Require(static_cast<uint64_t>(bytes), what);
  uint64_t v = 0;
  const uint8_t* p = data_.data() + pos_;
  if (endian_ == Endian::Little) {
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  } else {
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  }
  pos_ += static_cast<size_t>(bytes);
  return v;
}

uint8_t ByteReader::U8(std::string_view what) { return static_cast<uint8_t>(ReadUnsigned(1, what)); }
int8_t ByteReader::I8(std::string_view what) { return static_cast<int8_t>(ReadUnsigned(1, what)); }
uint16_t ByteReader::U16(std::string_view what) { return static_cast<uint16_t>(ReadUnsigned(2, what)); }
int16_t ByteReader::I16(std::string_view what) { return static_cast<int16_t>(ReadUnsigned(2, what)); }
uint32_t ByteReader::U32(std::string_view what) { return static_cast<uint32_t>(ReadUnsigned(4, what)); }
int32_t ByteReader::I32(std::string_view what) { return static_cast<int32_t>(ReadUnsigned(4, what)); }
float ByteReader::F32(std::string_view what) { return std::bit_cast<float>(U32(what)); }

ByteView ByteReader::Take(uint64_t n, std::string_view what) {
  Require(n, what);
  ByteView v = data_.subspan(pos_, static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return v;
}

void ByteReader::Magic(std::string_view expected) {
  const size_t at = pos_;
  ByteView found = Take(expected.size(), "the magic '" + std::string(expected) + "'");
  if (std::memcmp(found.data(), expected.data(), expected.size()) != 0) {
    std::string shown;
    for (uint8_t b : found) shown += (b >= 0x20 && b < 0x7F) ? char(b) : '.';
    FailAt(at, "expected the magic '" + std::string(expected) + "', found '" + shown + "'");
  }
}

std::string ByteReader::CString(std::string_view what) {
  const uint8_t* begin = data_.data() + pos_;
  const void* nul = std::memchr(begin, 0, remaining());
  if (!nul) Fail(std::string(what) + " has no terminating zero before the end of the data");
  size_t len = static_cast<const uint8_t*>(nul) - begin;
  std::string s(reinterpret_cast<const char*>(begin), len);
  pos_ += len + 1;
  return s;
}

void ByteWriter::CString(std::string_view text) {
  if (text.find('\0') != std::string_view::npos)
    throw Error::General("the string '" + std::string(text.substr(0, text.find('\0'))) + "...' holds a zero byte");
  out_.insert(out_.end(), text.begin(), text.end());
  out_.push_back(0);
}

ByteReader ByteReader::Sub(uint64_t offset, uint64_t n, std::string_view what) const {
  if (offset > data_.size() || n > data_.size() - offset) {
    FailAt(pos_, std::string(what) + " [" + Hex(base_ + offset) + ", +" + Hex(n) + ") runs past the end (" +
                     Hex(base_ + data_.size()) + ")");
  }
  return ByteReader(data_.subspan(static_cast<size_t>(offset), static_cast<size_t>(n)), endian_, base_ + offset);
}

std::string ByteReader::Utf16z(int64_t pos, size_t field, std::string_view what) const {
  if (pos < 0) FailAt(field, std::string(what) + " points before the start of the file");
  if (static_cast<uint64_t>(pos) >= data_.size()) {
    FailAt(field, std::string(what) + " points to " + Hex(absolute(static_cast<size_t>(pos))) + ", outside the file (" +
                      Hex(absolute(data_.size())) + " bytes)");
  }
  std::vector<uint16_t> units;
  for (size_t p = static_cast<size_t>(pos);; p += 2) {
    if (p + 2 > data_.size()) {
      FailAt(static_cast<size_t>(pos), std::string(what) + " is not terminated: no zero UTF-16 unit before the end of the file");
    }
    const uint16_t u = endian_ == Endian::Little ? static_cast<uint16_t>(data_[p] | (data_[p + 1] << 8))
                                                 : static_cast<uint16_t>((data_[p] << 8) | data_[p + 1]);
    if (u == 0) break;
    units.push_back(u);
  }
  return Utf8FromUtf16(units);
}

ByteReader ByteReader::Table(int64_t offset, uint64_t count, uint64_t entry_size, size_t field,
                             std::string_view what) const {
  if (offset < 0) FailAt(field, std::string(what) + " offset points before the start of the file");
  if (static_cast<uint64_t>(offset) > data_.size()) {
    FailAt(field, std::string(what) + " offset points to " + Hex(absolute(static_cast<size_t>(offset))) +
                      ", past the end of the " + (base_ == 0 ? "file" : "entry") + " (" + Hex(absolute(data_.size())) +
                      ")");
  }
  const auto at = static_cast<uint64_t>(offset);
  ByteReader t = Sub(at, data_.size() - at, what);
  t.Count(count, entry_size, what);
  return t;
}

std::string Utf8FromUtf16(const std::vector<uint16_t>& units) {
  std::string out;
  auto put = [&out](uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  };
  for (size_t i = 0; i < units.size(); ++i) {
    const uint32_t u = units[i];
    if (u >= 0xD800 && u < 0xDC00 && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000) {
      put(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00));
      ++i;
    } else if (u >= 0xD800 && u < 0xE000) {
      put(0xFFFD);
    } else {
      put(u);
    }
  }
  return out;
}

std::vector<uint16_t> Utf16FromUtf8(std::string_view text) {
  std::vector<uint16_t> out;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    uint32_t cp = 0xFFFD;
    size_t len = 1;
    if (c < 0x80) {
      cp = c;
    } else if ((c >> 5) == 6 && i + 1 < text.size()) {
      cp = ((c & 0x1Fu) << 6) | (uint8_t(text[i + 1]) & 0x3Fu), len = 2;
    } else if ((c >> 4) == 14 && i + 2 < text.size()) {
      cp = ((c & 0x0Fu) << 12) | ((uint8_t(text[i + 1]) & 0x3Fu) << 6) | (uint8_t(text[i + 2]) & 0x3Fu), len = 3;
    } else if ((c >> 3) == 30 && i + 3 < text.size()) {
      cp = ((c & 0x07u) << 18) | ((uint8_t(text[i + 1]) & 0x3Fu) << 12) | ((uint8_t(text[i + 2]) & 0x3Fu) << 6) |
           (uint8_t(text[i + 3]) & 0x3Fu);
      len = 4;
    }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(uint16_t(0xD800 + (cp >> 10)));
      out.push_back(uint16_t(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(uint16_t(cp));
    }
  }
  return out;
}

void ByteWriter::WriteUnsigned(uint64_t v, int bytes) {
  size_t at = out_.size();
  out_.resize(at + static_cast<size_t>(bytes));
  PatchUnsigned(at, v, bytes);
}

void ByteWriter::PatchUnsigned(size_t pos, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    int shift = endian_ == Endian::Little ? 8 * i : 8 * (bytes - 1 - i);
    out_.at(pos + static_cast<size_t>(i)) = static_cast<uint8_t>(v >> shift);
  }
}

void ByteWriter::F32(float v) { U32(std::bit_cast<uint32_t>(v)); }
void ByteWriter::PatchU16(size_t pos, uint16_t v) { PatchUnsigned(pos, v, 2); }
void ByteWriter::PatchU32(size_t pos, uint32_t v) { PatchUnsigned(pos, v, 4); }

void ByteWriter::AlignTo(size_t alignment, uint8_t fill) {
  while (out_.size() % alignment) out_.push_back(fill);
}

namespace le {
namespace {
void CheckSpan(size_t size, size_t at, size_t width) {
  if (at > size || width > size - at)
    throw Error::General("a " + std::to_string(8 * width) + "-bit value at " + Hex(at) + " lies outside the " +
                         Hex(size) + "-byte image");
}
}  // namespace

uint16_t Load16At(ByteView b, size_t at) {
  CheckSpan(b.size(), at, 2);
  return Load16(b.data() + at);
}
uint32_t Load32At(ByteView b, size_t at) {
  CheckSpan(b.size(), at, 4);
  return Load32(b.data() + at);
}
void Store16At(Bytes& b, size_t at, uint16_t v) {
  CheckSpan(b.size(), at, 2);
  Store16(b.data() + at, v);
}
void Store32At(Bytes& b, size_t at, uint32_t v) {
  CheckSpan(b.size(), at, 4);
  Store32(b.data() + at, v);
}
}  // namespace le

}  // namespace animkit
