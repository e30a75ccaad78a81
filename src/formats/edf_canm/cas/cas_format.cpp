// Registry entry and document for the EDF CAS animation set: its tables as `info` fields, its
// CANM's clips, and writing a set (a template's or the input's with its CANM replaced or
// converted to EDF 6, else a minimal set around a new CANM).
#include <animkit/formats/edf_canm/cas.hpp>

#include "formats/common/descriptors.hpp"
#include "formats/common/document.hpp"
#include "formats/common/edf.hpp"
#include "formats/common/options.hpp"
#include "cas_fields.hpp"

#include <cmath>
#include <cstring>

namespace animkit {

namespace edf_canm::cas {
namespace {

const ChoiceOption<uint32_t> kEdfVersionOption{edf::EdfVersionSpec(),
                                               {{"6", kVersion6}, {"5", kVersion5}, {"4.1", kVersion41}}};

std::string GameOf(uint32_t version) {
  return version == kVersion6 ? "EDF 6" : version == kVersion5 ? "EDF 5" : "EDF 4.1";
}

Value NameValue(const Name& n) { return n.place == Name::Place::None ? Value() : Value(n.text); }

// Records with a place and a name, then every field of list.
template <class R, class List>
Value NamedRecords(const std::vector<R>& records, const List& list) {
  Value out = Value::array();
  for (const R& c : records) {
    Value x = {{"at", c.at}, {"name", NameValue(c.name)}};
    fields::Describe(x, c, list);
    out.push_back(std::move(x));
  }
  return out;
}

Value GroupValue(const DataGroup& g, uint32_t version) {
  Value data = Value::array();
  for (const Data& d : g.data) {
    Value x = {{"at", d.at}};
    if (version == kVersion41)
      fields::Describe(x, d, kData41);
    else
      fields::Describe(x, d, kData);
    data.push_back(std::move(x));
  }
  Value v = {{"at", g.at}, {"data", std::move(data)}};
  fields::Describe(v, g, kDataGroup);
  return v;
}

Value AnmDataValue(const AnmData& a, uint32_t version) {
  Value v = {{"at", a.at}};
  fields::Describe(v, a, kAnmData);
  if (a.group) v["group"] = GroupValue(*a.group, version);
  return v;
}

class CasDocument final : public FileDocument<File, kEdfCasFormat, Serialize> {
 public:
  using FileDocument::FileDocument;

  Value InfoSummary() const override {
    Value info = Header();
    info["tables"] = {{"tcontrols", Table(file_.tcontrols.size(), file_.tcontrol_offset)},
                      {"vcontrols", Table(file_.vcontrols.size(), file_.vcontrol_offset)},
                      {"anmgroups", Table(file_.anmgroups.size(), file_.anmgroup_offset)},
                      {"bones", Table(file_.bones.size(), file_.bone_offset)},
                      {"unnamed_group", file_.unnamed_group ? Table(file_.unnamed_group->data.size(), file_.unnamed_group_offset)
                                                            : Value()}};
    return info;
  }

  Value Info() const override {
    Value info = Header();
    const std::vector<std::string> clips = ClipNames();
    Value t = Value::array();
    for (const TControl& c : file_.tcontrols) {
      Value names = Value::array();
      for (uint32_t w : c.words) names.push_back(w < clips.size() ? Value(clips[w]) : Value());
      Value x = {{"at", c.at}, {"name", NameValue(c.name)}, {"words", c.words}, {"clips", std::move(names)}};
      fields::Describe(x, c, kTControl);
      t.push_back(std::move(x));
    }
    info["tcontrols"] = std::move(t);
    info["vcontrols"] = NamedRecords(file_.vcontrols, kVControl);
    info["bones"] = NamedRecords(file_.bones, kBone);
    info["unnamed_group"] = file_.unnamed_group ? GroupValue(*file_.unnamed_group, file_.version) : Value();
    Value g = Value::array();
    for (const AnmGroup& a : file_.anmgroups) {
      Value mcanms = Value::array();
      for (const Mcanm& m : a.mcanms) {
        Value x = {{"at", m.at}, {"name", NameValue(m.name)}};
        fields::Describe(x, m, kMcanm);
        if (m.first) x["first"] = AnmDataValue(*m.first, file_.version);
        Value more = Value::array();
        for (const AnmData& d : m.more) more.push_back(AnmDataValue(d, file_.version));
        x["more"] = std::move(more);
        Value groups = Value::array();
        for (const auto& grp : m.groups) groups.push_back(grp ? GroupValue(*grp, file_.version) : Value());
        x["groups"] = std::move(groups);
        mcanms.push_back(std::move(x));
      }
      Value x = {{"at", a.at}, {"name", NameValue(a.name)}, {"mcanms", std::move(mcanms)}};
      fields::Describe(x, a, kAnmGroup);
      g.push_back(std::move(x));
    }
    info["anmgroups"] = std::move(g);
    return info;
  }

