// glTF 2.0 -> Scene. tinygltf parses the JSON; every index, offset and count it
// leaves unchecked is checked here before any data is read.
#include <animkit/error.hpp>
#include <animkit/gltf.hpp>
#include <animkit/math.hpp>

#include "gltf/gltf_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

namespace animkit {
namespace {

using nlohmann::json;

[[noreturn]] void Fail(const std::string& message) { throw Error::General(message); }

std::string Name(const char* kind, int index) { return std::string(kind) + " " + std::to_string(index); }

int ComponentSize(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
    default: return 0;
  }
}

int ComponentCount(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return 1;
    case TINYGLTF_TYPE_VEC2: return 2;
    case TINYGLTF_TYPE_VEC3: return 3;
    case TINYGLTF_TYPE_VEC4: return 4;
    case TINYGLTF_TYPE_MAT2: return 4;
    case TINYGLTF_TYPE_MAT3: return 9;
    case TINYGLTF_TYPE_MAT4: return 16;
    default: return 0;
  }
}

const char* TypeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return "SCALAR";
    case TINYGLTF_TYPE_VEC3: return "VEC3";
    case TINYGLTF_TYPE_VEC4: return "VEC4";
    default: return "another type";
  }
}

uint32_t LoadU32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// One component, little-endian; normalized integers map to [-1, 1] / [0, 1] as the spec says.
float DecodeComponent(const uint8_t* p, int component_type, bool normalized) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      uint32_t bits = LoadU32(p);
      float v;
      std::memcpy(&v, &bits, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      float v = static_cast<int8_t>(p[0]);
      return normalized ? std::max(v / 127.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0f : p[0];
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      float v = static_cast<int16_t>(uint16_t(p[0] | p[1] << 8));
      return normalized ? std::max(v / 32767.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      float v = uint16_t(p[0] | p[1] << 8);
      return normalized ? v / 65535.0f : v;
    }
    default: return static_cast<float>(LoadU32(p));
  }
}

// Reads accessors as floats with every offset checked against its buffer.
class AccessorReader {
 public:
  AccessorReader(const tinygltf::Model& model, size_t file_size)
      : model_(model), zero_fill_limit_(std::max<size_t>(4096, file_size)) {}

