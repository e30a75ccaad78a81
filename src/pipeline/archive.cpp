// Archive members for every front end.
#include <animkit/pipeline/archive.hpp>

#include <animkit/core/error.hpp>
#include <animkit/io/io.hpp>
#include <animkit/io/path.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace animkit {
namespace {

namespace fs = std::filesystem;

std::string NameList(const std::vector<ArchiveMember>& members) {
  std::string out;
  for (size_t i = 0; i < members.size() && i < 20; ++i) out += (i ? ", " : "") + members[i].name;
  if (members.size() > 20) out += ", ... (" + std::to_string(members.size() - 20) + " more)";
  return out;
}

// A member's name or folder part as a path part: never "..", ".", empty, rooted or with a drive.
void CheckPart(const std::string& part, const ArchiveMember& member) {
  if (part.empty() || part == "." || part == ".." || part.find(':') != std::string::npos ||
      part.find('\0') != std::string::npos) {
    throw Error::General("member '" + member.name + "': '" + part + "' is no plain file name; not extracted");
  }
}

bool SameIgnoringCase(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

// Eight hex digits: a member named "<id>.<type>" (a Metroid PAK's) is found by its id alone.
bool IsHexId(std::string_view s) {
  return s.size() == 8 && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

size_t FindMember(const LoadedFile& archive, std::string_view name) {
  const std::vector<ArchiveMember> members = archive.document->Members();
  if (members.empty()) {
    throw Error::General(std::string(archive.format->id) + " files hold no members (no archive)").InFile(archive.path);
  }
  for (size_t i = 0; i < members.size(); ++i)
    if (members[i].name == name) return i;
  for (size_t i = 0; i < members.size(); ++i)
    if (!members[i].folder.empty() && members[i].folder + "/" + members[i].name == name) return i;
  for (size_t i = 0; i < members.size(); ++i)
    for (const std::string& other : members[i].names)
      if (SameIgnoringCase(other, name)) return i;
  if (IsHexId(name))
    for (size_t i = 0; i < members.size(); ++i)
      if (members[i].name.size() > name.size() && members[i].name[name.size()] == '.' &&
          SameIgnoringCase(std::string_view(members[i].name).substr(0, name.size()), name))
        return i;
  throw Error::General("no member named '" + std::string(name) + "'; it holds " + NameList(members)).InFile(archive.path);
}

Value MembersValue(const LoadedFile& archive) {
  Value out = Value::array();
  const std::vector<ArchiveMember> members = archive.document->Members();
  for (size_t i = 0; i < members.size(); ++i) {
    const ArchiveMember& m = members[i];
    Value member = {{"index", i},          {"name", m.name},
                    {"folder", m.folder},  {"size", m.size},
                    {"stored_size", m.stored_size}, {"compressed", m.compressed}};
    if (!m.names.empty()) {
      Value names = Value::array();
      for (const std::string& n : m.names) names.push_back(n);
      member["names"] = std::move(names);
    }
    out.push_back(std::move(member));
  }
  return out;
}

std::vector<std::string> MemberPathParts(const ArchiveMember& member) {
  std::vector<std::string> parts;
  for (const std::string* whole : {&member.folder, &member.name}) {
    std::string part;
    for (char c : *whole + "/") {
      if (c == '/' || c == '\\') {
        if (!part.empty() || whole == &member.name) parts.push_back(part);
        part.clear();
      } else {
        part += c;
      }
    }
  }
  for (const std::string& p : parts) CheckPart(p, member);
  return parts;
}

std::string MemberPath(const std::string& dir, const ArchiveMember& member) {
  fs::path out = PathOf(dir);
  for (const std::string& p : MemberPathParts(member)) out /= PathOf(p);
  return TextOf(out);
}

std::vector<std::string> ExtractMembers(const LoadedFile& archive, const std::vector<std::string>& names,
                                        const std::string& dir) {
  const std::vector<ArchiveMember> members = archive.document->Members();
  std::vector<size_t> chosen;
  if (names.empty()) {
    if (members.empty()) FindMember(archive, "");  // the no-archive error
    for (size_t i = 0; i < members.size(); ++i) chosen.push_back(i);
  } else {
    for (const std::string& n : names) chosen.push_back(FindMember(archive, n));
  }
  std::vector<std::string> written;
  for (size_t i : chosen) {
    const std::string path = MemberPath(dir, members[i]);
    fs::create_directories(PathOf(path).parent_path());
    Bytes bytes;
    try {
      bytes = archive.document->MemberBytes(i);
    } catch (const Error& e) {
      throw e.InFile(archive.path);
    }
    WriteFileAtomic(path, bytes, {archive.path});
    written.push_back(path);
  }
  return written;
}

Bytes ReplaceMember(const LoadedFile& archive, std::string_view name, ByteView bytes) {
  const size_t index = FindMember(archive, name);
  try {
    return archive.document->WithMember(index, bytes);
  } catch (const Error& e) {
    throw e.InFile(archive.path);
  }
}

}  // namespace animkit
