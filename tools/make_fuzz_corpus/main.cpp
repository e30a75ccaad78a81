// Writes the fuzzers' seed corpus (fuzz/corpus/<target>/) with the project's own
// encoders: small synthetic clips and skeletons in every writable format, each with
// several encoder settings, plus hand-laid files for layouts the encoders never write
// (every TMD primitive kind, ANIM key counts and 32-bit deltas). Deterministic:
// `make fuzz-corpus` rewrites the same bytes. Files over kMaxBytes are left out.
#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>
#include <synthetic/synthetic.hpp>
#include <synthetic/synthetic_clips.hpp>
#include <animkit/formats/edf_canm/cas.hpp>
#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/edf_rab.hpp>
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/curves.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>
#include <animkit/formats/psx_tmd.hpp>
#include <animkit/pipeline/curves.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <set>

namespace {

using namespace animkit;
namespace fs = std::filesystem;

constexpr size_t kMaxBytes = 16 * 1024;

class Corpus {
 public:
  explicit Corpus(fs::path root) : root_(std::move(root)) {}

  // Writes bytes as target/name unless they are too large or already written.
  void Add(const std::string& target, const std::string& name, ByteView bytes) {
    if (bytes.empty() || bytes.size() > kMaxBytes) return;
    if (!seen_[target].insert(Bytes(bytes.begin(), bytes.end())).second) return;
    fs::create_directories(root_ / target);
    WriteFileAtomic((root_ / target / name).string(), bytes);
    ++written_;
  }
  size_t written() const { return written_; }

