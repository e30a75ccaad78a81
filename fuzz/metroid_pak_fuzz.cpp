// Metroid Prime 1/2 PAK archives: any input reads (writing back its own bytes, listing its
// members, unpacking each, every member replaced by its own bytes unpacking the same) or throws
// animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/metroid_pak.hpp>

namespace animkit {
extern const FormatDescriptor kMetroidPakFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  context.options = fuzz::FuzzOptions();
  std::unique_ptr<Document> doc;
  try {
    doc = kMetroidPakFormat.read(ByteView(data, size), context);
  } catch (const Error&) {
    return 0;
  }
  if (doc->Write() != Bytes(data, data + size)) std::abort();
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
      // Replaced by its own bytes (repacked as it was), a member unpacks the same.
      const Bytes replaced = doc->WithMember(i, bytes);
      auto again = kMetroidPakFormat.read(replaced, context);
      if (again->Members().size() != members.size()) std::abort();
      if (again->MemberBytes(i) != bytes) std::abort();
    } catch (const Error&) {
    }
  }
  try {
    (void)doc->Decode(DecodeContext{nullptr, fuzz::FuzzOptions()});
  } catch (const Error&) {
  }
  return 0;
}
