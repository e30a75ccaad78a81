// The export plan (pipeline/export_plan.hpp): the format an export writes (its own, its
// family's, another family's only when asked for), --to, the template and the losses, for
// the add-on's animation exports and for `convert`'s outputs; the CLI verb over it.
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/export_plan.hpp>

#include "support/test_support.hpp"

#include <array>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace animkit {
namespace {

const std::string kMset = test::SourcePath("samples/kh2_bar/p_ex00.mset");

ExportPlan Plan(const std::string& output, const std::string& format, const std::string& source,
                const std::string& source_format, bool use_template = true,
                ExportOutput kind = ExportOutput::Animation) {
  ExportPlanJob job;
  job.output = output;
  job.format = format;
  job.source = source;
  job.source_format = source_format;
  job.use_template = use_template;
  job.kind = kind;
  return job.Run();
}

std::string FormatOf(const std::string& output, const std::string& format, const std::string& source_format,
                     ExportOutput kind = ExportOutput::Animation) {
  return std::string(Plan(output, format, "", source_format, true, kind).format->id);
}

std::string RefusalOf(const std::string& output, const std::string& format, const std::string& source_format,
                      ExportOutput kind = ExportOutput::Animation) {
  return test::ErrorOf([&] { Plan(output, format, "", source_format, true, kind); });
}

TEST(ExportPlan, Families) {
  auto same = [](std::string_view a, std::string_view b) { return SameFamily(*FindFormat(a), *FindFormat(b)); };
  for (auto [a, b] : {std::pair{"kh2-bar", "kh2-motion"}, {"psx-tmd", "psx-anm"}, {"edf-mdb", "edf-canm"},
                      {"metroid-cinf", "metroid-anim"}, {"gltf", "text-anm"}, {"kh2-bar", "kh2-bar"},
                      {"edf-rab", "edf-cas"}}) {
    EXPECT_TRUE(same(a, b)) << a << " " << b;
    EXPECT_TRUE(same(b, a)) << b << " " << a;
  }
  for (auto [a, b] : {std::pair{"kh2-bar", "psx-anm"}, {"psx-anm", "text-anm"}, {"edf-canm", "metroid-anim"}})
    EXPECT_FALSE(same(a, b)) << a << " " << b;
  EXPECT_TRUE(same("edf-canm", "edf-cas")) << "both pair with an .mdb";
}

TEST(ExportPlan, OwnFormatWithItsTemplate) {
  const ExportPlan own = Plan("/o/x.mset", "", kMset, "kh2-bar");
  EXPECT_EQ(own.format->id, "kh2-bar");
  EXPECT_FALSE(own.needs_to);
  EXPECT_EQ(own.template_path, kMset);
  EXPECT_TRUE(own.notes.empty());
  EXPECT_EQ(own.output, "/o/x.mset");
  EXPECT_EQ(FormatOf("/o/a.anm", "", "text-anm"), "text-anm") << "its own before the table's first (.anm)";
}

TEST(ExportPlan, TemplateOnlyWithTheSameFormatAndExtension) {
  EXPECT_EQ(Plan("/o/x.anb", "", kMset, "kh2-bar").template_path, "") << "kh2-bar, but .anb is not .mset";
  EXPECT_EQ(Plan("/o/x.mset", "", kMset, "kh2-bar", false).template_path, "") << "not asked for";
  EXPECT_EQ(Plan("/o/x.mset", "", "/nonexistent/p.mset", "kh2-bar").template_path, "") << "no file";
  EXPECT_EQ(Plan("/o/x.mset", "kh2-bar", kMset, "kh2-bar").template_path, kMset) << "asked for: the same";
  EXPECT_EQ(Plan("/o/x.MSET", "", kMset, "kh2-bar").template_path, kMset) << "extensions in any case";
  const ExportPlan family = Plan("/o/x.motion", "", kMset, "kh2-bar");
  EXPECT_EQ(family.template_path, "") << "another format of the family";
}

TEST(ExportPlan, FamilyFormats) {
  EXPECT_EQ(FormatOf("/o/a.motion", "", "kh2-bar"), "kh2-motion");
  EXPECT_EQ(FormatOf("/o/a.anm", "", "psx-tmd"), "psx-anm");
  EXPECT_EQ(FormatOf("/o/a.canm", "", "edf-mdb"), "edf-canm");
  EXPECT_EQ(FormatOf("/o/a.anm", "", ""), "psx-anm") << "made in Blender: the extension's first";
  // One family, another format: only the source's own data is lost.
  const ExportPlan p = Plan("/o/a.motion", "", kMset, "kh2-bar");
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0].level, NoteLevel::Warning);
  EXPECT_EQ(p.notes[0].text,
            "writing kh2-motion: what the kh2-bar file holds beyond its clips (its header, other entries, the "
            "format's own fields) is not kept: it cannot serve as template");
}

