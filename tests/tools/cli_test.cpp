// The CLI contract (../shared/design/cli-contract.md), checked on the bundled samples.
#include <animkit/formats/registry.hpp>
#include "support/test_support.hpp"

#include <synthetic/synthetic_clips.hpp>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <iterator>

namespace animkit {
namespace {

using test::RunCli;
using test::SourcePath;

std::string Sample(const std::string& rel) { return SourcePath("samples/" + rel); }

TEST(Cli, VersionAndHelp) {
  std::string out;
  EXPECT_EQ(RunCli("--version", &out), 0);
  EXPECT_NE(out.find(kVersion), std::string::npos);
  EXPECT_EQ(RunCli("--help", &out), 0);
  EXPECT_NE(out.find("convert"), std::string::npos);
  std::string err;
  EXPECT_EQ(RunCli("frobnicate", &out, &err), 2);
}

TEST(Cli, InfoHumanAndJson) {
  std::string out;
  ASSERT_EQ(RunCli("info " + Sample("psx_anm/dance.anm"), &out), 0);
  EXPECT_NE(out.find("psx-anm"), std::string::npos);
  EXPECT_NE(out.find("90 frames"), std::string::npos);
  ASSERT_EQ(RunCli("info --json " + Sample("psx_anm/dance.anm"), &out), 0);
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["format"], "psx-anm");
  ASSERT_EQ(j["clips"].size(), 1u);
  EXPECT_EQ(j["clips"][0]["frames"], 90);
  EXPECT_EQ(j["clips"][0]["rate"], 30.0);
  EXPECT_EQ(j["clips"][0]["joint_count"], 8);
  EXPECT_EQ(j["fields"]["frame_count"], 90);
  ASSERT_EQ(RunCli("info --json --full " + Sample("psx_anm/dance.anm"), &out), 0);
  EXPECT_EQ(nlohmann::json::parse(out)["clips"][0]["joints"].size(), 8u);
}

TEST(Cli, SampleFollowsTheContract) {
  std::string out;
  ASSERT_EQ(RunCli("sample " + Sample("psx_anm/dance.anm"), &out), 0);
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["format"], "psx-anm");
  const auto& clip = j["clips"].at(0);
  for (const char* key : {"name", "frame_rate", "duration", "loop", "space", "joints", "frames", "events"}) {
    EXPECT_TRUE(clip.contains(key)) << key;
  }
  EXPECT_EQ(clip["space"], "local");
  EXPECT_EQ(clip["joints"][0], "#0");
  ASSERT_EQ(clip["frames"].size(), 90u);
  const auto& pose = clip["frames"][0][0];
  EXPECT_EQ(pose["t"].size(), 3u);
  EXPECT_EQ(pose["r"].size(), 4u);
  EXPECT_EQ(pose["s"].size(), 3u);
  EXPECT_TRUE(clip["frames"][35][7].is_null());  // object 7 has no keyframe in frames 30..39
  EXPECT_FALSE(clip["frames"][29][7].is_null());
  // --rate resamples; -o writes a file.
  const auto dir = test::TempDir("cli-sample");
  ASSERT_EQ(RunCli("sample " + Sample("psx_anm/dance.anm") + " --rate 10 -o " + (dir / "s.json").string(), &out), 0);
  std::ifstream in(dir / "s.json");
  const auto r = nlohmann::json::parse(in);
  EXPECT_EQ(r["clips"][0]["frames"].size(), 30u);  // 89/30 s at 10 fps: frames 0..29
}

// A two-joint chain written as glTF: a root scaled (2, 1, 1) and a child one unit along x
// turned 90 degrees about z, its locals in the given rule.
std::string WriteChainGltf(const std::filesystem::path& dir, ScaleInheritance rule) {
  Scene scene;
  scene.skeleton.joints = {{"root", -1, {}}, {"child", 0, {}}};
  scene.clips.push_back(ScaledChainClip(1.5707963f, rule, 1));
  const std::string file = (dir / "chain.gltf").string();
  const Bytes bytes = ExportGltf(scene, {false, {}});
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return file;
}

