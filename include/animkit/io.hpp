// File input and atomic output.
#pragma once

#include <animkit/binary.hpp>

#include <string>

namespace animkit {

// The whole file; Error naming the file when it cannot be read.
Bytes ReadFileBytes(const std::string& path);

// Writes to a temporary file beside path, flushes it, then renames it over path,
// so a reader never sees a half-written file. Error when anything fails.
void WriteFileAtomic(const std::string& path, ByteView bytes);

// True when both paths name the same existing file.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace animkit
