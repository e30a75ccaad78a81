// `animkit import-data FILE -o OUT [--clip NAME|GLOB]...`: everything an importer needs from
// one decode, in one file (docs/blender.md, "The import file"):
//
//   "AKIMPORT" u32 version (3) u32 header length H
//   H bytes of JSON (space padded to 4), then the data every offset counts from:
//     header.scene      the nodes, meshes, cameras and animations of the glTF
//                       `convert FILE OUT.glb` writes (GltfSceneView): each animation's
//                       channels as stored (node, path, interpolation, key times, values)
//     header.clips[k]   {name, frame_rate, duration, loop, space, joints, events,
//                        frame_count, animation, shares_data_with?, curves?}: the chosen
//                        clips, in the file's order; animation indexes scene.animations;
//                        curves: the keys the file stores (pipeline/curves.hpp), when it does
//   header.file_clips the names of every clip of the file (chosen or not),
//   header.skeleton_file / skeleton_note / skeleton_use what was used, header.warnings
//   what `convert` would print (a companion not used first).
// All little-endian. Version 1 carried every frame's pose and the whole `info --json`; version 2 no curves.
#include "import_data_command.hpp"

#include <animkit/animkit.hpp>
#include <animkit/pipeline/curves.hpp>

#include <bit>
#include <cstring>

namespace animkit::cli {

namespace {

constexpr char kMagic[8] = {'A', 'K', 'I', 'M', 'P', 'O', 'R', 'T'};
constexpr uint32_t kVersion = 3;

void PutU32(Bytes& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// The glTF of `convert FILE OUT.glb`: a glTF input asking for no change as read, else encoded.
Bytes SceneGlb(const LoadedFile& loaded, const DecodedScene& decoded, bool every_clip, const Options& options,
               std::vector<std::string>& warnings) {
  const FormatDescriptor& gltf = *FindFormat("gltf");
  ConvertRequest request;
  request.options = options;
  if (every_clip && loaded.format == &gltf && !AsksForReencode(request, gltf)) return loaded.document->Write();
  EncodeResult encoded = Encode(decoded.scene, gltf, {decoded.reference_used(), options, "scene.glb", nullptr, nullptr, {}, nullptr, nullptr});
  for (std::string& w : encoded.warnings) warnings.push_back(std::move(w));
  return std::move(encoded.bytes);
}

Value ClipHeader(const Clip& clip, size_t frames, size_t animation) {
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

// Each clip whose file stores curves gets them as "curves", joints as the scene's nodes.
void AddStoredCurves(const LoadedFile& loaded, const Scene& scene, const Value& scene_view, Value& clips, Bytes& data,
                     const Limits& limits) {
  const std::vector<ClipCurves> stored = StoredCurvesOfFile(loaded, scene, limits);
  if (stored.empty()) return;
  std::vector<std::string> node_names;
  for (const Value& node : scene_view["nodes"]) node_names.push_back(node["name"].is_string() ? node["name"].get<std::string>() : "");
  for (Value& clip : clips)
    for (const ClipCurves& c : stored)
      if (c.clip == clip["name"].get<std::string>()) clip["curves"] = ImportCurvesSection(c.curves, node_names, data);
}

}  // namespace

Bytes ImportData(const std::string& file, const std::string& format, const std::string& skeleton,
                 const std::vector<std::string>& clip_patterns, const Options& options) {
  const LoadedFile loaded = LoadFile(file, format, options);
  // Blender's import reads the glTF: its keys are the interchange's.
  DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource(skeleton), DecodeOptionsFor(FindFormat("gltf"), options));
  Value header = Value::object();
  header["format"] = loaded.format->id;
  header["skeleton_file"] = decoded.skeleton.path;
  header["skeleton_note"] = decoded.skeleton.note;
  header["skeleton_use"] = ToString(decoded.use);
  Value file_clips = Value::array();
  for (const Clip& clip : decoded.scene.clips) file_clips.push_back(clip.name);
  header["file_clips"] = std::move(file_clips);

  // Only the chosen clips are encoded (and so decoded from the glTF).
  const std::vector<size_t> chosen = SelectClips(decoded.scene, clip_patterns, loaded.path);
  const bool every_clip = chosen.size() == decoded.scene.clips.size();
  if (!every_clip) {
    std::vector<Clip> kept;
    for (size_t k : chosen) kept.push_back(std::move(decoded.scene.clips[k]));
    decoded.scene.clips = std::move(kept);
  }

  // What the reader accepted or skipped as damaged, then a companion not used.
  std::vector<std::string> warnings = ReadWarnings(loaded);
  if (!decoded.warning.empty()) warnings.push_back(decoded.warning);
  const Bytes glb = SceneGlb(loaded, decoded, every_clip, options, warnings);
  header["warnings"] = warnings;
  Bytes data;
  header["scene"] = GltfSceneView(glb, loaded.path, data, options.limits());
  Value clips = Value::array();
  for (size_t k = 0; k < decoded.scene.clips.size(); ++k) {
    const Clip& clip = decoded.scene.clips[k];
    clips.push_back(ClipHeader(clip, SampleFrameCount(clip, 0, options.limits()), k));
  }
  AddStoredCurves(loaded, decoded.scene, header["scene"], clips, data, options.limits());
  header["clips"] = std::move(clips);

  static_assert(std::endian::native == std::endian::little, "the import file is little-endian");
  std::string text = DumpJson(header);
  while (text.size() % 4) text.push_back(' ');
  Bytes out(kMagic, kMagic + 8);
  PutU32(out, kVersion);
  PutU32(out, static_cast<uint32_t>(text.size()));
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

}  // namespace animkit::cli
