// CAS records in file order: Parse, Serialize, Emit and `info` walk these lists.
#pragma once

#include <animkit/formats/edf_canm/cas.hpp>

#include "formats/common/fields.hpp"

namespace animkit::edf_canm::cas {

using fields::Field;

// The header after the magic (0x04..0x30).
inline constexpr auto kHeader = fields::List(
    Field{"version", &File::version}, Field{"canm_offset", &File::canm_offset},
    Field{"tcontrol_count", &File::tcontrol_count}, Field{"tcontrol_offset", &File::tcontrol_offset},
    Field{"vcontrol_count", &File::vcontrol_count}, Field{"vcontrol_offset", &File::vcontrol_offset},
    Field{"anmgroup_count", &File::anmgroup_count}, Field{"anmgroup_offset", &File::anmgroup_offset},
    Field{"bone_count", &File::bone_count}, Field{"bone_offset", &File::bone_offset},
    Field{"unnamed_group_offset", &File::unnamed_group_offset});

inline constexpr auto kTControl = fields::List(Field{"name_offset", &TControl::name_offset},
                                               Field{"word_count", &TControl::word_count},
                                               Field{"words_offset", &TControl::words_offset});

inline constexpr auto kVControl = fields::List(
    Field{"name_offset", &VControl::name_offset}, Field{"value0", &VControl::value0},
    Field{"value1", &VControl::value1}, Field{"value2", &VControl::value2}, Field{"value3", &VControl::value3});

inline constexpr auto kAnmGroup = fields::List(Field{"name_offset", &AnmGroup::name_offset},
                                               Field{"mcanm_count", &AnmGroup::mcanm_count},
                                               Field{"mcanm_offset", &AnmGroup::mcanm_offset});

inline constexpr auto kMcanm = fields::List(
    Field{"name_offset", &Mcanm::name_offset}, Field{"first_offset", &Mcanm::first_offset},
    Field{"more_count", &Mcanm::more_count}, Field{"more_offset", &Mcanm::more_offset},
    Field{"group_offsets", &Mcanm::group_offsets}, Field{"type", &Mcanm::type}, Field{"value", &Mcanm::value});

inline constexpr auto kAnmData = fields::List(
    Field{"value0", &AnmData::value0}, Field{"time", &AnmData::time}, Field{"group_offset", &AnmData::group_offset},
    Field{"type_a", &AnmData::type_a}, Field{"value_a", &AnmData::value_a}, Field{"type_b", &AnmData::type_b},
    Field{"value_b", &AnmData::value_b}, Field{"tail", &AnmData::tail});

inline constexpr auto kDataGroup =
    fields::List(Field{"count", &DataGroup::count}, Field{"data_offset", &DataGroup::data_offset});

// A data record: EDF 4.1 ends after args (0x24); EDF 5 and 6 add args_tail (0x34).
inline constexpr auto kData41 = fields::List(Field{"command", &Data::command}, Field{"args", &Data::args});
inline constexpr auto kData =
    fields::List(Field{"command", &Data::command}, Field{"args", &Data::args}, Field{"args_tail", &Data::args_tail});

inline constexpr auto kBone = fields::List(Field{"name_offset", &Bone::name_offset});

}  // namespace animkit::edf_canm::cas
