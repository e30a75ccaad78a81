// glTF 2.0 -> Scene. tinygltf parses the JSON; every index, offset and count it
// leaves unchecked is checked here before any data is read.
#include <animkit/core/error.hpp>
#include <animkit/formats/gltf.hpp>
#include <animkit/core/math.hpp>
#include <animkit/offline/model_pose.hpp>

#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace animkit {
namespace {

using gltf::AccessorReader;
using gltf::ElementName;
using nlohmann::json;


json ParseExtras(const std::string& text) {
  if (text.empty()) return json::object();
  json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return json::object();
  auto it = parsed.find(gltf::kExtrasKey);
  return it != parsed.end() && it->is_object() ? *it : json::object();
}

bool GetBool(const json& object, const char* key, bool fallback) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::string GetString(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool GetNumber(const json& object, const char* key, double* out) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return false;
  double v = it->get<double>();
  if (!std::isfinite(v)) return false;
  *out = v;
  return true;
}

// animkit extras keep metadata as JSON, or as a JSON string when tinygltf could
// not carry it (see the exporter).
json GetMetadata(const json& extras) {
  if (auto it = extras.find("metadata"); it != extras.end()) return *it;
  if (auto it = extras.find("metadata_json"); it != extras.end() && it->is_string()) {
    json parsed = json::parse(it->get<std::string>(), nullptr, false);
    if (!parsed.is_discarded()) return parsed;
  }
  return json::object();
}

std::vector<double> Doubles(const std::vector<double>& v, size_t expected, const std::string& what) {
  if (!v.empty() && v.size() != expected) gltf::Fail(what + " must have " + std::to_string(expected) + " numbers");
  for (double d : v)
    if (!std::isfinite(d)) gltf::Fail(what + " is not finite");
  return v;
}

}  // namespace

TransformTRS gltf::NodeTransform(const tinygltf::Node& node, int index) {
  const std::string name = ElementName("node", index);
  TransformTRS trs;
  if (!node.matrix.empty()) {
    std::vector<double> m = Doubles(node.matrix, 16, name + " matrix");
    Mat4 matrix;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) matrix.m[c][r] = static_cast<float>(m[c * 4 + r]);
    return DecomposeTRS(matrix);
  }
  if (auto t = Doubles(node.translation, 3, name + " translation"); !t.empty())
    trs.translation = {float(t[0]), float(t[1]), float(t[2])};
  if (auto r = Doubles(node.rotation, 4, name + " rotation"); !r.empty())
    trs.rotation = {float(r[0]), float(r[1]), float(r[2]), float(r[3])};
  if (auto s = Doubles(node.scale, 3, name + " scale"); !s.empty()) trs.scale = {float(s[0]), float(s[1]), float(s[2])};
  return trs;
}

