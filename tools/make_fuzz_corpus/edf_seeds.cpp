// EDF's seeds: how the CANM and CAS encoders run, an MDB with a textured mesh, DDS, RAB and
// CMPL seeds, CAS sets with every table, and CANMs in the EDF 6 layouts.
#include <animkit/formats/edf_canm.hpp>
#include <animkit/formats/edf_canm/cas.hpp>
#include <animkit/formats/edf_mdb.hpp>
#include <animkit/formats/edf_rab.hpp>

#include "corpus.hpp"

namespace animkit::fuzz_corpus {
namespace {

// An MDB with a skinned, textured triangle (the mesh decoder's tables), and DDS seeds: a
// 5 x 3 gradient as BC1 (partial blocks) and as uncompressed BGRA.
void AddMdbMeshAndDds(Corpus& corpus) {
  Skeleton skeleton;
  skeleton.joints = {{"root", -1, {}}, {"arm", 0, {}}};
  skeleton.joints[1].rest.translation = {0, 1, 0};
  Mesh mesh;
  mesh.name = "body";
  mesh.positions = {{0, 0, 0}, {1, 1, 0}, {0, 2, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
  mesh.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
  mesh.joints = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
  mesh.weights = {{1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}};
  mesh.triangles = {0, 1, 2};
  mesh.material = 0;
  Material material;
  material.name = "skin";
  material.texture = 0;
  Image image{"seed", 5, 3, std::vector<uint8_t>(5 * 3 * 4, 255), "", ""};
  for (size_t i = 0; i < 15; ++i) image.rgba[i * 4] = uint8_t(i * 17), image.rgba[i * 4 + 1] = uint8_t(255 - i * 17);
  Scene scene;
  scene.skeleton = skeleton, scene.meshes = {mesh}, scene.materials = {material}, scene.textures = {image};
  scene.textures[0].name = "skin.dds";
  const Bytes model = edf_mdb::WriteModel(scene, edf_mdb::WriteOptions{}).mdb;  // the writer users run
  corpus.Add("edf_mdb", "skinned-mesh.mdb", model);
  corpus.Add("edf_dds", "gradient-bc1.dds", edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bc1));
  corpus.Add("edf_dds", "gradient-bgra.dds", edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bgra8));
  const Image pixel{"seed", 1, 1, {10, 20, 30, 40}, "", ""};
  corpus.Add("edf_dds", "one-pixel-bc1.dds", edf_mdb::EncodeDds(pixel, edf_mdb::DdsEncoding::Bc1));

  // The same model and texture in RAB archives (CMPL and raw members, stock and texture-last
  // order, no model), and CMPL streams of literals, matches, runs and the zero ring.
  const Bytes texture = edf_mdb::EncodeDds(image, edf_mdb::DdsEncoding::Bc1);
  corpus.Add("edf_rab", "model-and-texture.rab",
             edf_rab::Build({{"TEXTURE", "skin.lod.dds", texture, true}, {"MODEL", "model.mdb", model, true},
                             {"HD-TEXTURE", "skin.dds", texture, false}}));
  corpus.Add("edf_rab", "texture-after-model.rab",
             edf_rab::Build({{"MODEL", "model.mdb", model, false}, {"TEXTURE", "skin.dds", texture, true}}));
  corpus.Add("edf_rab", "no-model.mrab", edf_rab::Build({{"TEXTURE", "a.dds", Bytes(40, 7), true}}));
  const std::string text = "ABCDABCD abc abc abc abc 0123456789 0123456789";
  for (const Bytes& raw : {Bytes(text.begin(), text.end()), Bytes(300, 0), Bytes(model.begin(), model.end()), texture})
    corpus.Add("edf_cmpl", "stream-" + std::to_string(raw.size()) + ".cmpl", edf_rab::Compress(raw));
}

// CAS sets with every table (a player with a state, anmdata, datagroups and commands) around a
// small CANM, in each version's stock layout.
void AddCasTables(Corpus& corpus) {
  namespace cas = edf_canm::cas;
  const Scene scene = SmallScene(2, 3, 5, false);
  for (uint32_t version : {cas::kVersion41, cas::kVersion5, cas::kVersion6}) {
    edf_canm::EncodeSettings settings;
    settings.version = version == cas::kVersion6 ? edf_canm::kVersion6 : edf_canm::kVersion5;
    cas::File f;
    f.version = version;
    f.canm_bytes = edf_canm::Serialize(edf_canm::EncodeClips(scene.clips, settings));
    cas::TControl t;
    t.name = cas::AddString(f, "run");
    t.words = {0, 0};
    f.tcontrols.push_back(t);
    cas::VControl v;
    v.name = cas::AddString(f, "speed");
    v.value2 = 1.5f;
    f.vcontrols.push_back(v);
    f.bones.push_back({.name = cas::AddString(f, "j0")});
    cas::Data command;
    command.command = 0, command.args[3] = 0, command.args[4] = 2, command.args[5] = 9;
    f.unnamed_group = cas::DataGroup{.data = {command}};
    cas::Mcanm state;
    state.name = cas::AddString(f, "state");
    state.type = 2;
    state.first = cas::AnmData{.time = 1, .group = cas::DataGroup{.data = {command}}};
    state.more = {cas::AnmData{.type_b = 1, .tail = 3}};
    state.groups[1] = cas::DataGroup{};
    cas::AnmGroup player;
    player.name = cas::AddString(f, "player");
    player.mcanms = {state};
    f.anmgroups.push_back(player);
    corpus.Add("edf_cas", "tables-" + std::to_string(version) + ".cas", cas::Emit(f));
  }
}

// EDF 6 CANMs as the game lays them out: a 512 file converted (kinds 0 to 3: static and keyed
// vectors and rotations) and a stock file holding only kinds 0 and 2.
void AddEdfCanm768(Corpus& corpus) {
  edf_canm::EncodeSettings v5;
  const Clip clip = SmallScene(3, 8, 3, false).clips.front();
  const edf_canm::File v512 = edf_canm::EncodeClips({clip}, v5);
  corpus.Add("edf_canm", "converted-768.canm", edf_canm::ConvertTo768(v512).image);
  edf_canm::File still;
  still.channels.resize(2);
  still.channels[0].type = edf_canm::kTypeStaticVector, still.channels[0].base = {1, 2, 3, 1};
  still.channels[1].type = edf_canm::kTypeStaticQuat, still.channels[1].base = {0, 0, 0, 1};
  still.names = {{0, "Scene_Root"}};
  edf_canm::Animation a;
  a.name = "pose", a.keyframes = 1, a.bones = {{0, 0, 1, 0}};
  still.animations = {a};
  corpus.Add("edf_canm", "kind0-kind2-768.canm", edf_canm::LayOutStock(still).image);
}

void AddEdfSeeds(Corpus& corpus) {
  AddMdbMeshAndDds(corpus);
  AddCasTables(corpus);
  AddEdfCanm768(corpus);
}

}  // namespace

const FormatSeeds kEdfSeeds{{{"edf-canm", {{}, {{"canm-version", "768"}}}},
                             {"edf-cas", {{}, {{"edf-version", "5"}}, {{"edf-version", "4.1"}}}}},
                            AddEdfSeeds};

}  // namespace animkit::fuzz_corpus