TEST(ExportPlan, AnotherFamilyIsRefusedSayingHow) {
  EXPECT_EQ(RefusalOf("/o/a.anm", "", "kh2-bar"),
            "a.anm: this rig was imported from a kh2-bar file (its own extensions: .anb .mset); .anm is another "
            "family's format. To write it, choose Format psx-anm or text-anm explicitly (what the kh2-bar file "
            "holds beyond its clips (its header, other entries, the format's own fields) is not kept: it cannot "
            "serve as template; psx-anm files take their skeleton from a companion (.tmd) and this rig's kh2-bar "
            "skeleton is not one: read back without it, the joints lose their hierarchy and rest pose)");
  EXPECT_TRUE(test::Has(RefusalOf("/o/a.anc", "", "psx-tmd"), "a.anc: this rig was imported from a psx-tmd file;"))
      << "a format writing no animation names no extensions of its own";
}

TEST(ExportPlan, ExplicitFormat) {
  const ExportPlan p = Plan("/o/x.anm", "psx-anm", kMset, "kh2-bar");
  EXPECT_EQ(p.format->id, "psx-anm");
  EXPECT_TRUE(p.needs_to) << "text-anm writes .anm too";
  EXPECT_EQ(p.template_path, "");
  ASSERT_EQ(p.notes.size(), 2u);
  EXPECT_TRUE(test::Has(p.notes[1].text, "writing psx-anm: psx-anm files take their skeleton from a companion (.tmd)"));
  const ExportPlan anc = Plan("/o/x.anc", "psx-anc", kMset, "kh2-bar");
  ASSERT_EQ(anc.notes.size(), 2u);
  EXPECT_EQ(anc.notes[1].text, "writing psx-anc: psx-anc holds no skeleton: the rig's hierarchy and rest pose are not written");
  EXPECT_EQ(RefusalOf("/o/a.mset", "psx-anm", "kh2-bar"),
            "psx-anm writes .anm, not .mset: give the file one of those extensions");
  EXPECT_EQ(FormatOf("/o/a.anm", "anm", ""), "psx-anm") << "an extension, as --to takes";
}

TEST(ExportPlan, ExtensionNamingNoAnimationFormat) {
  EXPECT_EQ(RefusalOf("/o/a.glb", "", "kh2-bar"),
            "/o/a.glb: the extension names no format animkit writes an animation to (.anm, .anc, .anim, .canm, "
            ".anb, .mset, .motion, .cas, .pak)");
  EXPECT_TRUE(test::Has(RefusalOf("/o/a.glb", "gltf", ""), "names no format animkit writes an animation to"));
}

// convert's outputs: glTF and model archives too, the template as the source.
TEST(ExportPlan, AnyOutputForConvert) {
  const auto any = ExportOutput::Any;
  EXPECT_EQ(FormatOf("/o/a.glb", "", "", any), "gltf");
  EXPECT_EQ(FormatOf("/o/a.glb", "", "text-anm", any), "gltf") << "text ANM pairs with a glTF";
  EXPECT_EQ(FormatOf("/o/a.mdlx", "", "kh2-bar", any), "kh2-bar");
  EXPECT_EQ(FormatOf("/o/a.bin", "glb", "", any), "gltf") << "an extension no format names: --to decides";
  EXPECT_EQ(FormatOf("/o/a.anm", "", "text-anm", any), "text-anm") << "the template's format";
  EXPECT_EQ(RefusalOf("/o/a.bin", "", "", any), "/o/a.bin: cannot tell the output format from the extension '.bin' (use --to ID)");
  EXPECT_EQ(RefusalOf("/o/a.anm", "glb", "", any), "gltf writes .gltf .glb, not .anm: give the file one of those extensions");
  EXPECT_TRUE(test::Has(RefusalOf("/o/a.anm", "", "kh2-bar", any),
                        "the template is a kh2-bar file (its own extensions: .anb .mset); .anm is another family's "
                        "format. To write it, give --to psx-anm or text-anm ("));
  EXPECT_EQ(FormatOf("/o/a.anm", "psx-anm", "kh2-bar", any), "psx-anm") << "--to: any family";
}

