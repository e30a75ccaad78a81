// MDB records in file order: Parse, Serialize and `info` walk these lists.
#pragma once

#include <animkit/formats/edf_mdb.hpp>

#include "formats/common/fields.hpp"

namespace animkit::edf_mdb {

using fields::Field;

// The header after the magic (0x04..0x30).
inline constexpr auto kHeader = fields::List(
    Field{"version", &File::version}, Field{"name_count", &File::name_count}, Field{"name_offset", &File::name_offset},
    Field{"bone_count", &File::bone_count}, Field{"bone_offset", &File::bone_offset},
    Field{"object_count", &File::object_count}, Field{"object_offset", &File::object_offset},
    Field{"material_count", &File::material_count}, Field{"material_offset", &File::material_offset},
    Field{"texture_count", &File::texture_count}, Field{"texture_offset", &File::texture_offset});

// A bone (0xC0 bytes).
inline constexpr auto kBoneRecord = fields::List(
    Field{"index", &Bone::index}, Field{"parent", &Bone::parent}, Field{"next_sibling", &Bone::next_sibling},
    Field{"first_child", &Bone::first_child}, Field{"name_index", &Bone::name_index},
    Field{"child_count", &Bone::child_count}, Field{"group", &Bone::group}, Field{"unknown1", &Bone::unknown1},
    Field{"unknown_flag", &Bone::unknown_flag}, Field{"padding", &Bone::padding}, Field{"local", &Bone::local},
    Field{"inverse_bind", &Bone::inverse_bind}, Field{"unknown", &Bone::unknown});

// Bone records of a skeleton whose parents come first, model[i] its rest model matrices:
// computed sibling and child links, group 0 for roots and 3 otherwise, zero unknown fields,
// inverse bind = inverse(model[i]). Shared by EncodeSkeleton and EncodeModel.
void WriteBones(ByteWriter& w, const Skeleton& skeleton, const std::vector<Mat4>& model);

}  // namespace animkit::edf_mdb
