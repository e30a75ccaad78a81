// Registry entries and documents for the Metroid Prime ANCS and the MP1 EVNT.
#include <animkit/formats/metroid_ancs.hpp>

#include "formats/common/document.hpp"
#include "metroid_ancs_fields.hpp"

#include <algorithm>

namespace animkit {

namespace metroid_ancs {
namespace {

class EvntDocument final : public FileDocument<EvntFile, kMetroidEvntFormat, SerializeEvnt> {
 public:
  using FileDocument::FileDocument;
  Value Info() const override {
    Value info = EventSetValue(file_.set, Game::Mp1);
    info["trailing_bytes"] = file_.trailing.size();
    return info;
  }
  // One clip without tracks that holds the events (its duration: the last event's time).
  Scene Decode(const DecodeContext&) const override {
    Clip clip;
    clip.name = "events";
    clip.events = DecodeEvents(file_.set);
    for (const Event& e : clip.events) clip.duration = std::max(clip.duration, e.time);
    clip.metadata = {{kSourceFormatKey, kMetroidEvntFormat.id}, {"evnt_version", file_.set.version}};
    Scene scene;
    scene.clips.push_back(std::move(clip));
    return scene;
  }
  std::string Version() const override { return std::to_string(file_.set.version); }
};

uint32_t BE32(ByteView d, size_t at) {
  return (uint32_t{d[at]} << 24) | (uint32_t{d[at + 1]} << 16) | (uint32_t{d[at + 2]} << 8) | d[at + 3];
}

// No magic: a version of 1 or 2 and a first count that fits, with the extension.
int ProbeEvnt(ByteView data, std::string_view extension) {
  if (extension != ".evnt") return kProbeNone;
  if (data.size() < 16) return kProbeExtension;
  const uint32_t version = BE32(data, 0);
  if ((version == 1 || version == 2) && uint64_t{BE32(data, 4)} * 30 <= data.size()) return kProbeMagic - 10;
  return kProbeExtension;
}

std::unique_ptr<Document> ReadEvnt(ByteView data, const ReadContext&) {
  return std::make_unique<EvntDocument>(ParseEvnt(data));
}

}  // namespace
}  // namespace metroid_ancs

const FormatDescriptor kMetroidEvntFormat{
    .id = "metroid-evnt", .description = "Metroid Prime EVNT points of interest (MP1)",
    .extensions = {".evnt"}, .companions = {}, .probe = metroid_ancs::ProbeEvnt, .read = metroid_ancs::ReadEvnt,
    .encode = nullptr, .options = {}};

}  // namespace animkit