 private:
  fs::path root_;
  std::map<std::string, std::set<Bytes>> seen_;
  size_t written_ = 0;
};

std::string TargetOf(std::string_view format_id) {
  std::string t(format_id);
  for (char& c : t)
    if (c == '-') c = '_';
  return t;
}

// A small scene: a synthetic skeleton with one clip (events on some), joints named "#N"
// so that every format can address them, and one mesh per joint for the model formats.
Scene SmallScene(int joints, size_t frames, unsigned seed, bool scale) {
  Scene scene = SyntheticScene(
      {.joints = joints, .frames = frames, .animate_scale = scale, .seed = seed, .name = "clip" + std::to_string(seed)});
  Clip& clip = scene.clips.front();
  if (seed % 2 == 1) {
    clip.events.push_back({0.0f, "start", {1, 2}, std::nullopt});
    clip.events.push_back({clip.duration / 2, "middle", {}, clip.duration});
  }
  for (int j = 0; j < joints; ++j) {
    Mesh m;
    m.name = "part" + std::to_string(j);
    m.joint = j;
    m.positions = {{0, 0, 0}, {10, 0, 0}, {0, 10, 0}, {10, 10, float(j)}};
    m.triangles = {0, 1, 2, 1, 3, 2};
    m.lines = {0, 3};
    scene.meshes.push_back(std::move(m));
  }
  return scene;
}

// A camera clip for the PS1 ANC: a few keys circling the origin.
Scene CameraScene(size_t frames, unsigned seed) {
  Scene scene;
  scene.clips.push_back(CameraClip(frames, [&](size_t f) {
    const double a = 2 * std::numbers::pi * double(f + seed) / double(frames + 1);
    return CameraKey{{float(300 * std::sin(a)), -50.0f * float(seed), float(-300 * std::cos(a))}, {0, float(seed), 0},
                     float(0.05 * double(f)), 0.8f};
  }));
  return scene;
}

// Settings each encoder is run with ({} = its defaults).
std::vector<std::map<std::string, std::string>> VariantsOf(std::string_view id) {
  if (id == "metroid-anim") {
    return {{}, {{"anim-version", "0"}}, {{"rotation-divisor", "7"}}, {{"max-error-rot", "0"}, {"max-error-pos", "0"}}};
  }
  if (id == "edf-canm") return {{}, {{"canm-version", "768"}}};
  if (id == "edf-cas") return {{}, {{"edf-version", "5"}}, {{"edf-version", "4.1"}}};
  if (id == "psx-anm") return {{}, {{"euler", "zyx"}}, {{"psx-missing", "interpolate"}}};
  if (id == "psx-anc") return {{}, {{"psx-anc-fov", "projection"}}};
  if (id == "text-anm") return {{}, {{"anm-layout", "new"}}};
  return {{}};
}

void AddEncoded(Corpus& corpus, const fs::path& scratch) {
  std::vector<std::pair<std::string, Scene>> scenes;
  for (const auto& [joints, frames, seed, scale] :
       std::vector<std::tuple<int, size_t, unsigned, bool>>{{1, 1, 1, false}, {2, 3, 2, true}, {3, 8, 3, false}, {5, 12, 4, true}}) {
    scenes.emplace_back("j" + std::to_string(joints) + "f" + std::to_string(frames), SmallScene(joints, frames, seed, scale));
  }
  scenes.emplace_back("camera3", CameraScene(3, 1));
  scenes.emplace_back("camera9", CameraScene(9, 2));
  for (const FormatDescriptor* format : Formats()) {
    if (!format->encode) continue;
    const std::string ext(format->extensions.empty() ? ".bin" : format->extensions.front());
    const auto variants = VariantsOf(format->id);
    for (const auto& [scene_name, scene] : scenes) {
      // Camera clips are the ANC's alone.
      if ((scene_name.rfind("camera", 0) == 0) != (format->id == "psx-anc")) continue;
      for (size_t v = 0; v < variants.size(); ++v) {
        EncodeContext context;
        for (const auto& [k, value] : variants[v]) SetOption(context.options, k, value);
        context.output_path = (scratch / ("out" + ext)).string();
        try {
          const Bytes bytes = format->encode(scene, context)->Write();
          corpus.Add(TargetOf(format->id), scene_name + "-v" + std::to_string(v) + ext, bytes);
        } catch (const Error&) {
          // Not every scene fits every format (cameras, one clip per file, ...).
        }
      }
    }
  }
  // glTF with embedded buffers too (the encoder writes .glb by default).
  EncodeContext context;
  context.output_path = (scratch / "out.gltf").string();
  if (const FormatDescriptor* gltf = FindFormat("gltf")) {
    corpus.Add("gltf", "j3f8.gltf", gltf->encode(scenes[2].second, context)->Write());
    // Skinned, rigid and static meshes, a material with a PNG texture and one whose texture is missing.
    corpus.Add("gltf", "arm-skinned.glb", ExportGltf(SkinnedArmScene(), {.binary = true}));
  }
}

// KH2 triggers: the trigger entries of encoded ANBs.
void AddKh2Triggers(Corpus& corpus) {
  const Scene scene = SmallScene(3, 8, 3, false);
  // Named and numbered as DecodeTriggers makes them (else the encoder skips them):
  // params = id, (range: stored end frame, -1 to the end), the trigger's own parameters.
  std::vector<Event> events = {{0.2f, kh2::TriggerEventName(false, 2), {2, 3}, std::nullopt},
                               {0.0f, kh2::TriggerEventName(true, 0), {0, -1}, 1.0f},
                               {0.1f, kh2::TriggerEventName(true, 10), {10, 15, 5, 1}, 0.5f}};
  for (size_t n = 1; n <= events.size(); ++n) {
    const std::vector<Event> some(events.begin(), events.begin() + std::ptrdiff_t(n));
    kh2::Triggers t = kh2::EncodeTriggers(some, 30);
    kh2::LayoutTriggers(t);
    corpus.Add("kh2_triggers", "events" + std::to_string(n) + ".bin", kh2::SerializeTriggers(t));
  }
}

// What real movesets do and the reader accepts: a curve whose keys run past the key table,
// a curve of a joint the motion lacks, an archive cut inside its last entry (damaged).
void AddKh2Leniency(Corpus& corpus) {
  EncodeContext context;
  const Bytes motion = FindFormat("kh2-motion")->encode(SmallScene(3, 8, 3, false), context)->Write();
  const kh2::Motion m = kh2::ParseMotion(motion);
  const kh2::InterpolatedMotion& im = m.interpolated;
  if (im.forward.empty()) return;
  const size_t last = im.forward.size() - 1;  // the encoder lays curves' keys out in order
  const size_t curve_at = kh2::kReservedSize + size_t(im.forward_offset) + last * 6;
  Bytes past = motion;
  past[curve_at + 3] = uint8_t(past[curve_at + 3] + 1);
  corpus.Add("kh2_motion", "keys-past-table.motion", past);
  Bytes stray = motion;
  stray[curve_at] = 0xF0;  // joint 240 of 3
  corpus.Add("kh2_motion", "stray-joint.motion", stray);
  const Bytes anb = FindFormat("kh2-bar")->encode(SmallScene(3, 8, 3, false), context)->Write();
  corpus.Add("kh2_bar", "cut.anb", Bytes(anb.begin(), anb.begin() + std::ptrdiff_t(anb.size() * 3 / 4)));
}

// Nested movesets: an MSET whose ANB slots sit in an entry of type 20 (as boss movesets
// hold theirs), archives nested three deep, a motion with an initial pose value of a joint
// past its joints and a curve on channel 9 (real movesets have both), triggers whose frame
// list sits past a gap.
void AddKh2Nested(Corpus& corpus) {
  EncodeContext context;
  const Bytes anb_bytes = FindFormat("kh2-bar")->encode(SmallScene(2, 4, 1, false), context)->Write();
  const auto anb = std::make_shared<kh2::Bar>(kh2::ParseBar(anb_bytes));
  auto slot = [](uint16_t type, const char* name, std::shared_ptr<kh2::Bar> bar) {
    kh2::BarEntry e;
    e.type = type;
    std::memcpy(e.name.data(), name, 4);
    e.bar = std::move(bar);
    return e;
  };
  auto moveset = std::make_shared<kh2::Bar>();
  moveset->entries = {slot(kh2::kEntryAnb, "0010", nullptr), slot(kh2::kEntryAnb, "0011", anb)};
  kh2::Bar mset;
  mset.entries = {slot(kh2::kEntryAnb, "DUMM", nullptr), slot(kh2::kEntrySubArchive, "B000", moveset)};
  kh2::LayoutBar(mset);
  corpus.Add("kh2_bar", "nested-moveset.mset", kh2::SerializeBar(mset));
  std::shared_ptr<kh2::Bar> deep = anb;
  for (const char* name : {"N000", "N001", "N002"}) {
    auto outer = std::make_shared<kh2::Bar>();
    outer->entries = {slot(kh2::kEntrySubArchive, name, deep)};
    deep = outer;
  }
  kh2::LayoutBar(*deep);
  corpus.Add("kh2_bar", "nested-three-deep.bar", kh2::SerializeBar(*deep));

  kh2::Motion m = kh2::ParseMotion(FindFormat("kh2-motion")->encode(SmallScene(2, 4, 1, false), context)->Write());
  kh2::InterpolatedMotion& im = m.interpolated;
  im.initial_pose.push_back({im.total_bone_count, 0, 0.0f});
  if (!im.forward.empty()) {
    kh2::Curve c = im.forward.front();
    c.packed = static_cast<uint8_t>((c.packed & 0xF0) | 9);
    im.forward.push_back(c);
  }
  kh2::LayoutMotion(m);
  corpus.Add("kh2_motion", "past-joint-channel9.motion", kh2::SerializeMotion(m));

  // 1 range trigger (frames 0..-1, id 3, parameter 5), 4 bytes of gap, 1 frame trigger
  // (frame 4, id 9) at 0x10.
  const Bytes triggers = {1, 1, 0x10, 0, 0, 0, 0xFF, 0xFF, 3, 1, 5, 0, 0xAA, 0xAA, 0xAA, 0xAA, 4, 0, 9, 0};
  corpus.Add("kh2_triggers", "frames-after-gap.bin", triggers);
}

// Every TMD primitive kind in one object, free and fixed-size sprites with and without
// their {W, H} word, and a FIXP file.
void AddTmdLayouts(Corpus& corpus) {
  using namespace psx_tmd;
  const std::vector<std::pair<uint8_t, uint8_t>> kinds = {
      {0x40, 1}, {0x50, 1}, {0x21, 1}, {0x29, 1}, {0x31, 1}, {0x39, 1}, {0x20, 0}, {0x20, 4}, {0x30, 0},
      {0x30, 4}, {0x28, 0}, {0x28, 4}, {0x38, 0}, {0x38, 4}, {0x24, 0}, {0x34, 0}, {0x2C, 0}, {0x3C, 0},
      {0x25, 1}, {0x35, 1}, {0x2D, 1}, {0x3D, 1}, {0x26, 2}, {0x23, 3}, {0x64, 0}, {0x6C, 0}, {0x74, 0}, {0x7C, 0}};
  File file;
  Object o;
  o.vertices = {{0, 0, 0, 0}, {64, 0, 0, 0}, {0, 64, 0, 0}, {64, 64, 0, 0}};
  o.normals = {{0, 0, 4096, 0}};
  for (const auto& [mode, flag] : kinds) {
    const Layout l = *LayoutOf(mode, flag);
    o.primitives.push_back(Primitive{uint8_t(l.words + 1), flag, mode, std::vector<uint32_t>(l.words, 0)});
  }
  // Fixed-size sprites that still store {W, H} (ilen 3).
  for (const uint8_t mode : std::initializer_list<uint8_t>{0x6C, 0x74, 0x7C}) o.primitives.push_back(Primitive{4, 0, mode, {0, 0, 0x00100010}});
  file.objects.push_back(o);
  Object second;
  second.vertices = {{1, 2, 3, 0}, {4, 5, 6, 0}};
  second.primitives = {MakeLine(0, 1, {1, 2, 3})};
  file.objects.push_back(second);
  AssignOffsets(file);
  corpus.Add("psx_tmd", "every-kind.tmd", Serialize(file));
  File fixp = file;
  fixp.flags = kFlagFixp;
  fixp.offset_base = 0;
  AssignOffsets(fixp);
  corpus.Add("psx_tmd", "fixp.tmd", Serialize(fixp));
}

// ANIM version 2 layouts: both key counts, and 32-bit deltas that wrap the 16-bit totals.
void AddAnimLayouts(Corpus& corpus) {
  auto anim = [](uint16_t keys, uint8_t width, uint32_t delta) {
    ByteWriter w(Endian::Big);
    for (uint32_t v : {2u, 0x40u, 0xFFFFFFFFu, 1u}) w.U32(v);
    w.F32(0.1f), w.F32(0.05f);
    for (uint32_t v : {3u, 1u, 0x7FFFu}) w.U32(v);
    w.F32(0.5f);
    for (uint32_t v : {1u, 1u, 3u, 0b101u, 1u, 1u}) w.U32(v);  // channels, 1, 3 frames, bitmap, channels, 1 descriptor
    w.U32(3), w.U16(keys);
    w.I16(-10182), w.U8(width), w.I16(0), w.U8(1), w.I16(0), w.U8(1);
    w.U16(keys);
    w.I16(5), w.U8(2), w.I16(-5), w.U8(2), w.I16(0), w.U8(0);
    // One delta key: W bit, X delta (width bits), Y, Z (1 bit each), translation X, Y (2 bits each).
    uint64_t bits = 0;
    size_t at = 0;
    auto put = [&](uint64_t v, unsigned n) {
      bits |= (v & ((uint64_t{1} << n) - 1)) << at;
      at += n;
    };
    put(1, 1), put(delta, width), put(1, 1), put(0, 1), put(1, 2), put(3, 2);
    for (size_t word = 0; word < (at + 31) / 32; ++word) w.U32(uint32_t(bits >> (32 * word)));
    return w.Take();
  };
  corpus.Add("metroid_anim", "keys-delta.anim", anim(1, 8, 0x7F));
  corpus.Add("metroid_anim", "keys-setbits.anim", anim(2, 8, 0x80));
  corpus.Add("metroid_anim", "delta32-wrap.anim", anim(1, 32, 0x80000447u));
}

}  // namespace

