// What "unedited" means for a KH2 file written back over its template: a vertex's influences
// as the game blends them (a bone in two matrix slots is one influence, as glTF holds it),
// and a file with nothing a glTF carries (a placeholder ANB, an MDLX without a model entry)
// comes back as its bytes; without a template, the error says why there is nothing to write.
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/pipeline.hpp>

#include "support/test_support.hpp"

#include <filesystem>

namespace animkit {
namespace {

// A decoded group's mesh: one triangle, vertex 2 in two matrix slots of bone 1 (0.9 + 0.1).
Mesh TwoSlotsOfOneBone() {
  Mesh m;
  m.name = "model0_group0";
  m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 2, 0}};
  m.uvs = {{0, 0}, {1, 0}, {1, 1}};
  m.joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 0, 0}};
  m.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.9f, 0.1f, 0, 0}};
  m.triangles = {0, 1, 2};
  return m;
}

TEST(Kh2Unedited, ABoneInTwoSlotsIsOneInfluence) {
  const Mesh decoded = TwoSlotsOfOneBone();
  Mesh merged = decoded;  // what glTF holds: the joint once, the weights summed
  merged.joints[2] = {1, 0, 0, 0}, merged.weights[2] = {1, 0, 0, 0};
  EXPECT_TRUE(kh2::SameGroupMesh(merged, decoded));
  EXPECT_TRUE(kh2::SameGroupMesh(decoded, decoded));
  Mesh reordered = decoded;  // the same influences in other slots
  reordered.joints[0] = {0, 1, 0, 0}, reordered.weights[0] = {1, 0, 0, 0};
  EXPECT_TRUE(kh2::SameGroupMesh(reordered, decoded));
  Mesh moved = merged;  // a tenth of the weight to bone 0: edited
  moved.joints[2] = {1, 0, 0, 0}, moved.weights[2] = {0.9f, 0.1f, 0, 0};
  EXPECT_FALSE(kh2::SameGroupMesh(moved, decoded));
  Mesh other = decoded;  // the other slot on another bone
  other.joints[2] = {1, 2, 0, 0};
  EXPECT_FALSE(kh2::SameGroupMesh(other, decoded));
  Mesh fifth = decoded;  // an influence past four added
  fifth.metadata[kMeshInfluencesKey] =
      Value::array({Value{{"vertex", 2}, {"joints", Value::array({1, 1, 0, 0, 2})}, {"weights", Value::array({0.5, 0.1, 0, 0, 0.4})}}});
  EXPECT_FALSE(kh2::SameGroupMesh(fifth, decoded));
  EXPECT_TRUE(kh2::SameGroupMesh(fifth, fifth));
}

// `convert in out [--template templ]` through the library.
ConvertResult ConvertFile(const std::string& in, const std::string& out, const std::string& templ = {}) {
  ConvertRequest request;
  request.input = in, request.output = out, request.template_path = templ;
  return Convert(request);
}

TEST(Kh2Unedited, AModelWithABoneInTwoSlotsComesBackAsItsBytes) {
  // Written by the model writer from the mesh itself (not through glTF, which merges the two).
  Scene scene;
  Joint root, arm;
  root.name = "root";
  arm.name = "arm", arm.parent = 0, arm.rest.translation = {0, 1, 0};
  scene.skeleton.joints = {root, arm};
  scene.meshes.push_back(TwoSlotsOfOneBone());
  const auto dir = test::TempDir("kh2_unedited_two_slots");
  const std::string mdlx = (dir / "two.mdlx").string(), glb = (dir / "two.glb").string(), back = (dir / "back.mdlx").string();
  EncodeRequest request;
  request.output_path = mdlx;
  SetOption(request.options, "kh2-skeleton", "gltf");
  WriteFileAtomic(mdlx, Encode(scene, *FindFormat("kh2-bar"), request).bytes);
  const kh2::Bar bar = kh2::ParseBar(ReadFileBytes(mdlx));
  const kh2::Model& model = *bar.entries.at(0).model;
  const kh2::ModelMeshes meshes = kh2::DecodeModelMeshes(model, kh2::SkeletonFromModel(model));
  ASSERT_FALSE(meshes.meshes.empty());
  bool two_slots = false;  // the file holds the vertex in two slots of bone 1
  for (size_t v = 0; v < meshes.meshes[0].joints.size(); ++v)
    two_slots = two_slots || (meshes.meshes[0].joints[v][0] == 1 && meshes.meshes[0].joints[v][1] == 1 &&
                              meshes.meshes[0].weights[v][1] > 0);
  ASSERT_TRUE(two_slots);
  ConvertFile(mdlx, glb);
  const ConvertResult r = ConvertFile(glb, back, mdlx);
  EXPECT_EQ(r.report["groups_rebuilt"], 0) << DumpJson(r.report);
  EXPECT_EQ(r.report["groups_kept"], 1) << DumpJson(r.report);
  EXPECT_TRUE(ReadFileBytes(back) == ReadFileBytes(mdlx));
}