  // count * components floats. float_only rejects integer component types;
  // otherwise integers must be normalized (rotation outputs).
  std::vector<float> Read(int index, int expected_type, bool float_only, const std::string& what) const {
    if (index < 0 || static_cast<size_t>(index) >= model_.accessors.size())
      Fail(what + " names accessor " + std::to_string(index) + ", which does not exist");
    const tinygltf::Accessor& a = model_.accessors[index];
    const std::string name = Name("accessor", index) + " (" + what + ")";
    if (a.type != expected_type) Fail(name + " must be " + TypeName(expected_type));
    const int component_size = ComponentSize(a.componentType);
    if (component_size == 0 || a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
      Fail(name + " has an unsupported component type " + std::to_string(a.componentType));
    const bool is_float = a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT;
    if (float_only && !is_float) Fail(name + " must hold floats (component type 5126)");
    if (!is_float && !a.normalized) Fail(name + " holds integers, which must be normalized");
    if (a.count == 0) Fail(name + " has count 0");
    const size_t components = static_cast<size_t>(ComponentCount(a.type));
    const size_t element_size = components * static_cast<size_t>(component_size);

    if (a.bufferView < -1) Fail(name + " names buffer view " + std::to_string(a.bufferView) + ", which does not exist");
    std::vector<float> out;
    if (a.bufferView < 0) {
      // No buffer view: zeros (then sparse values); bounded, as nothing in the file pays for it.
      if (a.count > zero_fill_limit_ / components) Fail(name + " has no buffer view and too many elements");
      out.assign(a.count * components, 0.0f);
    } else {
      size_t stride = 0;
      const uint8_t* base = View(a.bufferView, a.byteOffset, a.count, element_size, &stride, name);
      out.resize(a.count * components);
      for (size_t i = 0; i < a.count; ++i)
        for (size_t c = 0; c < components; ++c)
          out[i * components + c] = DecodeComponent(base + i * stride + c * component_size, a.componentType, a.normalized);
    }
    if (a.sparse.isSparse) ApplySparse(a, components, element_size, component_size, out, name);
    return out;
  }

 private:
  // Start of count elements of element_size bytes at offset in a buffer view,
  // after checking that all of them lie inside it.
  const uint8_t* View(int view_index, size_t offset, size_t count, size_t element_size, size_t* stride,
                      const std::string& name) const {
    if (view_index < 0 || static_cast<size_t>(view_index) >= model_.bufferViews.size())
      Fail(name + " names buffer view " + std::to_string(view_index) + ", which does not exist");
    const tinygltf::BufferView& v = model_.bufferViews[view_index];
    const std::string view_name = Name("buffer view", view_index);
    if (v.buffer < 0 || static_cast<size_t>(v.buffer) >= model_.buffers.size())
      Fail(view_name + " names buffer " + std::to_string(v.buffer) + ", which does not exist");
    const size_t buffer_size = model_.buffers[v.buffer].data.size();
    if (v.byteOffset > buffer_size || v.byteLength > buffer_size - v.byteOffset)
      Fail(view_name + " (offset " + std::to_string(v.byteOffset) + ", length " + std::to_string(v.byteLength) +
           ") runs past the end of buffer " + std::to_string(v.buffer) + " (" + std::to_string(buffer_size) + " bytes)");
    *stride = v.byteStride ? v.byteStride : element_size;
    if (*stride < element_size) Fail(view_name + " has a byte stride smaller than the elements of " + name);
    if (offset > v.byteLength || element_size > v.byteLength - offset ||
        count - 1 > (v.byteLength - offset - element_size) / *stride)
      Fail(name + " (offset " + std::to_string(offset) + ", " + std::to_string(count) + " elements of " +
           std::to_string(element_size) + " bytes) runs past the end of " + view_name + " (" +
           std::to_string(v.byteLength) + " bytes)");
    return model_.buffers[v.buffer].data.data() + v.byteOffset + offset;
  }

  void ApplySparse(const tinygltf::Accessor& a, size_t components, size_t element_size, int component_size,
                   std::vector<float>& out, const std::string& name) const {
    const int count = a.sparse.count;
    if (count <= 0 || static_cast<size_t>(count) > a.count) Fail(name + " has a sparse count out of range");
    if (a.sparse.indices.byteOffset < 0 || a.sparse.values.byteOffset < 0) Fail(name + " has a negative sparse offset");
    const int index_size = ComponentSize(a.sparse.indices.componentType);
    if (index_size == 0 || a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_BYTE ||
        a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_SHORT ||
        a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT)
      Fail(name + " has sparse indices of an unsupported component type");
    size_t stride = 0;
    const uint8_t* indices = View(a.sparse.indices.bufferView, static_cast<size_t>(a.sparse.indices.byteOffset),
                                  static_cast<size_t>(count), static_cast<size_t>(index_size), &stride, name + " sparse indices");
    const size_t index_stride = static_cast<size_t>(index_size);  // sparse data is tightly packed
    const uint8_t* values = View(a.sparse.values.bufferView, static_cast<size_t>(a.sparse.values.byteOffset),
                                 static_cast<size_t>(count), element_size, &stride, name + " sparse values");
    for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
      const uint8_t* p = indices + i * index_stride;
      uint32_t target = index_size == 1 ? p[0] : index_size == 2 ? uint32_t(p[0] | p[1] << 8) : LoadU32(p);
      if (target >= a.count) Fail(name + " has sparse index " + std::to_string(target) + " past its count");
      for (size_t c = 0; c < components; ++c)
        out[target * components + c] =
            DecodeComponent(values + i * element_size + c * component_size, a.componentType, a.normalized);
    }
  }

  const tinygltf::Model& model_;
  size_t zero_fill_limit_;
};

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
  if (!v.empty() && v.size() != expected) Fail(what + " must have " + std::to_string(expected) + " numbers");
  for (double d : v)
    if (!std::isfinite(d)) Fail(what + " is not finite");
  return v;
}

TransformTRS NodeTransform(const tinygltf::Node& node, int index) {
  const std::string name = Name("node", index);
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
        Fail(Name("node", int(i)) + " lists child " + std::to_string(child) + ", which does not exist");
      if (parent[child] != -1 || static_cast<size_t>(child) == i)
        Fail(Name("node", child) + " has more than one parent");
      parent[child] = static_cast<int>(i);
    }
  for (size_t i = 0; i < n; ++i) {
    size_t steps = 0;
    for (int p = parent[i]; p >= 0; p = parent[p])
      if (++steps > n) Fail("the node hierarchy has a cycle through " + Name("node", int(i)));
  }
  return parent;
}

