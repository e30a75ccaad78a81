// Format options: the declarations every front end is built from, checked by the library.
#include <animkit/formats/registry.hpp>
#include "formats/common/options.hpp"
#include "support/expect_same.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace animkit {
namespace {

using fields::Field;

// What an option means, which every format declaring its name must agree on.
constexpr auto kMeaning = fields::List(
    Field{"type", &OptionSpec::type}, Field{"choices", &OptionSpec::choices}, Field{"help", &OptionSpec::help},
    Field{"default_value", &OptionSpec::default_value}, Field{"min", &OptionSpec::min}, Field{"max", &OptionSpec::max},
    Field{"min_exclusive", &OptionSpec::min_exclusive});

std::string SetError(const std::string& name, const std::string& value) {
  Options o;
  try {
    SetOption(o, name, value);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(FormatOptions, UnknownNameIsAnErrorNamingTheKnownOnes) {
  const std::string err = SetError("eular", "xyz");
  EXPECT_NE(err.find("unknown option 'eular'"), std::string::npos) << err;
  EXPECT_NE(err.find("euler"), std::string::npos) << err;  // the list of names includes the right one
  Options o;
  EXPECT_THROW(SetOption(o, "", "1"), Error);
  EXPECT_TRUE(o.values().empty());  // nothing is kept from a rejected Set
}

// A value SetOption rejects, and the whole message it gives.
struct Rejected {
  const char* name;
  const char* value;
  const char* error;
};
void ExpectSetErrors(std::initializer_list<Rejected> rejected) {
  for (const Rejected& r : rejected) EXPECT_EQ(SetError(r.name, r.value), r.error) << "--" << r.name << " " << r.value;
}

TEST(FormatOptions, BadChoicesNamesAndFlagsAreErrorsNamingWhatIsAllowed) {
  ExpectSetErrors({{"euler", "xyz2", "option --euler expects xyz|zyx, got 'xyz2'"},
                   {"anm-set", "two words", "option --anm-set expects a name without spaces, got 'two words'"},
                   {"anm-set", "", "option --anm-set expects a name without spaces, got ''"},
                   {"raw", "yes", "option --raw expects 1 or 0, got 'yes'"}});
}

TEST(FormatOptions, NumbersOutsideTheirRangeAreErrorsNamingTheRange) {
  ExpectSetErrors({{"psx-rate", "fast", "option --psx-rate expects a number 0..1000, got 'fast'"},
                   {"psx-rate", "1000.5", "option --psx-rate expects a number 0..1000, got '1000.5'"},
                   {"psx-rate", "-1", "option --psx-rate expects a number 0..1000, got '-1'"},
                   {"anm-gap", "1.5", "option --anm-gap expects a whole number 1..100000, got '1.5'"},
                   {"rotation-divisor", "0", "option --rotation-divisor expects a whole number 1..32767, got '0'"},
                   {"canm-fps", "0", "option --canm-fps expects a number > 0 and <= 1000, got '0'"},
                   {"max-error-pos", "-0.5", "option --max-error-pos expects a number >= 0, got '-0.5'"},
                   {"kh2-tolerance", "nan", "option --kh2-tolerance expects a number 0..1, got 'nan'"},
                   {"psx-rate", "24 ", "option --psx-rate expects a number 0..1000, got '24 '"}});
}

TEST(FormatOptions, GoodValuesAreKeptAndReadTyped) {
  Options o;
  SetOption(o, "euler", "zyx");
  SetOption(o, "psx-rate", "24");
  SetOption(o, "canm-fps", "1000");
  SetOption(o, "anm-gap", "100000");
  SetOption(o, "raw", "1");
  EXPECT_EQ(o.Get("euler"), "zyx");  // kept as given
  // Read through typed declarations of the registry's specs (each format's own are private to it).
  const ChoiceOption<EulerOrder> euler{*FindOption("euler"), {{"xyz", EulerOrder::XYZ}, {"zyx", EulerOrder::ZYX}}};
  const ChoiceOption<int> version{*FindOption("anim-version"), {{"0", 0}, {"2", 2}}};
  const NumberOption<double> rate{*FindOption("psx-rate")}, fps{*FindOption("canm-fps")};
  const NumberOption<double> tolerance{*FindOption("kh2-tolerance")}, error_pos{*FindOption("max-error-pos")};
  const NumberOption<uint32_t> gap{*FindOption("anm-gap")};
  const FlagOption raw{*FindOption("raw")};
  EXPECT_EQ(euler.Get(o), EulerOrder::ZYX);
  EXPECT_DOUBLE_EQ(rate.Get(o), 24.0);
  EXPECT_DOUBLE_EQ(fps.Get(o), 1000.0);
  EXPECT_EQ(gap.Get(o), 100000u);
  EXPECT_TRUE(raw.Get(o));
  // Unset: the declared default, or the caller's fallback where the default depends on the input.
  const Options empty;
  EXPECT_EQ(euler.Get(empty), EulerOrder::XYZ);
  EXPECT_EQ(gap.Get(empty), 10u);
  EXPECT_DOUBLE_EQ(tolerance.Get(empty), 1e-4);
  EXPECT_FALSE(raw.Get(empty));
  EXPECT_EQ(version.Get(empty, 0), 0);
  EXPECT_DOUBLE_EQ(error_pos.Get(empty, -1), -1.0);
}

TEST(FormatOptions, EveryDeclarationIsConsistent) {
  std::set<std::string_view> names;
  for (const FormatDescriptor* f : Formats()) {
    std::set<std::string_view> own;
    for (const OptionSpec& spec : f->options) {
      SCOPED_TRACE(std::string(f->id) + " --" + std::string(spec.name));
      EXPECT_TRUE(own.insert(spec.name).second) << "declared twice";
      names.insert(spec.name);
      EXPECT_FALSE(spec.name.empty());
      EXPECT_EQ(spec.name.find_first_of(" =_"), std::string_view::npos);
      EXPECT_NE(spec.name.front(), '-');
      EXPECT_FALSE(spec.help.empty());
      EXPECT_EQ(spec.help.find('\n'), std::string_view::npos);
      EXPECT_EQ(spec.choices.empty(), spec.type != OptionType::Choice);
      if (!spec.default_value.empty()) {
        EXPECT_NO_THROW(CheckOptionValue(spec, spec.default_value));
      }
      // A name several formats declare means the same everywhere.
      const OptionSpec& first = *FindOption(spec.name);
      test::ExpectSameMembers(spec, first, "as first declared", kMeaning);
    }
  }
  EXPECT_EQ(AllOptions().size(), names.size());
  EXPECT_EQ(FindOption("eular"), nullptr);
}

TEST(FormatOptions, HelpCarriesValuesAndDefault) {
  EXPECT_EQ(OptionHelp(*FindOption("euler")),
            "Euler order of PS1 ANM rotations (xyz: X applied first, R = Rz Ry Rx) (xyz|zyx; default xyz)");
  EXPECT_EQ(OptionHelp(*FindOption("raw")), "KH2: write raw matrices instead of an interpolated motion");
}

// docs/cli.md holds the generated table between two markers; regenerate it with
// `animkit formats --options --markdown`.
TEST(FormatOptions, DocsTableIsTheGeneratedOne) {
  std::ifstream in(test::SourcePath("docs/cli.md"));
  ASSERT_TRUE(in) << "docs/cli.md";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- format-options:begin -->\n", end = "<!-- format-options:end -->";
  const size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  ASSERT_LT(b, e);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), FormatOptionsMarkdown())
      << "docs/cli.md is out of date: paste `animkit formats --options --markdown` between the markers";
}

TEST(FormatOptions, CliPrintsTheTableAndRejectsBadValues) {
  std::string out, err;
  ASSERT_EQ(test::RunCli("formats --options --markdown", &out, &err), 0) << err;
  EXPECT_EQ(out, FormatOptionsMarkdown());
  ASSERT_EQ(test::RunCli("formats", &out, &err), 0) << err;
  EXPECT_NE(out.find("edf-canm"), std::string::npos);
  EXPECT_NE(out.find("edf-mdb"), std::string::npos);
  // The value is checked by the library even for a file whose format ignores the option.
  EXPECT_EQ(test::RunCli("info " + test::SourcePath("docs/cli.md") + " --psx-rate fast", &out, &err), 1);
  EXPECT_NE(err.find("option --psx-rate expects a number 0..1000, got 'fast'"), std::string::npos) << err;
}

TEST(FormatsValue, IsTheRegistryAndTheClisFormatsJson) {
  const Value doc = FormatsValue();
  ASSERT_EQ(doc["formats"].size(), Formats().size());
  for (size_t k = 0; k < Formats().size(); ++k) {
    const FormatDescriptor& f = *Formats()[k];
    const Value& v = doc["formats"][k];
    EXPECT_EQ(v["id"].as_string(), f.id);
    const bool z_up = f.id.starts_with("metroid-") && f.part_of.empty();  // Metroid's rigs and models
    EXPECT_EQ(v["up_axis"].as_string(), f.id.starts_with("psx-") ? "-Y" : z_up ? "+Z" : "+Y") << f.id;
    EXPECT_EQ(v["multi_clip"].get<bool>(), f.multi_clip) << f.id;
    EXPECT_EQ(v["options"].size(), f.options.size()) << f.id;
    EXPECT_EQ(v["writable"].get<bool>(), f.encode != nullptr) << f.id;
    for (const Value& e : v["animation_extensions"])  // a format writes animation to its own extensions only
      EXPECT_NE(std::find(f.extensions.begin(), f.extensions.end(), e.as_string()), f.extensions.end()) << f.id;
  }
  EXPECT_EQ(doc["limits"].size(), LimitTable().size());
  const FormatDescriptor* canm = FindFormat("edf-canm");
  ASSERT_NE(canm, nullptr);
  EXPECT_TRUE(canm->multi_clip);
  EXPECT_EQ(canm->options[0].use, OptionUse::ReadWrite);  // canm-fps: decoding and encoding
  std::string out;
  ASSERT_EQ(test::RunCli("formats --json", &out), 0);
  EXPECT_EQ(out, DumpJson(doc, 2) + "\n");
}

}  // namespace
}  // namespace animkit
