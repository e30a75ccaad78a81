// Registry entries and documents for the Metroid Prime ANCS and the MP1 EVNT.
#include <animkit/formats/metroid_ancs.hpp>

#include <animkit/io/io.hpp>
#include <animkit/io/path.hpp>

#include "formats/common/document.hpp"
#include "formats/common/metroid_character.hpp"
#include "formats/common/options.hpp"
#include "metroid_ancs_assemble.hpp"
#include "metroid_ancs_fields.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>

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

const WordOption kCharacterOption{metroid_character::CharacterSpec()};

class AncsDocument final : public FileDocument<AncsFile, kMetroidAncsFormat, SerializeAncs> {
 public:
  // path: the file read ("" for bytes from memory); the files it names are looked for
  // beside it, or among an archive's members when neighbour is set.
  AncsDocument(AncsFile file, std::string path, std::function<std::optional<Bytes>(std::string_view)> neighbour)
      : FileDocument(std::move(file)), path_(std::move(path)), neighbour_(std::move(neighbour)) {}

  Value Info() const override {
    Value characters = Value::array();
    for (const Character& c : file_.characters) characters.push_back(CharacterValue(c, file_.animation_set, file_.game));
    return {{"game", file_.game == Game::Mp1 ? "MP1" : "MP2"},
            {"version", file_.version},
            {"character_set_table_count", file_.set_table_count},
            {"characters", std::move(characters)},
            {"animation_set", AnimationSetValue(file_.animation_set, file_.game)},
            {"trailing_bytes", file_.trailing.size()},
            {"warnings", file_.warnings}};
  }

  // The characters by name with their model, skin and skeleton ids and animation names;
  // the animation set's tables as counts (`info --full` lists every record).
  Value InfoSummary() const override {
    Value info = Info();
    Value characters = Value::array();
    for (const Character& c : file_.characters) {
      Value names = Value::array();
      for (const AnimationName& a : c.animations) names.push_back(a.name);
      Value v = {{"id", c.id}, {"name", c.name}, {"table_count", c.table_count}, {"animations", std::move(names)}};
      fields::Describe(v, c.ids, kCharacterIds);
      characters.push_back(std::move(v));
    }
    info["characters"] = std::move(characters);
    for (auto item : info["animation_set"].items())
      if (item.value().is_array()) item.value() = Value{{"count", item.value().size()}};
    return info;
  }

  Scene Decode(const DecodeContext& context) const override {
    std::vector<std::string> warnings;
    const std::string& chosen = context.options.scene();
    const Character& c =
        ChooseCharacter(file_, chosen.empty() ? kCharacterOption.Get(context.options, std::string()) : chosen, warnings);
    SideReader read = [this](const std::string& name) { return Side(name); };
    Scene scene = AssembleCharacter(file_, c, read, context.options, warnings);
    std::lock_guard lock(mutex_);
    decode_warnings_ = std::move(warnings);
    return scene;
  }

  std::vector<std::string> Scenes() const override {
    std::vector<std::string> names;
    for (const Character& c : file_.characters) names.push_back(c.name);
    return names;
  }

  std::vector<std::string> Warnings() const override {
    std::vector<std::string> out = file_.warnings;
    std::lock_guard lock(mutex_);
    out.insert(out.end(), decode_warnings_.begin(), decode_warnings_.end());
    return out;
  }
  std::string Version() const override { return file_.game == Game::Mp1 ? "1" : "2"; }

 private:
  std::optional<Bytes> Side(const std::string& name) const {
    if (neighbour_) return neighbour_(name);
    if (path_.empty()) return std::nullopt;
    const std::filesystem::path folder = PathOf(path_).parent_path();
    std::string lower = name;
    const size_t dot = lower.rfind('.');
    for (size_t i = dot; i < lower.size(); ++i) lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(lower[i])));
    for (const std::string& n : {name, lower}) {
      const std::filesystem::path p = folder / n;
      std::error_code ec;
      if (std::filesystem::is_regular_file(p, ec)) return ReadFileBytes(TextOf(p));
    }
    return std::nullopt;
  }

  std::string path_;
  std::function<std::optional<Bytes>(std::string_view)> neighbour_;
  mutable std::mutex mutex_;
  mutable std::vector<std::string> decode_warnings_;  // what the last Decode skipped or chose
};

// No magic: a version of 1 or 2 and a first count that fits, with the extension.
int ProbeEvnt(ByteView data, std::string_view extension) {
  if (extension != ".evnt") return kProbeNone;
  if (data.size() < 16) return kProbeExtension;
  const uint32_t version = be::Load32(data.data());
  if ((version == 1 || version == 2) && uint64_t{be::Load32(data.data() + 4)} * 30 <= data.size()) return kProbeMagic - 10;
  return kProbeExtension;
}

std::unique_ptr<Document> ReadEvnt(ByteView data, const ReadContext&) {
  return std::make_unique<EvntDocument>(ParseEvnt(data));
}

// No magic: version 1, a character set table count of 1 and a character count that fits.
int ProbeAncs(ByteView data, std::string_view extension) {
  const bool ext = extension == ".ancs";
  if (data.size() < 12) return ext ? kProbeExtension : kProbeNone;
  const bool header = data[0] == 0 && data[1] == 1 && data[2] == 0 && data[3] == 1 && uint64_t{be::Load32(data.data() + 4)} * 30 <= data.size();
  if (!header) return ext ? kProbeExtension : kProbeNone;
  return ext ? kProbeMagic - 10 : kProbeNone;
}

std::unique_ptr<Document> ReadAncs(ByteView data, const ReadContext& context) {
  return std::make_unique<AncsDocument>(ParseAncs(data), context.path, context.neighbour);
}

}  // namespace
}  // namespace metroid_ancs

const FormatDescriptor kMetroidAncsFormat{
    .id = "metroid-ancs", .description = "Metroid Prime ANCS character set (MP1 and MP2)",
    .extensions = {".ancs"}, .companions = {}, .probe = metroid_ancs::ProbeAncs, .read = metroid_ancs::ReadAncs,
    .encode = nullptr, .options = {metroid_ancs::kCharacterOption.spec()}, .up_axis = "+Z", .forward_axis = "+Y", .multi_clip = true};

const FormatDescriptor kMetroidEvntFormat{
    .id = "metroid-evnt", .description = "Metroid Prime EVNT points of interest (MP1)",
    .extensions = {".evnt"}, .companions = {}, .probe = metroid_ancs::ProbeEvnt, .read = metroid_ancs::ReadEvnt,
    .encode = nullptr, .options = {}, .part_of = "events of the Metroid characters (.ancs) beside them"};

}  // namespace animkit
