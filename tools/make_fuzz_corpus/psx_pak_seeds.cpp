// The Vib-Ribbon PAK's seeds, laid out by its builder: members with nested paths in an
// unsorted order (a TMD, an ANM and an ANC from the PS1 encoders), odd lengths that need
// padding, an empty member, and a PAK with a gap and an overlap.
#include <animkit/formats/psx_anc.hpp>
#include <animkit/formats/psx_anm.hpp>
#include <animkit/formats/psx_pak.hpp>
#include <animkit/formats/psx_tmd.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

void AddPakLayouts(Corpus& corpus) {
  psx_tmd::File tmd;
  psx_tmd::Object o;
  o.vertices = {{0, 0, 0, 0}, {64, 0, 0, 0}};
  o.primitives = {psx_tmd::MakeLine(0, 1, {1, 2, 3})};
  tmd.objects.push_back(o);
  psx_tmd::AssignOffsets(tmd);
  const Scene joints = SmallScene(2, 4, 7, false);
  const Scene camera = CameraScene(3, 11);
  const Bytes anm = psx_anm::Serialize(psx_anm::EncodeClip(joints.clips.front(), {}));
  const Bytes anc = psx_anc::Serialize(psx_anc::EncodeClip(camera.clips.front(), {}));
  const Bytes pak = psx_pak::Build({{"GAME/N04_W_F.ANM", anm}, {"GAME/N04_W_F.TMD", psx_tmd::Serialize(tmd)},
                                    {"GAME/CAM/C1.ANC", anc}, {"MAKEPAK.PIF", {'A', '\n'}}});
  corpus.Add("psx_pak", "model-animation-camera.pak", pak);
  corpus.Add("psx_pak", "odd-lengths.pak", psx_pak::Build({{"B/X.BIN", {1, 2, 3}}, {"A.BIN", {}}, {"ABC", {4}}}));
  // Entry 1 a 4-byte gap after entry 0; entry 2 named by the same offset as entry 1.
  Bytes gap = psx_pak::Build({{"A", {1}}, {"B", {2}}, {"C", {3}}});
  const size_t entry1 = le::Load32(gap.data() + 8);
  gap.insert(gap.begin() + std::ptrdiff_t(entry1), {'G', 'A', 'P', '!'});
  le::Store32(gap.data() + 8, uint32_t(entry1 + 4));
  le::Store32(gap.data() + 12, uint32_t(entry1 + 4));
  corpus.Add("psx_pak", "gap-and-overlap.pak", gap);
}

}  // namespace

const FormatSeeds kPsxPakSeeds{{}, AddPakLayouts};

}  // namespace animkit::fuzz_corpus
