#include <animkit/batch.hpp>
#include <animkit/error.hpp>
#include <animkit/io.hpp>
#include <animkit/pipeline.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace animkit {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Globs

namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Matches one character against the set starting at pattern[i] == '['; sets end
// to the index after the closing ']'. Error when the set is not closed.
bool MatchSet(std::string_view pattern, size_t i, char c, size_t* end) {
  size_t j = i + 1;
  bool negate = false;
  if (j < pattern.size() && (pattern[j] == '!' || pattern[j] == '^')) {
    negate = true;
    ++j;
  }
  bool matched = false;
  bool first = true;
  c = Lower(c);
  for (; j < pattern.size() && (first || pattern[j] != ']'); ++j, first = false) {
    char lo = Lower(pattern[j]), hi = lo;
    if (j + 2 < pattern.size() && pattern[j + 1] == '-' && pattern[j + 2] != ']') {
      hi = Lower(pattern[j + 2]);
      j += 2;
    }
    if (lo <= c && c <= hi) matched = true;
  }
  if (j >= pattern.size()) throw Error::General("unclosed '[' in the glob '" + std::string(pattern) + "'");
  *end = j + 1;
  return matched != negate;
}

// One path segment (no '/') against one pattern segment: *, ?, [set], literals.
bool MatchSegment(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  size_t star_p = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size()) {
      const char pc = pattern[p];
      if (pc == '*') {
        star_p = p++;
        star_n = n;
        continue;
      }
      if (pc == '?') {
        ++p;
        ++n;
        continue;
      }
      if (pc == '[') {
        size_t end = 0;
        if (MatchSet(pattern, p, name[n], &end)) {
          p = end;
          ++n;
          continue;
        }
      } else if (Lower(pc) == Lower(name[n])) {
        ++p;
        ++n;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  // An unclosed set left in the pattern is still an error.
  for (size_t i = p; i < pattern.size(); ++i) {
    if (pattern[i] == '[') {
      size_t end = 0;
      MatchSet(pattern, i, 'a', &end);
    }
  }
  return p == pattern.size();
}

std::vector<std::string_view> Segments(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t slash = s.find('/', start);
    out.push_back(s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

bool MatchSegments(const std::vector<std::string_view>& pat, size_t pi, const std::vector<std::string_view>& path,
                   size_t ni) {
  while (pi < pat.size()) {
    if (pat[pi] == "**") {
      // Collapse runs of ** and try every number of levels.
      while (pi + 1 < pat.size() && pat[pi + 1] == "**") ++pi;
      if (pi + 1 == pat.size()) return true;
      for (size_t k = ni; k <= path.size(); ++k) {
        if (MatchSegments(pat, pi + 1, path, k)) return true;
      }
      return false;
    }
    if (ni >= path.size() || !MatchSegment(pat[pi], path[ni])) return false;
    ++pi;
    ++ni;
  }
  return ni == path.size();
}

void CheckGlob(std::string_view pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '[') {
      size_t end = 0;
      MatchSet(pattern, i, 'a', &end);
      i = end - 1;
    }
  }
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
  CheckGlob(pattern);
  return MatchSegments(Segments(pattern), 0, Segments(path), 0);
}

std::vector<SkeletonMapRule> ParseSkeletonMap(std::string_view text, const std::string& source) {
  std::vector<SkeletonMapRule> rules;
  int line_no = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    ++line_no;
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (Trim(line).empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      throw Error::AtLine(line_no, 1, "expected 'ANIMATION_GLOB = SKELETON_GLOB'").InFile(source);
    }
    SkeletonMapRule rule{Trim(line.substr(0, eq)), Trim(line.substr(eq + 1)), line_no};
    if (rule.animation.empty()) throw Error::AtLine(line_no, 1, "expected a glob before '='").InFile(source);
    if (rule.skeleton.empty()) {
      throw Error::AtLine(line_no, static_cast<int>(eq) + 2, "expected a glob after '='").InFile(source);
    }
    if (rule.skeleton.find('=') != std::string::npos) {
      throw Error::AtLine(line_no, static_cast<int>(eq) + 2, "expected one '=' in the line").InFile(source);
    }
    try {
      CheckGlob(rule.animation);
      CheckGlob(rule.skeleton);
    } catch (const Error& e) {
      throw Error::AtLine(line_no, 1, e.message()).InFile(source);
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::string_view ToString(BatchStatus status) {
  switch (status) {
    case BatchStatus::Converted: return "converted";
    case BatchStatus::Skipped: return "skipped";
    case BatchStatus::Failed: return "failed";
  }
  return "?";
}

bool IsTemporaryName(std::string_view name) {
  // ".<name>.tmp-XXXXXX", the mkstemp template of WriteFileAtomic.
  constexpr std::string_view kTag = ".tmp-";
  if (name.size() < 1 + 1 + kTag.size() + 6 || name.front() != '.') return false;
  std::string_view tail = name.substr(name.size() - 6);
  if (name.substr(name.size() - 6 - kTag.size(), kTag.size()) != kTag) return false;
  return std::all_of(tail.begin(), tail.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

// ---------------------------------------------------------------------------
// Report

Value BatchReport::ToJson() const {
  Value by_format = Value::object();
  Value entries = Value::array();
  for (const BatchFileResult& f : files) {
    const std::string key = f.format.empty() ? "none" : f.format;
    Value& counts = by_format[key];
    if (counts.is_null()) counts = {{"converted", 0}, {"skipped", 0}, {"failed", 0}};
    counts[std::string(ToString(f.status))] = counts[std::string(ToString(f.status))].get<size_t>() + 1;
    Value e = {{"path", f.path},
               {"status", ToString(f.status)},
               {"format", f.format.empty() ? Value() : Value(f.format)},
               {"score", f.score},
               {"output", f.output.empty() ? Value() : Value(f.output)},
               {"extra_outputs", f.extra_outputs},
               {"skeleton", f.skeleton.empty() ? Value() : Value(f.skeleton)},
               {"clips", f.clips},
               {"frames", f.frames},
               {"joints", f.joints},
               {"bytes_in", f.bytes_in},
               {"bytes_out", f.bytes_out},
               {"seconds", f.seconds},
               {"reason", f.reason.empty() ? Value() : Value(f.reason)},
               {"error", f.error.empty() ? Value() : Value(f.error)}};
    entries.push_back(std::move(e));
  }
  return {{"converted", converted},
          {"skipped", skipped},
          {"failed", failed},
          {"not_started", not_started},
          {"cancelled", cancelled},
          {"stale_temporaries_removed", stale_temporaries_removed},
          {"threads", threads},
          {"seconds", seconds},
          {"by_format", by_format},
          {"files", entries}};
}

std::string BatchReport::Summary() const {
  std::string out;
  char buf[256];
  const size_t total = converted + skipped + failed;
  std::snprintf(buf, sizeof buf, "%zu files: %zu converted, %zu skipped, %zu failed", total, converted, skipped, failed);
  out += buf;
  if (cancelled) {
    std::snprintf(buf, sizeof buf, ", %zu not started (interrupted)", not_started);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " in %.2f s (%.1f files/s, %u threads)\n", seconds,
                seconds > 0 ? static_cast<double>(total) / seconds : 0.0, threads);
  out += buf;
  std::map<std::string, std::array<size_t, 3>> by_format;
  for (const BatchFileResult& f : files) {
    by_format[f.format.empty() ? "(no format)" : f.format][static_cast<size_t>(f.status)]++;
  }
  for (const auto& [name, c] : by_format) {
    std::snprintf(buf, sizeof buf, "  %-14s %6zu converted %6zu skipped %6zu failed\n", name.c_str(), c[0], c[1], c[2]);
    out += buf;
  }
  if (stale_temporaries_removed) {
    std::snprintf(buf, sizeof buf, "  removed %zu temporary files left by an interrupted run\n",
                  stale_temporaries_removed);
    out += buf;
  }
  bool header = false;
  for (const BatchFileResult& f : files) {
    if (f.status != BatchStatus::Failed) continue;
    if (!header) out += "failed:\n";
    header = true;
    out += "  " + f.error + "\n";
  }
  return out;
}

// ---------------------------------------------------------------------------
// The job

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

// The temporary name's target ("walk.glb" for ".walk.glb.tmp-AbC123").
std::string TemporaryTarget(const std::string& name) { return name.substr(1, name.size() - 1 - 5 - 6); }

size_t RemoveStaleTemporaries(const fs::path& dir, const std::string& extension) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  size_t removed = 0;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!IsTemporaryName(name) || !it->is_regular_file(ec)) continue;
    if (ExtensionOf(TemporaryTarget(name)) != extension) continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm)) ++removed;
  }
  return removed;
}

