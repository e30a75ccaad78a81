// How a page carries bytes in text: gzip (zlib), then 7 bits per character (Text7, 8/7 of
// the bytes where base64 takes 4/3). The page decodes them itself and with the browser's
// DecompressionStream('gzip'): no request, no library of its own.
#pragma once

#include <animkit/core/binary.hpp>

#include <string>
#include <string_view>

namespace animkit::preview_encode {

// bytes as a gzip member (RFC 1952, best compression, no file name nor time: the same
// bytes give the same output).
Bytes Gzip(ByteView bytes);

// bytes as UTF-8 text for the content of a <script type="text/plain">, 7 bits per character:
// the bits of the bytes in order (most significant first) cut into groups of 7, zero-padded
// at the end; a group is the ASCII character of its value, except the three an HTML parser
// would change or that could end the element (NUL, CR, '<'): such a group, number i in
// kText7Escaped, and the group after it (0 when there is none) are together the character
// U+0100 + i x 128 + next (two bytes in UTF-8). The reader takes as many bytes as it was
// told the data has.
inline constexpr char kText7Escaped[3] = {'\0', '\r', '<'};
std::string Text7(ByteView bytes);


}  // namespace animkit::preview_encode
