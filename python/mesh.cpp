// animkit.Mesh, animkit.Material, animkit.Image: a scene's geometry as NumPy arrays, and
// Clip.skin(): the meshes deformed by the library's own skinning (ClipMeshPose).
#include "bindings.hpp"

#include <cstring>

namespace animkit::python {

namespace {

struct MeshRef {
  std::shared_ptr<const SceneData> owner;
  size_t index = 0;
  const Mesh& mesh() const { return owner->scene().meshes[index]; }
};
struct MaterialRef {
  std::shared_ptr<const SceneData> owner;
  size_t index = 0;
  const Material& material() const { return owner->scene().materials[index]; }
};
struct ImageRef {
  std::shared_ptr<const SceneData> owner;
  size_t index = 0;
  const Image& image() const { return owner->scene().textures[index]; }
};

// An (N, C) array of T copied from N records of C elements each (Vec3 or std::array).
template <class T, size_t C, class Record>
py::array_t<T> Rows(const std::vector<Record>& records) {
  static_assert(sizeof(Record) == sizeof(T) * C);
  py::array_t<T> out({static_cast<py::ssize_t>(records.size()), static_cast<py::ssize_t>(C)});
  if (!records.empty()) std::memcpy(out.mutable_data(), records.data(), records.size() * sizeof(Record));
  return out;
}

template <class T, size_t C, class Record>
py::object RowsOrNone(const std::vector<Record>& records) {
  return records.empty() ? py::object(py::none()) : py::object(Rows<T, C>(records));
}

// The getter of a mesh's optional per-vertex array: its RowsOrNone.
template <class T, size_t C, class Record>
auto OptionalRows(std::vector<Record> Mesh::*rows) {
  return [rows](const MeshRef& r) { return RowsOrNone<T, C>(r.mesh().*rows); };
}

// Flat indices as an (N / C, C) array.
py::array_t<uint32_t> Grouped(const std::vector<uint32_t>& flat, size_t per) {
  py::array_t<uint32_t> out({static_cast<py::ssize_t>(flat.size() / per), static_cast<py::ssize_t>(per)});
  if (!flat.empty()) std::memcpy(out.mutable_data(), flat.data(), flat.size() / per * per * sizeof(uint32_t));
  return out;
}

py::object IndexOrNone(int index, size_t count) {
  return index >= 0 && static_cast<size_t>(index) < count ? py::object(py::int_(index)) : py::object(py::none());
}

py::object MaterialOf(const MeshRef& m) {
  const size_t count = m.owner->scene().materials.size();
  if (IndexOrNone(m.mesh().material, count).is_none()) return py::none();
  return py::cast(MaterialRef{m.owner, static_cast<size_t>(m.mesh().material)});
}

py::object TextureOf(const MaterialRef& m) {
  const size_t count = m.owner->scene().textures.size();
  if (IndexOrNone(m.material().texture, count).is_none()) return py::none();
  return py::cast(ImageRef{m.owner, static_cast<size_t>(m.material().texture)});
}

const char* AlphaName(AlphaMode mode) {
  return mode == AlphaMode::Mask ? "mask" : mode == AlphaMode::Blend ? "blend" : "opaque";
}

py::object Pixels(const Image& image) {
  if (image.Missing()) return py::none();
  py::array_t<uint8_t> out({static_cast<py::ssize_t>(image.height), static_cast<py::ssize_t>(image.width), py::ssize_t{4}});
  std::memcpy(out.mutable_data(), image.rgba.data(), image.rgba.size());
  return out;
}

}  // namespace

py::list MeshesOf(const std::shared_ptr<SceneData>& d) {
  py::list out;
  for (size_t i = 0; i < d->scene().meshes.size(); ++i) out.append(MeshRef{d, i});
  return out;
}

py::list MaterialsOf(const std::shared_ptr<SceneData>& d) {
  py::list out;
  for (size_t i = 0; i < d->scene().materials.size(); ++i) out.append(MaterialRef{d, i});
  return out;
}

py::list TexturesOf(const std::shared_ptr<SceneData>& d) {
  py::list out;
  for (size_t i = 0; i < d->scene().textures.size(); ++i) out.append(ImageRef{d, i});
  return out;
}

py::list SkinClip(const ClipRef& c, const std::optional<size_t>& frame, const std::optional<double>& rate) {
  const Frames frames = FramesOf(c, rate);
  if (frame && *frame >= frames.count)
    throw py::index_error("frame " + std::to_string(*frame) + " of a clip of " + std::to_string(frames.count) + " frames");
  const std::vector<Mesh>& meshes = c.owner->scene().meshes;
  std::vector<py::array_t<float>> arrays;
  std::vector<float*> data;
  for (const Mesh& mesh : meshes) {
    const auto v = static_cast<py::ssize_t>(mesh.positions.size());
    arrays.push_back(frame ? py::array_t<float>({v, py::ssize_t{3}})
                           : py::array_t<float>({static_cast<py::ssize_t>(frames.count), v, py::ssize_t{3}}));
    data.push_back(arrays.back().mutable_data());
  }
  {
    NoGil released;
    ClipMeshPose skinning(c.clip(), c.owner->rest(), meshes);
    ForEachSampleFrame(c.clip(), frames.request, [&](size_t f, std::span<const TransformTRS> pose, std::span<const bool>) {
      if (frame && f != *frame) return;
      skinning.Compose(pose);
      for (size_t m = 0; m < meshes.size(); ++m) {
        const std::span<const Vec3> p = skinning.positions(m);
        std::memcpy(data[m] + (frame ? 0 : f * p.size() * 3), p.data(), p.size() * sizeof(Vec3));
      }
    });
  }
  py::list out;
  for (auto& a : arrays) out.append(std::move(a));
  return out;
}

void BindMeshes(py::module_& m) {
  py::class_<ImageRef>(m, "Image", "A texture decoded to 8-bit RGBA, or one the model names but animkit could not read.")
      .def_property_readonly("name", [](const ImageRef& i) { return Text(i.image().name); })
      .def_property_readonly("width", [](const ImageRef& i) { return i.image().width; })
      .def_property_readonly("height", [](const ImageRef& i) { return i.image().height; })
      .def_property_readonly("format", [](const ImageRef& i) { return i.image().source_format; },
                             "How the file stored it ('TIM2 8-bit indexed', 'BC1', ...).")
      .def_property_readonly("pixels", [](const ImageRef& i) { return Pixels(i.image()); },
                             "uint8 (height, width, 4) RGBA, rows top to bottom; None when missing.")
      .def_property_readonly("missing", [](const ImageRef& i) {
        return i.image().Missing() ? py::object(py::str(i.image().missing)) : py::object(py::none());
      }, "Why there are no pixels (None when there are).")
      .def("__repr__", [](const ImageRef& i) {
        const Image& image = i.image();
        return "<animkit.Image '" + image.name + "' " +
               (image.Missing() ? "missing: " + image.missing
                                : std::to_string(image.width) + "x" + std::to_string(image.height)) + ">";
      });

  py::class_<MaterialRef>(m, "Material", "How a mesh looks: a base colour, optionally times a texture.")
      .def_property_readonly("name", [](const MaterialRef& r) { return Text(r.material().name); })
      .def_property_readonly("base_color", [](const MaterialRef& r) {
        const auto& c = r.material().base_color;
        return py::make_tuple(c[0], c[1], c[2], c[3]);
      }, "Linear RGBA.")
      .def_property_readonly("texture_index", [](const MaterialRef& r) {
        return IndexOrNone(r.material().texture, r.owner->scene().textures.size());
      }, "Index into Scene.textures, None when untextured.")
      .def_property_readonly("texture", &TextureOf, "The animkit.Image, None when untextured.")
      .def_property_readonly("alpha", [](const MaterialRef& r) { return AlphaName(r.material().alpha); },
                             "'opaque', 'mask' or 'blend'.")
      .def_property_readonly("alpha_cutoff", [](const MaterialRef& r) { return r.material().alpha_cutoff; })
      .def_property_readonly("double_sided", [](const MaterialRef& r) { return r.material().double_sided; })
      .def_property_readonly("metadata", [](const MaterialRef& r) { return ToPython(r.material().metadata); })
      .def("__repr__", [](const MaterialRef& r) { return "<animkit.Material '" + r.material().name + "'>"; });

  py::class_<MeshRef>(m, "Mesh", "A mesh as NumPy arrays: skinned (joints, weights), rigid (joint) or static.")
      .def_property_readonly("name", [](const MeshRef& r) { return Text(r.mesh().name); })
      .def_property_readonly("skinned", [](const MeshRef& r) { return r.mesh().Skinned(); })
      .def_property_readonly("joint", [](const MeshRef& r) {
        return r.mesh().joint >= 0 ? py::object(py::int_(r.mesh().joint)) : py::object(py::none());
      }, "A rigid mesh's joint (its positions are in that joint's space); None otherwise.")
      .def_property_readonly("positions", [](const MeshRef& r) { return Rows<float, 3>(r.mesh().positions); },
                             "float32 (V, 3); a skinned mesh's in model space at the bind (rest) pose.")
      .def_property_readonly("normals", OptionalRows<float, 3>(&Mesh::normals), "float32 (V, 3) or None.")
      .def_property_readonly("uvs", OptionalRows<float, 2>(&Mesh::uvs),
                             "float32 (V, 2) or None: u right, v down from the image's top row (glTF's).")
      .def_property_readonly("colors", OptionalRows<float, 4>(&Mesh::colors), "float32 (V, 4) linear RGBA or None.")
      .def_property_readonly("joints", OptionalRows<uint16_t, 4>(&Mesh::joints),
                             "uint16 (V, 4) skeleton joint indices, or None when not skinned.")
      .def_property_readonly("weights", OptionalRows<float, 4>(&Mesh::weights),
                             "float32 (V, 4), each row summing to 1, or None when not skinned.")
      .def_property_readonly("indices", [](const MeshRef& r) { return Grouped(r.mesh().triangles, 3); },
                             "uint32 (T, 3) triangles.")
      .def_property_readonly("lines", [](const MeshRef& r) { return Grouped(r.mesh().lines, 2); }, "uint32 (L, 2).")
      .def_property_readonly("material_index", [](const MeshRef& r) {
        return IndexOrNone(r.mesh().material, r.owner->scene().materials.size());
      }, "Index into Scene.materials, None when none.")
      .def_property_readonly("material", &MaterialOf, "The animkit.Material, None when none.")
      .def_property_readonly("texture", [](const MeshRef& r) {
        const py::object material = MaterialOf(r);
        return material.is_none() ? material : TextureOf(material.cast<const MaterialRef&>());
      }, "The material's animkit.Image, None when none.")
      .def_property_readonly("metadata", [](const MeshRef& r) { return ToPython(r.mesh().metadata); })
      .def("__repr__", [](const MeshRef& r) {
        const Mesh& mesh = r.mesh();
        return "<animkit.Mesh '" + mesh.name + "': " + std::to_string(mesh.positions.size()) + " vertices, " +
               std::to_string(mesh.triangles.size() / 3) + " triangles" + (mesh.Skinned() ? ", skinned>" : ">");
      });
}

}  // namespace animkit::python
