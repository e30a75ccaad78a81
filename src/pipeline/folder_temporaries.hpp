// The temporary files of folder runs: each run tags its temporaries and holds a lock
// in the output folder while it runs, so that a later run removes a killed run's
// temporaries and never a live run's (docs/batch.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace animkit::folder_run {

// A tag unique to this run: process id, time and randomness, letters and digits only.
std::string NewRunTag();

// Removes the temporaries of runs that are no longer alive (killed): tagged with a
// run whose lock nobody holds, for the extension being written. Untagged temporaries
// (single-file conversions) and live runs' are left alone.
size_t RemoveStaleTemporaries(const std::filesystem::path& dir, const std::string& extension);

// A run's lock: OUTDIR/.animkit-run-TAG.lock, held for the whole run (platform.hpp).
class RunLock {
 public:
  // Creates the lock under a name no cleanup looks at, locks it, then renames it
  // into place: the lock file is never seen unlocked. Creates dir when missing.
  RunLock(const std::filesystem::path& out_root, const std::string& tag);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  std::filesystem::path path_;
  std::intptr_t lock_ = -1;  // a descriptor, or a Windows HANDLE
};

}  // namespace animkit::folder_run
