// What the seed corpus tool's files share: the corpus being written, the small scenes every
// encoder runs on, and each format family's seeds (seed_list.inc): the frame (main.cpp) runs
// every registered encoder and then each family's own seeds, naming no format itself.
#pragma once

#include <animkit/animkit.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace animkit::fuzz_corpus {

inline constexpr size_t kMaxBytes = 16 * 1024;

class Corpus {
 public:
  Corpus(std::filesystem::path root, std::filesystem::path scratch) : root_(std::move(root)), scratch_(std::move(scratch)) {}

  // Writes bytes as target/name unless they are too large or already written.
  void Add(const std::string& target, const std::string& name, ByteView bytes);
  size_t written() const { return written_; }
  // A path in a scratch folder, for an encoder that reads its output's extension.
  std::string Scratch(const std::string& name) const { return (scratch_ / name).string(); }

 private:
  std::filesystem::path root_, scratch_;
  std::map<std::string, std::set<Bytes>> seen_;
  size_t written_ = 0;
};

// A small scene: a synthetic skeleton with one clip (events on some), joints named "#N"
// so that every format can address them, and one mesh per joint for the model formats.
Scene SmallScene(int joints, size_t frames, unsigned seed, bool scale);
// A camera clip: a few keys circling the origin.
Scene CameraScene(size_t frames, unsigned seed);

// How the frame runs one format's encoder over the small scenes.
struct EncoderRuns {
  std::string_view format;  // the format's id
  // Settings each encoder run takes ({} = its defaults): a seed per scene and setting.
  std::vector<std::map<std::string, std::string>> variants = {{}};
  bool cameras = false;  // the encoder takes the camera scenes (and not the joint scenes)
};

// A format family's seeds: how its encoders are run (formats not listed: once, with their
// defaults, on the joint scenes) and the seeds it lays out itself, for layouts the encoders
// never write (nullptr: none).
struct FormatSeeds {
  std::vector<EncoderRuns> encoders;
  void (*add)(Corpus& corpus) = nullptr;
};

#define ANIMKIT_SEEDS(family) extern const FormatSeeds family;
#include "seed_list.inc"
#undef ANIMKIT_SEEDS

}  // namespace animkit::fuzz_corpus
