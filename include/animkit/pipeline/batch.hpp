// Batch conversion of a whole folder (a game dump): walk it, detect each file's
// format by probing its contents, convert what is recognised into the same
// relative path under an output folder, skip the rest, never stop at a bad file.
// docs/batch.md describes the rules (detection, output names, skeleton maps,
// temporary files, the report).
#pragma once

#include <animkit/core/format.hpp>

#include <animkit/core/value.hpp>

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
  size_t clips = 0, frames = 0, joints = 0;
  size_t bytes_in = 0, bytes_out = 0;
  double seconds = 0;    // wall time spent on this file
  std::string reason;    // why a file was skipped
  std::string error;     // the error of a failed file
};

struct BatchProgress {
  size_t done = 0, total = 0;
  size_t converted = 0, skipped = 0, failed = 0;
  double elapsed = 0;                       // seconds since the conversions started
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
  // A human summary: totals, counts by format, then every failed file with its error.
  std::string Summary() const;
};

// The job: inputs, Validate(), Run().
struct BatchConvertJob {
  std::string input_dir;
  std::string output_dir;
  std::string to = "glb";      // output format: a format id, an extension, or "json" (sample JSON)
  unsigned threads = 0;        // worker threads, at most this many (0: the hardware threads)
  std::vector<SkeletonMapRule> skeleton_map;
  std::string skeleton;        // a skeleton for every file no map rule matches ("" = none, "auto" = each file's companion)
  std::string clip;            // only this clip ("" = all)
  Options options;             // format options, as for a single conversion
  // Files that only their extension ties to a format (probe score kProbeExtension)
  // are skipped unless this is set; then they are converted and fail if unreadable.
  bool accept_extension_only = false;
  size_t max_file_size = size_t{512} << 20;  // larger files are skipped unread
  // Called after each file, from the worker that finished it, one call at a time.
  // If it throws, no further file is started and Run() throws an Error with its message.
  std::function<void(const BatchProgress&)> progress;
  // When it becomes true, no further file is started; the running ones finish.
  const std::atomic<bool>* cancel = nullptr;

  // Error (a usage error) when the inputs make no sense: no input folder, output
  // folder equal to the input, unknown or unwritable output format.
  void Validate() const;
  // Validates, removes the temporary files of earlier killed runs from the output
  // folder (never those of a run still going: each run tags its temporaries and
  // holds OUTDIR/.animkit-run-TAG.lock while it runs), walks the input folder and
  // converts, each input mapped rather than read, each skeleton decoded once.
  // Per-file failures land in the report; a usage error or a throwing progress
  // callback throws.
  BatchReport Run() const;
};

// True for a name AtomicFile gives its temporary files: `.<name>.tmp-XXXXXX`, or
// `.<name>.tmp-TAG-XXXXXX` for a batch run tagged TAG.
bool IsTemporaryName(std::string_view file_name);
// The run tag of such a name ("" when untagged or not a temporary name).
std::string_view TemporaryRunTag(std::string_view file_name);

}  // namespace animkit
