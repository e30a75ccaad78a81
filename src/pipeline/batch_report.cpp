// The batch report: the --report JSON and the human summary (docs/batch.md).
#include <animkit/core/names.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/info.hpp>
#include <animkit/pipeline/batch.hpp>

#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

namespace animkit {

namespace {

std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// ".dds" of "tex/body.DDS"; "" when the name has none.
std::string ExtensionOf(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);  // npos + 1 == 0
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  std::string ext = name.substr(dot);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// One line per kind of skipped file: its extension and what it is (a side file of a
// format whose files are in the same folder: FormatDescriptor::side_files), or why it was skipped.
std::string SkippedKinds(const std::vector<BatchFileResult>& files) {
  std::set<std::pair<std::string, std::string>> formats_in;  // (folder, format) of the files read
  for (const BatchFileResult& f : files)
    if (!f.format.empty()) formats_in.emplace(FolderOf(f.path), f.format);
  std::map<std::pair<std::string, std::string>, size_t> kinds;  // (extension, what or reason): files
  for (const BatchFileResult& f : files) {
    if (f.status != BatchStatus::Skipped) continue;
    const std::string ext = ExtensionOf(f.path);
    std::string what = f.reason;
    for (const FormatDescriptor* format : Formats())
      for (const SideFile& side : format->side_files)
        if (f.format.empty() && ext == side.extension && formats_in.count({FolderOf(f.path), std::string(format->id)}))
          what = std::string(side.what) + " (no format reads them alone)";
    ++kinds[{ext, what}];
  }
  std::string out;
  for (const auto& [kind, n] : kinds)
    out += "  skipped: " + std::to_string(n) + " " + kind.first + (kind.first.empty() ? "" : " ") +
           (n == 1 ? "file" : "files") + (kind.first.empty() ? " without an extension" : "") + ": " + kind.second + "\n";
  return out;
}

}  // namespace

std::string_view ToString(BatchStatus status) {
  static constexpr NameTable<BatchStatus, 3> kNames{
      {{{BatchStatus::Converted, "converted"}, {BatchStatus::Skipped, "skipped"}, {BatchStatus::Failed, "failed"}}}};
  return kNames.Name(status);
}

Value BatchReport::ToJson() const {
  Value by_format = Value::object();
  Value entries = Value::array();
  for (const BatchFileResult& f : files) {
    const std::string key = f.format.empty() ? "none" : f.format;
    Value& counts = by_format[key];
    if (counts.is_null()) counts = {{"converted", 0}, {"skipped", 0}, {"failed", 0}};
    counts[std::string(ToString(f.status))] = counts[std::string(ToString(f.status))].get<size_t>() + 1;
    Value e = {{"path", f.path},
                        {"status", ToString(f.status)},
                        {"format", f.format.empty() ? Value() : Value(f.format)},
                        {"score", f.score},
                        {"output", f.output.empty() ? Value() : Value(f.output)},
                        {"extra_outputs", f.extra_outputs},
                        {"skeleton", f.skeleton.empty() ? Value() : Value(f.skeleton)},
                        {"skeleton_use", f.skeleton_use.empty() ? Value() : Value(f.skeleton_use)},
                        {"warnings", f.warnings},
                        {"clips", f.clips},
                        {"frames", f.frames},
                        {"joints", f.joints},
                        {"bytes_in", f.bytes_in},
                        {"bytes_out", f.bytes_out},
                        {"seconds", f.seconds},
                        {"reason", f.reason.empty() ? Value() : Value(f.reason)},
                        {"error", f.error.empty() ? Value() : Value(f.error)}};
    entries.push_back(std::move(e));
  }
  return {{"converted", converted},
          {"skipped", skipped},
          {"failed", failed},
          {"not_started", not_started},
          {"cancelled", cancelled},
          {"stale_temporaries_removed", stale_temporaries_removed},
          {"threads", threads},
          {"seconds", seconds},
          {"by_format", by_format},
          {"files", entries}};
}

std::string BatchReport::Summary(bool every_skipped) const {
  std::string out;
  char buf[256];
  const size_t total = converted + skipped + failed;
  std::snprintf(buf, sizeof buf, "%zu files: %zu converted, %zu skipped, %zu failed", total, converted, skipped, failed);
  out += buf;
  if (cancelled) {
    std::snprintf(buf, sizeof buf, ", %zu not started (interrupted)", not_started);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " in %.2f s (%.1f files/s, %u threads)\n", seconds,
                seconds > 0 ? static_cast<double>(total) / seconds : 0.0, threads);
  out += buf;
  std::map<std::string, std::array<size_t, 3>> by_format;
  for (const BatchFileResult& f : files) {
    by_format[f.format.empty() ? "(no format)" : f.format][static_cast<size_t>(f.status)]++;
  }
  for (const auto& [name, c] : by_format) {
    std::snprintf(buf, sizeof buf, "  %-14s %6zu converted %6zu skipped %6zu failed\n", name.c_str(), c[0], c[1], c[2]);
    out += buf;
  }
  if (stale_temporaries_removed) {
    std::snprintf(buf, sizeof buf, "  removed %zu temporary files left by an interrupted run\n",
                  stale_temporaries_removed);
    out += buf;
  }
  std::map<std::string, size_t> by_skeleton;  // how the converted files got their skeletons
  for (const BatchFileResult& f : files)
    if (f.status == BatchStatus::Converted && !f.skeleton_use.empty()) ++by_skeleton[f.skeleton_use];
  if (!by_skeleton.empty()) {
    std::snprintf(buf, sizeof buf, "  skeleton: %zu companion, %zu given, %zu none\n", by_skeleton["companion"],
                  by_skeleton["given"], by_skeleton["none"]);
    out += buf;
  }
  if (every_skipped) {
    for (const BatchFileResult& f : files)
      if (f.status == BatchStatus::Skipped) out += "  skipped: " + f.path + ": " + f.reason + "\n";
  } else {
    out += SkippedKinds(files);
  }
  for (const BatchFileResult& f : files)
    for (const std::string& w : FoldWarnings(f.warnings)) out += "  " + f.path + ": warning: " + w + "\n";
  bool header = false;
  for (const BatchFileResult& f : files) {
    if (f.status != BatchStatus::Failed) continue;
    if (!header) out += "failed:\n";
    header = true;
    out += "  " + f.error + "\n";
  }
  return out;
}

}  // namespace animkit
