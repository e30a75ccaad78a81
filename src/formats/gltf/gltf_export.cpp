// Scene -> glTF 2.0 through tinygltf's Model and writer.
#include <animkit/core/error.hpp>
#include <animkit/core/format.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/core/math.hpp>
#include <animkit/offline/model_pose.hpp>
#include <animkit/offline/sampling.hpp>
#include <animkit/core/version.hpp>
#include <animkit/io/path.hpp>

#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace animkit {
namespace {

using nlohmann::json;

struct ExportJoint {
  std::string name;
  int parent = -1;
  TransformTRS rest;
};

// Skeleton joints, then every track name the skeleton lacks (first appearance order).
std::vector<ExportJoint> CollectJoints(const Scene& scene) {
  std::vector<ExportJoint> joints;
  std::unordered_map<std::string, int> index;
  const int count = static_cast<int>(scene.skeleton.joints.size());
  for (const Joint& j : scene.skeleton.joints) {
    index.emplace(j.name, static_cast<int>(joints.size()));
    joints.push_back({j.name, (j.parent >= 0 && j.parent < count) ? j.parent : -1, j.rest});
  }
  for (const Clip& clip : scene.clips)
    for (const JointTrack& track : clip.tracks)
      if (index.emplace(track.joint, static_cast<int>(joints.size())).second) joints.push_back({track.joint, -1, {}});
  // A parent chain that loops back is cut at the joint that closes it.
  const size_t n = joints.size();
  for (size_t i = 0; i < n; ++i) {
    int p = joints[i].parent;
    for (size_t steps = 0; p >= 0; ++steps) {
      if (p == static_cast<int>(i) || steps > n) {
        joints[i].parent = -1;
        break;
      }
      p = joints[p].parent;
    }
  }
  return joints;
}

bool Finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool Finite(QuatXYZW q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

// glTF wants unit rotations; values already unit within float error are kept bit-exact.
QuatXYZW UnitRotation(QuatXYZW q) {
  float len2 = Dot(q, q);
  return std::abs(len2 - 1.0f) > 1e-5f ? Normalize(q) : q;
}

void Append(std::vector<float>& out, Vec3 v) { out.insert(out.end(), {v.x, v.y, v.z}); }
void Append(std::vector<float>& out, QuatXYZW q) { out.insert(out.end(), {q.x, q.y, q.z, q.w}); }
constexpr int Components(Vec3*) { return 3; }
constexpr int Components(QuatXYZW*) { return 4; }

// Keys ready for glTF: finite, times >= 0 and strictly increasing.
template <class T>
struct Keys {
  Interpolation interpolation = Interpolation::Linear;
  std::vector<float> times;
  std::vector<T> values, in, out;
};

template <class T>
Keys<T> PrepareKeys(const Track<T>& track, const std::string& where) {
  Keys<T> keys;
  size_t n = std::min(track.times.size(), track.values.size());
  bool hermite = track.interpolation == Interpolation::Hermite;
  // Hermite keys without a full set of tangents fall back to linear.
  if (hermite && (track.in_tangents.size() < n || track.out_tangents.size() < n)) hermite = false;
  keys.interpolation = hermite ? Interpolation::Hermite
                               : (track.interpolation == Interpolation::Step ? Interpolation::Step : Interpolation::Linear);
  for (size_t i = 0; i < n; ++i) {
    float t = track.times[i];
    if (!std::isfinite(t)) continue;
    t = std::max(t, 0.0f);
    T value = track.values[i];
    T in = hermite ? track.in_tangents[i] : T{};
    T out = hermite ? track.out_tangents[i] : T{};
    if (!Finite(value) || !Finite(in) || !Finite(out))
      throw Error::General(where + " key " + std::to_string(i) + " is not a finite number");
    if constexpr (std::is_same_v<T, QuatXYZW>) value = UnitRotation(value);
    if (!keys.times.empty() && t <= keys.times.back()) {
      if (t < keys.times.back()) continue;  // out of order: dropped
      // Same time twice: the later key wins.
      keys.values.back() = value;
      if (hermite) keys.in.back() = in, keys.out.back() = out;
      continue;
    }
    keys.times.push_back(t);
    keys.values.push_back(value);
    if (hermite) keys.in.push_back(in), keys.out.push_back(out);
  }
  // One key is a constant: LINEAR and CUBICSPLINE need two.
  if (keys.times.size() == 1) keys.interpolation = Interpolation::Step, keys.in.clear(), keys.out.clear();
  return keys;
}

// Float noise: two values this close are one value (a component's last bits).
bool Near(Vec3 a, Vec3 b) {
  const float scale = 1 + std::max({std::abs(a.x), std::abs(a.y), std::abs(a.z)});
  return std::abs(a.x - b.x) <= 1e-7f * scale && std::abs(a.y - b.y) <= 1e-7f * scale && std::abs(a.z - b.z) <= 1e-7f * scale;
}
bool Near(QuatXYZW a, QuatXYZW b) {
  if (Dot(a, b) < 0) b = {-b.x, -b.y, -b.z, -b.w};
  return std::abs(a.x - b.x) <= 2e-7f && std::abs(a.y - b.y) <= 2e-7f && std::abs(a.z - b.z) <= 2e-7f &&
         std::abs(a.w - b.w) <= 2e-7f;
}
bool Near(Vec3 a) { return Near(a, Vec3{}); }
bool Near(QuatXYZW a) { return Near(Vec3{a.x, a.y, a.z}) && std::abs(a.w) <= 1e-7f; }

// A property that never moves is one key, or none when it is the joint's rest (glTF keeps
// the node's own transform): what glTF and Blender get are the keys that move.
template <class T>
Keys<T> WithoutStillKeys(Keys<T> keys, const T& rest) {
  if (keys.times.empty()) return keys;
  for (size_t i = 0; i < keys.values.size(); ++i) {
    if (!Near(keys.values[i], keys.values[0])) return keys;
    if (keys.interpolation == Interpolation::Hermite && !(Near(keys.in[i]) && Near(keys.out[i]))) return keys;
  }
  if (Near(keys.values[0], rest)) return {};
  keys.times.erase(keys.times.begin() + 1, keys.times.end());
  keys.values.erase(keys.values.begin() + 1, keys.values.end());
  keys.in.clear(), keys.out.clear();
  keys.interpolation = Interpolation::Step;
  return keys;
}

const char* InterpolationName(Interpolation i) {
  switch (i) {
    case Interpolation::Step: return "STEP";
    case Interpolation::Hermite: return "CUBICSPLINE";
    default: return "LINEAR";
  }
}

// Accumulates float data in three buffer views (animation inputs, animation
// outputs, inverse bind matrices) of one buffer.
class ModelBuilder {
 public:
  enum View { kInputs, kOutputs, kMatrices, kViewCount };

  explicit ModelBuilder(tinygltf::Model& model) : model_(model) {}

  int AddAccessor(View view, const std::vector<float>& data, int type, int components, bool min_max) {
    tinygltf::Accessor accessor = gltf::FloatAccessor(data, type, components, min_max);
    accessor.bufferView = view;  // remapped in Finish
    accessor.byteOffset = data_[view].size() * sizeof(float);
    data_[view].insert(data_[view].end(), data.begin(), data.end());
    model_.accessors.push_back(std::move(accessor));
    return static_cast<int>(model_.accessors.size() - 1);
  }

  // Shares one input accessor between samplers with identical key times.
  int AddTimes(const std::vector<float>& times) {
    auto [it, inserted] = times_.try_emplace(times, -1);
    if (inserted) it->second = AddAccessor(kInputs, times, TINYGLTF_TYPE_SCALAR, 1, true);
    return it->second;
  }

  void Finish() {
    tinygltf::Buffer buffer;
    int remap[kViewCount];
    for (int v = 0; v < kViewCount; ++v) {
      remap[v] = -1;
      if (data_[v].empty()) continue;
      tinygltf::BufferView view;
      view.buffer = 0;
      view.byteOffset = buffer.data.size();
      view.byteLength = data_[v].size() * sizeof(float);
      buffer.data.resize(view.byteOffset + view.byteLength);
      std::memcpy(buffer.data.data() + view.byteOffset, data_[v].data(), view.byteLength);
      remap[v] = static_cast<int>(model_.bufferViews.size());
      model_.bufferViews.push_back(std::move(view));
    }
    for (tinygltf::Accessor& accessor : model_.accessors) accessor.bufferView = remap[accessor.bufferView];
    if (!buffer.data.empty()) model_.buffers.push_back(std::move(buffer));
  }

 private:
  tinygltf::Model& model_;
  std::vector<float> data_[kViewCount];
  std::map<std::vector<float>, int> times_;
};

class Exporter {
 public:
  // per_axis: per clip, whether the clip it came from followed the per-axis scale rule;
  // before: the scene as given, when scene is its conversion to glTF's rule (a property the
  // conversion rewrote frame by frame is written as it is: the reader's conversion back
  // expects every key).
  Exporter(const Scene& scene, std::vector<bool> per_axis, const Scene* before, const Limits& limits)
      : scene_(scene), per_axis_(std::move(per_axis)), before_(before), limits_(limits), builder_(model_) {}

  tinygltf::Model Run() {
    model_.asset.version = "2.0";
    model_.asset.generator = std::string("animkit ") + kVersion;
    joints_ = CollectJoints(scene_);
    for (size_t i = 0; i < joints_.size(); ++i) joint_index_.emplace(joints_[i].name, static_cast<int>(i));
    AddNodes();
    AddSkin();
    for (size_t c = 0; c < scene_.clips.size(); ++c) {
      (void)SampleFrameCount(scene_.clips[c], 0, limits_);  // the frames sampling would write, within the limits
      AddAnimation(scene_.clips[c], per_axis_[c], before_ ? &before_->clips[c] : nullptr);
    }
    builder_.Finish();
    const json missing_images = gltf::AddMeshesAndCameras(model_, scene_, RootNode());
    AddSceneExtras(missing_images);
    return std::move(model_);
  }

 private:
  int RootNode() const { return static_cast<int>(joints_.size()); }

  void AddNodes() {
    // Nothing to show: no nodes and no scene (an empty root node would only draw a validator note).
    if (joints_.empty() && scene_.clips.empty()) return;
    for (const ExportJoint& joint : joints_) {
      tinygltf::Node node;
      node.name = joint.name;
      SetTransform(node, joint.rest, joint.name);
      model_.nodes.push_back(std::move(node));
    }
    tinygltf::Node root;
    root.name = std::string(gltf::kRootNodeName);
    root.rotation = gltf::UpTurn(scene_);
    for (size_t i = 0; i < joints_.size(); ++i) {
      int parent = joints_[i].parent;
      (parent < 0 ? root : model_.nodes[parent]).children.push_back(static_cast<int>(i));
    }
    model_.nodes.push_back(std::move(root));
    tinygltf::Scene scene;
    scene.nodes.push_back(RootNode());
    model_.scenes.push_back(std::move(scene));
    model_.defaultScene = 0;
  }

  static void SetTransform(tinygltf::Node& node, const TransformTRS& rest, const std::string& name) {
    const TransformTRS identity;
    if (!Finite(rest.translation) || !Finite(rest.rotation) || !Finite(rest.scale))
      throw Error::General("joint '" + name + "' has a rest pose that is not finite");
    Vec3 t = rest.translation, s = rest.scale;
    QuatXYZW r = UnitRotation(rest.rotation);
    if (!(t == identity.translation)) node.translation = {t.x, t.y, t.z};
    if (!(r == identity.rotation)) node.rotation = {r.x, r.y, r.z, r.w};
    if (!(s == identity.scale)) node.scale = {s.x, s.y, s.z};
  }

  // Model-space rest matrices, parents first whatever the joint order.
  std::vector<Mat4> RestModelMatrices() const {
    const size_t n = joints_.size();
    std::vector<Mat4> model(n);
    std::vector<bool> done(n, false);
    std::vector<int> chain;
    for (size_t i = 0; i < n; ++i) {
      chain.clear();
      for (int j = static_cast<int>(i); j >= 0 && !done[j]; j = joints_[j].parent) chain.push_back(j);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        int j = *it, p = joints_[j].parent;
        Mat4 local = MatrixFromTRS(joints_[j].rest);
        model[j] = p >= 0 ? Multiply(model[p], local) : local;
        done[j] = true;
      }
    }
    return model;
  }

  void AddSkin() {
    if (joints_.empty()) return;
    std::vector<Mat4> rest = RestModelMatrices();
    std::vector<float> matrices;
    matrices.reserve(joints_.size() * 16);
    for (const Mat4& m : rest) {
      Mat4 inverse = InverseAffine(m);
      bool finite = true;
      for (auto& column : inverse.m)
        for (float v : column) finite = finite && std::isfinite(v);
      if (!finite) inverse = Mat4{};  // a joint scaled to zero has no inverse
      // Exact affine last row, as the validator checks it.
      for (int c = 0; c < 3; ++c) inverse.m[c][3] = 0;
      inverse.m[3][3] = 1;
      for (auto& column : inverse.m) matrices.insert(matrices.end(), column.begin(), column.end());
    }
    tinygltf::Skin skin;
    skin.name = "animkit_skeleton";
    for (size_t i = 0; i < joints_.size(); ++i) skin.joints.push_back(static_cast<int>(i));
    skin.skeleton = RootNode();
    skin.inverseBindMatrices = builder_.AddAccessor(ModelBuilder::kMatrices, matrices, TINYGLTF_TYPE_MAT4, 16, false);
    model_.skins.push_back(std::move(skin));
  }

  template <class T>
  void AddChannel(tinygltf::Animation& animation, int node, const char* path, const Keys<T>& keys) {
    if (keys.times.empty()) return;
    constexpr int components = Components(static_cast<T*>(nullptr));
    std::vector<float> output;
    output.reserve(keys.values.size() * components * 3);
    for (size_t i = 0; i < keys.values.size(); ++i) {
      if (keys.interpolation == Interpolation::Hermite) Append(output, keys.in[i]);
      Append(output, keys.values[i]);
      if (keys.interpolation == Interpolation::Hermite) Append(output, keys.out[i]);
    }
    const int input = builder_.AddTimes(keys.times);
    const int values = builder_.AddAccessor(ModelBuilder::kOutputs, output,
                                            components == 3 ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4, components, false);
    gltf::AddSampledChannel(animation, input, values, InterpolationName(keys.interpolation), node, path);
  }

  static double ClipRate(const Clip& clip) {
    return std::isfinite(clip.frame_rate) && clip.frame_rate > 0 ? clip.frame_rate : 30.0;
  }

  // A joint hidden in some frames: a STEP scale channel, 0 while hidden and the
  // joint's scale otherwise. Returns the extras entry describing it.
  json AddVisibility(tinygltf::Animation& animation, const Clip& clip, const JointTrack& track, int node,
                     const std::string& where) {
    const size_t frames = track.visible.size();
    const double rate = ClipRate(clip);
    const bool sampled = !track.scale.empty();
    Keys<Vec3> keys;
    keys.interpolation = Interpolation::Step;
    Vec3 rest_scale = joints_[node].rest.scale;
    auto visible_scale = [&](size_t frame) {
      Vec3 s = sampled ? SampleTrack(track.scale, FrameTime(frame, rate)) : rest_scale;
      if (!Finite(s)) throw Error::General(where + " scale is not a finite number");
      return s;
    };
    auto add_key = [&](size_t frame) {
      float t = FrameTime(frame, rate);
      if (!keys.times.empty() && t <= keys.times.back()) return;
      keys.times.push_back(t);
      keys.values.push_back(IsVisible(track, frame) ? visible_scale(frame) : Vec3{0, 0, 0});
    };
    if (sampled) {
      // An animated scale is keyed at every frame of the clip (within max-frames).
      const size_t end = std::max(frames, clip.frame_count);
      CheckLimit(end, &Limits::max_frames, limits_, where + " frames to key");
      for (size_t f = 0; f < end; ++f) add_key(f);
    } else {
      // A constant scale is keyed only where visibility changes.
      for (size_t f = 0; f < frames; ++f)
        if (f == 0 || track.visible[f] != track.visible[f - 1]) add_key(f);
      if (!track.visible[frames - 1]) add_key(frames);
    }
    AddChannel(animation, node, "scale", keys);
    json hidden = json::array();
    for (size_t f = 0; f < frames; ++f) {
      if (track.visible[f]) continue;
      if (!hidden.empty() && hidden.back()[1].get<size_t>() + 1 == f) hidden.back()[1] = f;
      else hidden.push_back({f, f});
    }
    return {{"joint", track.joint}, {"frames", frames}, {"hidden", hidden}, {"scale", sampled ? "sampled" : "rest"}};
  }

  static bool HasHiddenFrame(const JointTrack& track) {
    return std::find(track.visible.begin(), track.visible.end(), false) != track.visible.end();
  }

  template <class T>
  static bool Rewritten(const Track<T>& converted, const JointTrack* original, Track<T> JointTrack::*property) {
    if (!original) return !converted.empty();
    const Track<T>& was = original->*property;
    return converted.times != was.times || converted.values != was.values;
  }

  void AddAnimation(const Clip& clip, bool per_axis, const Clip* before) {
    tinygltf::Animation animation;
    animation.name = clip.name;
    json visibility = json::array();
    std::vector<bool> seen(joints_.size(), false);
    json track_order = json::array();
    json at_rest = json::object();  // per joint, the properties left out as their rest ("t", "r", "s")
    bool still_track = false;
    for (const JointTrack& track : clip.tracks) {
      int node = joint_index_.at(track.joint);
      if (seen[node]) continue;  // a second track for the same joint has nowhere to go
      seen[node] = true;
      track_order.push_back(track.joint);
      const size_t channels_before = animation.channels.size();
      std::string where = "clip '" + clip.name + "' joint '" + track.joint + "'";
      const TransformTRS& rest = joints_[node].rest;
      std::string left_out;
      const JointTrack* original = before ? before->FindTrack(track.joint) : nullptr;
      auto add = [&](const char* path, const auto& property, const auto& rest_value, char letter) {
        const auto keys = PrepareKeys(property, where + " " + path);
        bool resampled = false;
        if (before) {
          if constexpr (std::is_same_v<std::decay_t<decltype(property)>, Track<QuatXYZW>>)
            resampled = Rewritten(property, original, &JointTrack::rotation);
          else
            resampled = Rewritten(property, original, letter == 't' ? &JointTrack::translation : &JointTrack::scale);
        }
        const auto kept = resampled ? keys : WithoutStillKeys(keys, rest_value);
        if (!keys.times.empty() && kept.times.empty()) left_out += letter;
        AddChannel(animation, node, path, kept);
      };
      add("translation", track.translation, rest.translation, 't');
      add("rotation", track.rotation, UnitRotation(rest.rotation), 'r');
      if (HasHiddenFrame(track))
        visibility.push_back(AddVisibility(animation, clip, track, node, where));
      else
        add("scale", track.scale, rest.scale, 's');
      if (!left_out.empty()) at_rest[track.joint] = left_out;
      still_track = still_track || animation.channels.size() == channels_before;
    }
    // glTF needs at least one channel; a clip without keys keeps its events and
    // timing through a constant channel on the root node, marked as a placeholder.
    bool placeholder = animation.channels.empty();
    if (placeholder) {
      Keys<Vec3> keys;
      keys.interpolation = Interpolation::Step;
      keys.times = {0.0f};
      keys.values = {Vec3{}};
      AddChannel(animation, RootNode(), "translation", keys);
    }
    json extras = ClipExtras(clip);
    if (per_axis) extras["scale_inheritance"] = "per_axis";  // the reader converts back
    if (!visibility.empty()) extras["visibility"] = std::move(visibility);
    if (placeholder) extras["placeholder"] = true;
    // A track left at its rest has no channel; the clip's tracks in order, so that a reader
    // gives encoders the same joints (a CANM's bone list, KH2's joints) in the same order.
    if (still_track) extras["tracks"] = std::move(track_order);
    if (!at_rest.empty()) extras["at_rest"] = std::move(at_rest);
    animation.extras = gltf::ToValue(json{{gltf::kExtrasKey, extras}});
    model_.animations.push_back(std::move(animation));
  }

  static json Number(double v) { return std::isfinite(v) ? json(v) : json(0.0); }

  static json ClipExtras(const Clip& clip) {
    json extras = {
        {"frame_rate", Number(clip.frame_rate)},
        {"frame_count", clip.frame_count <= (size_t{1} << 53) ? json(clip.frame_count) : json(double(clip.frame_count))},
        {"duration", Number(clip.duration)},
        {"loop", clip.loop},
        {"space", clip.space == Space::Model ? "model" : "local"},
    };
    json events = json::array();
    for (const Event& e : clip.events) {
      json event = {{"time", Number(e.time)}, {"name", e.name}};
      if (!e.params.empty()) {
        json params = json::array();
        for (double p : e.params) params.push_back(Number(p));
        event["params"] = std::move(params);
      }
      if (e.end_time) event["end_time"] = Number(*e.end_time);
      events.push_back(std::move(event));
    }
    if (!events.empty()) extras["events"] = std::move(events);
    // docs/conventions.md: what the importer reads back into Clip::additive and Clip::root_motion.
    if (const std::optional<Additive>& a = clip.additive) {
      json additive = {{"reference", a->reference.empty() ? "rest" : "clip"}, {"rotation_only", a->rotation_only},
                       {"fade_in", Number(a->fade_in)}, {"fade_out", Number(a->fade_out)}};
      if (!a->reference.empty()) additive["clip"] = a->reference;
      extras["additive"] = std::move(additive);
    }
    if (const std::optional<RootMotion>& r = clip.root_motion)
      extras["root_motion"] = {{"joint", r->joint}, {"up", {Number(r->up.x), Number(r->up.y), Number(r->up.z)}}};
    AddMetadata(extras, clip.metadata);
    return extras;
  }

  // Metadata tinygltf can carry as JSON goes in as is; anything else (nulls,
  // empty arrays, huge integers) as a JSON string under metadata_json.
  static void AddMetadata(json& extras, const Value& value) {
    if (value.is_null() || (value.is_object() && value.empty())) return;
    const json metadata = ToNlohmann(value);
    if (gltf::IsValueRepresentable(metadata)) extras["metadata"] = metadata;
    else extras["metadata_json"] = DumpJson(value);
  }

  void AddSceneExtras(const json& missing_images) {
    json extras = {{"version", 1}};
    // Images without pixels have no glTF image: their names and reasons, at their indices.
    if (!missing_images.is_null()) extras["missing_images"] = missing_images;
    // Joints made from track names are not a skeleton the scene had.
    if (scene_.skeleton.empty()) extras["skeleton"] = false;
    // The skeleton the scene was decoded against (the pipeline's): said, never read back.
    if (!scene_.source.skeleton_use.empty()) {
      extras["skeleton_use"] = scene_.source.skeleton_use;
      const std::string name = TextOf(PathOf(scene_.source.skeleton_file).filename());
      if (!name.empty()) extras["skeleton_file"] = name;  // none: no key
    }
    AddMetadata(extras, scene_.metadata);
    model_.asset.extras = gltf::ToValue(json{{gltf::kExtrasKey, extras}});
  }

  const Scene& scene_;
  std::vector<bool> per_axis_;
  const Scene* before_;
  Limits limits_;
  tinygltf::Model model_;
  ModelBuilder builder_;
  std::vector<ExportJoint> joints_;
  std::unordered_map<std::string, int> joint_index_;
};

}  // namespace

Bytes ExportGltf(const Scene& scene, const GltfExportOptions& options) {
  // glTF composes matrices: a per-axis clip is written as its closest matrix-rule locals.
  std::vector<bool> per_axis;
  for (const Clip& clip : scene.clips) per_axis.push_back(clip.scale_inheritance == ScaleInheritance::PerAxis);
  std::optional<Scene> matrix_rule;
  if (std::find(per_axis.begin(), per_axis.end(), true) != per_axis.end()) {
    matrix_rule = scene;
    ConvertScaleInheritance(*matrix_rule, ScaleInheritance::Matrix, options.limits);
  }
  tinygltf::Model model =
      Exporter(matrix_rule ? *matrix_rule : scene, std::move(per_axis), matrix_rule ? &scene : nullptr, options.limits).Run();
  gltf::MakeNamesValidUtf8(model);
  tinygltf::TinyGLTF writer;
  std::ostringstream out;
  if (!writer.WriteGltfSceneToStream(&model, out, /*prettyPrint=*/!options.binary, options.binary))
    throw Error::General("tinygltf could not write the glTF");
  std::string text = std::move(out).str();
  return Bytes(text.begin(), text.end());
}

}  // namespace animkit