// `sample --space model` on the chain. Per axis the child's model scale is (2, 1, 1); under
// the matrix rule diag(2,1,1) Rz90 has axes (0,1,0), (-2,0,0): scale (1, 2, 1). Either way
// its origin is at (2, 0, 0).
TEST(Cli, SampleSpaceModelComposesUnderTheClipsRule) {
  const auto dir = test::TempDir("cli-sample-space");
  for (const ScaleInheritance rule : {ScaleInheritance::PerAxis, ScaleInheritance::Matrix}) {
    const std::string file = WriteChainGltf(dir, rule);
    std::string out, err;
    ASSERT_EQ(RunCli("sample " + file + " --space model", &out, &err), 0) << err;
    auto j = nlohmann::json::parse(out)["clips"].at(0);
    EXPECT_EQ(j["space"], "model");
    const auto& pose = j["frames"][0][1];
    const std::vector<double> scale = rule == ScaleInheritance::PerAxis ? std::vector<double>{2, 1, 1}
                                                                         : std::vector<double>{1, 2, 1};
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_NEAR(pose["t"][k].get<double>(), k == 0 ? 2 : 0, 1e-5);
      EXPECT_NEAR(pose["s"][k].get<double>(), scale[k], 1e-5);
    }
    EXPECT_NEAR(std::abs(pose["r"][3].get<double>()), std::sqrt(0.5), 1e-5);
    // Without it: the local pose, as the contract has it.
    ASSERT_EQ(RunCli("sample " + file, &out, &err), 0) << err;
    j = nlohmann::json::parse(out)["clips"].at(0);
    EXPECT_EQ(j["space"], "local");
    EXPECT_NEAR(j["frames"][0][1]["t"][0].get<double>(), 1, 1e-5);
    EXPECT_NEAR(j["frames"][0][1]["s"][0].get<double>(), 1, 1e-5);
  }
  std::string err;
  EXPECT_EQ(RunCli("sample " + Sample("psx_anm/dance.anm") + " --space world", nullptr, &err), 2);
}

// The Blender add-on's import file holds the glTF's pose: the per-axis chain's child as its
// closest matrix-rule local, relative to diag(2,1,1): diag(.5,1,1) Rz90 diag(2,1,1) has
// axes (0,2,0), (-.5,0,0), (0,0,1): Rz90, scale (2, .5, 1), at (1, 0, 0).
TEST(Cli, ImportDataHoldsTheGltfPoseOfAPerAxisClip) {
  const auto dir = test::TempDir("cli-import-data-per-axis");
  const std::string file = WriteChainGltf(dir, ScaleInheritance::PerAxis);
  std::string err;
  ASSERT_EQ(RunCli("import-data " + file + " -o " + (dir / "chain.akimport").string(), nullptr, &err), 0) << err;
  std::ifstream in(dir / "chain.akimport", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 16u);
  uint32_t header_length = 0;
  std::memcpy(&header_length, bytes.data() + 12, 4);
  const auto header = nlohmann::json::parse(bytes.substr(16, header_length));
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, 3u);
  size_t child = 0;
  const auto& nodes = header["scene"]["nodes"];
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i]["name"] == "child") child = i;
  // The child's first key of each channel (a CUBICSPLINE key's value follows its in-tangent).
  std::vector<float> first(10, 0.0f);
  for (const auto& ch : header["scene"]["animations"].at(0)["channels"]) {
    if (ch["node"] != child) continue;
    const std::string path = ch["path"];
    const size_t width = path == "rotation" ? 4 : 3, at = path == "translation" ? 0 : path == "rotation" ? 3 : 7;
    const size_t skip = ch["interpolation"] == "CUBICSPLINE" ? width : 0;
    std::memcpy(&first[at], bytes.data() + 16 + header_length + ch["values"]["offset"].get<size_t>() + 4 * skip, 4 * width);
  }
  const float want[10] = {1, 0, 0, 0, 0, std::sqrt(0.5f), std::sqrt(0.5f), 2, 0.5f, 1};
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(std::abs(first[size_t(k)]), want[k], 1e-5) << k;
  EXPECT_EQ(header["clips"].at(0)["animation"], 0);
}

