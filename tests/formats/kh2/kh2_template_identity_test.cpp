// An unedited glTF round trip with --template gives the template's bytes back, for every
// real moveset and ANB beside the checkout (../shared/real, ../shared/fixtures), whatever
// the game drives; an edit of one joint of one clip rewrites that clip's entry alone.
#include "support/shared_files.hpp"
#include "support/test_support.hpp"

#include <animkit/formats/kh2.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace animkit {
namespace {

std::string SharedPath(const std::string& relative) { return test::SharedPath(relative); }

// `animkit convert in out [--template templ]` through the library.
ConvertResult ConvertFile(const std::string& in, const std::string& out, const std::string& templ = {}) {
  ConvertRequest request;
  request.input = in;
  request.output = out;
  request.template_path = templ;
  return Convert(request);
}

// Every moveset, ANB and motion of ../shared (the open cases too: a placeholder ANB, whose
// glTF holds nothing, comes back as its bytes); one name stands for them when absent.
std::vector<std::string> SharedMotions() {
  std::vector<std::string> found = test::SharedFiles({"fixtures", "real"}, {".mset", ".anb", ".motion"});
  if (found.empty()) found.push_back("fixtures/kh2/test-0000.anb");
  return found;
}
const std::vector<std::string> kFiles = SharedMotions();

// One test per file, so ctest runs them side by side and a slow one shows by name.
class Kh2TemplateIdentityFile : public ::testing::TestWithParam<std::string> {};

TEST_P(Kh2TemplateIdentityFile, AnUneditedGltfRoundTripIsTheTemplatesBytes) {
  const std::string& relative = GetParam();
  const std::string path = SharedPath(relative);
  if (path.empty()) GTEST_SKIP() << "../shared/" << relative << " absent";
  // A 2.6 MB moveset's round trip takes a minute under ASan.
  if (std::filesystem::file_size(path) > (1u << 20)) ANIMKIT_REAL_SIZE_WALK_IN_RELEASE_ONLY();
  const std::filesystem::path dir = test::TempDir("kh2_template_identity_" + test::SharedTestName(relative));
  const std::string ext = std::filesystem::path(path).extension().string();
  const std::string glb = (dir / "clip.glb").string();
  const std::string back = (dir / ("back" + ext)).string();
  ConvertFile(path, glb);
  const ConvertResult r = ConvertFile(glb, back, path);
  const bool same = ReadFileBytes(back) == ReadFileBytes(path);
  std::printf("kh2 template identity: %s %s (%zu warnings)\n", relative.c_str(), same ? "identical" : "DIFFERS",
              r.warnings.size());
  EXPECT_TRUE(same) << relative;
  for (const std::string& w : r.warnings) EXPECT_EQ(w.find("differs from the template"), std::string::npos) << w;
}

INSTANTIATE_TEST_SUITE_P(RealAndFixtures, Kh2TemplateIdentityFile, ::testing::ValuesIn(kFiles),
                         [](const ::testing::TestParamInfo<std::string>& info) { return test::SharedTestName(info.param); });

// The entries whose stored bytes differ between two archives of the same entry table.
std::vector<size_t> ChangedEntries(const Bytes& a, const Bytes& b) {
  const kh2::Bar x = kh2::ParseBar(a), y = kh2::ParseBar(b);
  EXPECT_EQ(x.entries.size(), y.entries.size());
  std::vector<size_t> changed;
  for (size_t i = 0; i < x.entries.size() && i < y.entries.size(); ++i) {
    const kh2::BarEntry &e = x.entries[i], &f = y.entries[i];
    const bool same = e.size == f.size &&
                      std::equal(a.begin() + std::ptrdiff_t(e.offset), a.begin() + std::ptrdiff_t(e.offset + e.size),
                                 b.begin() + std::ptrdiff_t(f.offset));
    if (!same) changed.push_back(i);
  }
  return changed;
}

TEST(Kh2TemplateIdentity, AnEditOfOneJointRewritesThatClipsEntryAlone) {
  const std::string path = test::FixturePath("kh2-baked/M_EX660.mset");
  if (path.empty()) GTEST_SKIP() << "../shared/fixtures/kh2-baked absent";
  const std::filesystem::path dir = test::TempDir("kh2_template_edit");
  const std::string glb = (dir / "set.glb").string(), edited = (dir / "edited.glb").string();
  const std::string back = (dir / "back.mset").string();
  ConvertFile(path, glb);
  // Slot 201 (50A) is stored once, no entry links to it; its constraints drive joint #0
  // alone: the first other bone with a translation track is moved by its curves alone.
  const Bytes original = ReadFileBytes(path);
  const kh2::Bar bar = kh2::ParseBar(original);
  const std::string slot = kh2::SlotName(201, bar.entries.at(201));
  for (size_t i = 0; i < bar.entries.size(); ++i)
    if (i != 201) {
      ASSERT_NE(kh2::LinkTarget(bar, i), 201) << "entry " << i << " links to the slot";
    }
  const LoadedFile loaded = LoadFile(glb, "", Options{});
  Scene scene = DecodeDocument(loaded, DecodeContext{nullptr, Options{}});
  bool edited_one = false;
  for (Clip& clip : scene.clips) {
    if (clip.name != slot) continue;
    for (JointTrack& t : clip.tracks) {
      const auto bone = ParseNumberedJointName(t.joint);
      if (edited_one || !bone || *bone == 0 || *bone >= 34 || t.translation.empty()) continue;
      for (Vec3& v : t.translation.values) v.x += 2.0f;
      edited_one = true;
    }
  }
  ASSERT_TRUE(edited_one);
  WriteFileAtomic(edited, Encode(scene, *FindFormat("gltf"), EncodeRequest{}).bytes);
  ConvertFile(edited, back, path);
  const Bytes out = ReadFileBytes(back);
  EXPECT_EQ(ChangedEntries(original, out), std::vector<size_t>{201});
  // And the edit is there.
  const kh2::Bar written = kh2::ParseBar(out);
  EXPECT_NE(SerializeBar(*written.entries[201].bar), SerializeBar(*bar.entries[201].bar));
}

// A decode option (--kh2-constraints off) changes what is decoded, not what is written: a
// conversion to the same format still copies the bytes.
TEST(Kh2TemplateIdentity, ADecodeOptionStillCopiesTheBytes) {
  const std::string path = test::SourcePath("samples/kh2_motion/wave.motion");
  const std::filesystem::path dir = test::TempDir("kh2_decode_option_copy");
  ConvertRequest request;
  request.input = path;
  request.output = (dir / "copy.motion").string();
  request.options.Set("kh2-constraints", "off");
  request.options.Set("kh2-keys", "stored");
  EXPECT_FALSE(AsksForReencode(request, *FindFormat("kh2-motion")));
  const ConvertResult r = Convert(request);
  EXPECT_TRUE(r.copied_verbatim);
  EXPECT_EQ(ReadFileBytes(request.output), ReadFileBytes(path));
  request.options.Set("kh2-tolerance", "1e-3");  // an encoder option does re-encode
  EXPECT_TRUE(AsksForReencode(request, *FindFormat("kh2-motion")));
}

}  // namespace
}  // namespace animkit
