#include "archive_command.hpp"

#include <animkit/animkit.hpp>

#include <cstdio>

namespace animkit::cli {

CLI::App* AddArchiveCommand(CLI::App& app, ArchiveArgs& args) {
  CLI::App* archive = app.add_subcommand("archive", "List, extract or replace the members of an archive (EDF RAB, MRAB, Vib-Ribbon PAK, Metroid Prime PAK)");
  archive->require_subcommand(1);
  CLI::App* list = archive->add_subcommand("list", "Every member: folder, name, sizes, whether it is compressed");
  list->add_option("FILE", args.file, "The archive")->required();
  list->add_flag("--json", args.json, "JSON instead of a table");
  CLI::App* extract = archive->add_subcommand("extract", "Write members unpacked under a folder (<folder>/<name>)");
  extract->add_option("FILE", args.file, "The archive")->required();
  extract->add_option("MEMBER", args.members, "Members by name, folder/name, another name or an 8-digit id (default: every member)");
  extract->add_option("-o,--output", args.output, "The folder to write into")->required();
  CLI::App* replace = archive->add_subcommand(
      "replace", "Write the archive with one member's bytes replaced (packed as it was; member order and other bytes kept)");
  replace->add_option("FILE", args.file, "The archive")->required();
  replace->add_option("MEMBER", args.member, "The member, by name or folder/name")->required();
  replace->add_option("NEW", args.replacement, "The file whose bytes the member gets")->required();
  replace->add_option("-o,--output", args.output, "The archive to write (never FILE or NEW)")->required();
  for (CLI::App* sub : {list, extract, replace}) sub->add_option("--format", args.format, "Archive format id (skips detection)");
  return archive;
}

int RunArchive(const CLI::App& archive, const ArchiveArgs& args) {
  const LoadedFile loaded = LoadFile(args.file, args.format, Options());
  if (archive.get_subcommand("list")->parsed()) {
    const Value members = MembersValue(loaded);
    if (members.empty()) FindMember(loaded, "");  // the no-archive error
    if (args.json) {
      std::printf("%s\n", DumpJson(members, 2).c_str());
      return 0;
    }
    std::printf("%-5s %-12s %10s %10s  %s\n", "index", "folder", "size", "stored", "name");
    for (const Value& m : members) {
      std::printf("%-5zu %-12s %10llu %10llu%s %s\n", m["index"].get<size_t>(), m["folder"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(m["size"].get<uint64_t>()),
                  static_cast<unsigned long long>(m["stored_size"].get<uint64_t>()),
                  m["compressed"].get<bool>() ? "*" : " ", m["name"].get<std::string>().c_str());
    }
    std::printf("%zu members (* compressed)\n", members.size());
    return 0;
  }
  if (archive.get_subcommand("extract")->parsed()) {
    for (const std::string& path : ExtractMembers(loaded, args.members, args.output)) std::printf("%s\n", path.c_str());
    return 0;
  }
  const Bytes replacement = ReadFileBytes(args.replacement);
  WriteFileAtomic(args.output, ReplaceMember(loaded, args.member, replacement), {args.file, args.replacement});
  return 0;
}

}  // namespace animkit::cli
