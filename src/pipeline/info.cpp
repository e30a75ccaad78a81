// `animkit info`: what a file holds, as the contract's JSON or a human summary.
// Built here, in the library, so that every front end prints the same thing.
#include <animkit/core/error.hpp>
#include <animkit/pipeline/info.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/rate_text.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <cstdio>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace animkit {

namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Arrays of numbers up to this long are vectors (a bounding box, a quaternion), kept in
// a summary; longer ones are tables, cut to their count.
constexpr size_t kMaxVectorSize = 16;

struct FileSummary {
  Value fields;  // the format's own Info(), or its summary
  const Scene* scene = nullptr;  // nullptr when it does not decode
  std::string decode_error;
  Companion skeleton;  // the skeleton file decoded against, and why
  SkeletonUse use = SkeletonUse::None;
  std::string skeleton_warning;  // a companion found but not used
};

// The format's fields at the detail asked for.
Value Fields(const Document& document, InfoDetail detail) {
  if (detail == InfoDetail::Full) return document.Info();
  Value summary = document.InfoSummary();
  return summary.is_null() ? CutTables(document.Info()) : summary;
}

// The summary of a file decoded here (into decoded; a decode error is described, not thrown).
FileSummary Summarize(const LoadedFile& loaded, const InfoRequest& request, std::optional<DecodedScene>& decoded) {
  FileSummary s;
  s.fields = Fields(*loaded.document, request.detail);
  const ResolvedSkeleton skeleton = ResolveSkeleton(loaded, request.skeleton);
  s.skeleton = skeleton.file;
  if (!skeleton.file.path.empty() || skeleton.decoded) s.use = skeleton.automatic ? SkeletonUse::Companion : SkeletonUse::Given;
  try {
    decoded = DecodeWithSkeleton(loaded, skeleton, request.options);
    s.scene = &decoded->scene;
    s.skeleton = decoded->skeleton;
    s.use = decoded->use;
    s.skeleton_warning = decoded->warning;
  } catch (const Error& e) {
    s.decode_error = e.what();
  }
  return s;
}

FileSummary Summarize(const LoadedFile& loaded, const DecodedScene& decoded, InfoDetail detail) {
  return {Fields(*loaded.document, detail), &decoded.scene, {}, decoded.skeleton, decoded.use, decoded.warning};
}

// Where a reader accepted what the format's rules forbid (formats list these in "warnings"),
// what the document reports besides (textures or meshes left out, joints evaluated as
// forward kinematics), then a companion not used.
Value Warnings(const LoadedFile& loaded, const FileSummary& s) {
  const Value& fields = s.fields;
  Value out = fields.contains("warnings") && fields["warnings"].is_array() ? fields["warnings"] : Value::array();
  std::set<std::string> listed;
  for (const Value& w : out)
    if (w.is_string()) listed.insert(w.get<std::string>());
  for (const std::string& w : loaded.document->Warnings())
    if (listed.insert(w).second) out.push_back(w);
  if (!s.skeleton_warning.empty()) out.push_back(s.skeleton_warning);
  return out;
}

// A texture as info lists it: name, size, how the file stored it, or why it is missing.
Value TextureSummary(const Image& image) {
  Value out = {{"name", image.name}, {"format", image.source_format}};
  if (image.Missing()) out["missing"] = image.missing;
  else out["width"] = image.width, out["height"] = image.height;
  return out;
}

