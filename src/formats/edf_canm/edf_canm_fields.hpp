// CANM records in file order: Parse, Serialize and `info` walk these lists.
#pragma once

#include <animkit/formats/edf_canm.hpp>

#include "formats/common/fields.hpp"

namespace animkit::edf_canm {

using fields::Field;

// The header after the magic and the version (0x08..0x20): the three tables.
inline constexpr auto kHeaderTables = fields::List(
    Field{"animation_count", &File::animation_count}, Field{"animation_offset", &File::animation_offset},
    Field{"channel_count", &File::channel_count}, Field{"channel_offset", &File::channel_offset},
    Field{"name_count", &File::name_count}, Field{"name_offset", &File::name_offset});

// An animation entry (0x1C bytes); offsets count from the entry.
inline constexpr auto kAnimationEntry = fields::List(
    Field{metadata_keys::kLoop, &Animation::loop}, Field{"name_offset", &Animation::name_offset},
    Field{metadata_keys::kDuration, &Animation::duration}, Field{metadata_keys::kInterval, &Animation::interval},
    Field{metadata_keys::kKeyframes, &Animation::keyframes}, Field{"bone_count", &Animation::bone_count},
    Field{"bone_offset", &Animation::bone_offset});

}  // namespace animkit::edf_canm
