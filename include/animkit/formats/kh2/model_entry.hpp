// Kingdom Hearts II MDLX model entry (BAR type 4) as a record: its header and bone table
// read, its bytes kept whole; the skeleton it gives. The meshes: formats/kh2/model.hpp.
#pragma once

#include <animkit/formats/kh2/motion.hpp>

namespace animkit::kh2 {

// A model header (0x20 bytes; the first at 0x90, each next one at next_offset from the
// one before). Offsets count from the header.
struct ModelHeader {
  int32_t type = 0;  // 3 object, 4 shadow
  int32_t subtype = 0, attributes = 0;
  uint32_t next_offset = 0;  // the next model of the chain (0: none)
  uint16_t bone_count = 0, texture_count = 0;
  uint32_t bone_offset = 0;
  uint32_t skeleton_data_offset = 0;  // 0x120 bytes: bounding box, IK bias, body-part bones
  uint32_t group_count = 0;           // group headers (0x20 each) follow this header
};

// The first model's header, its bone table, and the entry's bytes kept whole.
struct Model : ModelHeader {
  Bytes bytes;
  std::vector<BoneRecord> bones;
};


Model ParseModel(ByteView data, uint64_t base = 0);
// Skeleton of a model (joints "#N", rest from the bone table).
Skeleton SkeletonFromModel(const Model& model);

}  // namespace animkit::kh2