// Per model (meshes grouped by kMeshModelKey, in order of first appearance): its meshes,
// vertices, triangles, the materials its meshes use and those materials' textures.
Value ModelSummaries(const Scene& scene) {
  std::vector<std::string> names;
  std::vector<Value> models;
  std::vector<std::set<int>> materials;
  for (const Mesh& mesh : scene.meshes) {
    // The key holds a name, or the model's number in the file.
    const Value* key = mesh.metadata.contains(kMeshModelKey) ? &mesh.metadata[kMeshModelKey] : nullptr;
    const std::string name = !key ? "model" : key->is_string() ? key->get<std::string>() : "model " + DumpJson(*key);
    size_t m = std::find(names.begin(), names.end(), name) - names.begin();
    if (m == names.size()) {
      names.push_back(name);
      models.push_back({{"name", name}, {"meshes", 0}, {"skinned_meshes", 0}, {"vertices", 0}, {"triangles", 0}});
      if (mesh.metadata.contains(kMeshModelRoleKey) && mesh.metadata[kMeshModelRoleKey].is_string())
        models.back()["role"] = mesh.metadata[kMeshModelRoleKey];
      materials.emplace_back();
    }
    Value& model = models[m];
    model["meshes"] = model["meshes"].get<uint64_t>() + 1;
    model["skinned_meshes"] = model["skinned_meshes"].get<uint64_t>() + (mesh.Skinned() ? 1 : 0);
    model["vertices"] = model["vertices"].get<uint64_t>() + mesh.positions.size();
    model["triangles"] = model["triangles"].get<uint64_t>() + mesh.triangles.size() / 3;
    if (mesh.material >= 0 && static_cast<size_t>(mesh.material) < scene.materials.size()) materials[m].insert(mesh.material);
  }
  Value out = Value::array();
  for (size_t m = 0; m < models.size(); ++m) {
    Value textures = Value::array();
    std::set<int> seen;
    for (int material : materials[m]) {
      const int t = scene.materials[static_cast<size_t>(material)].texture;
      if (t >= 0 && static_cast<size_t>(t) < scene.textures.size() && seen.insert(t).second)
        textures.push_back(TextureSummary(scene.textures[static_cast<size_t>(t)]));
    }
    models[m]["materials"] = materials[m].size();
    models[m]["textures"] = textures;
    out.push_back(std::move(models[m]));
  }
  return out;
}

// "character: 12 meshes (12 skinned), 3456 vertices, 5678 triangles, 3 materials, 2 textures
// (tex0 TIM2 8-bit indexed 128x128, tex1 missing: not in the file)".
std::string ModelLine(const Value& model) {
  const std::string role = model.contains("role") && model["role"].get<std::string>() != "object"
                               ? " (" + model["role"].get<std::string>() + ")" : "";
  std::string text = "  model \"" + model["name"].get<std::string>() + "\"" + role + ": " + DumpJson(model["meshes"]) + " meshes (" +
                     DumpJson(model["skinned_meshes"]) + " skinned), " + DumpJson(model["vertices"]) + " vertices, " +
                     DumpJson(model["triangles"]) + " triangles, " + DumpJson(model["materials"]) + " materials, " +
                     std::to_string(model["textures"].size()) + " textures";
  std::string list;
  for (const Value& t : model["textures"]) {
    list += (list.empty() ? "" : ", ") + t["name"].get<std::string>() + " ";
    list += t.contains("missing") ? "missing: " + t["missing"].get<std::string>()
                                  : t["format"].get<std::string>() + " " + DumpJson(t["width"]) + "x" + DumpJson(t["height"]);
  }
  return text + (list.empty() ? "" : " (" + list + ")") + "\n";
}

// ", shares the data of A000" for a clip of a linked slot, else "".
std::string SharesData(const Clip& c) {
  const Value* target = c.metadata.contains(kSharesDataWithKey) ? &c.metadata[kSharesDataWithKey] : nullptr;
  return target && target->is_string() ? ", shares the data of " + target->get<std::string>() : "";
}

// "P_EX100.mdlx (companion)", "given: rig.glb", "none".
std::string Label(const FileSummary& s) {
  return SkeletonLabel({{}, {}, {}, std::string(ToString(s.use)), s.skeleton.path});
}

// The format's "version" field, or null when it has none (never added to fields).
Value Version(const Value& fields) { return fields.contains("version") ? fields["version"] : Value(); }

