// `animkit curves` and `animkit curves-replace` (docs/cli.md, "curves").
#include "curves_command.hpp"

#include <animkit/pipeline/curves.hpp>

#include <cstdio>

namespace animkit::cli {

int RunCurves(const std::string& file, const std::string& format, const std::string& skeleton, const std::string& clip,
              bool json, const std::string& output, const Options& options) {
  const LoadedFile loaded = LoadFile(file, format, options);
  if (!loaded.document->StoresCurves())
    throw Error::General(file + ": " + std::string(loaded.format->id) + " files store no curves");
  const DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource(skeleton), options);
  std::vector<ClipCurves> clips = StoredCurvesOfFile(loaded, decoded.scene, options.limits());
  if (!clip.empty()) {
    std::vector<ClipCurves> kept;
    for (ClipCurves& c : clips)
      if (ClipNameMatches(c.clip, clip)) kept.push_back(std::move(c));
    if (kept.empty()) throw Error::General(file + ": no clip with curves matches " + clip);
    clips = std::move(kept);
  }
  std::string text;
  if (json) {
    text = DumpJson(CurvesJson(clips)) + "\n";
  } else {
    size_t channels = 0, keys = 0, moved_keys = 0;
    for (const ClipCurves& c : clips) {
      size_t moved = 0;
      for (const StoredChannel& ch : c.curves.channels)
        if (!c.curves.Driven(ch.joint)) moved += ch.keys.size();
      text += c.clip + ": " + std::to_string(c.curves.channels.size()) + " channels, " +
              std::to_string(c.curves.KeyCount()) + " keys (" + std::to_string(moved) + " on joints their curves move), " +
              std::to_string(c.curves.driven.size()) + " driven joints\n";
      channels += c.curves.channels.size(), keys += c.curves.KeyCount(), moved_keys += moved;
    }
    text += std::to_string(clips.size()) + " clips: " + std::to_string(channels) + " channels, " + std::to_string(keys) +
            " keys (" + std::to_string(moved_keys) + " on joints their curves move)\n";
  }
  if (output.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  else WriteFileAtomic(output, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()), {file, skeleton});
  return 0;
}

int RunCurvesReplace(const std::string& template_path, const std::string& edits_path, const std::string& format,
                     const std::string& output, const Options& options) {
  const Bytes text = ReadFileBytes(edits_path);
  CurvesReplaceJob job;
  job.template_path = template_path;
  job.format = format;
  try {
    job.edits = ParseJson(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
  } catch (const Error& e) {
    throw e.InFile(edits_path);
  }
  job.output = output;
  job.options = options;
  Value report;
  try {
    report = job.Run();
  } catch (const Error& e) {
    throw e.InFile(edits_path);
  }
  for (const Value& n : report["notes"]) std::fprintf(stderr, "%s: note: %s\n", output.c_str(), n.get<std::string>().c_str());
  std::printf("%s: %s%s\n", output.c_str(), report["summary"].get<std::string>().c_str(),
              report["identical"].get<bool>() ? " (the template's bytes)" : "");
  return 0;
}

}  // namespace animkit::cli