// The evaluator's seeds: an encoded motion given constraints of every type (one motion per
// type, and all in one), with activations that switch them and a limiter of each kind.
void AddKh2Evaluation(Corpus& corpus) {
  EncodeContext context;
  const Bytes encoded = FindFormat("kh2-motion")->encode(SmallScene(3, 8, 3, false), context)->Write();
  corpus.Add("kh2_evaluate", "plain.motion", encoded);
  const kh2::Motion plain = kh2::ParseMotion(encoded);
  auto with = [&](const std::vector<kh2::Constraint>& constraints) {
    kh2::Motion m = plain;
    kh2::InterpolatedMotion& im = m.interpolated;
    im.constraints = constraints;
    im.activations = {{0, 1}, {4, 0}, {8, 1}};
    im.limiters.resize(3);
    for (uint32_t type = 0; type < 3; ++type) {
      kh2::Limiter& l = im.limiters[type];
      l.flags = type | (type == 2 ? 8u : 0u) | (0b111111u << 4);
      l.damping_width = type == 1 ? 0.5f : 0;
      l.damping_strength = 0.5f;
      l.min = {-1, -0.5f, -0.25f, 0};
      l.max = {1, 0.5f, 0.25f, 0};
    }
    kh2::LayoutMotion(m);
    return kh2::SerializeMotion(m);
  };
  std::vector<kh2::Constraint> all;
  for (uint8_t type = 0; type < 14; ++type) {
    const int16_t limiter = type >= 12 ? int16_t(type % 3) : int16_t(-1);
    const kh2::Constraint c{type, 1, 2, 0, limiter, int16_t(type % 2 ? 3 : 0), 0};
    corpus.Add("kh2_evaluate", "type" + std::to_string(type) + ".motion", with({c}));
    all.push_back(c);
    all.push_back({type, 1, 1, 0, limiter, int16_t(type % 3 == 0 ? 2 : 0), 1});
  }
  corpus.Add("kh2_evaluate", "every-type.motion", with(all));
}

