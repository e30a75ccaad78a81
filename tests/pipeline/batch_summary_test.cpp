// The folder run's summary folds the files it skipped into one line per kind: side files a
// format reads beside its own (EDF .dds textures beside an .mdb) say what they are.
#include <animkit/pipeline/batch.hpp>

#include <gtest/gtest.h>

namespace animkit {
namespace {

BatchFileResult File(const std::string& path, BatchStatus status, const std::string& format, const std::string& reason = "") {
  BatchFileResult f;
  f.path = path;
  f.status = status;
  f.format = format;
  f.reason = reason;
  return f;
}

BatchReport DumpWithTextures() {
  const std::string none = "no format recognises the contents";
  BatchReport report;
  report.files = {File("models/body.mdb", BatchStatus::Converted, "edf-mdb"),
                  File("models/body.DDS", BatchStatus::Skipped, "", none),
                  File("models/face.dds", BatchStatus::Skipped, "", none),
                  File("notes/readme.txt", BatchStatus::Skipped, "", none),
                  File("stray/loose.dds", BatchStatus::Skipped, "", none),
                  File("README", BatchStatus::Skipped, "", none)};
  report.converted = 1;
  report.skipped = 5;
  return report;
}

TEST(BatchSummary, SkippedFilesAreOneLinePerKind) {
  const std::string text = DumpWithTextures().Summary();
  EXPECT_NE(text.find("  skipped: 2 .dds files: textures of the EDF models (.mdb) beside them (no format reads them alone)\n"),
            std::string::npos) << text;
  // A .dds with no model in its folder is only a file no format reads.
  EXPECT_NE(text.find("  skipped: 1 .dds file: no format recognises the contents\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  skipped: 1 .txt file: no format recognises the contents\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  skipped: 1 file without an extension: no format recognises the contents\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("face.dds"), std::string::npos) << text;
}

TEST(BatchSummary, EverySkippedFileOnRequest) {
  const std::string text = DumpWithTextures().Summary(true);
  for (const char* path : {"models/body.DDS", "models/face.dds", "notes/readme.txt", "stray/loose.dds", "README"})
    EXPECT_NE(text.find(std::string("  skipped: ") + path + ": no format recognises the contents\n"), std::string::npos) << path;
  EXPECT_EQ(text.find("textures of"), std::string::npos) << text;
}

}  // namespace
}  // namespace animkit
