// Archives (an EDF RAB or MRAB, a Vib-Ribbon PAK): listing, extracting and replacing members, the one way
// every front end does it (`animkit archive`, Python's File.members).
#pragma once

#include <animkit/core/value.hpp>
#include <animkit/pipeline/load.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// The member a name picks, the first in stored order of: its stored name, "folder/name" (case
// as stored), one of its names (ArchiveMember::names, any case), or for a name of 8 hex digits
// the member named "<those digits>.<type>" (a Metroid PAK's id, any case). An Error
// naming the file and listing what it holds when none does, or when the file is no archive.
size_t FindMember(const LoadedFile& archive, std::string_view name);

// The members in stored order: [{index, name, folder, size, stored_size, compressed}], and
// names when the member has any.
Value MembersValue(const LoadedFile& archive);

// Where a member is extracted under dir: dir/<folder>/<name>, each part checked to be a
// plain name (no "..", no root, no drive) so that nothing is written outside dir.
std::string MemberPath(const std::string& dir, const ArchiveMember& member);
// The parts of that path below dir: the folder's and the name's, split at '/' and '\\' (a
// Vib-Ribbon PAK's "GAME/N04_W_F.ANM" is two), each checked as above (Error otherwise).
std::vector<std::string> MemberPathParts(const ArchiveMember& member);

// Writes the named members (every member when names is empty) unpacked under dir (MemberPath),
// each atomically; the paths written, in member order.
std::vector<std::string> ExtractMembers(const LoadedFile& archive, const std::vector<std::string>& names,
                                        const std::string& dir);

// The archive's bytes with the named member's bytes replaced (packed as the member was; the
// member order and every other byte kept).
Bytes ReplaceMember(const LoadedFile& archive, std::string_view name, ByteView bytes);

}  // namespace animkit
