// The two packings of a compressed PAK entry: MP1's zlib stream and MP2's segments (LZO1X,
// raw or zlib), both behind a u32 unpacked size. Bounded: the size is checked against the
// limits before anything is allocated, and no stream may give more or fewer bytes.
#include <animkit/formats/metroid_pak.hpp>

#include "metroid_pak_fields.hpp"

#include <lzo/lzo1x.h>
#include <zlib.h>

#include <limits>

namespace animkit::metroid_pak {

namespace {

bool IsZlib(ByteView s) { return s.size() >= 2 && s[0] == 0x78 && (s[1] == 0xDA || s[1] == 0x9C || s[1] == 0x01); }

// Inflates `in` (at `at` within the entry) into out[0, capacity); returns how many bytes it gave.
// More than capacity, a damaged stream or one that ends early is an Error.
size_t Inflate(ByteView in, uint64_t at, uint8_t* out, size_t capacity, std::string_view what) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw Error::General("zlib could not start");
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = uInt(std::min<size_t>(in.size(), std::numeric_limits<uInt>::max()));
  uint8_t none = 0;  // zlib wants somewhere to write even when there is no room
  z.next_out = capacity ? out : &none;
  z.avail_out = uInt(capacity);
  int status = inflate(&z, Z_FINISH);
  // A stream that filled the room but has not ended would give more than stated.
  if (status == Z_BUF_ERROR && z.avail_out == 0) {
    uint8_t extra = 0;
    z.next_out = &extra;
    z.avail_out = 1;
    status = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    if (status == Z_STREAM_END && z.avail_out == 1) return capacity;
    throw Error::AtOffset(at + z.total_in, std::string(what) + " gives more than the " + std::to_string(capacity) +
                                               " bytes it may (zlib)");
  }
  const size_t produced = capacity - z.avail_out;
  const uint64_t consumed = z.total_in;
  inflateEnd(&z);
  if (status == Z_STREAM_END) return produced;
  if (status == Z_BUF_ERROR)
    throw Error::AtOffset(at + consumed, std::string(what) + " ends after " + std::to_string(produced) +
                                             " bytes, before the stated size (zlib stream cut short)");
  throw Error::AtOffset(at + consumed, std::string(what) + ": the zlib stream is damaged (" +
                                           (z.msg ? std::string(z.msg) : std::to_string(status)) + ")");
}

void CheckLzo() {
  static const bool ready = lzo_init() == LZO_E_OK;
  if (!ready) throw Error::General("liblzo2 could not start");
}

// MP2: s16 length L then L bytes, LZO1X (or zlib) unpacking to one block of at most 0x4000;
// L < 0: |L| raw bytes. Until `out` is full.
void Unsegment(ByteReader& r, Bytes& out) {
  CheckLzo();
  size_t filled = 0;
  while (filled < out.size()) {
    const size_t at = r.tell();
    if (r.remaining() < 2)
      throw Error::AtOffset(at, "the segments end after " + std::to_string(filled) + " of the stated " +
                                    std::to_string(out.size()) + " bytes (a segment length, 2 bytes, expected)");
    const int16_t length = r.I16("a segment length");
    const size_t n = size_t(length < 0 ? -int32_t(length) : length);
    const ByteView body = r.Take(n, "the " + std::to_string(n) + " bytes of the segment at " + Hex(at));
    const size_t room = out.size() - filled;
    const std::string what = "the segment at " + Hex(at);
    if (length < 0) {
      if (n > room)
        throw Error::AtOffset(at, what + " holds " + std::to_string(n) + " raw bytes, more than the " +
                                      std::to_string(room) + " left of the stated size");
      std::copy(body.begin(), body.end(), out.begin() + std::ptrdiff_t(filled));
      filled += n;
      continue;
    }
    const size_t capacity = std::min(room, kSegmentBlock);
    if (n == 0) throw Error::AtOffset(at, what + " is empty: it would never reach the stated size");
    // LZO1X data may start like a zlib header too (a run of 103 literals, 0x78, then 0x01, 0x9C
    // or 0xDA): what does not inflate is read as LZO1X.
    if (IsZlib(body)) {
      try {
        filled += Inflate(body, at + 2, out.data() + filled, capacity, what);
        continue;
      } catch (const Error&) {
      }
    }
    lzo_uint produced = capacity;
    const int status = lzo1x_decompress_safe(body.data(), body.size(), out.data() + filled, &produced, nullptr);
    if (status == LZO_E_OUTPUT_OVERRUN)
      throw Error::AtOffset(at, what + " gives more than the " + std::to_string(capacity) +
                                    " bytes it may (a block is at most 0x4000 and the stated size bounds the last)");
    if (status != LZO_E_OK && status != LZO_E_INPUT_NOT_CONSUMED)
      throw Error::AtOffset(at, what + ": the LZO1X data is damaged (liblzo2 error " + std::to_string(status) + ")");
    if (produced == 0) throw Error::AtOffset(at, what + " gives no bytes");
    filled += produced;
  }
}

}  // namespace

