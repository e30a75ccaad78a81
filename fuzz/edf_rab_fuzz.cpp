// EDF RAB / MRAB archives: any input reads (writing back its own bytes, listing its members,
// unpacking each within small limits, every member replaced by its own bytes giving the same
// archive back) or throws animkit::Error; never a crash, a hang or a sanitizer report.
#include "format_fuzz.hpp"

#include <animkit/formats/edf_rab.hpp>

namespace animkit {
extern const FormatDescriptor kEdfRabFormat;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace animkit;
  ReadContext context;
  Limits limits = fuzz::FuzzOptions().limits();
  limits.max_member_bytes = 1 << 20;
  context.options.SetLimits(limits);
  std::unique_ptr<Document> doc;
  try {
    doc = kEdfRabFormat.read(ByteView(data, size), context);
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
      // A member the encoder did not make may pack differently: it must still unpack the same.
      const Bytes replaced = doc->WithMember(i, bytes);
      auto again = kEdfRabFormat.read(replaced, context);
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
