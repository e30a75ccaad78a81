// Nothing to edit, nothing changed: an input that holds no clip, mesh, texture or joint,
// written over a template of the output's format, gives the template's bytes, in every
// family that writes over a template (Encode's rule, so the CLI, Python and the add-on alike);
// without a template, the encoder's error says why there is nothing to write.
#include <animkit/formats/registry.hpp>
#include <animkit/pipeline/convert.hpp>
#include <animkit/pipeline/encode.hpp>
#include <animkit/pipeline/load.hpp>

#include "support/test_support.hpp"

namespace animkit {
namespace {

struct Family {
  const char* sample;   // under samples/
  const char* format;   // the output's format
  const char* missing;  // what the error without a template names
};

const Family kFamilies[] = {
    {"kh2_bar/walk.anb", "kh2-bar", "no animation clip"},
    {"kh2_bar/p_ex00.mset", "kh2-bar", "no animation clip"},
    {"kh2_bar/ex00.mdlx", "kh2-bar", "no mesh"},
    {"kh2_motion/wave.motion", "kh2-motion", "no animation clip"},
    {"edf_cas/soldier5.cas", "edf-cas", "no animation clip"},
    {"edf_canm/soldier5.canm", "edf-canm", "no animation clip"},
    {"edf_rab/soldier.rab", "edf-rab", "--template"},
    {"edf_mdb/soldier.mdb", "edf-mdb", "no skeleton or meshes"},
    {"metroid_anim/run.anim", "metroid-anim", "no animation clip"},
    {"metroid_cinf/skeleton.cinf", "metroid-cinf", "no skeleton"},
    {"psx_anm/wave.anm", "psx-anm", "no animation clip"},
    {"psx_tmd/figure.tmd", "psx-tmd", "no meshes"},
    {"psx_anc/orbit.anc", "psx-anc", "no camera animation"},
};

TEST(NothingToEdit, AnEmptySceneOverATemplateIsTheTemplatesBytes) {
  for (const Family& f : kFamilies) {
    const std::string path = test::SourcePath(std::string("samples/") + f.sample);
    const FormatDescriptor* format = FindFormat(f.format);
    ASSERT_NE(format, nullptr) << f.format;
    const std::string out = (test::TempDir("nothing_to_edit") / "out").string() + path.substr(path.rfind('.'));
    const EncodeResult r = EncodeOverTemplate(Scene{}, *format, nullptr, Options{}, out, path);
    EXPECT_TRUE(r.bytes == ReadFileBytes(path)) << f.sample;
    EXPECT_EQ(r.report["nothing_to_edit"], true) << f.sample;
    EXPECT_TRUE(r.warnings.empty()) << f.sample;
    EncodeRequest alone;  // no template: nothing to write, and why
    alone.output_path = out;
    const std::string error = test::ErrorOf([&] { Encode(Scene{}, *format, alone); });
    EXPECT_NE(error.find(f.missing), std::string::npos) << f.sample << ": " << error;
  }
}

TEST(NothingToEdit, AJointClipOrMeshIsSomethingToWrite) {
  EXPECT_TRUE(HoldsNothing(Scene{}));
  Scene joint;
  joint.skeleton.joints.push_back(Joint{});
  EXPECT_FALSE(HoldsNothing(joint));
  Scene clip;
  clip.clips.push_back(Clip{});
  EXPECT_FALSE(HoldsNothing(clip));
  Scene mesh;
  mesh.meshes.push_back(Mesh{});
  EXPECT_FALSE(HoldsNothing(mesh));
  Scene texture;
  texture.textures.push_back(Image{});
  EXPECT_FALSE(HoldsNothing(texture));
  // A skeleton over a skeleton file is written by its encoder, not kept as the template.
  const std::string cinf = test::SourcePath("samples/metroid_cinf/skeleton.cinf");
  Scene skeleton = DecodeDocument(LoadFile(cinf, "", Options{}), DecodeContext{nullptr, Options{}});
  ASSERT_FALSE(skeleton.skeleton.empty());
  const EncodeResult r = EncodeOverTemplate(skeleton, *FindFormat("metroid-cinf"), nullptr, Options{},
                                            (test::TempDir("nothing_to_edit_cinf") / "out.cinf").string(), cinf);
  EXPECT_FALSE(r.report.contains("nothing_to_edit"));
}

// A template of another format than the output's is no file to keep.
TEST(NothingToEdit, ATemplateOfAnotherFormatIsNotKept) {
  const std::string cas = test::SourcePath("samples/edf_cas/soldier5.cas");
  const std::string out = (test::TempDir("nothing_to_edit_other") / "out.canm").string();
  const std::string error = test::ErrorOf([&] { EncodeOverTemplate(Scene{}, *FindFormat("edf-canm"), nullptr, Options{}, out, cas); });
  EXPECT_NE(error.find("nothing to write"), std::string::npos) << error;
}

}  // namespace
}  // namespace animkit
