// Registry entries and documents for Metroid Prime ANIM and CINF.
#include <animkit/formats/metroid_anim.hpp>

#include "formats/common/document.hpp"
#include "formats/common/clips.hpp"
#include "formats/common/options.hpp"
#include "metroid_fields.hpp"

#include <cmath>
#include <optional>

namespace animkit {

namespace metroid {
namespace {

const ChoiceOption<RestRule> kRestOption{
    {.name = "cinf-rest", .help = "CINF rest translation: relative (origin minus the parent's) or absolute",
     .default_value = "relative"},
    {{"relative", RestRule::Relative}, {"absolute", RestRule::Absolute}}};
const ChoiceOption<int> kVersionOption{{.name = "anim-version",
                                        .help = "Metroid Prime ANIM version to write: 2 (bit-packed) or 0 (float "
                                                "arrays); default: the input ANIM's version, else 2", .use = OptionUse::Write},
                                       {{"0", 0}, {"2", 2}}};
const NumberOption<double> kMaxErrorRotOption{
    {.name = "max-error-rot", .help = "ANIM v2 encoder: largest rotation error in radians", .default_value = "0.001",
     .min = 0, .use = OptionUse::Write}};
const NumberOption<double> kMaxErrorPosOption{{.name = "max-error-pos",
                                               .help = "ANIM v2 encoder: largest translation error in units "
                                                       "(default 0.001 x the clip's translation range)",
                                               .min = 0, .use = OptionUse::Write}};
const NumberOption<uint32_t> kDivisorOption{
    {.name = "rotation-divisor", .help = "ANIM v2 encoder: rotation divisor", .default_value = "32767", .min = 1,
     .max = 0x7FFF, .use = OptionUse::Write}};
const NumberOption<size_t> kBoneTableOption{
    {.name = "anim-bone-table", .help = "ANIM v0 encoder: bone table size (grown to the largest bone id + 1)",
     .default_value = "100", .min = 0, .max = 256, .use = OptionUse::Write}};

// 0: auto (reading: the layout that fits; writing: the input's game, else Metroid Prime).
const ChoiceOption<int> kGameOption{
    {.name = "metroid-game",
     .help = "Metroid ANIM/CINF layout: 1 (Metroid Prime), 2 (Echoes) or auto (reading: the layout that fits; "
             "writing: the --skeleton CINF's or the input's game, else 1)",
     .default_value = "auto", .use = OptionUse::ReadWrite},
    {{"auto", 0}, {"1", 1}, {"2", 2}}};

std::optional<Game> GameFrom(const Options& o) {
  const int g = kGameOption.Get(o);
  if (g == 0) return std::nullopt;
  return g == 2 ? Game::Echoes : Game::Prime;
}

// The game a clip's or scene's metadata names (metroid_game), if any.
std::optional<Game> GameOf(const Value& metadata) {
  if (!metadata.is_object() || !metadata.contains(metadata_keys::kGame)) return std::nullopt;
  const Value& g = metadata[metadata_keys::kGame];
  if (g == 2) return Game::Echoes;
  if (g == 1) return Game::Prime;
  return std::nullopt;
}

RestRule RestRuleFrom(const Options& o) { return kRestOption.Get(o); }

Value Arr3(const auto& v) { return Value::array({v[0], v[1], v[2]}); }

std::string BitmapString(const AnimV2& a) {
  std::string s;
  s.reserve(a.bitmap_bits);
  for (size_t f = 0; f < a.bitmap_bits; ++f) s.push_back(a.KeyBit(f) ? '1' : '0');
  return s;
}

Value EchoesInfo(const AnimFile& f);

class AnimDocument final : public FileDocument<AnimFile, kMetroidAnimFormat, SerializeAnim> {
 public:
  explicit AnimDocument(AnimFile file, std::vector<std::string> warnings = {})
      : FileDocument(std::move(file)), warnings_(std::move(warnings)) {}
  std::vector<std::string> Warnings() const override { return warnings_; }