Skeleton ImportSkeleton(const tinygltf::Model& model, const std::vector<int>& parents, bool ours) {
  const int n = static_cast<int>(model.nodes.size());
  std::vector<int> nodes;
  std::vector<int> position(n, -1);
  if (!model.skins.empty()) {
    for (int node : model.skins[0].joints) {
      if (node < 0 || node >= n) Fail("skin 0 lists joint node " + std::to_string(node) + ", which does not exist");
      if (position[node] >= 0) continue;  // listed twice
      position[node] = static_cast<int>(nodes.size());
      nodes.push_back(node);
    }
  } else {
    for (int i = 0; i < n; ++i) {
      // animkit's own root node is not a joint.
      if (ours && parents[i] < 0 && model.nodes[i].name == gltf::kRootNodeName) continue;
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
  Skeleton skeleton;
  for (size_t j : order) {
    int node = nodes[j];
    skeleton.joints.push_back(
        {NodeName(model, node), joint_parent[j] >= 0 ? new_index[joint_parent[j]] : -1, NodeTransform(model.nodes[node], node)});
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
  Fail(where + " has unknown interpolation '" + name.substr(0, 40) + "'");
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
    if (has_skeleton) scene.skeleton = ImportSkeleton(model_, parents_, ours);
    scene.metadata = FromNlohmann(GetMetadata(asset_extras));
    for (size_t i = 0; i < model_.animations.size(); ++i) scene.clips.push_back(ImportClip(static_cast<int>(i)));
    return scene;
  }

 private:
  Clip ImportClip(int index) {
    const tinygltf::Animation& animation = model_.animations[index];
    const std::string where = Name("animation", index);
    Clip clip;
    clip.name = animation.name.empty() ? "animation_" + std::to_string(index) : animation.name;
    json extras = ParseExtras(animation.extras_json_string);
    std::map<int, size_t> track_of_node;
    std::vector<float> all_times;
    float last_time = 0;
    const bool placeholder = GetBool(extras, "placeholder", false);
    for (size_t c = 0; c < animation.channels.size() && !placeholder; ++c) {
      const tinygltf::AnimationChannel& channel = animation.channels[c];
      const std::string channel_name = where + " channel " + std::to_string(c);
      const std::string& path = channel.target_path;
      if (path != "translation" && path != "rotation" && path != "scale") continue;  // weights, extensions
      if (channel.target_node < 0) continue;  // targets something other than a node
      if (static_cast<size_t>(channel.target_node) >= model_.nodes.size())
        Fail(channel_name + " targets node " + std::to_string(channel.target_node) + ", which does not exist");
      if (channel.sampler < 0 || static_cast<size_t>(channel.sampler) >= animation.samplers.size())
        Fail(channel_name + " names sampler " + std::to_string(channel.sampler) + ", which does not exist");
      const tinygltf::AnimationSampler& sampler = animation.samplers[channel.sampler];
      const std::string sampler_name = where + " sampler " + std::to_string(channel.sampler);
      Interpolation interpolation = ParseInterpolation(sampler.interpolation, sampler_name);
      std::vector<float> times = reader_.Read(sampler.input, TINYGLTF_TYPE_SCALAR, true, sampler_name + " input");
      for (size_t k = 0; k < times.size(); ++k) {
        if (!std::isfinite(times[k])) Fail(sampler_name + " key time " + std::to_string(k) + " is not finite");
        if (k > 0 && times[k] < times[k - 1]) Fail(sampler_name + " key times decrease at key " + std::to_string(k));
      }
      const bool rotation = path == "rotation";
      std::vector<float> output = reader_.Read(sampler.output, rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3,
                                               !rotation, sampler_name + " output");
      const size_t per_key = (interpolation == Interpolation::Hermite ? 3 : 1) * (rotation ? 4 : 3);
      if (output.size() != times.size() * per_key)
        Fail(sampler_name + " output has " + std::to_string(output.size() / (rotation ? 4 : 3)) + " elements, " +
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
    ApplyTiming(clip, extras, all_times, last_time, where);
    ApplyEvents(clip, extras);
    ApplyVisibility(clip, extras);
    clip.metadata = FromNlohmann(GetMetadata(extras));
    return clip;
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
        Fail(where + " lasts " + std::to_string(clip.duration) + " s: " + std::to_string(count) +
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