  Scene Decode(const DecodeContext& context) const override {
    Scene scene;
    scene.skeleton = context.Rest(scene);
    if (file_.canm) {
      DecodeSettings settings;
      settings.limits = context.options.limits();
      scene.clips = DecodeClips(*file_.canm, settings);
      for (Clip& c : scene.clips) {
        const bool additive = c.name.size() >= 4 && c.name.ends_with("_add");
        c.metadata[metadata_keys::kAdditive] = additive;
        if (additive) c.additive = animkit::Additive{};  // deltas over the bind pose: zero position, identity rotation
      }
    }
    Value tcontrols = Value::array();
    const std::vector<std::string> clips = ClipNames();
    for (const TControl& c : file_.tcontrols) {
      Value names = Value::array();
      for (uint32_t w : c.words) names.push_back(w < clips.size() ? Value(clips[w]) : Value());
      tcontrols.push_back({{"name", c.name.text}, {"clips", std::move(names)}});
    }
    Value players = Value::array();
    for (const AnmGroup& g : file_.anmgroups) {
      Value states = Value::array();
      for (const Mcanm& m : g.mcanms) states.push_back(m.name.text);
      players.push_back({{"name", g.name.text}, {"states", std::move(states)}});
    }
    scene.metadata = {{kSourceFormatKey, kEdfCasFormat.id},
                      {metadata_keys::kCasVersion, file_.version},
                      {edf_canm::metadata_keys::kCanmVersion, file_.canm ? Value(file_.canm->version) : Value()},
                      {metadata_keys::kCas, {{"tcontrols", std::move(tcontrols)}, {"players", std::move(players)}}}};
    return scene;
  }
  std::string Version() const override { return std::to_string(file_.version); }
  std::vector<std::string> Warnings() const override { return file_.warnings; }
  std::vector<std::string> Damaged() const override { return file_.damaged; }

