// The animkit Python module (docs/python.md): a thin shell over the library. Every
// decision (format detection, the skeleton rule, limits, sampling, encoding, batch
// conversion) is the library's; these files turn arguments into library calls and
// results into Python objects. Declarations shared by python/*.cpp.
#pragma once

#include <animkit/animkit.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace animkit::python {

namespace py = pybind11;

// Releases the GIL for the C++ work of a call (reading, parsing, decoding, encoding,
// sampling, writing, batch conversion). Each section entered without the GIL is
// counted, so that a test can check that a call released it (_released_sections()).
class NoGil {
 public:
  NoGil();
  NoGil(const NoGil&) = delete;
  NoGil& operator=(const NoGil&) = delete;

 private:
  py::gil_scoped_release release_;
};
uint64_t ReleasedSections();

// A scene holding a skeleton alone (a skeleton given as the reference of a load).
inline Scene SkeletonScene(const Skeleton& skeleton) {
  Scene scene;
  scene.skeleton = skeleton;
  return scene;
}

// ---- Python values (values.cpp) ----

// Text from a file need not be UTF-8: invalid bytes become U+FFFD (as in the CLI's JSON).
py::str Text(const std::string& s);
// animkit::Value as plain Python: None, bool, int, float, str, list, dict. AsNone turns
// NaN and infinities into None, as the CLI's JSON prints them (null): info().
enum class NonFinite { AsFloat, AsNone };
py::object ToPython(const Value& v, NonFinite non_finite = NonFinite::AsFloat);
py::dict EventToPython(const Event& e);
Event EventFromPython(const py::handle& h);
// A path given as str, bytes or os.PathLike, in the file system's encoding, and back.
std::string PathArg(const py::handle& path);
py::object PathToPython(const std::string& path);
// A skeleton argument given as a word or path (SkeletonSource's): None is the library's
// default (the companion, "auto"), False or "none" no skeleton file, else a path.
std::string SkeletonWord(const py::handle& skeleton);
// Keyword arguments: format options by name (`_` for `-`: euler="zyx", canm_version=768,
// raw=True) and the limits (max_frames=...). Unknown names and bad values raise the
// library's error.
Options OptionsFrom(const py::kwargs& kwargs);

// ---- Loaded files and decoded scenes (file.cpp, scene.cpp) ----

struct SceneData;

// animkit.File: a file read and parsed by its format, with what load() was given.
struct FileData {
  LoadedFile loaded;
  Options options;
  std::string format_given;  // format= as given ("" when detected)
  bool from_bytes = false;
  // The skeleton as given to load(): a word or path (skeleton_path: "" the companion,
  // "none", "auto", a path), a loaded file or a decoded scene.
  std::string skeleton_path;
  std::shared_ptr<const FileData> skeleton_file;
  std::shared_ptr<const SceneData> skeleton_scene;

  // This file decoded on its own (no skeleton), as a reference for other files; decoded
  // once, on first use (LoadReference's rule: DecodeDocument without a reference).
  std::shared_ptr<const Scene> AsReference() const;

 private:
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const Scene> reference_;
};

// animkit.Scene: a decoded file (DecodeWithSkeleton) or one built from clips.
struct SceneData {
  std::string path;    // the file it was decoded from ("" when built)
  std::string format;  // its format id ("" when built)
  DecodedScene decoded;
  std::shared_ptr<const Scene> shared_reference;  // what decoded.shared points to, kept alive
  Limits limits;                                  // the limits sampling checks (the file's options)

  const Scene& scene() const { return decoded.scene; }
  const Skeleton& rest() const { return decoded.rest(); }
  const Scene* reference() const { return decoded.reference_used(); }
};

// animkit.Clip: one clip of a scene.
struct ClipRef {
  std::shared_ptr<const SceneData> owner;
  size_t index = 0;
  const Clip& clip() const { return owner->scene().clips[index]; }
};

// animkit.Skeleton: joints with parents and rest poses (a copy).
struct SkeletonData {
  Skeleton skeleton;
};

// A scene of clips built in Python (Scene(...), Clip.from_arrays): no file, no reference.
std::shared_ptr<SceneData> BuiltScene(Scene scene);
// The scene a skeleton argument stands for: a path (decoded as --skeleton decodes it), a
// File, a Scene or a Skeleton; nullptr for None.
std::shared_ptr<const Scene> ReferenceFrom(const py::handle& skeleton, const Options& options);

// What sample(), world() and skin() sample: the clip's own frames, or those from 0 to its
// duration at rate (> 0), with the scene's rest pose for unkeyed joints (the request
// `animkit sample [--rate R]` makes); the frame count checked against the limits as the
// CLI checks them, before any array is made.
struct Frames {
  SampleRequest request;
  size_t count = 0;
};
Frames FramesOf(const ClipRef& c, const std::optional<double>& rate);

// ---- Meshes, materials and textures (mesh.cpp) ----
py::list MeshesOf(const std::shared_ptr<SceneData>& d);
py::list MaterialsOf(const std::shared_ptr<SceneData>& d);
py::list TexturesOf(const std::shared_ptr<SceneData>& d);
py::list SkinClip(const ClipRef& c, const std::optional<size_t>& frame, const std::optional<double>& rate);

// ---- Bindings, one function per source file ----
void BindMeshes(py::module_& m);
void BindErrors(py::module_& m);
void BindFile(py::module_& m);
void BindScene(py::module_& m);
// Scene.with_mesh() and the other edits (edit.cpp), on the Scene class BindScene makes.
void BindEdits(py::class_<SceneData, std::shared_ptr<SceneData>>& scene);
void BindWrite(py::module_& m);
void BindRetarget(py::module_& m);  // retarget() and bone_map() (retarget.cpp)
void BindBench(py::module_& m);  // timing hooks for bench/python_decode.py

}  // namespace animkit::python
