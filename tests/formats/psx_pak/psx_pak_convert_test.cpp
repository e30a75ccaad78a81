// A Vib-Ribbon PAK through every front end's rules: its TMD and ANM members pair up as the
// loose files do, so converting the PAK gives the glb files converting the extracted folder
// gives (`convert FILES.PAK OUT/`, and a folder holding PAKs); and the CLI's archive verbs.
#include <animkit/formats/psx_pak.hpp>
#include <animkit/io/io.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/batch.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include "support/test_support.hpp"

#include <filesystem>

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::Has;

Bytes Sample(const std::string& relative) { return ReadFileBytes(test::SourcePath("samples/" + relative)); }

// The project's own TMD, ANM and ANC samples, as a PAK holds them: nested, not sorted.
std::vector<psx_pak::BuildMember> Members() {
  return {{"GAME/FIGURE.ANM", Sample("psx_tmd/figure.anm")},
          {"GAME/FIGURE.TMD", Sample("psx_tmd/figure.tmd")},
          {"GAME/CAM/ORBIT.ANC", Sample("psx_anc/orbit.anc")}};
}

void Write(const fs::path& path, ByteView bytes) {
  fs::create_directories(path.parent_path());
  WriteFileAtomic(path.string(), bytes);
}

BatchReport Convert(const fs::path& in, const fs::path& out) {
  BatchConvertJob job;
  job.input_dir = in.string();
  job.output_dir = out.string();
  job.threads = 1;
  return job.Run();
}

const BatchFileResult* Find(const BatchReport& report, const std::string& path) {
  for (const BatchFileResult& f : report.files)
    if (f.path == path) return &f;
  return nullptr;
}

TEST(PsxPakConvert, APakConvertsToTheGlbFilesOfItsExtractedFolder) {
  const fs::path root = test::TempDir("psx-pak-convert");
  Write(root / "disc/FILES.PAK", psx_pak::Build(Members()));
  for (const psx_pak::BuildMember& m : Members()) Write(root / "loose" / m.path, m.bytes);
  EXPECT_TRUE(IsArchiveOfFiles((root / "disc/FILES.PAK").string()));
  EXPECT_TRUE(IsFolderRun((root / "disc/FILES.PAK").string(), (root / "out/").string()));
  EXPECT_FALSE(IsFolderRun((root / "disc/FILES.PAK").string(), (root / "copy.pak").string()));

  const BatchReport from_pak = Convert(root / "disc/FILES.PAK", root / "out-pak");
  const BatchReport from_folder = Convert(root / "loose", root / "out-loose");
  EXPECT_EQ(from_pak.failed, 0u);
  EXPECT_EQ(from_pak.converted, 3u);
  ASSERT_EQ(from_folder.converted, 3u);
  const BatchFileResult* anm = Find(from_pak, "GAME/FIGURE.ANM");
  ASSERT_TRUE(anm);
  EXPECT_EQ(anm->skeleton, "GAME/FIGURE.TMD");
  EXPECT_EQ(anm->skeleton_use, "companion");
  EXPECT_EQ(anm->clips, 1u);
  EXPECT_EQ(Find(from_pak, "GAME/CAM/ORBIT.ANC")->format, "psx-anc");
  // FIGURE.ANM and FIGURE.TMD would both be FIGURE.glb: each keeps its extension (docs/batch.md).
  for (const char* glb : {"GAME/FIGURE.ANM.glb", "GAME/FIGURE.TMD.glb", "GAME/CAM/ORBIT.glb"})
    EXPECT_TRUE(fs::exists(root / "out-pak" / glb)) << glb;
  for (const BatchFileResult& f : from_folder.files) {
    ASSERT_FALSE(f.output.empty()) << f.path;
    const Bytes loose = ReadFileBytes((root / "out-loose" / f.output).string());
    const Bytes packed = ReadFileBytes((root / "out-pak" / f.output).string());
    EXPECT_EQ(packed, loose) << f.output;
    EXPECT_EQ(Find(from_pak, f.path)->output, f.output);
  }
}

