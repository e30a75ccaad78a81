// Batch conversion of a whole folder (a game dump): walk it, detect each file's
// format by probing its contents, convert what is recognised into the same
// relative path under an output folder, skip the rest, never stop at a bad file.
// The folder job (folder_job.hpp) with conversion as its per-file action.
// docs/batch.md describes the rules (detection, output names, skeleton maps,
// temporary files, the report).
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/pipeline/folder_job.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace animkit {

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
  // The folder job (FolderJob::Run) converting each recognised file (Convert).
  BatchReport Run() const;
};

}  // namespace animkit
