// Bone maps (offline/bone_map.hpp): the automatic map by exact, normalised and numbered names,
// the JSON and CSV files a user edits, their errors, and BoneMapText read back.
#include "support/test_support.hpp"

#include <animkit/offline/bone_map.hpp>

namespace animkit {
namespace {

Skeleton Named(const std::vector<std::string>& names, const std::vector<int>& parents) {
  Skeleton s;
  for (size_t i = 0; i < names.size(); ++i) s.joints.push_back({names[i], parents[i], {}});
  return s;
}

// Per target joint, the name of its source joint ("" unmapped).
std::vector<std::string> SourceNames(const BoneMap& map, const Skeleton& source) {
  std::vector<std::string> out;
  for (int j : map.source_of) out.push_back(j < 0 ? "" : source.joints[size_t(j)].name);
  return out;
}

TEST(BoneMap, NormalisedNames) {
  EXPECT_EQ(NormalisedJointName("LeftUpLeg"), "left upleg");
  EXPECT_EQ(NormalisedJointName("upleg_L"), "left upleg");
  EXPECT_EQ(NormalisedJointName("L_UpLeg"), "left upleg");
  EXPECT_EQ(NormalisedJointName("mixamorig:LeftUpLeg"), "left upleg");
  EXPECT_EQ(NormalisedJointName("UpLegLeft"), "left upleg");
  EXPECT_EQ(NormalisedJointName("Bip01 L Thigh"), "left thigh");
  EXPECT_EQ(NormalisedJointName("thigh.l"), "left thigh");
  EXPECT_EQ(NormalisedJointName("R-Hand"), "right hand");
  EXPECT_EQ(NormalisedJointName("hand_Right"), "right hand");
  EXPECT_EQ(NormalisedJointName("Bip01_Spine"), "spine");
  EXPECT_EQ(NormalisedJointName("HIPS"), "hips");
  EXPECT_EQ(NormalisedJointName("hips"), "hips");
  EXPECT_EQ(NormalisedJointName("Armature|Hips"), "hips");
  EXPECT_EQ(NormalisedJointName("L"), "l");  // a side word alone is the name
}

TEST(BoneMap, NamesThatSayNothing) {
  for (const char* name : {"#0", "#228", "joint_3", "bone12", "node 4", "J7", "_12"}) EXPECT_TRUE(JointNameSaysNothing(name)) << name;
  for (const char* name : {"Hips", "joint", "Bone", "thigh_L", "Spine1", "head_2x"}) EXPECT_FALSE(JointNameSaysNothing(name)) << name;
}

TEST(BoneMap, AutoExactThenNormalised) {
  const Skeleton source = Named({"mixamorig:Hips", "mixamorig:LeftUpLeg", "mixamorig:RightUpLeg", "Spine", "Bip01 L Thigh"},
                                {-1, 0, 0, 0, 3});
  const Skeleton target = Named({"Hips", "upleg_L", "RightUpLeg", "Spine", "thigh.l", "Tail"}, {-1, 0, 0, 0, 3, 0});
  const BoneMap map = AutoBoneMap(target, source);
  EXPECT_EQ(map.source_of, (std::vector<int>{0, 1, 2, 3, 4, -1}));
  EXPECT_EQ(map.match, (std::vector<BoneMatch>{BoneMatch::Normalised, BoneMatch::Normalised, BoneMatch::Normalised,
                                               BoneMatch::Exact, BoneMatch::Normalised, BoneMatch::None}));
  EXPECT_EQ(map.Mapped(), 5u);
  EXPECT_EQ(map.Unmapped(target), std::vector<std::string>{"Tail"});
  EXPECT_EQ(ToString(BoneMatch::Normalised), "normalised");
}

TEST(BoneMap, AnExactNameIsNotTakenTwice) {
  // "Spine" matches exactly; "spine" would normalise to it too but its source is taken.
  const Skeleton source = Named({"Spine"}, {-1});
  const BoneMap map = AutoBoneMap(Named({"spine", "Spine"}, {-1, 0}), source);
  EXPECT_EQ(map.source_of, (std::vector<int>{-1, 0}));
}

TEST(BoneMap, AmbiguousNormalisedNamesAreSkipped) {
  // Two source joints normalise to "left hand", two target joints to "left foot".
  const Skeleton source = Named({"Hips", "hand_L", "Hand.L", "L_Foot"}, {-1, 0, 0, 0});
  const Skeleton target = Named({"hips", "LeftHand", "foot_L", "LeftFoot"}, {-1, 0, 0, 0});
  const BoneMap map = AutoBoneMap(target, source);
  EXPECT_EQ(SourceNames(map, source), (std::vector<std::string>{"Hips", "", "", ""}));
}

TEST(BoneMap, NumberedNamesByIndexWithinTheSharedHierarchy) {
  // Parents agree up to joint 4; joint 5's differ (4 vs 0), so neither it nor joint 6 (whose
  // parents agree again) is matched. Joint 2 of the target has a name: not matched by index.
  const Skeleton source = Named({"#0", "#1", "#2", "#3", "#4", "#5", "#6"}, {-1, 0, 1, 2, 1, 0, 5});
  const Skeleton target = Named({"#0", "joint_1", "Spine", "#3", "bone4", "#5", "#6"}, {-1, 0, 1, 2, 1, 4, 5});
  const BoneMap map = AutoBoneMap(target, source);
  EXPECT_EQ(map.source_of, (std::vector<int>{0, 1, -1, 3, 4, -1, -1}));
  // "#0" is the same name in both, yet a numbered name matches by hierarchy only.
  const BoneMap same = AutoBoneMap(source, source);
  EXPECT_TRUE(same.IsIdentity(source.joints.size()));
  for (BoneMatch m : same.match) EXPECT_EQ(m, BoneMatch::Hierarchy);
  EXPECT_EQ(map.match[1], BoneMatch::Hierarchy);
}

TEST(BoneMap, NumberedNamesStopAtAShorterSkeleton) {
  const Skeleton source = Named({"#0", "#1"}, {-1, 0});
  const Skeleton target = Named({"#0", "#1", "#2"}, {-1, 0, 1});
  EXPECT_EQ(AutoBoneMap(target, source).source_of, (std::vector<int>{0, 1, -1}));
}

const Skeleton& Source() {
  static const Skeleton s = Named({"Hips", "LeftUpLeg", "LeftLeg", "Spine"}, {-1, 0, 1, 0});
  return s;
}
const Skeleton& Target() {
  static const Skeleton s = Named({"pelvis", "thigh_L", "calf_L", "spine_01", "prop"}, {-1, 0, 1, 0, 3});
  return s;
}

TEST(BoneMap, ReadsJson) {
  const BoneMap map = ReadBoneMap(" {\"pelvis\": \"Hips\", \"thigh_L\": \"LeftUpLeg\", \"calf_L\": null,\n \"spine_01\": \"Spine\"}\n",
                                  "map.json", Target(), Source());
  EXPECT_EQ(map.source_of, (std::vector<int>{0, 1, -1, 3, -1}));
  EXPECT_EQ(map.match, (std::vector<BoneMatch>{BoneMatch::Given, BoneMatch::Given, BoneMatch::None, BoneMatch::Given,
                                               BoneMatch::None}));
}

TEST(BoneMap, ReadsCsv) {
  const std::vector<int> want{0, 1, -1, 3, -1};
  // A header, quoted fields, spaces, CRLF, empty lines, an empty source (unmapped).
  EXPECT_EQ(ReadBoneMap("target,source\r\n\"pelvis\",Hips\r\n\r\n thigh_L , \"LeftUpLeg\"\r\ncalf_L,\r\nspine_01,Spine",
                        "map.csv", Target(), Source()).source_of, want);
  EXPECT_EQ(ReadBoneMap("pelvis,Hips\nthigh_L,LeftUpLeg\nspine_01,\"Spine\"\n", "map.csv", Target(), Source()).source_of, want);
  EXPECT_EQ(ReadBoneMap("target,source\n", "map.csv", Target(), Source()).source_of, (std::vector<int>(5, -1)));
  EXPECT_EQ(ReadBoneMap("", "map.csv", Target(), Source()).Mapped(), 0u);
}

TEST(BoneMap, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(ReadBoneMap("\xEF\xBB\xBFtarget,source\npelvis,Hips\n", "bom.csv", Target(), Source()).source_of[0], 0);
  EXPECT_EQ(ReadBoneMap("\xEF\xBB\xBF{\"pelvis\": \"Hips\"}", "bom.json", Target(), Source()).source_of[0], 0);
}

TEST(BoneMap, CsvQuotedFieldsHoldCommasAndQuotes) {
  const Skeleton source = Named({"arm, \"upper\"", "Hips"}, {-1, 0});
  const BoneMap map = ReadBoneMap("pelvis,\"arm, \"\"upper\"\"\"\n", "map.csv", Target(), source);
  EXPECT_EQ(map.source_of[0], 0);
}

void ExpectError(const std::string& text, const std::string& file, const std::vector<std::string>& parts) {
  const std::string error = test::ErrorOf([&] { (void)ReadBoneMap(text, file, Target(), Source()); });
  ASSERT_FALSE(error.empty()) << text;
  EXPECT_TRUE(test::Has(error, file)) << error;
  for (const std::string& part : parts) EXPECT_TRUE(test::Has(error, part)) << error << " lacks " << part;
}

TEST(BoneMap, ErrorsNameTheFileAndTheJoint) {
  ExpectError("{\"tail\": \"Hips\"}", "a.json", {"no target joint", "\"tail\""});
  ExpectError("{\"pelvis\": \"Tail\"}", "a.json", {"no source joint", "\"Tail\"", "pelvis"});
  ExpectError("{\"pelvis\": 3}", "a.json", {"pelvis", "source joint's name or null"});
  ExpectError("{\"pelvis\": \"Hips\",", "a.json", {"not a JSON bone map"});
  ExpectError("[\"pelvis\", \"Hips\"]", "a.json", {"line 1", "no target joint"});  // not an object: read as CSV
  ExpectError("pelvis,Hips\nthigh_L,Tail\n", "b.csv", {"line 2", "no source joint", "\"Tail\""});
  ExpectError("pelvis,Hips\ntail,Hips\n", "b.csv", {"line 2", "no target joint", "\"tail\""});
  ExpectError("pelvis,Hips\n\npelvis,Spine\n", "b.csv", {"line 3", "\"pelvis\"", "named twice"});
  ExpectError("pelvis,Hips,Spine\n", "b.csv", {"line 1", "two fields"});
  ExpectError("just some words\n", "c.txt", {"line 1", "two fields"});
}

TEST(BoneMap, JsonTargetNamedTwiceIsAnError) {
  ExpectError("{\"pelvis\": \"Hips\", \"pelvis\": \"Spine\"}", "d.json", {"\"pelvis\"", "named twice"});
}

void ExpectRoundTrip(const BoneMap& map, const Skeleton& target, const Skeleton& source) {
  for (const bool csv : {false, true}) {
    const std::string text = BoneMapText(map, target, source, csv);
    const BoneMap back = ReadBoneMap(text, csv ? "out.csv" : "out.json", target, source);
    EXPECT_EQ(back.source_of, map.source_of) << text;
    for (size_t k = 0; k < map.source_of.size(); ++k)
      EXPECT_EQ(back.match[k], map.source_of[k] < 0 ? BoneMatch::None : BoneMatch::Given);
  }
}

TEST(BoneMap, TextReadsBackInBothForms) {
  BoneMap map;
  map.source_of = {0, 1, -1, 3, -1};
  map.match = {BoneMatch::Exact, BoneMatch::Normalised, BoneMatch::None, BoneMatch::Given, BoneMatch::None};
  ExpectRoundTrip(map, Target(), Source());
  EXPECT_EQ(BoneMapText(map, Target(), Source(), true),
            "target,source\npelvis,Hips\nthigh_L,LeftUpLeg\ncalf_L,\nspine_01,Spine\nprop,\n");
  EXPECT_EQ(BoneMapText(map, Target(), Source(), false),
            "{\n  \"pelvis\": \"Hips\",\n  \"thigh_L\": \"LeftUpLeg\",\n  \"calf_L\": null,\n  \"spine_01\": \"Spine\",\n"
            "  \"prop\": null\n}\n");
}

TEST(BoneMap, CsvQuotedSpacesAreKept) {
  const Skeleton source = Named({" hips ", "hips"}, {-1, 0});
  EXPECT_EQ(ReadBoneMap("pelvis,\" hips \"\nthigh_L,  hips  \n", "map.csv", Target(), source).source_of,
            (std::vector<int>{0, 1, -1, -1, -1}));
}

TEST(BoneMap, TextOfAwkwardNamesReadsBack) {
  // Commas, quotes, a backslash, spaces at either end, a name like the header's.
  const Skeleton source = Named({"arm, \"upper\"", " hips ", "a\\b", "source"}, {-1, 0, 0, 0});
  const Skeleton target = Named({"target", "x,y", "\"q\"", " lead", "tail "}, {-1, 0, 0, 0, 0});
  BoneMap map;
  map.source_of = {3, 0, 1, 2, -1};
  map.match.assign(5, BoneMatch::Given);
  map.match[4] = BoneMatch::None;
  ExpectRoundTrip(map, target, source);
}

}  // namespace
}  // namespace animkit
