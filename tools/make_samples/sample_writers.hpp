#pragma once

#include <animkit/animkit.hpp>
#include <synthetic/synthetic.hpp>

#include <filesystem>
#include <string>

namespace animkit::samples {

// Writes bytes to dir/name atomically.
void WriteSample(const std::filesystem::path& dir, const std::string& name, ByteView bytes);

#define ANIMKIT_SAMPLES(folder, function) void function(const std::filesystem::path& dir);
#include "sample_list.inc"
#undef ANIMKIT_SAMPLES

}  // namespace animkit::samples
