// Stored curves of a file's clips as JSON and in the import file, and curves written back
// (docs/cli.md, "curves"; docs/blender.md, "The import file").
#include <algorithm>
#include <animkit/pipeline/curves.hpp>

#include <animkit/io/io.hpp>

#include <cmath>
#include <cstring>
#include <map>

namespace animkit {
namespace {

// The track names of the scene's clip: what the glTF nodes are called.
void NameJoints(StoredCurves& curves, const Skeleton& skeleton) {
  auto name = [&](int j) { return size_t(j) < skeleton.joints.size() ? skeleton.joints[size_t(j)].name : NumberedJointName(size_t(j)); };
  for (StoredChannel& c : curves.channels) c.joint_name = name(c.joint);
  for (StoredConstant& c : curves.constants) c.joint_name = name(c.joint);
}

Value KeyRow(const CurveKey& k) {
  return Value::array({k.frame, k.value, k.in_slope, k.out_slope, static_cast<int>(k.interpolation)});
}

std::string Where(const std::string& clip, size_t channel, const Value& c) {
  std::string s = "clip " + clip + ", channel " + std::to_string(channel);
  if (c.is_object()) {
    if (c.contains("joint") && c["joint"].is_number_integer()) s += " (joint " + std::to_string(c["joint"].get<int64_t>()) + ")";
    else if (c.contains("joint_name") && c["joint_name"].is_string()) s += " (joint " + c["joint_name"].get<std::string>() + ")";
  }
  return s;
}

float Number(const Value& v, const std::string& where) {
  if (!v.is_number()) throw Error::General(where + " is not a number");
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw Error::General(where + " is not finite");
  return static_cast<float>(d);
}

StoredChannel ParseChannel(const std::string& clip, size_t index, const Value& c) {
  const std::string where = Where(clip, index, c);
  if (!c.is_object()) throw Error::General(where + ": a channel is an object");
  StoredChannel s;
  s.joint = -1;
  if (c.contains("joint")) {
    if (!c["joint"].is_number_integer() || c["joint"].get<int64_t>() < 0 || c["joint"].get<int64_t>() > 1 << 15)
      throw Error::General(where + ": \"joint\" is a joint index");
    s.joint = static_cast<int>(c["joint"].get<int64_t>());
  }
  if (c.contains("joint_name")) {
    if (!c["joint_name"].is_string()) throw Error::General(where + ": \"joint_name\" is a string");
    s.joint_name = c["joint_name"].get<std::string>();
  }
  if (s.joint < 0 && s.joint_name.empty()) throw Error::General(where + ": no \"joint\" (index) or \"joint_name\"");
  const auto property = c.contains("property") && c["property"].is_string()
                            ? ParseCurveProperty(c["property"].get<std::string>())
                            : std::nullopt;
  if (!property) throw Error::General(where + ": \"property\" is location, rotation_euler or scale");
  s.property = *property;
  if (!c.contains("index") || !c["index"].is_number_integer() || c["index"].get<int64_t>() < 0 || c["index"].get<int64_t>() > 2)
    throw Error::General(where + ": \"index\" is 0, 1 or 2");
  s.axis = static_cast<int>(c["index"].get<int64_t>());
  for (const char* side : {"pre", "post"}) {
    CurveCycle cycle = CurveCycle::Clamp;
    if (c.contains(side)) {
      const auto parsed = c[side].is_string() ? ParseCurveCycle(c[side].get<std::string>()) : std::nullopt;
      if (!parsed) throw Error::General(where + ": \"" + side + "\" is clamp, offset, repeat or zero");
      cycle = *parsed;
    }
    (std::strcmp(side, "pre") == 0 ? s.pre : s.post) = cycle;
  }
  if (!c.contains("keys") || !c["keys"].is_array() || c["keys"].empty())
    throw Error::General(where + ": \"keys\" is a list of [frame, value, in_slope, out_slope, interpolation]");
  size_t k = 0;
  for (const Value& row : c["keys"]) {
    const std::string at = where + ", key " + std::to_string(k++);
    if (!row.is_array() || row.size() < 5)
      throw Error::General(at + ": a key is [frame, value, in_slope, out_slope, interpolation]");
    CurveKey key;
    key.frame = Number(row[0], at + ": the frame");
    key.value = Number(row[1], at + ": the value");
    key.in_slope = Number(row[2], at + ": the in slope");
    key.out_slope = Number(row[3], at + ": the out slope");
    const float interpolation = Number(row[4], at + ": the interpolation");
    if (interpolation != 0 && interpolation != 1 && interpolation != 2)
      throw Error::General(at + ": the interpolation is 0 (constant), 1 (linear) or 2 (hermite)");
    key.interpolation = static_cast<CurveInterpolation>(static_cast<int>(interpolation));
    s.keys.push_back(key);
  }
  return s;
}

}  // namespace

std::vector<ClipCurves> StoredCurvesOfFile(const LoadedFile& loaded, const Scene& scene, const Limits&) {
  if (!loaded.document || !loaded.document->StoresCurves()) return {};
  std::vector<ClipCurves> out = loaded.document->StoredCurves(scene);
  for (ClipCurves& c : out) NameJoints(c.curves, scene.skeleton);
  return out;
}

Value CurvesJson(const StoredCurves& curves) {
  Value channels = Value::array();
  for (const StoredChannel& c : curves.channels) {
    Value keys = Value::array();
    for (const CurveKey& k : c.keys) keys.push_back(KeyRow(k));
    channels.push_back({{"joint", c.joint},
                        {"joint_name", c.joint_name},
                        {"property", std::string(ToString(c.property))},
                        {"index", c.axis},
                        {"pre", std::string(ToString(c.pre))},
                        {"post", std::string(ToString(c.post))},
                        {"keys", std::move(keys)}});
  }
  Value constants = Value::array();
  for (const StoredConstant& c : curves.constants)
    constants.push_back({{"joint", c.joint},
                         {"joint_name", c.joint_name},
                         {"property", std::string(ToString(c.property))},
                         {"index", c.axis},
                         {"value", c.value}});
  Value driven = Value::array();
  for (int j : curves.driven) driven.push_back(j);
  return {{"rotation_mode", curves.rotation_mode},
          {"driven", std::move(driven)},
          {"channels", std::move(channels)},
          {"constants", std::move(constants)}};
}

Value CurvesJson(const std::vector<ClipCurves>& clips) {
  Value list = Value::array();
  for (const ClipCurves& c : clips) list.push_back({{"name", c.clip}, {"curves", CurvesJson(c.curves)}});
  return {{"clips", std::move(list)}};
}

std::vector<ClipCurves> ParseCurveEdits(const Value& edits) {
  if (!edits.is_object() || !edits.contains("clips") || !edits["clips"].is_array())
    throw Error::General("the edits are {\"clips\": [{\"name\": CLIP, \"channels\": [...]}]}");
  std::vector<ClipCurves> out;
  size_t n = 0;
  for (const Value& clip : edits["clips"]) {
    if (!clip.is_object() || !clip.contains("name") || !clip["name"].is_string())
      throw Error::General("edited clip " + std::to_string(n) + " has no \"name\"");
    ++n;
    ClipCurves c;
    c.clip = clip["name"].get<std::string>();
    const Value* channels = nullptr;
    if (clip.contains("channels")) channels = &clip["channels"];
    else if (clip.contains("curves") && clip["curves"].is_object() && clip["curves"].contains("channels"))
      channels = &clip["curves"]["channels"];
    if (!channels || !channels->is_array()) throw Error::General("clip " + c.clip + ": no \"channels\" list");
    size_t i = 0;
    for (const Value& ch : *channels) c.curves.channels.push_back(ParseChannel(c.clip, i++, ch));
    out.push_back(std::move(c));
  }
  return out;
}

Value ImportCurvesSection(const StoredCurves& curves, const std::vector<std::string>& node_names, Bytes& data) {
  std::map<std::string, size_t> node_of;
  for (size_t i = 0; i < node_names.size(); ++i) node_of.emplace(node_names[i], i);
  auto node = [&](const std::string& joint) -> Value {
    const auto it = node_of.find(joint);
    return it == node_of.end() ? Value() : Value(it->second);
  };
  Value channels = Value::array();
  for (const StoredChannel& c : curves.channels) {
    const size_t offset = data.size();
    for (const CurveKey& k : c.keys) {
      for (float f : {k.frame, k.value, k.in_slope, k.out_slope, float(static_cast<int>(k.interpolation)), 0.0f})
        le::AppendF32(data, f);
    }
    channels.push_back({{"node", node(c.joint_name)},
                        {"joint", c.joint},
                        {"property", std::string(ToString(c.property))},
                        {"index", c.axis},
                        {"pre", std::string(ToString(c.pre))},
                        {"post", std::string(ToString(c.post))},
                        {"keys", {{"offset", offset}, {"count", c.keys.size()}}}});
  }
  Value constants = Value::array();
  for (const StoredConstant& c : curves.constants)
    constants.push_back({{"node", node(c.joint_name)},
                         {"joint", c.joint},
                         {"property", std::string(ToString(c.property))},
                         {"index", c.axis},
                         {"value", c.value}});
  Value driven = Value::array();
  for (int j : curves.driven) {
    const std::string name = [&] {
      for (const StoredChannel& c : curves.channels)
        if (c.joint == j) return c.joint_name;
      for (const StoredConstant& c : curves.constants)
        if (c.joint == j) return c.joint_name;
      return NumberedJointName(size_t(j));
    }();
    driven.push_back(node(name));
  }
  return {{"rotation_mode", curves.rotation_mode},
          {"driven", std::move(driven)},
          {"channels", std::move(channels)},
          {"constants", std::move(constants)}};
}

namespace {

// The clips whose curves the write changed (a clip sharing an edited motion changes with
// it), and the edited ones whose curves came back as they were.
struct WrittenClips {
  std::vector<std::string> written, kept;
};

bool SameCurves(const StoredCurves& a, const StoredCurves& b) {
  if (a.channels.size() != b.channels.size()) return false;
  for (size_t i = 0; i < a.channels.size(); ++i) {
    const StoredChannel &x = a.channels[i], &y = b.channels[i];
    if (x.joint != y.joint || x.property != y.property || x.axis != y.axis || x.keys != y.keys || x.pre != y.pre ||
        x.post != y.post)
      return false;
  }
  return true;
}

// Read from the files' curves themselves, the template's against the output's, in the
// template's order of clips.
WrittenClips WhichClipsChanged(const LoadedFile& loaded, const std::vector<ClipCurves>& edits, const Bytes& out,
                               const Options& options) {
  const Scene none;  // the stored keys alone: no rest pose is needed to compare them
  const std::vector<ClipCurves> before = loaded.document->StoredCurves(none);
  std::vector<ClipCurves> after;
  if (out != loaded.document->Write()) {
    const LoadedFile written = LoadBytes(out, loaded.path, std::string(loaded.format->id), options);
    after = written.document->StoredCurves(none);
  }
  auto edited = [&](const std::string& clip) {
    return std::any_of(edits.begin(), edits.end(), [&](const ClipCurves& e) { return e.clip == clip; });
  };
  WrittenClips said;
  for (const ClipCurves& b : before) {
    const auto a = std::find_if(after.begin(), after.end(), [&](const ClipCurves& c) { return c.clip == b.clip; });
    if (a != after.end() && !SameCurves(a->curves, b.curves)) said.written.push_back(b.clip);
    else if (edited(b.clip)) said.kept.push_back(b.clip);
  }
  return said;
}

// What the write did, for people: "1 clip's curves written (jump); 43 kept as they were;
// 3 curves replaced, 1200 unchanged" (the CLI prints it, Blender reports it).
std::string WrittenText(const WrittenClips& said, const CurvesReplaceReport& report) {
  constexpr size_t kNamed = 5;  // clips named; the count says how many
  std::string names;
  for (size_t i = 0; i < said.written.size() && i < kNamed; ++i) names += (i ? ", " : "") + said.written[i];
  if (said.written.size() > kNamed) names += ", ...";
  const size_t written = said.written.size(), kept = said.kept.size();
  std::string text = written == 0 ? std::string("no clip's curves changed")
                                  : std::to_string(written) + (written == 1 ? " clip's" : " clips'") +
                                        " curves written (" + names + ")";
  if (kept) text += (written ? "; " : ": ") + std::to_string(kept) + " kept as " + (kept == 1 ? "it was" : "they were");
  return text + "; " + std::to_string(report.replaced) + " curves replaced, " + std::to_string(report.unchanged) +
         " unchanged";
}

}  // namespace

bool CurvesReplaceJob::Validate(std::string* why) const {
  auto fail = [&](const char* text) {
    if (why) *why = text;
    return false;
  };
  if (template_path.empty()) return fail("no template file");
  if (output.empty()) return fail("no output file (-o)");
  if (!edits.is_object()) return fail("the edits are not a JSON object");
  return true;
}

Value CurvesReplaceJob::Run() const {
  std::string why;
  if (!Validate(&why)) throw Error::General(why);
  const LoadedFile loaded = LoadFile(template_path, format, options);
  if (!loaded.document->StoresCurves())
    throw Error::General(template_path + ": " + std::string(loaded.format->id) + " files store no curves to replace");
  const std::vector<ClipCurves> clips = ParseCurveEdits(edits);
  const Bytes bytes = loaded.document->Write();  // a document that was read: the file's bytes
  CurvesReplaceReport report;
  const Bytes out = loaded.document->WithCurves(clips, &report, options.limits());
  WriteFileAtomic(output, out, {template_path});
  const WrittenClips said = WhichClipsChanged(loaded, clips, out, options);
  Value notes = Value::array();
  for (const std::string& n : report.notes) notes.push_back(n);
  Value written = Value::array(), kept = Value::array();
  for (const std::string& name : said.written) written.push_back(name);
  for (const std::string& name : said.kept) kept.push_back(name);
  return {{"replaced", report.replaced},
          {"unchanged", report.unchanged},
          {"written_clips", std::move(written)},
          {"kept_clips", std::move(kept)},
          {"summary", WrittenText(said, report)},
          {"identical", out == bytes},
          {"appended",
           {{"keys", report.appended_keys},
            {"key_times", report.appended_times},
            {"values", report.appended_values},
            {"tangents", report.appended_tangents}}},
          {"notes", std::move(notes)}};
}

}  // namespace animkit