// import-data --clip: names and globs, repeatable; the file's other clips are only named.
TEST(Cli, ImportDataTakesTheClipsNamedOrMatched) {
  const auto dir = test::TempDir("cli-import-data-clips");
  const std::string out = (dir / "some.akimport").string();
  std::string err;
  ASSERT_EQ(RunCli("import-data " + Sample("kh2_bar/p_ex00.mset") + " -o " + out, nullptr, &err), 0) << err;
  std::ifstream all_in(out, std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(all_in)), {});
  uint32_t length = 0;
  std::memcpy(&length, all.data() + 12, 4);
  const auto every = nlohmann::json::parse(all.substr(16, length))["file_clips"].get<std::vector<std::string>>();
  ASSERT_GE(every.size(), 2u);
  ASSERT_EQ(RunCli("import-data " + Sample("kh2_bar/p_ex00.mset") + " -o " + out + " --clip '" + every[1] + "' --clip '" +
                       every[0].substr(0, 1) + "*'",
                   nullptr, &err),
            0)
      << err;
  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::memcpy(&length, bytes.data() + 12, 4);
  const auto header = nlohmann::json::parse(bytes.substr(16, length));
  std::vector<std::string> want;
  for (const std::string& name : every)
    if (name == every[1] || ClipNameMatches(name, every[0].substr(0, 1) + "*")) want.push_back(name);
  std::vector<std::string> got;
  for (const auto& c : header["clips"]) got.push_back(c["name"]);
  EXPECT_EQ(got, want);
  EXPECT_EQ(header["scene"]["animations"].size(), want.size());
  EXPECT_EQ(RunCli("import-data " + Sample("kh2_bar/p_ex00.mset") + " -o " + out + " --clip 'nothing*'", nullptr, &err), 1);
  EXPECT_NE(err.find("no clip matches 'nothing*'"), std::string::npos) << err;
}

TEST(Cli, ConvertWritesGlbAndNeverTheInput) {
  const auto dir = test::TempDir("cli-convert");
  std::string out, err;
  ASSERT_EQ(RunCli("convert " + Sample("psx_anm/dance.anm") + " " + (dir / "dance.glb").string() + " --summary", &out, &err), 0) << err;
  EXPECT_NE(out.find("1 clips, 90 frames, 8 joints, 0 events"), std::string::npos);
  EXPECT_TRUE(std::filesystem::file_size(dir / "dance.glb") > 0);
  // Back to PS1 ANM from the glTF.
  ASSERT_EQ(RunCli("convert " + (dir / "dance.glb").string() + " " + (dir / "back.anm").string(), &out, &err), 0) << err;
  EXPECT_EQ(RunCli("validate " + (dir / "back.anm").string(), &out), 0);
  // Same format, nothing changed: the bytes as read.
  ASSERT_EQ(RunCli("convert " + Sample("psx_anm/wave.anm") + " " + (dir / "copy.anm").string()), 0);
  EXPECT_EQ(ReadFileBytes((dir / "copy.anm").string()), ReadFileBytes(Sample("psx_anm/wave.anm")));
  // The input is never overwritten.
  std::filesystem::copy_file(Sample("psx_anm/wave.anm"), dir / "in.anm");
  EXPECT_EQ(RunCli("convert " + (dir / "in.anm").string() + " " + (dir / "in.anm").string() + " --euler zyx", &out, &err), 1);
  EXPECT_NE(err.find("refusing to write over a file this command reads"), std::string::npos) << err;
  EXPECT_EQ(ReadFileBytes((dir / "in.anm").string()), ReadFileBytes(Sample("psx_anm/wave.anm")));
  // No temporary files are left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
}

