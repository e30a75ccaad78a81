// File input and atomic output.
#pragma once

#include <animkit/core/binary.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace animkit {

// The whole file; Error naming the file when it cannot be read.
Bytes ReadFileBytes(const std::string& path);

// A file mapped read-only into memory: its bytes without a copy, paged in as they
// are read (batch conversion maps each input instead of reading it whole on every
// thread). Error naming the file when it cannot be opened or mapped.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ByteView bytes() const { return {data_, size_}; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::intptr_t handle_ = 0;  // Windows: the mapping object
};

// The temporary name AtomicFile writes first: ".NAME.tmp-XXXXXX", or with a run tag
// ".NAME.tmp-TAG-XXXXXX" (batch runs tag theirs, so that cleaning up after one run
// never touches another's).
std::string TemporaryTemplate(const std::string& file_name, std::string_view run_tag);

// The one writer of every file animkit makes: a temporary file beside the target
// (".NAME.tmp-XXXXXX"), fsync, rename over the target, so a reader never sees a
// half-written file. Write() may be called many times; nothing replaces the
// target until Commit(); a writer destroyed uncommitted removes its temporary.
class AtomicFile {
 public:
  // Refuses (Error) a path naming one of never_over: the files the command reads.
  // run_tag ("" or letters and digits) goes into the temporary's name.
  explicit AtomicFile(std::string path, const std::vector<std::string>& never_over = {},
                      std::string_view run_tag = {});
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  void Write(ByteView bytes);
  void Write(std::string_view text);
  void Commit();
  size_t size() const { return size_; }

 private:
  std::string path_, temp_;
  std::intptr_t file_ = -1;  // a descriptor, or a Windows HANDLE
  size_t size_ = 0;
};

void WriteFileAtomic(const std::string& path, ByteView bytes, const std::vector<std::string>& never_over = {},
                     std::string_view run_tag = {});

struct WrittenFile {
  std::string path;
  size_t bytes = 0;
};
// Several files of one command (an output and the files an encoder adds): all
// checked against never_over before any is written, then each written atomically.
// Refusing one of never_over is the single "would overwrite an input" check.
std::vector<WrittenFile> WriteOutputs(const std::vector<std::pair<std::string, ByteView>>& files,
                                      const std::vector<std::string>& never_over, std::string_view run_tag = {});

// Error "refusing to write over a file this command reads" naming path when it is
// (or is the same file as) one of never_over: every writer checks its outputs here.
void CheckNotAnInput(const std::string& path, const std::vector<std::string>& never_over);

// True when both paths name the same existing file.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace animkit
