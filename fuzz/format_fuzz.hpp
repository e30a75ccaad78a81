// The body every reader's fuzz target shares: read; a file that reads must write
// back to the same bytes, describe itself, decode, sample every clip (own frames
// and resampled) and encode back into its format and into glTF without any error
// but animkit::Error.
#pragma once

#include <animkit/animkit.hpp>
#include <animkit/formats/registry.hpp>

#include <cstdio>
#include <cstdlib>

namespace animkit::fuzz {

// Small limits keep each input fast (sampling writes JSON for every sample, so the
// sample budget sets the cost of an input); the checks are the same as at the defaults.
inline Options FuzzOptions() {
  Options options;
  Limits limits;
  limits.max_frames = 1 << 10;
  limits.max_values = 1 << 12;
  options.SetLimits(limits);
  return options;
}

// On from Decode to what allocates frames: sample every clip (its own frames and
// resampled), then encode the scene back into the format and into glTF, and
// read the format's own encoding back.
inline void FuzzScene(const FormatDescriptor& format, const Scene& scene, const Scene* reference) {
  const Options options = FuzzOptions();
  try {
    CheckScene(scene, options.limits());
    for (double rate : {0.0, 7.0})
      WriteSampleJson(scene, format.id, SampleRequest{rate, {}, &scene.skeleton, options.limits()},
                      [](std::string_view) {});
  } catch (const Error&) {
    return;
  }
  for (const FormatDescriptor* out : {&format, FindFormat("gltf")}) {
    if (!out || !out->encode) continue;
    try {
      EncodeContext ectx;
      ectx.reference = reference;
      ectx.options = options;
      const Bytes encoded = out->encode(scene, ectx)->Write();
      // glTF import has a target of its own (gltf_fuzz); reading every export back here
      // would double the cost of each input for coverage that target already has.
      if (out == &format) (void)out->read(encoded, {options, "", {}})->Decode(DecodeContext{reference, options});
    } catch (const Error&) {
    }
  }
}

inline int FuzzFormat(const FormatDescriptor& format, const uint8_t* data, size_t size) {
  ByteView input(data, size);
  std::unique_ptr<Document> doc;
  try {
    doc = format.read(input, {});
  } catch (const Error&) {
    return 0;
  }
  const Bytes written = doc->Write();
  if (written.size() != size || !std::equal(written.begin(), written.end(), data)) {
    std::fprintf(stderr, "%s: read then write changed the bytes\n", std::string(format.id).c_str());
    std::abort();
  }
  (void)DumpJson(doc->Info());
  const Options options = FuzzOptions();
  Scene scene;
  try {
    LoadedFile loaded{"fuzz", &format, std::move(doc)};
    scene = DecodeDocument(loaded, DecodeContext{nullptr, options});
  } catch (const Error&) {
    return 0;
  }
  FuzzScene(format, scene, nullptr);
  return 0;
}

// The start every target with checks of its own shares: the document read from the input
// with context, or null when it is refused with animkit::Error; a document that reads must
// write back the input's bytes and describe itself (Info, InfoSummary).
inline std::unique_ptr<Document> ReadAndWriteBack(const FormatDescriptor& format, ByteView input,
                                                  const ReadContext& context) {
  std::unique_ptr<Document> doc;
  try {
    doc = format.read(input, context);
  } catch (const Error&) {
    return nullptr;
  }
  const Bytes written = doc->Write();
  if (written.size() != input.size() || !std::equal(written.begin(), written.end(), input.begin())) {
    std::fprintf(stderr, "%s: read then write changed the bytes\n", std::string(format.id).c_str());
    std::abort();
  }
  (void)DumpJson(doc->Info());
  (void)DumpJson(doc->InfoSummary());
  return doc;
}

// An archive (the Document member capability): what reads writes back, lists its members,
// unpacks each to its listed size, and each member replaced by its own bytes (repacked as it
// was) unpacks the same in an archive of as many members; then it decodes.
inline int FuzzArchive(const FormatDescriptor& format, const uint8_t* data, size_t size, const ReadContext& context) {
  const std::unique_ptr<Document> doc = ReadAndWriteBack(format, ByteView(data, size), context);
  if (!doc) return 0;
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
      const Bytes replaced = doc->WithMember(i, bytes);
      auto again = format.read(replaced, context);
      if (again->Members().size() != members.size()) std::abort();
      if (again->MemberBytes(i) != bytes) std::abort();
    } catch (const Error&) {
    }
  }
  try {
    (void)doc->Decode(DecodeContext{nullptr, FuzzOptions()});
  } catch (const Error&) {
  }
  // An archive's scenes (a PAK's characters), each decoded from its members.
  (void)doc->Damaged();
  (void)doc->SceneMembers();
  for (const std::string& scene : doc->Scenes()) {
    Options options = FuzzOptions();
    options.SetScene(scene);
    try {
      (void)doc->Decode(DecodeContext{nullptr, options});
    } catch (const Error&) {
    }
  }
  return 0;
}

}  // namespace animkit::fuzz

#define ANIMKIT_FORMAT_FUZZER(descriptor)                                        \
  namespace animkit {                                                            \
  extern const FormatDescriptor descriptor;                                      \
  }                                                                              \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {      \
    return animkit::fuzz::FuzzFormat(animkit::descriptor, data, size);           \
  }
