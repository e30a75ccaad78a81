// Stored curves as a Document capability (core/format.hpp: StoresCurves, StoredCurves,
// WithCurves): a KH2 document gives the curves its format's own functions give, a document of
// a format without them says so, and an edit written through the document is the bytes
// kh2::ReplaceCurves writes (an unedited one: the file's bytes).
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/curves.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/curves.hpp>
#include <animkit/pipeline/pipeline.hpp>
#include <synthetic/synthetic.hpp>

#include "support/test_support.hpp"

namespace animkit {
namespace {

Bytes Encoded(std::string_view format_id, const std::string& output = {}) {
  EncodeContext context;
  context.output_path = output;
  const Scene scene = SyntheticScene({.joints = 3, .frames = 8, .seed = 3, .name = "walk"});
  return FindFormat(format_id)->encode(scene, context)->Write();
}

struct Read {
  LoadedFile loaded;
  Scene scene;
};

Read ReadBack(const Bytes& bytes, const std::string& path) {
  Read r{LoadBytes(bytes, path, "", Options()), {}};
  r.scene = DecodeDocument(r.loaded, DecodeContext{nullptr, Options()});
  return r;
}

TEST(CurvesDocument, AKh2MotionGivesTheCurvesItsFormatGives) {
  const Bytes bytes = Encoded("kh2-motion");
  const Read r = ReadBack(bytes, "walk.motion");
  ASSERT_EQ(r.loaded.format->id, "kh2-motion");
  ASSERT_TRUE(r.loaded.document->StoresCurves());
  const std::vector<ClipCurves> clips = r.loaded.document->StoredCurves(r.scene);
  ASSERT_EQ(clips.size(), 1u);
  EXPECT_EQ(clips[0].clip, "motion");
  ASSERT_FALSE(clips[0].curves.channels.empty());
  const StoredCurves direct = kh2::StoredCurvesOf(kh2::ParseMotion(bytes), r.scene.skeleton,
                                                  kh2::RestChannels(r.scene.skeleton, r.scene.metadata));
  ASSERT_EQ(clips[0].curves.channels.size(), direct.channels.size());
  for (size_t i = 0; i < direct.channels.size(); ++i) {
    EXPECT_EQ(clips[0].curves.channels[i].keys, direct.channels[i].keys) << i;
    EXPECT_EQ(clips[0].curves.channels[i].joint, direct.channels[i].joint) << i;
  }
  EXPECT_EQ(clips[0].curves.driven, direct.driven);
}

TEST(CurvesDocument, AKh2ArchiveGivesOneEntryPerInterpolatedClip) {
  const Bytes bytes = Encoded("kh2-bar", "walk.anb");
  const Read r = ReadBack(bytes, "walk.anb");
  ASSERT_EQ(r.loaded.format->id, "kh2-bar");
  ASSERT_TRUE(r.loaded.document->StoresCurves());
  const std::vector<ClipCurves> clips = StoredCurvesOfFile(r.loaded, r.scene);
  const kh2::Bar bar = kh2::ParseBar(bytes);
  std::vector<std::string> names;
  for (const kh2::MotionClip& c : kh2::MotionClips(bar))
    if (!c.motion->raw) names.push_back(c.name);
  ASSERT_EQ(clips.size(), names.size());
  ASSERT_FALSE(clips.empty());
  for (size_t i = 0; i < clips.size(); ++i) EXPECT_EQ(clips[i].clip, names[i]);
}

TEST(CurvesDocument, AFormatWithoutCurvesSaysSo) {
  const Read r = ReadBack(Encoded("psx-anm"), "walk.anm");
  ASSERT_EQ(r.loaded.format->id, "psx-anm");
  EXPECT_FALSE(r.loaded.document->StoresCurves());
  EXPECT_TRUE(StoredCurvesOfFile(r.loaded, r.scene).empty());
  EXPECT_EQ(test::ErrorOf([&] { r.loaded.document->StoredCurves(r.scene); }), "psx-anm files store no curves");
  EXPECT_EQ(test::ErrorOf([&] { r.loaded.document->WithCurves({}, nullptr, {}); }), "psx-anm files store no curves");
}

TEST(CurvesDocument, AnEditThroughTheDocumentIsTheFormatsReplacement) {
  for (const char* id : {"kh2-motion", "kh2-bar"}) {
    const std::string path = std::string("walk.") + (id == std::string_view("kh2-bar") ? "anb" : "motion");
    const Bytes bytes = Encoded(id, path);
    const Read r = ReadBack(bytes, path);
    std::vector<ClipCurves> clips = r.loaded.document->StoredCurves(r.scene);
    ASSERT_FALSE(clips.empty()) << id;
    CurvesReplaceReport same;
    EXPECT_EQ(r.loaded.document->WithCurves(clips, &same, {}), bytes) << id << ": unedited, the file's bytes";
    EXPECT_EQ(same.replaced, 0u) << id;
    ASSERT_FALSE(clips[0].curves.channels.empty());
    clips[0].curves.channels[0].keys.back().value += 0.5f;
    ClipCurves one_channel{clips[0].clip, {}};
    one_channel.curves.channels = {clips[0].curves.channels[0]};
    const std::vector<ClipCurves> one = {one_channel};
    CurvesReplaceReport through_document, direct;
    const Bytes written = r.loaded.document->WithCurves(one, &through_document, {});
    EXPECT_EQ(written, kh2::ReplaceCurves(bytes, {{clips[0].clip, clips[0].curves.channels[0]}}, &direct)) << id;
    EXPECT_NE(written, bytes) << id;
    EXPECT_EQ(through_document.replaced, 1u) << id;
    EXPECT_EQ(through_document.replaced, direct.replaced) << id;
    EXPECT_EQ(through_document.appended_keys, direct.appended_keys) << id;
  }
}

}  // namespace
}  // namespace animkit
