// Typed option declarations (formats/common/options.hpp): each makes its spec and reads its value;
// names and values are checked where a front end takes them in, not by Options.
#include <animkit/formats/registry.hpp>
#include "formats/common/options.hpp"
#include "support/test_support.hpp"

#include <filesystem>
#include <fstream>

namespace animkit {
namespace {

enum class Shade { Light, Dark };

const ChoiceOption<Shade> kShadeOption{{.name = "shade", .help = "how dark", .default_value = "light"},
                                       {{"light", Shade::Light}, {"dark", Shade::Dark}}};
const ChoiceOption<int> kLevelOption{{.name = "level", .help = "which level; default: the input's"},
                                     {{"1", 1}, {"3", 3}}};
const NumberOption<uint16_t> kCountOption{{.name = "count", .help = "how many", .default_value = "4", .min = 1, .max = 9}};
const NumberOption<double> kScaleOption{
    {.name = "scale", .help = "how large", .default_value = "0.5", .min = 0, .max = 2, .min_exclusive = true}};
const WordOption kTagOption{{.name = "tag", .help = "a label", .default_value = "none"}};
const FlagOption kLoudOption{{.name = "loud", .help = "say more"}};

std::string ErrorOf(const auto& read) {
  try {
    read();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

Options Holding(const std::string& name, const std::string& value) {
  Options o;
  o.Set(name, value);  // the plain store: no check
  return o;
}

TEST(TypedOptions, TheSpecComesFromTheDeclaration) {
  const OptionSpec& shade = kShadeOption.spec();
  EXPECT_EQ(shade.name, "shade");
  EXPECT_EQ(shade.type, OptionType::Choice);
  EXPECT_EQ(shade.choices, (std::vector<std::string_view>{"light", "dark"}));
  EXPECT_EQ(shade.default_value, "light");
  EXPECT_EQ(kCountOption.spec().type, OptionType::Integer);  // an integer type: whole numbers
  EXPECT_EQ(kScaleOption.spec().type, OptionType::Number);
  EXPECT_EQ(kTagOption.spec().type, OptionType::Word);
  EXPECT_EQ(kLoudOption.spec().type, OptionType::Flag);
  EXPECT_TRUE(kLoudOption.spec().choices.empty());
  EXPECT_EQ(OptionHelp(kCountOption.spec()), "how many (a whole number 1..9; default 4)");
  EXPECT_EQ(OptionHelp(kScaleOption.spec()), "how large (a number > 0 and <= 2; default 0.5)");
}

TEST(TypedOptions, AChoiceReadsAsTheValueItStandsFor) {
  EXPECT_EQ(kShadeOption.Get(Holding("shade", "dark")), Shade::Dark);
  EXPECT_EQ(kShadeOption.Get(Holding("shade", "light")), Shade::Light);
  EXPECT_EQ(kShadeOption.Get(Options{}), Shade::Light);                // the declared default
  EXPECT_EQ(kShadeOption.Get(Options{}, Shade::Dark), Shade::Light);   // a default wins over a fallback
  EXPECT_EQ(kLevelOption.Get(Options{}, 3), 3);                        // none declared: the input's fallback
  EXPECT_EQ(kLevelOption.Get(Holding("level", "1"), 3), 1);
  EXPECT_EQ(ErrorOf([] { kLevelOption.Get(Options{}); }), "option --level has no default: its reader passes one");
}

TEST(TypedOptions, NumbersWordsAndFlagsReadTyped) {
  EXPECT_EQ(kCountOption.Get(Holding("count", "9")), uint16_t{9});
  EXPECT_EQ(kCountOption.Get(Options{}), uint16_t{4});
  EXPECT_DOUBLE_EQ(kScaleOption.Get(Holding("scale", "1.25")), 1.25);
  EXPECT_DOUBLE_EQ(kScaleOption.Get(Options{}), 0.5);
  EXPECT_EQ(kTagOption.Get(Holding("tag", "walk_2")), "walk_2");
  EXPECT_EQ(kTagOption.Get(Options{}), "none");
  EXPECT_TRUE(kLoudOption.Get(Holding("loud", "1")));
  EXPECT_FALSE(kLoudOption.Get(Holding("loud", "0")));
  EXPECT_FALSE(kLoudOption.Get(Options{}));
}

// Options filled without SetOption may hold anything: a read rejects it with SetOption's words.
TEST(TypedOptions, AValueOutsideTheDeclarationIsAnErrorWhenRead) {
  EXPECT_EQ(ErrorOf([] { kCountOption.Get(Holding("count", "10")); }), "option --count expects a whole number 1..9, got '10'");
  EXPECT_EQ(ErrorOf([] { kCountOption.Get(Holding("count", "2.5")); }), "option --count expects a whole number 1..9, got '2.5'");
  EXPECT_EQ(ErrorOf([] { kScaleOption.Get(Holding("scale", "0")); }), "option --scale expects a number > 0 and <= 2, got '0'");
  EXPECT_EQ(ErrorOf([] { kShadeOption.Get(Holding("shade", "grey")); }), "option --shade expects light|dark, got 'grey'");
  EXPECT_EQ(ErrorOf([] { kLevelOption.Get(Holding("level", "2"), 1); }), "option --level expects 1|3, got '2'");
  EXPECT_EQ(ErrorOf([] { kTagOption.Get(Holding("tag", "a b")); }), "option --tag expects a name without spaces, got 'a b'");
  EXPECT_EQ(ErrorOf([] { kLoudOption.Get(Holding("loud", "yes")); }), "option --loud expects 1 or 0, got 'yes'");
}

TEST(TypedOptions, OptionsIsAPlainStoreAndSetOptionChecks) {
  Options o;
  o.Set("eular", "anything");  // core checks nothing: no format table below the formats layer
  o.Set("psx-rate", "fast");
  EXPECT_EQ(o.Get("eular"), "anything");
  EXPECT_EQ(o.Get("psx-rate"), "fast");
  Options checked;
  const std::string unknown = ErrorOf([&] { SetOption(checked, "eular", "xyz"); });
  EXPECT_EQ(unknown.rfind("unknown option 'eular' (format options: ", 0), 0u) << unknown;
  EXPECT_EQ(ErrorOf([&] { SetOption(checked, "psx-rate", "fast"); }),
            "option --psx-rate expects a number 0..1000, got 'fast'");
  EXPECT_TRUE(checked.values().empty());
  SetOption(checked, "psx-rate", "24");
  EXPECT_EQ(checked.Get("psx-rate"), "24");
}

// A reader gets the bytes' path in its context: a .gltf finds its external buffer beside it.
TEST(ReadContext, CarriesThePathOfTheBytes) {
  const std::filesystem::path dir = test::TempDir("read-context");
  const std::string text = R"({"asset":{"version":"2.0"},"buffers":[{"uri":"data.bin","byteLength":4}]})";
  std::ofstream(dir / "data.bin", std::ios::binary) << "abcd";
  const Bytes bytes(text.begin(), text.end());
  const FormatDescriptor& gltf = *FindFormat("gltf");
  EXPECT_NO_THROW(gltf.read(bytes, {Options{}, (dir / "model.gltf").string(), {}}));
  EXPECT_THROW(gltf.read(bytes, {}), Error);  // no path: the buffer beside it cannot be found
  EXPECT_NO_THROW(LoadBytes(bytes, (dir / "model.gltf").string(), "", Options{}));
}

}  // namespace
}  // namespace animkit
