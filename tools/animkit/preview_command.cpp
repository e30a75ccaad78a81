#include "preview_command.hpp"

#include "folder_console.hpp"

#include <animkit/pipeline/folder_job.hpp>
#include <animkit/pipeline/info.hpp>
#include <animkit/pipeline/retarget.hpp>
#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>
#include <animkit/preview/preview.hpp>
#include <animkit/io/path.hpp>

#include <cstdio>
#include <filesystem>

namespace animkit::cli {

namespace {

namespace fs = std::filesystem;

int PreviewFolder(const std::string& input, const PreviewArgs& args, const PreviewCommonArgs& common) {
  PreviewSiteRequest request;
  try {
    if (!common.format.empty()) throw Error::General("--format applies to single files; a folder's files are detected one by one");
    if (!common.clip.empty()) throw Error::General("--clip applies to single files");
    if (!args.retarget_to.empty()) throw Error::General("--retarget-to applies to single files; a folder: retarget DIR --to T -o OUT --out-format html");
    if (args.output.empty()) throw Error::General("a folder needs -o SITE: the folder the pages and index.html go to");
    request.input_dir = input;
    request.output_dir = args.output;
    request.skeleton = common.skeleton;
    request.options = common.options;
    request.threads = args.jobs;
    if (!args.skeleton_map.empty()) request.skeleton_map = ReadSkeletonMap(args.skeleton_map);
  } catch (const Error& e) {
    std::fprintf(stderr, "animkit: %s\n", e.what());
    return 2;
  }
  PreviewSite site;
  if (!RunFolderJob(args.quiet, request, [&] { site = WritePreviewSite(request); })) return 2;
  for (const PreviewSiteEntry& e : site.files) {
    if (!e.error.empty()) std::fprintf(stderr, "%s\n", e.error.c_str());
  }
  std::printf("%zu pages, %zu damaged files, %zu files not recognised", site.files.size() - site.failed(), site.failed(),
              site.unrecognised);
  if (site.too_large) std::printf(", %zu over the size limit", site.too_large);
  std::printf("\n%s\n", site.index.c_str());
  std::fflush(stdout);
  if (const int interrupted = InterruptedStatus(site.not_started)) return interrupted;
  return site.failed() ? 1 : 0;
}

}  // namespace

void AddPreviewOptions(CLI::App* preview, PreviewArgs& args) {
  preview->add_option("-o,--output", args.output,
                      "The page to write (default: FILE's name + .html in the current folder); for a folder, the site's folder");
  preview->add_option("--skeleton-map", args.skeleton_map,
                      "Folder input: pair animations with skeletons, lines 'ANIM_GLOB = SKELETON_GLOB'");
  preview->add_option("-j,--jobs", args.jobs, "Folder input: build pages on N threads (default: every core)")
      ->check(CLI::Range(1u, 1024u));
  preview->add_flag("-q,--quiet", args.quiet, "Only errors on stderr: no warnings, no progress (folder input)");
  preview->add_option("--retarget-to", args.retarget_to,
                      "Show FILE's clips retargeted onto this skeleton or model beside FILE (as `retarget FILE --to T -o page.html`)");
  preview->add_option("--map", args.map, "With --retarget-to: the bone map, 'auto' (default) or a file (as retarget's)");
}

namespace {

// `preview FILE --retarget-to TARGET`: the page `retarget FILE --to TARGET -o page.html` writes.
int PreviewRetarget(const std::string& input, const std::string& output, const PreviewArgs& args, const PreviewCommonArgs& common) {
  RetargetRequest request;
  request.source = input;
  request.source_format = common.format;
  request.skeleton = SkeletonSource(common.skeleton);
  request.target = args.retarget_to;
  if (!args.map.empty()) request.map = args.map;
  request.output = output;
  request.output_format = "html";
  if (!common.clip.empty()) request.clips = {common.clip};
  request.options = common.options;
  request.page = RetargetPreviewPage;
  const RetargetResult result = Retarget(request);
  if (!args.quiet)
    for (const std::string& w : result.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  std::printf("%s: %zu clip(s) onto %s: %zu of %zu joints mapped\n%s (%zu bytes)\n", input.c_str(), result.clips,
              args.retarget_to.c_str(), result.mapped, result.mapped + result.unmapped.size(), output.c_str(),
              result.written.empty() ? size_t{0} : static_cast<size_t>(result.written.front().bytes));
  return 0;
}

}  // namespace

int RunPreview(const std::string& input, const PreviewArgs& args, const PreviewCommonArgs& common) {
  std::error_code ec;
  if (fs::is_directory(PathOf(input), ec)) return PreviewFolder(input, args, common);
  if (!args.skeleton_map.empty()) {
    std::fprintf(stderr, "animkit: --skeleton-map needs a folder as input\n");
    return 2;
  }
  if (!args.map.empty() && args.retarget_to.empty()) {
    std::fprintf(stderr, "animkit: --map needs --retarget-to\n");
    return 2;
  }
  if (!args.retarget_to.empty())
    return PreviewRetarget(input, args.output.empty() ? TextOf(PathOf(input).filename()) + ".html" : args.output, args, common);
  PreviewRequest request;
  request.skeleton = common.skeleton;
  request.clip = common.clip;
  request.options = common.options;
  const LoadedFile loaded = LoadFile(input, common.format, request.options);
  const PreviewPage page = BuildPreviewPage(loaded, request);
  const std::string output = args.output.empty() ? TextOf(PathOf(input).filename()) + ".html" : args.output;
  WriteFileAtomic(output, ByteView(reinterpret_cast<const uint8_t*>(page.html.data()), page.html.size()),
                  {input, page.skeleton.path});
  if (!args.quiet) {  // -q: only errors on stderr
    for (const std::string& w : FoldWarnings(ReadWarnings(loaded)))
      std::fprintf(stderr, "%s: warning: %s\n", input.c_str(), w.c_str());
    if (!page.skeleton_warning.empty())
      std::fprintf(stderr, "%s: warning: %s\n", input.c_str(), page.skeleton_warning.c_str());
  }
  std::printf("%s: %s, %zu clips, skeleton file: %s\n%s (%zu bytes)\n", input.c_str(), std::string(loaded.format->id).c_str(),
              page.info["clips"].size(), page.skeleton.path.empty() ? "none" : page.skeleton.path.c_str(), output.c_str(),
              page.html.size());
  return 0;
}

}  // namespace animkit::cli
