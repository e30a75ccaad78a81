// `animkit retarget DIR --to TARGET -o OUTDIR`: the folder job (folder_job.hpp) with Retarget as
// its per-file action, the target decoded once for every file.
#include <animkit/pipeline/retarget.hpp>

#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/path.hpp>
#include <animkit/pipeline/encode.hpp>

#include <algorithm>
#include <cctype>

namespace animkit {

namespace {

// The output's extension (with the dot) and format id for `to` ("html": a page, no format).
struct RetargetOutputKind {
  std::string format;
  std::string extension;
};

RetargetOutputKind ResolveRetargetOutput(const std::string& to) {
  std::string lower = to;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!lower.empty() && lower.front() == '.') lower.erase(0, 1);
  if (lower.empty()) throw Error::General("no output format given (--out-format ID or extension)");
  if (lower == "html") return {"html", ".html"};
  const FormatDescriptor* format = FindFormat(lower);
  std::string extension = format && !format->extensions.empty() ? std::string(format->extensions.front()) : "." + lower;
  if (!format) {
    const auto by_extension = FormatsForExtension("." + lower);
    if (by_extension.empty()) throw Error::General("unknown output format '" + to + "'");
    format = by_extension.front();
  }
  RequireEncoder(*format, "");
  return {std::string(format->id), extension};
}

class RetargetAction final : public FolderAction {
 public:
  RetargetAction(const RetargetFolderJob& job, RetargetOutputKind kind, const RetargetTarget& target)
      : job_(job), kind_(std::move(kind)), target_(target) {}

  FolderOutputNaming OutputNaming() const override { return {kind_.extension, false}; }

  void Process(const FolderFile& file, BatchFileResult& result) override {
    RetargetRequest request = job_.request;
    request.source = file.input;
    request.source_format = std::string(file.format->id);
    request.source_bytes = file.bytes;
    request.skeleton = file.Skeleton();
    request.decoded_target = &target_;
    request.output = file.output_path;
    request.output_format = kind_.format;
    request.options = file.options;
    request.skip_without_clips = true;
    request.run_tag = file.run_tag;
    file.CreateOutputFolder();
    const RetargetResult r = Retarget(request);
    if (!r.skipped.empty()) {
      result.reason = r.skipped;
      return;
    }
    result.clips = r.clips;
    result.joints = target_.scene.skeleton.joints.size();
    result.warnings = r.warnings;
    if (!r.source_skeleton_note.empty()) result.warnings.push_back(r.source_skeleton_note);
    if (!r.written.empty()) result.bytes_out = r.written.front().bytes;
    for (size_t w = 1; w < r.written.size(); ++w)
      result.extra_outputs.push_back(TextOf(PathOf(r.written[w].path).lexically_relative(PathOf(job_.output_dir))));
  }

 private:
  const RetargetFolderJob& job_;
  const RetargetOutputKind kind_;
  const RetargetTarget& target_;
};

}  // namespace

void RetargetFolderJob::Validate() const {
  FolderJob(*this).Validate();
  if (request.target.empty()) throw Error::General("retarget DIR: no target (--to TARGET)");
  if (!request.map_out.empty()) throw Error::General("retarget DIR: --map-out writes one file's map; run it on one file");
  if (!request.template_path.empty()) throw Error::General("retarget DIR: --template is one game file; run it on one file");
  const RetargetOutputKind kind = ResolveRetargetOutput(to);
  if (kind.format == "html" && !request.page) throw Error::General("retarget DIR: pages are built by the preview layer (RetargetPreviewPage)");
}

BatchReport RetargetFolderJob::Run() const {
  Validate();
  const RetargetOutputKind kind = ResolveRetargetOutput(to);
  const RetargetTarget target = DecodeRetargetTarget(request.target, request.target_format, options);
  RetargetAction action(*this, kind, target);
  return FolderJob(*this, &action).Run();
}

}  // namespace animkit
