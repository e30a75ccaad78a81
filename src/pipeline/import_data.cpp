// The import file (import_data.hpp; docs/blender.md, "The import file"). Version 1 carried
// every frame's pose and the whole `info --json`; version 2 no stored curves.
#include <animkit/core/error.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/offline/sampling.hpp>
#include <animkit/pipeline/info.hpp>
#include <animkit/pipeline/curves.hpp>
#include <animkit/pipeline/pipeline.hpp>
#include <animkit/pipeline/sample_json.hpp>

#include <bit>

namespace animkit {

namespace {

constexpr char kImportMagic[8] = {'A', 'K', 'I', 'M', 'P', 'O', 'R', 'T'};
constexpr uint32_t kImportVersion = 3;

// One decode of the input, the chosen clips kept: what every section reads.
struct ImportSource {
  LoadedFile loaded;
  DecodedScene decoded;
  std::vector<std::string> file_clips;  // every clip of the file, chosen or not
  bool every_clip = true;
  std::vector<std::string> warnings;    // the reader's, then a companion not used, then the encoder's
  Bytes glb;                            // the glTF of `convert FILE OUT.glb`
};

// The glTF of `convert FILE OUT.glb`: a glTF input asking for no change as read, else encoded.
Bytes ImportSceneGlb(const ImportSource& s, const Options& options, std::vector<std::string>& warnings) {
  const FormatDescriptor& gltf = InterchangeFormat();
  ConvertRequest request;
  request.options = options;
  if (s.every_clip && s.loaded.format == &gltf && !AsksForReencode(request, gltf)) return s.loaded.document->Write();
  EncodeResult encoded = Encode(s.decoded.scene, gltf,
                                {s.decoded.reference_used(), options, "scene.glb", nullptr, nullptr, {}, nullptr, nullptr});
  for (std::string& w : encoded.warnings) warnings.push_back(std::move(w));
  return std::move(encoded.bytes);
}

ImportSource ReadImportSource(const ImportDataJob& job) {
  ImportSource s;
  s.loaded = LoadFile(job.input, job.format, job.options);
  RequireOneScene(s.loaded);
  // Blender's import reads the glTF: its keys are the interchange's.
  s.decoded = DecodeWithSkeleton(s.loaded, job.skeleton, DecodeOptionsFor(&InterchangeFormat(), job.options));
  Scene& scene = s.decoded.scene;
  for (const Clip& clip : scene.clips) s.file_clips.push_back(clip.name);
  // Only the chosen clips are encoded (and so decoded from the glTF).
  const std::vector<size_t> chosen = SelectClips(scene, job.clips, s.loaded.path);
  s.every_clip = chosen.size() == scene.clips.size();
  if (!s.every_clip) {
    std::vector<Clip> kept;
    for (size_t k : chosen) kept.push_back(std::move(scene.clips[k]));
    scene.clips = std::move(kept);
  }
  // What the reader accepted or skipped as damaged, then a companion not used.
  s.warnings = ReadWarnings(s.loaded);
  if (!s.decoded.warning.empty()) s.warnings.push_back(s.decoded.warning);
  s.glb = ImportSceneGlb(s, job.options, s.warnings);
  return s;
}

// ---- the header's sections, in the order they are written; each adds its keys ----

void SourceSection(const ImportSource& s, Value& header) {
  header["format"] = s.loaded.format->id;
  header["skeleton_file"] = s.decoded.skeleton.path;
  header["skeleton_note"] = s.decoded.skeleton.note;
  header["skeleton_use"] = ToString(s.decoded.use);
}

void FileClipsSection(const ImportSource& s, Value& header) {
  Value names = Value::array();
  for (const std::string& name : s.file_clips) names.push_back(name);
  header["file_clips"] = std::move(names);
}

// What convert prints: one line per kind (FoldWarnings); `info --json` lists every one.
void WarningsSection(const ImportSource& s, Value& header) { header["warnings"] = FoldWarnings(s.warnings); }

// The glTF's nodes, meshes, cameras and animations; their arrays go to data.
void SceneSection(const ImportSource& s, const Options& options, Value& header, Bytes& data) {
  header["scene"] = GltfSceneView(s.glb, s.loaded.path, data, options.limits());
}

Value ImportClipHeader(const Clip& clip, size_t frames, size_t animation) {
  Value joints = Value::array();
  for (const JointTrack& t : clip.tracks) joints.push_back(t.joint);
  Value events = Value::array();
  for (const Event& e : clip.events) {
    Value ev = {{"time", e.time}, {"name", e.name}, {"params", e.params}};
    if (e.end_time) ev["end_time"] = *e.end_time;
    events.push_back(std::move(ev));
  }
  Value header = {{"name", clip.name},         {"frame_rate", clip.frame_rate},
                  {"duration", clip.duration}, {"loop", clip.loop},
                  {"space", clip.space == Space::Model ? "model" : "local"},
                  {"joints", joints},          {"events", events},
                  {"frame_count", frames},     {"animation", animation}};
  if (clip.metadata.is_object() && clip.metadata.contains(kSharesDataWithKey))
    header[kSharesDataWithKey] = clip.metadata[kSharesDataWithKey];
  return header;
}

// The chosen clips; clip k is the glTF's animation k.
void ClipsSection(const ImportSource& s, const Options& options, Value& header) {
  Value clips = Value::array();
  for (size_t k = 0; k < s.decoded.scene.clips.size(); ++k) {
    const Clip& clip = s.decoded.scene.clips[k];
    clips.push_back(ImportClipHeader(clip, SampleFrameCount(clip, 0, options.limits()), k));
  }
  header["clips"] = std::move(clips);
}

// Each clip whose file stores curves gets them as "curves", joints as the scene's nodes
// (after SceneSection and ClipsSection).
void CurvesSection(const ImportSource& s, const Options& options, Value& header, Bytes& data) {
  const std::vector<ClipCurves> stored = StoredCurvesOfFile(s.loaded, s.decoded.scene, options.limits());
  if (stored.empty()) return;
  std::vector<std::string> node_names;
  for (const Value& node : header["scene"]["nodes"])
    node_names.push_back(node["name"].is_string() ? node["name"].get<std::string>() : "");
  for (Value& clip : header["clips"])
    for (const ClipCurves& c : stored)
      if (c.clip == clip["name"].get<std::string>()) clip["curves"] = ImportCurvesSection(c.curves, node_names, data);
}

}  // namespace

void ImportDataJob::Validate() const {
  if (input.empty()) throw Error::General("no input file");
  if (!format.empty() && !FindFormat(format)) throw Error::General("unknown format id '" + format + "'");
  for (const std::string& pattern : clips)
    if (pattern.empty()) throw Error::General("an empty clip name or pattern");
}

Bytes ImportDataJob::Run() const {
  Validate();
  const ImportSource s = ReadImportSource(*this);
  // One function a section, each adding its keys (readers skip keys they do not know).
  Value header = Value::object();
  Bytes data;
  SourceSection(s, header);
  FileClipsSection(s, header);
  WarningsSection(s, header);
  SceneSection(s, options, header, data);
  ClipsSection(s, options, header);
  CurvesSection(s, options, header, data);

  static_assert(std::endian::native == std::endian::little, "the import file is little-endian");
  std::string text = DumpJson(header);
  while (text.size() % 4) text.push_back(' ');
  Bytes out(kImportMagic, kImportMagic + 8);
  le::Append32(out, kImportVersion);
  le::Append32(out, static_cast<uint32_t>(text.size()));
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

}  // namespace animkit
