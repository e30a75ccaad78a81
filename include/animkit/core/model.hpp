// The common animation model every format decodes to and encodes from.
// Time is in seconds (type Seconds), rotations are QuatXYZW, transforms are local
// (parent-relative) unless a Clip says Space::Model.
#pragma once

#include <animkit/core/math.hpp>
#include <animkit/core/value.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

using Seconds = float;

struct Joint {
  std::string name;
  int parent = -1;     // index into Skeleton::joints, -1 for a root
  TransformTRS rest;   // local (parent-relative) rest pose
};

// A joint the file knows only by a number (a bone id, an object index) is named "#N",
// N in decimal; encoders map such a name back to that number.
std::string NumberedJointName(uint64_t number);
// N of a "#N" name: '#' then decimal digits only, fitting 64 bits; nullopt for any other name.
std::optional<uint64_t> ParseNumberedJointName(std::string_view name);

struct Skeleton {
  std::vector<Joint> joints;  // parents come before their children
  int Find(std::string_view name) const;  // -1 when absent
  bool ParentsFirst() const;               // every joint after its parent (what composing needs)
  bool empty() const { return joints.empty(); }
};

enum class Interpolation { Step, Linear, Hermite };

// Keys of one property. Hermite keys carry tangents as derivatives per second
// (dvalue/dt, as glTF CUBICSPLINE stores them); step and linear leave them empty.
template <class T>
struct Track {
  Interpolation interpolation = Interpolation::Linear;
  std::vector<Seconds> times;
  std::vector<T> values;
  std::vector<T> in_tangents;
  std::vector<T> out_tangents;
  bool empty() const { return times.empty(); }
  size_t size() const { return times.size(); }
  // Appends a key (times and values stay the same length).
  void Add(Seconds time, const T& value) {
    times.push_back(time);
    values.push_back(value);
  }
};

enum class Space { Local, Model };

// How a joint's model transform follows its parent's (docs/conventions.md): Matrix is
// glTF's parent_model * local; PerAxis keeps scale along each joint's own axes and never
// shears (ComposePerAxis in core/math.hpp: KH2's engine). Local tracks are in the clip's rule.
enum class ScaleInheritance { Matrix, PerAxis };

struct JointTrack {
  std::string joint;  // joint name, or NumberedJointName(N) with N the file's own bone id
  Track<Vec3> translation;
  Track<QuatXYZW> rotation;
  Track<Vec3> scale;
  // Per-frame visibility (frame i at i / frame_rate); empty means always visible.
  std::vector<bool> visible;
};

struct Event {
  Seconds time = 0;
  std::string name;
  std::vector<double> params;
  std::optional<Seconds> end_time;  // set for range events
};

// An animated camera: where it is, what it looks at, its roll about the view
// direction and its vertical field of view, one value per key time. Cameras belong to
// the clip that animates them (Clip::cameras), so they share its timing and name.
struct CameraTrack {
  std::string name;
  Interpolation interpolation = Interpolation::Step;
  std::vector<Seconds> times;
  std::vector<Vec3> positions;  // eye position, in the source's units and axes
  std::vector<Vec3> targets;    // the point looked at
  std::vector<float> roll;      // radians about the view direction; empty means 0
  std::vector<float> yfov;      // vertical field of view in radians; empty when unknown
  Value metadata = Value::object();  // raw values the source could not convert
};

// An additive clip (docs/conventions.md, "Additive clips"): its keys are deltas, identity
// (no translation, no turn) meaning no change, composed over a base pose: per joint
// rotation = base * slerp(identity, delta, weight), translation = base + weight * delta
// (the base's alone when rotation_only), scale the base's. A property the clip does not
// key is no change. ClipModelPose composes it (over the rest pose, or another clip's pose).
struct Additive {
  std::string reference;        // the base it is made for: "" the rest pose, else a clip's name
  bool rotation_only = false;   // only rotations add; translations are the base's (Metroid, §7.6)
  Seconds fade_in = 0;          // seconds the game takes to bring its weight up; 0: at once
  Seconds fade_out = 0;         // seconds it takes to bring it down to 0; 0: at once
};