// The keys a clip stores: of every property of every joint.
size_t KeyCount(const Clip& c) {
  size_t keys = 0;
  for (const JointTrack& t : c.tracks) keys += t.translation.size() + t.rotation.size() + t.scale.size();
  return keys;
}

// The clip's own header values (constraint and expression counts, its archive entry...):
// its plain metadata, and the length of each list of names (IK helpers); tables and
// vectors are left to --full.
Value ClipFormatFields(const Clip& c) {
  Value out = Value::object();
  for (auto it = c.metadata.begin(); it != c.metadata.end(); ++it) {
    const Value& v = it.value();
    if (v.is_primitive()) out[it.key()] = v;
    else if (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const Value& e) { return e.is_string(); }))
      out[it.key() + "_count"] = v.size();
  }
  return out;
}

// A clip as info lists it. Full: the joints it animates by name; summary: their count,
// its stored keys and its format's header values.
Value ClipInfo(const Clip& c, InfoDetail detail) {
  Value clip = {{"name", c.name}, {"frames", c.frame_count}, {"rate", c.frame_rate},
                {"duration", c.duration}, {"loop", c.loop}, {"events", c.events.size()}};
  if (detail == InfoDetail::Full) {
    Value names = Value::array();
    for (const JointTrack& t : c.tracks) names.push_back(t.joint);
    clip["joints"] = names;
  } else {
    clip["joint_count"] = c.tracks.size();
    clip["key_count"] = KeyCount(c);
    clip["format_fields"] = ClipFormatFields(c);
  }
  if (c.metadata.contains(kSharesDataWithKey)) clip[kSharesDataWithKey] = c.metadata[kSharesDataWithKey];
  return clip;
}

Value InfoDocument(const LoadedFile& loaded, const FileSummary& s, InfoDetail detail) {
  Value out = {{"file", loaded.path},
               {"format", loaded.format->id},
               {"description", loaded.format->description},
               {"version", Version(s.fields)},
               {"skeleton_file", s.skeleton.path.empty() ? Value() : Value(s.skeleton.path)},
               {"skeleton_use", ToString(s.use)},
               {"skeleton", Label(s)},
               {"skeleton_note", s.skeleton.note}};
  Value clips = Value::array();
  Value events = Value::array();
  Value joints = Value::array();
  if (s.scene) {
    for (const Joint& j : s.scene->skeleton.joints) joints.push_back(j.name);
    for (const Clip& c : s.scene->clips) {
      clips.push_back(ClipInfo(c, detail));
      for (const Event& e : c.events) {
        Value ev = {{"clip", c.name}, {"time", e.time}, {"name", e.name}, {"params", e.params}};
        if (e.end_time) ev["end_time"] = *e.end_time;
        events.push_back(std::move(ev));
      }
    }
  }
  out["clips"] = clips;
  out["joints"] = joints;
  if (s.scene && !s.scene->meshes.empty()) {
    out["models"] = ModelSummaries(*s.scene);
    Value textures = Value::array();
    for (const Image& image : s.scene->textures) textures.push_back(TextureSummary(image));
    out["textures"] = textures;
  }
  out["events"] = events;
  if (!s.decode_error.empty()) out["decode_error"] = s.decode_error;
  out["warnings"] = Warnings(loaded, s);
  out["damaged"] = loaded.document->Damaged();
  out["fields"] = s.fields;
  // Full is the document as it always was; a summary says what it is and where the rest is.
  if (detail == InfoDetail::Summary) out["detail"] = "summary: `animkit info --full` lists every record";
  return out;
}

}  // namespace

