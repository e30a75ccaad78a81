// CMDL and CSKR seeds, built as records and laid out by the library (LayOutCmdl): a model of
// every primitive kind with index8 and index16 attributes, short and float normals and UVs,
// in the Metroid Prime and Echoes layouts; skins in both CSKR layouts.
#include <animkit/formats/metroid_model.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

using namespace metroid_model;

CmdlFile SeedModel(uint32_t version, uint32_t flags, uint32_t material_flags) {
  CmdlFile f;
  f.header.version = version;
  f.header.flags = flags;
  f.header.bounds = {0, 0, 0, 2, 1, 1};
  MaterialSet set;
  set.texture_ids = {0x11223344, 0x55667788};
  CmdlMaterial m;
  m.flags = material_flags;
  m.texture_slots = {1, 0};
  m.vertex_attributes = 0x3 | 0x3 << 2 | 0x3 << 8 | 0x2 << 10;  // pos, nrm, tex0 index16; tex1 index8
  m.color_channels = {1};
  m.stages = {TevStage{0x7A14F, 0x3BF, 0, 0, 0, 0, 0, 0}, TevStage{0x310F, 0x3BF, 0, 0, 0, 0, 0, 0}};
  m.stage_textures = {TevTexture{0, 0, 0}, TevTexture{0, 1, 1}};
  m.texgens = {4 << 4 | 30 << 9 | 61 << 15, 5 << 4 | 0 << 9 | 61 << 15};
  m.uv_animations = {UvAnimation{2, {0.5f, 0, 0.25f, 1}}};
  m.uv_animation_size = 4 + 4 + 16;
  if (material_flags & kMaterialKonst) m.konst_colors = {0xFF8000FF};
  set.materials.push_back(m);
  f.material_sets.push_back(set);
  f.positions.values = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 1}, {2, 0, 0}, {2, 1, 0}};
  if (flags & kFlagShortNormals) f.short_normals.values = {{0, 0, 16384}, {16384, 0, 0}};
  else f.float_normals.values = {{0, 0, 1}, {1, 0, 0}};
  f.float_uvs.values = {{0, 0}, {1, 0}, {0, 1}, {0.5f, 0.25f}};
  if (flags & kFlagShortUvs) f.short_uvs.values = {{0, 0}, {32768, 0}, {16384, 8192}};
  Surface s;
  s.header.normal = {0, 0, 1};
  s.header.display_list_size = 0x80000000;  // the normal hint
  const uint8_t vat = (flags & kFlagShortUvs) ? 2 : (flags & kFlagShortNormals) ? 1 : 0;
  auto add = [&](uint8_t kind, std::vector<uint16_t> values) {
    s.primitives.push_back({uint8_t(kind | vat), uint16_t(values.size() / 4), std::move(values)});
  };
  add(kStrip, {0, 0, 0, 0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 1, 1, 3});
  add(kFan, {1, 0, 0, 0, 4, 0, 1, 1, 5, 1, 2, 2, 3, 1, 0, 3});
  add(kTriangles, {0, 0, 2, 3, 2, 1, 1, 2, 4, 0, 0, 1});
  add(kQuads, {0, 0, 0, 0, 1, 0, 1, 1, 3, 1, 2, 2, 2, 1, 1, 3});
  add(kLines, {0, 0, 0, 0, 5, 1, 1, 1});
  add(kLineStrip, {0, 0, 0, 0, 4, 1, 1, 1, 5, 0, 2, 2});
  add(kPoints, {3, 1, 0, 0});
  f.surfaces.push_back(s);
  if (version >= 3) f.surfaces.back().extra = {1, 2, 3, 4};
  LayOutCmdl(f);
  return f;
}

void AddModelSeeds(Corpus& corpus) {
  corpus.Add("metroid_cmdl", "prime-short.cmdl", SerializeCmdl(SeedModel(2, 6, kMaterialShortUvTex0)));
  corpus.Add("metroid_cmdl", "prime-float.cmdl", SerializeCmdl(SeedModel(2, 0, kMaterialKonst)));
  corpus.Add("metroid_cmdl", "echoes.cmdl", SerializeCmdl(SeedModel(4, 3, kMaterialIndirect)));
  CskrFile skin;
  skin.groups = {WeightGroup{{{3, 1}}, 4}, WeightGroup{{{3, 0.25f}, {4, 0.75f}}, 2}};
  skin.positions.count = 6, skin.normals.count = 2;
  corpus.Add("metroid_cskr", "prime.cskr", SerializeCskr(skin));
  skin.normals = {2, 0, {0x3F800000, 0, 0, 0, 0x3F800000, 0}};
  corpus.Add("metroid_cskr", "prime-copied-normals.cskr", SerializeCskr(skin));
  skin.mp2 = true;
  skin.matrix_indices = {0, 1, -1};
  skin.position_groups = {0, 0, 0, 0, 1, 1};
  corpus.Add("metroid_cskr", "echoes.cskr", SerializeCskr(skin));
}

}  // namespace

const FormatSeeds kMetroidModelSeeds{{}, AddModelSeeds};

}  // namespace animkit::fuzz_corpus
