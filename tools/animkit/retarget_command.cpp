#include "retarget_command.hpp"

#include "folder_console.hpp"

#include <animkit/io/path.hpp>

#include <cstdio>
#include <filesystem>

namespace animkit::cli {

namespace {

// `retarget DIR --to TARGET -o OUTDIR`: every file with clips onto the target, the rest skipped.
int RetargetFolder(const RetargetRequest& request, const RetargetArgs& args) {
  RetargetFolderJob job;
  try {
    if (!request.source_format.empty()) throw Error::General("--format applies to single files; a folder's files are detected one by one");
    job.input_dir = request.source;
    job.output_dir = request.output;
    job.to = request.output_format.empty() ? "glb" : request.output_format;
    job.threads = args.jobs;
    job.skeleton = request.skeleton;
    job.options = request.options;
    job.request = request;
    job.Validate();
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  BatchReport report;
  if (!RunFolderJob(args.quiet, job, [&] { report = job.Run(); })) return 2;
  const std::string summary = report.Summary(false);
  std::fwrite(summary.data(), 1, summary.size(), stdout);
  std::fflush(stdout);
  if (const int interrupted = InterruptedStatus(report.not_started)) return interrupted;
  return report.failed ? 1 : 0;
}

}  // namespace

CLI::App* AddRetargetCommand(CLI::App& app, RetargetArgs& args) {
  RetargetRequest& r = args.request;
  CLI::App* retarget = app.add_subcommand(
      "retarget",
      "Put SOURCE's clips onto TARGET's skeleton through a bone map; write OUT (a glb of the target, a game file, or an "
      ".html page showing both characters); SOURCE a folder: every file with clips into the folder OUT");
  retarget->add_option("SOURCE", r.source, "The clips: any file animkit decodes, or a folder of them")->required();
  retarget->add_option("--to", r.target, "The skeleton or model they go onto (glTF, MDLX, MDB, CINF, TMD, a CAS or RAB, ...)")
      ->required();
  retarget->add_option("-o,--output", r.output, "The file to write (format from its extension or --out-format)")->required();
  retarget->add_option("--out-format", r.output_format, "Output format id or extension");
  retarget->add_option("--format", r.source_format, "SOURCE's format id (skips detection)");
  retarget->add_option("--target-format", r.target_format, "TARGET's format id (skips detection)");
  retarget->add_option("--skeleton", args.skeleton,
                       "What SOURCE decodes against: 'auto' (default: the companion beside it), 'none', or a file");
  retarget->add_option("--map", r.map,
                       "The bone map: 'auto' (default: names, normalised names, then hierarchy) or a file: JSON "
                       "{\"target\": \"source\"} or CSV target,source lines");
  retarget->add_option("--map-out", r.map_out, "Write the map used here (.csv: CSV, else JSON), to review and edit");
  retarget->add_option("--clip", r.clips, "Only the clips these names or globs match (repeatable)");
  retarget->add_option("--template", r.template_path,
                       "The game file OUT replaces (the target's own moveset or set): what the clips cannot carry is kept");
  retarget->add_option("--translation-scale", args.translation_scale,
                       "Scale of the root's travel (default: the target's root height over the source's)")
      ->check(CLI::PositiveNumber);
  retarget->add_option("--source-axes", r.source_axes, "SOURCE's UP,FORWARD axes (default: its format's, e.g. +Z,+Y)");
  retarget->add_option("--target-axes", r.target_axes, "TARGET's UP,FORWARD axes (default: its format's)");
  retarget->add_flag("-v,--verbose", args.verbose, "Print the report as JSON on stderr");
  retarget->add_flag("--measure", r.measure,
                     "With -v: per clip, the largest difference of rotation from rest between source and target, and the "
                     "feet's slide where the source's feet are planted");
  retarget->add_option("-j,--jobs", args.jobs, "A folder's worker threads (default: the hardware threads)");
  retarget->add_flag("-q,--quiet", args.quiet, "A folder run without progress on stderr");
  return retarget;
}

int RunRetarget(RetargetArgs& args, const Options& options) {
  RetargetRequest request = args.request;
  request.skeleton = SkeletonSource(args.skeleton);
  request.options = options;
  if (args.translation_scale > 0) request.translation_scale = args.translation_scale;
  request.page = RetargetPreviewPage;  // an .html output: the preview layer's page
  std::error_code ec;
  if (std::filesystem::is_directory(PathOf(request.source), ec)) return RetargetFolder(request, args);
  const RetargetResult result = Retarget(request);
  for (const std::string& w : result.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!result.source_skeleton_note.empty())
    std::fprintf(stderr, "%s: %s\n", request.source.c_str(), result.source_skeleton_note.c_str());
  if (args.verbose) std::fprintf(stderr, "%s\n", DumpJson(result.report, 2).c_str());
  std::printf("%s: %zu clip(s) onto %s: %zu of %zu joints mapped, translation scale %.4g\n", request.output.c_str(),
              result.clips, request.target.c_str(), result.mapped, result.mapped + result.unmapped.size(),
              static_cast<double>(result.translation_scale));
  if (!result.unmapped.empty()) {
    std::string list;
    for (size_t i = 0; i < result.unmapped.size() && i < 12; ++i) list += (i ? ", " : "") + result.unmapped[i];
    if (result.unmapped.size() > 12) list += ", ...";
    std::printf("  unmapped (kept at rest): %s\n", list.c_str());
  }
  return 0;
}

}  // namespace animkit::cli
