// `animkit info`: the file's format, version, skeleton, clips, events and the format's
// own fields (Document::Info). Built here so that every front end prints the same thing.
#pragma once

#include <animkit/core/value.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <string>
#include <vector>

namespace animkit {

// Summary (the default): per clip its counts, per table of the file its count, offset and
// size; Full: every record as well (`info --full`), the format's whole Document::Info().
enum class InfoDetail { Summary, Full };

struct InfoRequest {
  std::string format;        // "" = detect
  SkeletonSource skeleton;   // what the file decodes against
  Options options;
  InfoDetail detail = InfoDetail::Summary;
};
// The `info --json` document of a file already loaded (read from a path or from bytes;
// "file" is loaded.path, and "auto" looks beside it), decoded against request.skeleton; a
// file that reads but does not decode is described with its decode error. request.format
// is not consulted.
Value InfoValue(const LoadedFile& loaded, const InfoRequest& request);
// The same of a file already decoded (nothing is decoded again).
Value InfoValue(const LoadedFile& loaded, const DecodedScene& decoded, InfoDetail detail = InfoDetail::Summary);
// Info() with its tables cut to counts: what `info` shows of a format that writes no
// InfoSummary(). Objects are kept, arrays of strings (warnings, names) and short arrays
// of numbers (vectors) too; any other array becomes {"count": N}.
Value CutTables(const Value& fields);
// Warnings folded for people to read: a moveset repeats one note per clip (a constraint
// not verified, a joint kept as forward kinematics). The same text after its entry path is
// one line saying in how many clips ("joint 39: Direction constraint (type 3): ...; skipped
// (in 37 clips: IdlB, WlkB, Walk, ...)"); texts of one kind that differ in their numbers
// (joint numbers kept: one line per kind and joint) are their first, saying how many more.
// The CLI's stderr, `info`'s summary, the preview's panel and import-data's header (Blender's
// report) fold; `info --full`, `info --json`, `validate` and sample's JSON list every one.
std::vector<std::string> FoldWarnings(const std::vector<std::string>& warnings);
// InfoJson is the contract's `info --json` document as text, InfoText the human summary.
std::string InfoJson(const std::string& path, const InfoRequest& request);
std::string InfoJson(const LoadedFile& loaded, const InfoRequest& request);
std::string InfoText(const std::string& path, const InfoRequest& request);
std::string InfoText(const LoadedFile& loaded, const InfoRequest& request);

}  // namespace animkit