// The stored curves' seeds (kh2_curves_fuzz): [mode][file size, u16 LE][file][tail] for an
// encoded motion and ANB: the file's curves unedited (no tail), a few mutations (mode 0, and 2:
// through their JSON), and edits as JSON text with one key moved (mode 1).
void AddKh2Curves(Corpus& corpus) {
  EncodeContext context;
  const Scene scene = SmallScene(3, 8, 3, false);
  auto seed = [](uint8_t mode, ByteView file, ByteView tail) {
    // Sized first and filled by index: GCC 12 at -O3 takes an insert after a 3-byte
    // initializer for a write past it (-Warray-bounds).
    Bytes out(3 + file.size() + tail.size());
    out[0] = mode;
    out[1] = uint8_t(file.size());
    out[2] = uint8_t(file.size() >> 8);
    std::copy(file.begin(), file.end(), out.begin() + 3);
    std::copy(tail.begin(), tail.end(), out.begin() + 3 + std::ptrdiff_t(file.size()));
    return out;
  };
  const Bytes mutations = {7, 1, 3, 0, 2, 5, 9, 1, 4, 2, 6, 3, 0, 8, 1, 1, 5, 11, 2, 3};
  for (const char* id : {"kh2-motion", "kh2-bar"}) {
    const Bytes file = FindFormat(id)->encode(scene, context)->Write();
    if (file.size() > 0xFFFF) continue;
    const std::string name = id == std::string_view("kh2-bar") ? "anb" : "motion";
    corpus.Add("kh2_curves", name + "-unedited.bin", seed(0, file, {}));
    corpus.Add("kh2_curves", name + "-mutated.bin", seed(0, file, mutations));
    corpus.Add("kh2_curves", name + "-mutated-json.bin", seed(2, file, mutations));
    std::vector<ClipCurves> clips;
    if (id == std::string_view("kh2-motion")) {
      clips.push_back({"motion", kh2::StoredCurvesOf(kh2::ParseMotion(file), {}, {})});
    } else {
      const kh2::Bar bar = kh2::ParseBar(file);
      for (const kh2::MotionClip& c : kh2::MotionClips(bar)) clips.push_back({c.name, kh2::StoredCurvesOf(*c.motion, {}, {})});
    }
    for (ClipCurves& c : clips)
      if (!c.curves.channels.empty() && !c.curves.channels.front().keys.empty()) c.curves.channels.front().keys.back().value += 0.5f;
    const std::string json = DumpJson(CurvesJson(clips));
    corpus.Add("kh2_curves", name + "-edits.bin", seed(1, file, Bytes(json.begin(), json.end())));
  }
}

