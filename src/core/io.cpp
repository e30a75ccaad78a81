#include <animkit/error.hpp>
#include <animkit/io.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace animkit {

Bytes ReadFileBytes(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error::General("is a directory, expected a file").InFile(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error::General(std::string("cannot open: ") + std::strerror(errno)).InFile(path);
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) throw Error::General("cannot determine the file size").InFile(path);
  in.seekg(0);
  Bytes data(static_cast<size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) {
    throw Error::General("read failed").InFile(path);
  }
  return data;
}

namespace {

[[noreturn]] void FailWith(const std::string& path, const char* what, int err) {
  throw Error::General(std::string(what) + ": " + std::strerror(err)).InFile(path);
}

void CheckNotAnInput(const std::string& path, const std::vector<std::string>& never_over) {
  for (const std::string& input : never_over) {
    if (input.empty()) continue;
    if (input == path || SameFile(input, path)) {
      throw Error::General("refusing to write over a file this command reads").InFile(path);
    }
  }
}

}  // namespace

AtomicFile::AtomicFile(std::string path, const std::vector<std::string>& never_over) : path_(std::move(path)) {
  namespace fs = std::filesystem;
  CheckNotAnInput(path_, never_over);
  fs::path target(path_);
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  fd_ = mkstemp(name.data());
  if (fd_ < 0) FailWith(path_, "cannot create a temporary file", errno);
  temp_ = name.data();
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
}

void AtomicFile::Write(ByteView bytes) {
  if (fd_ < 0) throw Error::General("write after commit").InFile(path_);
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      FailWith(path_, "write failed", errno);
    }
    done += static_cast<size_t>(n);
  }
  size_ += bytes.size();
}

void AtomicFile::Write(std::string_view text) {
  Write(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void AtomicFile::Commit() {
  if (fd_ < 0) throw Error::General("committed twice").InFile(path_);
  if (fsync(fd_) != 0) FailWith(path_, "flush failed", errno);
  if (fchmod(fd_, 0644) != 0) FailWith(path_, "cannot set permissions", errno);
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) FailWith(path_, "close failed", errno);
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) FailWith(path_, "cannot rename into place", errno);
  temp_.clear();  // renamed: nothing to remove
}

void WriteFileAtomic(const std::string& path, ByteView bytes, const std::vector<std::string>& never_over) {
  AtomicFile out(path, never_over);
  out.Write(bytes);
  out.Commit();
}

std::vector<WrittenFile> WriteOutputs(const std::vector<std::pair<std::string, ByteView>>& files,
                                      const std::vector<std::string>& never_over) {
  for (size_t i = 0; i < files.size(); ++i) {
    CheckNotAnInput(files[i].first, never_over);
    for (size_t j = 0; j < i; ++j)
      if (files[j].first == files[i].first) throw Error::General("written twice by one command").InFile(files[i].first);
  }
  std::vector<WrittenFile> written;
  for (const auto& [path, bytes] : files) {
    WriteFileAtomic(path, bytes, never_over);
    written.push_back({path, bytes.size()});
  }
  return written;
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace animkit