namespace {

std::string NodeName(const tinygltf::Model& model, int index) {
  const std::string& name = model.nodes[index].name;
  return name.empty() ? "node_" + std::to_string(index) : name;
}

// Parent of every node (-1 for roots); a child listed twice or a cycle is an error.
std::vector<int> NodeParents(const tinygltf::Model& model) {
  const size_t n = model.nodes.size();
  std::vector<int> parent(n, -1);
  for (size_t i = 0; i < n; ++i)
    for (int child : model.nodes[i].children) {
      if (child < 0 || static_cast<size_t>(child) >= n)
        gltf::Fail(ElementName("node", int(i)) + " lists child " + std::to_string(child) + ", which does not exist");
      if (parent[child] != -1 || static_cast<size_t>(child) == i)
        gltf::Fail(ElementName("node", child) + " has more than one parent");
      parent[child] = static_cast<int>(i);
    }
  for (size_t i = 0; i < n; ++i) {
    size_t steps = 0;
    for (int p = parent[i]; p >= 0; p = parent[p])
      if (++steps > n) gltf::Fail("the node hierarchy has a cycle through " + ElementName("node", int(i)));
  }
  return parent;
}

// node_joint: per node, its joint in the skeleton returned (-1: none).
Skeleton ImportSkeleton(const tinygltf::Model& model, const std::vector<int>& parents, bool ours,
                        std::vector<int>& node_joint) {
  const int n = static_cast<int>(model.nodes.size());
  std::vector<int> nodes;
  std::vector<int> position(n, -1);
  if (!model.skins.empty()) {
    for (int node : model.skins[0].joints) {
      if (node < 0 || node >= n) gltf::Fail("skin 0 lists joint node " + std::to_string(node) + ", which does not exist");
      if (position[node] >= 0) continue;  // listed twice
      position[node] = static_cast<int>(nodes.size());
      nodes.push_back(node);
    }
  } else {
    for (int i = 0; i < n; ++i) {
      // animkit's own root node is not a joint, nor is a camera (Clip::cameras).
      if (ours && parents[i] < 0 && model.nodes[i].name == gltf::kRootNodeName) continue;
      if (ours && model.nodes[i].camera >= 0) continue;
      if (ours && model.nodes[i].mesh >= 0 && model.nodes[i].skin >= 0) continue;  // a skinned mesh's node
      position[i] = static_cast<int>(nodes.size());
      nodes.push_back(i);
    }
  }
  // Parent: the nearest ancestor that is a joint too.
  std::vector<int> joint_parent(nodes.size(), -1), depth(nodes.size(), 0);
  bool ordered = true;
  for (size_t j = 0; j < nodes.size(); ++j) {
    int p = parents[nodes[j]];
    while (p >= 0 && position[p] < 0) p = parents[p];
    joint_parent[j] = p >= 0 ? position[p] : -1;
    if (joint_parent[j] >= static_cast<int>(j)) ordered = false;
  }
  std::vector<size_t> order(nodes.size());
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  if (!ordered) {
    // Parents first: stable sort by depth keeps the file's order otherwise.
    for (size_t j = 0; j < nodes.size(); ++j)
      for (int p = joint_parent[j]; p >= 0; p = joint_parent[p]) ++depth[j];
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return depth[a] < depth[b]; });
  }
  std::vector<int> new_index(nodes.size());
  for (size_t k = 0; k < order.size(); ++k) new_index[order[k]] = static_cast<int>(k);
  node_joint.assign(model.nodes.size(), -1);
  for (size_t j = 0; j < nodes.size(); ++j) node_joint[size_t(nodes[j])] = new_index[j];
  Skeleton skeleton;
  for (size_t j : order) {
    int node = nodes[j];
    skeleton.joints.push_back(
        {NodeName(model, node), joint_parent[j] >= 0 ? new_index[joint_parent[j]] : -1, gltf::NodeTransform(model.nodes[node], node)});
  }
  return skeleton;
}

template <class T>
T MakeValue(const float* p);
template <>
Vec3 MakeValue<Vec3>(const float* p) { return {p[0], p[1], p[2]}; }
template <>
QuatXYZW MakeValue<QuatXYZW>(const float* p) { return {p[0], p[1], p[2], p[3]}; }

template <class T>
void FillTrack(Track<T>& track, Interpolation interpolation, std::vector<float> times, const std::vector<float>& output) {
  constexpr size_t kComponents = std::is_same_v<T, Vec3> ? 3 : 4;
  track.interpolation = interpolation;
  const size_t n = times.size();
  for (size_t i = 0; i < n; ++i) {
    if (interpolation == Interpolation::Hermite) {
      track.in_tangents.push_back(MakeValue<T>(&output[(3 * i) * kComponents]));
      track.values.push_back(MakeValue<T>(&output[(3 * i + 1) * kComponents]));
      track.out_tangents.push_back(MakeValue<T>(&output[(3 * i + 2) * kComponents]));
    } else {
      track.values.push_back(MakeValue<T>(&output[i * kComponents]));
    }
  }
  track.times = std::move(times);
}

// The rate key times are evenly spaced at (each a whole frame from 0), else 30.
double DetectFrameRate(std::vector<float> times) {
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.size() < 2) return 30;
  double step = std::numeric_limits<double>::infinity();
  for (size_t i = 1; i < times.size(); ++i) step = std::min(step, double(times[i]) - double(times[i - 1]));
  double rate = 1.0 / step;
  if (!std::isfinite(rate) || rate > 10000) return 30;
  double whole = std::round(rate);
  if (std::abs(rate - whole) < 1e-3 * rate) rate = whole;
  for (float t : times) {
    double frame = t * rate;
    if (std::abs(frame - std::round(frame)) > 1e-3) return 30;
  }
  return rate;
}

