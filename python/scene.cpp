// animkit.Scene, animkit.Skeleton, animkit.Clip: decoded data as NumPy arrays, sampled
// by the library's own sampler (the numbers `animkit sample` prints).
#include "bindings.hpp"

#include <animkit/offline/runtime_build.hpp>
#include <animkit/pipeline/rate_text.hpp>

#include <algorithm>
#include <cmath>
#include <span>

namespace animkit::python {

Frames FramesOf(const ClipRef& c, const std::optional<double>& rate) {
  if (rate && !(*rate > 0 && std::isfinite(*rate))) throw py::value_error("rate is a number of frames per second > 0");
  Frames f{SampleRequest{rate.value_or(0), {}, &c.owner->rest(), c.owner->limits}, 0};
  try {
    f.count = SampleFrameCount(c.clip(), f.request.rate, f.request.limits);
  } catch (const Error& e) {
    throw c.owner->path.empty() ? e : e.InFile(c.owner->path);
  }
  return f;
}

namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using BoolArray = py::array_t<bool, py::array::c_style | py::array::forcecast>;
constexpr size_t kTrs = 10;  // t xyz, r xyzw, s xyz

void PutTrs(const TransformTRS& p, float* out) {
  const float v[kTrs] = {p.translation.x, p.translation.y, p.translation.z, p.rotation.x, p.rotation.y,
                         p.rotation.z,    p.rotation.w,    p.scale.x,       p.scale.y,    p.scale.z};
  std::copy(v, v + kTrs, out);
}

TransformTRS GetTrs(const float* v) {
  return TransformTRS{{v[0], v[1], v[2]}, {v[3], v[4], v[5], v[6]}, {v[7], v[8], v[9]}};
}

// ---- Skeleton ----

py::list Names(const Skeleton& s) {
  py::list out;
  for (const Joint& j : s.joints) out.append(Text(j.name));
  return out;
}

py::array_t<int32_t> Parents(const Skeleton& s) {
  py::array_t<int32_t> out(static_cast<py::ssize_t>(s.joints.size()));
  int32_t* p = out.mutable_data();
  for (const Joint& j : s.joints) *p++ = j.parent;
  return out;
}

py::array_t<float> Rest(const Skeleton& s) {
  py::array_t<float> out({static_cast<py::ssize_t>(s.joints.size()), static_cast<py::ssize_t>(kTrs)});
  float* p = out.mutable_data();
  for (const Joint& j : s.joints) PutTrs(j.rest, p), p += kTrs;
  return out;
}

SkeletonData MakeSkeleton(const std::vector<std::string>& names, const std::vector<int>& parents,
                          const std::optional<FloatArray>& rest) {
  if (parents.size() != names.size()) throw py::value_error("parents needs one entry per name");
  if (rest && (rest->ndim() != 2 || rest->shape(0) != static_cast<py::ssize_t>(names.size()) || rest->shape(1) != 10)) {
    throw py::value_error("rest is an (N, 10) array: t xyz, r xyzw, s xyz per joint");
  }
  SkeletonData d;
  for (size_t i = 0; i < names.size(); ++i) {
    if (parents[i] >= static_cast<int>(i) || parents[i] < -1) {
      throw py::value_error("joint " + std::to_string(i) + ": the parent must be -1 or an earlier joint");
    }
    d.skeleton.joints.push_back({names[i], parents[i], rest ? GetTrs(rest->data(static_cast<py::ssize_t>(i), 0)) : TransformTRS{}});
  }
  CheckScene(SkeletonScene(d.skeleton), Limits{});
  return d;
}

// ---- Clip sampling: the frames `animkit sample [--rate R]` prints ----

py::tuple Sample(const ClipRef& c, const std::optional<double>& rate, const std::string& space) {
  if (space != "local" && space != "model") throw py::value_error("space is 'local' or 'model'");
  Frames frames = FramesOf(c, rate);
  frames.request.space = space == "model" ? Space::Model : Space::Local;
  const size_t joints = c.clip().tracks.size();
  const auto n = static_cast<py::ssize_t>(frames.count), j = static_cast<py::ssize_t>(joints);
  py::array_t<float> trs({n, j, static_cast<py::ssize_t>(kTrs)});
  py::array_t<bool> visible({n, j});
  float* out = trs.mutable_data();
  bool* vis = visible.mutable_data();
  {
    NoGil released;
    ForEachSampleFrame(c.clip(), frames.request,
                       [&](size_t f, std::span<const TransformTRS> pose, std::span<const bool> shown) {
                         for (size_t i = 0; i < joints; ++i) PutTrs(pose[i], out + (f * joints + i) * kTrs);
                         std::copy(shown.begin(), shown.end(), vis + f * joints);
                       });
  }
  return py::make_tuple(trs, visible);
}

// Model-space matrices over a skeleton, each a 4x4 acting on column vectors, composed
// under the clip's scale rule (ClipModelPose).
py::array_t<float> World(const ClipRef& c, const py::object& skeleton_arg, const std::optional<double>& rate) {
  const Clip& clip = c.clip();
  Skeleton skeleton;
  if (skeleton_arg.is_none()) skeleton = c.owner->rest();
  else if (py::isinstance<SkeletonData>(skeleton_arg)) skeleton = skeleton_arg.cast<const SkeletonData&>().skeleton;
  else if (py::isinstance<SceneData>(skeleton_arg)) skeleton = skeleton_arg.cast<const SceneData&>().rest();
  else throw py::type_error("skeleton is a Skeleton, a Scene or None (the clip's own rest skeleton)");
  if (skeleton.empty()) skeleton = FlatSkeleton(clip);  // every joint of the clip a root
  const Frames frames = FramesOf(c, rate);
  const size_t joints = skeleton.joints.size();
  py::array_t<float> out({static_cast<py::ssize_t>(frames.count), static_cast<py::ssize_t>(joints), py::ssize_t{4}, py::ssize_t{4}});
  float* p = out.mutable_data();
  NoGil released;
  ClipModelPose model(clip, skeleton);
  ForEachSampleFrame(clip, frames.request, [&](size_t, std::span<const TransformTRS> pose, std::span<const bool>) {
    model.Compose(pose);
    for (const Mat4& m : model.matrices())
      for (size_t row = 0; row < 4; ++row)
        for (size_t col = 0; col < 4; ++col) *p++ = m.m[col][row];
  });
  return out;
}

ClipRef FromArrays(const std::string& name, double rate, const std::vector<std::string>& joints, const FloatArray& trs,
                   const std::optional<BoolArray>& visible, bool loop, const py::object& events, const std::string& space,
                   const std::string& scale_inheritance) {
  if (!(rate > 0 && std::isfinite(rate))) throw py::value_error("rate is a number of frames per second > 0");
  if (trs.ndim() != 3 || trs.shape(1) != static_cast<py::ssize_t>(joints.size()) || trs.shape(2) != 10) {
    throw py::value_error("trs is a (frames, joints, 10) array: t xyz, r xyzw, s xyz");
  }
  if (visible && (visible->ndim() != 2 || visible->shape(0) != trs.shape(0) || visible->shape(1) != trs.shape(1))) {
    throw py::value_error("visible is a (frames, joints) array of bool");
  }
  if (space != "local" && space != "model") throw py::value_error("space is 'local' or 'model'");
  if (scale_inheritance != "matrix" && scale_inheritance != "per_axis")
    throw py::value_error("scale_inheritance is 'matrix' or 'per_axis'");
  Scene scene;
  Clip& clip = scene.clips.emplace_back();
  clip.name = name;
  clip.loop = loop;
  clip.space = space == "model" ? Space::Model : Space::Local;
  clip.scale_inheritance = scale_inheritance == "per_axis" ? ScaleInheritance::PerAxis : ScaleInheritance::Matrix;
  if (!events.is_none())
    for (const py::handle e : events) clip.events.push_back(EventFromPython(e));
  const auto frames = static_cast<size_t>(trs.shape(0));
  const float* values = trs.data();
  const bool* shown = visible ? visible->data() : nullptr;
  {
    NoGil released;
    clip.SetFrames(frames, rate);
    for (size_t i = 0; i < joints.size(); ++i) {
      JointTrack& track = clip.tracks.emplace_back();
      track.joint = joints[i];
      for (size_t f = 0; f < frames; ++f) {
        const TransformTRS v = GetTrs(values + (f * joints.size() + i) * kTrs);
        const Seconds t = FrameTime(f, rate);
        track.translation.Add(t, v.translation);
        track.rotation.Add(t, v.rotation);
        track.scale.Add(t, v.scale);
      }
      bool all = true;
      for (size_t f = 0; shown && f < frames; ++f) all = all && shown[f * joints.size() + i];
      if (!all)
        for (size_t f = 0; f < frames; ++f) track.visible.push_back(shown[f * joints.size() + i]);
    }
    CheckScene(scene, Limits{});
  }
  return ClipRef{BuiltScene(std::move(scene)), 0};
}

py::list ClipsOf(const std::shared_ptr<SceneData>& d) {
  py::list out;
  for (size_t i = 0; i < d->scene().clips.size(); ++i) out.append(ClipRef{d, i});
  return out;
}

std::shared_ptr<SceneData> MakeScene(const std::vector<ClipRef>& clips, const std::optional<SkeletonData>& skeleton) {
  Scene scene;
  if (skeleton) scene.skeleton = skeleton->skeleton;
  for (const ClipRef& c : clips) scene.clips.push_back(c.clip());
  CheckScene(scene, Limits{});
  return BuiltScene(std::move(scene));
}

py::object OrNone(const std::string& s) { return s.empty() ? py::object(py::none()) : PathToPython(s); }

}  // namespace

