// The fixed header fields of ANIM versions 0 and 2 (after the version word), in file
// order: ParseAnim, SerializeAnim and `info` all walk these lists.
#pragma once

#include <animkit/formats/metroid_anim.hpp>

#include "formats/common/fields.hpp"

namespace animkit::metroid {

using fields::Field;

inline constexpr auto kV0Header =
    fields::List(Field{"duration", &AnimV0::duration}, Field{"unknown_08", &AnimV0::unknown_08},
                 Field{"interval", &AnimV0::interval}, Field{"unknown_10", &AnimV0::unknown_10},
                 Field{"frame_count", &AnimV0::frame_count}, Field{metadata_keys::kRootBone, &AnimV0::root_bone});

inline constexpr auto kV2Header = fields::List(
    Field{metadata_keys::kScratchSize, &AnimV2::scratch_size}, Field{metadata_keys::kEvntId, &AnimV2::evnt_id},
    Field{"unknown_0c", &AnimV2::unknown_0c}, Field{"duration", &AnimV2::duration},
    Field{"interval", &AnimV2::interval}, Field{metadata_keys::kRootBone, &AnimV2::root_bone}, Field{"looping", &AnimV2::looping},
    Field{"rotation_divisor", &AnimV2::rotation_divisor},
    Field{"translation_multiplier", &AnimV2::translation_multiplier},
    Field{"channel_count", &AnimV2::channel_count}, Field{"unknown_2c", &AnimV2::unknown_2c});

}  // namespace animkit::metroid