Interpolation ParseInterpolation(const std::string& name, const std::string& where) {
  if (name == "LINEAR" || name.empty()) return Interpolation::Linear;
  if (name == "STEP") return Interpolation::Step;
  if (name == "CUBICSPLINE") return Interpolation::Hermite;
  gltf::Fail(where + " has unknown interpolation '" + name.substr(0, 40) + "'");
}

class Importer {
 public:
  Importer(const tinygltf::Model& model, size_t file_size, const Limits& limits)
      : model_(model), limits_(limits), reader_(model, file_size) {}

  Scene Run() {
    Scene scene;
    json asset_extras = ParseExtras(model_.asset.extras_json_string);
    bool ours = !asset_extras.empty();
    parents_ = NodeParents(model_);
    bool has_skeleton = !ours || GetBool(asset_extras, "skeleton", true);
    std::vector<int> node_joint(model_.nodes.size(), -1);
    if (has_skeleton) scene.skeleton = ImportSkeleton(model_, parents_, ours, node_joint);
    gltf::ImportMeshes(model_, reader_, parents_, node_joint, asset_extras, limits_, scene);
    scene.metadata = FromNlohmann(GetMetadata(asset_extras));
    for (size_t i = 0; i < model_.animations.size(); ++i) scene.clips.push_back(ImportClip(static_cast<int>(i)));
    // A clip written under the per-axis rule holds its closest matrix-rule locals: back to per-axis ones.
    for (size_t i = 0; i < scene.clips.size(); ++i)
      if (per_axis_[i]) ConvertScaleInheritance(scene.skeleton, scene.clips[i], ScaleInheritance::PerAxis, limits_);
    return scene;
  }

 private:
  Clip ImportClip(int index) {
    const tinygltf::Animation& animation = model_.animations[index];
    const std::string where = ElementName("animation", index);
    Clip clip;
    clip.name = animation.name.empty() ? "animation_" + std::to_string(index) : animation.name;
    json extras = ParseExtras(animation.extras_json_string);
    std::map<int, size_t> track_of_node;
    std::vector<float> all_times;
    float last_time = 0;
    const bool placeholder = GetBool(extras, "placeholder", false);
    per_axis_.push_back(GetString(extras, "scale_inheritance") == "per_axis");
    for (size_t c = 0; c < animation.channels.size(); ++c) {
      const tinygltf::AnimationChannel& channel = animation.channels[c];
      const std::string channel_name = where + " channel " + std::to_string(c);
      const std::string& path = channel.target_path;
      if (path != "translation" && path != "rotation" && path != "scale") continue;  // weights, extensions
      if (channel.target_node < 0) continue;  // targets something other than a node
      if (static_cast<size_t>(channel.target_node) >= model_.nodes.size())
        gltf::Fail(channel_name + " targets node " + std::to_string(channel.target_node) + ", which does not exist");
      // A placeholder clip's own channel is not motion; its cameras' channels are.
      if (placeholder && model_.nodes[size_t(channel.target_node)].camera < 0) continue;
      if (channel.sampler < 0 || static_cast<size_t>(channel.sampler) >= animation.samplers.size())
        gltf::Fail(channel_name + " names sampler " + std::to_string(channel.sampler) + ", which does not exist");
      const tinygltf::AnimationSampler& sampler = animation.samplers[channel.sampler];
      const std::string sampler_name = where + " sampler " + std::to_string(channel.sampler);
      Interpolation interpolation = ParseInterpolation(sampler.interpolation, sampler_name);
      std::vector<float> times = reader_.Read(sampler.input, TINYGLTF_TYPE_SCALAR, true, sampler_name + " input");
      for (size_t k = 0; k < times.size(); ++k) {
        if (!std::isfinite(times[k])) gltf::Fail(sampler_name + " key time " + std::to_string(k) + " is not finite");
        if (k > 0 && times[k] < times[k - 1]) gltf::Fail(sampler_name + " key times decrease at key " + std::to_string(k));
      }
      const bool rotation = path == "rotation";
      std::vector<float> output = reader_.Read(sampler.output, rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3,
                                               !rotation, sampler_name + " output");
      const size_t per_key = (interpolation == Interpolation::Hermite ? 3 : 1) * (rotation ? 4 : 3);
      if (output.size() != times.size() * per_key)
        gltf::Fail(sampler_name + " output has " + std::to_string(output.size() / (rotation ? 4 : 3)) + " elements, " +
             std::to_string(times.size() * per_key / (rotation ? 4 : 3)) + " expected for its " +
             std::to_string(times.size()) + " key times");

      auto [it, inserted] = track_of_node.try_emplace(channel.target_node, clip.tracks.size());
      if (inserted) {
        clip.tracks.emplace_back();
        clip.tracks.back().joint = NodeName(model_, channel.target_node);
      }
      JointTrack& track = clip.tracks[it->second];
      all_times.insert(all_times.end(), times.begin(), times.end());
      last_time = std::max(last_time, times.back());
      // A second channel for the same property is ignored, as the first one wins.
      if (path == "translation" && track.translation.empty()) FillTrack(track.translation, interpolation, std::move(times), output);
      if (path == "scale" && track.scale.empty()) FillTrack(track.scale, interpolation, std::move(times), output);
      if (rotation && track.rotation.empty()) FillTrack(track.rotation, interpolation, std::move(times), output);
    }
    TakeCameras(clip, track_of_node);
    ApplyTrackOrder(clip, extras);
    ApplyAtRest(clip, extras);
    ApplyTiming(clip, extras, all_times, last_time, where);
    ApplyEvents(clip, extras);
    ApplyVisibility(clip, extras);
    ApplyMotionRules(clip, extras);
    clip.metadata = FromNlohmann(GetMetadata(extras));
    return clip;
  }

