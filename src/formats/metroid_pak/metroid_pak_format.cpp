// Registry entry and document for the Metroid Prime 1/2 PAK archive: its resources, each a member.
#include <animkit/formats/metroid_pak.hpp>

#include <animkit/formats/registry.hpp>

#include "formats/common/document.hpp"
#include "formats/common/metroid_character.hpp"
#include "formats/common/options.hpp"
#include "metroid_pak_fields.hpp"

#include <map>
#include <mutex>
#include <unordered_map>

namespace animkit {

namespace metroid_pak {
namespace {

std::string TypeText(const FourCC& type) { return std::string(type.begin(), type.end()); }

uint64_t Key(const FourCC& type, uint32_t id) {
  return uint64_t(uint8_t(type[0])) << 56 | uint64_t(uint8_t(type[1])) << 48 | uint64_t(uint8_t(type[2])) << 40 |
         uint64_t(uint8_t(type[3])) << 32 | id;
}

const char* PackingText(Packing p) {
  return p == Packing::Raw ? "raw" : p == Packing::Zlib ? "zlib" : "segments";
}

const WordOption kCharacterOption{metroid_character::CharacterSpec()};

bool IsType(const Resource& e, const char (&type)[5]) { return std::equal(e.type.begin(), e.type.end(), type); }

// A character set member (ANCS) read by its own format, its side files this PAK's members.
struct CharacterSet {
  size_t member = 0;
  std::unique_ptr<Document> document;
  std::vector<std::string> characters;
};

class PakDocument final : public FileDocument<File, kMetroidPakFormat, Serialize> {
  struct Character {
    size_t set = 0;
    std::string name, scene;  // as the ANCS names it; as Scenes() lists it
  };

 public:
  PakDocument(File file, const ReadContext& context)
      : FileDocument(std::move(file)), limits_(context.options.limits()), options_(context.options), path_(context.path) {}

  // Every character of every ANCS member, by name; a name two sets give is `MEMBER/NAME`.
  std::vector<std::string> Scenes() const override {
    std::vector<std::string> out;
    for (const Character& c : Characters()) out.push_back(c.scene);
    return out;
  }

  // The members characters are read from: the character sets, skeletons, skins, animations
  // and events, and the models the characters name.
  std::vector<size_t> SceneMembers() const override {
    if (Sets().empty()) return {};
    std::vector<uint32_t> models;
    for (const CharacterSet& set : Sets()) {
      const Value info = set.document->Info();  // kept: the loop walks into it
      for (const Value& c : info["characters"])
        if (c.contains("model") && c["model"].is_number()) models.push_back(c["model"].get<uint32_t>());
    }
    std::vector<size_t> out;
    for (size_t i = 0; i < file_.resources.size(); ++i) {
      const Resource& e = file_.resources[i];
      const bool model = IsType(e, "CMDL") && std::find(models.begin(), models.end(), e.id) != models.end();
      if (model || IsType(e, "ANCS") || IsType(e, "CINF") || IsType(e, "ANIM") || IsType(e, "CSKR") || IsType(e, "EVNT"))
        out.push_back(i);
    }
    return out;
  }

  std::vector<ArchiveMember> Members() const override {
    // The names of each (type, id), found once: a PAK may name thousands of its resources.
    std::unordered_map<uint64_t, std::vector<std::string>> names;
    for (const NamedEntry& n : file_.names) names[Key(n.type, n.id)].push_back(n.name);
    std::vector<ArchiveMember> out;
    out.reserve(file_.resources.size());
    for (size_t i = 0; i < file_.resources.size(); ++i) {
      const Resource& e = file_.resources[i];
      ArchiveMember m{MemberName(e), "", e.size, UnpackedSize(file_, i), e.compressed != 0, {}};
      if (const auto found = names.find(Key(e.type, e.id)); found != names.end()) m.names = found->second;
      out.push_back(std::move(m));
    }
    return out;
  }

  Bytes MemberBytes(size_t index) const override { return Unpack(file_, index, limits_); }

  Bytes WithMember(size_t index, ByteView bytes) const override { return Replace(file_, index, bytes); }

  std::vector<std::string> Warnings() const override {
    std::vector<std::string> out = file_.warnings;
    if (Sets().empty())
      out.push_back("a PAK without characters (ANCS) decodes to an empty scene: convert it into a folder (convert "
                    "FILE.PAK OUT/) for its members");
    std::lock_guard lock(mutex_);
    out.insert(out.end(), decode_warnings_.begin(), decode_warnings_.end());
    return out;
  }

