// KH2 model writer on real models (../shared beside the checkout; skipped when absent) and
// the samples: an unedited glTF round trip with --template is the template's bytes; edited
// groups read back with the edit and every other group's packets byte for byte.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/load.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/shared_files.hpp"
#include "support/test_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace animkit {
namespace {

using namespace kh2;

std::string SharedModel(const std::string& relative) { return test::SharedPath(relative); }

// Every model of ../shared: the fixtures, the real files and the open cases (one name stands
// for them all when they are absent: its test skips).
std::vector<std::string> SharedModels() {
  std::vector<std::string> found = test::SharedFiles({"fixtures", "real"}, {".mdlx"});
  if (found.empty()) found.push_back("fixtures/kh2/P_EX100.mdlx");
  return found;
}
const std::vector<std::string> kModels = SharedModels();

// The open cases (../shared/real/kh2-open): their decode may warn (what they are open for).
bool OpenCase(const std::string& relative) { return relative.rfind("real/kh2-open/", 0) == 0; }

ConvertResult ConvertModel(const std::string& in, const std::string& out, const std::string& templ = {}) {
  ConvertRequest request;
  request.input = in, request.output = out, request.template_path = templ;
  return Convert(request);
}

class Kh2ModelWriteFile : public ::testing::TestWithParam<std::string> {};

// Every group judged unedited keeps its bytes, whatever the glTF merged (a bone in two matrix
// slots of a vertex is one glTF influence); a file without a model entry is the template's.
TEST_P(Kh2ModelWriteFile, AnUneditedGltfRoundTripIsTheTemplatesBytes) {
  const std::string path = SharedModel(GetParam());
  if (path.empty()) GTEST_SKIP() << "../shared/" << GetParam() << " absent";
  const std::filesystem::path dir = test::TempDir("kh2_model_write_" + test::SharedTestName(GetParam()));
  const std::string glb = (dir / "model.glb").string(), back = (dir / "back.mdlx").string();
  ConvertModel(path, glb);
  const ConvertResult r = ConvertModel(glb, back, path);
  EXPECT_TRUE(ReadFileBytes(back) == ReadFileBytes(path)) << GetParam() << ": " << DumpJson(r.report);
  if (r.report.contains("groups_rebuilt")) {
    EXPECT_EQ(r.report["groups_rebuilt"], 0) << GetParam();
  }
  if (!OpenCase(GetParam())) {
    for (const std::string& w : r.warnings) ADD_FAILURE() << w;
  }
}

// The model entry of an MDLX and the entry's index.
std::pair<Model, size_t> ModelOf(const Bar& bar) {
  for (size_t i = 0; i < bar.entries.size(); ++i)
    if (bar.entries[i].type == kEntryModel && bar.entries[i].model) return {*bar.entries[i].model, i};
  ADD_FAILURE() << "no model entry";
  return {};
}


// Group g's VIF packets and matrix-slot list, as bytes (where they lie does not count).
Bytes GroupPackets(const Bytes& entry, uint32_t g) {
  const size_t h = 0x90, gh = h + 0x20 + 0x20 * g;
  Bytes out;
  size_t tag = h + le::Load32At(entry, gh + 0x10);
  const size_t end = tag + 16 * le::Load32At(entry, gh + 0x18);
  while (tag < end) {
    const size_t at = h + le::Load32At(entry, tag + 4), qwc = le::Load32At(entry, tag) & 0xFFFF;
    out.insert(out.end(), entry.begin() + std::ptrdiff_t(at), entry.begin() + std::ptrdiff_t(at + 16 * qwc));
    tag += 16;
    while ((le::Load32At(entry, tag) >> 28) != 1) tag += 16;  // the slot tags, up to the closing CNT
    tag += 16;
  }
  const size_t slots = h + le::Load32At(entry, gh + 0x14);
  out.insert(out.end(), entry.begin() + std::ptrdiff_t(slots), entry.begin() + std::ptrdiff_t(slots + 4 + 4 * le::Load32At(entry, slots)));
  return out;
}

// The object meshes of a model entry, decoded; no warnings.
std::vector<Mesh> ObjectMeshes(const Model& model, bool expect_clean = true) {
  ModelMeshes m = DecodeModelMeshes(model, SkeletonFromModel(model));
  if (expect_clean) {
    EXPECT_TRUE(m.warnings.empty()) << (m.warnings.empty() ? "" : m.warnings.front());
  }
  std::vector<Mesh> out;
  for (Mesh& mesh : m.meshes)
    if (mesh.metadata["model_role"] == "object") out.push_back(std::move(mesh));
  return out;
}

// The vertex of mesh at p (and uv), or -1.
int Find(const Mesh& mesh, Vec3 p, std::array<float, 2> uv, float tol) {
  for (size_t v = 0; v < mesh.positions.size(); ++v) {
    const Vec3 q = mesh.positions[v];
    if (std::fabs(q.x - p.x) <= tol && std::fabs(q.y - p.y) <= tol && std::fabs(q.z - p.z) <= tol &&
        std::fabs(mesh.uvs[v][0] - uv[0]) <= 1.f / 4096 && std::fabs(mesh.uvs[v][1] - uv[1]) <= 1.f / 4096)
      return int(v);
  }
  return -1;
}

struct Sora {
  Bytes file;
  Bar bar;
  Model model;
  std::vector<Mesh> meshes;
};

bool LoadSora(Sora& s) {
  const std::string path = SharedModel("fixtures/kh2/P_EX100.mdlx");
  if (path.empty()) return false;
  s.file = ReadFileBytes(path);
  s.bar = ParseBar(s.file);
  s.model = ModelOf(s.bar).first;
  s.meshes = ObjectMeshes(s.model);
  return true;
}

TEST(Kh2ModelWriteEdit, EditedGroupsReadBackAndTheOthersKeepTheirPackets) {
  Sora s;
  if (!LoadSora(s)) GTEST_SKIP() << "../shared/fixtures/kh2/P_EX100.mdlx absent";
  ASSERT_EQ(s.meshes.size(), 3u);
  std::vector<Mesh> edited = s.meshes;
  for (Vec3& p : edited[1].positions) p.y += 5.f;   // group 1 moved
  edited[0].uvs[10] = {0.5f, 0.25f};                  // group 0: one texture coordinate
  size_t shared = 0;                                  // group 0: a vertex of two bones
  while (!(edited[0].weights[shared][1] > 0.2f && edited[0].weights[shared][2] == 0)) ++shared;
  const float w0 = edited[0].weights[shared][0] + edited[0].weights[shared][1] - 0.2f;
  edited[0].weights[shared][0] = w0, edited[0].weights[shared][1] = 0.2f;
  ModelWriteReport report;
  const Bytes entry = WriteModelEntry(s.model, edited, {}, &report);
  EXPECT_EQ(report.rebuilt, 2u);
  EXPECT_EQ(report.kept, 1u);
  const Model written = ParseModel(entry);
  const std::vector<Mesh> back = ObjectMeshes(written);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(GroupPackets(entry, 2), GroupPackets(s.model.bytes, 2));  // unedited: its bytes
  EXPECT_EQ(back[1].triangles.size(), s.meshes[1].triangles.size());
  for (size_t v = 0; v < edited[1].positions.size(); v += 17)
    EXPECT_GE(Find(back[1], edited[1].positions[v], edited[1].uvs[v], 1e-3f), 0) << "group 1 vertex " << v;
  const int uv = Find(back[0], edited[0].positions[10], {0.5f, 0.25f}, 1e-3f);
  EXPECT_GE(uv, 0);
  const int w = Find(back[0], edited[0].positions[shared], edited[0].uvs[shared], 1e-3f);
  ASSERT_GE(w, 0);
  for (size_t k = 0; k < 4; ++k)
    for (size_t j = 0; j < 4; ++j)
      if (back[0].joints[size_t(w)][k] == edited[0].joints[shared][j] && edited[0].weights[shared][j] > 0) {
        EXPECT_NEAR(back[0].weights[size_t(w)][k], edited[0].weights[shared][j], 1.0 / 255);
      }
}

TEST(Kh2ModelWriteEdit, ANewMeshAddsAGroupAndADeletedOneGoes) {
  Sora s;
  if (!LoadSora(s)) GTEST_SKIP() << "../shared/fixtures/kh2/P_EX100.mdlx absent";
  std::vector<Mesh> meshes = {s.meshes[0], s.meshes[2]};  // group 1 deleted
  Mesh added = s.meshes[2];
  added.name = "added";
  added.metadata = Value::object();
  added.material = 1;
  for (Vec3& p : added.positions) p.x += 40.f;
  meshes.push_back(added);
  ModelWriteReport report;
  const Bytes entry = WriteModelEntry(s.model, meshes, {}, &report);
  EXPECT_EQ(report.deleted, 1u);
  EXPECT_EQ(report.added, 1u);
  EXPECT_EQ(report.kept, 2u);
  const std::vector<Mesh> back = ObjectMeshes(ParseModel(entry));
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(GroupPackets(entry, 0), GroupPackets(s.model.bytes, 0));
  EXPECT_EQ(GroupPackets(entry, 1), GroupPackets(s.model.bytes, 2));
  EXPECT_EQ(back[2].material, 1);
  EXPECT_EQ(back[2].triangles.size(), added.triangles.size());
  EXPECT_GE(Find(back[2], added.positions[0], added.uvs[0], 1e-3f), 0);
  // The archive around it: only the model entry changes.
  const Bytes bar = ReplaceEntry(s.file, s.bar, ModelOf(s.bar).second, entry);
  const Bar parsed = ParseBar(bar);
  for (size_t i = 0; i < parsed.entries.size(); ++i)
    if (i != ModelOf(s.bar).second) {
      EXPECT_EQ(SerializePayload(parsed.entries[i]), SerializePayload(s.bar.entries[i]));
    }
}

TEST(Kh2ModelWriteEdit, TheShadowModelIsKeptRebuiltOrDropped) {
  const std::string path = SharedModel("real/kh2/W_EX010_M0.mdlx");
  if (path.empty()) GTEST_SKIP() << "../shared/real/kh2/W_EX010_M0.mdlx absent";
  const Model model = ModelOf(ParseBar(ReadFileBytes(path))).first;
  std::vector<Mesh> meshes = ObjectMeshes(model);
  for (Vec3& p : meshes[0].positions) p.z += 1.f;
  const size_t shadow_at = 0x90 + le::Load32At(model.bytes, 0x9C);
  for (ShadowWrite mode : {ShadowWrite::Keep, ShadowWrite::Rebuild, ShadowWrite::Drop}) {
    ModelWriteSettings settings;
    settings.shadow = mode;
    const Bytes entry = WriteModelEntry(model, meshes, settings);
    const uint32_t next = le::Load32At(entry, 0x9C);
    const ModelMeshes back = DecodeModelMeshes(ParseModel(entry), SkeletonFromModel(model));
    EXPECT_TRUE(back.warnings.empty());
    if (mode == ShadowWrite::Drop) {
      EXPECT_EQ(next, 0u);
      EXPECT_EQ(back.shadow_models, 0u);
      continue;
    }
    EXPECT_EQ(next % 0x80, 0u);
    EXPECT_EQ(back.shadow_models, 1u);
    if (mode == ShadowWrite::Keep) {
      EXPECT_TRUE(std::equal(model.bytes.begin() + std::ptrdiff_t(shadow_at), model.bytes.end(), entry.begin() + 0x90 + next));
    } else {
      EXPECT_EQ(back.meshes.back().triangles.size(), meshes[0].triangles.size());
    }
  }
}

TEST(Kh2ModelWriteEdit, SoraRebuiltWholeInUnderASecond) {
  Sora s;
  if (!LoadSora(s)) GTEST_SKIP() << "../shared/fixtures/kh2/P_EX100.mdlx absent";
  ModelWriteSettings all;
  all.rebuild_all = true;
  ModelWriteReport report;
  const auto start = std::chrono::steady_clock::now();
  const Bytes entry = WriteModelEntry(s.model, s.meshes, all, &report);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("kh2 model write: P_EX100 all %zu groups rebuilt, %zu packets, %.3f s\n", report.rebuilt, report.packets, seconds);
  EXPECT_EQ(report.rebuilt, 3u);
  EXPECT_LT(seconds, 1.0);
  const std::vector<Mesh> back = ObjectMeshes(ParseModel(entry));
  ASSERT_EQ(back.size(), 3u);
  for (size_t g = 0; g < 3; ++g) {
    EXPECT_EQ(back[g].triangles.size(), s.meshes[g].triangles.size());
    EXPECT_TRUE(s.meshes[g].metadata.contains("influences_over_4") == back[g].metadata.contains("influences_over_4"));
  }
}

// Every model (samples, fixture, real files): all groups rebuilt, read back without
// warnings, the same triangles and vertices within the format's precision.
TEST(Kh2ModelWriteEdit, EveryModelRebuiltReadsBack) {
  std::vector<std::string> paths = {test::SourcePath("samples/kh2_bar/ex00.mdlx")};
  for (const std::string& m : kModels)
    if (std::string p = SharedModel(m); !p.empty() && !OpenCase(m)) paths.push_back(p);
  for (const std::string& path : paths) {
    const Model model = ModelOf(ParseBar(ReadFileBytes(path))).first;
    const std::vector<Mesh> meshes = ObjectMeshes(model, false);
    ModelWriteSettings all;
    all.rebuild_all = true;
    const Bytes entry = WriteModelEntry(model, meshes, all);
    const std::vector<Mesh> back = ObjectMeshes(ParseModel(entry));
    ASSERT_EQ(back.size(), meshes.size()) << path;
    for (size_t g = 0; g < meshes.size(); ++g) {
      EXPECT_EQ(back[g].triangles.size(), meshes[g].triangles.size()) << path << " group " << g;
      for (size_t v = 0; v < meshes[g].positions.size(); v += 7)
        EXPECT_GE(Find(back[g], meshes[g].positions[v], meshes[g].uvs.empty() ? std::array<float, 2>{0, 0} : meshes[g].uvs[v], 1e-3f), 0)
            << path << " group " << g << " vertex " << v;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FixtureAndReal, Kh2ModelWriteFile, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<std::string>& info) { return test::SharedTestName(info.param); });

}  // namespace
}  // namespace animkit
