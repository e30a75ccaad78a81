// File input and atomic output.
#pragma once

#include <animkit/binary.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace animkit {

// The whole file; Error naming the file when it cannot be read.
Bytes ReadFileBytes(const std::string& path);

// The one writer of every file animkit makes: a temporary file beside the target
// (".NAME.tmp-XXXXXX"), fsync, rename over the target, so a reader never sees a
// half-written file. Write() may be called many times; nothing replaces the
// target until Commit(); a writer destroyed uncommitted removes its temporary.
class AtomicFile {
 public:
  // Refuses (Error) a path naming one of never_over: the files the command reads.
  explicit AtomicFile(std::string path, const std::vector<std::string>& never_over = {});
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  void Write(ByteView bytes);
  void Write(std::string_view text);
  void Commit();
  size_t size() const { return size_; }

 private:
  std::string path_, temp_;
  int fd_ = -1;
  size_t size_ = 0;
};

void WriteFileAtomic(const std::string& path, ByteView bytes, const std::vector<std::string>& never_over = {});

struct WrittenFile {
  std::string path;
  size_t bytes = 0;
};
// Several files of one command (an output and the files an encoder adds): all
// checked against never_over before any is written, then each written atomically.
std::vector<WrittenFile> WriteOutputs(const std::vector<std::pair<std::string, ByteView>>& files,
                                      const std::vector<std::string>& never_over);

// True when both paths name the same existing file.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace animkit
