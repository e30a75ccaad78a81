// animkit.retarget() and animkit.bone_map(): the library's RetargetScenes, AutoBoneMap and
// ReadBoneMap on decoded scenes (docs/python.md). The rule and the map live in the library.
#include "bindings.hpp"

#include <animkit/formats/registry.hpp>
#include <animkit/offline/bone_map.hpp>
#include <animkit/pipeline/retarget.hpp>

namespace animkit::python {

namespace {

// A scene argument: a decoded Scene, or a File decoded as File.decode() decodes it.
std::shared_ptr<const SceneData> SceneArg(const py::handle& what, const char* name) {
  if (py::isinstance<SceneData>(what)) return what.cast<std::shared_ptr<SceneData>>();
  if (py::isinstance<FileData>(what)) return what.attr("decode")().cast<std::shared_ptr<SceneData>>();
  throw py::type_error(std::string(name) + " is an animkit.Scene or an animkit.File");
}

// What a retarget or a map reads of its two scenes: the target as a rig, the source's skeleton.
struct Pair {
  std::shared_ptr<const SceneData> source, target;
  Scene rig;
  SourceSkeleton source_skeleton;
  std::shared_ptr<Scene> source_rig;  // what a File source without a skeleton was decoded against again
};

Pair PairOf(const py::handle& source, const py::handle& target) {
  Pair p{SceneArg(source, "source"), SceneArg(target, "target"), {}, {}, {}};
  p.rig = TargetRig(p.target->scene(), p.target->reference(), p.target->path.empty() ? "target" : p.target->path);
  p.source_skeleton = SourceSkeletonFor(p.source->scene(), p.source->reference(), p.rig);
  if (py::isinstance<FileData>(source)) {  // the library's rule: decoded again against those joints
    const FileData& f = source.cast<const FileData&>();
    if (std::optional<DecodedScene> again = DecodeSourceAgainst(f.loaded, p.source_skeleton, p.target->path, f.options, p.source_rig)) {
      auto d = std::make_shared<SceneData>();
      d->path = p.source->path;
      d->format = p.source->format;
      d->limits = p.source->limits;
      d->decoded = std::move(*again);
      p.source = d;
    }
  }
  return p;
}

// The map argument: "auto" or a path (BoneMapFor), or a dict {target: source or None} read as
// the JSON object a map file holds.
BoneMap MapArg(const py::handle& map, const Pair& p) {
  if (py::isinstance<py::dict>(map)) {
    Value text = Value::object();
    for (const auto& [key, value] : map.cast<py::dict>()) {
      const std::string target = key.cast<std::string>();
      text[target] = value.is_none() ? Value(nullptr) : Value(value.cast<std::string>());
    }
    return ReadBoneMap(DumpJson(text), "map", p.rig.skeleton, p.source_skeleton.skeleton);
  }
  const std::string path = py::isinstance<py::str>(map) ? map.cast<std::string>() : PathArg(map);
  return BoneMapFor(path, p.rig.skeleton, p.source_skeleton.skeleton);
}

const FormatDescriptor* FormatOf(const SceneData& d) {
  return d.scene().source.format.empty() ? nullptr : FindFormat(d.scene().source.format);
}

std::vector<size_t> ClipsArg(const py::handle& clips, const Scene& source) {
  std::vector<size_t> out;
  if (clips.is_none()) return out;
  for (const py::handle& c : clips.cast<py::iterable>()) {
    if (py::isinstance<py::int_>(c)) {
      const auto i = c.cast<int64_t>();
      if (i < 0 || static_cast<uint64_t>(i) >= source.clips.size())
        throw py::index_error("clip " + std::to_string(i) + ": the source has " + std::to_string(source.clips.size()) + " clips");
      out.push_back(static_cast<size_t>(i));
      continue;
    }
    const std::string name = c.cast<std::string>();
    size_t i = 0;
    while (i < source.clips.size() && source.clips[i].name != name) ++i;
    if (i == source.clips.size()) throw py::key_error("no clip '" + name + "' in the source");
    out.push_back(i);
  }
  if (out.empty()) throw py::value_error("clips is empty: None retargets every clip");
  return out;
}

std::shared_ptr<SceneData> Retarget(const py::object& source, const py::object& target, const py::object& map,
                                    const py::object& clips, const std::optional<float>& translation_scale,
                                    const std::optional<std::string>& source_axes, const std::optional<std::string>& target_axes) {
  const Pair p = PairOf(source, target);
  const BoneMap bone_map = MapArg(map, p);
  RetargetScenes job{&p.source->scene(), &p.source_skeleton.skeleton, FormatOf(*p.source), &p.rig, FormatOf(*p.target),
                     &bone_map, ClipsArg(clips, p.source->scene()), source_axes.value_or(""), target_axes.value_or(""),
                     translation_scale, p.source->limits};
  Scene out;
  {
    NoGil released;
    out = job.Run();
  }
  auto d = BuiltScene(std::move(out));
  d->limits = p.source->limits;
  return d;
}

py::dict MapOf(const py::object& target, const py::object& source) {
  const Pair p = PairOf(source, target);
  const BoneMap bone_map = AutoBoneMap(p.rig.skeleton, p.source_skeleton.skeleton);
  py::dict map, matched_by;
  for (size_t k = 0; k < p.rig.skeleton.joints.size(); ++k) {
    const py::str name = Text(p.rig.skeleton.joints[k].name);
    const int j = bone_map.source_of[k];
    map[name] = j < 0 ? py::object(py::none()) : py::object(Text(p.source_skeleton.skeleton.joints[static_cast<size_t>(j)].name));
    matched_by[name] = std::string(ToString(bone_map.match[k]));
  }
  py::dict out;
  out["map"] = map;
  out["matched_by"] = matched_by;
  out["source_joints"] = [&] {
    py::list names;
    for (const Joint& joint : p.source_skeleton.skeleton.joints) names.append(Text(joint.name));
    return names;
  }();
  out["source_skeleton_note"] = p.source_skeleton.note;
  return out;
}

}  // namespace

void BindRetarget(py::module_& m) {
  m.def("retarget", &Retarget, py::arg("source"), py::arg("target"), py::arg("map") = "auto", py::arg("clips") = py::none(),
        py::arg("translation_scale") = py::none(), py::arg("source_axes") = py::none(), py::arg("target_axes") = py::none(),
        "retarget(source, target, map='auto', clips=None, translation_scale=None, source_axes=None, target_axes=None) -> Scene\n\n"
        "The source's clips replayed on the target's skeleton (`animkit retarget`, docs/retarget.md): a Scene with the "
        "target's skeleton, meshes and materials and one clip per source clip. source, target: Scenes or Files (decoded). "
        "map: 'auto', a path to a JSON or CSV map, or a dict {target joint: source joint or None}. clips: indices or "
        "names (None: every clip). translation_scale: the root's travel factor (None: the root height ratio). "
        "source_axes / target_axes: 'UP,FORWARD' such as '+Z,+Y' (None: the format's).");
  m.def("bone_map", &MapOf, py::arg("target"), py::arg("source"),
        "bone_map(target, source) -> dict\n\n"
        "The automatic map (`retarget --map auto`): {'map': {target joint: source joint or None}, 'matched_by': "
        "{target joint: 'exact' | 'normalised' | 'hierarchy' | 'none'}, 'source_joints': [names], "
        "'source_skeleton_note': str}. Edit 'map' and pass it to retarget(map=).");
}

}  // namespace animkit::python
