// Batch conversion of a whole folder (a game dump): walk it, detect each file's
// format by probing its contents, convert what is recognised into the same
// relative path under an output folder, skip the rest, never stop at a bad file.
// The folder job (folder_job.hpp) with conversion as its per-file action.
// docs/batch.md describes the rules (detection, output names, skeleton maps,
// temporary files, the report).
#pragma once

#include <animkit/core/format.hpp>
#include <animkit/pipeline/folder_job.hpp>

#include <string>

namespace animkit {

// The job: inputs (FolderJobInputs and these), Validate(), Run().
struct BatchConvertJob : FolderJobInputs {
  std::string to = "glb";      // output format: a format id, an extension, or "json" (sample JSON)
  std::string clip;            // only this clip ("" = all)

  // Error (a usage error) when the inputs make no sense: no input folder, output
  // folder equal to the input, unknown or unwritable output format.
  void Validate() const;
  // The folder job (FolderJob::Run) converting each recognised file (Convert).
  BatchReport Run() const;
};

}  // namespace animkit