namespace {

// A warning set apart: the file it names (convert's "IN: "), the entry path it came from
// ("entry 4 (WlkB) > entry 0 (WlkB)", the clip it is about) and what it says.
struct PlacedWarning {
  std::string file, place, clip, text;
};

PlacedWarning PlaceOfWarning(const std::string& w) {
  static const std::regex kPlaced(R"(^(.*?: )?((entry \d+ \([^)]*\)( > )?)+): )");
  static const std::regex kLastName(R"(\(([^)]*)\)$)");
  std::smatch m;
  if (!std::regex_search(w, m, kPlaced)) return {{}, {}, {}, w};
  std::string clip;
  std::smatch name;
  const std::string place = m[2].str();
  if (std::regex_search(place, name, kLastName)) clip = name[1].str();
  while (!clip.empty() && clip.back() == ' ') clip.pop_back();
  return {m[1].str(), place, clip, m.suffix().str()};
}

// The kind of a text: entry names and numbers as N, joint numbers kept (one line per kind
// and joint).
std::string KindOf(const std::string& text) {
  static const std::regex kEntry(R"(entry \d+ \([^)]*\))");
  static const std::regex kNumber(R"((joint )?(-?0x[0-9a-fA-F]+|-?\d+(\.\d+)?(e-?\d+)?))");
  const std::string plain = std::regex_replace(text, kEntry, "entry N");
  std::string out;
  auto from = plain.cbegin();
  for (std::sregex_iterator it(plain.begin(), plain.end(), kNumber), end; it != end; ++it) {
    out.append(from, (*it)[0].first);
    out += (*it)[1].matched ? (*it)[0].str() : "N";
    from = (*it)[0].second;
  }
  out.append(from, plain.cend());
  return out;
}

}  // namespace

// The same text after its entry path is one line saying in how many clips; texts of one
// kind that differ in their numbers (joint numbers kept: one line per kind and joint) are
// their first, saying how many more. The rule every front end shows (docs/cli.md).
std::vector<std::string> FoldWarnings(const std::vector<std::string>& warnings) {
  constexpr size_t kNamed = 3;  // clips named on a folded line; the count says how many
  struct Same {  // one text, said of each of these clips
    PlacedWarning first;
    std::string whole;
    std::vector<std::string> clips;
    size_t count = 0;
  };
  std::vector<Same> same;
  std::map<std::string, size_t> by_text;
  for (const std::string& w : warnings) {
    PlacedWarning p = PlaceOfWarning(w);
    const std::string key = p.file + '\n' + p.text;
    auto [it, added] = by_text.try_emplace(key, same.size());
    if (added) same.push_back({p, w, {}, 0});
    Same& s = same[it->second];
    ++s.count;
    if (!p.clip.empty() && std::find(s.clips.begin(), s.clips.end(), p.clip) == s.clips.end()) s.clips.push_back(p.clip);
  }
  auto line = [&](const Same& s) {
    if (s.count == 1) return s.whole;
    std::string where;
    if (s.clips.size() > 1) {
      where = " (in " + std::to_string(s.clips.size()) + " clips: ";
      for (size_t i = 0; i < s.clips.size() && i < kNamed; ++i) where += (i ? ", " : "") + s.clips[i];
      where += s.clips.size() > kNamed ? ", ...)" : ")";
      return s.first.file + s.first.text + where;
    }
    return s.whole + " (" + std::to_string(s.count) + " times)";
  };
  // Texts of one kind with other numbers: the first, and how many more.
  std::vector<std::string> order;
  std::map<std::string, std::pair<size_t, size_t>> kinds;  // kind -> first text, warnings of the kind after it
  for (size_t i = 0; i < same.size(); ++i) {
    const std::string kind = same[i].first.file + '\n' + KindOf(same[i].first.text);
    auto [it, added] = kinds.try_emplace(kind, i, 0);
    if (added) order.push_back(kind);
    else it->second.second += same[i].count;
  }
  std::vector<std::string> out;
  for (const std::string& kind : order) {
    const auto& [first, more] = kinds[kind];
    out.push_back(line(same[first]) +
                  (more ? " (and " + std::to_string(more) + " more like it: info --full lists them)" : ""));
  }
  return out;
}

std::string RateText(double rate) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", rate);
  std::string text = buf;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

