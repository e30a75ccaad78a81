// Format options: the declarations every front end is built from, checked by the library.
#include <animkit/formats/registry.hpp>
#include "support/test_support.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace animkit {
namespace {

std::string SetError(const std::string& name, const std::string& value) {
  Options o;
  try {
    o.Set(name, value);
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
  EXPECT_THROW(o.Set("", "1"), Error);
  EXPECT_TRUE(o.values().empty());  // nothing is kept from a rejected Set
}

TEST(FormatOptions, BadChoicesNamesAndFlagsAreErrorsNamingWhatIsAllowed) {
  EXPECT_EQ(SetError("euler", "xyz2"), "option --euler expects xyz|zyx, got 'xyz2'");
  EXPECT_EQ(SetError("anm-set", "two words"), "option --anm-set expects a name without spaces, got 'two words'");
  EXPECT_EQ(SetError("anm-set", ""), "option --anm-set expects a name without spaces, got ''");
  EXPECT_EQ(SetError("raw", "yes"), "option --raw expects 1 or 0, got 'yes'");
}

TEST(FormatOptions, NumbersOutsideTheirRangeAreErrorsNamingTheRange) {
  EXPECT_EQ(SetError("psx-rate", "fast"), "option --psx-rate expects a number 0..1000, got 'fast'");
  EXPECT_EQ(SetError("psx-rate", "1000.5"), "option --psx-rate expects a number 0..1000, got '1000.5'");
  EXPECT_EQ(SetError("psx-rate", "-1"), "option --psx-rate expects a number 0..1000, got '-1'");
  EXPECT_EQ(SetError("anm-gap", "1.5"), "option --anm-gap expects a whole number 1..100000, got '1.5'");
  EXPECT_EQ(SetError("rotation-divisor", "0"), "option --rotation-divisor expects a whole number 1..32767, got '0'");
  EXPECT_EQ(SetError("canm-fps", "0"), "option --canm-fps expects a number > 0 and <= 1000, got '0'");
  EXPECT_EQ(SetError("max-error-pos", "-0.5"), "option --max-error-pos expects a number >= 0, got '-0.5'");
  EXPECT_EQ(SetError("kh2-tolerance", "nan"), "option --kh2-tolerance expects a number 0..1, got 'nan'");
  EXPECT_EQ(SetError("psx-rate", "24 "), "option --psx-rate expects a number 0..1000, got '24 '");
}

TEST(FormatOptions, GoodValuesAreKeptAndReadTyped) {
  Options o;
  o.Set("euler", "zyx");
  o.Set("psx-rate", "24");
  o.Set("canm-fps", "1000");
  o.Set("anm-gap", "100000");
  o.Set("raw", "1");
  o.Set(kSourcePathOption, "/some/where/file.anb");  // the library's own, declared by no format
  EXPECT_EQ(o.Choice(*FindOption("euler")), "zyx");
  EXPECT_DOUBLE_EQ(o.Number(*FindOption("psx-rate")), 24.0);
  EXPECT_DOUBLE_EQ(o.Number(*FindOption("canm-fps")), 1000.0);
  EXPECT_TRUE(o.Flag(*FindOption("raw")));
  EXPECT_EQ(o.Get(kSourcePathOption), "/some/where/file.anb");
  // Unset: the declared default, or the caller's fallback where the default depends on the input.
  const Options empty;
  EXPECT_EQ(empty.Choice(*FindOption("euler")), "xyz");
  EXPECT_DOUBLE_EQ(empty.Number(*FindOption("anm-gap")), 10.0);
  EXPECT_DOUBLE_EQ(empty.Number(*FindOption("kh2-tolerance")), 1e-4);
  EXPECT_FALSE(empty.Flag(*FindOption("raw")));
  EXPECT_EQ(empty.Choice(*FindOption("anim-version"), "0"), "0");
  EXPECT_DOUBLE_EQ(empty.Number(*FindOption("max-error-pos"), -1), -1.0);
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
      EXPECT_EQ(first.type, spec.type);
      EXPECT_EQ(first.choices, spec.choices);
      EXPECT_EQ(first.default_value, spec.default_value);
      EXPECT_EQ(first.min, spec.min);
      EXPECT_EQ(first.max, spec.max);
      EXPECT_EQ(first.help, spec.help);
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
    EXPECT_EQ(v["up_axis"].as_string(), f.id.starts_with("psx-") ? "-Y" : "+Y") << f.id;
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