void BindScene(py::module_& m) {
  py::class_<SkeletonData>(m, "Skeleton", "Joints, parents first: names, parents, rest poses.")
      .def(py::init(&MakeSkeleton), py::arg("names"), py::arg("parents"), py::arg("rest") = py::none(),
           "Skeleton(names, parents, rest=None): parents[i] is -1 or an earlier joint; rest an (N, 10) array "
           "(identity when None).")
      .def_property_readonly("names", [](const SkeletonData& s) { return Names(s.skeleton); })
      .def_property_readonly("parents", [](const SkeletonData& s) { return Parents(s.skeleton); },
                             "int32 array: each joint's parent index, -1 for a root.")
      .def_property_readonly("rest", [](const SkeletonData& s) { return Rest(s.skeleton); },
                             "float32 (N, 10) array of local rest poses: t xyz, r xyzw, s xyz.")
      .def("find", [](const SkeletonData& s, const std::string& name) { return s.skeleton.Find(name); }, py::arg("name"),
           "The index of the joint named name, -1 when none.")
      .def("__len__", [](const SkeletonData& s) { return s.skeleton.joints.size(); })
      .def("__repr__", [](const SkeletonData& s) {
        return "<animkit.Skeleton " + std::to_string(s.skeleton.joints.size()) + " joints>";
      });

  py::class_<ClipRef>(m, "Clip", "One clip of a Scene: timing, joints, events; sample() and world() evaluate it.")
      .def_static("from_arrays", &FromArrays, py::arg("name"), py::arg("rate"), py::arg("joints"), py::arg("trs"),
                  py::arg("visible") = py::none(), py::arg("loop") = false, py::arg("events") = py::none(),
                  py::arg("space") = "local", py::arg("scale_inheritance") = "matrix",
                  "A clip with one linear key per frame: trs (frames, joints, 10) float32 (t xyz, r xyzw, s xyz), "
                  "frame i at i / rate seconds; visible (frames, joints) bool or None (always); events: dicts "
                  "with time, name, params, end_time; scale_inheritance 'matrix' or 'per_axis': the rule the locals follow.")
      .def_property_readonly("name", [](const ClipRef& c) { return Text(c.clip().name); })
      .def_property_readonly("frame_rate", [](const ClipRef& c) { return c.clip().frame_rate; })
      .def_property_readonly("frame_count", [](const ClipRef& c) { return c.clip().frame_count; })
      .def_property_readonly("duration", [](const ClipRef& c) { return static_cast<double>(c.clip().duration); },
                             "Seconds.")
      .def_property_readonly("loop", [](const ClipRef& c) { return c.clip().loop; })
      .def_property_readonly("space", [](const ClipRef& c) { return c.clip().space == Space::Model ? "model" : "local"; },
                             "'local' (parent-relative) or 'model'.")
      .def_property_readonly("scale_inheritance", [](const ClipRef& c) {
        return c.clip().scale_inheritance == ScaleInheritance::PerAxis ? "per_axis" : "matrix";
      }, "How a joint's model transform follows its parent's: 'matrix' (glTF's) or 'per_axis' (docs/conventions.md).")
      .def_property_readonly("joints", [](const ClipRef& c) {
        py::list out;
        for (const JointTrack& t : c.clip().tracks) out.append(Text(t.joint));
        return out;
      }, "The joints the clip animates, in the file's order (the columns of sample()).")
      .def_property_readonly("events", [](const ClipRef& c) {
        py::list out;
        for (const Event& e : c.clip().events) out.append(EventToPython(e));
        return out;
      }, "dicts: time (s), name, params, end_time (None unless a range).")
      .def_property_readonly("metadata", [](const ClipRef& c) { return ToPython(c.clip().metadata); })
      .def_property_readonly("additive", [](const ClipRef& c) -> py::object {
        const std::optional<Additive>& a = c.clip().additive;
        if (!a) return py::none();
        Value v = {{"reference", a->reference.empty() ? "rest" : "clip"}, {"rotation_only", a->rotation_only},
                   {"fade_in", a->fade_in}, {"fade_out", a->fade_out}};
        if (!a->reference.empty()) v["clip"] = a->reference;
        return ToPython(v);
      }, "None, or the clip's deltas' rule as sample's JSON says it: reference ('rest' or 'clip', then clip), "
         "rotation_only, fade_in, fade_out (docs/conventions.md, \"Additive clips\").")
      .def_property_readonly("root_motion", [](const ClipRef& c) -> py::object {
        const std::optional<RootMotion>& r = c.clip().root_motion;
        if (!r) return py::none();
        return ToPython(Value{{"joint", r->joint}, {"up", Value::array({r->up.x, r->up.y, r->up.z})}});
      }, "None, or the joint the game moves the character by and the up axis (docs/conventions.md, \"Root motion\").")
      .def("sample", &Sample, py::arg("rate") = py::none(), py::arg("space") = "local",
           "(trs, visible): trs float32 (frames, joints, 10), t xyz, r xyzw, s xyz; visible bool (frames, joints). "
           "The clip's own frames, or resampled at rate: exactly what `animkit sample [--rate R] [--space S]` "
           "prints (null there = visible False here); space 'model': each joint in model space under the "
           "clip's scale rule.")
      .def("world", &World, py::arg("skeleton") = py::none(), py::arg("rate") = py::none(),
           "float32 (frames, joints, 4, 4) model-space matrices (column vectors: p' = M @ p) over skeleton's "
           "joints (default: the scene's rest skeleton; the clip's joints as roots when there is none), frames "
           "as in sample(). Joints the clip does not animate keep their rest pose; composed under the clip's "
           "scale rule (scale_inheritance).")
      .def("skin", &SkinClip, py::arg("frame") = py::none(), py::arg("rate") = py::none(),
           "The scene's meshes deformed by the clip (linear blend skinning, as `animkit sample --skin` "
           "prints): a list with one float32 array per mesh of Scene.meshes, (vertices, 3) at frame, or "
           "(frames, vertices, 3) over every frame (frames as in sample()).")
      .def("__repr__", [](const ClipRef& c) {
        const Clip& clip = c.clip();
        return "<animkit.Clip '" + clip.name + "': " + std::to_string(clip.frame_count) + " frames at " +
               RateText(clip.frame_rate) + " fps, " + std::to_string(clip.tracks.size()) + " joints>";
      });

  py::class_<SceneData, std::shared_ptr<SceneData>> scene(m, "Scene", "A decoded file: skeleton and clips.");
  BindEdits(scene);
  scene
      .def(py::init(&MakeScene), py::arg("clips"), py::arg("skeleton") = py::none(),
           "Scene(clips, skeleton=None): a scene of clips (copied) for encode() and save().")
      .def_property_readonly("format", [](const SceneData& d) { return d.format.empty() ? py::object(py::none()) : py::str(d.format); })
      .def_property_readonly("path", [](const SceneData& d) { return OrNone(d.path); })
      .def_property_readonly("skeleton", [](const SceneData& d) { return SkeletonData{d.scene().skeleton}; },
                             "The scene's skeleton (info()'s joints).")
      .def_property_readonly("rest_skeleton", [](const SceneData& d) { return SkeletonData{d.rest()}; },
                             "The rest pose of unkeyed joints: the skeleton file's when it has joints, else the scene's.")
      .def_property_readonly("skeleton_file", [](const SceneData& d) { return OrNone(d.decoded.skeleton.path); },
                             "The skeleton file decoded against (the companion resolved), None for none.")
      .def_property_readonly("skeleton_note", [](const SceneData& d) { return d.decoded.skeleton.note; },
                             "Why that skeleton file (or none) was chosen.")
      .def_property_readonly("skeleton_use", [](const SceneData& d) { return std::string(ToString(d.decoded.use)); },
                             "How: 'companion' (the file beside it), 'given' or 'none'.")
      .def_property_readonly("skeleton_warning", [](const SceneData& d) { return d.decoded.warning; },
                             "A companion found but not used, and why ('' when none); also a UserWarning.")
      .def_property_readonly("clips", &ClipsOf)
      .def_property_readonly("meshes", &MeshesOf, "The meshes (animkit.Mesh): the file's own, or its model's.")
      .def_property_readonly("materials", &MaterialsOf, "animkit.Material per material, indexed by Mesh.material_index.")
      .def_property_readonly("textures", &TexturesOf, "animkit.Image per texture, indexed by Material.texture_index.")
      .def("clip", [](const std::shared_ptr<SceneData>& d, const std::string& name) {
        const Clip& c = RequireClip(d->scene(), name, d->path);
        return ClipRef{d, static_cast<size_t>(&c - d->scene().clips.data())};
      }, py::arg("name"), "The clip named name (animkit.Error when none is).")
      .def_property_readonly("metadata", [](const SceneData& d) { return ToPython(d.scene().metadata); })
      .def_property_readonly("source", [](const SceneData& d) {
        const SourceInfo& s = d.scene().source;
        return ToPython(Value{{"format", s.format}, {"version", s.version}, {"file", s.file}});
      }, "The file decoded: dict format (id), version (\"\" when the format has none), file; empty strings for a built scene.")
      .def("__repr__", [](const SceneData& d) {
        return "<animkit.Scene " + (d.format.empty() ? std::string("(built)") : d.format) + ", " +
               std::to_string(d.scene().skeleton.joints.size()) + " joints, " + std::to_string(d.scene().clips.size()) +
               " clips>";
      });
}

}  // namespace animkit::python