TEST(PsxPakConvert, AFolderRunWalksThePaksInsideItAsFolders) {
  const fs::path root = test::TempDir("psx-pak-folder");
  Write(root / "in/GAME/FILES.PAK", psx_pak::Build(Members()));
  Write(root / "in/loose.anm", Sample("psx_tmd/figure.anm"));
  Write(root / "in/BAD.PAK", Bytes{'n', 'o'});
  const BatchReport report = Convert(root / "in", root / "out");
  const BatchFileResult* anm = Find(report, "GAME/FILES.PAK/GAME/FIGURE.ANM");
  ASSERT_TRUE(anm);
  EXPECT_EQ(anm->status, BatchStatus::Converted) << anm->error;
  EXPECT_EQ(anm->skeleton, "GAME/FILES.PAK/GAME/FIGURE.TMD");
  EXPECT_TRUE(fs::exists(root / "out/GAME/FILES.PAK/GAME/FIGURE.ANM.glb"));
  EXPECT_TRUE(fs::exists(root / "out/GAME/FILES.PAK/GAME/CAM/ORBIT.glb"));
  EXPECT_EQ(Find(report, "GAME/FILES.PAK"), nullptr);  // walked as a folder, not converted itself
  EXPECT_EQ(Find(report, "loose.anm")->status, BatchStatus::Converted);
  ASSERT_TRUE(Find(report, "BAD.PAK"));
  EXPECT_EQ(Find(report, "BAD.PAK")->status, BatchStatus::Skipped);
}

TEST(PsxPakConvert, AMemberPathThatLeavesTheFolderFailsAlone) {
  const fs::path root = test::TempDir("psx-pak-escape");
  std::vector<psx_pak::BuildMember> members = Members();
  members.push_back({"../ESCAPE.ANM", Sample("psx_tmd/figure.anm")});
  Write(root / "FILES.PAK", psx_pak::Build(members));
  const BatchReport report = Convert(root / "FILES.PAK", root / "out");
  EXPECT_EQ(report.converted, 3u);
  EXPECT_EQ(report.failed, 1u);
  EXPECT_FALSE(fs::exists(root / "ESCAPE.glb"));
  std::string out;
  EXPECT_NE(test::RunCli("archive extract " + (root / "FILES.PAK").string() + " -o " + (root / "x").string(), nullptr, &out), 0);
  EXPECT_TRUE(Has(out, "no plain file name")) << out;
}

TEST(PsxPakConvert, ASecondMemberOfTheSamePathFailsAloneAndTheFirstConverts) {
  const fs::path root = test::TempDir("psx-pak-twice");
  std::vector<psx_pak::BuildMember> members = Members();
  members.push_back({"GAME/CAM/ORBIT.ANC", Sample("psx_anc/orbit.anc")});
  Write(root / "FILES.PAK", psx_pak::Build(members));
  const BatchReport report = Convert(root / "FILES.PAK", root / "out");
  EXPECT_EQ(report.converted, 3u);
  ASSERT_EQ(report.failed, 1u);
  const BatchFileResult* second = Find(report, "GAME/CAM/ORBIT.ANC (member 3)");
  ASSERT_TRUE(second);
  EXPECT_TRUE(Has(second->error, "a second member named 'GAME/CAM/ORBIT.ANC'")) << second->error;
  EXPECT_EQ(Find(report, "GAME/CAM/ORBIT.ANC")->status, BatchStatus::Converted);
}

TEST(PsxPakConvert, CompanionsArePickedAmongTheMembersOfTheSameFolder) {
  const FormatDescriptor& anm = *FindFormat("psx-anm");
  const std::vector<std::string> files = {"GAME/N04_W_F.ANM", "GAME/N04_W_F.TMD", "GAME/OTHER.TMD",
                                          "N04_W_F.TMD", "GAME/SUB/N04_W_F.TMD", "GAME/N05.ANM"};
  EXPECT_EQ(FindCompanionAmong("GAME/N04_W_F.ANM", files, anm).path, "GAME/N04_W_F.TMD");
  EXPECT_EQ(FindCompanionAmong("N04_W_F.ANM", files, anm).path, "N04_W_F.TMD");  // the only one at the top
  EXPECT_EQ(FindCompanionAmong("GAME/SUB/X.ANM", files, anm).path, "GAME/SUB/N04_W_F.TMD");
  const Companion none = FindCompanionAmong("GAME/N05.ANM", files, anm);  // two TMDs, neither named after it
  EXPECT_EQ(none.path, "");
  EXPECT_TRUE(Has(none.note, "give --skeleton")) << none.note;
  const std::vector<std::string> prefixed = {"GAME/N04.ANM", "GAME/N04_BODY.TMD", "GAME/X.TMD"};
  EXPECT_EQ(FindCompanionAmong("GAME/N04.ANM", prefixed, anm).path, "GAME/N04_BODY.TMD");
  EXPECT_EQ(FindCompanionAmong("GAME/N04_W_F.TMD", files, *FindFormat("psx-tmd")).path, "");
}

