// What the EDF formats (edf-canm, edf-mdb) share: an entry of their table of UTF-16 names.
#pragma once

#include <cstdint>
#include <string>

namespace animkit::edf {

struct NameEntry {
  uint32_t offset = 0;  // from the entry itself; 0 = no name
  std::string name;     // UTF-8 (read-only)
};

}  // namespace animkit::edf
