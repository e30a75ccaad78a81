// Parts of other files in a folder run (FormatDescriptor::part_of): a TXTR and a PNG beside a
// model are skipped, saying what they are part of, while the model converts; a run to PNG
// converts the pictures alone, the TXTR to the picture it decodes to.
#include <animkit/formats/metroid_txtr.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/batch.hpp>

#include "support/test_support.hpp"

#include <filesystem>

namespace animkit {
extern const FormatDescriptor kPngFormat;
namespace {

namespace fs = std::filesystem;

Image Gradient() {
  Image img;
  img.name = "gradient";
  img.width = 4, img.height = 4;
  for (uint32_t i = 0; i < 16; ++i) img.rgba.insert(img.rgba.end(), {uint8_t(i * 16), uint8_t(i), 0, 255});
  return img;
}

void Write(const fs::path& path, ByteView bytes) {
  fs::create_directories(path.parent_path());
  WriteFileAtomic(path.string(), bytes);
}

const BatchFileResult& Find(const BatchReport& report, const std::string& path) {
  for (const BatchFileResult& f : report.files)
    if (f.path == path) return f;
  throw std::runtime_error("no result for " + path);
}

BatchReport RunFolder(const fs::path& in, const fs::path& out, const std::string& to) {
  BatchConvertJob job;
  job.input_dir = in.string();
  job.output_dir = out.string();
  job.threads = 1;
  job.to = to;
  return job.Run();
}

TEST(PartsInFolderRuns, PartsAreSkippedAndARunToPngConvertsThePicturesAlone) {
  const fs::path root = test::TempDir("parts-folder-run");
  const Image img = Gradient();
  Write(root / "in/0A1B2C3D.TXTR", metroid_txtr::SerializeTxtr(metroid_txtr::EncodeTxtr(img, {})));
  Scene picture;
  picture.textures.push_back(img);
  EncodeContext context;
  Write(root / "in/face.png", kPngFormat.encode(picture, context)->Write());
  Write(root / "in/figure.tmd", ReadFileBytes(test::SourcePath("samples/psx_tmd/figure.tmd")));

  const BatchReport glb = RunFolder(root / "in", root / "glb", "glb");
  EXPECT_EQ(Find(glb, "figure.tmd").status, BatchStatus::Converted);
  const BatchFileResult& txtr = Find(glb, "0A1B2C3D.TXTR");
  EXPECT_EQ(txtr.status, BatchStatus::Skipped);
  EXPECT_EQ(txtr.reason, "textures of the Metroid models (.cmdl) beside them (metroid-txtr, read with them)");
  EXPECT_EQ(Find(glb, "face.png").status, BatchStatus::Skipped);
  EXPECT_EQ(glb.failed, 0u);
  EXPECT_FALSE(fs::exists(root / "glb/0A1B2C3D.glb"));

  const BatchReport png = RunFolder(root / "in", root / "png", "png");
  EXPECT_EQ(Find(png, "0A1B2C3D.TXTR").status, BatchStatus::Converted);
  EXPECT_EQ(Find(png, "face.png").status, BatchStatus::Converted);
  const BatchFileResult& model = Find(png, "figure.tmd");
  EXPECT_EQ(model.status, BatchStatus::Skipped);
  EXPECT_EQ(model.reason, "not a picture: a run to a picture format converts the pictures alone");
  // RGBA8 is not paletted: the game's view flips its rows, so the PNG's first row is the last stored.
  const Scene back = kPngFormat.read(ReadFileBytes((root / "png/0A1B2C3D.png").string()), {})->Decode({});
  ASSERT_EQ(back.textures.size(), 1u);
  ASSERT_EQ(back.textures[0].rgba.size(), img.rgba.size());
  EXPECT_TRUE(std::equal(back.textures[0].rgba.begin(), back.textures[0].rgba.begin() + 16, img.rgba.end() - 16));
}

}  // namespace
}  // namespace animkit
