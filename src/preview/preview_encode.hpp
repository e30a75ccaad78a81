// How a page carries bytes in text: gzip (zlib), then base64. The page decodes them with
// atob and the browser's DecompressionStream('gzip'): no request, no library of its own.
#pragma once

#include <animkit/core/binary.hpp>

#include <string>
#include <string_view>

namespace animkit::preview_encode {

// bytes as a gzip member (RFC 1952, best compression, no file name nor time: the same
// bytes give the same output).
Bytes Gzip(ByteView bytes);

// bytes as base64 (RFC 4648, with padding).
std::string Base64(ByteView bytes);

// text gzipped, then base64: what a page's data blocks hold.
std::string GzipBase64(std::string_view text);

}  // namespace animkit::preview_encode