// Every regular file under dir (not following folder links), relative and sorted;
// the subtree `exclude` (the output folder when it lies inside) is left out.
std::vector<std::string> ListFiles(const fs::path& dir, const fs::path& exclude) {
  std::vector<std::string> files;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw Error::General("cannot list the folder: " + ec.message()).InFile(dir.string());
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
  if (ec) throw Error::General("cannot list the folder: " + ec.message()).InFile(dir.string());
  std::sort(files.begin(), files.end());
  return files;
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
  if (!skeleton.empty() && !fs::is_regular_file(skeleton, ec)) {
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

  std::error_code ec;
  fs::path exclude;
  const fs::path in_canon = fs::weakly_canonical(in_root, ec);
  const fs::path out_canon = fs::weakly_canonical(out_root, ec);
  if (fs::exists(out_root, ec)) {
    const fs::path rel = out_canon.lexically_relative(in_canon);
    if (!rel.empty() && *rel.begin() != "..") exclude = out_root;
  }
  const std::vector<std::string> files = ListFiles(in_root, exclude);
  const std::vector<std::string> outputs = OutputNames(files, target.extension);
  // Canonical input paths: an output must never land on an input.
  std::set<std::string> input_set;
  for (const std::string& f : files) input_set.insert((in_canon / f).lexically_normal().string());

  // Each map rule's skeleton: the first file, in sorted order, that its glob matches.
  std::vector<std::string> rule_skeleton(skeleton_map.size());
  for (size_t r = 0; r < skeleton_map.size(); ++r) {
    for (const std::string& f : files) {
      if (GlobMatch(skeleton_map[r].skeleton, f)) {
        rule_skeleton[r] = f;
        break;
      }
    }
  }

  unsigned n_threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  n_threads = static_cast<unsigned>(std::min<size_t>(n_threads, std::max<size_t>(files.size(), 1)));
  report.threads = n_threads;

  std::vector<BatchFileResult> results(files.size());
  std::vector<char> finished(files.size(), 0);
  std::atomic<size_t> next{0};
  std::mutex mutex;  // guards progress, counters, folder creation
  BatchProgress progress_state;
  progress_state.total = files.size();

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
        const Bytes data = ReadFileBytes(in_path);
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
            for (size_t m = 0; m < skeleton_map.size(); ++m) {
              if (!GlobMatch(skeleton_map[m].animation, files[i])) continue;
              if (rule_skeleton[m].empty()) {
                throw Error::General("skeleton map line " + std::to_string(skeleton_map[m].line) + ": no file matches '" +
                                     skeleton_map[m].skeleton + "'")
                    .InFile(in_path);
              }
              r.skeleton = rule_skeleton[m];
              skeleton_path = (in_root / rule_skeleton[m]).string();
              break;
            }
            if (r.skeleton.empty() && !skeleton.empty()) r.skeleton = skeleton;
            {
              std::lock_guard lock(mutex);
              std::error_code mk;
              fs::create_directories(out_path.parent_path(), mk);
              if (mk) throw Error::General("cannot create the folder: " + mk.message()).InFile(out_path.parent_path().string());
            }
            ConvertRequest request{in_path,
                                   out_path.string(),
                                   r.format,
                                   target.format ? std::string(target.format->id) : std::string(),
                                   skeleton_path,
                                   clip,
                                   options};
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
    if (progress) progress(progress_state);
  };

  auto worker = [&] {
    while (!(cancel && cancel->load())) {
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
  report.seconds = SecondsSince(t0);
  return report;
}

}  // namespace animkit
