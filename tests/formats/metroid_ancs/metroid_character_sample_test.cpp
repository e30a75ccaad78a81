// The bundled Metroid character (samples/metroid_character/Character.pak, made by
// tools/make_samples from the project's writers): its members, and the character the ANCS
// assembles from them, as the sample writer built it.
#include <animkit/formats/metroid_ancs.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/io/io.hpp>
#include <animkit/offline/sampling.hpp>

#include "support/test_support.hpp"

#include <filesystem>
#include <map>

namespace animkit {
namespace {

const std::string kPak = "samples/metroid_character/Character.pak";
const std::string kAncsMember = "5E170001.ANCS";

// Every member of the PAK by its "<ID>.<TYPE>" name.
std::map<std::string, Bytes> Members() {
  const Bytes pak = ReadFileBytes(test::SourcePath(kPak));
  const std::unique_ptr<Document> doc = FindFormat("metroid-pak")->read(pak, ReadContext{});
  std::map<std::string, Bytes> out;
  const std::vector<ArchiveMember> members = doc->Members();
  for (size_t i = 0; i < members.size(); ++i) out[members[i].name] = doc->MemberBytes(i);
  return out;
}

TEST(MetroidCharacterSample, ThePakHoldsTheCharactersFilesWithTheAncsNamed) {
  const Bytes pak = ReadFileBytes(test::SourcePath(kPak));
  EXPECT_LT(pak.size(), 60u * 1024);
  const std::unique_ptr<Document> doc = FindFormat("metroid-pak")->read(pak, ReadContext{});
  const std::vector<ArchiveMember> members = doc->Members();
  ASSERT_EQ(members.size(), 9u);
  EXPECT_EQ(members[0].name, kAncsMember);
  EXPECT_EQ(members[0].names, std::vector<std::string>{"Sentry"});
  size_t per_type[6] = {};
  for (const ArchiveMember& m : members) {
    EXPECT_TRUE(m.compressed) << m.name;
    const std::string type = m.name.substr(9);
    const char* types[] = {"CINF", "CMDL", "CSKR", "TXTR", "ANIM", "EVNT"};
    for (size_t t = 0; t < 6; ++t) per_type[t] += type == types[t];
  }
  EXPECT_EQ(per_type[0] + per_type[1] + per_type[2] + per_type[3] + per_type[5], 5u);
  EXPECT_EQ(per_type[4], 3u);
}

Scene Sentry(std::vector<std::string>* warnings = nullptr) {
  const std::map<std::string, Bytes> files = Members();
  ReadContext rc;
  rc.neighbour = [files](std::string_view name) -> std::optional<Bytes> {
    const auto it = files.find(std::string(name));
    return it == files.end() ? std::nullopt : std::optional<Bytes>(it->second);
  };
  const std::unique_ptr<Document> doc = FindFormat("metroid-ancs")->read(files.at(kAncsMember), rc);
  DecodeContext dc;
  dc.options.Set("character", "Sentry");
  Scene scene = doc->Decode(dc);
  if (warnings) *warnings = doc->Warnings();
  return scene;
}

TEST(MetroidCharacterSample, TheAncsAssemblesTheSentry) {
  std::vector<std::string> warnings;
  const Scene s = Sentry(&warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s.metadata[metroid_ancs::metadata_keys::kCharacter], "Sentry");
  ASSERT_EQ(s.skeleton.joints.size(), 4u);
  const char* joints[] = {"root", "hips", "chest", "head"};
  for (size_t j = 0; j < 4; ++j) EXPECT_EQ(s.skeleton.joints[j].name, joints[j]);
  EXPECT_EQ(s.metadata["bone_ids"], (Value{3, 4, 5, 6}));  // the root is bone 3
  ASSERT_EQ(s.clips.size(), 3u);
  EXPECT_EQ(s.clips[0].name, "Idle");
  EXPECT_EQ(s.clips[1].name, "Walk");
  EXPECT_EQ(s.clips[2].name, "Nod_additive");
  EXPECT_NEAR(s.clips[0].duration, 2.0, 1e-6);
  EXPECT_TRUE(s.clips[0].events.empty());
  const Clip& walk = s.clips[1];
  ASSERT_EQ(walk.events.size(), 2u);
  EXPECT_EQ(walk.events[0].name, "loop:Loop");
  EXPECT_FLOAT_EQ(walk.events[0].time, 0);
  EXPECT_EQ(walk.events[1].name, "sound:Footstep");
  EXPECT_FLOAT_EQ(walk.events[1].time, 0.5f);
  EXPECT_EQ(walk.events[1].params, (std::vector<double>{0x0101, 1, 20}));
  // The root travels 1.2 forward (+Y) over the second.
  const JointTrack* root = walk.FindTrack("root");
  ASSERT_NE(root, nullptr);
  ASSERT_FALSE(root->translation.empty());
  EXPECT_NEAR(SampleTrack(root->translation, 1.0f).y - SampleTrack(root->translation, 0.0f).y, 1.2, 1e-3);
  EXPECT_NEAR(SampleTrack(root->translation, 0.5f).y, 0.6, 1e-3);
  const Clip& nod = s.clips[2];
  ASSERT_TRUE(nod.metadata.contains(metroid_ancs::metadata_keys::kAdditive));
  EXPECT_FLOAT_EQ(nod.metadata[metroid_ancs::metadata_keys::kAdditive]["fade_in"].get<float>(), 0.25f);
  EXPECT_FALSE(walk.metadata.contains(metroid_ancs::metadata_keys::kAdditive));
}

TEST(MetroidCharacterSample, TheMeshIsSkinnedAndTextured) {
  const Scene s = Sentry();
  ASSERT_EQ(s.meshes.size(), 1u);
  const Mesh& m = s.meshes[0];
  EXPECT_TRUE(m.Skinned());
  EXPECT_EQ(m.triangles.size(), 4u * 6 * 2 * 3);  // 4 boxes of 6 faces
  float top = 0;
  for (const Vec3& p : m.positions) top = std::max(top, p.z);
  EXPECT_FLOAT_EQ(top, 1.85f);
  // A corner where the hips meet the chest weighs half each.
  bool blended = false;
  for (size_t v = 0; v < m.positions.size(); ++v)
    if (std::abs(m.positions[v].z - 1.0f) < 1e-6 && std::abs(m.weights[v][0] - 0.5f) < 1e-6) blended = true;
  EXPECT_TRUE(blended);
  ASSERT_EQ(s.textures.size(), 1u);
  const Image& t = s.textures[0];
  ASSERT_FALSE(t.Missing()) << t.missing;
  EXPECT_EQ(t.width, 32u);
  EXPECT_EQ(t.rgba[(1 * 32 + 16) * 4 + 0], 255);  // the red band along the top
  EXPECT_EQ(t.rgba[(1 * 32 + 16) * 4 + 2], 0);
  EXPECT_EQ(t.rgba[(16 * 32 + 1) * 4 + 2], 255);  // the blue band down the left
  EXPECT_EQ(s.materials.at(0).texture, 0);
}

TEST(MetroidCharacterSample, CliExtractsSamplesAndConvertsIt) {
  const auto dir = test::TempDir("metroid_character_cli");
  std::string out, err;
  ASSERT_EQ(test::RunCli("archive extract '" + test::SourcePath(kPak) + "' -o '" + dir.string() + "'", &out, &err), 0)
      << err;
  const std::string ancs = (dir / kAncsMember).string();
  ASSERT_TRUE(std::filesystem::exists(ancs)) << out;
  ASSERT_EQ(test::RunCli("sample '" + ancs + "' --character Sentry", &out, &err), 0) << err;
  for (const char* part : {"\"Idle\"", "\"Walk\"", "\"Nod_additive\"", "loop:Loop", "sound:Footstep"})
    EXPECT_TRUE(test::Has(out, part)) << part;
  const std::filesystem::path glb = dir / "s.glb";
  ASSERT_EQ(test::RunCli("convert '" + ancs + "' '" + glb.string() + "' --character Sentry", &out, &err), 0) << err;
  if (const std::string reason = test::GltfValidatorSkipReason(); !reason.empty()) GTEST_SKIP() << reason;
  std::string report;
  EXPECT_EQ(test::RunGltfValidator({glb}, &report), 0) << report;
}

}  // namespace
}  // namespace animkit
