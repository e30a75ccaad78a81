#include <animkit/pipeline/batch.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <mutex>
#include <set>
#include <thread>

#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <random>
#include <sys/file.h>
#include <unistd.h>

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

namespace {

struct OutputTarget {
  const FormatDescriptor* format = nullptr;  // nullptr: sample JSON
  std::string extension;                     // with the dot
};

OutputTarget ResolveOutput(const std::string& to) {
  std::string lower = to;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!lower.empty() && lower.front() == '.') lower.erase(0, 1);
  if (lower.empty()) throw Error::General("no output format given (--to ID or extension)");
  if (lower == "json") return {nullptr, ".json"};
  OutputTarget t;
  if (const FormatDescriptor* f = FindFormat(lower)) {
    t = {f, f->extensions.empty() ? std::string() : std::string(f->extensions.front())};
  } else {
    auto by_ext = FormatsForExtension("." + lower);
    if (by_ext.empty()) throw Error::General("unknown output format '" + to + "'");
    t = {by_ext.front(), "." + lower};
  }
  if (!t.format->encode) {
    throw Error::General(std::string(t.format->id) + " files cannot be written from animation data");
  }
  if (t.extension.empty()) throw Error::General(std::string(t.format->id) + " has no file extension to write");
  return t;
}

// The temporary name's target ("walk.glb" for ".walk.glb.tmp-AbC123" or ".walk.glb.tmp-r1f2-AbC123").
std::string TemporaryTarget(const std::string& name) { return name.substr(1, name.rfind(".tmp-") - 1); }

// A run's lock: OUTDIR/.animkit-run-TAG.lock, held (flock) for the whole run, so
// that another run can tell a live run's temporaries from a killed run's.
std::string RunLockName(std::string_view tag) { return ".animkit-run-" + std::string(tag) + ".lock"; }

// True when the run that tagged a temporary still holds its lock.
bool RunIsLive(const fs::path& out_root, std::string_view tag) {
  const int fd = open((out_root / RunLockName(tag)).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // a run creates its lock before its first temporary and removes it last
  const bool live = flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);  // releases the lock if it was taken
  return live;
}

