// The import file (pipeline/import_data.hpp), read back from its documented layout
// (docs/blender.md, "The import file"): magic, version, header length and padding, the
// header's sections, and every array's offset inside the data.
#include <animkit/pipeline/import_data.hpp>

#include "support/test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>

namespace animkit {
namespace {

using nlohmann::json;



// The file split as the layout says: the header's JSON and where the data starts.
struct ImportFile {
  json header;
  size_t data = 0;  // byte index of the data's start
};

ImportFile ParseLayout(const Bytes& b) {
  ImportFile f;
  EXPECT_GE(b.size(), 16u);
  EXPECT_EQ(std::string(b.begin(), b.begin() + 8), "AKIMPORT");
  EXPECT_EQ(le::Load32At(b, 8), 3u);  // version
  const uint32_t h = le::Load32At(b, 12);
  EXPECT_EQ(h % 4, 0u) << "the header is padded to 4 bytes";
  EXPECT_LE(16u + h, b.size());
  const std::string text(b.begin() + 16, b.begin() + 16 + h);
  const size_t end = text.find_last_not_of(' ');
  EXPECT_EQ(text[end], '}');
  EXPECT_LT(text.size() - end - 1, 4u) << "at most 3 spaces of padding";
  f.header = json::parse(text);
  f.data = 16 + h;
  return f;
}

// Every {offset, count} array of the scene's animations lies inside the data, its rows as
// wide as the path says; CUBICSPLINE has three rows a key.
void ExpectChannelsInside(const ImportFile& f, const Bytes& b) {
  const size_t data_size = b.size() - f.data;
  for (const json& anim : f.header["scene"]["animations"]) {
    ASSERT_FALSE(anim["channels"].empty());
    for (const json& ch : anim["channels"]) {
      const size_t keys = ch["times"]["count"], t_off = ch["times"]["offset"];
      const size_t rows = ch["values"]["count"], v_off = ch["values"]["offset"];
      const size_t width = ch["path"] == "rotation" ? 4 : 3;
      EXPECT_EQ(t_off % 4, 0u);
      EXPECT_EQ(v_off % 4, 0u);
      EXPECT_LE(t_off + 4 * keys, data_size);
      EXPECT_LE(v_off + 4 * width * rows, data_size);
      EXPECT_EQ(rows, ch["interpolation"] == "CUBICSPLINE" ? 3 * keys : keys) << ch.dump();
      for (size_t k = 1; k < keys; ++k)
        EXPECT_LE(le::LoadF32At(b, f.data + t_off + 4 * (k - 1)), le::LoadF32At(b, f.data + t_off + 4 * k)) << "times ascend";
    }
  }
}

ImportDataJob MsetJob() {
  ImportDataJob job;
  job.input = test::SourcePath("samples/kh2_bar/p_ex00.mset");
  job.skeleton = SkeletonSource::Auto();
  return job;
}

TEST(ImportData, LayoutOfEveryClip) {
  const Bytes b = MsetJob().Run();
  const ImportFile f = ParseLayout(b);
  const json& h = f.header;
  EXPECT_EQ(h["format"], "kh2-bar");
  EXPECT_EQ(h["skeleton_use"], "companion");
  EXPECT_NE(h["skeleton_file"].get<std::string>().find("ex00.mdlx"), std::string::npos);
  EXPECT_EQ(h["file_clips"], json({"000_A000", "002_A000", "003_A000"}));
  ASSERT_EQ(h["clips"].size(), 3u);
  ASSERT_EQ(h["scene"]["animations"].size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    const json& clip = h["clips"][k];
    EXPECT_EQ(clip["name"], h["file_clips"][k]);
    EXPECT_EQ(clip["animation"], k);
    EXPECT_EQ(h["scene"]["animations"][k]["name"], clip["name"]);
    EXPECT_EQ(clip["joints"].size(), 4u);
    EXPECT_GT(clip["frame_count"].get<int>(), 0);
  }
  EXPECT_EQ(h["clips"][1]["events"].size(), 3u);
  EXPECT_FALSE(h["scene"]["meshes"].empty()) << "the companion's mesh";
  ExpectChannelsInside(f, b);
}

TEST(ImportData, ChosenClipsOnly) {
  ImportDataJob job = MsetJob();
  job.clips = {"003*", "000_A000"};
  const Bytes b = job.Run();
  const ImportFile f = ParseLayout(b);
  EXPECT_EQ(f.header["file_clips"].size(), 3u) << "every clip of the file is still named";
  ASSERT_EQ(f.header["clips"].size(), 2u);
  EXPECT_EQ(f.header["clips"][0]["name"], "000_A000") << "in the file's order";
  EXPECT_EQ(f.header["clips"][1]["name"], "003_A000");
  EXPECT_EQ(f.header["clips"][1]["animation"], 1);
  EXPECT_EQ(f.header["scene"]["animations"].size(), 2u);
  ExpectChannelsInside(f, b);
  EXPECT_LT(b.size(), MsetJob().Run().size());
}

TEST(ImportData, ErrorsNameTheProblem) {
  ImportDataJob job = MsetJob();
  job.clips = {"nosuch*"};
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { job.Run(); }), "no clip matches 'nosuch*'"));
  job.clips = {""};
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { job.Validate(); }), "empty clip name"));
  job.clips = {};
  job.format = "nosuch";
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { job.Validate(); }), "unknown format id 'nosuch'"));
  EXPECT_TRUE(test::Has(test::ErrorOf([] { ImportDataJob{}.Validate(); }), "no input file"));
}

// `animkit import-data` is the job's shell: the same bytes.
TEST(ImportData, CliWritesTheJobsBytes) {
  const auto dir = test::TempDir("import_data_cli");
  const std::string out = (dir / "x.akd").string();
  std::string err;
  ASSERT_EQ(test::RunCli("import-data " + test::SourcePath("samples/kh2_bar/p_ex00.mset") + " -o " + out +
                             " --skeleton auto --clip '0*'",
                         nullptr, &err),
            0)
      << err;
  std::ifstream in(out, std::ios::binary);
  const Bytes written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ImportDataJob job = MsetJob();
  job.clips = {"0*"};
  EXPECT_EQ(written, job.Run());
}

}  // namespace
}  // namespace animkit
