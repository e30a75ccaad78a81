// A character read from inside a PAK: the ANCS member assembled from the other members, in
// every front end that takes one scene, and a folder run giving a file per character.
#include <animkit/formats/metroid_ancs.hpp>
#include <animkit/formats/metroid_pak.hpp>
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/load.hpp>

#include "formats/metroid_ancs/ancs_bytes.hpp"
#include "support/test_support.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>

namespace animkit {
namespace {

using metroid_pak::BuildMember;
using metroid_pak::Packing;

metroid_pak::FourCC Type(const std::string& name) {
  const std::string t = name.substr(name.find('.') + 1);
  return {t[0], t[1], t[2], t[3]};
}

uint32_t IdOf(const std::string& name) { return static_cast<uint32_t>(std::stoul(name.substr(0, 8), nullptr, 16)); }

// HandMp1's character set (character "Samus") and its side files, zlib-packed as MP1 packs
// them, with a second set naming a second character "Samus" too when twice is set.
Bytes CharacterPak(bool twice = false, Packing packing = Packing::Zlib) {
  std::vector<BuildMember> members;
  members.push_back({Type("ANCS"), 0x0000AAAA, test::HandMp1(), packing, {"Samus_set"}});
  for (const auto& [name, bytes] : test::SideFiles(test::OneLoopEvnt()))
    members.push_back({Type(name), IdOf(name), bytes, packing, {}});
  if (twice) members.push_back({Type("ANCS"), 0x0000BBBB, test::HandMp1(), packing, {}});
  members.push_back({Type("STRG"), 0x77, Bytes(40, 7), Packing::Raw, {}});  // no part of a character
  return metroid_pak::Build(members);
}

LoadedFile Loaded(const Bytes& bytes, const Options& options = {}) {
  return LoadBytes(bytes, "Metroid1.pak", "", options);
}

TEST(MetroidPakCharacter, ThePakListsItsCharactersAndDecodesTheFirst) {
  const LoadedFile pak = Loaded(CharacterPak());
  ASSERT_EQ(pak.format->id, std::string_view("metroid-pak"));
  EXPECT_EQ(pak.document->Scenes(), std::vector<std::string>{"Samus"});
  EXPECT_NO_THROW(RequireOneScene(pak));  // a PAK with characters is a scene too
  const Scene scene = DecodeDocument(pak, DecodeContext{});
  ASSERT_EQ(scene.skeleton.joints.size(), 2u);  // the CINF member's two bones
  EXPECT_EQ(scene.skeleton.joints[1].name, "spine");
  ASSERT_EQ(scene.clips.size(), 2u);
  EXPECT_EQ(scene.clips[0].name, "idle");  // named as the ANCS names it
  EXPECT_EQ(scene.clips[1].name, "walk");
  ASSERT_EQ(scene.clips[0].events.size(), 1u);  // from the EVNT member 0x200 the ANCS pairs with it
  EXPECT_EQ(scene.clips[0].events[0].name, "loop:Loop");
  EXPECT_EQ(scene.metadata[metroid_pak::metadata_keys::kCharacterSet], "0000AAAA.ANCS");
  EXPECT_EQ(scene.metadata[metroid_ancs::metadata_keys::kCharacter], "Samus");
  EXPECT_EQ(pak.document->Write(), CharacterPak());  // reading the characters changes no byte
}

TEST(MetroidPakCharacter, MembersCharactersAreReadFromAreLeftToThem) {
  const LoadedFile pak = Loaded(CharacterPak());
  const std::vector<ArchiveMember> members = pak.document->Members();
  std::vector<std::string> names;
  for (size_t i : pak.document->SceneMembers()) names.push_back(members[i].name);
  // The ANCS, the CINF, both ANIMs and the EVNT; not the STRG.
  EXPECT_EQ(names, (std::vector<std::string>{"0000AAAA.ANCS", "00000010.CINF", "00000100.ANIM", "00000101.ANIM",
                                             "00000200.EVNT"}));
}

TEST(MetroidPakCharacter, TwoSetsNamingOneCharacterAreToldApartByTheirMember) {
  const LoadedFile pak = Loaded(CharacterPak(true));
  EXPECT_EQ(pak.document->Scenes(), (std::vector<std::string>{"0000AAAA.ANCS/Samus", "0000BBBB.ANCS/Samus"}));
  Options o;
  o.SetScene("0000BBBB.ANCS/Samus");
  DecodeContext dc{nullptr, o};
  EXPECT_EQ(DecodeDocument(pak, dc).metadata[metroid_pak::metadata_keys::kCharacterSet], "0000BBBB.ANCS");
  o.Set("character", "Ridley");
  o.SetScene("");
  const std::string e = test::ErrorOf([&] { DecodeDocument(pak, DecodeContext{nullptr, o}); });
  EXPECT_TRUE(test::Has(e, "no character 'Ridley'")) << e;
  EXPECT_TRUE(test::Has(e, "0000AAAA.ANCS/Samus")) << e;
}

TEST(MetroidPakCharacter, ADamagedCharacterSetIsToldAndTheRestReads) {
  Bytes ancs = test::HandMp1();
  ancs.resize(20);
  const Bytes bytes = metroid_pak::Build({{Type("ANCS"), 1, ancs, Packing::Zlib, {}},
                                          {Type("STRG"), 2, Bytes(8, 1), Packing::Raw, {}}});
  const LoadedFile pak = Loaded(bytes);
  EXPECT_TRUE(pak.document->Scenes().empty());
  ASSERT_EQ(pak.document->Damaged().size(), 1u);
  EXPECT_TRUE(test::Has(pak.document->Damaged()[0], "00000001.ANCS (entry 0)")) << pak.document->Damaged()[0];
  EXPECT_EQ(pak.document->Members().size(), 2u);
  EXPECT_THROW(RequireOneScene(pak), Error);  // no character: a PAK of files
}

TEST(MetroidPakCharacter, AMemberThatDoesNotUnpackIsToldWithTheCharacter) {
  Bytes bytes = CharacterPak();
  const metroid_pak::File f = metroid_pak::Parse(bytes);
  for (size_t i = 0; i < f.resources.size(); ++i)
    if (metroid_pak::MemberName(f.resources[i]) == "00000010.CINF") bytes[f.resources[i].offset + 6] ^= 0xFF;  // in its zlib stream
  const LoadedFile pak = Loaded(bytes);
  const Scene scene = DecodeDocument(pak, DecodeContext{});
  EXPECT_TRUE(scene.skeleton.joints.empty());  // no skeleton, the clips still named
  EXPECT_EQ(scene.clips.size(), 2u);
  bool told = false;
  for (const std::string& w : pak.document->Warnings()) told |= w.find("00000010.CINF: ") != std::string::npos;
  EXPECT_TRUE(told);
}

TEST(MetroidPakCharacter, Mp2SegmentsReadAlike) {
  const LoadedFile pak = Loaded(CharacterPak(false, Packing::Segments));
  EXPECT_EQ(DecodeDocument(pak, DecodeContext{}).clips.size(), 2u);
}

TEST(MetroidPakCharacter, AnEditedAnimationIsWrittenIntoItsAnimMemberAndTheRestStays) {
  const Bytes original = CharacterPak();
  const LoadedFile pak = Loaded(original);
  Scene scene = DecodeDocument(pak, DecodeContext{});
  ASSERT_EQ(scene.clips.size(), 2u);
  Clip& idle = scene.clips[0];
  ASSERT_EQ(idle.tracks.size(), 1u);
  const float half = std::sqrt(0.5f);
  for (QuatXYZW& q : idle.tracks[0].rotation.values) q = {0, 0, half, half};  // 90 degrees about z
  EncodeTemplate templ{"Metroid1.pak", original, pak.document.get()};
  EncodeContext context;
  context.templ = &templ;
  const Bytes written = pak.format->encode(scene, context)->Write();
  std::string notes;
  for (const std::string& w : context.warnings) notes += w + "\n";
  EXPECT_EQ(context.report["anim_members_replaced"], 1u) << notes;
  const LoadedFile back = Loaded(written);
  const std::vector<ArchiveMember> members = back.document->Members();
  ASSERT_EQ(members.size(), pak.document->Members().size());
  for (size_t i = 0; i < members.size(); ++i) {
    EXPECT_EQ(members[i].name, pak.document->Members()[i].name);  // the table order kept
    if (members[i].name != "00000100.ANIM") {
      EXPECT_EQ(back.document->MemberBytes(i), pak.document->MemberBytes(i)) << members[i].name;
    }
  }
  const Scene again = DecodeDocument(back, DecodeContext{});
  const QuatXYZW q = again.clips[0].tracks[0].rotation.values.front();
  EXPECT_NEAR(q.z, half, 1e-3);
  EXPECT_NEAR(q.w, half, 1e-3);
  EXPECT_EQ(again.clips[1].tracks.size(), scene.clips[1].tracks.size());
  // Nothing edited: the template's bytes.
  const Scene unedited = DecodeDocument(pak, DecodeContext{});
  EncodeContext same;
  same.templ = &templ;
  EXPECT_EQ(pak.format->encode(unedited, same)->Write(), original);
  // No template: an error saying what to give.
  EncodeContext none;
  EXPECT_TRUE(test::Has(test::ErrorOf([&] { pak.format->encode(scene, none); }), "--template"));
}

void Put(const std::filesystem::path& path, const Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

TEST(MetroidPakCharacter, CliConvertsInfoAndFolderRunsGiveAFilePerCharacter) {
  const std::filesystem::path dir = test::TempDir("metroid_pak_character");
  const std::string pak = (dir / "Metroid1.pak").string();
  Put(pak, CharacterPak(true));
  std::string out, err;
  ASSERT_EQ(test::RunCli("sample \"" + pak + "\" --character 0000BBBB.ANCS/Samus", &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, "\"walk\"")) << out;
  EXPECT_TRUE(test::Has(out, "loop:Loop")) << out;
  ASSERT_EQ(test::RunCli("info \"" + pak + "\" --json", &out, &err), 0) << err;
  EXPECT_TRUE(test::Has(out, "\"ancs_member\": \"0000BBBB.ANCS\"")) << out;
  EXPECT_TRUE(test::Has(out, "\"idle\"")) << out;
  const std::string glb = (dir / "samus.glb").string();
  ASSERT_EQ(test::RunCli("convert \"" + pak + "\" \"" + glb + "\" --character 0000AAAA.ANCS/Samus", &out, &err), 0) << err;
  EXPECT_TRUE(std::filesystem::file_size(glb) > 0);
  // A folder holding the PAK: a glb per character, the characters' members left to them.
  const std::filesystem::path dump = dir / "dump", outdir = dir / "out";
  std::filesystem::create_directories(dump);
  Put(dump / "Metroid1.pak", CharacterPak(true));
  ASSERT_EQ(test::RunCli("convert \"" + dump.string() + "\" \"" + outdir.string() + "\"", &out, &err), 0) << err;
  EXPECT_TRUE(std::filesystem::is_regular_file(outdir / "Metroid1.pak" / "0000AAAA.ANCS" / "Samus.glb")) << out << err;
  EXPECT_TRUE(std::filesystem::is_regular_file(outdir / "Metroid1.pak" / "0000BBBB.ANCS" / "Samus.glb")) << out << err;
  EXPECT_FALSE(std::filesystem::exists(outdir / "Metroid1.pak" / "00000010.glb"));  // the CINF: read with them
  EXPECT_TRUE(test::Has(out + err, "read with the scenes of Metroid1.pak")) << out << err;
}

}  // namespace
}  // namespace animkit