Bytes Decompress(ByteView stored, const Limits& limits) {
  ByteReader r(stored, Endian::Big);
  StatedSize stated;
  fields::ReadAll(r, stated, kStatedSizeFields);
  CheckLimit(stated.size, &Limits::max_member_bytes, limits, "the unpacked size", Place::At(0));
  const ByteView stream = stored.subspan(4);
  // What the stream could give at most: deflate packs at most 1032:1; a segment takes 3 bytes
  // or more and gives at most 0x4000.
  const uint64_t most = IsZlib(stream) ? uint64_t(stream.size()) * 1032 + 64 : uint64_t(stream.size() / 3) * kSegmentBlock;
  if (stated.size > most)
    throw Error::AtOffset(0, "the unpacked size " + std::to_string(stated.size) + " is more than the " + std::to_string(most) +
                                 " bytes a stream of " + std::to_string(stream.size()) + " bytes can give");
  Bytes out(stated.size);
  if (IsZlib(stream)) {
    const size_t produced = Inflate(stream, 4, out.data(), out.size(), "the zlib stream");
    if (produced != out.size())
      throw Error::AtOffset(4, "the zlib stream gives " + std::to_string(produced) + " bytes, the stated size is " +
                                   std::to_string(out.size()));
    return out;
  }
  Unsegment(r, out);
  return out;
}

Bytes Compress(ByteView bytes, Packing packing) {
  if (bytes.size() > UINT32_MAX) throw Error::General("a PAK entry holds at most 4 GiB");
  ByteWriter w(Endian::Big);
  fields::WriteAll(w, StatedSize{uint32_t(bytes.size())}, kStatedSizeFields);
  if (packing == Packing::Zlib) {
    uLongf size = compressBound(uLong(bytes.size()));
    Bytes z(size);
    // Level 9 gives the 0x78DA header MP1's entries carry.
    if (compress2(z.data(), &size, bytes.data(), uLong(bytes.size()), Z_BEST_COMPRESSION) != Z_OK)
      throw Error::General("zlib could not compress the entry");
    w.Append(ByteView(z.data(), size));
    return w.Take();
  }
  if (packing != Packing::Segments) throw Error::General("an entry stored raw is not compressed");
  CheckLzo();
  std::vector<uint8_t> work(LZO1X_1_MEM_COMPRESS);
  Bytes block(kSegmentBlock + kSegmentBlock / 16 + 64 + 3);
  for (size_t at = 0; at < bytes.size(); at += kSegmentBlock) {
    const size_t n = std::min(kSegmentBlock, bytes.size() - at);
    lzo_uint packed = block.size();
    if (lzo1x_1_compress(bytes.data() + at, n, block.data(), &packed, work.data()) != LZO_E_OK)
      throw Error::General("liblzo2 could not compress the entry");
    // A segment length is an s16: a block LZO does not shrink is stored raw (L < 0).
    if (packed >= n || packed > 0x7FFF) {
      w.I16(int16_t(-int32_t(n)));
      w.Append(bytes.subspan(at, n));
    } else {
      w.I16(int16_t(packed));
      w.Append(ByteView(block.data(), packed));
    }
  }
  return w.Take();
}

}  // namespace animkit::metroid_pak
