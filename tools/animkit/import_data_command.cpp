// `animkit import-data FILE -o OUT`: everything an importer needs from one decode, in one
// file (docs/blender.md, "The import file"):
//
//   "AKIMPORT" u32 version (1) u32 header length H
//   H bytes of JSON (space padded to 4), then the data every offset counts from:
//     header.scene      the nodes, meshes, cameras and non-joint channels of the glTF
//                       `convert FILE OUT.glb` writes (GltfSceneView)
//     header.clips[k]   {name, frame_rate, duration, loop, space, joints, events,
//                        frame_count, offset}: frame_count x joints x 10 float32
//                        (t xyz, r xyzw, s xyz) as `sample` gives them (a per-axis
//                        clip's as the glTF holds them: ConvertScaleInheritance to the
//                        matrix rule); a hidden joint's 10 values are NaN
//   header.info is `info --json`, header.skeleton_file / skeleton_note / skeleton_use
//   what was used, header.warnings what `convert` would print (a companion not used first).
// All little-endian. Clips carry samples now; a later version can add their keys.
#include "import_data_command.hpp"

#include <animkit/animkit.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace animkit::cli {

namespace {

constexpr char kMagic[8] = {'A', 'K', 'I', 'M', 'P', 'O', 'R', 'T'};
constexpr uint32_t kVersion = 1;

void PutU32(Bytes& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void PutFloats(Bytes& out, std::initializer_list<double> values) {
  static_assert(std::endian::native == std::endian::little, "the import file is little-endian");
  for (double v : values) {
    const float f = static_cast<float>(v);
    uint8_t b[4];
    std::memcpy(b, &f, 4);
    out.insert(out.end(), b, b + 4);
  }
}

// The glTF of `convert FILE OUT.glb`: a glTF input asking for no change as read, else encoded.
Bytes SceneGlb(const LoadedFile& loaded, const DecodedScene& decoded, const Options& options,
               std::vector<std::string>& warnings) {
  const FormatDescriptor& gltf = *FindFormat("gltf");
  ConvertRequest request;
  request.options = options;
  if (loaded.format == &gltf && !AsksForReencode(request, gltf)) return loaded.document->Write();
  EncodeResult encoded = Encode(decoded.scene, gltf, {decoded.reference_used(), options, "scene.glb", nullptr, nullptr, {}});
  for (std::string& w : encoded.warnings) warnings.push_back(std::move(w));
  return std::move(encoded.bytes);
}

Value ClipHeader(const Clip& clip, size_t frames, size_t offset) {
  Value joints = Value::array();
  for (const JointTrack& t : clip.tracks) joints.push_back(t.joint);
  Value events = Value::array();
  for (const Event& e : clip.events) {
    Value ev = {{"time", e.time}, {"name", e.name}, {"params", e.params}};
    if (e.end_time) ev["end_time"] = *e.end_time;
    events.push_back(std::move(ev));
  }
  return {{"name", clip.name},         {"frame_rate", clip.frame_rate},
          {"duration", clip.duration}, {"loop", clip.loop},
          {"space", clip.space == Space::Model ? "model" : "local"},
          {"joints", joints},          {"events", events},
          {"frame_count", frames},     {"offset", offset}};
}

}  // namespace

Bytes ImportData(const std::string& file, const std::string& format, const std::string& skeleton,
                 const Options& options) {
  const LoadedFile loaded = LoadFile(file, format, options);
  const DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource(skeleton), options);
  Value header = Value::object();
  header["format"] = loaded.format->id;
  header["skeleton_file"] = decoded.skeleton.path;
  header["skeleton_note"] = decoded.skeleton.note;
  header["skeleton_use"] = ToString(decoded.use);
  header["info"] = InfoValue(loaded, decoded);

  std::vector<std::string> warnings;
  if (!decoded.warning.empty()) warnings.push_back(decoded.warning);
  const Bytes glb = SceneGlb(loaded, decoded, options, warnings);
  header["warnings"] = warnings;
  std::vector<GltfClipFrames> clip_frames;
  for (const Clip& clip : decoded.scene.clips)
    clip_frames.push_back({SampleFrameCount(clip, 0, options.limits()), clip.frame_rate});
  Bytes data;
  header["scene"] = GltfSceneView(glb, loaded.path, clip_frames, data, options.limits());
  const SampleRequest request{0, {}, &decoded.rest(), options.limits()};
  Value clips = Value::array();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Clip& decoded_clip : decoded.scene.clips) {
    // The pose the glTF above holds: a per-axis clip as its closest matrix-rule locals.
    std::optional<Clip> converted;
    if (decoded_clip.scale_inheritance != ScaleInheritance::Matrix) {
      converted = decoded_clip;
      ConvertScaleInheritance(decoded.scene.skeleton, *converted, ScaleInheritance::Matrix, options.limits());
    }
    const Clip& clip = converted ? *converted : decoded_clip;
    while (data.size() % 4) data.push_back(0);
    const size_t offset = data.size();
    const size_t frames = SampleFrameCount(clip, 0, options.limits());
    ForEachSampleFrame(clip, request, [&](size_t, std::span<const TransformTRS> pose, std::span<const bool> visible) {
      for (size_t i = 0; i < pose.size(); ++i) {
        const TransformTRS& p = pose[i];
        if (!visible[i]) {
          PutFloats(data, {nan, nan, nan, nan, nan, nan, nan, nan, nan, nan});
          continue;
        }
        PutFloats(data, {p.translation.x, p.translation.y, p.translation.z, p.rotation.x, p.rotation.y, p.rotation.z,
                         p.rotation.w, p.scale.x, p.scale.y, p.scale.z});
      }
    });
    clips.push_back(ClipHeader(clip, frames, offset));
  }
  header["clips"] = std::move(clips);

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
