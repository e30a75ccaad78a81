// `animkit retarget`: decode the source and the target, map their joints, replay the clips on
// the target, write it.
#include <animkit/pipeline/retarget.hpp>

#include <animkit/core/error.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/path.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/encode.hpp>

#include <algorithm>

namespace animkit {

AxisFrame AxesOf(const FormatDescriptor* format) {
  if (!format) return {};
  const std::optional<Vec3> up = ParseAxis(format->up_axis), forward = ParseAxis(format->forward_axis);
  return {up.value_or(Vec3{0, 1, 0}), forward.value_or(Vec3{0, 0, 1})};
}

SourceSkeleton SourceSkeletonFor(const Scene& source, const Scene* source_reference, const Scene& target) {
  SourceSkeleton out;
  const Skeleton& own = RestSkeleton(source, source_reference);
  if (!own.empty()) {
    out.skeleton = own;
    return out;
  }
  size_t count = target.skeleton.joints.size();
  for (const Clip& clip : source.clips)
    if (clip.metadata.is_object() && clip.metadata.contains(kClipJointCountKey) &&
        clip.metadata[kClipJointCountKey].is_number_integer()) {
      count = std::min<size_t>(count, clip.metadata[kClipJointCountKey].get<uint64_t>());
      break;
    }
  out.skeleton.joints.assign(target.skeleton.joints.begin(), target.skeleton.joints.begin() + static_cast<ptrdiff_t>(count));
  size_t tracks = 0, found = 0;
  for (const Clip& clip : source.clips)
    for (const JointTrack& track : clip.tracks) ++tracks, found += out.skeleton.Find(track.joint) >= 0;
  if (found * 2 < tracks)
    throw Error::General("the source has no skeleton of its own and its clips' joints are not the target's (" +
                         std::to_string(found) + " of " + std::to_string(tracks) +
                         " tracks name one): give the source's skeleton or model with --skeleton");
  out.note = "the source has no skeleton of its own: its clips are read as made for the target's first " +
             std::to_string(count) + " joints";
  return out;
}

Scene TargetRig(const Scene& decoded, const Scene* reference, const std::string& name) {
  Scene rig;
  rig.skeleton = RestSkeleton(decoded, reference);
  if (rig.skeleton.empty()) throw Error::General(name + ": has no skeleton to retarget onto");
  rig.meshes = decoded.meshes;
  rig.materials = decoded.materials;
  rig.textures = decoded.textures;
  rig.metadata = decoded.metadata;
  rig.source = decoded.source;
  return rig;
}

std::optional<DecodedScene> DecodeSourceAgainst(const LoadedFile& loaded, const SourceSkeleton& skeleton,
                                                const std::string& target_name, const Options& options,
                                                std::shared_ptr<Scene>& rig) {
  if (skeleton.note.empty()) return std::nullopt;
  rig = std::make_shared<Scene>();
  rig->skeleton = skeleton.skeleton;
  return DecodeWithSkeleton(loaded, SkeletonSource::Decoded(*rig, target_name), options);
}

BoneMap BoneMapFor(const std::string& map, const Skeleton& target, const Skeleton& source) {
  if (map.empty() || map == kBoneMapAuto) return AutoBoneMap(target, source);
  const Bytes bytes = ReadFileBytes(map);
  return ReadBoneMap(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), map, target, source);
}

namespace {

// The joint a retargeted clip without a root-motion joint of its own moves by: the first root of
// the map that is a root of the target skeleton (what --root-motion extract splits).
void SetRootMotion(std::vector<Clip>& clips, const Skeleton& target, const BoneMap& map, Vec3 up) {
  std::string root;
  for (size_t k = 0; k < target.joints.size() && root.empty(); ++k)
    if (target.joints[k].parent < 0 && map.source_of[k] >= 0) root = target.joints[k].name;
  if (root.empty()) return;
  for (Clip& clip : clips)
    if (!clip.root_motion) clip.root_motion = RootMotion{root, up};
}

}  // namespace

RetargetSettings RetargetScenes::Settings() const {
  RetargetSettings settings;
  settings.source_axes = source_axes.empty() ? AxesOf(source_format) : ParseAxisFrame(source_axes, "--source-axes");
  settings.target_axes = target_axes.empty() ? AxesOf(target_format) : ParseAxisFrame(target_axes, "--target-axes");
  settings.translation_scale = translation_scale;
  return settings;
}

