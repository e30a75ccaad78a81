// The committed fuzz seed corpus (fuzz/corpus/<target>/, written by `make fuzz-corpus`):
// one folder per fuzz target, small files, valid files of the target's format among them.
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/edf_rab.hpp>
#include <animkit/formats/kh2.hpp>
#include <animkit/formats/kh2/model.hpp>
#include <animkit/formats/kh2/texture.hpp>
#include <animkit/formats/metroid_pak.hpp>
#include <animkit/formats/registry.hpp>

#include "support/test_support.hpp"

#include <animkit/offline/bone_map.hpp>
#include <synthetic/synthetic_bone_map.hpp>

#include <filesystem>

namespace animkit {
namespace {

namespace fs = std::filesystem;

bool Reads(const std::string& target, ByteView bytes) {
  try {
    if (target == "bone_map") {  // a map that reads against the target's two skeletons
      const std::string text(bytes.begin(), bytes.end());
      return ReadBoneMap(text, "seed", BoneMapSeedTarget(), BoneMapSeedSource()).source_of.size() == BoneMapSeedTarget().joints.size();
    }
    if (target == "kh2_triggers") return kh2::SerializeTriggers(kh2::ParseTriggers(bytes)) == Bytes(bytes.begin(), bytes.end());
    if (target == "edf_cmpl") return !edf_rab::Decompress(bytes).empty();  // a stream that unpacks
    if (target == "metroid_pak_unpack") return !metroid_pak::Decompress(bytes, Limits{}).empty();  // an entry that unpacks
    if (target == "edf_dds") return !edf_mdb::DecodeDds(bytes, "seed").Missing();  // a DDS that decodes
    if (target == "kh2_texture") {  // a texture entry whose images all decode
      const kh2::TextureSet set = kh2::DecodeTextures(bytes);
      return !set.images.empty() && std::none_of(set.images.begin(), set.images.end(), [](const Image& i) { return i.Missing(); });
    }
    if (target == "kh2_mesh") {  // a model entry whose meshes decode, or a texture entry whose images do
      if (bytes.size() >= 4 && bytes[0] == 'T') return !kh2::DecodeTextures(bytes).images.at(0).Missing();
      const kh2::Model model = kh2::ParseModel(bytes);
      return !kh2::DecodeModelMeshes(model, kh2::SkeletonFromModel(model)).meshes.empty();
    }
    if (target == "kh2_curves") {  // [mode][file size, u16 LE][a KH2 BAR or motion][edits]: the file reads back
      if (bytes.size() < 3 || bytes.size() < 3 + size_t(bytes[1] | bytes[2] << 8)) return false;
      const ByteView file = bytes.subspan(3, size_t(bytes[1] | bytes[2] << 8));
      for (const char* id : {"kh2-bar", "kh2-motion"}) {
        try {
          if (FindFormat(id)->read(file, {})->Write() == Bytes(file.begin(), file.end())) return true;
        } catch (const Error&) {
        }
      }
      return false;
    }
    std::string id = target == "kh2_evaluate" ? "kh2_motion" : target;  // the evaluator reads motions
    for (char& c : id)
      if (c == '_') c = '-';
    const FormatDescriptor* format = FindFormat(id);
    return format && format->read(bytes, {})->Write() == Bytes(bytes.begin(), bytes.end());
  } catch (const Error&) {
    return false;
  }
}

// The glTF-to-mesh target runs on the glTF target's seeds (tools/run-fuzzers.sh).
std::string CorpusOf(const std::string& target) { return target == "gltf_mesh" ? "gltf" : target; }

TEST(FuzzCorpus, EveryTargetHasSmallSeedsOfItsFormat) {
  const fs::path fuzz = test::SourcePath("fuzz");
  size_t targets = 0;
  for (const auto& entry : fs::directory_iterator(fuzz)) {
    const std::string file = entry.path().filename().string();
    const std::string suffix = "_fuzz.cpp";
    if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string target = file.substr(0, file.size() - suffix.size());
    ++targets;
    const fs::path dir = fuzz / "corpus" / CorpusOf(target);
    ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing: run make fuzz-corpus";
    size_t files = 0, valid = 0;
    for (const auto& seed : fs::directory_iterator(dir)) {
      ++files;
      EXPECT_LE(fs::file_size(seed.path()), 16u * 1024) << seed.path();
      if (Reads(CorpusOf(target), ReadFileBytes(seed.path().string()))) ++valid;
    }
    EXPECT_GE(files, 3u) << target;
    // Readers change; a few stale seeds do no harm, a corpus of none would (make fuzz-corpus).
    EXPECT_GE(valid * 2, files) << target << ": " << valid << " of " << files << " seeds read back";
  }
  EXPECT_GE(targets, 13u);
}

}  // namespace
}  // namespace animkit
