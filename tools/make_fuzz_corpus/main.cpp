// Writes the fuzzers' seed corpus (fuzz/corpus/<target>/) with the project's own
// encoders: small synthetic clips and skeletons in every writable format, each with the
// settings its family lists, plus each family's hand-laid files for layouts the encoders
// never write (<family>_seeds.cpp, listed in seed_list.inc). Deterministic: `make
// fuzz-corpus` rewrites the same bytes. Files over kMaxBytes are left out.
#include <animkit/formats/registry.hpp>

#include "corpus.hpp"

#include <cstdio>
#include <filesystem>
#include <tuple>

namespace animkit::fuzz_corpus {
namespace {

namespace fs = std::filesystem;

constexpr const FormatSeeds* kFamilies[] = {
#define ANIMKIT_SEEDS(family) &family,
#include "seed_list.inc"
#undef ANIMKIT_SEEDS
};

std::string TargetOf(std::string_view format_id) {
  std::string t(format_id);
  for (char& c : t)
    if (c == '-') c = '_';
  return t;
}

// How a format's encoder runs: as its family lists it, else once with its defaults.
EncoderRuns RunsOf(std::string_view id) {
  for (const FormatSeeds* family : kFamilies)
    for (const EncoderRuns& runs : family->encoders)
      if (runs.format == id) return runs;
  return {id};
}

void AddEncoded(Corpus& corpus) {
  std::vector<std::pair<std::string, Scene>> scenes;
  for (const auto& [joints, frames, seed, scale] :
       std::vector<std::tuple<int, size_t, unsigned, bool>>{{1, 1, 1, false}, {2, 3, 2, true}, {3, 8, 3, false}, {5, 12, 4, true}}) {
    scenes.emplace_back("j" + std::to_string(joints) + "f" + std::to_string(frames), SmallScene(joints, frames, seed, scale));
  }
  scenes.emplace_back("camera3", CameraScene(3, 1));
  scenes.emplace_back("camera9", CameraScene(9, 2));
  for (const FormatDescriptor* format : Formats()) {
    if (!format->encode) continue;
    const std::string ext(format->extensions.empty() ? ".bin" : format->extensions.front());
    const EncoderRuns runs = RunsOf(format->id);
    for (const auto& [scene_name, scene] : scenes) {
      if ((scene_name.rfind("camera", 0) == 0) != runs.cameras) continue;
      for (size_t v = 0; v < runs.variants.size(); ++v) {
        EncodeContext context;
        for (const auto& [k, value] : runs.variants[v]) SetOption(context.options, k, value);
        context.output_path = corpus.Scratch("out" + ext);
        try {
          const Bytes bytes = format->encode(scene, context)->Write();
          corpus.Add(TargetOf(format->id), scene_name + "-v" + std::to_string(v) + ext, bytes);
        } catch (const Error&) {
          // Not every scene fits every format (one clip per file, ...).
        }
      }
    }
  }
}

}  // namespace

void Corpus::Add(const std::string& target, const std::string& name, ByteView bytes) {
  if (bytes.empty() || bytes.size() > kMaxBytes) return;
  if (!seen_[target].insert(Bytes(bytes.begin(), bytes.end())).second) return;
  fs::create_directories(root_ / target);
  WriteFileAtomic((root_ / target / name).string(), bytes);
  ++written_;
}

}  // namespace animkit::fuzz_corpus

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace animkit::fuzz_corpus;
  if (argc != 2) {
    std::fprintf(stderr, "usage: animkit_make_fuzz_corpus OUTDIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  try {
    fs::create_directories(out);
    const fs::path scratch = fs::temp_directory_path() / "animkit-fuzz-corpus";
    fs::create_directories(scratch);
    Corpus corpus(out, scratch);
    AddEncoded(corpus);
    for (const FormatSeeds* family : kFamilies)
      if (family->add) family->add(corpus);
    fs::remove_all(scratch);
    std::printf("%zu seed files in %s\n", corpus.written(), out.string().c_str());
  } catch (const animkit::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