Scene RetargetScenes::Run() const {
  if (!source || !source_skeleton || !target || !map) throw Error::General("retarget: a source, its skeleton, a target and a map are needed");
  const RetargetSettings settings = Settings();
  std::vector<Clip> chosen;
  if (clips.empty()) chosen = source->clips;
  for (size_t i : clips) chosen.push_back(source->clips.at(i));
  Scene out;
  out.skeleton = target->skeleton;
  out.meshes = target->meshes;
  out.materials = target->materials;
  out.textures = target->textures;
  out.metadata = target->metadata;
  out.source = target->source;
  const RetargetJob job{chosen, source_skeleton, &target->skeleton, map, settings, limits, &out.clips};
  if (!job.Validate())
    throw Error::General("retarget: the bone map does not fit the skeletons (" + std::to_string(map->source_of.size()) +
                         " entries for " + std::to_string(target->skeleton.joints.size()) + " target joints)");
  (void)job.Run();
  SetRootMotion(out.clips, out.skeleton, *map, settings.target_axes.up);
  return out;
}

RetargetTarget DecodeRetargetTarget(const std::string& path, const std::string& format, const Options& options) {
  const LoadedFile loaded = LoadFile(path, format, options);
  RequireOneScene(loaded);
  const DecodedScene decoded = DecodeWithSkeleton(loaded, SkeletonSource::Auto(), options);
  RetargetTarget target;
  target.format = loaded.format;
  target.scene = TargetRig(decoded.scene, decoded.reference_used(), path);
  return target;
}

bool IsPageOutput(const std::string& output, const std::string& output_format) {
  if (!output_format.empty()) return output_format == "html" || output_format == ".html";
  return ExtensionOf(output) == ".html";
}

namespace {

// The report `retarget -v` prints.
Value RetargetReport(const RetargetRequest& request, const RetargetResult& result, const LoadedFile& loaded,
                     const RetargetTarget& target, size_t source_joints, const BoneMap& map, std::string_view out_format) {
  Value r = Value::object();
  r["source"] = request.source;
  r["source_format"] = std::string(loaded.format->id);
  r["target"] = request.target;
  r["target_format"] = std::string(target.format->id);
  r["output"] = request.output;
  r["output_format"] = std::string(out_format);
  r["clips"] = result.clips;
  r["mapped"] = result.mapped;
  r["target_joints"] = target.scene.skeleton.joints.size();
  r["source_joints"] = source_joints;
  r["unmapped"] = Value(result.unmapped);
  r["translation_scale"] = result.translation_scale;
  r["source_skeleton_note"] = result.source_skeleton_note;
  Value matched = Value::object();
  for (BoneMatch m : map.match) {
    const std::string key(ToString(m));
    matched[key] = (matched.contains(key) ? matched[key].get<uint64_t>() : 0) + 1;
  }
  r["matched_by"] = std::move(matched);
  r["warnings"] = Value(result.warnings);
  Value written = Value::array();
  for (const WrittenFile& w : result.written) written.push_back(Value{{"path", w.path}, {"bytes", w.bytes}});
  r["written"] = std::move(written);
  return r;
}

// The output's bytes: the page (request.page), or the encoder's over the target or the template.
struct RetargetOutput {
  Bytes bytes;
  std::vector<ExtraOutput> extra;
  std::vector<std::string> warnings;
  Value report;
};
RetargetOutput EncodeRetarget(const RetargetRequest& request, Scene scene, const FormatDescriptor* out_format,
                              const RetargetTarget& target, const RetargetPageInput& page) {
  RetargetOutput out;
  if (!out_format) {
    const std::string html = request.page(page);
    out.bytes.assign(html.begin(), html.end());
    out.report = Value{{"page_bytes", html.size()}};
    return out;
  }
  EncodeResult encoded;
  if (!request.template_path.empty()) {
    encoded = EncodeOverTemplate(std::move(scene), *out_format, &target.scene, request.options, request.output, request.template_path);
  } else {
    EncodeRequest e{&target.scene, request.options, request.output, nullptr, nullptr, {}, nullptr, nullptr};
    encoded = Encode(std::move(scene), *out_format, e);
  }
  out.bytes = std::move(encoded.bytes);
  out.extra = std::move(encoded.extra_outputs);
  out.warnings = std::move(encoded.warnings);
  out.report = std::move(encoded.report);
  return out;
}

}  // namespace