  // "additive" and "root_motion" (the exporter's ClipExtras); a malformed entry is absent.
  static void ApplyMotionRules(Clip& clip, const json& extras) {
    if (auto a = extras.find("additive"); a != extras.end() && a->is_object()) {
      Additive additive;
      if (GetString(*a, "reference") == "clip") additive.reference = GetString(*a, "clip");
      additive.rotation_only = GetBool(*a, "rotation_only", false);
      double fade = 0;
      if (GetNumber(*a, "fade_in", &fade) && fade >= 0) additive.fade_in = static_cast<Seconds>(fade);
      if (GetNumber(*a, "fade_out", &fade) && fade >= 0) additive.fade_out = static_cast<Seconds>(fade);
      clip.additive = std::move(additive);
    }
    auto r = extras.find("root_motion");
    if (r == extras.end() || !r->is_object() || GetString(*r, "joint").empty()) return;
    RootMotion motion{GetString(*r, "joint"), {0, 1, 0}};
    if (auto up = r->find("up"); up != r->end() && up->is_array() && up->size() == 3 &&
                                 std::all_of(up->begin(), up->end(), [](const json& v) { return v.is_number(); }))
      motion.up = {(*up)[0].get<float>(), (*up)[1].get<float>(), (*up)[2].get<float>()};
    clip.root_motion = std::move(motion);
  }

