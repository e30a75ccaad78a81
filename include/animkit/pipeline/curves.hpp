// A file's clips' curves as stored (core/stored_curves.hpp), as the JSON `animkit curves` prints
// and the import file carries, and a file written back with edited curves (`animkit
// curves-replace`). A file's document gives its curves (Document::StoresCurves, StoredCurves,
// WithCurves); docs/cli.md, "curves".
#pragma once

#include <animkit/core/stored_curves.hpp>
#include <animkit/core/value.hpp>
#include <animkit/pipeline/load.hpp>

#include <string>
#include <vector>

namespace animkit {

// The curves of every clip of the file that stores them, in the file's order; joints named as
// scene (the file decoded, with its skeleton) names them. Empty for formats without curves.
// The document was read within the limits LoadFile was given; the last argument is not used.
std::vector<ClipCurves> StoredCurvesOfFile(const LoadedFile& loaded, const Scene& scene, const Limits& = {});

// {"rotation_mode", "driven": [joint...], "channels": [{"joint", "joint_name", "property",
// "index", "pre", "post", "keys": [[frame, value, in_slope, out_slope, interpolation], ...]}],
// "constants": [{"joint", "joint_name", "property", "index", "value"}]}.
Value CurvesJson(const StoredCurves& curves);
// {"clips": [{"name", "curves": CurvesJson}]}: what `animkit curves FILE --json` prints.
Value CurvesJson(const std::vector<ClipCurves>& clips);

// Edits: {"clips": [{"name", "channels": [...]}]} (or "curves": {"channels": [...]} per clip),
// channels as CurvesJson writes them; a channel's joint by index ("joint") or by name
// ("joint_name" when "joint" is absent). Errors name the clip, the channel and the key.
std::vector<ClipCurves> ParseCurveEdits(const Value& edits);

// The import file's section of a clip (docs/blender.md, "The import file"): channels with
// their joints as the scene's node indices (node_names: the scene's nodes in order), keys as
// 6 float32 each appended to data ({offset, count} in keys).
Value ImportCurvesSection(const StoredCurves& curves, const std::vector<std::string>& node_names, Bytes& data);

// `animkit curves-replace TEMPLATE EDITS.json -o OUT`: the template with the edited curves
// replaced, every other byte kept (an edit equal to the file changes nothing).
struct CurvesReplaceJob {
  std::string template_path;
  std::string format;  // "" = detect
  Value edits;
  std::string output;  // written atomically
  Options options;
  bool Validate(std::string* why = nullptr) const;
  // {"replaced", "unchanged", "appended": {"keys", "key_times", "values", "tangents"}, "notes", "identical"}
  Value Run() const;
};

}  // namespace animkit
