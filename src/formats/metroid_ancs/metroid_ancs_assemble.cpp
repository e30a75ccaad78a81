// A character of an ANCS assembled from the files beside it: the CINF's skeleton, the
// CMDL's mesh (when a CMDL reader is registered), one clip per animation name (its ANIM,
// its events). Side formats are reached through the registry, never their folders.
#include "metroid_ancs_assemble.hpp"

#include <animkit/formats/registry.hpp>

#include "metroid_ancs_fields.hpp"

#include <cstdio>

namespace animkit::metroid_ancs {

std::string MemberName(uint32_t id, std::string_view extension) {
  char text[16];
  std::snprintf(text, sizeof text, "%08X", id);
  return std::string(text) + "." + std::string(extension);
}

namespace {

struct Assembly {
  const AncsFile& file;
  const SideReader& read;
  const Options& options;
  std::vector<std::string>& warnings;

  // The scene a side file of format_id decodes to; none (with a warning) when the file or
  // its reader is missing.
  std::optional<Scene> Side(std::string_view format_id, const std::string& name, const Scene* reference,
                            const Options& side_options) {
    const FormatDescriptor* format = FindFormat(format_id);
    if (!format) {
      warnings.push_back(name + ": no " + std::string(format_id) + " reader in this build, skipped");
      return std::nullopt;
    }
    std::optional<Bytes> bytes = read(name);
    if (!bytes) {
      warnings.push_back(name + ": not found beside the ANCS, skipped");
      return std::nullopt;
    }
    try {
      // The side file's own side files (a model's textures and skin) come through the same reader.
      const ReadContext rc{side_options, name, [this](std::string_view n) { return read(std::string(n)); }, nullptr};
      const std::unique_ptr<Document> doc = format->read(*bytes, rc);
      return doc->Decode(DecodeContext{reference, side_options});
    } catch (const Error& e) {
      throw e.InFile(name);
    }
  }

  std::vector<Event> EventsOf(size_t index, const Clip& clip, uint32_t anim_id) {
    if (file.game == Game::Mp2) {
      const auto& sets = file.animation_set.event_sets;
      return index < sets.size() ? DecodeEvents(sets[index]) : std::vector<Event>{};
    }
    uint32_t evnt = kNoId;
    if (clip.metadata.is_object() && clip.metadata.contains("evnt_id")) evnt = clip.metadata["evnt_id"].get<uint32_t>();
    if (evnt == kNoId)
      for (const AnimEvntPair& p : file.animation_set.anim_evnt)
        if (p.anim_id == anim_id) evnt = p.evnt_id;
    if (evnt == kNoId || evnt == 0) return {};
    const std::string name = MemberName(evnt, "EVNT");
    std::optional<Bytes> bytes = read(name);
    if (!bytes) {
      warnings.push_back(name + ": not found beside the ANCS, the clip has no events");
      return {};
    }
    try {
      return DecodeEvents(ParseEvnt(*bytes).set);
    } catch (const Error& e) {
      throw e.InFile(name);
    }
  }

  void AddClip(Scene& scene, const Scene* rig, const AnimationName& a) {
    const AnimationSet& set = file.animation_set;
    if (a.index >= set.animations.size()) {
      warnings.push_back("animation '" + a.name + "': index " + std::to_string(a.index) + " is past the animation set (" +
                         std::to_string(set.animations.size()) + "), skipped");
      return;
    }
    const MetaAnim& meta = set.animations[a.index].anim;
    const MetaAnim* play = FirstPlay(meta);
    if (!play) {
      warnings.push_back("animation '" + a.name + "' plays no ANIM, skipped");
      return;
    }
    if (meta.type != kPlay)
      warnings.push_back("animation '" + a.name + "' is a blend, random or sequence meta-animation: sampled as the first ANIM it plays");
    const std::string member = MemberName(play->play.anim_id, "ANIM");
    std::optional<Scene> anim = Side("metroid-anim", member, rig, options);
    if (!anim || anim->clips.empty()) return;
    Clip clip = std::move(anim->clips.front());
    clip.name = a.name;
    clip.events = EventsOf(a.index, clip, play->play.anim_id);
    clip.metadata[metadata_keys::kAnimMember] = member;
    clip.metadata[metadata_keys::kMetaType] = meta.type;
    for (const Additive& add : set.additives)
      if (add.anim_index == a.index) {
        clip.metadata[metadata_keys::kAdditive] = {{"fade_in", add.fade_in}, {"fade_out", add.fade_out}};
        clip.additive = animkit::Additive{"", true, add.fade_in, add.fade_out};  // rotations only (facts 7.6)
      }
    scene.clips.push_back(std::move(clip));
  }
};

}  // namespace

const Character& ChooseCharacter(const AncsFile& file, const std::string& wanted, std::vector<std::string>& warnings) {
  std::string names;
  for (const Character& c : file.characters) names += (names.empty() ? "'" : ", '") + c.name + "'";
  if (file.characters.empty()) throw Error::General("the ANCS holds no character");
  if (!wanted.empty()) {
    for (const Character& c : file.characters)
      if (c.name == wanted) return c;
    throw Error::General("no character '" + wanted + "' in the ANCS (it holds " + names + ")");
  }
  if (file.characters.size() > 1)
    warnings.push_back("the first of " + std::to_string(file.characters.size()) + " characters is decoded (" + names +
                       "; --character chooses)");
  return file.characters.front();
}

Scene AssembleCharacter(const AncsFile& file, const Character& c, const SideReader& read, const Options& options,
                        std::vector<std::string>& warnings) {
  Assembly a{file, read, options, warnings};
  Scene scene;
  std::optional<Scene> rig = a.Side("metroid-cinf", MemberName(c.ids.skeleton, "CINF"), nullptr, options);
  if (rig) {
    scene.skeleton = rig->skeleton;
    scene.metadata = rig->metadata;
  }
  if (c.ids.model != kNoId && c.ids.model != 0) {
    Options model_options = options;  // the character's skin, as the CMDL reader's option names it
    if (c.ids.skin != kNoId && c.ids.skin != 0) model_options.Set("metroid-skin", MemberName(c.ids.skin, "CSKR"));
    if (std::optional<Scene> model = a.Side("metroid-cmdl", MemberName(c.ids.model, "CMDL"), rig ? &*rig : nullptr,
                                            model_options)) {
      scene.meshes = std::move(model->meshes);
      scene.materials = std::move(model->materials);
      scene.textures = std::move(model->textures);
    }
  }
  for (const AnimationName& name : c.animations) a.AddClip(scene, rig ? &*rig : nullptr, name);
  scene.metadata[kSourceFormatKey] = "metroid-ancs";
  scene.metadata[metadata_keys::kCharacter] = c.name;
  return scene;
}

}  // namespace animkit::metroid_ancs