// A file of raw entries written by the archive writer.
Bytes Archive(const std::vector<std::pair<uint16_t, Bytes>>& entries, const char* name) {
  kh2::Bar bar;
  for (const auto& [type, raw] : entries) {
    kh2::BarEntry e;
    e.type = type;
    std::copy(name, name + 4, e.name.begin());
    e.raw = raw;
    bar.entries.push_back(std::move(e));
  }
  kh2::LayoutBar(bar);
  return kh2::SerializeBar(bar);
}

struct NothingCase {
  const char* file;
  Bytes bytes;
};

// Its glTF holds nothing: with the file as template it writes back as the file's bytes;
// without one, the error says what is missing.
void ExpectNothingToEditGivesTheTemplate(const NothingCase& c) {
  const auto dir = test::TempDir(std::string("kh2_nothing_to_edit_") + c.file);
  const std::string path = (dir / c.file).string(), glb = (dir / "nothing.glb").string();
  const std::string back = (dir / (std::string("back_") + c.file)).string();
  WriteFileAtomic(path, c.bytes);
  ConvertFile(path, glb);
  const Scene empty = DecodeDocument(LoadFile(glb, "", Options{}), DecodeContext{});
  EXPECT_TRUE(HoldsNothing(empty)) << c.file;
  const ConvertResult r = ConvertFile(glb, back, path);
  EXPECT_EQ(r.report["nothing_to_edit"], true) << c.file << ": " << DumpJson(r.report);
  EXPECT_TRUE(ReadFileBytes(back) == c.bytes) << c.file;
  const std::string error = test::ErrorOf([&] { ConvertFile(glb, (dir / (std::string("new_") + c.file)).string()); });
  EXPECT_NE(error.find("nothing to write: the input has no animation clip"), std::string::npos) << error;
  EXPECT_NE(error.find("no mesh"), std::string::npos) << error;
}

TEST(Kh2Unedited, APlaceholderAnbWithNothingToEditIsItsBytes) {
  // A zeroed motion entry and an empty trigger entry, as a game placeholder ANB.
  const Bytes anb = Archive({{kh2::kEntryMotion, Bytes(144, 0)}, {kh2::kEntryTriggers, {}}}, "PLC1");
  ASSERT_EQ(anb.size(), 192u);
  ExpectNothingToEditGivesTheTemplate({"placeholder.anb", anb});
}

TEST(Kh2Unedited, AnMdlxWithoutAModelEntryIsItsBytes) {
  // An AI entry (type 3) and a collision entry (type 23), as a field object's MDLX.
  Bytes ai(100), collision(40);
  for (size_t i = 0; i < ai.size(); ++i) ai[i] = uint8_t(i * 7 + 1);
  for (size_t i = 0; i < collision.size(); ++i) collision[i] = uint8_t(i * 3 + 2);
  ExpectNothingToEditGivesTheTemplate({"object.mdlx", Archive({{3, ai}, {23, collision}}, "f_ob")});
}

// --clip over a template asks for a clip of the input: with none, it stays an error.
TEST(Kh2Unedited, ClipAskedOfAnInputWithNoneIsAnError) {
  const auto dir = test::TempDir("kh2_nothing_to_edit_clip");
  const std::string path = (dir / "p.anb").string(), glb = (dir / "p.glb").string();
  WriteFileAtomic(path, Archive({{kh2::kEntryMotion, Bytes(144, 0)}, {kh2::kEntryTriggers, {}}}, "PLC1"));
  ConvertFile(path, glb);
  ConvertRequest request;
  request.input = glb, request.output = (dir / "back.anb").string(), request.template_path = path, request.clip = "PLC1";
  EXPECT_NE(test::ErrorOf([&] { Convert(request); }).find("nothing to write"), std::string::npos);
}

}  // namespace
}  // namespace animkit