  // The tracks of camera nodes become the clip's cameras: eye = translation, the point
  // looked at from the rotation and the exporter's target distance (1000 units when the
  // file has none), roll from the rotation; field of view and raw values from the extras.
  void TakeCameras(Clip& clip, const std::map<int, size_t>& track_of_node) const {
    std::vector<bool> taken(clip.tracks.size(), false);
    for (const auto& [node, track_index] : track_of_node) {
      const int camera_index = model_.nodes[size_t(node)].camera;
      if (camera_index < 0 || size_t(camera_index) >= model_.cameras.size()) continue;
      const JointTrack& track = clip.tracks[track_index];
      const json extras = ParseExtras(model_.cameras[size_t(camera_index)].extras_json_string);
      const TransformTRS rest = gltf::NodeTransform(model_.nodes[size_t(node)], node);
      const std::vector<Seconds>& times = !track.translation.empty() ? track.translation.times : track.rotation.times;
      auto numbers = [&](const char* key) {
        std::vector<float> out;
        const auto it = extras.find(key);
        if (it == extras.end() || !it->is_array() || it->size() != times.size()) return out;
        for (const json& v : *it) out.push_back(v.is_number() ? v.get<float>() : 0.0f);
        return out;
      };
      const std::vector<float> distances = numbers("target_distance");
      CameraTrack cam;
      cam.name = track.joint;
      cam.interpolation = track.translation.empty() ? track.rotation.interpolation : track.translation.interpolation;
      cam.yfov = numbers("yfov");
      cam.metadata = FromNlohmann(GetMetadata(extras));
      for (size_t k = 0; k < times.size(); ++k) {
        const Vec3 eye = track.translation.empty() ? rest.translation : track.translation.values[k];
        QuatXYZW q = rest.rotation;
        for (size_t r = 0; r < track.rotation.times.size() && track.rotation.times[r] <= times[k]; ++r)
          q = track.rotation.values[r];  // the rotation key at or before this time
        const float distance = k < distances.size() && distances[k] > 0 ? distances[k] : 1000.0f;
        const gltf::CameraAim aim = gltf::AimOf(eye, q, distance);
        cam.times.push_back(times[k]);
        cam.positions.push_back(eye);
        cam.targets.push_back(aim.target);
        cam.roll.push_back(aim.roll);
      }
      clip.cameras.push_back(std::move(cam));
      taken[track_index] = true;
    }
    for (size_t i = clip.tracks.size(); i-- > 0;)
      if (taken[i]) clip.tracks.erase(clip.tracks.begin() + long(i));
  }

  void ApplyTiming(Clip& clip, const json& extras, const std::vector<float>& times, float last_time,
                   const std::string& where) const {
    const double kMaxFrames = double(limits_.max_frames);
    double rate = 0, duration = 0, frames = 0;
    clip.frame_rate = GetNumber(extras, "frame_rate", &rate) && rate > 0 && rate <= 1e6 ? rate : DetectFrameRate(times);
    clip.duration = GetNumber(extras, "duration", &duration) && duration >= 0 ? static_cast<Seconds>(duration) : last_time;
    if (GetNumber(extras, "frame_count", &frames) && frames >= 0 && frames <= kMaxFrames && frames == std::floor(frames)) {
      clip.frame_count = static_cast<size_t>(frames);
    } else {
      const double count = std::round(double(clip.duration) * clip.frame_rate) + 1;
      if (!(count <= kMaxFrames))
        gltf::Fail(where + " lasts " + std::to_string(clip.duration) + " s: " + std::to_string(count) +
             " frames, over the limit max-frames = " + std::to_string(limits_.max_frames) + " (--max-frames raises it)");
      clip.frame_count = static_cast<size_t>(count);
    }
    clip.loop = GetBool(extras, "loop", false);
    clip.space = GetString(extras, "space") == "model" ? Space::Model : Space::Local;
  }

  static void ApplyEvents(Clip& clip, const json& extras) {
    auto events = extras.find("events");
    if (events == extras.end() || !events->is_array()) return;
    for (const json& e : *events) {
      Event event;
      double time = 0, end = 0;
      if (!e.is_object() || !GetNumber(e, "time", &time)) continue;
      event.time = static_cast<Seconds>(time);
      if (auto name = e.find("name"); name != e.end() && name->is_string()) event.name = name->get<std::string>();
      if (auto params = e.find("params"); params != e.end() && params->is_array())
        for (const json& p : *params)
          if (p.is_number()) event.params.push_back(p.get<double>());
      if (GetNumber(e, "end_time", &end)) event.end_time = static_cast<Seconds>(end);
      clip.events.push_back(std::move(event));
    }
  }

