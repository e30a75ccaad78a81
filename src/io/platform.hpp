// What files animkit needs of the operating system, once per platform
// (platform_posix.cpp, platform_windows.cpp): everything above this works on paths as
// UTF-8 strings and on errno values (a Windows error is given as the errno it means).
#pragma once

#include <animkit/core/binary.hpp>

#include <cstdint>
#include <string>

namespace animkit::platform {

// An open file: a descriptor, or a Windows HANDLE.
using FileHandle = std::intptr_t;
inline constexpr FileHandle kNoFile = -1;

// The error of the last failed call below, as an errno value.
int LastError();

// The whole file mapped read-only; false (LastError) when it cannot be opened or mapped.
// `what` names the step that failed.
struct Mapping {
  const uint8_t* data = nullptr;
  size_t size = 0;
  std::intptr_t handle = 0;  // Windows: the mapping object
};
bool MapReadOnly(const std::string& path, Mapping& mapping, const char*& what);
void Unmap(const Mapping& mapping);

// A new file of its own (never an existing one): name_template ends in "XXXXXX", which is
// replaced with a name no other file has. kNoFile on failure.
FileHandle CreateUnique(std::string& name_template);
// Every byte written (false on failure).
bool WriteAll(FileHandle file, ByteView bytes);
// Flushed to the disk, readable by everyone the folder lets read, and closed; `what` names the failed step.
bool FinishAndClose(FileHandle file, const char*& what);
void Close(FileHandle file);
// `from` takes the place of `to` in one step: a reader sees the old file or the new one, never neither.
bool MoveIntoPlace(const std::string& from, const std::string& to);
void RemoveFile(const std::string& path);

// A lock file held for the life of the handle: another process can tell it is held.
FileHandle CreateHeldLock(const std::string& path);
bool LockIsHeld(const std::string& path);

unsigned ProcessId();

}  // namespace animkit::platform