Value CutTables(const Value& fields) {
  if (fields.is_object()) {
    Value out = Value::object();
    for (auto it = fields.begin(); it != fields.end(); ++it) out[it.key()] = CutTables(it.value());
    return out;
  }
  if (!fields.is_array()) return fields;
  auto all = [&fields](auto test) { return std::all_of(fields.begin(), fields.end(), test); };
  if (all([](const Value& e) { return e.is_string(); })) return fields;
  if (fields.size() <= kMaxVectorSize && all([](const Value& e) { return e.is_number(); })) return fields;
  return {{"count", fields.size()}};
}

Value InfoValue(const LoadedFile& loaded, const InfoRequest& request) {
  std::optional<DecodedScene> decoded;
  return InfoDocument(loaded, Summarize(loaded, request, decoded), request.detail);
}

Value InfoValue(const LoadedFile& loaded, const DecodedScene& decoded, InfoDetail detail) {
  return InfoDocument(loaded, Summarize(loaded, decoded, detail), detail);
}

std::string InfoJson(const std::string& path, const InfoRequest& request) {
  return InfoJson(LoadFile(path, request.format, request.options), request);
}

std::string InfoJson(const LoadedFile& loaded, const InfoRequest& request) {
  return DumpJson(InfoValue(loaded, request), 2) + "\n";
}

std::string InfoText(const std::string& path, const InfoRequest& request) {
  return InfoText(LoadFile(path, request.format, request.options), request);
}

std::string InfoText(const LoadedFile& loaded, const InfoRequest& request) {
  const std::string& path = loaded.path;
  std::optional<DecodedScene> decoded;
  const FileSummary s = Summarize(loaded, request, decoded);
  std::string text =
      path + ": " + std::string(loaded.format->id) + " (" + std::string(loaded.format->description) + ")\n";
  if (const Value version = Version(s.fields); !version.is_null()) text += "  version: " + DumpJson(version) + "\n";
  text += "  skeleton file: " + Label(s) + "\n";
  if (s.use != SkeletonUse::Given && !s.skeleton.note.empty()) text += "  skeleton note: " + s.skeleton.note + "\n";
  if (s.scene) {
    if (!s.scene->skeleton.empty()) text += "  skeleton: " + std::to_string(s.scene->skeleton.joints.size()) + " joints\n";
    if (!s.scene->meshes.empty())
      for (const Value& model : ModelSummaries(*s.scene)) text += ModelLine(model);
    for (const Clip& c : s.scene->clips) {
      text += "  clip \"" + c.name + "\": " + std::to_string(c.frame_count) + " frames at " + RateText(c.frame_rate) +
              " fps, " + Fixed(c.duration, 3) + " s, " + (c.loop ? "loops" : "no loop") + ", " +
              std::to_string(c.tracks.size()) + " joints, " + std::to_string(KeyCount(c)) + " keys, " +
              std::to_string(c.events.size()) + " events" + SharesData(c) + "\n";
    }
  } else {
    text += "  (not decoded: " + s.decode_error + ")\n";
  }
  std::vector<std::string> warnings;
  for (const auto& w : Warnings(loaded, s))
    if (w.is_string()) warnings.push_back(w.get<std::string>());
  if (request.detail != InfoDetail::Full) warnings = FoldWarnings(warnings);
  for (const std::string& w : warnings) text += "  warning: " + w + "\n";
  for (const std::string& d : loaded.document->Damaged())
    text += "  damaged (no clip from it, its bytes kept): " + d + "\n";
  for (auto it = s.fields.begin(); it != s.fields.end(); ++it) {
    if (it.value().is_primitive()) text += "  " + it.key() + ": " + DumpJson(it.value()) + "\n";
  }
  if (request.detail == InfoDetail::Full) text += "  fields (every record): " + DumpJson(s.fields, 2) + "\n";
  return text;
}

}  // namespace animkit