  // The clip's tracks as the exporter listed them ("tracks": joint names in order): tracks
  // without a channel (at their rest throughout) come back empty, in their place.
  void ApplyTrackOrder(Clip& clip, const json& extras) const {
    auto list = extras.find("tracks");
    if (list == extras.end() || !list->is_array() || list->size() > limits_.max_joints) return;
    std::vector<JointTrack> ordered;
    std::vector<bool> taken(clip.tracks.size(), false);
    std::set<std::string> listed;
    for (const json& name : *list) {
      if (!name.is_string() || !listed.insert(name.get<std::string>()).second) continue;
      auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                             [&](const JointTrack& t) { return t.joint == name.get<std::string>(); });
      if (it == clip.tracks.end()) {
        ordered.emplace_back().joint = name.get<std::string>();
        continue;
      }
      taken[size_t(it - clip.tracks.begin())] = true;
      ordered.push_back(std::move(*it));
    }
    for (size_t i = 0; i < clip.tracks.size(); ++i)
      if (!taken[i]) ordered.push_back(std::move(clip.tracks[i]));
    clip.tracks = std::move(ordered);
  }

  // Properties the exporter left out as the node's rest ("at_rest": joint -> "t", "r", "s")
  // come back as one key of that rest, as the source clip had them.
  void ApplyAtRest(Clip& clip, const json& extras) const {
    auto list = extras.find("at_rest");
    if (list == extras.end() || !list->is_object()) return;
    std::map<std::string, int> node_of;
    for (size_t n = 0; n < model_.nodes.size(); ++n) node_of.try_emplace(NodeName(model_, int(n)), int(n));
    for (JointTrack& track : clip.tracks) {
      auto letters = list->find(track.joint);
      auto node = node_of.find(track.joint);
      if (letters == list->end() || !letters->is_string() || node == node_of.end()) continue;
      const tinygltf::Node& n = model_.nodes[size_t(node->second)];
      auto vec = [](const std::vector<double>& v, Vec3 fallback) {
        return v.size() == 3 ? Vec3{float(v[0]), float(v[1]), float(v[2])} : fallback;
      };
      const std::string& which = letters->get_ref<const std::string&>();
      auto one_key = [](auto& property, const auto& value) {
        property.interpolation = Interpolation::Step;
        property.Add(0, value);
      };
      if (which.find('t') != std::string::npos && track.translation.empty()) one_key(track.translation, vec(n.translation, {0, 0, 0}));
      if (which.find('s') != std::string::npos && track.scale.empty()) one_key(track.scale, vec(n.scale, {1, 1, 1}));
      if (which.find('r') != std::string::npos && track.rotation.empty())
        one_key(track.rotation, n.rotation.size() == 4 ? QuatXYZW{float(n.rotation[0]), float(n.rotation[1]),
                                                                  float(n.rotation[2]), float(n.rotation[3])}
                                                       : QuatXYZW{0, 0, 0, 1});
    }
  }

  // Hidden frames recorded by the exporter become JointTrack::visible again; a
  // scale channel made only to hide the joint is dropped.
  void ApplyVisibility(Clip& clip, const json& extras) const {
    const double kMaxFrames = double(limits_.max_frames);
    auto list = extras.find("visibility");
    if (list == extras.end() || !list->is_array()) return;
    for (const json& v : *list) {
      double frames = 0;
      if (!v.is_object() || !GetNumber(v, "frames", &frames) || frames < 1 || frames > kMaxFrames) continue;
      auto joint = v.find("joint");
      auto hidden = v.find("hidden");
      if (joint == v.end() || !joint->is_string() || hidden == v.end() || !hidden->is_array()) continue;
      auto track = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                                [&](const JointTrack& t) { return t.joint == joint->get<std::string>(); });
      if (track == clip.tracks.end()) continue;
      track->visible.assign(static_cast<size_t>(frames), true);
      for (const json& range : *hidden) {
        if (!range.is_array() || range.size() != 2 || !range[0].is_number_unsigned() || !range[1].is_number_unsigned()) continue;
        size_t first = range[0].get<size_t>(), last = std::min(range[1].get<size_t>(), track->visible.size() - 1);
        for (size_t f = first; f <= last; ++f) track->visible[f] = false;
      }
      if (GetString(v, "scale") == "rest") track->scale = {};
    }
  }

  const tinygltf::Model& model_;
  Limits limits_;
  AccessorReader reader_;
  std::vector<int> parents_;
  std::vector<bool> per_axis_;  // per clip: its extras say the per-axis scale rule
};

}  // namespace

Scene ImportGltf(ByteView data, const std::string& path, const Limits& limits) {
  try {
    tinygltf::Model model = gltf::LoadModel(data, path, limits);
    return Importer(model, data.size(), limits).Run();
  } catch (const Error& e) {
    throw e.InFile(path);
  } catch (const nlohmann::json::exception& e) {
    throw Error::General(std::string("glTF extras could not be read: ") + e.what()).InFile(path);
  }
}

}  // namespace animkit
