// Scene::source as DecodeDocument fills it for a sample of every format, and each
// format's declared metadata keys (metadata_keys in its header) against what it writes.
#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/edf_rab.hpp>
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/metroid_anim.hpp>
#include <animkit/formats/psx_anc.hpp>
#include <animkit/formats/psx_anm.hpp>
#include <animkit/formats/psx_tmd.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/formats/text_anm.hpp>

#include <set>
#include <span>

#include "support/test_support.hpp"

namespace animkit {
namespace {

using test::SourcePath;
using Keys = std::set<std::string>;

Scene DecodeSample(const std::string& file, const std::string& skeleton = {}) {
  const LoadedFile loaded = LoadFile(SourcePath("samples/" + file), "", Options{});
  return DecodeWithSkeleton(loaded, skeleton.empty() ? "" : SourcePath("samples/" + skeleton), Options{}).scene;
}

struct SourceCase {
  std::string file, skeleton, format, version;
};

TEST(SourceInfo, DecodeDocumentNamesTheFormatVersionAndFile) {
  const std::vector<SourceCase> cases = {
      {"edf_canm/soldier5.canm", "", "edf-canm", "512"},   {"edf_canm/soldier6.canm", "", "edf-canm", "768"},
      {"edf_mdb/soldier.mdb", "", "edf-mdb", "20"},         {"metroid_anim/run.anim", "", "metroid-anim", "2"},
      {"metroid_anim/hologram_v0.anim", "", "metroid-anim", "0"}, {"metroid_cinf/skeleton.cinf", "", "metroid-cinf", ""},
      {"kh2_bar/walk.anb", "", "kh2-bar", ""},             {"kh2_motion/wave.motion", "", "kh2-motion", ""},
      {"psx_anm/dance.anm", "", "psx-anm", ""},             {"psx_anc/orbit.anc", "", "psx-anc", ""},
      {"psx_tmd/figure.tmd", "", "psx-tmd", ""},            {"text_anm/figure.anm", "text_anm/figure_model.glb", "text-anm", ""},
      {"text_anm/figure_model.glb", "", "gltf", ""}};
  for (const SourceCase& c : cases) {
    const Scene scene = DecodeSample(c.file, c.skeleton);
    EXPECT_EQ(scene.source.format, c.format) << c.file;
    EXPECT_EQ(scene.source.version, c.version) << c.file;
    EXPECT_EQ(scene.source.file, SourcePath("samples/" + c.file)) << c.file;
  }
  EXPECT_TRUE(Scene{}.source.empty());  // a scene built in code has none
}

TEST(SourceInfo, Kh2SourceNoteIsTheDecodedFileName) {
  for (const std::string file : {"kh2_bar/walk.anb", "kh2_motion/wave.motion"}) {
    const Scene scene = DecodeSample(file);
    const std::string name = file.substr(file.find('/') + 1);
    EXPECT_EQ(scene.source.file.substr(scene.source.file.size() - name.size()), name);
    EXPECT_EQ(scene.metadata[kh2::metadata_keys::kSource], name) << file;
    for (const Clip& c : scene.clips) EXPECT_EQ(c.metadata[kh2::metadata_keys::kSource], name) << file;
  }
}

// A CANM scene without metadata keeps the version its source names.
TEST(SourceInfo, CanmEncoderKeepsTheSourceVersion) {
  Scene scene = DecodeSample("edf_canm/soldier6.canm");
  scene.metadata = Value::object();
  for (Clip& c : scene.clips) c.metadata = Value::object();
  EncodeContext context;
  EXPECT_EQ(FindFormat("edf-canm")->encode(scene, context)->Write()[5], 0x03);  // 768 = 0x300, little-endian
  scene.source = {};
  EXPECT_EQ(FindFormat("edf-canm")->encode(scene, context)->Write()[5], 0x02);  // no source: 512
}

Keys KeysOf(const Value& metadata) {
  Keys keys;
  for (auto item : metadata.items()) keys.insert(std::string(item.key()));
  return keys;
}

Keys Declared(std::span<const char* const> keys) { return Keys(keys.begin(), keys.end()); }

// What the samples write, per place: the scene's, the clips' and the cameras' keys.
struct Written {
  Keys scene, clip, camera;
  void Add(const Scene& s) {
    scene.merge(KeysOf(s.metadata));
    for (const Clip& c : s.clips) {
      clip.merge(KeysOf(c.metadata));
      for (const CameraTrack& cam : c.cameras) camera.merge(KeysOf(cam.metadata));
    }
  }
};

TEST(MetadataKeys, EachFormatWritesTheKeysItsHeaderDeclares) {
  Written rab;
  rab.Add(DecodeSample("edf_rab/soldier.rab"));
  EXPECT_EQ(rab.scene, Declared(edf_rab::metadata_keys::kScene));
  Written canm, mdb, kh2, anim, cinf, anm, anc, tmd, text;
  for (const char* f : {"edf_canm/soldier5.canm", "edf_canm/soldier6.canm"}) canm.Add(DecodeSample(f));
  mdb.Add(DecodeSample("edf_mdb/soldier.mdb"));
  for (const char* f : {"kh2_bar/ex00.mdlx", "kh2_bar/p_ex00.mset", "kh2_bar/raw.anb", "kh2_bar/walk.anb",
                        "kh2_motion/wave.motion", "kh2_motion/wave_raw.motion"})
    kh2.Add(DecodeSample(f, "kh2_bar/ex00.mdlx"));
  kh2.Add(DecodeSample("kh2_bar/ex00.mdlx"));  // its own rest channels
  kh2::Motion helped = kh2::ParseMotion(ReadFileBytes(SourcePath("samples/kh2_motion/wave.motion")));
  helped.interpolated.ik_helpers.push_back({});  // no sample has IK helpers: one motion given one
  kh2.clip.merge(KeysOf(kh2::DecodeMotion(helped, {}, {}, {}).metadata));
  // No sample has a link entry: an archive of two entries sharing one motion.
  kh2::Bar linked;
  for (int i = 0; i < 2; ++i) {
    kh2::BarEntry e;
    e.type = kh2::kEntryMotion;
    e.motion = std::make_shared<kh2::Motion>(helped);
    if (!linked.entries.empty()) e.motion = linked.entries[0].motion;
    linked.entries.push_back(e);
  }
  const Scene links = kh2::DecodeBar(linked, nullptr, {});
  ASSERT_EQ(links.clips.size(), 2u);
  EXPECT_EQ(links.clips[1].metadata[kSharesDataWithKey], links.clips[0].name);
  kh2.Add(links);
  for (const char* f : {"metroid_anim/run.anim", "metroid_anim/hologram_v0.anim"})
    anim.Add(DecodeSample(f, "metroid_anim/skeleton.cinf"));
  cinf.Add(DecodeSample("metroid_cinf/skeleton.cinf"));
  for (const char* f : {"psx_anm/dance.anm", "psx_anm/wave.anm"}) anm.Add(DecodeSample(f));
  anc.Add(DecodeSample("psx_anc/orbit.anc"));
  tmd.Add(DecodeSample("psx_tmd/figure.tmd"));
  const Scene cut = DecodeSample("text_anm/figure.anm", "text_anm/figure_model.glb");
  text.Add(cut);

  EXPECT_EQ(canm.scene, Declared(edf_canm::metadata_keys::kScene));
  EXPECT_EQ(canm.clip, Declared(edf_canm::metadata_keys::kClip));
  EXPECT_EQ(mdb.scene, Declared(edf_mdb::metadata_keys::kScene));
  EXPECT_EQ(kh2.scene, Declared(kh2::metadata_keys::kScene));
  EXPECT_EQ(kh2.clip, Declared(kh2::metadata_keys::kClip));
  EXPECT_EQ(anim.scene, Declared(metroid::metadata_keys::kAnimScene));
  EXPECT_EQ(anim.clip, Declared(metroid::metadata_keys::kAnimClip));
  EXPECT_EQ(cinf.scene, Declared(metroid::metadata_keys::kCinfScene));
  EXPECT_EQ(anm.scene, Keys{});
  EXPECT_EQ(anm.clip, Declared(psx_anm::metadata_keys::kClip));
  EXPECT_EQ(anc.clip, Declared(psx_anc::metadata_keys::kClip));
  EXPECT_EQ(anc.camera, Declared(psx_anc::metadata_keys::kCamera));
  EXPECT_EQ(tmd.scene, Declared(psx_tmd::metadata_keys::kScene));
  EXPECT_EQ(text.scene, Declared(text_anm::metadata_keys::kScene));
  EXPECT_EQ(KeysOf(cut.metadata[text_anm::metadata_keys::kTextAnm]), Keys{text_anm::metadata_keys::kCanonical});
  EXPECT_EQ(text.clip, Declared(text_anm::metadata_keys::kClip));
  const text_anm::Layout layout = text_anm::LayOut(cut.clips, cut.skeleton, {});
  Written timeline;
  timeline.Add(layout.timeline);
  EXPECT_EQ(timeline.clip, Declared(text_anm::metadata_keys::kTimelineClip));
  // The one key several formats share is the core's.
  EXPECT_TRUE(canm.clip.contains(kSourceFormatKey) && anm.clip.contains(kSourceFormatKey));
}

}  // namespace
}  // namespace animkit