// An MDB with a skinned, textured triangle (the mesh decoder's tables), and DDS seeds: a
// 5 x 3 gradient as BC1 (partial blocks) and as uncompressed BGRA.
void AddMdbMeshAndDds(Corpus& corpus) {
  Skeleton skeleton;
  skeleton.joints = {{"root", -1, {}}, {"arm", 0, {}}};
  skeleton.joints[1].rest.translation = {0, 1, 0};
  Mesh mesh;
  mesh.name = "body";
  mesh.positions = {{0, 0, 0}, {1, 1, 0}, {0, 2, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
  mesh.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
  mesh.joints = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
  mesh.weights = {{1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}};
  mesh.triangles = {0, 1, 2};
  mesh.material = 0;
  Material material;
  material.name = "skin";
  material.texture = 0;
  corpus.Add("edf_mdb", "skinned-mesh.mdb",
             edf_mdb::Serialize(edf_mdb::EncodeModel(skeleton, {mesh}, {material}, {"skin.dds"})));
  Image image{"seed", 5, 3, std::vector<uint8_t>(5 * 3 * 4, 255), "", ""};
  for (size_t i = 0; i < 15; ++i) image.rgba[i * 4] = uint8_t(i * 17), image.rgba[i * 4 + 1] = uint8_t(255 - i * 17);
  corpus.Add("edf_dds", "gradient-bc1.dds", edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bc1));
  corpus.Add("edf_dds", "gradient-bgra.dds", edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bgra8));
  const Image pixel{"seed", 1, 1, {10, 20, 30, 40}, "", ""};
  corpus.Add("edf_dds", "one-pixel-bc1.dds", edf_mdb::EncodeDds(pixel, edf_mdb::DdsEncoding::Bc1));

  // The same model and texture in RAB archives (CMPL and raw members, stock and texture-last
  // order, no model), and CMPL streams of literals, matches, runs and the zero ring.
  const Bytes model = edf_mdb::Serialize(edf_mdb::EncodeModel(skeleton, {mesh}, {material}, {"skin.dds"}));
  const Bytes texture = edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bc1);
  corpus.Add("edf_rab", "model-and-texture.rab",
             edf_rab::Build({{"TEXTURE", "skin.lod.dds", texture, true}, {"MODEL", "model.mdb", model, true},
                             {"HD-TEXTURE", "skin.dds", texture, false}}));
  corpus.Add("edf_rab", "texture-after-model.rab",
             edf_rab::Build({{"MODEL", "model.mdb", model, false}, {"TEXTURE", "skin.dds", texture, true}}));
  corpus.Add("edf_rab", "no-model.mrab", edf_rab::Build({{"TEXTURE", "a.dds", Bytes(40, 7), true}}));
  const std::string text = "ABCDABCD abc abc abc abc 0123456789 0123456789";
  for (const Bytes& raw : {Bytes(text.begin(), text.end()), Bytes(300, 0), Bytes(model.begin(), model.end()), texture})
    corpus.Add("edf_cmpl", "stream-" + std::to_string(raw.size()) + ".cmpl", edf_rab::Compress(raw));
}

