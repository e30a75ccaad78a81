// animkit: the command line of ../shared/design/cli-contract.md (docs/cli.md).
#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>

#include "archive_command.hpp"
#include "batch_command.hpp"
#include "bench_command.hpp"
#include "curves_command.hpp"
#include "preview_command.hpp"
#include "retarget_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <set>

namespace {

using namespace animkit;

struct CommonArgs {
  std::string format;
  std::string skeleton;
  std::string clip;
  std::string output;
  std::map<std::string, std::string> format_options;
  std::set<std::string> flags_seen;
  Limits limits;
};

// --max-frames and the others of LimitTable(): one per limit, every verb.
void AddLimitOptions(CLI::App* app, CommonArgs& args) {
  for (const LimitInfo& info : LimitTable()) {
    uint64_t Limits::*const field = info.field;
    app->add_option_function<uint64_t>(
           "--" + std::string(info.name), [&args, field](const uint64_t& v) { args.limits.*field = v; },
           std::string(info.help) + " (default " + std::to_string(Limits{}.*field) + ")")
        ->group("Limits");
  }
}

// Every format's own options, on a subcommand, as the formats declare them (the library
// checks the values: ToOptions).
void AddFormatOptions(CLI::App* app, CommonArgs& args) {
  for (const OptionSpec* spec : AllOptions()) {
    const std::string name(spec->name);
    if (spec->takes_value()) {
      app->add_option_function<std::string>(
             "--" + name, [&args, name](const std::string& v) { args.format_options[name] = v; }, OptionHelp(*spec))
          ->group("Format options");
    } else {
      app->add_flag_function(
             "--" + name, [&args, name](int64_t) { args.format_options[name] = "1"; }, OptionHelp(*spec))
          ->group("Format options");
    }
  }
}

// `animkit formats`: the format table; --options: every format option (--markdown: the
// table docs/cli.md holds).
int RunFormats(bool options, bool markdown, bool json) {
  std::string text;
  if (json) {
    text = DumpJson(FormatsValue(), 2) + "\n";
  } else if (options && markdown) {
    text = FormatOptionsMarkdown();
  } else if (options) {
    for (const OptionSpec* spec : AllOptions()) text += "--" + std::string(spec->name) + "  " + OptionHelp(*spec) + "\n";
  } else {
    for (const FormatDescriptor* f : Formats()) {
      std::string extensions;
      for (std::string_view e : f->extensions) extensions += (extensions.empty() ? "" : " ") + std::string(e);
      text += std::string(f->id) + "  " + std::string(f->description) + "  (" + extensions + ")" +
              (f->encode ? "" : ", read only") + "\n";
    }
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

void AddCommon(CLI::App* app, CommonArgs& args, bool with_output) {
  app->add_option("--format", args.format, "Input format id (skips detection)");
  app->add_option("--skeleton", args.skeleton,
                  "Skeleton or model file (glTF or a game format that carries one); default 'auto': the one beside "
                  "the file when it fits; 'none': no skeleton file");
  app->add_option("--clip", args.clip, "Only this clip");
  if (with_output) app->add_option("-o,--output", args.output, "Write to this file instead of stdout");
  AddFormatOptions(app, args);
  AddLimitOptions(app, args);
}

Options ToOptions(const CommonArgs& args) {
  Options o;
  for (const auto& [k, v] : args.format_options) SetOption(o, k, v);  // checked against the declarations
  o.SetLimits(args.limits);
  return o;
}

// The files a verb reads: -o never writes over one of them.
std::vector<std::string> InputsOf(const std::string& file, const std::string& skeleton) { return {file, skeleton}; }

// The companion rule (the default) says on stderr which file it chose, or why none (silent
// for a format that never takes one); a companion that does not fit, as a warning.
void ReportCompanion(const std::string& file, const FormatDescriptor& format, const Companion& used, SkeletonUse use,
                     const std::string& warning) {
  if (!warning.empty()) {
    std::fprintf(stderr, "%s: warning: %s\n", file.c_str(), warning.c_str());
    return;
  }
  if (use == SkeletonUse::Given || (used.path.empty() && format.companions.empty())) return;
  std::fprintf(stderr, "%s: skeleton file: %s%s\n", file.c_str(), used.path.empty() ? "none: " : "", used.note.c_str());
}

void Emit(const std::string& text, const std::string& output, const std::vector<std::string>& inputs) {
  if (output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    WriteFileAtomic(output, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()), inputs);
  }
}

int RunInfo(const std::string& file, bool json, bool full, const CommonArgs& args) {
  const InfoRequest request{args.format, args.skeleton, ToOptions(args), full ? InfoDetail::Full : InfoDetail::Summary};
  const LoadedFile loaded = LoadFile(file, args.format, request.options);
  const std::string skeleton = ResolveSkeleton(loaded, args.skeleton).file.path;
  Emit(json ? InfoJson(loaded, request) : InfoText(loaded, request), args.output,
       InputsOf(file, skeleton));
  // The summary lists damaged parts; a file from which nothing reads is an error as in
  // every verb (decoded again only then, to tell).
  if (!loaded.document->Damaged().empty()) {
    try {
      (void)DecodeWithSkeleton(loaded, args.skeleton, request.options);
    } catch (const Error& e) {
      std::fprintf(stderr, "%s\n", e.InFile(file).what());
      return 1;
    }
  }
  return 0;
}

// What the reader accepted or could not read, on stderr (sample's JSON lists them too).
void ReportReadWarnings(const std::string& file, const std::vector<std::string>& warnings) {
  for (const std::string& w : FoldWarnings(warnings)) std::fprintf(stderr, "%s: warning: %s\n", file.c_str(), w.c_str());
}

int RunSample(const std::string& file, double rate, Space space, bool skin, const std::string& base,
              const CommonArgs& args) {
  const Options options = ToOptions(args);
  const LoadedFile loaded = LoadFile(file, args.format, options);
  RequireOneScene(loaded);
  const DecodedScene decoded = DecodeWithSkeleton(loaded, args.skeleton, options);
  ReportCompanion(file, *loaded.format, decoded.skeleton, decoded.use, decoded.warning);
  const Scene& scene = decoded.scene;
  if (!args.clip.empty()) (void)RequireClip(scene, args.clip, file);
  const std::vector<std::string> warnings = ReadWarnings(loaded);
  ReportReadWarnings(file, warnings);
  SampleRequest request{rate, args.clip, &decoded.rest(), args.limits, space};
  request.warnings = &warnings;
  request.base = base;
  // The file's own meshes, or its model's (the pipeline gives them to the scene).
  if (skin) request.skin_meshes = &scene.meshes;
  if (args.output.empty()) {
    try {
      WriteSampleJson(scene, loaded.format->id, request,
                      [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
    } catch (const Error& e) {
      throw e.InFile(file);
    }
    return 0;
  }
  AtomicFile out(args.output, InputsOf(file, decoded.skeleton.path));  // streamed: the JSON is never held whole
  try {
    WriteSampleJson(scene, loaded.format->id, request, [&](std::string_view piece) { out.Write(piece); });
  } catch (const Error& e) {
    throw e.InFile(file);
  }
  out.Commit();
  return 0;
}

int RunImportData(const std::string& file, const std::vector<std::string>& clips, const CommonArgs& args) {
  ImportDataJob job;
  job.input = file;
  job.format = args.format;
  job.skeleton = args.skeleton;
  job.clips = clips;
  job.options = ToOptions(args);
  const Bytes bytes = job.Run();
  WriteFileAtomic(args.output, bytes, InputsOf(file, args.skeleton));
  return 0;
}

// `animkit export-plan [OUT] --source FILE --source-format F`: the format, template and
// losses of an export (the Blender add-on's export dialog); a human summary, or JSON.
int RunExportPlan(const ExportPlanJob& job, bool json) {
  const ExportPlan plan = job.Run();
  if (json) {
    std::printf("%s\n", DumpJson(ExportPlanValue(job, plan), 2).c_str());
    return 0;
  }
  std::printf("%s: %s%s%s\n", plan.output.c_str(), std::string(plan.format->id).c_str(),
              plan.needs_to ? " (--to: another format writes its extension)" : "",
              plan.template_path.empty() ? "" : (", template " + plan.template_path).c_str());
  for (const ExportNote& n : plan.notes)
    std::printf("%s: %s\n", std::string(ToString(n.level)).c_str(), n.text.c_str());
  return 0;
}

int RunValidate(const std::vector<std::string>& files, const CommonArgs& args) {
  int status = 0;
  for (const std::string& file : files) {
    try {
      const ValidateResult r = ValidateFile(file, args.format, args.skeleton, ToOptions(args));
      if (!r.skeleton_warning.empty()) std::fprintf(stderr, "%s: warning: %s\n", file.c_str(), r.skeleton_warning.c_str());
      for (const std::string& w : r.warnings) std::printf("%s: warning: %s\n", file.c_str(), w.c_str());
      if (r.ok()) {
        std::printf("%s: OK (skeleton: %s)\n", file.c_str(), SkeletonLabel(r.source).c_str());
        continue;
      }
      // A damaged part fails validation; what reads is listed so that it can still be used.
      std::string clips;
      for (const std::string& c : r.clips) clips += (clips.empty() ? "" : ", ") + c;
      for (const std::string& d : r.damaged) std::printf("%s: damaged: %s\n", file.c_str(), d.c_str());
      std::printf("%s: %zu damaged part(s), kept as bytes; %zu clip(s) readable: %s (skeleton: %s)\n", file.c_str(),
                  r.damaged.size(), r.clips.size(), clips.empty() ? "none" : clips.c_str(),
                  SkeletonLabel(r.source).c_str());
      status = 1;
    } catch (const Error& e) {
      std::printf("%s\n", e.InFile(file).what());  // InFile keeps a name already set
      status = 1;
    }
  }
  std::fflush(stdout);
  return status;
}

int RunConvert(const std::string& in, const std::string& out, const std::string& to, bool verbose, bool summary,
               bool quiet, const CommonArgs& args, const std::string& template_path) {
  ConvertRequest request;
  request.input = in;
  request.output = out;
  request.input_format = args.format;
  request.output_format = to;
  request.skeleton = args.skeleton;
  request.clip = args.clip;
  request.options = ToOptions(args);
  request.template_path = template_path;
  ConvertResult r = Convert(request);
  if (!quiet) {  // -q: only errors on stderr
    ReportCompanion(in, *r.input_format, r.skeleton, r.skeleton_use, r.skeleton_warning);
    for (const std::string& w : FoldWarnings(r.warnings)) std::fprintf(stderr, "%s: warning: %s\n", out.c_str(), w.c_str());
  }
  if (summary) {
    std::printf("%s -> %s: %s, %zu clips, %zu frames, %zu joints, %zu events\n", in.c_str(), out.c_str(),
                std::string(r.input_format->id).c_str(), r.clips, r.frames, r.joints, r.events);
  }
  if (verbose) std::fprintf(stderr, "%s\n", DumpJson(ConvertReport(request, r), 2).c_str());
  return 0;
}

CLI::App* AddSampleCommand(CLI::App& app, std::string& input, double& rate, std::string& space, bool& skin,
                           std::string& base, CommonArgs& args) {
  CLI::App* sample = app.add_subcommand("sample", "Print every clip's pose at every frame as JSON");
  sample->add_option("FILE", input, "Input file")->required();
  sample->add_option("--rate", rate, "Resample at this many frames per second instead of the file's own frames")
      ->check(CLI::PositiveNumber);
  sample->add_option("--space", space,
                     "local: each joint relative to its parent (default); model: each joint in model space, "
                     "composed under the clip's scale rule")
      ->check(CLI::IsMember({"local", "model"}));
  sample->add_flag("--skin", skin,
                   "Add each mesh's deformed vertex positions at every frame (linear blend skinning over the "
                   "model-space pose)");
  sample->add_option("--base", base,
                     "With --space model: the clip an additive clip composes over (its pose at the same time) "
                     "instead of its reference or the rest pose");
  AddCommon(sample, args, true);
  return sample;
}

}  // namespace

CLI::App* AddImportDataCommand(CLI::App& app, std::string& input, std::vector<std::string>& clips, CommonArgs& args) {
  CLI::App* import_data = app.add_subcommand(
      "import-data", "Write everything an importer needs (the glTF scene and its channels as stored) from one decode");
  import_data->add_option("FILE", input, "Input file")->required();
  AddCommon(import_data, args, true);
  import_data->get_option("-o")->required();
  // import-data's --clip repeats and takes globs
  import_data->remove_option(import_data->get_option("--clip"));
  import_data->add_option("--clip", clips, "Only the clips this names or matches (* any run, ? one character); repeatable");
  return import_data;
}

CLI::App* AddInfoCommand(CLI::App& app, std::string& input, bool& json, bool& full, CommonArgs& args) {
  CLI::App* info = app.add_subcommand("info", "Summarize a file: format, version, clips, joints, events");
  info->add_option("FILE", input, "Input file")->required();
  info->add_flag("--json", json, "JSON instead of a human summary");
  info->add_flag("--full", full, "Every record of every table too (the default gives per table its count and offset)");
  AddCommon(info, args, true);
  return info;
}

CLI::App* AddExportPlanCommand(CLI::App& app, ExportPlanJob& job, bool& json) {
  CLI::App* plan = app.add_subcommand(
      "export-plan", "Say which format, template and losses an export of a rig read from --source writes OUT with");
  plan->add_option("OUT", job.output, "The file to write (default: the source's own, or its family's extension)");
  plan->add_option("--source", job.source, "The file the rig was read from (its template when it can be one)");
  plan->add_option("--source-format", job.source_format, "The source's format id (none: a rig made elsewhere)");
  plan->add_option("--format", job.format, "The format asked for explicitly (an id); it must write OUT's extension");
  plan->add_flag_callback("--no-template", [&job] { job.use_template = false; }, "Never use the source as template");
  plan->add_flag_callback("--model", [&job] { job.kind = ExportOutput::Any; },
                          "The export writes the rig's meshes: any file convert writes (a model: .mdlx, .mdb, .glb), "
                          "not only an animation");
  plan->add_flag("--json", json, "JSON instead of a human summary");
  return plan;
}

CLI::App* AddPreviewCommand(CLI::App& app, std::string& input, CommonArgs& args, cli::PreviewArgs& preview_args) {
  CLI::App* preview = app.add_subcommand(
      "preview", "Write a self-contained HTML page that plays FILE (three.js, offline); a folder: a page per file and a gallery");
  preview->add_option("FILE", input, "Input file, or a folder (then -o names the site's folder)")->required();
  AddCommon(preview, args, false);
  cli::AddPreviewOptions(preview, preview_args);
  return preview;
}

// `curves` and `curves-replace` (docs/cli.md, "curves").
struct CurvesCommands {
  CLI::App* curves = nullptr;
  CLI::App* replace = nullptr;
  std::string edits;
};

void AddCurvesCommands(CLI::App& app, std::string& input, bool& json, CommonArgs& args, CurvesCommands& c) {
  c.curves = app.add_subcommand("curves", "Print the curves a file stores, per clip (KH2): keys as the game keys them");
  c.curves->add_option("FILE", input, "Input file")->required();
  c.curves->add_flag("--json", json, "Every channel's keys as JSON (the edits curves-replace takes)");
  AddCommon(c.curves, args, true);
  c.replace = app.add_subcommand("curves-replace",
                                 "Write TEMPLATE with the curves EDITS.json gives replaced, every other byte kept");
  c.replace->add_option("TEMPLATE", input, "The file to write again (KH2 .mset, .anb or motion)")->required();
  c.replace->add_option("EDITS", c.edits, "JSON: {\"clips\": [{\"name\", \"channels\": [...]}]}")->required();
  c.replace->add_option("--format", args.format, "Template format id (skips detection)");
  c.replace->add_option("-o,--output", args.output, "The file to write")->required();
  AddLimitOptions(c.replace, args);
}

// The status of the curves command parsed, or -1 when neither was.
int RunCurvesCommands(const CurvesCommands& c, const std::string& input, bool json, const CommonArgs& args) {
  if (c.curves->parsed())
    return cli::RunCurves(input, args.format, args.skeleton, args.clip, json, args.output, ToOptions(args));
  if (c.replace->parsed()) return cli::RunCurvesReplace(input, c.edits, args.format, args.output, ToOptions(args));
  return -1;
}

// `convert IN OUT`: a folder run or one file.
int RunConvertVerb(const std::string& input, const std::string& output, const std::string& to, bool verbose, bool summary,
                   const std::string& template_path, cli::BatchArgs& batch_args, const CommonArgs& args) {
  if (!template_path.empty() && cli::IsBatchInput(input, output)) {
    std::fprintf(stderr, "animkit: --template applies to one input file\n");
    return 2;
  }
  if (cli::IsBatchInput(input, output)) {
    batch_args.every_skipped = verbose;  // -v on a folder: every skipped file, with its reason
    return cli::RunBatchConvert(input, output, to, batch_args, {args.format, args.skeleton, args.clip, ToOptions(args)});
  }
  if (std::string usage = cli::BatchOnlyOptionsUsed(batch_args); !usage.empty()) {
    std::fprintf(stderr, "animkit: %s\n", usage.c_str());
    return 2;
  }
  return RunConvert(input, output, to, verbose, summary, batch_args.quiet, args, template_path);
}

// The command line, its arguments UTF-8 on every platform (windows_entry.cpp on Windows).
int RunCommandLine(int argc, char** argv) {
  CLI::App app{"animkit: read, write, sample and convert game animation formats and glTF 2.0"};
  app.set_version_flag("--version", std::string("animkit ") + kVersion);
  app.allow_windows_style_options(false);  // "/path" is a path on Windows too (subcommands inherit it)
  app.require_subcommand(1);

  CommonArgs args;
  bool json = false;
  bool info_full = false;
  double rate = 0;
  bool verbose = false;
  bool summary = false;
  std::string to;
  std::string template_path;
  std::string input, output;
  std::vector<std::string> files;

  CLI::App* info = AddInfoCommand(app, input, json, info_full, args);

  std::string space = "local";
  bool skin = false;
  std::string base;
  CLI::App* sample = AddSampleCommand(app, input, rate, space, skin, base, args);

  CLI::App* convert = app.add_subcommand(
      "convert", "Convert IN to OUT (format from OUT's extension or --to); a folder IN converts every file it recognises");
  convert->add_option("IN", input, "Input file, or a folder to convert recursively (or an archive of files, with OUT a folder)")->required();
  convert->add_option("OUT", output, "Output file, or the output folder")->required();
  convert->add_option("--to", to, "Output format id or extension (e.g. text-anm, glb)");
  convert->add_flag("-v,--verbose", verbose, "Report sizes and encoder statistics on stderr");
  convert->add_flag("--summary", summary, "Print one line: clips, frames, joints, events");
  convert->add_option("--template", template_path,
                      "The file OUT replaces (e.g. the game's original): what IN cannot carry is kept from it; "
                      "with --clip, only that clip of the template is replaced");
  AddCommon(convert, args, false);
  cli::BatchArgs batch_args;
  cli::AddBatchOptions(convert, batch_args);

  CLI::App* validate = app.add_subcommand("validate", "Check files fully; OK or the error per file");
  validate->add_option("FILE", files, "Input files")->required();
  AddCommon(validate, args, false);

  bool list_options = false;
  bool markdown = false;
  CLI::App* formats = app.add_subcommand("formats", "List the formats, or (--options) every format option");
  formats->add_flag("--options", list_options, "List every format option: values, default, help");
  formats->add_flag("--markdown", markdown, "With --options: the Markdown table of docs/cli.md");
  formats->add_flag("--json", json,
                    "Formats (extensions, up axis, multi-clip, options with type, default and help) and limits as JSON");

  std::vector<std::string> import_clips;
  CLI::App* import_data = AddImportDataCommand(app, input, import_clips, args);
  ExportPlanJob export_plan_job;
  CLI::App* export_plan = AddExportPlanCommand(app, export_plan_job, json);

  CurvesCommands curves;
  AddCurvesCommands(app, input, json, args, curves);

  cli::BenchOptions bench_options;
  CLI::App* bench = app.add_subcommand("bench", "Time the playback runtime on a clip; prints JSON");
  bench->add_option("FILE", input, "Input file")->required();
  cli::AddBenchOptions(bench, bench_options);
  AddCommon(bench, args, false);

  cli::ArchiveArgs archive_args;
  CLI::App* archive = cli::AddArchiveCommand(app, archive_args);

  cli::PreviewArgs preview_args;
  CLI::App* preview = AddPreviewCommand(app, input, args, preview_args);

  cli::RetargetArgs retarget_args;
  CLI::App* retarget = cli::AddRetargetCommand(app, retarget_args);
  AddFormatOptions(retarget, args);
  AddLimitOptions(retarget, args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "animkit: %s\n", e.what());
    return 2;
  }

  try {
    if (info->parsed()) return RunInfo(input, json, info_full, args);
    if (sample->parsed()) return RunSample(input, rate, space == "model" ? Space::Model : Space::Local, skin, base, args);
    if (convert->parsed()) return RunConvertVerb(input, output, to, verbose, summary, template_path, batch_args, args);
    if (validate->parsed()) return RunValidate(files, args);
    if (retarget->parsed()) return cli::RunRetarget(retarget_args, ToOptions(args));
    if (archive->parsed()) return cli::RunArchive(*archive, archive_args);
    if (import_data->parsed()) return RunImportData(input, import_clips, args);
    if (export_plan->parsed()) return RunExportPlan(export_plan_job, json);
    if (const int status = RunCurvesCommands(curves, input, json, args); status >= 0) return status;
    if (formats->parsed()) return RunFormats(list_options, markdown, json);
    if (preview->parsed()) {
      return cli::RunPreview(input, preview_args, {args.format, args.skeleton, args.clip, ToOptions(args)});
    }
    if (bench->parsed()) {
      const Options options = ToOptions(args);
      const LoadedFile loaded = LoadFile(input, args.format, options);
      const DecodedScene decoded = DecodeWithSkeleton(loaded, args.skeleton, options);
      return cli::RunBench(decoded.scene, decoded.reference_used(), args.clip, input, bench_options);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "animkit: %s\n", e.what());
    return 1;
  }
  return 2;
}

#ifndef _WIN32
int main(int argc, char** argv) { return RunCommandLine(argc, argv); }
#endif
