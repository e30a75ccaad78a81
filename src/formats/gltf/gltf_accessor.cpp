// The glTF accessor reader: accessors as floats, every index, offset, stride and
// count checked against its buffer view and buffer before a byte is read.
#include <animkit/core/error.hpp>

#include "formats/gltf/gltf_internal.hpp"

#include <algorithm>

namespace animkit::gltf {

namespace {


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
    case TINYGLTF_TYPE_VEC2: return "VEC2";
    case TINYGLTF_TYPE_VEC3: return "VEC3";
    case TINYGLTF_TYPE_VEC4: return "VEC4";
    default: return "another type";
  }
}

// An unsigned component of size bytes (1, 2 or 4), little-endian.
uint32_t LoadUnsigned(const uint8_t* p, size_t size) { return size == 1 ? p[0] : size == 2 ? le::Load16(p) : le::Load32(p); }

// One component, little-endian; normalized integers map to [-1, 1] / [0, 1] as the spec says.
float DecodeComponent(const uint8_t* p, int component_type, bool normalized) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return le::LoadF32(p);
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      float v = static_cast<int8_t>(p[0]);
      return normalized ? std::max(v / 127.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0f : p[0];
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      float v = static_cast<int16_t>(le::Load16(p));
      return normalized ? std::max(v / 32767.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      float v = le::Load16(p);
      return normalized ? v / 65535.0f : v;
    }
    default: return static_cast<float>(le::Load32(p));
  }
}

// The accessor index names, checked to exist and to be of expected_type; name: how errors
// name it ("accessor 3 (what)").
const tinygltf::Accessor& AccessorOf(const tinygltf::Model& model, int index, int expected_type, const std::string& what,
                                     std::string& name) {
  if (index < 0 || static_cast<size_t>(index) >= model.accessors.size())
    gltf::Fail(what + " names accessor " + std::to_string(index) + ", which does not exist");
  const tinygltf::Accessor& a = model.accessors[size_t(index)];
  name = ElementName("accessor", index) + " (" + what + ")";
  if (a.type != expected_type) gltf::Fail(name + " must be " + TypeName(expected_type));
  return a;
}

}  // namespace

std::string ElementName(const char* kind, int index) { return std::string(kind) + " " + std::to_string(index); }

AccessorReader::AccessorReader(const tinygltf::Model& model, size_t file_size)
    : model_(model), zero_fill_limit_(std::max<size_t>(4096, file_size)) {}

