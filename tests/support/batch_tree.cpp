#include "support/batch_tree.hpp"

#include <animkit/formats/psx_anm.hpp>

#include <fstream>
#include <random>

namespace animkit::test {

Bytes SyntheticPsxAnm(int joints, size_t frames, unsigned seed) {
  SyntheticSpec spec{.joints = joints, .frames = frames, .frame_rate = 30, .translation_scale = 40, .seed = seed};
  const Skeleton skeleton = SyntheticSkeleton(spec);
  Clip clip = SyntheticClip(skeleton, spec);
  for (size_t j = 0; j < clip.tracks.size(); ++j) clip.tracks[j].joint = "#" + std::to_string(j);
  return psx_anm::Serialize(psx_anm::EncodeClip(clip, {}));
}

Bytes SyntheticGltf(int joints, size_t frames, unsigned seed, bool binary, bool skeleton_only) {
  const Scene scene = SyntheticScene({.joints = joints, .frames = frames, .seed = seed, .name = "clip" + std::to_string(seed)},
                                     skeleton_only);
  GltfExportOptions options;
  options.binary = binary;
  return ExportGltf(scene, options);
}

void WriteBytes(const std::filesystem::path& path, ByteView bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  WriteBytes(path, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

BatchTreeExpectation MakeBatchTree(const std::filesystem::path& root) {
  BatchTreeExpectation e;
  // Valid files: PS1 ANM (one under an extension no format claims), glb, gltf, a skeleton-only glb.
  WriteBytes(root / "chr/p_ex100/walk.anm", SyntheticPsxAnm(8, 40, 1));
  WriteBytes(root / "chr/p_ex100/run.anm", SyntheticPsxAnm(8, 24, 2));
  WriteBytes(root / "chr/p_ex200/idle.anm", SyntheticPsxAnm(5, 30, 3));
  WriteBytes(root / "event/scene01.bin", SyntheticPsxAnm(3, 12, 4));
  WriteBytes(root / "model/hero.glb", SyntheticGltf(6, 20, 5, true));
  WriteBytes(root / "model/hero_text.gltf", SyntheticGltf(4, 10, 6, false));
  WriteBytes(root / "model/rig.glb", SyntheticGltf(8, 0, 7, true, true));
  e.converted = {{"chr/p_ex100/walk.anm", "psx-anm"}, {"chr/p_ex100/run.anm", "psx-anm"},
                 {"chr/p_ex200/idle.anm", "psx-anm"}, {"event/scene01.bin", "psx-anm"},
                 {"model/hero.glb", "gltf"},          {"model/hero_text.gltf", "gltf"},
                 {"model/rig.glb", "gltf"}};

  // Corrupted copies that still look like their format.
  {
    // Frame 0 made two bytes shorter: its last keyframe now runs past the frame's end.
    Bytes b = SyntheticPsxAnm(4, 10, 8);
    const uint16_t end0 = static_cast<uint16_t>(b[8] | (b[9] << 8));
    b[8] = static_cast<uint8_t>((end0 - 1) & 0xFF);
    b[9] = static_cast<uint8_t>((end0 - 1) >> 8);
    WriteBytes(root / "broken/cut_frame.anm", b);
    e.failed["broken/cut_frame.anm"] = "keyframe for object";
  }
  {
    // A glb whose JSON chunk is garbage.
    Bytes b = SyntheticGltf(4, 10, 9, true);
    for (size_t i = 20; i < 40 && i < b.size(); ++i) b[i] = '!';
    WriteBytes(root / "broken/garbled.glb", b);
    e.failed["broken/garbled.glb"] = "broken/garbled.glb";
  }
  // Unrelated files.
  WriteText(root / "readme.txt", "Extracted with some tool.\n");
  WriteText(root / "misc/notes.json", "{\"not\": \"a glTF\"}\n");
  {
    std::mt19937 rng(1234);
    Bytes noise(4096);
    for (uint8_t& v : noise) v = static_cast<uint8_t>(rng());
    noise[0] = 0x42;  // never the PS1 ANM marker
    WriteBytes(root / "misc/noise.dat", noise);
  }
  WriteBytes(root / "misc/empty.anm", {});
  WriteText(root / "misc/fake.glb", "this is not a binary glTF at all");
  {
    // A truncated PS1 ANM: its offset table points past the end, but its marker and
    // extension mark a damaged PS1 ANM, so it fails with the reader's error.
    Bytes b = SyntheticPsxAnm(4, 10, 10);
    b.resize(b.size() / 2);
    WriteBytes(root / "misc/truncated.anm", b);
    e.failed["misc/truncated.anm"] = "past the end of the file";
  }
  e.skipped = {{"readme.txt", "no format"},
               {"misc/notes.json", "no format"},
               {"misc/noise.dat", "no format"},
               {"misc/empty.anm", "no format"},
               {"misc/fake.glb", "only the extension .glb"}};
  return e;
}

std::map<std::string, Bytes> ReadTree(const std::filesystem::path& root) {
  std::map<std::string, Bytes> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) out[entry.path().lexically_relative(root).generic_string()] = ReadFileBytes(entry.path().string());
  }
  return out;
}

}  // namespace animkit::test