RetargetResult Retarget(const RetargetRequest& request) {
  RetargetResult result;
  const std::vector<std::string> inputs = {request.source, request.skeleton.path(), request.target, request.template_path,
                                           request.map == kBoneMapAuto ? std::string() : request.map};
  CheckNotAnInput(request.output, inputs);
  if (!request.map_out.empty()) CheckNotAnInput(request.map_out, inputs);
  const bool page = IsPageOutput(request.output, request.output_format);
  if (page && !request.page) throw Error::General(request.output + ": a preview page is built by the preview layer (RetargetPreviewPage)");
  if (page && !request.template_path.empty()) throw Error::General(request.output + ": a page has no --template");
  const FormatDescriptor* out_format = page ? nullptr : OutputFormatFor(request.output, request.output_format);
  if (!page && !out_format) throw Error::General(request.output + ": no format writes this extension; give --out-format");
  if (out_format) RequireEncoder(*out_format, request.output);

  const LoadedFile loaded = request.source_bytes.empty() ? LoadFile(request.source, request.source_format, request.options)
                                                         : LoadBytes(request.source_bytes, request.source, request.source_format, request.options);
  RequireOneScene(loaded);
  for (const std::string& w : ReadWarnings(loaded)) result.warnings.push_back(request.source + ": " + w);
  const Options decode_options = out_format ? DecodeOptionsFor(out_format, request.options) : request.options;
  DecodedScene decoded = DecodeWithSkeleton(loaded, request.skeleton, decode_options);
  if (request.skip_without_clips && decoded.scene.clips.empty()) {
    result.skipped = "no clips to retarget (" + std::string(loaded.format->id) + ")";
    return result;
  }
  const RetargetTarget own_target = request.decoded_target ? RetargetTarget{} : DecodeRetargetTarget(request.target, request.target_format, request.options);
  const RetargetTarget& target = request.decoded_target ? *request.decoded_target : own_target;

  const SourceSkeleton source_skeleton = SourceSkeletonFor(decoded.scene, decoded.reference_used(), target.scene);
  result.source_skeleton_note = source_skeleton.note;
  std::shared_ptr<Scene> source_rig;
  if (std::optional<DecodedScene> again = DecodeSourceAgainst(loaded, source_skeleton, request.target, decode_options, source_rig))
    decoded = std::move(*again);
  if (!decoded.warning.empty()) result.warnings.push_back(request.source + ": " + decoded.warning);
  const BoneMap map = BoneMapFor(request.map, target.scene.skeleton, source_skeleton.skeleton);
  RetargetScenes job{&decoded.scene, &source_skeleton.skeleton, loaded.format, &target.scene, target.format, &map,
                     SelectClips(decoded.scene, request.clips, request.source), request.source_axes, request.target_axes,
                     request.translation_scale, request.options.limits()};
  if (!request.clips.empty() && job.clips.empty()) throw Error::General(request.source + ": no clip matches --clip");
  Scene scene = job.Run();
  result.clips = scene.clips.size();
  result.mapped = map.Mapped();
  result.unmapped = map.Unmapped(target.scene.skeleton);
  const RetargetSettings settings = job.Settings();
  result.translation_scale = request.translation_scale.value_or(RootHeightRatio(source_skeleton.skeleton, target.scene.skeleton, map, settings));

  Value fidelity;
  if (request.measure) {
    fidelity = Value::array();
    const std::vector<size_t> chosen = job.clips.empty() ? SelectClips(decoded.scene, {}, request.source) : job.clips;
    for (size_t i = 0; i < chosen.size() && i < scene.clips.size(); ++i) {
      const RetargetFidelity f = MeasureRetarget(decoded.scene.clips[chosen[i]], source_skeleton.skeleton, scene.clips[i],
                                                 target.scene.skeleton, map, settings, request.options.limits());
      fidelity.push_back(Value{{"clip", scene.clips[i].name}, {"rotation_from_rest", f.rotation_from_rest},
                               {"worst_joint", f.worst_joint}, {"feet", Value(f.feet)}, {"planted_frames", f.planted_frames},
                               {"foot_slide_max", f.foot_slide_max}, {"foot_slide_mean", f.foot_slide_mean},
                               {"source_slide_max", f.source_slide_max}, {"source_slide_mean", f.source_slide_mean}});
    }
  }
  if (page && !job.clips.empty()) {  // the page's source shows the clips retargeted, in their order
    std::vector<Clip> chosen;
    for (size_t i : job.clips) chosen.push_back(std::move(decoded.scene.clips[i]));
    decoded.scene.clips = std::move(chosen);
  }
  const RetargetPageInput page_input{&loaded, &decoded, &scene, request.target, target.format, request.options};
  RetargetOutput encoded = EncodeRetarget(request, page ? scene : std::move(scene), out_format, target, page_input);
  result.warnings.insert(result.warnings.end(), encoded.warnings.begin(), encoded.warnings.end());
  const std::string map_text =
      request.map_out.empty() ? std::string()
                              : BoneMapText(map, target.scene.skeleton, source_skeleton.skeleton, ExtensionOf(request.map_out) == ".csv");
  std::vector<std::pair<std::string, ByteView>> files = {{request.output, encoded.bytes}};
  if (!request.map_out.empty())
    files.emplace_back(request.map_out, ByteView(reinterpret_cast<const uint8_t*>(map_text.data()), map_text.size()));
  for (const ExtraOutput& x : encoded.extra) files.emplace_back(x.path, x.bytes);
  result.written = WriteOutputs(files, inputs, request.run_tag);

  result.report = RetargetReport(request, result, loaded, target, source_skeleton.skeleton.joints.size(), map,
                                 out_format ? std::string_view(out_format->id) : std::string_view("html"));
  result.report["encoder"] = std::move(encoded.report);
  if (request.measure) result.report["fidelity"] = std::move(fidelity);
  return result;
}

}  // namespace animkit