TEST(PsxPakCli, ListExtractReplaceAndCopy) {
  const fs::path root = test::TempDir("psx-pak-cli");
  const fs::path pak = root / "FILES.PAK";
  const Bytes bytes = psx_pak::Build(Members());
  Write(pak, bytes);
  std::string out, err;
  ASSERT_EQ(test::RunCli("archive list " + pak.string() + " --json", &out, &err), 0) << err;
  EXPECT_TRUE(Has(out, "\"name\": \"GAME/FIGURE.ANM\"")) << out;
  EXPECT_LT(out.find("GAME/FIGURE.ANM"), out.find("GAME/FIGURE.TMD"));  // stored order
  EXPECT_TRUE(Has(out, "\"compressed\": false")) << out;
  EXPECT_TRUE(Has(out, "\"stored_size\": " + std::to_string(Members()[1].bytes.size()))) << out;

  ASSERT_EQ(test::RunCli("archive extract " + pak.string() + " -o " + (root / "x").string(), &out, &err), 0) << err;
  for (const psx_pak::BuildMember& m : Members()) EXPECT_EQ(ReadFileBytes((root / "x" / m.path).string()), m.bytes) << m.path;
  ASSERT_EQ(test::RunCli("archive extract " + pak.string() + " GAME/FIGURE.TMD -o " + (root / "y").string(), &out, &err), 0);
  EXPECT_TRUE(fs::exists(root / "y/GAME/FIGURE.TMD"));
  EXPECT_FALSE(fs::exists(root / "y/GAME/FIGURE.ANM"));

  Write(root / "new.anm", Bytes{'N', 'E', 'W'});
  ASSERT_EQ(test::RunCli("archive replace " + pak.string() + " GAME/FIGURE.ANM " + (root / "new.anm").string() + " -o " +
                             (root / "NEW.PAK").string(), &out, &err), 0) << err;
  std::vector<psx_pak::BuildMember> expected = Members();
  expected[0].bytes = {'N', 'E', 'W'};
  EXPECT_EQ(ReadFileBytes((root / "NEW.PAK").string()), psx_pak::Build(expected));

  ASSERT_EQ(test::RunCli("convert " + pak.string() + " " + (root / "COPY.PAK").string(), &out, &err), 0) << err;
  EXPECT_EQ(ReadFileBytes((root / "COPY.PAK").string()), bytes);
  ASSERT_EQ(test::RunCli("convert " + pak.string() + " " + (root / "glbs").string() + "/ -q", &out, &err), 0) << err;
  EXPECT_TRUE(fs::exists(root / "glbs/GAME/FIGURE.ANM.glb"));
  EXPECT_TRUE(fs::exists(root / "glbs/GAME/CAM/ORBIT.glb"));
}

// The verbs that need one scene refuse a PAK, saying what to do instead, and write nothing;
// info and validate read it without a warning.
TEST(PsxPakCli, OneSceneVerbsRefuseAPakAndSayWhatToDo) {
  const fs::path root = test::TempDir("psx-pak-one-scene");
  const fs::path pak = root / "FILES.PAK";
  Write(pak, psx_pak::Build(Members()));
  std::string out, err;
  for (const std::string& verb : {"convert " + pak.string() + " " + (root / "x.glb").string(), "sample " + pak.string(),
                                 "preview " + pak.string() + " -o " + (root / "x.html").string()}) {
    EXPECT_EQ(test::RunCli(verb, &out, &err), 1) << verb;
    EXPECT_TRUE(Has(err, pak.string() + ": holds files to convert one by one")) << err;
    EXPECT_TRUE(Has(err, "convert FILES.PAK OUT/")) << err;
  }
  EXPECT_FALSE(fs::exists(root / "x.glb"));
  EXPECT_FALSE(fs::exists(root / "x.html"));
  ASSERT_EQ(test::RunCli("info " + pak.string(), &out, &err), 0) << err;
  EXPECT_EQ((out + err).find("warning"), std::string::npos) << out << err;
  ASSERT_EQ(test::RunCli("validate " + pak.string(), &out, &err), 0) << err;
  EXPECT_TRUE(Has(out, "OK")) << out;
  EXPECT_EQ((out + err).find("warning"), std::string::npos) << out << err;
}

}  // namespace
}  // namespace animkit