 private:
  static Value Table(size_t count, uint32_t offset) { return {{"count", count}, {"offset", offset}}; }
  Value Header() const {
    Value info = {{"magic", "CAS"}, {"game", GameOf(file_.version)}};
    fields::Describe(info, file_, kHeader);
    Value canm = {{"offset", file_.canm_offset}, {"size", file_.canm_bytes.size()}, {"aligned_16", file_.canm_offset % 16 == 0}};
    if (file_.canm) canm["version"] = file_.canm->version, canm["clips"] = ClipNames();
    info["canm"] = std::move(canm);
    info["strings_size"] = file_.strings.size();
    return info;
  }
  std::vector<std::string> ClipNames() const {
    std::vector<std::string> names;
    if (file_.canm)
      for (const Animation& a : file_.canm->animations) names.push_back(a.name);
    return names;
  }
};

int Probe(ByteView data, std::string_view extension) {
  if (data.size() >= 8 && std::memcmp(data.data(), "CAS\0", 4) == 0) {
    const uint32_t v = le::Load32(data.data() + 4);
    return v == kVersion41 || v == kVersion5 || v == kVersion6 ? kProbeMagic : kProbeDamaged;
  }
  return extension == ".cas" ? kProbeExtension : kProbeNone;
}

std::unique_ptr<Document> Read(ByteView data, const ReadContext&) { return std::make_unique<CasDocument>(Parse(data)); }

// ---------------------------------------------------------------- encoding

const Clip* Named(const std::vector<Clip>& clips, const std::string& name) {
  for (const Clip& c : clips)
    if (c.name == name) return &c;
  return nullptr;
}

// A name of the set that points into its CANM (no stock set has one) would point elsewhere
// in a new CANM: an error naming the record.
void RequireOwnStrings(const File& f) {
  const auto check = [](size_t at, const Name& n) {
    if (n.place == Name::Place::Canm)
      throw Error::AtOffset(at, "the name '" + n.text + "' lies inside the CANM; a new CANM would lose it");
  };
  for (const TControl& t : f.tcontrols) check(t.at, t.name);
  for (const VControl& v : f.vcontrols) check(v.at, v.name);
  for (const Bone& b : f.bones) check(b.at, b.name);
  for (const AnmGroup& g : f.anmgroups) {
    check(g.at, g.name);
    for (const Mcanm& m : g.mcanms) check(m.at, m.name);
  }
}

// A set with its CANM replaced by canm: the bytes before the CANM kept (so its offset and
// alignment), the set's strings after it, every name aimed past the CANM moved by the change.
File WithCanm(const File& base, Bytes canm) {
  RequireOwnStrings(base);
  File f = base;
  if (f.image.empty()) {
    f.canm_bytes = std::move(canm);
    return Parse(Emit(f));
  }
  const int64_t delta = int64_t(canm.size()) - int64_t(f.canm_bytes.size());
  const auto move = [&](const Name& n, int32_t& offset) {
    if (n.place == Name::Place::Strings) offset = int32_t(offset + delta);
  };
  for (TControl& t : f.tcontrols) move(t.name, t.name_offset);
  for (VControl& v : f.vcontrols) move(v.name, v.name_offset);
  for (Bone& b : f.bones) move(b.name, b.name_offset);
  for (AnmGroup& g : f.anmgroups) {
    move(g.name, g.name_offset);
    for (Mcanm& m : g.mcanms) move(m.name, m.name_offset);
  }
  Bytes image(f.image.begin(), f.image.begin() + std::ptrdiff_t(f.canm_offset));
  image.insert(image.end(), canm.begin(), canm.end());
  image.insert(image.end(), f.strings.begin(), f.strings.end());
  f.image = std::move(image);
  return Parse(Serialize(f));
}

DecodeSettings CanmDecodeSettings(const EncodeContext& context) {
  DecodeSettings settings;
  settings.limits = context.options.limits();
  return settings;
}

// The set's CANM as version 768: edf_canm::ConvertTo768 (EDF 6's Euler -> quaternion rules in
// float32, facts 1.6; channels and blocks in the converted order).
Bytes CanmTo768(const File& f) {
  if (f.canm->version == edf_canm::kVersion6) return f.canm_bytes;
  return edf_canm::Serialize(edf_canm::ConvertTo768(*f.canm));
}

// The set with the scene's clips in its CANM: a clip replaces the clip of its name (--clip:
// the one named so) at the same index, a new clip goes at the end, a clip the scene lacks is
// removed (without --clip) and the indices above it move down. Nothing edited: the set as it was.
File WithClips(const File& f, const Scene& scene, EncodeContext& context, const Skeleton* skeleton) {
  if (!f.canm) throw Error::General("the set's CANM is damaged: its clips cannot be replaced");
  const std::vector<Clip> old = DecodeClips(*f.canm, CanmDecodeSettings(context));
  std::vector<std::string> old_names;
  for (const Clip& c : old) old_names.push_back(c.name);
  // The template's clip as the input's format gives it back, to tell edited clips from unedited.
  const auto reference = [&](size_t i) -> const Clip* {
    if (context.template_as_input)
      if (const Clip* c = Named(context.template_as_input->clips, old[i].name)) return c;
    return &old[i];
  };
  std::vector<const Clip*> slots(old.size(), nullptr);  // the input clip for each old clip
  std::vector<const Clip*> added;
  if (!context.template_clip.empty()) {
    const Clip* in = Named(scene.clips, context.template_clip);
    if (!in && scene.clips.size() == 1) in = &scene.clips.front();
    if (!in) throw Error::General("the input has no clip named " + context.template_clip + " (and more than one clip)");
    for (size_t i = 0; i < old.size(); ++i) slots[i] = &old[i];
    const auto it = std::find(old_names.begin(), old_names.end(), context.template_clip);
    if (it != old_names.end())
      slots[size_t(it - old_names.begin())] = in;
    else
      added.push_back(in);
  } else {
    for (size_t i = 0; i < old.size(); ++i) slots[i] = Named(scene.clips, old[i].name);
    for (const Clip& c : scene.clips)
      if (std::find(old_names.begin(), old_names.end(), c.name) == old_names.end()) added.push_back(&c);
  }
  bool changed = !added.empty();
  std::vector<Clip> clips;
  std::vector<std::optional<uint32_t>> map(old.size());
  for (size_t i = 0; i < old.size(); ++i) {
    if (!slots[i]) {
      changed = true;
      continue;
    }
    map[i] = uint32_t(clips.size());
    const bool edited = slots[i] != &old[i] && !SameKeys(*slots[i], *reference(i));
    changed = changed || edited;
    clips.push_back(edited ? *slots[i] : old[i]);
    clips.back().name = old[i].name;
  }
  for (const Clip* c : added) clips.push_back(*c);
  context.report["clips_replaced"] = changed;
  if (!changed) return f;
  EncodeSettings settings;
  settings.version = f.canm->version;
  const edf_canm::File canm = EncodeClips(clips, settings, skeleton, &context.report);
  File out = f;
  RemapClips(out, map, old_names, context.warnings);
  return WithCanm(out, edf_canm::Serialize(canm));
}

// A set around the scene's clips: the CANM, one tcontrol per clip (named as the clip, its one
// word the clip's index), an empty unnamed datagroup; no vcontrol, bone or anmgroup.
File MinimalSet(const Scene& scene, EncodeContext& context, const Skeleton* skeleton) {
  uint32_t kept = kVersion6;
  if (scene.metadata.is_object() && scene.metadata.value(kSourceFormatKey, "") == kEdfCasFormat.id)
    kept = scene.metadata.value(metadata_keys::kCasVersion, kVersion6);
  File f;
  f.version = kEdfVersionOption.Get(context.options, kept == kVersion41 || kept == kVersion5 ? kept : kVersion6);
  EncodeSettings settings;
  settings.version = f.version == kVersion6 ? edf_canm::kVersion6 : edf_canm::kVersion5;
  f.canm_bytes = edf_canm::Serialize(EncodeClips(scene.clips, settings, skeleton, &context.report));
  for (size_t i = 0; i < scene.clips.size(); ++i) {
    TControl t;
    t.name = AddString(f, scene.clips[i].name);
    t.words = {uint32_t(i)};
    f.tcontrols.push_back(std::move(t));
  }
  f.unnamed_group = DataGroup{};
  return Parse(Emit(f));
}

std::unique_ptr<Document> Encode(const Scene& scene, EncodeContext& context) {
  const auto* templ = context.templ ? dynamic_cast<const CasDocument*>(context.templ->document) : nullptr;
  if (context.templ && !templ) throw Error::General("the --template of an EDF CAS must be a CAS set");
  const auto* input = context.input ? dynamic_cast<const CasDocument*>(context.input) : nullptr;
  const Skeleton& rest = context.Rest(scene);
  const Skeleton* skeleton = rest.empty() ? nullptr : &rest;
  const File* base = templ ? &templ->file() : input ? &input->file() : nullptr;
  if (!base) return std::make_unique<CasDocument>(MinimalSet(scene, context, skeleton));
  if (!base->damaged.empty()) throw Error::General("the set has damaged parts: " + base->damaged.front());
  // The input itself (a CAS written as a CAS): its clips as the scene has them (--clip keeps one).
  File f = WithClips(*base, scene, context, skeleton);
  const uint32_t version = kEdfVersionOption.Get(context.options, f.version);
  if (version < f.version)
    throw Error::General("a version " + Hex(f.version) + " set cannot be written as " + Hex(version) +
                         ": only conversion to EDF 6 (0x204) is known");
  if (version != f.version) {
    if (version != kVersion6) throw Error::General("only conversion to EDF 6 (--edf-version 6) is known");
    ConvertTablesTo6(f);
    RequireOwnStrings(f);
    f.canm_bytes = CanmTo768(f);
    f.image.clear();
    f = Parse(Emit(f));
  }
  return std::make_unique<CasDocument>(std::move(f));
}

}  // namespace
}  // namespace edf_canm::cas

const FormatDescriptor kEdfCasFormat{
    .id = "edf-cas", .description = "Earth Defense Force CAS animation set (EDF 4.1: 0x200, EDF 5: 0x203, EDF 6: 0x204)",
    .extensions = {".cas"}, .companions = {".rab", ".mrab", ".mdb"}, .probe = edf_canm::cas::Probe,
    .read = edf_canm::cas::Read, .encode = edf_canm::cas::Encode, .options = {edf_canm::cas::kEdfVersionOption.spec()},
    .multi_clip = true, .animation_extensions = {".cas"}};

}  // namespace animkit
