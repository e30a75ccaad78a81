// A generated game-dump-like folder for the batch conversion tests: valid files of
// several formats (some under misleading extensions), corrupted copies and
// unrelated files.
#pragma once

#include <animkit/animkit.hpp>
#include <synthetic/synthetic.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace animkit::test {

struct BatchTreeExpectation {
  std::map<std::string, std::string> converted;  // relative input -> detected format id
  std::map<std::string, std::string> failed;     // relative input -> text its error must contain
  std::map<std::string, std::string> skipped;    // relative input -> text its reason must contain
};

// Writes the tree under root (which must exist) and says what a batch conversion
// to .glb must make of each file.
BatchTreeExpectation MakeBatchTree(const std::filesystem::path& root);

// A PS1 ANM of a synthetic clip.
Bytes SyntheticPsxAnm(int joints, size_t frames, unsigned seed);
// A .glb (or .gltf when binary is false) of a synthetic skeleton, with a clip unless skeleton_only.
Bytes SyntheticGltf(int joints, size_t frames, unsigned seed, bool binary, bool skeleton_only = false);

void WriteBytes(const std::filesystem::path& path, ByteView bytes);
void WriteText(const std::filesystem::path& path, const std::string& text);

// Every regular file under root, relative and sorted, with its bytes.
std::map<std::string, Bytes> ReadTree(const std::filesystem::path& root);

}  // namespace animkit::test
