#ifndef _WIN32
#include "io/platform.hpp"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace animkit::platform {

int LastError() { return errno; }

bool MapReadOnly(const std::string& path, Mapping& mapping, const char*& what) {
  what = "cannot open";
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    what = "cannot determine the file size";
    const int err = errno;
    close(fd);
    errno = err;
    return false;
  }
  mapping.size = static_cast<size_t>(st.st_size);
  if (mapping.size > 0) {
    void* p = mmap(nullptr, mapping.size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      what = "cannot map";
      const int err = errno;
      close(fd);
      errno = err;
      return false;
    }
    mapping.data = static_cast<const uint8_t*>(p);
  }
  close(fd);  // the mapping keeps the file
  return true;
}

void Unmap(const Mapping& mapping) {
  if (mapping.data) munmap(const_cast<uint8_t*>(mapping.data), mapping.size);
}

FileHandle CreateUnique(std::string& name_template) {
  std::vector<char> name(name_template.begin(), name_template.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd >= 0) name_template = name.data();
  return fd;
}

bool WriteAll(FileHandle file, ByteView bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(static_cast<int>(file), bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool FinishAndClose(FileHandle file, const char*& what) {
  const int fd = static_cast<int>(file);
  what = "flush failed";
  bool ok = fsync(fd) == 0;
  if (ok) {
    what = "cannot set permissions";
    ok = fchmod(fd, 0644) == 0;
  }
  const int err = errno;
  if (close(fd) != 0 && ok) {
    what = "close failed";
    return false;
  }
  errno = err;
  return ok;
}

void Close(FileHandle file) { close(static_cast<int>(file)); }

bool MoveIntoPlace(const std::string& from, const std::string& to) { return std::rename(from.c_str(), to.c_str()) == 0; }

void RemoveFile(const std::string& path) { unlink(path.c_str()); }

FileHandle CreateHeldLock(const std::string& path) {
  const std::string fresh = path + ".new";
  const int fd = open(fresh.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return kNoFile;
  if (flock(fd, LOCK_EX) != 0 || std::rename(fresh.c_str(), path.c_str()) != 0) {
    const int err = errno;
    close(fd);
    unlink(fresh.c_str());
    errno = err;
    return kNoFile;
  }
  return fd;
}

bool LockIsHeld(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // a run creates its lock before its first temporary and removes it last
  const bool held = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);  // releases the lock if it was taken
  return held;
}

unsigned ProcessId() { return static_cast<unsigned>(getpid()); }

}  // namespace animkit::platform
#endif
