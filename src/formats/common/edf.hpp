// What the EDF formats (edf-canm, edf-mdb, the CAS set) share: the table of UTF-16 names and
// the --edf-version option.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/format.hpp>

#include <string>
#include <vector>

namespace animkit::edf {

// --edf-version, one option of the CAS and MDB writers (one name, one help); each maps the
// game ("6", "5", "4.1") to its own version word.
inline OptionSpec VersionSpec() {
  return {
    .name = "edf-version",
    .help = "EDF version to write. CAS: 4.1 (0x200), 5 (0x203) or 6 (0x204); an older set given as input or "
            "--template is converted to 6 (tables renumbered, CANM 768); default: the template's or input's, else 6. "
            "MDB without --template: 5 and 4.1 write version 0x14, 6 writes 0x20; default: the input's, else 6",
    .use = OptionUse::Write};
}

// count u32 entries at offset (the header field at field_at holds offset), each the offset
// of a zero-terminated UTF-16 string from the entry itself; 0 names nothing. Entry has
// `offset` and `name`; noun names an entry in errors ("bone name").
template <class Entry>
std::vector<Entry> ReadNameTable(const ByteReader& file, uint32_t offset, uint32_t count, size_t field_at,
                                 const std::string& noun, size_t entry_size) {
  ByteReader t = file.Table(offset, count, entry_size, field_at, noun + " table");
  std::vector<Entry> names(count);
  for (size_t i = 0; i < names.size(); ++i) {
    const size_t entry = t.absolute(t.tell());
    names[i].offset = t.U32("a " + noun + " offset");
    if (names[i].offset != 0)
      names[i].name = file.Utf16z(int64_t(entry) + names[i].offset, entry, noun + " " + std::to_string(i));
  }
  return names;
}

}  // namespace animkit::edf