  Value Info() const override {
    if (file_.game == Game::Echoes) return EchoesInfo(file_);
    Value j = {{"version", file_.version}, {"game", 1}};
    if (file_.version == 0) {
      const AnimV0& a = file_.v0;
      Value bones = Value::array();
      for (size_t b = 0; b < a.bone_table.size(); ++b) {
        if (a.bone_table[b] == 0xFF) continue;
        const uint8_t c = a.bone_table[b];
        const uint8_t t = c < a.translation_table.size() ? a.translation_table[c] : 0xFF;
        bones.push_back({{"bone_id", b}, {"channel", c}, {"translation_channel", t == 0xFF ? Value() : Value(t)}});
      }
      fields::Describe(j, a, kV0Header);
      j.update({{"bone_table_size", a.bone_table.size()},
                {"translation_table_size", a.translation_table.size()},
                {"rotation_channels", a.RotationChannels()},
                {"translation_channels", a.TranslationChannels()},
                {"quaternion_count", a.rotations.size()},
                {"translation_count", a.translations.size()},
                {"evnt_id", a.evnt_id},
                {"channels", std::move(bones)},
                {"trailing_bytes", a.trailing.size()}});
      return j;
    }
    const AnimV2& a = file_.v2;
    Value channels = Value::array();
    for (const Descriptor& d : a.descriptors) {
      Value c = {{"bone_id", d.bone_id},
                 {"rotation_keys", d.rotation_keys},
                 {"rotation_initial", Arr3(d.rotation_initial)},
                 {"rotation_bits", Arr3(d.rotation_bits)},
                 {"translation_keys", d.translation_keys}};
      if (d.has_translation()) {
        c["translation_initial"] = Arr3(d.translation_initial);
        c["translation_bits"] = Arr3(d.translation_bits);
      }
      channels.push_back(std::move(c));
    }
    fields::Describe(j, a, kV2Header);
    j.update({{"key_bitmap_bits", a.bitmap_bits},
              {"key_bitmap", BitmapString(a)},
              {"keyed_frames", a.KeyedFrames()},
              {"channel_count_repeated", a.channel_count_again},
              {"descriptor_count", a.descriptors.size()},
              {"bitstream_bytes", a.bitstream.size()},
              {"channels", std::move(channels)}});
    return j;
  }

  Scene Decode(const DecodeContext& context) const override {
    DecodeSettings s;
    s.limits = context.options.limits();
    Scene scene;
    if (context.reference) {
      for (const auto& [name, id] : BoneIdsOf(*context.reference)) s.names.emplace_back(id, name);
      scene.skeleton = context.Rest(scene);
      // The CINF's bone ids travel with the scene (glTF extras), so an ANIM written back
      // from it keeps its channels' ids without the CINF.
      if (!s.names.empty()) scene.metadata[metadata_keys::kBoneIds] = context.reference->metadata[metadata_keys::kBoneIds];
    }
    scene.clips.push_back(DecodeAnim(file_, s));
    return scene;
  }
  std::string Version() const override { return std::to_string(file_.version); }

