// The import file: everything an importer needs from one decode, in one file (the Blender
// add-on's import; `animkit import-data`, Python's animkit.import_data). The layout is in
// docs/blender.md, "The import file":
//
//   "AKIMPORT" u32 version (3) u32 header length H (a multiple of 4)
//   H bytes of JSON (space padded), then the data every offset of the header counts from.
//
// The header's sections: format and skeleton_file / skeleton_note / skeleton_use (what was
// used), file_clips (every clip of the file), warnings (what `convert` would print), scene
// (the glTF `convert FILE OUT.glb` writes, as GltfSceneView: each animation's channels as
// stored) and clips (the chosen clips, in the file's order: name, frame_rate, duration,
// loop, space, joints, events, frame_count, animation, shares_data_with?, curves?: the keys
// the file stores, pipeline/curves.hpp, when it does). All little-endian.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/format.hpp>
#include <animkit/pipeline/skeleton.hpp>

#include <string>
#include <vector>

namespace animkit {

// The job: inputs, Validate(), Run().
struct ImportDataJob {
  std::string input;                 // the file read
  std::string format;                // its format id, "" = detect
  SkeletonSource skeleton;           // what it decodes against (a file, "auto", or none)
  std::vector<std::string> clips;    // names or globs (SelectClips); none = every clip
  Options options;

  // Error when the inputs make no sense: no input file, an unknown format id, a malformed glob.
  void Validate() const;
  // Validates, then reads and decodes the input once: the import file's bytes.
  Bytes Run() const;
};

}  // namespace animkit
