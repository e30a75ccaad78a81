// The folder job: every folder verb's run over a whole folder (a game dump), `convert DIR`
// and `preview DIR` alike. It walks the folder, detects each file's format by probing its
// contents, pairs it with its skeleton (a skeleton map, its companion, or the one given;
// each skeleton file decoded once per run and shared), names its output under the output
// folder and guards it against landing on an input, then hands the file to a per-file
// action (a conversion, a preview page, ...) on worker threads, with progress, cancel, a
// file-size limit and a report. Per-file failures land in the report; the run goes on.
// docs/batch.md describes the rules.
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/core/value.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// A path glob over '/'-separated relative paths, matched against the whole path:
// `*` any run of characters within one folder level, `?` one character (not '/'),
// `[abc]` / `[a-z]` / `[!abc]` one character of a set, `**` as a whole path
// segment any number of folder levels (zero included: `**/x` matches `x`).
// ASCII letters match case-insensitively (game dumps come from case-insensitive
// file systems). Error when the pattern is malformed (an unclosed `[`).
bool GlobMatch(std::string_view pattern, std::string_view path);
// Error when the pattern is malformed (an unclosed `[`).
void CheckGlob(std::string_view pattern);

// One line of a skeleton map: `ANIM_GLOB = SKELETON_GLOB`.
struct SkeletonMapRule {
  std::string animation;  // glob over paths relative to the input folder
  std::string skeleton;   // glob resolved against the input folder's files
  int line = 0;           // 1-based line in the map file
};
// Parses a skeleton map: one rule a line, `#` starts a comment, blank lines are
// ignored. Error::AtLine (naming source) for a line without `=` or with an empty side.
std::vector<SkeletonMapRule> ParseSkeletonMap(std::string_view text, const std::string& source);
// Reads the map file at path and parses it (`--skeleton-map FILE`). Errors name the file.
std::vector<SkeletonMapRule> ReadSkeletonMap(const std::string& path);

// Whether path is an archive of files (its format's FormatDescriptor::archive_of_files, and it
// reads with members): a folder run walks its members as files. `convert ARCHIVE OUTDIR/`
// converts it as a folder (IsFolderRun).
bool IsArchiveOfFiles(const std::string& path, const Options& options = {});
// Whether `convert input output` is a folder run: input is a folder, or an archive of files
// and output names a folder (one that exists, or a path ending with '/').
bool IsFolderRun(const std::string& input, const std::string& output);

// Every regular file under dir (not following folder links), relative ('/'-separated) and
// sorted; the subtree exclude (an output folder inside dir, "" for none) is left out.
// The folder walk of every folder verb (convert DIR, preview DIR).
std::vector<std::string> ListFolder(const std::string& dir, const std::string& exclude = "");

// A skeleton map over a folder's files: which skeleton file (relative) a file is paired
// with. Each rule's skeleton is the first file, in sorted order, its glob matches.
class SkeletonMapper {
 public:
  SkeletonMapper(const std::vector<SkeletonMapRule>& map, const std::vector<std::string>& files);
  // The first rule whose animation glob matches rel: its skeleton file; nullopt when no
  // rule matches; Error (naming the map line) when that rule's glob matches no file.
  std::optional<std::string> SkeletonFor(const std::string& rel) const;

 private:
  const std::vector<SkeletonMapRule>& map_;
  std::vector<std::string> skeleton_of_rule_;
};

// Converted: the action went through (a file converted, a page written).
enum class BatchStatus { Converted, Skipped, Failed };
std::string_view ToString(BatchStatus status);

// What happened to one input file.
struct BatchFileResult {
  std::string path;      // relative to the input folder, '/'-separated
  BatchStatus status = BatchStatus::Skipped;
  std::string format;    // detected format id ("" when none)
  int score = 0;         // its probe score
  std::string output;    // relative output path (converted files)
  std::vector<std::string> extra_outputs;  // relative paths of the other files written (a text ANM's timeline)
  std::string skeleton;  // relative path of the skeleton used ("" when none)
  std::string skeleton_use;  // "companion", "given" or "none" (SkeletonUse), "" when not decoded
  std::vector<std::string> warnings;  // a companion not used, the encoder's warnings
  size_t clips = 0, frames = 0, joints = 0;
  size_t bytes_in = 0, bytes_out = 0;
  double seconds = 0;    // wall time spent on this file
  std::string reason;    // why a file was skipped
  std::string error;     // the error of a failed file
};

struct BatchProgress {
  size_t done = 0, total = 0;
  size_t converted = 0, skipped = 0, failed = 0;
  double elapsed = 0;                       // seconds since the run started
  const BatchFileResult* last = nullptr;    // the file that just finished
};

struct BatchReport {
  std::vector<BatchFileResult> files;  // every file seen, sorted by path
  size_t converted = 0, skipped = 0, failed = 0;
  size_t not_started = 0;              // files left when cancelled (not in files)
  size_t stale_temporaries_removed = 0;
  size_t skeletons_decoded = 0;        // skeleton files decoded (each once per run; not in ToJson)
  bool cancelled = false;
  unsigned threads = 0;
  double seconds = 0;

  // The --report document: totals, counts by format, one entry per file.
  Value ToJson() const;
  // A human summary: totals, counts by format, the skipped files one line per kind (".dds
  // files: textures of the EDF models beside them"; every_skipped: one line per file
  // instead), then every failed file with its error.
  std::string Summary(bool every_skipped = false) const;
};

class FolderRunState;  // one run's shared state (folder_job.cpp)