  // A character set that does not read: its characters are missing, the rest reads.
  std::vector<std::string> Damaged() const override {
    Sets();
    return set_damage_;
  }

  Value Info() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kHeaderFields);
    Value names = Value::array();
    for (const NamedEntry& n : file_.names)
      names.push_back({{"offset", n.at}, {"type", TypeText(n.type)}, {"id", n.id}, {"name_length", n.name_length}, {"name", n.name}});
    info["names"] = std::move(names);
    info["resource_count"] = file_.resource_count;
    Value entries = Value::array();
    for (size_t i = 0; i < file_.resources.size(); ++i) {
      const Resource& e = file_.resources[i];
      entries.push_back({{"name", MemberName(e)}, {"compressed", e.compressed}, {"type", TypeText(e.type)}, {"id", e.id},
                         {"size", e.size}, {"offset", e.offset}, {"packing", PackingText(PackingOf(file_, i))},
                         {"unpacked_size", UnpackedSize(file_, i)}});
    }
    info["resources"] = std::move(entries);
    info["characters"] = CharactersValue();
    return info;
  }

  Value InfoSummary() const override {
    Value info = Value::object();
    fields::Describe(info, file_.header, kHeaderFields);
    info["resource_count"] = file_.resource_count;
    info["names"] = {{"offset", kHeaderSize}, {"count", file_.names.size()}};
    info["resources"] = {{"offset", file_.resource_count_at + kCountSize}, {"count", file_.resources.size()}};
    info["characters"] = CharactersValue();
    return info;
  }

  // The character Options::scene() or --character names (default: the first), assembled by
  // its ANCS from this PAK's members; no character set: an empty scene.
  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    std::vector<std::string> warnings;
    {
      std::lock_guard lock(mutex_);
      decode_warnings_.clear();  // this decode's: the members that did not unpack, then the rest
    }
    if (const std::vector<Character>& all = Characters(); !all.empty()) {
      const Character& c = Choose(all, WantedCharacter(context.options), warnings);
      DecodeContext one = context;
      one.options.SetScene(c.name);
      const CharacterSet& set = Sets()[c.set];
      scene = set.document->Decode(one);
      const std::string label = MemberName(file_.resources[set.member]) + ": ";
      for (const std::string& w : set.document->Warnings()) warnings.push_back(label + w);
      scene.metadata[metadata_keys::kCharacterSet] = MemberName(file_.resources[set.member]);
    }
    if (!scene.metadata.is_object()) scene.metadata = Value::object();
    scene.metadata[kSourceFormatKey] = "metroid-pak";
    scene.metadata[metadata_keys::kMemberCount] = file_.resources.size();
    std::lock_guard lock(mutex_);
    decode_warnings_.insert(decode_warnings_.end(), warnings.begin(), warnings.end());
    return scene;
  }

  // The PAK with the character's animations written from scene's clips of the same names:
  // each edited clip through the metroid-anim writer into its ANIM member (that member the
  // template: its version and layout), repacked as stored; an unedited clip keeps its member's
  // bytes, and every other member stays.
  Bytes WithCharacterClips(const Scene& scene, EncodeContext& context) const {
    const FormatDescriptor* anim = FindFormat("metroid-anim");
    if (Characters().empty()) throw Error::General("the template PAK holds no character (ANCS) to write into");
    if (!anim || !anim->encode || !anim->read) throw Error::General("no metroid-anim writer in this build");
    std::vector<std::string> chose;
    const Character& chosen = Choose(Characters(), WantedCharacter(context.options), chose);
    const Scene character = Decode(DecodeContext{nullptr, context.options});
    const std::map<std::string, uint32_t> anim_ids = AnimIds(chosen);
    File out = file_;
    size_t replaced = 0;
    for (const Clip& clip : scene.clips) {
      const Clip* own = FindClip(character, clip.name);
      const auto id = anim_ids.find(clip.name);
      if (!own || id == anim_ids.end()) {
        context.warnings.push_back("clip '" + clip.name + "': no animation of the character has this name, left out");
        continue;
      }
      const Clip* exported = context.template_as_input ? FindClip(*context.template_as_input, clip.name) : nullptr;
      if (SameKeys(clip, exported ? *exported : *own)) continue;  // unedited: its member's bytes stay
      const std::string member = MemberName(Resource{0, {'A', 'N', 'I', 'M'}, id->second, 0, 0});
      const std::optional<size_t> index = IndexOf(out, member);
      if (!index) throw Error::General("the character's " + member + " is no member of the PAK");
      out = Parse(Replace(out, *index, EncodeClip(*anim, clip, character, member, Unpack(out, *index, limits_), context)));
      ++replaced;
    }
    context.report["anim_members_replaced"] = replaced;
    return Serialize(out);
  }

