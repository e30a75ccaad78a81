// The fixed header fields of ANIM versions 0 and 2 (after the version word), in file
// order: ParseAnim, SerializeAnim and `info` all walk these lists.
#pragma once

#include <animkit/formats/metroid_anim.hpp>

#include "formats/common/fields.hpp"

namespace animkit::metroid {

using fields::Field;

// The version word before either game's header.
inline constexpr auto kAnimVersion = fields::List(Field{"version", &AnimFile::version});

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

// Echoes: CCharAnimTime pairs (seconds, state) where Metroid Prime has unknown words.
inline constexpr auto kEchoesV0Header =
    fields::List(Field{"duration", &EchoesAnimV0::duration}, Field{"duration_state", &EchoesAnimV0::duration_state},
                 Field{"interval", &EchoesAnimV0::interval}, Field{"interval_state", &EchoesAnimV0::interval_state},
                 Field{"frame_count", &EchoesAnimV0::frame_count},
                 Field{metadata_keys::kRootBone, &EchoesAnimV0::root_bone});

// Echoes version 2 from 0x04 to the key bitmap's bit count (0x2E); unaligned from 0x0A.
inline constexpr auto kEchoesV2Header = fields::List(
    Field{metadata_keys::kScratchSize, &EchoesAnimV2::scratch_size}, Field{"marker", &EchoesAnimV2::marker},
    Field{"duration", &EchoesAnimV2::duration}, Field{"interval", &EchoesAnimV2::interval},
    Field{metadata_keys::kRootBone, &EchoesAnimV2::root_bone}, Field{"looping", &EchoesAnimV2::looping},
    Field{"rotation_divisor", &EchoesAnimV2::rotation_divisor},
    Field{"translation_multiplier", &EchoesAnimV2::translation_multiplier},
    Field{"scale_multiplier", &EchoesAnimV2::scale_multiplier}, Field{"channel_count", &EchoesAnimV2::channel_count},
    Field{"unknown_2a", &EchoesAnimV2::unknown_2a});

// One axis of an Echoes descriptor part.
inline constexpr auto kAxisKey = fields::List(Field{"initial", &AxisKey::initial}, Field{"bits", &AxisKey::bits});

// What follows version 0's keys, and version 2's key bitmap.
inline constexpr auto kV0Tail = fields::List(Field{metadata_keys::kEvntId, &AnimV0::evnt_id});
inline constexpr auto kV2ChannelCountAgain = fields::List(Field{"channel_count_again", &AnimV2::channel_count_again});

// A Metroid Prime descriptor: the fixed part, then (when translation_keys is non-zero) the
// translation axes; each axis an initial value, then its bit width.
inline constexpr auto kPrimeDescriptor = fields::List(
    Field{"bone_id", &Descriptor::bone_id}, Field{"rotation_keys", &Descriptor::rotation_keys},
    fields::Interleaved{"rotation_initial", &Descriptor::rotation_initial, "rotation_bits", &Descriptor::rotation_bits},
    Field{"translation_keys", &Descriptor::translation_keys});
inline constexpr auto kPrimeTranslationAxes =
    fields::List(fields::Interleaved{"translation_initial", &Descriptor::translation_initial, "translation_bits",
                                     &Descriptor::translation_bits});
static_assert(fields::Size(kPrimeDescriptor) == 17 && fields::Size(kPrimeTranslationAxes) == 9);

// Echoes descriptor: a one-byte bone id before its three parts.
inline constexpr auto kEchoesDescriptorId = fields::List(Field{"bone_id", &EchoesDescriptor::bone_id});
inline constexpr auto kKeyedAxesCount = fields::List(Field{"keys", &KeyedAxes::keys});

// Echoes CINF bone: the fixed part before the linked ids' count.
inline constexpr auto kEchoesCinfBone =
    fields::List(Field{"id", &CinfBone::id}, Field{"parent", &CinfBone::parent}, Field{"origin", &CinfBone::origin},
                 Field{"rotation", &CinfBone::rotation}, Field{"local_rotation", &CinfBone::local_rotation});
inline constexpr auto kPrimeCinfBone =
    fields::List(Field{"id", &CinfBone::id}, Field{"parent", &CinfBone::parent}, Field{"origin", &CinfBone::origin});

// A CINF bone name's id, after the name.
using CinfName = std::pair<std::string, uint32_t>;
inline constexpr auto kCinfNameId = fields::List(Field{"id", &CinfName::second});

}  // namespace animkit::metroid