TEST(ExportPlan, DefaultPath) {
  // {source, its format, the default export path}
  const std::vector<std::array<std::string, 3>> cases = {{"/x/P_EX100.mset", "kh2-bar", "/x/P_EX100.mset"},
                                                         {"/x/ex00.mdlx", "kh2-bar", "/x/ex00.anb"},
                                                         {"/x/figure.tmd", "psx-tmd", "/x/figure.anm"},
                                                         {"/x/soldier.mdb", "edf-mdb", "/x/soldier.canm"},
                                                         {"", "", ""}};
  for (const auto& [source, format, expected] : cases) EXPECT_EQ(DefaultExportPath(source, format), expected) << source;
  ExportPlanJob job;
  job.source = "/x/figure.tmd";
  job.source_format = "psx-tmd";
  const ExportPlan p = job.Run();
  EXPECT_EQ(p.output, "/x/figure.anm") << "no output: the default one";
  EXPECT_EQ(p.format->id, "psx-anm");
}

TEST(ExportPlan, ValidateNamesTheInput) {
  ExportPlanJob job;
  job.output = "/o/a.anm";
  job.source_format = "nosuch";
  EXPECT_EQ(test::ErrorOf([&] { job.Validate(); }), "unknown format id 'nosuch'");
  job.source_format = "";
  job.format = "nosuch";
  EXPECT_EQ(test::ErrorOf([&] { job.Validate(); }), "unknown output format 'nosuch'");
  EXPECT_TRUE(test::Has(test::ErrorOf([] { ExportPlanJob{}.Validate(); }), "no output file"));
}

TEST(ExportPlan, Json) {
  ExportPlanJob job;
  job.output = "/o/x.anm";
  job.format = "psx-anm";
  job.source = kMset;
  job.source_format = "kh2-bar";
  const nlohmann::json j = nlohmann::json::parse(DumpJson(ExportPlanValue(job, job.Run())));
  EXPECT_EQ(j["format"], "psx-anm");
  EXPECT_EQ(j["to"], true);
  EXPECT_TRUE(j["template"].is_null());
  EXPECT_EQ(j["family"], nlohmann::json({"kh2-bar", "kh2-motion"}));
  ASSERT_EQ(j["notes"].size(), 2u);
  EXPECT_EQ(j["notes"][0]["level"], "warning");
}

// `animkit export-plan`: the job's JSON on stdout, its refusal on stderr (status 1).
TEST(ExportPlan, CliVerb) {
  std::string out, err;
  ASSERT_EQ(test::RunCli("export-plan /o/x.mset --source " + kMset + " --source-format kh2-bar --json", &out, &err), 0)
      << err;
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["format"], "kh2-bar");
  EXPECT_EQ(j["template"], kMset);
  ASSERT_EQ(test::RunCli("export-plan --source " + kMset + " --source-format kh2-bar --no-template --json", &out, &err), 0)
      << err;
  EXPECT_EQ(nlohmann::json::parse(out)["output"], kMset) << "no OUT: the default file";
  EXPECT_TRUE(nlohmann::json::parse(out)["template"].is_null());
  EXPECT_EQ(test::RunCli("export-plan /o/x.anm --source " + kMset + " --source-format kh2-bar", &out, &err), 1);
  EXPECT_TRUE(test::Has(err, "choose Format psx-anm or text-anm explicitly"));
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

// `animkit convert` takes its output format from the plan, its --template as the source.
TEST(ExportPlan, ConvertFollowsThePlan) {
  const auto dir = test::TempDir("export_plan_convert");
  const std::string walk = test::SourcePath("samples/kh2_bar/walk.anb");
  const std::string anm = (dir / "o.anm").string();
  std::string out, err;
  EXPECT_EQ(test::RunCli("convert " + walk + " " + anm + " --template " + kMset, &out, &err), 1);
  EXPECT_TRUE(test::Has(err, "the template is a kh2-bar file (its own extensions: .anb .mset); .anm is another "
                             "family's format. To write it, give --to psx-anm or text-anm"));
  EXPECT_EQ(test::RunCli("convert " + walk + " " + anm + " --to kh2-bar", &out, &err), 1);
  EXPECT_TRUE(test::Has(err, "kh2-bar writes .anb .mset .bar .mdlx, not .anm: give the file one of those extensions"));
  EXPECT_FALSE(std::filesystem::exists(anm));
  // A template of the family: its format, not the extension's first.
  const std::string text = (dir / "t.anm").string(), back = (dir / "back.anm").string();
  ASSERT_EQ(test::RunCli("convert " + walk + " " + text + " --to text-anm --skeleton none", &out, &err), 0) << err;
  ASSERT_EQ(test::RunCli("convert -v " + text + " " + back + " --template " + text, &out, &err), 0) << err;
  EXPECT_EQ(nlohmann::json::parse(err.substr(err.find('{')))["output_format"], "text-anm");
}

}  // namespace
}  // namespace animkit
