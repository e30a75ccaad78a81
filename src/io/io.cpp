#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace animkit {

Bytes ReadFileBytes(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error::General("is a directory, expected a file").InFile(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw Error::FromSystem(std::string("cannot open: ") + std::strerror(err), err).InFile(path);
  }
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
  throw Error::FromSystem(std::string(what) + ": " + std::strerror(err), err).InFile(path);
}

// Why a temporary file could not be made in dir: a folder that does not exist (or is not a
// folder) is named, since the file itself is not the problem.
[[noreturn]] void FailToCreateIn(const std::filesystem::path& dir, const std::string& path, int err) {
  std::error_code ec;
  if (err == ENOENT || err == ENOTDIR) {
    if (!std::filesystem::exists(dir, ec))
      throw Error::FromSystem("cannot write: the folder " + dir.string() + " does not exist", err).InFile(path);
  }
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error::FromSystem("cannot write: " + dir.string() + " is not a folder", err).InFile(path);
  }
  FailWith(path, ("cannot create a temporary file in " + dir.string()).c_str(), err);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error::General("is a directory, expected a file").InFile(path);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) FailWith(path, "cannot open", errno);
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    FailWith(path, "cannot determine the file size", err);
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      close(fd);
      FailWith(path, "cannot map", err);
    }
    data_ = static_cast<const uint8_t*>(p);
  }
  close(fd);  // the mapping keeps the file
}

MappedFile::~MappedFile() {
  if (data_) munmap(const_cast<uint8_t*>(data_), size_);
}

std::string TemporaryTemplate(const std::string& file_name, std::string_view run_tag) {
  std::string name = "." + file_name + ".tmp-";
  if (!run_tag.empty()) name += std::string(run_tag) + "-";
  return name + "XXXXXX";
}

AtomicFile::AtomicFile(std::string path, const std::vector<std::string>& never_over, std::string_view run_tag)
    : path_(std::move(path)) {
  namespace fs = std::filesystem;
  CheckNotAnInput(path_, never_over);
  fs::path target(path_);
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string tmpl = (dir / TemporaryTemplate(target.filename().string(), run_tag)).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  fd_ = mkstemp(name.data());
  if (fd_ < 0) FailToCreateIn(dir, path_, errno);
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

void WriteFileAtomic(const std::string& path, ByteView bytes, const std::vector<std::string>& never_over,
                     std::string_view run_tag) {
  AtomicFile out(path, never_over, run_tag);
  out.Write(bytes);
  out.Commit();
}

std::vector<WrittenFile> WriteOutputs(const std::vector<std::pair<std::string, ByteView>>& files,
                                      const std::vector<std::string>& never_over, std::string_view run_tag) {
  for (size_t i = 0; i < files.size(); ++i) {
    CheckNotAnInput(files[i].first, never_over);
    for (size_t j = 0; j < i; ++j)
      if (files[j].first == files[i].first) throw Error::General("written twice by one command").InFile(files[i].first);
  }
  std::vector<WrittenFile> written;
  for (const auto& [path, bytes] : files) {
    WriteFileAtomic(path, bytes, never_over, run_tag);
    written.push_back({path, bytes.size()});
  }
  return written;
}

void CheckNotAnInput(const std::string& path, const std::vector<std::string>& never_over) {
  for (const std::string& input : never_over) {
    if (input.empty()) continue;
    if (input == path || SameFile(input, path)) {
      throw Error::General("refusing to write over a file this command reads").InFile(path);
    }
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace animkit
