// The PS1 formats' seeds: how the ANM and ANC encoders run (the ANC's clips are cameras), and
// every TMD primitive kind.
#include <animkit/formats/psx_tmd.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

// Every TMD primitive kind in one object, free and fixed-size sprites with and without
// their {W, H} word, and a FIXP file.
void AddTmdLayouts(Corpus& corpus) {
  using namespace psx_tmd;
  const std::vector<std::pair<uint8_t, uint8_t>> kinds = {
      {0x40, 1}, {0x50, 1}, {0x21, 1}, {0x29, 1}, {0x31, 1}, {0x39, 1}, {0x20, 0}, {0x20, 4}, {0x30, 0},
      {0x30, 4}, {0x28, 0}, {0x28, 4}, {0x38, 0}, {0x38, 4}, {0x24, 0}, {0x34, 0}, {0x2C, 0}, {0x3C, 0},
      {0x25, 1}, {0x35, 1}, {0x2D, 1}, {0x3D, 1}, {0x26, 2}, {0x23, 3}, {0x64, 0}, {0x6C, 0}, {0x74, 0}, {0x7C, 0}};
  File file;
  Object o;
  o.vertices = {{0, 0, 0, 0}, {64, 0, 0, 0}, {0, 64, 0, 0}, {64, 64, 0, 0}};
  o.normals = {{0, 0, 4096, 0}};
  for (const auto& [mode, flag] : kinds) {
    const Layout l = *LayoutOf(mode, flag);
    o.primitives.push_back(Primitive{uint8_t(l.words + 1), flag, mode, std::vector<uint32_t>(l.words, 0)});
  }
  // Fixed-size sprites that still store {W, H} (ilen 3).
  for (const uint8_t mode : std::initializer_list<uint8_t>{0x6C, 0x74, 0x7C}) o.primitives.push_back(Primitive{4, 0, mode, {0, 0, 0x00100010}});
  file.objects.push_back(o);
  Object second;
  second.vertices = {{1, 2, 3, 0}, {4, 5, 6, 0}};
  second.primitives = {MakeLine(0, 1, {1, 2, 3})};
  file.objects.push_back(second);
  AssignOffsets(file);
  corpus.Add("psx_tmd", "every-kind.tmd", Serialize(file));
  File fixp = file;
  fixp.flags = kFlagFixp;
  fixp.offset_base = 0;
  AssignOffsets(fixp);
  corpus.Add("psx_tmd", "fixp.tmd", Serialize(fixp));
}

}  // namespace

const FormatSeeds kPsxSeeds{{{"psx-anm", {{}, {{"euler", "zyx"}}, {{"psx-missing", "interpolate"}}}},
                             {"psx-anc", {{}, {{"psx-anc-fov", "projection"}}}, true}},
                            AddTmdLayouts};

}  // namespace animkit::fuzz_corpus