 private:
  static std::string WantedCharacter(const Options& options) {
    return options.scene().empty() ? kCharacterOption.Get(options, std::string()) : options.scene();
  }

  // The ANIM each of the character's animations plays, as its ANCS's info gives it (anim_id).
  std::map<std::string, uint32_t> AnimIds(const Character& c) const {
    std::map<std::string, uint32_t> out;
    const Value info = Sets()[c.set].document->Info();  // kept: the loop walks into it
    for (const Value& v : info["characters"]) {
      if (!v.is_object() || v.value("name", std::string()) != c.name) continue;
      for (const Value& a : v["animations"])
        if (a.is_object() && a.contains("anim_id")) out.emplace(a["name"].as_string(), a["anim_id"].get<uint32_t>());
      break;
    }
    return out;
  }

  static const Clip* FindClip(const Scene& scene, const std::string& name) {
    for (const Clip& c : scene.clips)
      if (c.name == name) return &c;
    return nullptr;
  }

  static std::optional<size_t> IndexOf(const File& f, const std::string& member) {
    for (size_t i = 0; i < f.resources.size(); ++i)
      if (MemberName(f.resources[i]) == member) return i;
    return std::nullopt;
  }

  // One clip as the ANIM writer writes it over the character's skeleton, with the member it
  // replaces as its template.
  Bytes EncodeClip(const FormatDescriptor& anim, const Clip& clip, const Scene& character, const std::string& member,
                   const Bytes& old, EncodeContext& context) const {
    const std::string label = path_ + ":" + member;
    const std::unique_ptr<Document> old_doc = anim.read(old, ReadContext{options_, label, {}, nullptr});
    EncodeTemplate templ{label, old, old_doc.get()};
    EncodeContext c;
    c.options = context.options;
    if (!c.options.Has("anim-version")) c.options.Set("anim-version", old_doc->Version());
    c.reference = &character;
    c.templ = &templ;
    Scene one;
    one.clips.push_back(clip);
    Bytes bytes = anim.encode(one, c)->Write();
    for (std::string& w : c.warnings) context.warnings.push_back(member + ": " + w);
    return bytes;
  }

  // The ANCS members, read on first use (listing a PAK reads none).
  const std::vector<CharacterSet>& Sets() const {
    std::call_once(sets_once_, [this] { ReadSets(); });
    return sets_;
  }

  void ReadSets() const {
    const FormatDescriptor* ancs = FindFormat("metroid-ancs");
    for (size_t i = 0; i < file_.resources.size() && ancs && ancs->read; ++i) {
      if (!IsType(file_.resources[i], "ANCS")) continue;
      const std::string name = MemberName(file_.resources[i]);
      try {
        const Bytes bytes = Unpack(file_, i, limits_);
        const ReadContext rc{options_, path_ + ":" + name, [this](std::string_view n) { return Neighbour(n); }, nullptr};
        CharacterSet set{i, ancs->read(bytes, rc), {}};
        set.characters = set.document->Scenes();
        sets_.push_back(std::move(set));
      } catch (const Error& e) {
        set_damage_.push_back(name + " (entry " + std::to_string(i) + "): " + e.what());
      }
    }
    for (size_t s = 0; s < sets_.size(); ++s)
      for (const std::string& n : sets_[s].characters) characters_.push_back({s, n, n});
    for (Character& c : characters_) {
      const auto same = [&](const Character& o) { return o.name == c.name; };
      if (std::count_if(characters_.begin(), characters_.end(), same) > 1)
        c.scene = MemberName(file_.resources[sets_[c.set].member]) + "/" + c.name;
    }
  }

  const std::vector<Character>& Characters() const {
    Sets();
    return characters_;
  }

  const Character& Choose(const std::vector<Character>& all, const std::string& wanted,
                          std::vector<std::string>& warnings) const {
    std::string names;
    for (const Character& c : all) names += (names.empty() ? "'" : ", '") + c.scene + "'";
    if (wanted.empty()) {
      if (all.size() > 1)
        warnings.push_back("the first of " + std::to_string(all.size()) + " characters is decoded (" + names +
                           "; --character chooses)");
      return all.front();
    }
    for (const Character& c : all)
      if (c.scene == wanted || c.name == wanted) return c;
    throw Error::General("no character '" + wanted + "' in the PAK (it holds " + names + ")");
  }

