// RAB records in file order: Parse, Serialize and `info` walk these lists.
#pragma once

#include <animkit/formats/edf_rab.hpp>

#include "formats/common/fields.hpp"

namespace animkit::edf_rab {

using fields::Field;

// The header after the magic (0x04..0x28).
inline constexpr auto kHeaderFields = fields::List(
    Field{"version", &Header::version}, Field{"data_start", &Header::data_start},
    Field{"max_stored_size", &Header::max_stored}, Field{"max_raw_size", &Header::max_raw},
    Field{"member_count", &Header::member_count}, Field{"member_offset", &Header::member_offset},
    Field{"index_offset", &Header::index_offset}, Field{"folder_count", &Header::folder_count},
    Field{"folder_offset", &Header::folder_offset});

// A member (0x20 bytes); the name offset counts from the record.
inline constexpr auto kMemberFields = fields::List(
    Field{"name_offset", &MemberRecord::name_offset}, Field{"stored_size", &MemberRecord::stored_size},
    Field{"folder", &MemberRecord::folder}, Field{"flag", &MemberRecord::flag}, Field{"time", &MemberRecord::time},
    Field{"data_offset", &MemberRecord::data_offset}, Field{"data_offset_high", &MemberRecord::data_offset_high});

// A sorted index entry (8 bytes).
inline constexpr auto kIndexFields =
    fields::List(Field{"name_offset", &IndexRecord::name_offset}, Field{"member", &IndexRecord::member});

// A folder entry (4 bytes).
inline constexpr auto kFolderFields = fields::List(Field{"name_offset", &FolderRecord::name_offset});

}  // namespace animkit::edf_rab