// count * components floats. float_only rejects integer component types;
// otherwise integers must be normalized (rotation outputs).
std::vector<float> AccessorReader::Read(int index, int expected_type, bool float_only, const std::string& what) const {
  std::string name;
  const tinygltf::Accessor& a = AccessorOf(model_, index, expected_type, what, name);
  const int component_size = ComponentSize(a.componentType);
  if (component_size == 0 || a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    gltf::Fail(name + " has an unsupported component type " + std::to_string(a.componentType));
  const bool is_float = a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT;
  if (float_only && !is_float) gltf::Fail(name + " must hold floats (component type 5126)");
  if (!is_float && !a.normalized) gltf::Fail(name + " holds integers, which must be normalized");
  if (a.count == 0) gltf::Fail(name + " has count 0");
  const size_t components = static_cast<size_t>(ComponentCount(a.type));
  const size_t element_size = components * static_cast<size_t>(component_size);

  if (a.bufferView < -1) gltf::Fail(name + " names buffer view " + std::to_string(a.bufferView) + ", which does not exist");
  std::vector<float> out;
  if (a.bufferView < 0) {
    // No buffer view: zeros (then sparse values); bounded, as nothing in the file pays for it.
    if (a.count > zero_fill_limit_ / components) gltf::Fail(name + " has no buffer view and too many elements");
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

std::vector<uint32_t> AccessorReader::ReadUnsigned(int index, int expected_type, const std::string& what) const {
  std::string name;
  const tinygltf::Accessor& a = AccessorOf(model_, index, expected_type, what, name);
  const int size = ComponentSize(a.componentType);
  if (a.normalized || (a.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
                       a.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
                       a.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT))
    gltf::Fail(name + " must hold unsigned integers (5121, 5123 or 5125), not normalized");
  if (a.bufferView < 0 || a.sparse.isSparse) gltf::Fail(name + " must lie in a buffer view, without a sparse part");
  if (a.count == 0) return {};
  const size_t components = static_cast<size_t>(ComponentCount(a.type));
  size_t stride = 0;
  const uint8_t* base = View(a.bufferView, a.byteOffset, a.count, components * size_t(size), &stride, name);
  std::vector<uint32_t> out(a.count * components);
  for (size_t i = 0; i < a.count; ++i)
    for (size_t c = 0; c < components; ++c) {
      const uint8_t* p = base + i * stride + c * size_t(size);
      out[i * components + c] = LoadUnsigned(p, size_t(size));
    }
  return out;
}

// Start of count elements of element_size bytes at offset in a buffer view,
// after checking that all of them lie inside it.
const uint8_t* AccessorReader::View(int view_index, size_t offset, size_t count, size_t element_size, size_t* stride,
                                    const std::string& name) const {
  if (view_index < 0 || static_cast<size_t>(view_index) >= model_.bufferViews.size())
    gltf::Fail(name + " names buffer view " + std::to_string(view_index) + ", which does not exist");
  const tinygltf::BufferView& v = model_.bufferViews[view_index];
  const std::string view_name = ElementName("buffer view", view_index);
  if (v.buffer < 0 || static_cast<size_t>(v.buffer) >= model_.buffers.size())
    gltf::Fail(view_name + " names buffer " + std::to_string(v.buffer) + ", which does not exist");
  const size_t buffer_size = model_.buffers[v.buffer].data.size();
  if (v.byteOffset > buffer_size || v.byteLength > buffer_size - v.byteOffset)
    gltf::Fail(view_name + " (offset " + std::to_string(v.byteOffset) + ", length " + std::to_string(v.byteLength) +
         ") runs past the end of buffer " + std::to_string(v.buffer) + " (" + std::to_string(buffer_size) + " bytes)");
  *stride = v.byteStride ? v.byteStride : element_size;
  if (*stride < element_size) gltf::Fail(view_name + " has a byte stride smaller than the elements of " + name);
  if (offset > v.byteLength || element_size > v.byteLength - offset ||
      count - 1 > (v.byteLength - offset - element_size) / *stride)
    gltf::Fail(name + " (offset " + std::to_string(offset) + ", " + std::to_string(count) + " elements of " +
         std::to_string(element_size) + " bytes) runs past the end of " + view_name + " (" +
         std::to_string(v.byteLength) + " bytes)");
  return model_.buffers[v.buffer].data.data() + v.byteOffset + offset;
}

void AccessorReader::ApplySparse(const tinygltf::Accessor& a, size_t components, size_t element_size, int component_size,
                 std::vector<float>& out, const std::string& name) const {
  const int count = a.sparse.count;
  if (count <= 0 || static_cast<size_t>(count) > a.count) gltf::Fail(name + " has a sparse count out of range");
  if (a.sparse.indices.byteOffset < 0 || a.sparse.values.byteOffset < 0) gltf::Fail(name + " has a negative sparse offset");
  const int index_size = ComponentSize(a.sparse.indices.componentType);
  if (index_size == 0 || a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_BYTE ||
      a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_SHORT ||
      a.sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT)
    gltf::Fail(name + " has sparse indices of an unsupported component type");
  size_t stride = 0;
  const uint8_t* indices = View(a.sparse.indices.bufferView, static_cast<size_t>(a.sparse.indices.byteOffset),
                                static_cast<size_t>(count), static_cast<size_t>(index_size), &stride, name + " sparse indices");
  const size_t index_stride = static_cast<size_t>(index_size);  // sparse data is tightly packed
  const uint8_t* values = View(a.sparse.values.bufferView, static_cast<size_t>(a.sparse.values.byteOffset),
                               static_cast<size_t>(count), element_size, &stride, name + " sparse values");
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    const uint8_t* p = indices + i * index_stride;
    const uint32_t target = LoadUnsigned(p, index_stride);
    if (target >= a.count) gltf::Fail(name + " has sparse index " + std::to_string(target) + " past its count");
    for (size_t c = 0; c < components; ++c)
      out[target * components + c] =
          DecodeComponent(values + i * element_size + c * component_size, a.componentType, a.normalized);
  }
}

}  // namespace animkit::gltf
