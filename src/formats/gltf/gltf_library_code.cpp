// The code of the header libraries glTF reading and writing use: tinygltf (Debian's
// libtinygltf-dev) and stb_image (libstb-dev) compiled here, once, as tinygltf's own
// tiny_gltf.cc does, so the CLI carries them on every platform instead of shipping their
// shared libraries. Kept out of unity batches (CMakeLists.txt): these defines must not
// reach another source.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
// tinygltf's default image writer; static, as the material export's own copy is.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_INCLUDE_STB_IMAGE
#define TINYGLTF_NO_INCLUDE_STB_IMAGE_WRITE
#include <nlohmann/json.hpp>
#include <tiny_gltf.h>