 private:
  std::vector<std::string> warnings_;
};

Value PartInfo(const KeyedAxes& p) {
  if (!p.present()) return Value();
  return {{"keys", p.keys},
          {"initial", Value::array({p.axes[0].initial, p.axes[1].initial, p.axes[2].initial})},
          {"bits", Value::array({p.axes[0].bits, p.axes[1].bits, p.axes[2].bits})}};
}

Value EchoesInfo(const AnimFile& f) {
  Value j = {{"version", f.version}, {"game", 2}};
  if (f.version == 0) {
    const EchoesAnimV0& a = f.echoes_v0;
    fields::Describe(j, a, kEchoesV0Header);
    j.update({{"bone_table_size", a.bone_table.size()},
              {"channels", a.Channels()},
              {"rotation_channels", a.RotationChannels()},
              {"translation_channels", a.TranslationChannels()},
              {"scales_per_frame", a.ScalesPerFrame()},
              {"scale_count", a.scales.size()},
              {"quaternion_count", a.rotations.size()},
              {"translation_count", a.translations.size()},
              {"trailing_bytes", a.trailing.size()}});
    return j;
  }
  const EchoesAnimV2& a = f.echoes_v2;
  Value channels = Value::array();
  for (const EchoesDescriptor& d : a.descriptors) {
    channels.push_back({{"bone_id", d.bone_id},
                        {"rotation", PartInfo(d.rotation)},
                        {"translation", PartInfo(d.translation)},
                        {"scale", PartInfo(d.scale)}});
  }
  fields::Describe(j, a, kEchoesV2Header);
  std::string bitmap;
  for (size_t b = 0; b < a.bitmap_bits; ++b) bitmap.push_back(a.KeyBit(b) ? '1' : '0');
  j.update({{"key_bitmap_bits", a.bitmap_bits},
            {"key_bitmap", bitmap},
            {"keyed_frames", a.KeyedFrames()},
            {"descriptor_count", a.descriptors.size()},
            {"bitstream_bytes", a.bitstream.size()},
            {"channels", std::move(channels)}});
  return j;
}

class CinfDocument final : public FileDocument<CinfFile, kMetroidCinfFormat, SerializeCinf> {
 public:
  explicit CinfDocument(CinfFile file, std::vector<std::string> warnings = {})
      : FileDocument(std::move(file)), warnings_(std::move(warnings)) {}
  std::vector<std::string> Warnings() const override { return warnings_; }
  Value Info() const override {
    Value bones = Value::array();
    for (const CinfBone& b : file_.bones) {
      Value one = {{"id", b.id},
                   {"parent", b.parent == NoParentOf(file_.game) ? Value() : Value(b.parent)},
                   {"origin", Arr3(b.origin)},
                   {"linked", b.linked}};
      if (file_.game == Game::Echoes) {
        one["rotation"] = Value::array({b.rotation[0], b.rotation[1], b.rotation[2], b.rotation[3]});
        one["local_rotation"] =
            Value::array({b.local_rotation[0], b.local_rotation[1], b.local_rotation[2], b.local_rotation[3]});
      }
      bones.push_back(std::move(one));
    }
    Value names = Value::array();
    for (const auto& [name, id] : file_.names) names.push_back({{"name", name}, {"bone_id", id}});
    return {{"game", static_cast<uint32_t>(file_.game)},
            {"bone_count", file_.bones.size()},
            {"bones", std::move(bones)},
            {"bone_ids", file_.bone_ids},
            {"names", std::move(names)},
            {"trailing_bytes", file_.trailing.size()}};
  }
  Scene Decode(const DecodeContext& context) const override { return DecodeCinf(file_, RestRuleFrom(context.options)); }

