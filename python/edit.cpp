// Scene.with_mesh(), Scene.without_mesh() and Scene.with_texture(): a scene with one mesh or
// image changed, as a new Scene (scenes are values), for save(template=) to write back.
#include "bindings.hpp"

#include <cstring>

namespace animkit::python {

namespace {

// The index of a mesh or texture named by its index or its name.
template <class T>
size_t Pick(const std::vector<T>& items, const py::object& which, const char* what) {
  if (py::isinstance<py::int_>(which)) {
    const auto i = which.cast<py::ssize_t>();
    if (i < 0 || static_cast<size_t>(i) >= items.size())
      throw py::index_error(std::string("no ") + what + " " + std::to_string(i) + " (the scene has " +
                            std::to_string(items.size()) + ")");
    return static_cast<size_t>(i);
  }
  const std::string name = which.cast<std::string>();
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return i;
  throw py::key_error(std::string("no ") + what + " named " + name);
}

// An (N, C) array given as any array-like of numbers, into N records of C elements.
template <class T, size_t C, class Record>
std::vector<Record> RecordsFrom(const py::object& rows, const char* what) {
  static_assert(sizeof(Record) == sizeof(T) * C);
  const auto a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(rows);
  if (!a || a.ndim() != 2 || a.shape(1) != static_cast<py::ssize_t>(C))
    throw py::value_error(std::string(what) + ": expected an (N, " + std::to_string(C) + ") array");
  std::vector<Record> out(static_cast<size_t>(a.shape(0)));
  if (!out.empty()) std::memcpy(static_cast<void*>(out.data()), a.data(), out.size() * sizeof(Record));
  return out;
}

template <class T, size_t C, class Record>
void Replace(std::vector<Record>& field, const py::object& rows, const char* what) {
  if (!rows.is_none()) field = RecordsFrom<T, C, Record>(rows, what);
}

// Every per-vertex array as long as positions, indices within them.
void CheckMesh(const Mesh& m) {
  const size_t n = m.positions.size();
  auto same = [&](size_t size, const char* what) {
    if (size != 0 && size != n)
      throw py::value_error("mesh " + m.name + ": " + what + " has " + std::to_string(size) + " rows for " +
                            std::to_string(n) + " positions");
  };
  same(m.normals.size(), "normals");
  same(m.uvs.size(), "uvs");
  same(m.colors.size(), "colors");
  same(m.joints.size(), "joints");
  same(m.weights.size(), "weights");
  if (m.joints.size() != m.weights.size()) throw py::value_error("mesh " + m.name + ": joints and weights differ in length");
  for (uint32_t i : m.triangles)
    if (i >= n) throw py::value_error("mesh " + m.name + ": an index names vertex " + std::to_string(i) + " of " + std::to_string(n));
}

std::shared_ptr<SceneData> Copy(const SceneData& d) { return std::make_shared<SceneData>(d); }

std::shared_ptr<SceneData> WithMesh(const std::shared_ptr<SceneData>& d, const py::object& which, const py::object& positions,
                                    const py::object& normals, const py::object& uvs, const py::object& colors,
                                    const py::object& joints, const py::object& weights, const py::object& indices) {
  auto out = Copy(*d);
  Mesh& m = out->decoded.scene.meshes[Pick(d->scene().meshes, which, "mesh")];
  Replace<float, 3>(m.positions, positions, "positions");
  Replace<float, 3>(m.normals, normals, "normals");
  Replace<float, 2>(m.uvs, uvs, "uvs");
  Replace<float, 4>(m.colors, colors, "colors");
  Replace<uint16_t, 4>(m.joints, joints, "joints");
  Replace<float, 4>(m.weights, weights, "weights");
  if (!indices.is_none()) {
    const auto triangles = RecordsFrom<uint32_t, 3, std::array<uint32_t, 3>>(indices, "indices");
    m.triangles.clear();
    for (const auto& t : triangles) m.triangles.insert(m.triangles.end(), t.begin(), t.end());
  }
  CheckMesh(m);
  return out;
}

std::shared_ptr<SceneData> WithoutMesh(const std::shared_ptr<SceneData>& d, const py::object& which) {
  auto out = Copy(*d);
  auto& meshes = out->decoded.scene.meshes;
  meshes.erase(meshes.begin() + static_cast<std::ptrdiff_t>(Pick(d->scene().meshes, which, "mesh")));
  return out;
}

std::shared_ptr<SceneData> WithTexture(const std::shared_ptr<SceneData>& d, const py::object& which, const py::object& pixels) {
  auto out = Copy(*d);
  Image& image = out->decoded.scene.textures[Pick(d->scene().textures, which, "texture")];
  const auto a = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(pixels);
  if (!a || a.ndim() != 3 || a.shape(2) != 4) throw py::value_error("pixels: expected an (H, W, 4) uint8 array");
  image.height = static_cast<uint32_t>(a.shape(0));
  image.width = static_cast<uint32_t>(a.shape(1));
  image.rgba.assign(a.data(), a.data() + a.size());
  image.missing.clear();
  return out;
}

}  // namespace

void BindEdits(py::class_<SceneData, std::shared_ptr<SceneData>>& scene) {
  scene
      .def("with_mesh", &WithMesh, py::arg("mesh"), py::kw_only(), py::arg("positions") = py::none(),
           py::arg("normals") = py::none(), py::arg("uvs") = py::none(), py::arg("colors") = py::none(),
           py::arg("joints") = py::none(), py::arg("weights") = py::none(), py::arg("indices") = py::none(),
           "A copy of the scene with mesh (an index or a name) changed: each array given replaces the mesh's "
           "(positions (N, 3), normals (N, 3), uvs (N, 2), colors (N, 4), joints (N, 4), weights (N, 4), "
           "indices (T, 3)); every per-vertex array must then have as many rows as positions.")
      .def("without_mesh", &WithoutMesh, py::arg("mesh"), "A copy of the scene without mesh (an index or a name).")
      .def("with_texture", &WithTexture, py::arg("texture"), py::arg("pixels"),
           "A copy of the scene with texture (an index or a name) given new pixels: (H, W, 4) uint8 RGBA, top row first.");
}

}  // namespace animkit::python
