// KH2's seeds: trigger entries, what real movesets do that the encoders never write, nested
// movesets, the evaluator's and the stored curves' seeds, model entries with meshes and
// textures.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/curves.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/curves.hpp>

#include "corpus.hpp"

#include <cstring>

namespace animkit::fuzz_corpus {
namespace {

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

// Model entries with meshes (one bone, two bones sharing a vertex) and TIM2 textures, from
// the writers `convert` runs.
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
  corpus.Add("kh2_mesh", "two-bones.model", kh2::WriteNewModelEntry(bones, {m}));
  m.colors.clear();
  corpus.Add("kh2_mesh", "two-groups.model", kh2::WriteNewModelEntry(bones, {m, m}));
  // A character and its shadow model (type 4, shadow packets: 3-qword header, no u, v,
  // colours or weights), the shadow's vertices each on one bone.
  Mesh shadow = m;
  shadow.uvs.clear();
  shadow.weights[3] = {1, 0, 0, 0};
  shadow.metadata[kMeshModelRoleKey] = "shadow";
  corpus.Add("kh2_mesh", "character-and-shadow.model", kh2::WriteNewModelEntry(bones, {m, shadow}));
  corpus.Add("kh2_mesh", "two-shadow-groups.model", kh2::WriteNewModelEntry(bones, {m, shadow, shadow}));
  Image img;
  img.width = 4, img.height = 2;
  for (int i = 0; i < 8; ++i) img.rgba.insert(img.rgba.end(), {uint8_t(i * 30), 0, 0, uint8_t(i % 2 ? 255 : 128)});
  corpus.Add("kh2_mesh", "few-colours.tm2", kh2::WriteNewTextureEntry({img}, kh2::TextureForm::Tim2).entry);
  img.width = 8, img.height = 8;
  img.rgba.clear();
  for (int i = 0; i < 64; ++i) img.rgba.insert(img.rgba.end(), {uint8_t(i % 40), uint8_t(3 * (i % 40)), 9, 255});
  corpus.Add("kh2_mesh", "two-pictures.tm2", kh2::WriteNewTextureEntry({img, img}, kh2::TextureForm::Tim2).entry);
}

// Texture entries in the raw GS form as the writer lays them out (8-bit pictures of few and
// many colours) and a list of two texture sets.
void AddKh2Textures(Corpus& corpus) {
  Image eight, four;
  eight.width = 16, eight.height = 4;
  for (int i = 0; i < 64; ++i) eight.rgba.insert(eight.rgba.end(), {uint8_t(i % 20), uint8_t(9 * (i % 20)), 3, 255});
  four.width = 8, four.height = 2;
  for (int i = 0; i < 16; ++i) four.rgba.insert(four.rgba.end(), {uint8_t(i % 4), 0, 0, uint8_t(i % 2 ? 255 : 0)});
  const Bytes raw = kh2::WriteNewTextureEntry({eight, four}).entry;
  corpus.Add("kh2_texture", "two-textures.raw", raw);
  const Bytes one = kh2::WriteNewTextureEntry({eight}).entry;
  Bytes sets = {0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0};
  le::Store32At(sets, 12, uint32_t(0x10 + one.size()));  // the second set's offset
  sets.insert(sets.end(), one.begin(), one.end());
  sets.insert(sets.end(), one.begin(), one.end());
  corpus.Add("kh2_texture", "two-sets.raw", sets);
  corpus.Add("kh2_texture", "few-colours.raw", kh2::WriteNewTextureEntry({four}).entry);
}

void AddKh2Seeds(Corpus& corpus) {
  AddKh2Triggers(corpus);
  AddKh2Leniency(corpus);
  AddKh2Nested(corpus);
  AddKh2Evaluation(corpus);
  AddKh2Curves(corpus);
  AddKh2Meshes(corpus);
  AddKh2Textures(corpus);
}

}  // namespace

const FormatSeeds kKh2Seeds{{}, AddKh2Seeds};

}  // namespace animkit::fuzz_corpus
