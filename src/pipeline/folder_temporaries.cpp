// The temporaries and run locks of folder runs (folder_temporaries.hpp).
#include "pipeline/folder_temporaries.hpp"

#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/io/path.hpp>
#include <animkit/pipeline/folder_job.hpp>

#include "io/platform.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>

namespace animkit {

namespace fs = std::filesystem;

bool IsTemporaryName(std::string_view name) {
  // ".<name>.tmp-XXXXXX" or ".<name>.tmp-TAG-XXXXXX": the mkstemp templates of AtomicFile.
  constexpr std::string_view kTag = ".tmp-";
  if (name.size() < 1 + 1 + kTag.size() + 6 || name.front() != '.') return false;
  const size_t tag = name.rfind(kTag);
  if (tag == std::string_view::npos || tag < 2) return false;
  const std::string_view tail = name.substr(tag + kTag.size());
  const size_t dash = tail.find('-');
  const std::string_view random = dash == std::string_view::npos ? tail : tail.substr(dash + 1);
  const std::string_view run = dash == std::string_view::npos ? std::string_view() : tail.substr(0, dash);
  auto alnum = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  };
  if (random.size() != 6 || !alnum(random)) return false;
  return dash == std::string_view::npos || (!run.empty() && alnum(run));
}

std::string_view TemporaryRunTag(std::string_view name) {
  if (!IsTemporaryName(name)) return {};
  const std::string_view tail = name.substr(name.rfind(".tmp-") + 5);
  const size_t dash = tail.find('-');
  return dash == std::string_view::npos ? std::string_view() : tail.substr(0, dash);
}

namespace folder_run {

namespace {

// The temporary name's target ("walk.glb" for ".walk.glb.tmp-AbC123" or ".walk.glb.tmp-r1f2-AbC123").
std::string TemporaryTarget(const std::string& name) { return name.substr(1, name.rfind(".tmp-") - 1); }

// A run's lock: OUTDIR/.animkit-run-TAG.lock, held (flock) for the whole run, so
// that another run can tell a live run's temporaries from a killed run's.
std::string RunLockName(std::string_view tag) { return ".animkit-run-" + std::string(tag) + ".lock"; }

// True when the run that tagged a temporary still holds its lock.
bool RunIsLive(const fs::path& out_root, std::string_view tag) {
  return platform::LockIsHeld(TextOf(out_root / RunLockName(tag)));
}

}  // namespace

RunLock::RunLock(const fs::path& out_root, const std::string& tag) : path_(out_root / RunLockName(tag)) {
  std::error_code ec;
  fs::create_directories(out_root, ec);
  if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(TextOf(out_root));
  lock_ = platform::CreateHeldLock(TextOf(path_));
  if (lock_ == platform::kNoFile) {
    throw Error::General(std::string("cannot take the run lock: ") + std::strerror(platform::LastError()))
        .InFile(TextOf(path_));
  }
}

RunLock::~RunLock() {
  platform::RemoveFile(TextOf(path_));
  platform::Close(lock_);
}

std::string NewRunTag() {
  std::random_device rd;
  const auto now = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  char buf[40];
  std::snprintf(buf, sizeof buf, "r%x%04x%04x", platform::ProcessId(), static_cast<unsigned>(now & 0xFFFF),
                static_cast<unsigned>(rd() & 0xFFFF));
  return buf;
}

size_t RemoveStaleTemporaries(const fs::path& dir, const std::string& extension) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  size_t removed = 0;
  std::map<std::string, bool, std::less<>> live;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = TextOf(it->path().filename());
    if (!IsTemporaryName(name) || !it->is_regular_file(ec)) continue;
    if (ExtensionOf(TemporaryTarget(name)) != extension) continue;
    const std::string tag(TemporaryRunTag(name));
    if (tag.empty()) continue;
    auto known = live.find(tag);
    if (known == live.end()) known = live.emplace(tag, RunIsLive(dir, tag)).first;
    if (known->second) continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm)) ++removed;
  }
  // The locks of runs that are over. A lock file appears under its name already
  // locked (RunLock), so one nobody holds belongs to a run that is over.
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = TextOf(it->path().filename());
    constexpr std::string_view kPrefix = ".animkit-run-", kSuffix = ".lock";
    if (name.size() <= kPrefix.size() + kSuffix.size() || name.rfind(kPrefix, 0) != 0 ||
        name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
      continue;
    }
    const std::string tag = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
    std::error_code rm;
    if (!RunIsLive(dir, tag)) fs::remove(it->path(), rm);
  }
  return removed;
}

}  // namespace folder_run

}  // namespace animkit
