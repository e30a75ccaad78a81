#include "batch_command.hpp"

#include <animkit/pipeline/batch.hpp>
#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>
#include <animkit/io/path.hpp>

#include "folder_console.hpp"

#include <cstdio>
#include <filesystem>

namespace animkit::cli {

void AddBatchOptions(CLI::App* convert, BatchArgs& args) {
  const char* group = "Folder conversion (IN is a folder)";
  convert->add_option("-j,--jobs", args.jobs, "Convert on N threads (default: every core)")
      ->check(CLI::Range(1u, 1024u))
      ->group(group);
  convert->add_option("--skeleton-map", args.skeleton_map, "Pair animations with skeletons: lines 'ANIM_GLOB = SKELETON_GLOB'")
      ->group(group);
  convert->add_option("--report", args.report, "Write a JSON report with one entry per file")->group(group);
  convert->add_flag("-q,--quiet", args.quiet, "Only errors on stderr: no warnings, no skeleton note, no progress");
  convert->add_flag("--by-extension", args.by_extension,
                    "Also convert files that only their extension ties to a format (failing when unreadable)")
      ->group(group);
}

bool IsBatchInput(const std::string& input, const std::string& output) { return IsFolderRun(input, output); }

std::string BatchOnlyOptionsUsed(const BatchArgs& args) {
  if (!args.skeleton_map.empty()) return "--skeleton-map needs a folder as IN";
  if (!args.report.empty()) return "--report needs a folder as IN";
  if (args.by_extension) return "--by-extension needs a folder as IN";
  return {};
}

int RunBatchConvert(const std::string& input_dir, const std::string& output_dir, const std::string& to,
                    const BatchArgs& args, const BatchCommonArgs& common) {
  BatchConvertJob job;
  try {
    if (!common.format.empty()) {
      throw Error::General("--format applies to single files; a folder's files are detected one by one");
    }
    job.input_dir = input_dir;
    job.output_dir = output_dir;
    job.to = to.empty() ? "glb" : to;
    job.threads = args.jobs;
    job.skeleton = common.skeleton;
    job.clip = common.clip;
    job.options = common.options;
    job.accept_extension_only = args.by_extension;
    if (!args.skeleton_map.empty()) job.skeleton_map = ReadSkeletonMap(args.skeleton_map);
    job.Validate();
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }

  BatchReport report;
  if (!RunFolderJob(args.quiet, job, [&] { report = job.Run(); })) return 2;

  const std::string summary = report.Summary(args.every_skipped);
  std::fwrite(summary.data(), 1, summary.size(), stdout);
  std::fflush(stdout);
  int status = report.failed ? 1 : 0;
  if (!args.report.empty()) {
    Value j = report.ToJson();
    j["input"] = input_dir;
    j["output"] = output_dir;
    j["to"] = job.to;
    const std::string text = DumpJson(j, 2) + "\n";
    try {
      WriteFileAtomic(args.report, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    } catch (const Error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      status = 1;
    }
  }
  if (const int interrupted = InterruptedStatus(report.not_started)) return interrupted;
  return status;
}

}  // namespace animkit::cli