// One file the job hands its action: read, detected, paired with its skeleton, its
// output named and checked not to be an input.
class FolderFile {
 public:
  explicit FolderFile(const FolderRunState& run) : run_(&run) {}

  size_t index = 0;           // in the walk's sorted order (the files FolderAction::Start got)
  std::string path;           // relative to the input folder, '/'-separated
  std::string input;          // the file's path: the input folder joined with path (a scene's: its archive's)
  ByteView bytes;             // its contents, mapped (valid for the call)
  const FormatDescriptor* format = nullptr;  // the detected format
  Options options;            // the job's, with the scene to decode (Options::scene) for an archive's scene
  std::string output;         // relative output path, named by the job
  std::string output_path;    // the output folder joined with output; never an input
  std::string skeleton_path;  // the skeleton file it decodes against, "" for none (or a scene given without one)
  Companion companion;        // when the companion rule chose it: the file and why (used when it fits)
  const Scene* given_skeleton = nullptr;  // the job's SkeletonSource::Decoded scene, when that is the file's
  std::string run_tag;        // for the temporary names of what the action writes

  // The skeleton decoded, once per run and shared by every file paired with it (nullptr
  // when there is none). Throws its Error to every such file.
  const Scene* DecodedSkeleton() const;
  // The same as what a file decodes against: SkeletonSource::DecodedCompanion (the
  // companion rule's), Decoded (a map's or the one given), or None.
  SkeletonSource Skeleton() const;
  // Creates the output's folder (the run's threads create folders one at a time).
  void CreateOutputFolder() const;

 private:
  const FolderRunState* run_;
};

// How the job names outputs: input folder path -> output folder path with an extension.
struct FolderOutputNaming {
  std::string extension;  // with the dot: ".glb", ".html"
  // false: the input's extension is replaced (walk.anm -> walk.glb), and where two inputs
  // of one folder would get the same name each keeps its own (walk.anm.glb);
  // true: it is appended (walk.anm -> walk.anm.html).
  bool append = false;
};

// What the job does with each file: converting (BatchConvertJob), building a preview
// page (WritePreviewSite), ...
class FolderAction {
 public:
  virtual ~FolderAction() = default;
  virtual FolderOutputNaming OutputNaming() const = 0;
  // Before the first file: every file of the walk, sorted (FolderFile::index indexes it).
  virtual void Start(const std::vector<std::string>& files) { (void)files; }
  // One file; from the worker threads, several files at once. Fills what it made in result
  // (counts, bytes_out, extra_outputs); the job sets the status, output and the rest.
  // Setting result.reason leaves the file skipped for that reason, with nothing written
  // (a retarget's file without clips). Any exception marks the file failed with its message
  // (naming the file).
  virtual void Process(const FolderFile& file, BatchFileResult& result) = 0;
};

// What every folder verb takes (FolderJob, BatchConvertJob, PreviewSiteRequest).
struct FolderJobInputs {
  // A folder, or an archive of files (IsArchiveOfFiles): its members are the folder's files.
  // An archive of files inside the folder is walked as a folder named after it
  // (`<archive>/<member path>`).
  std::string input_dir;
  std::string output_dir;
  unsigned threads = 0;        // worker threads, at most this many (0: the hardware threads)
  std::vector<SkeletonMapRule> skeleton_map;
  SkeletonSource skeleton;     // for every file no map rule matches: each file's companion (the default), none, a file or a scene
  Options options;             // format options: decode the files and their skeletons
  // Files that only their extension ties to a format (probe score kProbeExtension)
  // are skipped unless this is set; then they go to the action (and fail if unreadable).
  bool accept_extension_only = false;
  // Files of a part format (FormatDescriptor::part_of) are skipped as parts of the files
  // beside them; with this set (a run to a picture format, such as PNG) the pictures alone
  // (FormatDescriptor::picture) are converted instead.
  bool pictures = false;
  size_t max_file_size = size_t{512} << 20;  // larger files are skipped unread
  // Called after each file, from the worker that finished it, one call at a time.
  // If it throws, no further file is started and Run() throws an Error with its message.
  std::function<void(const BatchProgress&)> progress;
  // When it becomes true, no further file is started; the running ones finish.
  const std::atomic<bool>* cancel = nullptr;
};

// The job: inputs, Validate(), Run().
struct FolderJob : FolderJobInputs {
  FolderAction* action = nullptr;

  FolderJob() = default;
  // A front end's job (a batch conversion's, a retarget's, a preview site's) as the folder job it runs.
  explicit FolderJob(const FolderJobInputs& inputs, FolderAction* with = nullptr) : FolderJobInputs(inputs), action(with) {}

  // Error (a usage error) when the inputs make no sense: no input folder, output
  // folder equal to the input, a malformed glob, no such skeleton file.
  void Validate() const;
  // Validates, removes the temporary files of earlier killed runs from the output
  // folder (never those of a run still going: each run tags its temporaries and
  // holds OUTDIR/.animkit-run-TAG.lock while it runs), walks the input folder and
  // hands each recognised file to the action, mapped rather than read, each skeleton
  // decoded once. Per-file failures land in the report; a usage error or a throwing
  // progress callback throws.
  BatchReport Run() const;
};

// True for a name AtomicFile gives its temporary files: `.<name>.tmp-XXXXXX`, or
// `.<name>.tmp-TAG-XXXXXX` for a folder run tagged TAG.
bool IsTemporaryName(std::string_view file_name);
// The run tag of such a name ("" when untagged or not a temporary name).
std::string_view TemporaryRunTag(std::string_view file_name);

}  // namespace animkit
