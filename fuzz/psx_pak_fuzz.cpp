// Vib-Ribbon PAK archives: any input reads (writing back its own bytes, listing its members,
// reading each, every member replaced by its own bytes reading the same) or throws
// animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/psx_pak.hpp>

namespace animkit {
extern const FormatDescriptor kPsxPakFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  std::unique_ptr<Document> doc;
  try {
    doc = kPsxPakFormat.read(ByteView(data, size), context);
  } catch (const Error&) {
    return 0;
  }
  const Bytes written = doc->Write();
  if (written != Bytes(data, data + size)) std::abort();
  (void)DumpJson(doc->Info());
  (void)DumpJson(doc->InfoSummary());
  const std::vector<ArchiveMember> members = doc->Members();
  for (size_t i = 0; i < members.size(); ++i) {
    Bytes bytes;
    try {
      bytes = doc->MemberBytes(i);
    } catch (const Error&) {
      continue;
    }
    if (bytes.size() != members[i].size) std::abort();
    try {
      // Replaced by its own bytes, a member reads the same (its padding is written as zeros).
      const Bytes replaced = doc->WithMember(i, bytes);
      auto again = kPsxPakFormat.read(replaced, context);
      if (again->MemberBytes(i) != bytes) std::abort();
      if (again->Members().size() != members.size()) std::abort();
    } catch (const Error&) {
    }
  }
  try {
    (void)doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  } catch (const Error&) {
  }
  return 0;
}
