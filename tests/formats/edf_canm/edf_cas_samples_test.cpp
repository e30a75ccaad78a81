// The bundled EDF CAS sets (tools/make_samples), read field by field.
#include <animkit/formats/edf_canm/cas.hpp>
#include <animkit/io/io.hpp>

#include "support/test_support.hpp"

#include <tuple>

namespace animkit {
namespace {

namespace cas = edf_canm::cas;

// The bundled sets (tools/make_samples): a player whose states play the tcontrols of the clips.
TEST(EdfCas, SamplesHoldAPlayerWhoseStatesPlayTheClips) {
  for (const auto& [name, version, canm] :
       {std::tuple{"soldier5.cas", cas::kVersion5, edf_canm::kVersion5}, std::tuple{"soldier6.cas", cas::kVersion6, edf_canm::kVersion6}}) {
    SCOPED_TRACE(name);
    const Bytes bytes = ReadFileBytes(test::SourcePath(std::string("samples/edf_cas/") + name));
    const cas::File f = cas::Parse(bytes);
    EXPECT_TRUE(f.damaged.empty());
    EXPECT_TRUE(f.warnings.empty());
    EXPECT_EQ(f.version, version);
    ASSERT_TRUE(f.canm);
    EXPECT_EQ(f.canm->version, canm);
    EXPECT_EQ(f.canm_offset % 16, 0u);
    ASSERT_EQ(f.tcontrols.size(), 2u);
    EXPECT_EQ(f.tcontrols[1].name.text, "idle");
    EXPECT_EQ(f.tcontrols[1].words, (std::vector<uint32_t>{1}));
    ASSERT_EQ(f.anmgroups.size(), 1u);
    EXPECT_EQ(f.anmgroups[0].name.text, "soldier");
    ASSERT_EQ(f.anmgroups[0].mcanms.size(), 2u);
    EXPECT_EQ(f.anmgroups[0].mcanms[1].name.text, "idle");
    EXPECT_EQ(f.anmgroups[0].mcanms[1].type, 2u);
    EXPECT_EQ(f.anmgroups[0].mcanms[1].value, 1u);
    EXPECT_EQ(f.bones.size(), 11u);
    EXPECT_EQ(cas::Emit(f), bytes);
  }
}

}  // namespace
}  // namespace animkit