// Model entries with meshes (one bone, two bones sharing a vertex) and TIM2 textures.
void AddKh2Meshes(Corpus& corpus) {
  std::vector<kh2::BoneRecord> bones(2);
  bones[1].index = 1, bones[1].parent = 0, bones[1].translation = {0, 10, 0, 0};
  Mesh m;
  m.positions = {{1, 0, 0}, {0, 0, 1}, {1, 10, 0}, {0, 5, 0}};
  m.joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}};
  m.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
  m.uvs = {{0, 0}, {1, 0}, {0, 1}, {0.5f, 0.5f}};
  m.colors = {{1, 1, 1, 1}, {0.5f, 0, 0, 1}, {0, 1, 0, 0.5f}, {1, 1, 1, 1}};
  m.triangles = {0, 1, 2, 2, 1, 3};
  m.material = 0;
  corpus.Add("kh2_mesh", "two-bones.model", kh2::EncodeModelEntry(bones, {m}));
  m.colors.clear();
  corpus.Add("kh2_mesh", "two-groups.model", kh2::EncodeModelEntry(bones, {m, m}));
  // A character and its shadow model (type 4, shadow packets: 3-qword header, no u, v,
  // colours or weights), the shadow's vertices each on one bone.
  Mesh shadow = m;
  shadow.uvs.clear();
  shadow.weights[3] = {1, 0, 0, 0};
  shadow.metadata[kMeshModelRoleKey] = "shadow";
  corpus.Add("kh2_mesh", "character-and-shadow.model", kh2::EncodeModelEntry(bones, {m, shadow}));
  corpus.Add("kh2_mesh", "two-shadow-groups.model", kh2::EncodeModelEntry(bones, {m, shadow, shadow}));
  Image img;
  img.width = 4, img.height = 2;
  for (int i = 0; i < 8; ++i) img.rgba.insert(img.rgba.end(), {uint8_t(i * 30), 0, 0, uint8_t(i % 2 ? 255 : 128)});
  corpus.Add("kh2_mesh", "four-bit.tm2", kh2::EncodeTim2({img}));
  img.width = 40, img.height = 1;
  img.rgba.clear();
  for (int i = 0; i < 40; ++i) img.rgba.insert(img.rgba.end(), {uint8_t(i), uint8_t(3 * i), 9, 255});
  corpus.Add("kh2_mesh", "eight-bit.tm2", kh2::EncodeTim2({img, img}));
}