// The joint whose motion the game moves the character by (Metroid's VAdvanceView), and the
// up axis of the clip's space: RootMotionJob (offline/root_motion.hpp) gives its per-frame
// deltas, ExtractRootMotion moves its travel on the ground plane (normal to up) and its
// turn about up into a joint above it (docs/conventions.md, "Root motion").
struct RootMotion {
  std::string joint;     // as JointTrack::joint names it
  Vec3 up{0, 1, 0};      // unit
};

// Timing: frame i of the file is at i / frame_rate seconds; frame_count frames span
// [0, duration]. SetFrames keeps the three consistent (duration = time of the last
// frame); a format whose file stores its own duration (Metroid ANIM, a text ANM set cut
// from a timeline) sets duration from the file after it.
struct Clip {
  std::string name;
  double frame_rate = 30;   // frames per second of the file's own frames
  size_t frame_count = 0;   // frame i is at time i / frame_rate
  Seconds duration = 0;     // seconds
  bool loop = false;
  Space space = Space::Local;
  ScaleInheritance scale_inheritance = ScaleInheritance::Matrix;
  std::vector<JointTrack> tracks;  // in the file's own joint order
  std::vector<Event> events;
  std::vector<CameraTrack> cameras;  // animated cameras (PS1 ANC)
  std::optional<Additive> additive;  // set: the keys are deltas over a base pose
  std::optional<RootMotion> root_motion;  // set: the game moves the character by this joint
  Value metadata = Value::object();  // source format, raw header fields

  const JointTrack* FindTrack(std::string_view joint) const;
  // Sets frame_count and frame_rate, and duration to the last frame's time (0 when
  // there are fewer than two frames or the rate is not positive).
  void SetFrames(size_t count, double rate);
};

// Whether two clips have the same timing and keys, joint by joint (values within 1e-5 of
// each other, relatively; a quaternion and its negation alike): an input clip equal to the
// template's own is unedited, and a writer into the template keeps its bytes.
bool SameKeys(const Clip& a, const Clip& b);

// Geometry of a scene. Rigid (joint >= 0): it moves with that joint and its vertices are in
// the joint's space. Skinned (`joints` and `weights` set, joint = -1): its vertices are in
// model space at the bind pose, the skeleton's rest pose (Mat4 of each joint's rest model
// transform; glTF's inverse bind matrices are their inverses), and vertex v follows
// sum_k weights[v][k] * posed_model[j] * inverse(rest_model[j]) with j = joints[v][k]
// (linear blend skinning: offline/skinning.hpp), a vertex of more than 4 bones over every
// influence its metadata lists (kMeshInfluencesKey). Static (joint = -1, no weights): scene space.
// Vertex colours are linear RGBA 0..1; normals unit length; uvs as glTF's TEXCOORD_0 (u right,
// v down from the image's top row). Triangles and lines index positions.
struct Mesh {
  std::string name;
  int joint = -1;  // rigid: index into Skeleton::joints; -1: static or skinned
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;                 // empty or one per position
  std::vector<std::array<float, 2>> uvs;     // empty or one per position
  std::vector<std::array<float, 4>> colors;  // empty or one per position
  std::vector<std::array<uint16_t, 4>> joints;  // skinned: one per position, into Skeleton::joints
  std::vector<std::array<float, 4>> weights;    // skinned: one per position, summing to 1
  std::vector<uint32_t> triangles;           // 3 indices each
  std::vector<uint32_t> lines;               // 2 indices each
  int material = -1;                         // index into Scene::materials; -1: none
  Value metadata = Value::object();          // the source's own fields (group index, flags)
  bool Skinned() const { return !weights.empty(); }
};

// A decoded texture: 8-bit RGBA, rows top to bottom (sRGB colour, straight alpha). An image
// the model names but animkit could not find or decode keeps its name, no pixels, and says
// why in `missing`.
struct Image {
  std::string name;
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, or empty when missing
  std::string source_format;  // how the file stored it ("TIM2 8-bit indexed", "BC1")
  std::string missing;        // why there are no pixels; empty when there are
  bool Missing() const { return rgba.empty(); }
};

