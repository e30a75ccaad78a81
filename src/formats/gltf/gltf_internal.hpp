// Helpers shared by the glTF exporter, importer and format descriptor. Internal:
// only src/gltf includes this (it pulls in tiny_gltf.h).
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>
#include <animkit/core/limits.hpp>
#include <animkit/core/math.hpp>

#include <nlohmann/json.hpp>
#include <tiny_gltf.h>

#include "core/value_json.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace animkit {
struct Scene;
}

namespace animkit::gltf {

// The error of a glTF file that cannot be read.
[[noreturn]] inline void Fail(const std::string& message) { throw Error::General(message); }

// Name of the node the exporter puts joints without a parent under.
inline constexpr std::string_view kRootNodeName = "animkit_root";
// The root node's rotation that stands a scene up as glTF expects (+Y up): a quarter turn
// about X for a Z-up source (FormatDescriptor::up_axis "+Z": Metroid), none for the others.
// The joints and meshes under it keep the file's numbers; animkit's reader skips the root.
std::vector<double> UpTurn(const Scene& scene);
// Key of the object the exporter writes into extras.
inline constexpr const char* kExtrasKey = "animkit";
// Deepest JSON nesting accepted on import: tinygltf converts extras recursively,
// so unbounded nesting could exhaust the stack.
inline constexpr int kMaxJsonDepth = 64;

// True when json converts to a tinygltf::Value and back without loss: tinygltf
// drops nulls and writes empty arrays/objects as null, and stores integers as int.
bool IsValueRepresentable(const nlohmann::json& json);
// s with every byte that is not part of valid UTF-8 replaced by U+FFFD: names read
// from files need not be UTF-8, and tinygltf's JSON writer aborts on them.
std::string ValidUtf8(const std::string& s);
// Every name in model made valid UTF-8 (extras go through ToValue, which does the same).
void MakeNamesValidUtf8(tinygltf::Model& model);
// json must satisfy IsValueRepresentable (anything else is dropped or converted);
// strings and keys are made valid UTF-8.
tinygltf::Value ToValue(const nlohmann::json& json);

// The deepest array/object nesting in JSON text (strings skipped); stops
// counting once past limit.
int JsonDepth(std::string_view text, int limit);

// A parsed glTF or GLB. Throws animkit::Error for anything tinygltf rejects,
// for GLB framing errors and for JSON nested too deeply. External buffer files
// are read from the folder of path only (percent-decoded, normalised, symbolic
// links resolved; absolute, scheme and outside URIs refused), each at most its
// byteLength, itself at most limits.max_buffer_bytes.
tinygltf::Model LoadModel(ByteView data, const std::string& path, const Limits& limits = {});

// True when data starts with the GLB magic.
bool IsGlb(ByteView data);

// A FLOAT accessor of `components`-wide elements over data (bufferView and
// byteOffset are the caller's), with per-component min/max when min_max (the
// glTF rules ask for them on positions and animation inputs).
tinygltf::Accessor FloatAccessor(const std::vector<float>& data, int type, int components, bool min_max);

// Appends the scene's materials and textures, its meshes (rigid ones on their joint's node,
// static ones under root_node, skinned ones on scene roots with skin 0) and its clips'
// cameras (a camera node under root_node, animated in the clip's animation:
// model.animations[i] must be clip i's) to an exported model (gltf_mesh_export.cpp).
// Returns the images without pixels (null when none), for the asset's extras.
nlohmann::json AddMeshesAndCameras(tinygltf::Model& model, const Scene& scene, int root_node);

// Appends bytes (4-aligned) to buffer 0 as a new buffer view (target 0: none); its index.
int AppendBufferView(tinygltf::Model& model, const void* data, size_t bytes, int target);

// The scene's images (as PNG), textures and materials (gltf_material_export.cpp).
struct MaterialExport {
  std::vector<int> material_of;       // per Scene material: its glTF material
  std::vector<bool> textured;         // per Scene material: it has a base colour texture
  std::vector<int> texture_of_image;  // per Scene image: its glTF texture, -1 when it has no pixels
  nlohmann::json missing_images;      // null, or the images without pixels (asset extras)
};
MaterialExport AddMaterialsAndTextures(tinygltf::Model& model, const Scene& scene);

// A node's local transform (a matrix decomposed, shear dropped); Error when not finite
// (gltf_import.cpp).
TransformTRS NodeTransform(const tinygltf::Node& node, int index);

class AccessorReader;
// The meshes, materials and textures of a glTF into scene (gltf_mesh_import.cpp): parents
// per node (-1: a root), node_joint per node its joint in scene.skeleton (-1: none),
// asset_extras the asset's extras.animkit ({} when another program wrote the file).
void ImportMeshes(const tinygltf::Model& model, const AccessorReader& reader, const std::vector<int>& parents,
                  const std::vector<int>& node_joint, const nlohmann::json& asset_extras, const Limits& limits,
                  Scene& scene);

// Cameras (gltf_camera.cpp). A glTF camera looks down its -Z with +Y up; up is the
// source's -Y (the PS1's Y points down), +Z when looking along Y; roll turns the camera
// about its Z axis. CameraRotation: the rotation of a camera at eye looking at target.
QuatXYZW CameraRotation(Vec3 eye, Vec3 target, float roll);
float Distance(Vec3 a, Vec3 b);
// The inverse: the point distance ahead of a camera at eye with rotation q, and its roll.
struct CameraAim {
  Vec3 target;
  float roll = 0;
};
CameraAim AimOf(Vec3 eye, QuatXYZW rotation, float distance);

// A sampler (input times, output values, interpolation) and the channel driving
// node's path ("translation", "rotation", ...) with it.
void AddSampledChannel(tinygltf::Animation& animation, int input, int output, const char* interpolation, int node,
                       const char* path);

// "accessor 3", "node 0": how errors name a glTF element.
std::string ElementName(const char* kind, int index);

// Reads accessors as floats with every offset checked against its buffer (gltf_accessor.cpp).
class AccessorReader {
 public:
  // file_size bounds the zeros an accessor without a buffer view may ask for.
  AccessorReader(const tinygltf::Model& model, size_t file_size);
  // count * components floats. float_only rejects integer component types;
  // otherwise integers must be normalized (rotation outputs).
  std::vector<float> Read(int index, int expected_type, bool float_only, const std::string& what) const;
  // count * components unsigned integers (unsigned byte, short or int, not normalized, in a
  // buffer view, no sparse part): indices, JOINTS_0.
  std::vector<uint32_t> ReadUnsigned(int index, int expected_type, const std::string& what) const;

 private:
  const uint8_t* View(int view_index, size_t offset, size_t count, size_t element_size, size_t* stride,
                      const std::string& name) const;
  void ApplySparse(const tinygltf::Accessor& a, size_t components, size_t element_size, int component_size,
                   std::vector<float>& out, const std::string& name) const;

  const tinygltf::Model& model_;
  size_t zero_fill_limit_;
};

}  // namespace animkit::gltf