TEST(Cli, ErrorsAreOneLineWithFileAndOffset) {
  const auto dir = test::TempDir("cli-errors");
  Bytes data = ReadFileBytes(Sample("psx_anm/wave.anm"));
  data.resize(data.size() / 2);
  WriteFileAtomic((dir / "cut.anm").string(), data);
  std::string out, err;
  EXPECT_EQ(RunCli("sample --format psx-anm " + (dir / "cut.anm").string(), &out, &err), 1);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find((dir / "cut.anm").string() + ": offset 0x"), std::string::npos) << err;
  EXPECT_EQ(RunCli("validate " + Sample("psx_anm/wave.anm") + " --format psx-anm " + (dir / "cut.anm").string(), &out), 1);
  EXPECT_NE(out.find("wave.anm: OK"), std::string::npos);
  EXPECT_NE(out.find("cut.anm: offset 0x"), std::string::npos);
  size_t names = 0;
  for (size_t at = out.find("cut.anm"); at != std::string::npos; at = out.find("cut.anm", at + 1)) ++names;
  EXPECT_EQ(names, 1u) << "the file is named once per line: " << out;
  EXPECT_EQ(RunCli("info " + (dir / "missing.anm").string(), &out, &err), 1);
  EXPECT_NE(err.find("missing.anm: cannot open"), std::string::npos);
  EXPECT_EQ(RunCli("sample " + Sample("psx_anm/wave.anm") + " --euler yxz", &out, &err), 1);
  EXPECT_NE(err.find("--euler expects xyz|zyx"), std::string::npos);
}