  // A member by its "<ID>.<TYPE>" name (the first of a repeated id), unpacked; none when
  // absent or when it does not unpack (the character set then says what is missing).
  std::optional<Bytes> Neighbour(std::string_view name) const {
    const std::optional<size_t> i = IndexOf(file_, std::string(name));
    if (!i) return std::nullopt;
    try {
      return Unpack(file_, *i, limits_);
    } catch (const Error& e) {
      std::lock_guard lock(mutex_);
      decode_warnings_.push_back(std::string(name) + ": " + e.what());
      return std::nullopt;
    }
  }

  // The characters as `info` lists them: each set's, with the set's member.
  Value CharactersValue() const {
    Value out = Value::array();
    for (const CharacterSet& set : Sets()) {
      Value summary = set.document->InfoSummary();
      for (Value c : summary["characters"]) {
        c["ancs_member"] = MemberName(file_.resources[set.member]);
        out.push_back(std::move(c));
      }
    }
    return out;
  }

  Limits limits_;
  Options options_;
  std::string path_;
  mutable std::once_flag sets_once_;
  mutable std::vector<CharacterSet> sets_;
  mutable std::vector<Character> characters_;
  mutable std::vector<std::string> set_damage_;
  mutable std::mutex mutex_;
  mutable std::vector<std::string> decode_warnings_;  // what the last Decode chose or missed
};

// The version word, then a named table and a resource table that fit in the file, and the first
// entry within it. Vib-Ribbon's PAK (little-endian, a count first) never starts with 0x00030005.
int Probe(ByteView data, std::string_view) {
  if (data.size() < kHeaderSize + kCountSize) return kProbeNone;
  ByteReader r(data, Endian::Big);
  Header h;
  fields::ReadAll(r, h, kHeaderFields);
  if (h.version != kVersion || h.named_count > (data.size() - kHeaderSize) / kNamedFixedSize) return kProbeNone;
  for (uint32_t i = 0; i < h.named_count; ++i) {
    if (r.remaining() < kNamedFixedSize) return kProbeNone;
    NamedEntry n;
    fields::ReadAll(r, n, kNamedFields);
    if (n.name_length > r.remaining()) return kProbeNone;
    r.Skip(n.name_length, "a name");
  }
  if (r.remaining() < kCountSize) return kProbeNone;
  const uint32_t count = r.U32("the resource count");
  if (count > r.remaining() / kResourceSize) return kProbeNone;
  if (count > 0) {
    Resource first;
    fields::ReadAll(r, first, kResourceFields);
    if (first.offset > data.size() || first.size > data.size() - first.offset) return kProbeNone;
  }
  return kProbeMagic;
}

// From this size a PAK keeps the caller's bytes (a mapped file) instead of a copy: listing a
// large one is then no copy of it.
constexpr size_t kKeepSharedFrom = size_t{16} << 20;

std::unique_ptr<Document> Read(ByteView data, const ReadContext& context) {
  return std::make_unique<PakDocument>(Parse(data, data.size() >= kKeepSharedFrom ? context.bytes_owner : nullptr), context);
}

// A PAK is written into its original (--template): the character's edited animations replace
// their ANIM members.
std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const auto* templ = context.templ ? dynamic_cast<const PakDocument*>(context.templ->document) : nullptr;
  if (!templ) throw Error::General("a Metroid PAK is written into its original: give --template original.pak");
  return std::make_unique<PakDocument>(Parse(templ->WithCharacterClips(scene, context)), ReadContext{context.options, context.templ->path, {}, nullptr});
}

}  // namespace
}  // namespace metroid_pak

const FormatDescriptor kMetroidPakFormat{
    .id = "metroid-pak", .description = "Metroid Prime 1/2 PAK archive (GameCube: resources by id and type, zlib or LZO)",
    .extensions = {".pak"}, .companions = {}, .probe = metroid_pak::Probe, .read = metroid_pak::Read, .encode = metroid_pak::Encode,
    .options = {metroid_pak::kCharacterOption.spec()}, .up_axis = "+Z", .forward_axis = "+Y", .multi_clip = true, .animation_extensions = {".pak"},
    .archive_of_files = true,
    .scenes_of_members = true};

}  // namespace animkit
