#include <animkit/core/model.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace animkit {
namespace {

TEST(NumberedJointName, MakesHashAndDecimal) {
  EXPECT_EQ(NumberedJointName(0), "#0");
  EXPECT_EQ(NumberedJointName(42), "#42");
  EXPECT_EQ(NumberedJointName(4294967295u), "#4294967295");
}

TEST(NumberedJointName, ParsesOnlyHashThenDigits) {
  EXPECT_EQ(ParseNumberedJointName("#0"), 0u);
  EXPECT_EQ(ParseNumberedJointName("#17"), 17u);
  EXPECT_EQ(ParseNumberedJointName("#007"), 7u);
  EXPECT_EQ(ParseNumberedJointName("#18446744073709551615"), 18446744073709551615u);
  for (const char* name : {"", "#", "17", "#-1", "#+1", "# 1", "#1 ", "#1a", "#0x10", "root", "##1",
                           "#18446744073709551616"}) {
    EXPECT_FALSE(ParseNumberedJointName(name).has_value()) << name;
  }
  for (uint64_t n : {0ull, 1ull, 255ull, 65536ull, 18446744073709551615ull})
    EXPECT_EQ(ParseNumberedJointName(NumberedJointName(n)), n);
}

TEST(ClipTiming, SetFramesMakesDurationTheLastFramesTime) {
  Clip clip;
  clip.SetFrames(31, 30);
  EXPECT_EQ(clip.frame_count, 31u);
  EXPECT_EQ(clip.frame_rate, 30);
  EXPECT_FLOAT_EQ(clip.duration, 1.0f);
  clip.SetFrames(5, 60);
  EXPECT_FLOAT_EQ(clip.duration, 4.0f / 60.0f);
  clip.SetFrames(1, 30);
  EXPECT_EQ(clip.duration, 0.0f);
  clip.SetFrames(0, 30);
  EXPECT_EQ(clip.duration, 0.0f);
  clip.SetFrames(10, 0);
  EXPECT_EQ(clip.frame_count, 10u);
  EXPECT_EQ(clip.duration, 0.0f);
}

TEST(Model, MetadataStartsAsAnEmptyObject) {
  EXPECT_TRUE(Scene{}.metadata.is_object());
  EXPECT_TRUE(Clip{}.metadata.is_object());
  EXPECT_TRUE(CameraTrack{}.metadata.is_object());
  EXPECT_TRUE(Clip{}.metadata.empty());
}

// The public headers are the library's own: no JSON library in them (front ends and
// bindings get animkit::Value).
TEST(Model, PublicHeadersNameNoJsonLibrary) {
  const std::filesystem::path include = std::filesystem::path(ANIMKIT_SOURCE_DIR) / "include";
  size_t headers = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(include)) {
    if (!entry.is_regular_file()) continue;
    ++headers;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str().find("nlohmann"), std::string::npos) << entry.path();
  }
  EXPECT_GT(headers, 10u);
}

}  // namespace
}  // namespace animkit
