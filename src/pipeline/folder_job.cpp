// The folder job (folder_job.hpp): the walk, detection, skeleton pairing and its shared
// cache, output names, the guard against writing over an input, the worker threads,
// progress, cancel and the report; each file's work is the action's.
#include <animkit/pipeline/folder_job.hpp>

#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/archive.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/io/path.hpp>

#include "pipeline/folder_temporaries.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace animkit {

namespace fs = std::filesystem;

namespace {

// relative input path -> relative output path (FolderOutputNaming).
std::vector<std::string> OutputNames(const std::vector<std::string>& files, const FolderOutputNaming& naming) {
  const std::string& extension = naming.extension;
  if (naming.append) {
    std::vector<std::string> out;
    out.reserve(files.size());
    for (const std::string& f : files) out.push_back(f + extension);
    return out;
  }
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

// The archive of files bytes are (read), or nullopt: only the probes of such formats run
// first, so that a walk reads no other file.
std::optional<LoadedFile> ArchiveOfFiles(ByteView bytes, const std::string& path, const Options& options) {
  const std::string extension = ExtensionOf(path);
  const bool candidate = std::any_of(Formats().begin(), Formats().end(), [&](const FormatDescriptor* f) {
    return f->archive_of_files && f->probe && f->probe(bytes, extension) > kProbeExtension;
  });
  if (!candidate) return std::nullopt;
  const Detection d = Detect(bytes, path);
  if (!d.format || !d.format->archive_of_files || d.score <= kProbeExtension) return std::nullopt;
  try {
    LoadedFile loaded = LoadBytes(bytes, path, d.format->id, options);
    if (loaded.document->Members().empty()) return std::nullopt;
    return loaded;
  } catch (const Error&) {
    return std::nullopt;  // a damaged archive is walked as one file: its conversion says why
  }
}

std::optional<LoadedFile> ArchiveOfFilesAt(const std::string& path, const Options& options, size_t max_size) {
  std::error_code ec;
  if (!fs::is_regular_file(PathOf(path), ec) || fs::file_size(PathOf(path), ec) > max_size || ec) return std::nullopt;
  try {
    const MappedFile mapped(path);
    return ArchiveOfFiles(mapped.bytes(), path, options);
  } catch (const Error&) {
    return std::nullopt;  // unreadable: its own conversion says why
  }
}

}  // namespace

bool IsArchiveOfFiles(const std::string& path, const Options& options) {
  return ArchiveOfFilesAt(path, options, FolderJobInputs{}.max_file_size).has_value();
}

bool IsFolderRun(const std::string& input, const std::string& output) {
  std::error_code ec;
  if (fs::is_directory(PathOf(input), ec)) return true;
  const bool folder_named = fs::is_directory(PathOf(output), ec) ||
                            (!output.empty() && (output.back() == '/' || output.back() == '\\'));
  return folder_named && IsArchiveOfFiles(input);
}

std::vector<std::string> ListFolder(const std::string& dir, const std::string& exclude) {
  std::vector<std::string> files;
  std::error_code ec;
  const fs::path root = PathOf(dir);
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw Error::General("cannot list the folder: " + ec.message()).InFile(dir);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::error_code st;
    if (it->is_directory(st)) {
      if (!exclude.empty() && fs::equivalent(it->path(), PathOf(exclude), st)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(st)) continue;
    files.push_back(TextOf(it->path().lexically_relative(root)));
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


void FolderJob::Validate() const {
  std::error_code ec;
  if (input_dir.empty()) throw Error::General("no input folder given");
  if (!fs::is_directory(PathOf(input_dir), ec) && !IsArchiveOfFiles(input_dir, options))
    throw Error::General("not a folder (nor an archive of files)").InFile(input_dir);
  if (output_dir.empty()) throw Error::General("no output folder given");
  if (fs::exists(PathOf(output_dir), ec) && !fs::is_directory(PathOf(output_dir), ec)) {
    throw Error::General("exists and is not a folder").InFile(output_dir);
  }
  if (fs::weakly_canonical(PathOf(input_dir), ec) == fs::weakly_canonical(PathOf(output_dir), ec)) {
    throw Error::General("the output folder must differ from the input folder").InFile(output_dir);
  }
  if (threads > 1024) throw Error::General("at most 1024 threads");
  for (const SkeletonMapRule& r : skeleton_map) {
    CheckGlob(r.animation);
    CheckGlob(r.skeleton);
  }
  if (skeleton.kind() == SkeletonSource::Kind::File && !fs::is_regular_file(PathOf(skeleton.path()), ec)) {
    throw Error::General("no such skeleton file").InFile(skeleton.path());
  }
}

// One run: what every worker shares.
class FolderRunState {
 public:
  FolderRunState(const FolderJob& job, std::string run_tag)
      : job_(job), in_root_(PathOf(job.input_dir)), out_root_(PathOf(job.output_dir)), run_tag_(std::move(run_tag)) {}

  // Walks the input folder (leaving out an output folder inside it) and names the outputs.
  void Walk(const FolderOutputNaming& naming);
  const std::vector<std::string>& files() const { return files_; }
  const std::string& run_tag() const { return run_tag_; }
  // Runs the action over every file on the job's threads; fills report's files and counts.
  void Run(BatchReport& report);

  // The skeleton file decoded by the first file that needs it, once per run.
  const Scene& SharedSkeleton(const std::string& path) const;
  void CreateFolder(const fs::path& dir) const;
  size_t skeletons_decoded() const { return skeletons_decoded_.load(); }

 private:
  // Where a file that is an archive's member is (archives_[archive], its member).
  // A scene entry (scene set): one of the archive's scenes (Document::Scenes), read from the
  // archive's own file.
  struct MemberSource {
    size_t archive = 0, member = 0;
    std::string error;  // a member whose name is no plain path: the file fails with this
    std::string scene;  // the scene's name, for a scene entry
    std::string skip;   // why the member is left out (read with the archive's scenes)
  };
  // Adds the files of an archive of files under prefix ("" for the input itself) to walked.
  void AddMembers(LoadedFile loaded, const std::string& prefix,
                  std::vector<std::pair<std::string, std::optional<MemberSource>>>& walked);
  // The file's bytes: a member's from its archive, else nullopt (the file is on disk).
  std::optional<Bytes> MemberBytes(size_t i) const;
  // A skeleton file: a member decoded from its archive, else the file.
  Scene LoadSkeleton(const std::string& path) const;

  struct SharedScene {
    std::once_flag once;
    Scene scene;
    std::optional<Error> error;
  };

  BatchFileResult ProcessFile(size_t i) const;
  // Pairs the file with its skeleton (file.skeleton_path, file.given_skeleton) and says
  // which in result.skeleton.
  void PairSkeleton(size_t i, FolderFile& file, BatchFileResult& result) const;
  void Finish(size_t i, BatchFileResult result);
  void Worker();

  const FolderJob& job_;
  const fs::path in_root_, out_root_;
  const std::string run_tag_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::vector<std::string> files_, outputs_;
  std::set<std::string> inputs_;  // canonical: an output must never land on an input
  std::optional<SkeletonMapper> mapper_;
  std::vector<std::optional<MemberSource>> sources_;  // per file: the member it is, or none
  std::vector<LoadedFile> archives_;  // the archives of files walked as folders, read once
  std::map<std::string, size_t> member_files_;  // the joined path of a member -> its file index

  mutable std::map<std::string, SharedScene> skeletons_;
  mutable std::mutex skeletons_mutex_;  // guards insertion (companions are found as files are read)
  mutable std::atomic<size_t> skeletons_decoded_{0};
  mutable std::mutex folders_mutex_;

  std::vector<BatchFileResult> results_;
  std::vector<char> finished_;
  std::atomic<size_t> next_{0};
  std::mutex progress_mutex_;  // guards progress_, results_ and finished_
  BatchProgress progress_;
  std::exception_ptr progress_failure_;  // the first exception the progress callback threw
  std::atomic<bool> stop_{false};
};

const Scene* FolderFile::DecodedSkeleton() const {
  if (given_skeleton) return given_skeleton;
  return skeleton_path.empty() ? nullptr : &run_->SharedSkeleton(skeleton_path);
}

SkeletonSource FolderFile::Skeleton() const {
  if (!companion.path.empty()) {
    try {
      return SkeletonSource::DecodedCompanion(*DecodedSkeleton(), companion);
    } catch (const Error&) {
      return SkeletonSource::Auto();  // unreadable: the file's own decode says so (DecodeWithSkeleton)
    }
  }
  const Scene* scene = DecodedSkeleton();
  if (!scene) return SkeletonSource::None();
  return SkeletonSource::Decoded(*scene, skeleton_path);
}

void FolderFile::CreateOutputFolder() const { run_->CreateFolder(PathOf(output_path).parent_path()); }

const Scene& FolderRunState::SharedSkeleton(const std::string& path) const {
  SharedScene* entry = nullptr;
  {
    std::lock_guard lock(skeletons_mutex_);
    entry = &skeletons_[path];  // map nodes stay where they are
  }
  std::call_once(entry->once, [&] {
    ++skeletons_decoded_;
    try {
      entry->scene = LoadSkeleton(path);
    } catch (const Error& e) {
      entry->error = e;
    }
  });
  if (entry->error) throw *entry->error;
  return entry->scene;
}

void FolderRunState::CreateFolder(const fs::path& dir) const {
  std::lock_guard lock(folders_mutex_);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error::General("cannot create the folder: " + ec.message()).InFile(TextOf(dir));
}

void FolderRunState::AddMembers(LoadedFile loaded, const std::string& prefix,
                                std::vector<std::pair<std::string, std::optional<MemberSource>>>& walked) {
  const size_t archive = archives_.size();
  const std::vector<ArchiveMember> members = loaded.document->Members();
  // An archive that holds scenes (a PAK's characters) gives one file per scene; the members
  // they are read from are left to them.
  std::set<std::string> seen;
  for (const std::string& scene : loaded.document->Scenes())
    if (seen.insert(scene).second) walked.emplace_back(prefix + scene, MemberSource{archive, 0, {}, scene, {}});
  std::vector<char> scene_member(members.size(), 0);
  for (size_t m : loaded.document->SceneMembers())
    if (m < members.size()) scene_member[m] = 1;
  const std::string archive_name = TextOf(PathOf(loaded.path).filename());
  archives_.push_back(std::move(loaded));
  for (size_t m = 0; m < members.size(); ++m) {
    MemberSource source{archive, m, {}, {}, {}};
    if (scene_member[m]) source.skip = "read with the scenes of " + archive_name + " (its characters)";
    std::string rel;
    try {
      for (const std::string& part : MemberPathParts(members[m])) rel += (rel.empty() ? "" : "/") + part;
    } catch (const Error& e) {
      source.error = e.what();
      rel = "member " + std::to_string(m);
    }
    if (!seen.insert(rel).second) {
      source.error = "member " + std::to_string(m) + ": a second member named '" + rel + "' (the first is converted)";
      rel += " (member " + std::to_string(m) + ")";
    }
    walked.emplace_back(prefix + rel, std::move(source));
  }
}

void FolderRunState::Walk(const FolderOutputNaming& naming) {
  std::error_code ec;
  std::vector<std::pair<std::string, std::optional<MemberSource>>> walked;
  if (!fs::is_directory(in_root_, ec)) {
    // An archive of files as the input: its members are the folder's files.
    std::optional<LoadedFile> archive = ArchiveOfFilesAt(TextOf(in_root_), job_.options, job_.max_file_size);
    if (!archive) throw Error::General("not a folder (nor an archive of files)").InFile(TextOf(in_root_));
    AddMembers(std::move(*archive), "", walked);
  } else {
    fs::path exclude;
    const fs::path in_canon = fs::weakly_canonical(in_root_, ec);
    if (fs::exists(out_root_, ec)) {
      const fs::path rel = fs::weakly_canonical(out_root_, ec).lexically_relative(in_canon);
      if (!rel.empty() && *rel.begin() != "..") exclude = out_root_;
    }
    for (std::string& f : ListFolder(TextOf(in_root_), TextOf(exclude))) {
      std::optional<LoadedFile> archive = ArchiveOfFilesAt(TextOf(in_root_ / PathOf(f)), job_.options, job_.max_file_size);
      if (archive) AddMembers(std::move(*archive), f + "/", walked);
      else walked.emplace_back(std::move(f), std::nullopt);
    }
  }
  std::stable_sort(walked.begin(), walked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [rel, source] : walked) {
    if (source && source->scene.empty()) member_files_[TextOf(in_root_ / PathOf(rel))] = files_.size();
    files_.push_back(rel);
    sources_.push_back(std::move(source));
  }
  outputs_ = OutputNames(files_, naming);
  for (size_t i = 0; i < files_.size(); ++i)
    if (!sources_[i]) inputs_.insert(TextOf(fs::weakly_canonical(in_root_ / PathOf(files_[i]), ec)));
  mapper_.emplace(job_.skeleton_map, files_);
}

std::optional<Bytes> FolderRunState::MemberBytes(size_t i) const {
  if (!sources_[i]) return std::nullopt;
  const MemberSource& source = *sources_[i];
  const LoadedFile& archive = archives_[source.archive];
  if (!source.error.empty()) throw Error::General(source.error).InFile(archive.path);
  try {
    return archive.document->MemberBytes(source.member);
  } catch (const Error& e) {
    throw e.InFile(archive.path);
  }
}

Scene FolderRunState::LoadSkeleton(const std::string& path) const {
  const auto member = member_files_.find(path);
  if (member == member_files_.end()) return LoadReference(path, job_.options);
  const Bytes bytes = *MemberBytes(member->second);
  const LoadedFile loaded = LoadBytes(bytes, path, "", job_.options);
  return DecodeDocument(loaded, DecodeContext{nullptr, job_.options});
}

void FolderRunState::PairSkeleton(size_t i, FolderFile& file, BatchFileResult& r) const {
  const SkeletonSource& given = job_.skeleton;
  if (given.is_auto() && sources_[i]) {
    // A member: its companion among the members of its archive's folder.
    file.companion = FindCompanionAmong(files_[i], files_, *file.format);
    r.skeleton = file.companion.path;
    if (!file.companion.path.empty()) file.companion.path = TextOf(in_root_ / PathOf(file.companion.path));
    file.skeleton_path = file.companion.path;
  } else if (given.is_auto()) {
    file.companion = FindCompanion(file.input, *file.format);
    file.skeleton_path = file.companion.path;
    if (!file.skeleton_path.empty()) r.skeleton = TextOf(PathOf(file.skeleton_path).lexically_relative(in_root_));
  } else {
    file.skeleton_path = given.path();
    file.given_skeleton = given.scene();
    r.skeleton = given.path();
  }
  std::optional<std::string> map_skeleton;
  try {
    map_skeleton = mapper_->SkeletonFor(files_[i]);
  } catch (const Error& e) {
    throw e.InFile(file.input);
  }
  if (map_skeleton) {
    r.skeleton = *map_skeleton;
    file.skeleton_path = TextOf(in_root_ / PathOf(*map_skeleton));
    file.given_skeleton = nullptr;
    file.companion = {};
  }
}

BatchFileResult FolderRunState::ProcessFile(size_t i) const {
  BatchFileResult r;
  r.path = files_[i];
  const auto start = std::chrono::steady_clock::now();
  const std::string in_path = TextOf(in_root_ / PathOf(files_[i]));
  try {
    std::error_code ec;
    const MemberSource* source = sources_[i] ? &*sources_[i] : nullptr;
    const bool scene = source && !source->scene.empty();
    if (source && !source->skip.empty()) {
      r.reason = source->skip;
      r.seconds = SecondsSince(start);
      return r;
    }
    // A scene entry reads its archive's file, the scene chosen through the options.
    const std::string read_path = scene ? archives_[source->archive].path : in_path;
    const std::optional<Bytes> member = scene ? std::nullopt : MemberBytes(i);
    const uintmax_t size = member ? member->size() : fs::file_size(PathOf(read_path), ec);
    if (ec) throw Error::General("cannot read: " + ec.message()).InFile(in_path);
    r.bytes_in = static_cast<size_t>(size);
    if (size > job_.max_file_size) {
      r.reason = "larger than the " + std::to_string(job_.max_file_size >> 20) + " MiB limit";
    } else {
      std::optional<MappedFile> mapped;  // paged in as the reader goes, shared with the page cache
      if (!member) mapped.emplace(read_path);
      const ByteView bytes = member ? ByteView(*member) : mapped->bytes();
      const Detection d = Detect(bytes, read_path);
      if (!d.format) {
        r.reason = "no format recognises the contents";
      } else {
        r.format = std::string(d.format->id);
        r.score = d.score;
        if (d.score <= kProbeExtension && !job_.accept_extension_only) {
          r.reason = "only the extension " + ExtensionOf(in_path) + " suggests " + r.format +
                     "; the contents do not match";
        } else if (job_.pictures && !d.format->picture) {
          r.reason = "not a picture: a run to a picture format converts the pictures alone";
        } else if (!job_.pictures && !d.format->part_of.empty()) {
          r.reason = std::string(d.format->part_of) + " (" + r.format + ", read with them)";
        } else {
          r.status = BatchStatus::Failed;  // until the action goes through
          FolderFile file(*this);
          file.index = i;
          file.path = files_[i];
          file.input = read_path;
          file.bytes = bytes;
          file.options = job_.options;
          if (scene) file.options.SetScene(source->scene);
          file.format = d.format;
          file.output = outputs_[i];
          file.output_path = TextOf(out_root_ / PathOf(outputs_[i]));
          if (inputs_.count(TextOf(fs::weakly_canonical(PathOf(file.output_path), ec)))) {
            throw Error::General("the output " + file.output_path + " would overwrite an input file").InFile(in_path);
          }
          if (!scene) PairSkeleton(i, file, r);  // a scene brings its skeleton
          file.run_tag = run_tag_;
          job_.action->Process(file, r);
          r.status = r.reason.empty() ? BatchStatus::Converted : BatchStatus::Skipped;  // the action's skip
          if (r.reason.empty()) r.output = outputs_[i];
        }
      }
    }
  } catch (const Error& e) {
    r.status = BatchStatus::Failed;
    r.error = e.InFile(in_path).what();
  } catch (const std::exception& e) {
    r.status = BatchStatus::Failed;
    r.error = Error::General(e.what()).InFile(in_path).what();
  }
  if (r.status == BatchStatus::Failed && r.error.empty()) r.error = in_path + ": failed";
  r.seconds = SecondsSince(start);
  return r;
}

void FolderRunState::Finish(size_t i, BatchFileResult r) {
  std::lock_guard lock(progress_mutex_);
  results_[i] = std::move(r);
  finished_[i] = 1;
  ++progress_.done;
  switch (results_[i].status) {
    case BatchStatus::Converted: ++progress_.converted; break;
    case BatchStatus::Skipped: ++progress_.skipped; break;
    case BatchStatus::Failed: ++progress_.failed; break;
  }
  progress_.elapsed = SecondsSince(t0_);
  progress_.last = &results_[i];
  if (job_.progress && !progress_failure_) {
    try {
      job_.progress(progress_);
    } catch (...) {
      progress_failure_ = std::current_exception();  // ends the run (below), never the process
      stop_ = true;
    }
  }
}

void FolderRunState::Worker() {
  while (!stop_.load() && !(job_.cancel && job_.cancel->load())) {
    const size_t i = next_.fetch_add(1);
    if (i >= files_.size()) break;
    Finish(i, ProcessFile(i));
  }
}

void FolderRunState::Run(BatchReport& report) {
  unsigned n_threads = job_.threads ? job_.threads : std::max(1u, std::thread::hardware_concurrency());
  n_threads = static_cast<unsigned>(std::min<size_t>(n_threads, std::max<size_t>(files_.size(), 1)));
  report.threads = n_threads;
  results_.assign(files_.size(), {});
  finished_.assign(files_.size(), 0);
  progress_.total = files_.size();
  if (n_threads <= 1) {
    Worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(n_threads);
    for (unsigned t = 0; t < n_threads; ++t) pool.emplace_back([this] { Worker(); });
  }
  for (size_t i = 0; i < files_.size(); ++i) {
    if (!finished_[i]) {
      ++report.not_started;
      continue;
    }
    switch (results_[i].status) {
      case BatchStatus::Converted: ++report.converted; break;
      case BatchStatus::Skipped: ++report.skipped; break;
      case BatchStatus::Failed: ++report.failed; break;
    }
    report.files.push_back(std::move(results_[i]));
  }
  report.cancelled = report.not_started > 0 || (job_.cancel && job_.cancel->load());
  report.skeletons_decoded = skeletons_decoded();
  if (progress_failure_) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(progress_failure_);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    throw Error::General("the progress callback failed: " + what + " (" + std::to_string(report.files.size()) +
                         " files done, " + std::to_string(report.not_started) + " not started)");
  }
}

BatchReport FolderJob::Run() const {
  Validate();
  if (!action) throw Error::General("a folder job needs an action");
  const auto t0 = std::chrono::steady_clock::now();
  const FolderOutputNaming naming = action->OutputNaming();
  BatchReport report;
  report.stale_temporaries_removed = folder_run::RemoveStaleTemporaries(PathOf(output_dir), naming.extension);
  FolderRunState run(*this, folder_run::NewRunTag());
  const folder_run::RunLock run_lock(PathOf(output_dir), run.run_tag());
  run.Walk(naming);
  action->Start(run.files());
  run.Run(report);
  report.seconds = SecondsSince(t0);
  return report;
}

}  // namespace animkit
