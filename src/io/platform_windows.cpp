#ifdef _WIN32
#include "io/platform.hpp"

#include <animkit/io/path.hpp>

#include <cerrno>
#include <algorithm>
#include <random>

#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

namespace animkit::platform {

namespace {

thread_local int t_error = 0;

// The errno value a Windows error means, so that messages read the same on every platform.
int ErrnoOf(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT: return EACCES;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return EEXIST;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_INVALID_NAME:
    case ERROR_BAD_PATHNAME:
    case ERROR_FILENAME_EXCED_RANGE: return EINVAL;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    default: return EIO;
  }
}

bool Fail() {
  t_error = ErrnoOf(GetLastError());
  return false;
}

HANDLE AsHandle(FileHandle file) { return reinterpret_cast<HANDLE>(file); }
FileHandle AsFile(HANDLE handle) {
  return handle == INVALID_HANDLE_VALUE ? kNoFile : reinterpret_cast<FileHandle>(handle);
}

}  // namespace

int LastError() { return t_error; }

bool MapReadOnly(const std::string& path, Mapping& mapping, const char*& what) {
  what = "cannot open";
  HANDLE file = CreateFileW(PathOf(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                            nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) return Fail();
  LARGE_INTEGER size{};
  if (!GetFileSizeEx(file, &size)) {
    what = "cannot determine the file size";
    Fail();
    CloseHandle(file);
    return false;
  }
  mapping.size = static_cast<size_t>(size.QuadPart);
  if (mapping.size > 0) {
    what = "cannot map";
    HANDLE object = CreateFileMappingW(file, nullptr, PAGE_READONLY, 0, 0, nullptr);
    const void* view = object ? MapViewOfFile(object, FILE_MAP_READ, 0, 0, 0) : nullptr;
    if (!view) {
      Fail();
      if (object) CloseHandle(object);
      CloseHandle(file);
      return false;
    }
    mapping.data = static_cast<const uint8_t*>(view);
    mapping.handle = reinterpret_cast<std::intptr_t>(object);
  }
  CloseHandle(file);  // the mapping keeps the file
  return true;
}

void Unmap(const Mapping& mapping) {
  if (!mapping.data) return;
  UnmapViewOfFile(mapping.data);
  CloseHandle(reinterpret_cast<HANDLE>(mapping.handle));
}

FileHandle CreateUnique(std::string& name_template) {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device device;
  std::mt19937 pick(device());
  const size_t at = name_template.size() - 6;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = name_template;
    for (size_t i = at; i < name.size(); ++i) name[i] = kLetters[pick() % (sizeof kLetters - 1)];
    HANDLE file = CreateFileW(PathOf(name).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file != INVALID_HANDLE_VALUE) {
      name_template = name;
      return AsFile(file);
    }
    if (GetLastError() != ERROR_FILE_EXISTS) break;
  }
  Fail();
  return kNoFile;
}

bool WriteAll(FileHandle file, ByteView bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const DWORD chunk = static_cast<DWORD>(std::min<size_t>(bytes.size() - done, 1u << 30));
    DWORD written = 0;
    if (!WriteFile(AsHandle(file), bytes.data() + done, chunk, &written, nullptr)) return Fail();
    done += written;
  }
  return true;
}

bool FinishAndClose(FileHandle file, const char*& what) {
  what = "flush failed";
  const bool flushed = FlushFileBuffers(AsHandle(file)) != 0 || Fail();
  if (!CloseHandle(AsHandle(file)) && flushed) {
    what = "close failed";
    return Fail();
  }
  return flushed;
}

void Close(FileHandle file) { CloseHandle(AsHandle(file)); }

bool MoveIntoPlace(const std::string& from, const std::string& to) {
  const std::filesystem::path source = PathOf(from), target = PathOf(to);
  // A reader (an indexer, a virus scanner) holding the old file makes the replace fail for a
  // moment: a few tries before giving up.
  for (int attempt = 0;; ++attempt) {
    if (MoveFileExW(source.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return true;
    const DWORD error = GetLastError();
    if (attempt == 20 || (error != ERROR_ACCESS_DENIED && error != ERROR_SHARING_VIOLATION)) return Fail();
    Sleep(50);
  }
}

void RemoveFile(const std::string& path) { DeleteFileW(PathOf(path).c_str()); }

// Held: open with no sharing, so that another open fails with a sharing violation; removed
// when the handle closes, also when the process is killed.
FileHandle CreateHeldLock(const std::string& path) {
  HANDLE file = CreateFileW(PathOf(path).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_DELETE, nullptr, CREATE_ALWAYS,
                            FILE_ATTRIBUTE_NORMAL | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
  if (file == INVALID_HANDLE_VALUE) Fail();
  return AsFile(file);
}

bool LockIsHeld(const std::string& path) {
  HANDLE file = CreateFileW(PathOf(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                            nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file != INVALID_HANDLE_VALUE) {
    CloseHandle(file);
    return false;
  }
  return GetLastError() == ERROR_SHARING_VIOLATION;
}

unsigned ProcessId() { return static_cast<unsigned>(GetCurrentProcessId()); }

}  // namespace animkit::platform
#endif
