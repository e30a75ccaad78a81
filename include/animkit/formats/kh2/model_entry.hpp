// Kingdom Hearts II MDLX model entry (BAR type 4) as a record: its header and bone table
// read, its bytes kept whole; the skeleton it gives. The meshes: formats/kh2/model.hpp.
#pragma once

#include <animkit/formats/kh2/motion.hpp>

namespace animkit::kh2 {

// entry's bytes are kept whole.
struct Model {
  Bytes bytes;
  int32_t type = 0, subtype = 0, attributes = 0;
  uint32_t next_offset = 0;
  uint16_t bone_count = 0, texture_count = 0;
  uint32_t bone_offset = 0;  // from 0x90
  std::vector<BoneRecord> bones;
};


Model ParseModel(ByteView data, uint64_t base = 0);
// Skeleton of a model (joints "#N", rest from the bone table).
Skeleton SkeletonFromModel(const Model& model);

}  // namespace animkit::kh2