// How a mesh looks: a base colour, optionally times a texture.
enum class AlphaMode { Opaque, Mask, Blend };
struct Material {
  std::string name;
  int texture = -1;  // index into Scene::textures; -1: none
  std::array<float, 4> base_color{1, 1, 1, 1};  // linear RGBA
  AlphaMode alpha = AlphaMode::Opaque;
  float alpha_cutoff = 0.5f;  // Mask only
  bool double_sided = true;   // game winding conventions differ; both faces by default
  Value metadata = Value::object();
};

// The file a scene was decoded from, filled by the pipeline's DecodeDocument; empty for a
// scene built in code. Unlike metadata it is not written to glTF extras (but for the
// skeleton used, which is not read back): a scene read back from a glTF says "gltf" here, and the metadata still names the game file's format.
struct SourceInfo {
  std::string format;   // the format id (FormatDescriptor::id), "" when not decoded from a file
  std::string version;  // the file's own version in decimal ("512", "0"), "" when the format has none
  std::string file;     // the path it was read from, as given
  // The skeleton it was decoded against (the pipeline's DecodeWithSkeleton): "companion",
  // "given" or "none" ("" when not decoded through it), and that file ("" for none). The
  // glTF exporter writes these two into its extras.
  std::string skeleton_use;
  std::string skeleton_file;
  bool empty() const { return format.empty(); }
};

// The metadata key several formats write: the format id of the file the metadata came
// from. It survives glTF; each format's header lists it among its own keys.
inline constexpr char kSourceFormatKey[] = "source_format";
// The clip metadata key of a clip whose stored data is another clip's (a KH2 MSET link
// entry): that clip's name. An edit of one is an edit of both; `info` lists it per clip.
inline constexpr char kSharesDataWithKey[] = "shares_data_with";
// The clip metadata key of a clip made for a skeleton of a stated number of joints (a KH2
// motion's bone count): a skeleton file of another count does not fit it.
inline constexpr char kClipJointCountKey[] = "bone_count";
// The mesh metadata key naming the model a mesh belongs to (a name, or its number in the
// file), for a file that holds several (KH2's character and shadow models); meshes without
// it belong to the file's one model.
inline constexpr char kMeshModelKey[] = "model";
// The mesh metadata key saying what its model is for ("object", "shadow"): info shows it
// after the model's name.
inline constexpr char kMeshModelRoleKey[] = "model_role";
// The mesh metadata key listing the vertices that have more than 4 influences, each with all
// of them: [{vertex, joints (Skeleton::joints indices), weights (summing to 1)}]; the mesh's
// own joints and weights hold the 4 heaviest, renormalised. KH2's decoder and glTF's
// JOINTS_1/WEIGHTS_1 fill it, MoreInfluences (offline/skinning.hpp) reads it: skinning blends
// them all, the glTF exporter writes them as JOINTS_1/WEIGHTS_1, a writer whose format blends
// more (KH2) writes them all, one that does not (EDF MDB) says how many vertices lose them.
inline constexpr char kMeshInfluencesKey[] = "influences_over_4";
// The mesh metadata key (true) of a mesh the game draws only as an effect (KH2's shadow
// model): the Blender add-on and the preview page hide it by default. glTF carries it in
// the mesh's extras.animkit.metadata.
inline constexpr char kMeshHiddenKey[] = "hidden";

// What a file decodes to: an optional skeleton, meshes (with their materials and textures)
// and any number of clips.
struct Scene {
  Skeleton skeleton;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Image> textures;
  std::vector<Clip> clips;
  Value metadata = Value::object();  // keys: each format's header declares its own
  SourceInfo source;                 // the file decoded, when there was one
};

// The rig of a scene decoded against a reference (a skeleton or model file): the reference
// when its skeleton has joints, else the scene itself. Its skeleton is the rest pose of the
// joints a clip does not key: the one rule of every format (DecodeContext::Rest,
// EncodeContext::Rest) and front end.
const Scene& RigOf(const Scene& scene, const Scene* reference);
inline const Skeleton& RestSkeleton(const Scene& scene, const Scene* reference) {
  return RigOf(scene, reference).skeleton;
}

}  // namespace animkit
