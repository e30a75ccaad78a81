// `animkit archive list|extract|replace`: an archive's members (an EDF RAB or MRAB), over
// the library's archive jobs (pipeline/archive.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace animkit::cli {

struct ArchiveArgs {
  std::string file, member, replacement, output, format;
  std::vector<std::string> members;
  bool json = false;
};

// Adds the verb and its three sub-verbs; RunArchive runs whichever was given.
CLI::App* AddArchiveCommand(CLI::App& app, ArchiveArgs& args);
int RunArchive(const CLI::App& archive, const ArchiveArgs& args);

}  // namespace animkit::cli