class RunLock {
 public:
  // Creates the lock under a name no cleanup looks at, locks it, then renames it
  // into place: the lock file is never seen unlocked.
  RunLock(const fs::path& out_root, const std::string& tag) : path_(out_root / RunLockName(tag)) {
    std::error_code ec;
    fs::create_directories(out_root, ec);
    if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(out_root.string());
    const fs::path fresh = path_.string() + ".new";
    fd_ = open(fresh.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error::General(std::string("cannot create the run lock: ") + std::strerror(errno)).InFile(fresh.string());
    if (flock(fd_, LOCK_EX) != 0 || std::rename(fresh.c_str(), path_.c_str()) != 0) {
      const int err = errno;
      close(fd_);
      unlink(fresh.c_str());
      throw Error::General(std::string("cannot take the run lock: ") + std::strerror(err)).InFile(path_.string());
    }
  }
  ~RunLock() {
    unlink(path_.c_str());
    close(fd_);
  }
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  fs::path path_;
  int fd_ = -1;
};

// A tag unique to this run: process id, time and randomness, letters and digits only.
std::string NewRunTag() {
  std::random_device rd;
  const auto now = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  char buf[40];
  std::snprintf(buf, sizeof buf, "r%x%04x%04x", static_cast<unsigned>(getpid()), static_cast<unsigned>(now & 0xFFFF),
                static_cast<unsigned>(rd() & 0xFFFF));
  return buf;
}

// Removes the temporaries of runs that are no longer alive (killed): tagged with a
// run whose lock nobody holds, for the extension being written. Untagged temporaries
// (single-file conversions) and live runs' are left alone.
size_t RemoveStaleTemporaries(const fs::path& dir, const std::string& extension) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  size_t removed = 0;
  std::map<std::string, bool, std::less<>> live;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
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
    const std::string name = it->path().filename().string();
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

// relative input path -> relative output path: the extension replaced; where two
// inputs of one folder would get the same name, each keeps its own extension.
std::vector<std::string> OutputNames(const std::vector<std::string>& files, const std::string& extension) {
  auto replaced = [&](const std::string& rel) {
    const size_t slash = rel.rfind('/');
    const size_t name_start = slash == std::string::npos ? 0 : slash + 1;
    const size_t dot = rel.rfind('.');
    if (dot == std::string::npos || dot <= name_start) return rel + extension;
    return rel.substr(0, dot) + extension;
  };
  std::map<std::string, size_t> uses;
  std::vector<std::string> out;
  out.reserve(files.size());
  for (const std::string& f : files) out.push_back(replaced(f));
  for (const std::string& o : out) ++uses[o];
  for (size_t i = 0; i < files.size(); ++i) {
    if (uses[out[i]] > 1) out[i] = files[i] + extension;
  }
  return out;
}

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<std::string> ListFolder(const std::string& dir, const std::string& exclude) {
  std::vector<std::string> files;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw Error::General("cannot list the folder: " + ec.message()).InFile(dir);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::error_code st;
    if (it->is_directory(st)) {
      if (!exclude.empty() && fs::equivalent(it->path(), exclude, st)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(st)) continue;
    files.push_back(it->path().lexically_relative(dir).generic_string());
  }
  if (ec) throw Error::General("cannot list the folder: " + ec.message()).InFile(dir);
  std::sort(files.begin(), files.end());
  return files;
}

SkeletonMapper::SkeletonMapper(const std::vector<SkeletonMapRule>& map, const std::vector<std::string>& files)
    : map_(map), skeleton_of_rule_(map.size()) {
  for (size_t r = 0; r < map.size(); ++r) {
    for (const std::string& f : files) {
      if (GlobMatch(map[r].skeleton, f)) {
        skeleton_of_rule_[r] = f;
        break;
      }
    }
  }
}

std::optional<std::string> SkeletonMapper::SkeletonFor(const std::string& rel) const {
  for (size_t r = 0; r < map_.size(); ++r) {
    if (!GlobMatch(map_[r].animation, rel)) continue;
    if (skeleton_of_rule_[r].empty()) {
      throw Error::General("skeleton map line " + std::to_string(map_[r].line) + ": no file matches '" +
                           map_[r].skeleton + "'");
    }
    return skeleton_of_rule_[r];
  }
  return std::nullopt;
}

void BatchConvertJob::Validate() const {
  std::error_code ec;
  if (input_dir.empty()) throw Error::General("no input folder given");
  if (!fs::is_directory(input_dir, ec)) throw Error::General("not a folder").InFile(input_dir);
  if (output_dir.empty()) throw Error::General("no output folder given");
  if (fs::exists(output_dir, ec) && !fs::is_directory(output_dir, ec)) {
    throw Error::General("exists and is not a folder").InFile(output_dir);
  }
  if (fs::weakly_canonical(input_dir, ec) == fs::weakly_canonical(output_dir, ec)) {
    throw Error::General("the output folder must differ from the input folder").InFile(output_dir);
  }
  ResolveOutput(to);
  if (threads > 1024) throw Error::General("at most 1024 threads");
  for (const SkeletonMapRule& r : skeleton_map) {
    CheckGlob(r.animation);
    CheckGlob(r.skeleton);
  }
  if (!skeleton.empty() && skeleton != kSkeletonAuto && !fs::is_regular_file(skeleton, ec)) {
    throw Error::General("no such skeleton file").InFile(skeleton);
  }
}

BatchReport BatchConvertJob::Run() const {
  Validate();
  const auto t0 = std::chrono::steady_clock::now();
  const OutputTarget target = ResolveOutput(to);
  const fs::path in_root(input_dir), out_root(output_dir);

  BatchReport report;
  report.stale_temporaries_removed = RemoveStaleTemporaries(out_root, target.extension);
  const std::string run_tag = NewRunTag();
  const RunLock run_lock(out_root, run_tag);

  std::error_code ec;
  fs::path exclude;
  const fs::path in_canon = fs::weakly_canonical(in_root, ec);
  const fs::path out_canon = fs::weakly_canonical(out_root, ec);
  if (fs::exists(out_root, ec)) {
    const fs::path rel = out_canon.lexically_relative(in_canon);
    if (!rel.empty() && *rel.begin() != "..") exclude = out_root;
  }
  const std::vector<std::string> files = ListFolder(in_root.string(), exclude.string());
  const std::vector<std::string> outputs = OutputNames(files, target.extension);
  // Canonical input paths: an output must never land on an input.
  std::set<std::string> input_set;
  for (const std::string& f : files) input_set.insert((in_canon / f).lexically_normal().string());

  const SkeletonMapper mapper(skeleton_map, files);

  // Each skeleton file is decoded once per run, by the first file that needs it.
  struct SharedSkeleton {
    std::once_flag once;
    Scene scene;
    std::optional<Error> error;
  };
  std::map<std::string, SharedSkeleton> skeletons;
  std::mutex skeletons_mutex;  // guards insertion (companions are found as files are read)
  std::atomic<size_t> skeletons_decoded{0};
  auto shared_skeleton = [&](const std::string& path) -> const Scene& {
    SharedSkeleton* entry = nullptr;
    {
      std::lock_guard lock(skeletons_mutex);
      entry = &skeletons[path];  // map nodes stay where they are
    }
    SharedSkeleton& shared = *entry;
    std::call_once(shared.once, [&] {
      ++skeletons_decoded;
      try {
        shared.scene = LoadReference(path, options);
      } catch (const Error& e) {
        shared.error = e;
      }
    });
    if (shared.error) throw *shared.error;
    return shared.scene;
  };

  unsigned n_threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  n_threads = static_cast<unsigned>(std::min<size_t>(n_threads, std::max<size_t>(files.size(), 1)));
  report.threads = n_threads;

  std::vector<BatchFileResult> results(files.size());
  std::vector<char> finished(files.size(), 0);
  std::atomic<size_t> next{0};
  std::mutex mutex;  // guards progress, counters, folder creation
  BatchProgress progress_state;
  progress_state.total = files.size();
  std::exception_ptr progress_failure;  // the first exception the progress callback threw
  std::atomic<bool> stop{false};

  auto process = [&](size_t i) {
    BatchFileResult r;
    r.path = files[i];
    const auto start = std::chrono::steady_clock::now();
    const std::string in_path = (in_root / files[i]).string();
    try {
      std::error_code size_ec;
      const uintmax_t size = fs::file_size(in_path, size_ec);
      if (size_ec) throw Error::General("cannot read: " + size_ec.message()).InFile(in_path);
      r.bytes_in = static_cast<size_t>(size);
      if (size > max_file_size) {
        r.reason = "larger than the " + std::to_string(max_file_size >> 20) + " MiB limit";
      } else {
        const MappedFile mapped(in_path);  // paged in as the reader goes, shared with the page cache
        const ByteView data = mapped.bytes();
        const Detection d = Detect(data, in_path);
        if (!d.format) {
          r.reason = "no format recognises the contents";
        } else {
          r.format = std::string(d.format->id);
          r.score = d.score;
          if (d.score <= kProbeExtension && !accept_extension_only) {
            r.reason = "only the extension " + ExtensionOf(in_path) + " suggests " + r.format +
                       "; the contents do not match";
          } else {
            r.status = BatchStatus::Failed;  // until it converts
            const fs::path out_path = out_root / outputs[i];
            if (input_set.count(fs::weakly_canonical(out_path, size_ec).lexically_normal().string())) {
              throw Error::General("the output " + out_path.string() + " would overwrite an input file")
                  .InFile(in_path);
            }
            std::string skeleton_path = skeleton;
            if (skeleton == kSkeletonAuto) {
              skeleton_path = FindCompanion(in_path, *d.format).path;
              if (!skeleton_path.empty()) r.skeleton = fs::path(skeleton_path).lexically_relative(in_root).generic_string();
            }
            std::optional<std::string> map_skeleton;
            try {
              map_skeleton = mapper.SkeletonFor(files[i]);
            } catch (const Error& e) {
              throw e.InFile(in_path);
            }
            if (map_skeleton) {
              r.skeleton = *map_skeleton;
              skeleton_path = (in_root / *map_skeleton).string();
            }
            if (r.skeleton.empty() && !skeleton.empty() && skeleton != kSkeletonAuto) r.skeleton = skeleton;
            {
              std::lock_guard lock(mutex);
              std::error_code mk;
              fs::create_directories(out_path.parent_path(), mk);
              if (mk) throw Error::General("cannot create the folder: " + mk.message()).InFile(out_path.parent_path().string());
            }
            ConvertRequest request;
            request.input = in_path;
            request.output = out_path.string();
            request.input_format = r.format;
            request.output_format = target.format ? std::string(target.format->id) : std::string();
            if (!skeleton_path.empty()) request.skeleton = SkeletonSource::Decoded(shared_skeleton(skeleton_path), skeleton_path);
            request.clip = clip;
            request.options = options;
            request.input_bytes = data;
            request.run_tag = run_tag;
            const ConvertResult c = Convert(request);
            r.status = BatchStatus::Converted;
            r.output = outputs[i];
            for (size_t w = 1; w < c.written.size(); ++w)
              r.extra_outputs.push_back(fs::path(c.written[w].path).lexically_relative(out_root).generic_string());
            r.clips = c.clips;
            r.frames = c.frames;
            r.joints = c.joints;
            r.bytes_out = c.bytes_out;
          }
        }
      }
    } catch (const Error& e) {
      r.status = BatchStatus::Failed;
      r.error = e.what();
    } catch (const std::exception& e) {
      r.status = BatchStatus::Failed;
      r.error = Error::General(e.what()).InFile(in_path).what();
    }
    if (r.status == BatchStatus::Failed && r.error.empty()) r.error = in_path + ": failed";
    r.seconds = SecondsSince(start);
    std::lock_guard lock(mutex);
    results[i] = std::move(r);
    finished[i] = 1;
    ++progress_state.done;
    switch (results[i].status) {
      case BatchStatus::Converted: ++progress_state.converted; break;
      case BatchStatus::Skipped: ++progress_state.skipped; break;
      case BatchStatus::Failed: ++progress_state.failed; break;
    }
    progress_state.elapsed = SecondsSince(t0);
    progress_state.last = &results[i];
    if (progress && !progress_failure) {
      try {
        progress(progress_state);
      } catch (...) {
        progress_failure = std::current_exception();  // ends the run (below), never the process
        stop = true;
      }
    }
  };

  auto worker = [&] {
    while (!stop.load() && !(cancel && cancel->load())) {
      const size_t i = next.fetch_add(1);
      if (i >= files.size()) break;
      process(i);
    }
  };
  if (n_threads <= 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(n_threads);
    for (unsigned t = 0; t < n_threads; ++t) pool.emplace_back(worker);
  }

  for (size_t i = 0; i < files.size(); ++i) {
    if (!finished[i]) {
      ++report.not_started;
      continue;
    }
    switch (results[i].status) {
      case BatchStatus::Converted: ++report.converted; break;
      case BatchStatus::Skipped: ++report.skipped; break;
      case BatchStatus::Failed: ++report.failed; break;
    }
    report.files.push_back(std::move(results[i]));
  }
  report.cancelled = report.not_started > 0 || (cancel && cancel->load());
  report.skeletons_decoded = skeletons_decoded.load();
  report.seconds = SecondsSince(t0);
  if (progress_failure) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(progress_failure);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    throw Error::General("the progress callback failed: " + what + " (" + std::to_string(report.files.size()) +
                         " files done, " + std::to_string(report.not_started) + " not started)");
  }
  return report;
}

}  // namespace animkit
