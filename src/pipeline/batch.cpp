// `convert DIR`: the folder job (folder_job.hpp) with conversion as its per-file action.
#include <animkit/pipeline/batch.hpp>

#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace animkit {

namespace {

namespace fs = std::filesystem;

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
  RequireEncoder(*t.format, "");
  if (t.extension.empty()) throw Error::General(std::string(t.format->id) + " has no file extension to write");
  return t;
}

// Converts each file the job hands over (Convert), the input mapped and the skeleton shared.
class ConvertAction final : public FolderAction {
 public:
  ConvertAction(const BatchConvertJob& job, OutputTarget target) : job_(job), target_(std::move(target)) {}

  FolderOutputNaming OutputNaming() const override { return {target_.extension, false}; }

  void Process(const FolderFile& file, BatchFileResult& result) override {
    file.CreateOutputFolder();
    ConvertRequest request;
    request.input = file.input;
    request.output = file.output_path;
    request.input_format = std::string(file.format->id);
    request.output_format = target_.format ? std::string(target_.format->id) : std::string();
    request.skeleton = file.Skeleton();
    request.clip = job_.clip;
    request.options = file.options;
    request.input_bytes = file.bytes;
    request.run_tag = file.run_tag;
    const ConvertResult c = Convert(request);
    for (size_t w = 1; w < c.written.size(); ++w)
      result.extra_outputs.push_back(TextOf(PathOf(c.written[w].path).lexically_relative(PathOf(job_.output_dir))));
    if (c.skeleton.path.empty()) result.skeleton.clear();  // a companion that did not fit, or none
    result.skeleton_use = std::string(ToString(c.skeleton_use));
    if (!c.skeleton_warning.empty()) result.warnings.push_back(c.skeleton_warning);
    result.warnings.insert(result.warnings.end(), c.warnings.begin(), c.warnings.end());
    result.clips = c.clips;
    result.frames = c.frames;
    result.joints = c.joints;
    result.bytes_out = c.bytes_out;
  }

 private:
  const BatchConvertJob& job_;
  const OutputTarget target_;
};

}  // namespace

void BatchConvertJob::Validate() const {
  FolderJob(*this).Validate();
  ResolveOutput(to);
}

BatchReport BatchConvertJob::Run() const {
  Validate();
  const OutputTarget target = ResolveOutput(to);
  ConvertAction action(*this, target);
  FolderJob folder(*this, &action);
  folder.pictures = target.format != nullptr && target.format->picture;
  return folder.Run();
}

}  // namespace animkit