 private:
  std::vector<std::string> warnings_;
};

int ProbeAnim(ByteView data, std::string_view extension) {
  const bool ext = extension == ".anim";
  if (data.size() < 0x24) return ext ? kProbeExtension : kProbeNone;
  const uint32_t version = be::Load32(data.data());
  if (version == 2 && be::Load32(data.data() + 0x0C) == 1 && be::Load32(data.data() + 0x2C) == 1 && be::Load32(data.data() + 0x20) != 0) return kProbeMagic;
  if (version == 2 && data[8] == 0x01 && data[9] == 0x01 && be::Load32(data.data() + 0x1A) != 0) return kProbeMagic;  // Echoes
  if (version == 0 && be::Load32(data.data() + 0x1C) <= 256) return ext ? kProbeMagic - 10 : kProbeStructure - 10;
  return ext ? kProbeExtension : kProbeNone;
}

int ProbeCinf(ByteView data, std::string_view extension) {
  const bool ext = extension == ".cinf";
  if (data.size() < 4 + 24) return ext ? kProbeExtension : kProbeNone;
  const uint32_t count = be::Load32(data.data());
  if (count == 0 || uint64_t{count} * 24 > data.size()) return ext ? kProbeExtension : kProbeNone;
  return ext ? kProbeMagic - 10 : kProbeNone;
}

std::unique_ptr<Document> ReadAnim(ByteView data, const ReadContext& context) {
  std::vector<std::string> warnings;
  AnimFile file = ParseAnim(data, GameFrom(context.options), &warnings);
  return std::make_unique<AnimDocument>(std::move(file), std::move(warnings));
}
std::unique_ptr<Document> ReadCinf(ByteView data, const ReadContext& context) {
  std::vector<std::string> warnings;
  CinfFile file = ParseCinf(data, GameFrom(context.options), &warnings);
  return std::make_unique<CinfDocument>(std::move(file), std::move(warnings));
}

std::unique_ptr<Document> EncodeAnimDocument(const Scene& scene, EncodeContext& context) {
  const Clip& clip = OneClip(scene, "an ANIM");
  const Options& o = context.options;
  EncodeSettings s;
  // Without --anim-version a clip read from an ANIM keeps its version (its metadata: a
  // template's wins over the input's); others get 2.
  const bool read_as_v0 = clip.metadata.is_object() && clip.metadata.value(kSourceFormatKey, "") == kMetroidAnimFormat.id &&
                          clip.metadata.contains(metadata_keys::kAnimVersion) && clip.metadata[metadata_keys::kAnimVersion] == 0;
  s.version = kVersionOption.Get(o, read_as_v0 ? 0 : 2);
  s.rotation_divisor = kDivisorOption.Get(o);
  s.max_error_rot = kMaxErrorRotOption.Get(o);
  s.max_error_pos = kMaxErrorPosOption.Get(o, -1);  // -1: from the clip's translation range
  s.bone_table_size = kBoneTableOption.Get(o);
  const Scene& rig = context.Rig(scene);
  // The game: the option, else the skeleton's (a CINF: its bone ids are that game's), else
  // the clip's (read from an ANIM), else Metroid Prime.
  s.game = GameFrom(o).value_or(GameOf(rig.metadata).value_or(GameOf(clip.metadata).value_or(Game::Prime)));
  s.bone_count = rig.skeleton.joints.size();
  // Bone ids: a CINF given with --skeleton names them; otherwise the ids a CINF written
  // from the same skeleton would get (joint order of the skeleton, not of the clip).
  s.bone_ids = BoneIdsOf(rig);
  if (s.bone_ids.empty() && !rig.skeleton.empty()) {
    std::vector<std::string> joints;
    for (const Joint& j : rig.skeleton.joints) joints.push_back(j.name);
    const std::vector<uint32_t> ids = AssignBoneIds(joints, {}, s.game);
    for (size_t i = 0; i < ids.size(); ++i) s.bone_ids.emplace_back(joints[i], ids[i]);
  }
  EncodeReport r;
  AnimFile file = EncodeAnim(clip, s, &r);
  context.report = {{"anim_version", s.version},
                    {"metroid_game", static_cast<int>(s.game)},
                    {"frames", r.frames},
                    {"keyed_frames", r.keyed_frames},
                    {"channels", r.channels},
                    {"translated_channels", r.translated_channels},
                    {"bytes", r.bytes},
                    {"every_frame_bytes", r.every_frame_bytes},
                    {"saving_percent", r.every_frame_bytes ? 100.0 * (1.0 - double(r.bytes) / double(r.every_frame_bytes)) : 0.0},
                    {"max_error_rot", r.max_error_rot},
                    {"max_error_pos", r.max_error_pos},
                    {"tolerance_rot", r.tolerance_rot},
                    {"tolerance_pos", r.tolerance_pos},
                    {"translation_multiplier", r.translation_multiplier},
                    {"rotation_divisor", s.rotation_divisor}};
  if (s.game == Game::Echoes) context.report["max_error_scale"] = r.max_error_scale;
  return std::make_unique<AnimDocument>(std::move(file));
}

std::unique_ptr<Document> EncodeCinfDocument(const Scene& scene, EncodeContext& context) {
  const Scene& source = context.ModelToWrite(scene);
  if (source.skeleton.empty()) throw Error::General("nothing to write: the input has no skeleton");
  const Game game = GameFrom(context.options).value_or(GameOf(source.metadata).value_or(Game::Prime));
  CinfFile f = EncodeCinf(source.skeleton, BoneIdsOf(source), game);
  context.report = {{"bones", f.bones.size()}, {"names", f.names.size()}};
  return std::make_unique<CinfDocument>(std::move(f));
}

}  // namespace
}  // namespace metroid

const FormatDescriptor kMetroidAnimFormat{
    .id = "metroid-anim", .description = "Metroid Prime and Echoes ANIM (versions 0 and 2)",
    .extensions = {".anim"}, .companions = {".cinf"}, .probe = metroid::ProbeAnim, .read = metroid::ReadAnim, .encode = metroid::EncodeAnimDocument,
    .options = {metroid::kVersionOption.spec(), metroid::kMaxErrorRotOption.spec(), metroid::kMaxErrorPosOption.spec(), metroid::kDivisorOption.spec(),
                metroid::kBoneTableOption.spec(), metroid::kGameOption.spec()},
    .up_axis = "+Z", .forward_axis = "+Y", .animation_extensions = {".anim"}};

const FormatDescriptor kMetroidCinfFormat{
    .id = "metroid-cinf", .description = "Metroid Prime and Echoes CINF skeleton",
    .extensions = {".cinf"}, .companions = {}, .probe = metroid::ProbeCinf, .read = metroid::ReadCinf, .encode = metroid::EncodeCinfDocument,
    .options = {metroid::kRestOption.spec(), metroid::kGameOption.spec()}, .up_axis = "+Z", .forward_axis = "+Y"};

}  // namespace animkit