// Texture entries in the raw GS form (8-bit and 4-bit; their palette uploads run past the
// entry, as the game's do) and a list of two texture sets.
void AddKh2Textures(Corpus& corpus) {
  Image eight, four;
  eight.width = 16, eight.height = 4;
  for (int i = 0; i < 64; ++i) eight.rgba.insert(eight.rgba.end(), {uint8_t(i % 20), uint8_t(9 * (i % 20)), 3, 255});
  four.width = 8, four.height = 2;
  for (int i = 0; i < 16; ++i) four.rgba.insert(four.rgba.end(), {uint8_t(i % 4), 0, 0, uint8_t(i % 2 ? 255 : 0)});
  const Bytes raw = kh2::EncodeRawTexture({eight, four});
  corpus.Add("kh2_texture", "eight-and-four-bit.raw", raw);
  const Bytes one = kh2::EncodeRawTexture({eight});
  Bytes sets = {0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0};
  const uint32_t second = uint32_t(0x10 + one.size());
  for (int i = 0; i < 4; ++i) sets[12 + size_t(i)] = uint8_t(second >> (8 * i));
  sets.insert(sets.end(), one.begin(), one.end());
  sets.insert(sets.end(), one.begin(), one.end());
  corpus.Add("kh2_texture", "two-sets.raw", sets);
  corpus.Add("kh2_texture", "four-bit.raw", kh2::EncodeRawTexture({four}));
}

