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

void WriteFileAtomic(const std::string& path, ByteView bytes) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) throw Error::General(std::string("cannot create a temporary file: ") + std::strerror(errno)).InFile(path);
  auto fail = [&](const char* what) {
    int err = errno;
    close(fd);
    unlink(name.data());
    throw Error::General(std::string(what) + ": " + std::strerror(err)).InFile(path);
  };
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write failed");
    }
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) fail("flush failed");
  if (fchmod(fd, 0644) != 0) fail("cannot set permissions");
  if (close(fd) != 0) {
    int err = errno;
    unlink(name.data());
    throw Error::General(std::string("close failed: ") + std::strerror(err)).InFile(path);
  }
  if (std::rename(name.data(), path.c_str()) != 0) {
    int err = errno;
    unlink(name.data());
    throw Error::General(std::string("cannot rename into place: ") + std::strerror(err)).InFile(path);
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace animkit