// Damaged files whose extension (or marker) names one format get that format's own error.
TEST(Cli, DamagedFilesGetTheirFormatsError) {
  const auto dir = test::TempDir("cli-damaged");
  const struct {
    const char* name;
    Bytes bytes;
    const char* error;
  } cases[] = {
      // PS1 ANC: marker, header field, 3 keyframes of 16 bytes from 0x6, but only 20 bytes follow.
      {"cut.anc", Bytes{0x00, 0x80, 0x1E, 0x00, 0x03, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
       "offset 0x6: camera keyframes: count 3 of 16-byte entries does not fit in the 0x14 bytes left"},
      // A .anc without the marker: only the extension names the format.
      {"text.anc", Bytes{'h', 'e', 'l', 'l', 'o', '!', '!', '!'}, "offset 0x0: expected the marker 0x8000"},
      // PS1 TMD: id 0x41, flags 0, 2 objects of 28 bytes from 0xC, only one record present.
      {"cut.tmd", [] {
         Bytes b{0x41, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0};
         b.resize(12 + 28, 0);
         return b;
       }(),
       "offset 0xc: object table: count 2 of 28-byte entries does not fit in the 0x1c bytes left"},
      // PS1 ANM: 2 frames need a 3-entry offset table at 0x6; 2 bytes are left.
      {"cut.anm", Bytes{0x00, 0x80, 0x1E, 0x00, 0x02, 0x00, 0x06, 0x00},
       "offset 0x6: frame offset table: count 3 of 2-byte entries does not fit in the 0x2 bytes left"},
  };
  std::string out, err;
  std::map<std::string, std::string> cli_errors;
  for (const auto& c : cases) {
    const std::string path = (dir / "in" / c.name).string();
    std::filesystem::create_directories(dir / "in");
    WriteFileAtomic(path, c.bytes);
    EXPECT_EQ(RunCli("info " + path, &out, &err), 1) << c.name;
    EXPECT_NE(err.find(path + ": " + c.error), std::string::npos) << c.name << ": " << err;
    EXPECT_EQ(err.find("not a file of any supported format"), std::string::npos) << err;
    EXPECT_EQ(RunCli("validate " + path, &out, &err), 1);
    EXPECT_NE(out.find(path + ": " + c.error), std::string::npos) << out;
    cli_errors[c.name] = out.substr(0, out.find('\n'));
  }
  // Bytes no format claims, under an extension no format uses, keep the general message.
  const std::string other = (dir / "noise.xyz").string();
  WriteFileAtomic(other, Bytes{1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(RunCli("info " + other, &out, &err), 1);
  EXPECT_NE(err.find(other + ": not a file of any supported format"), std::string::npos) << err;
  // A batch report gives each damaged file the same error text (the marked ones fail; the
  // one only its extension names is skipped unless --by-extension).
  const auto report_path = dir / "report.json";
  EXPECT_EQ(RunCli("convert " + (dir / "in").string() + " " + (dir / "out").string() + " -q --by-extension --report " +
                       report_path.string(),
                   &out, &err),
            1)
      << out << err;
  std::ifstream in(report_path);
  const nlohmann::json report = nlohmann::json::parse(in);
  size_t failed = 0;
  for (const auto& f : report["files"]) {
    const std::string name = f["path"];
    ASSERT_TRUE(cli_errors.count(name)) << name;
    EXPECT_EQ(f["status"], "failed") << name;
    EXPECT_EQ(f["error"], cli_errors[name]) << name;
    ++failed;
  }
  EXPECT_EQ(failed, std::size(cases));
}

TEST(Cli, NamesThatAreNotUtf8StillPrint) {
  // Names come from files; bytes that are not UTF-8 print as U+FFFD, never as an error.
  const auto dir = test::TempDir("cli-utf8");
  const std::string text = "as Arm\x9A\nbl root\nan 0 1 lift\xFF\n";
  WriteFileAtomic((dir / "sets.anm").string(), ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  std::string out, err;
  ASSERT_EQ(RunCli("info --json " + (dir / "sets.anm").string(), &out, &err), 0) << err;
  EXPECT_NE(out.find("Arm\xEF\xBF\xBD"), std::string::npos) << out;
  EXPECT_EQ(DumpJson(Value("a\x80")), "\"a\xEF\xBF\xBD\"");
}

TEST(Samples, CommittedSamplesAreWhatTheEncodersWrite) {
  const auto dir = test::TempDir("samples");
  const std::string cmd = std::string(ANIMKIT_MAKE_SAMPLES_PATH) + " " + dir.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  size_t compared = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const auto rel = std::filesystem::relative(e.path(), dir);
    const std::string committed = SourcePath("samples/" + rel.string());
    ASSERT_TRUE(std::filesystem::exists(committed)) << rel << " is not committed (run make samples)";
    EXPECT_EQ(ReadFileBytes(e.path().string()), ReadFileBytes(committed)) << rel << " differs (run make samples)";
    ++compared;
  }
  EXPECT_GT(compared, 0u);
}

// A file of samples/ that is an input of its own: not the notes, nor a texture a model names.
bool IsSampleInput(const std::filesystem::directory_entry& e) {
  const std::string ext = e.path().extension().string();
  return e.is_regular_file() && ext != ".md" && ext != ".dds";
}

// Every sample file, with its companion skeleton (--skeleton auto), as make demo converts it.
std::vector<std::pair<std::filesystem::path, std::string>> SamplesWithSkeletons() {
  std::vector<std::pair<std::filesystem::path, std::string>> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(SourcePath("samples"))) {
    if (!IsSampleInput(e)) continue;
    const std::string path = e.path().string();
    const Detection d = Detect(ReadFileBytes(path), path);
    out.emplace_back(e.path(), d.format ? FindCompanion(path, *d.format).path : std::string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Samples, EverySampleExportsToGltfThatTheKhronosValidatorAccepts) {
  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) GTEST_SKIP() << reason;
  const auto dir = test::TempDir("samples-gltf");
  std::vector<std::filesystem::path> outputs;
  for (const auto& [sample, skeleton] : SamplesWithSkeletons()) {
    const auto rel = std::filesystem::relative(sample, SourcePath("samples"));
    std::filesystem::path out = dir / rel;
    std::string err;
    const Detection d = Detect(ReadFileBytes(sample.string()), sample.string());
    if (d.format && d.format->archive_of_files) {  // its members convert as a folder's files
      ASSERT_EQ(RunCli("convert '" + sample.string() + "' '" + out.string() + "/' -q", nullptr, &err), 0) << err;
      for (const auto& e : std::filesystem::recursive_directory_iterator(out))
        if (e.path().extension() == ".glb") outputs.push_back(e.path());
      continue;
    }
    out.replace_extension(".glb");
    std::filesystem::create_directories(out.parent_path());
    ASSERT_EQ(RunCli("convert '" + sample.string() + "' '" + out.string() + "'" +
                         (skeleton.empty() ? "" : " --skeleton '" + skeleton + "'"),
                     nullptr, &err),
              0)
        << sample << ": " << err;
    outputs.push_back(out);
  }
  ASSERT_FALSE(outputs.empty());
  std::string output;
  EXPECT_EQ(test::RunGltfValidator(outputs, &output), 0) << output;
}

TEST(Samples, EverySampleReadsAndWritesBackByteForByte) {
  size_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(SourcePath("samples"))) {
    if (!IsSampleInput(e)) continue;
    const Bytes data = ReadFileBytes(e.path().string());
    LoadedFile f = LoadBytes(data, e.path().string(), "", Options{});
    EXPECT_EQ(f.document->Write(), data) << e.path();
    ++n;
  }
  EXPECT_GT(n, 0u);
}

// The pairs the bundled samples are made in (tools/make_samples), found by --skeleton auto.
TEST(Samples, SkeletonAutoPairsEverySampleWithTheFileItWasMadeWith) {
  const std::map<std::string, std::string> expected = {
      {"edf_canm/soldier5.canm", "soldier.mdb"},     {"edf_canm/soldier6.canm", "soldier.mdb"},
      {"kh2_bar/p_ex00.mset", "ex00.mdlx"},          {"kh2_bar/walk.anb", "ex00.mdlx"},
      {"kh2_bar/raw.anb", "ex00.mdlx"},              {"metroid_anim/hologram_v0.anim", "skeleton.cinf"},
      {"metroid_anim/run.anim", "skeleton.cinf"},    {"psx_tmd/figure.anm", "figure.tmd"},
      {"text_anm/figure.anm", "figure_model.glb"},   {"text_anm/authored.anm", "authored.anm.timeline.glb"},
      {"edf_cas/soldier5.cas", "soldier.rab"},       {"edf_cas/soldier6.cas", "soldier.rab"},
      {"metroid_anim_echoes/swim.anim", "skeleton.cinf"},
  };
  size_t paired = 0;
  for (const auto& [sample, skeleton] : SamplesWithSkeletons()) {
    const std::string rel = std::filesystem::relative(sample, SourcePath("samples")).generic_string();
    const auto it = expected.find(rel);
    EXPECT_EQ(skeleton.empty() ? "" : std::filesystem::path(skeleton).filename().string(),
              it == expected.end() ? "" : it->second)
        << rel;
    paired += !skeleton.empty();
  }
  EXPECT_EQ(paired, expected.size());
}

TEST(Samples, SkeletonAutoSamplesLikeTheExplicitSkeletonAndSaysWhichItUsed) {
  const std::string canm = SourcePath("samples/edf_canm/soldier5.canm");
  std::string with_auto, explicit_json, note;
  ASSERT_EQ(RunCli("sample '" + canm + "' --skeleton auto", &with_auto, &note), 0) << note;
  ASSERT_EQ(RunCli("sample '" + canm + "' --skeleton '" + SourcePath("samples/edf_canm/soldier.mdb") + "'", &explicit_json),
            0);
  // The same poses; the header says how the skeleton came (companion or given).
  nlohmann::json auto_doc = nlohmann::json::parse(with_auto), given_doc = nlohmann::json::parse(explicit_json);
  EXPECT_EQ(auto_doc["clips"], given_doc["clips"]);
  EXPECT_EQ(auto_doc["skeleton"], "soldier.mdb (companion)");
  EXPECT_EQ(auto_doc["skeleton_use"], "companion");
  EXPECT_EQ(given_doc["skeleton"], "given: soldier.mdb");
  EXPECT_EQ(given_doc["skeleton_use"], "given");
  EXPECT_EQ(given_doc["skeleton_file"], SourcePath("samples/edf_canm/soldier.mdb"));
  // The default is auto: the same document as --skeleton auto.
  std::string by_default;
  ASSERT_EQ(RunCli("sample '" + canm + "'", &by_default), 0);
  EXPECT_EQ(by_default, with_auto);
  EXPECT_NE(note.find("skeleton file: soldier.mdb (the only .mdb file beside soldier5.canm)"), std::string::npos)
      << note;
  std::string info;
  ASSERT_EQ(RunCli("info '" + canm + "' --json --skeleton auto", &info), 0);
  const auto json = nlohmann::json::parse(info);
  EXPECT_EQ(json["skeleton_file"], SourcePath("samples/edf_canm/soldier.mdb"));
  EXPECT_NE(json["skeleton_note"].get<std::string>().find("the only .mdb"), std::string::npos);

  std::string alone;
  ASSERT_EQ(RunCli("sample '" + SourcePath("samples/psx_anm/wave.anm") + "' --skeleton auto", nullptr, &alone), 0);
  EXPECT_NE(alone.find("skeleton file: none: no .tmd file beside wave.anm"), std::string::npos) << alone;
}

}  // namespace
}  // namespace animkit