// CAS sets with every table (a player with a state, anmdata, datagroups and commands) around a
// small CANM, in each version's stock layout.
void AddCasTables(Corpus& corpus) {
  namespace cas = edf_canm::cas;
  const Scene scene = SmallScene(2, 3, 5, false);
  for (uint32_t version : {cas::kVersion41, cas::kVersion5, cas::kVersion6}) {
    edf_canm::EncodeSettings settings;
    settings.version = version == cas::kVersion6 ? edf_canm::kVersion6 : edf_canm::kVersion5;
    cas::File f;
    f.version = version;
    f.canm_bytes = edf_canm::Serialize(edf_canm::EncodeClips(scene.clips, settings));
    cas::TControl t;
    t.name = cas::AddString(f, "run");
    t.words = {0, 0};
    f.tcontrols.push_back(t);
    cas::VControl v;
    v.name = cas::AddString(f, "speed");
    v.value2 = 1.5f;
    f.vcontrols.push_back(v);
    f.bones.push_back({.name = cas::AddString(f, "j0")});
    cas::Data command;
    command.command = 0, command.args[3] = 0, command.args[4] = 2, command.args[5] = 9;
    f.unnamed_group = cas::DataGroup{.data = {command}};
    cas::Mcanm state;
    state.name = cas::AddString(f, "state");
    state.type = 2;
    state.first = cas::AnmData{.time = 1, .group = cas::DataGroup{.data = {command}}};
    state.more = {cas::AnmData{.type_b = 1, .tail = 3}};
    state.groups[1] = cas::DataGroup{};
    cas::AnmGroup player;
    player.name = cas::AddString(f, "player");
    player.mcanms = {state};
    f.anmgroups.push_back(player);
    corpus.Add("edf_cas", "tables-" + std::to_string(version) + ".cas", cas::Emit(f));
  }
}

// EDF 6 CANMs as the game lays them out: a 512 file converted (kinds 0 to 3: static and keyed
// vectors and rotations) and a stock file holding only kinds 0 and 2.
void AddEdfCanm768(Corpus& corpus) {
  edf_canm::EncodeSettings v5;
  const Clip clip = SmallScene(3, 8, 3, false).clips.front();
  const edf_canm::File v512 = edf_canm::EncodeClips({clip}, v5);
  corpus.Add("edf_canm", "converted-768.canm", edf_canm::ConvertTo768(v512).image);
  edf_canm::File still;
  still.channels.resize(2);
  still.channels[0].type = edf_canm::kTypeStaticVector, still.channels[0].base = {1, 2, 3, 1};
  still.channels[1].type = edf_canm::kTypeStaticQuat, still.channels[1].base = {0, 0, 0, 1};
  still.names = {{0, "Scene_Root"}};
  edf_canm::Animation a;
  a.name = "pose", a.keyframes = 1, a.bones = {{0, 0, 1, 0}};
  still.animations = {a};
  corpus.Add("edf_canm", "kind0-kind2-768.canm", edf_canm::LayOutStock(still).image);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: animkit_make_fuzz_corpus OUTDIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  try {
    fs::create_directories(out);
    Corpus corpus(out);
    const fs::path scratch = fs::temp_directory_path() / "animkit-fuzz-corpus";
    fs::create_directories(scratch);
    AddEncoded(corpus, scratch);
    AddKh2Triggers(corpus);
    AddKh2Leniency(corpus);
    AddKh2Nested(corpus);
    AddKh2Evaluation(corpus);
    AddKh2Curves(corpus);
    AddMdbMeshAndDds(corpus);
    AddKh2Meshes(corpus);
    AddKh2Textures(corpus);
    AddTmdLayouts(corpus);
    AddAnimLayouts(corpus);
    AddCasTables(corpus);
    AddEdfCanm768(corpus);
    fs::remove_all(scratch);
    std::printf("%zu seed files in %s\n", corpus.written(), out.string().c_str());
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
