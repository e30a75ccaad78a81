// PNG images in and out, for every format that writes or reads one (glTF's embedded
// images, the PNG image format): stb_image decodes, stb_image_write encodes.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>

#include <string>

namespace animkit::png {

// Why an image cannot be written as PNG, "" when it can (no pixels, a side over 32768, a
// pixel buffer of the wrong size).
std::string UnwritableReason(const Image& image);
// The image as an 8-bit RGBA PNG; Error naming the image when it cannot be written.
Bytes Encode(const Image& image);
// A PNG (or JPEG) file's pixels as 8-bit RGBA; an Error at offset 0 saying why when stb_image
// cannot read it, and before anything is decoded when its RGBA would take more than the
// limit max-buffer-bytes.
Image Decode(ByteView bytes, const Limits& limits);

}  // namespace animkit::png
