// The format registry, in the spirit of a demuxer/muxer table: each format
// registers its id, extensions, a probe, a reader (file -> Document) and an
// encoder (Scene -> Document). A Document keeps every field of its file so that
// Write() gives the same bytes back.
#pragma once

#include <animkit/core/binary.hpp>
#include <animkit/core/error.hpp>
#include <animkit/core/limits.hpp>
#include <animkit/core/model.hpp>
#include <animkit/core/stored_curves.hpp>
#include <animkit/core/value.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// What decoded keys are for. Exact (the default: sample, Python, the preview): every frame is
// the file's own pose. Interchange (the glTF export and Blender's import): a format whose
// curves an interchange file cannot hold exactly (KH2's Euler rotations) may give fewer keys,
// within the bound docs/fidelity.md states for it.
enum class KeyUse { Exact, Interchange };

// Format-specific settings ("--euler zyx" arrives as {"euler", "zyx"}): a plain store. Names
// and values are checked where a front end takes them in (SetOption, formats/registry.hpp)
// and read through each format's typed declarations (src/formats/common/options.hpp).
class Options {
 public:
  void Set(std::string key, std::string value) { values_[std::move(key)] = std::move(value); }
  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  std::string Get(const std::string& key, std::string fallback = {}) const {
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }
  const std::map<std::string, std::string>& values() const { return values_; }
  // The limits every reader, decoder, sampler and encoder checks (limits.hpp);
  // kept apart from values(): raising a limit changes no output.
  const Limits& limits() const { return limits_; }
  void SetLimits(const Limits& limits) { limits_ = limits; }
  // What the decoded keys are for (KeyUse); kept apart from values(): no flag sets it, the
  // front end does.
  KeyUse key_use() const { return key_use_; }
  void SetKeyUse(KeyUse use) { key_use_ = use; }
  // Which of a document's scenes (Document::Scenes) to decode: "" for the one its format's
  // options name, else its first. Kept apart from values(): a folder run sets it per scene.
  const std::string& scene() const { return scene_; }
  void SetScene(std::string name) { scene_ = std::move(name); }

 private:
  std::map<std::string, std::string> values_;
  Limits limits_;
  KeyUse key_use_ = KeyUse::Exact;
  std::string scene_;
};

// What a reader gets besides the bytes.
struct ReadContext {
  Options options;
  // The file the bytes came from ("" for bytes from memory), for formats whose files refer
  // to others beside them (a .gltf's external buffers) or name themselves (KH2's extras).
  std::string path;
  // The files this one names (an MDB's textures), by name, when it was read from inside an
  // archive: the archive's other members. Empty: they are looked for in path's folder.
  std::function<std::optional<Bytes>(std::string_view name)> neighbour = {};
  // What keeps the bytes alive after the read when the caller shares them (LoadFile's mapped
  // file): a reader of large archives may keep it with a view instead of a copy. Empty: the
  // bytes live only for the call.
  std::shared_ptr<const void> bytes_owner = nullptr;
};

struct DecodeContext {
  const Scene* reference = nullptr;  // what --skeleton gave: skeleton and possibly a timeline
  Options options;
  // The skeleton a decoded scene is posed with: RestSkeleton(own, reference).
  const Skeleton& Rest(const Scene& own) const { return RestSkeleton(own, reference); }
};

class Document;

// What `convert --template FILE` gives an encoder: the file the output replaces (as the
// game or an earlier conversion wrote it). An encoder takes from it what the input
// cannot carry; formats that do not use templates ignore it.
struct EncodeTemplate {
  std::string path;
  Bytes bytes;
  const Document* document = nullptr;  // as read by its own format
};

// A file an encoder makes besides its document (the text ANM's timeline): the
// pipeline writes it with the output, through the same writer.
struct ExtraOutput {
  std::string path;
  Bytes bytes;
};

struct EncodeContext {
  const Scene* reference = nullptr;
  Options options;
  // The rig the scene being encoded is posed with (RigOf), and its skeleton.
  const Scene& Rig(const Scene& scene) const { return RigOf(scene, reference); }
  const Skeleton& Rest(const Scene& scene) const { return RestSkeleton(scene, reference); }
  // What a skeleton or model file (MDB, CINF) writes: the scene's own skeleton is its
  // content, not a rest pose to pose clips with, so it wins; else the reference's.
  const Scene& ModelToWrite(const Scene& scene) const {
    return !scene.skeleton.empty() || !reference ? scene : *reference;
  }
  std::string output_path;             // the file being written, when known
  Value report = Value::object();  // encoder statistics for --verbose
  const EncodeTemplate* templ = nullptr;  // --template, nullptr when none
  // The template as the input's format holds it: decoded, written in the input's format and
  // read back the way the input was (convert's TemplateAsInput). An input clip that equals
  // its clip here is unedited. nullptr when unknown.
  const Scene* template_as_input = nullptr;
  // --clip with a template: which of the template's clips (slots) the input replaces; the
  // input is then not filtered by name.
  std::string template_clip;
  // The document the scene was decoded from, when it is of the output's format (convert
  // old.cas new.cas --edf-version 6): a container format re-writes it with new options
  // instead of rebuilding it from the scene. nullptr when unknown or of another format.
  const Document* input = nullptr;
  std::vector<std::string> warnings;  // shown on stderr by the CLI
  std::vector<ExtraOutput> extra_outputs;  // written by the caller, never by the encoder
};

struct FormatDescriptor;

// One member of an archive (an EDF RAB): what `animkit archive list` shows.
struct ArchiveMember {
  std::string name;           // as stored, UTF-8
  std::string folder;         // the folder it is filed under ("" when the format has none)
  uint64_t stored_size = 0;   // bytes in the archive
  uint64_t size = 0;          // bytes once unpacked
  bool compressed = false;
  std::vector<std::string> names;  // other names it is found by (a Metroid PAK's named table), in stored order
};

class Document {
 public:
  virtual ~Document() = default;
  virtual const FormatDescriptor& format() const = 0;
  // The file's bytes; for a document that was read, identical to the input.
  virtual Bytes Write() const = 0;
  // Every header field and table worth showing (`animkit info --json`).
  virtual Value Info() const = 0;
  // What `animkit info` shows by default: header fields and, per table, its count and
  // offset instead of its records. Null (the default): info cuts Info()'s tables itself.
  virtual Value InfoSummary() const { return Value(); }
  // The common model: skeleton and/or clips.
  virtual Scene Decode(const DecodeContext& context) const = 0;
  // The scenes the file holds, by name, when it holds several (a Metroid character set's
  // characters, a PAK's): Decode decodes the one Options::scene() names. A folder run writes
  // one output per scene. Empty (the default): the file is one scene.
  virtual std::vector<std::string> Scenes() const { return {}; }
  // Of an archive's members (Members), the indices of those its scenes are read from (a
  // character's skeleton, animations, events): a folder run leaves them to the scenes.
  virtual std::vector<size_t> SceneMembers() const { return {}; }
  // The file's own version in decimal (SourceInfo::version), "" when the format has none.
  virtual std::string Version() const { return {}; }
  // What the reader accepted that the format's rules forbid (read as the game reads it),
  // one line each with its offset; `info` lists them too.
  virtual std::vector<std::string> Warnings() const { return {}; }
  // The parts no reading makes sense of, one line each ("entry 12 (A101): why"): kept as
  // bytes and written back, but no clip comes from them; the rest of the file reads.
  virtual std::vector<std::string> Damaged() const { return {}; }
  // Archives: the members in stored order (empty for a file that is no archive), a member's
  // unpacked bytes, and the file's bytes with one member replaced (packed as it was, the
  // member order kept). MemberBytes and WithMember throw for an index Members() lacks.
  virtual std::vector<ArchiveMember> Members() const { return {}; }
  virtual Bytes MemberBytes(size_t index) const { throw NoMember(index); }
  virtual Bytes WithMember(size_t index, ByteView) const { throw NoMember(index); }
  // Stored curves (core/stored_curves.hpp), for a format whose files keep curves an editor
  // can key as the game keys them: whether the format stores any (false: the default), each
  // clip's curves in the file's order (decoded: the scene this document decoded to, whose
  // skeleton and metadata give the joints and the rest pose), and the file's bytes with the
  // edited channels' curves replaced, every other byte kept (an edit equal to the file gives
  // its bytes; errors name the clip and joint). StoredCurves and WithCurves throw when the
  // format stores none.
  virtual bool StoresCurves() const { return false; }
  virtual std::vector<ClipCurves> StoredCurves(const Scene& /*decoded*/) const { throw NoCurves(); }
  virtual Bytes WithCurves(const std::vector<ClipCurves>& /*edits*/, CurvesReplaceReport* /*report*/,
                           const Limits& /*limits*/) const {
    throw NoCurves();
  }

 private:
  static Error NoMember(size_t index) {
    return Error::General("member " + std::to_string(index) + ": this file is no archive");
  }
  Error NoCurves() const;
};

enum class OptionType {
  Choice,   // one of OptionSpec::choices
  Number,   // a decimal number within [min, max]
  Integer,  // a whole number within [min, max]
  Word,     // a name: not empty, no spaces or control characters
  Flag,     // no value on the command line; "1" (set) or "0"
};

// Whether an option changes reading (decode), writing (encode) or both: front ends show
// each in the dialogs where it acts.
enum class OptionUse { Read, Write, ReadWrite };

// A format option as its format declares it (through a typed declaration,
// src/formats/common/options.hpp): the CLI's flags and --help, docs/cli.md's option table
// (FormatOptionsMarkdown) and any other front end are made from these.
struct OptionSpec {
  std::string_view name{};  // without dashes
  OptionType type = OptionType::Word;
  std::string_view help{};  // one line; values and default are added from the fields below
  std::vector<std::string_view> choices{};  // Choice: the allowed values
  // As written on the command line; empty when it depends on the input (help says how).
  std::string_view default_value{};
  double min = -1e300, max = 1e300;  // Number / Integer: the allowed range
  bool min_exclusive = false;        // min itself is not allowed
  OptionUse use = OptionUse::Read;
  bool takes_value() const { return type != OptionType::Flag; }
};

// Probe scores: how sure a format is that bytes are its own.
inline constexpr int kProbeNone = 0;
inline constexpr int kProbeExtension = 25;  // only the extension matches
// The extension and the format's magic or marker match but the structure does not fit:
// a damaged file of that format, read so that its own error (with the offset) is reported.
inline constexpr int kProbeDamaged = 40;
inline constexpr int kProbeStructure = 50;  // plausible structure, no magic
inline constexpr int kProbeMagic = 100;     // magic bytes and a consistent header

// A kind of file a format's reader takes from beside its own files (FormatDescriptor::side_files).
struct SideFile {
  std::string_view extension;  // lower case, with the dot
  std::string_view what;       // "textures of the EDF models (.mdb) beside them"
};

struct FormatDescriptor {
  std::string_view id;           // the CLI contract's format id
  std::string_view description;  // a human name
  std::vector<std::string_view> extensions;  // lower case, with the dot
  // Extensions of the skeleton or model files this format's animations decode against
  // (FindCompanion); empty when it needs none.
  std::vector<std::string_view> companions;
  int (*probe)(ByteView data, std::string_view extension) = nullptr;
  std::unique_ptr<Document> (*read)(ByteView data, const ReadContext& context) = nullptr;
  // nullptr when the format cannot be written from the common model.
  std::unique_ptr<Document> (*encode)(const Scene& scene, EncodeContext& context) = nullptr;
  std::vector<OptionSpec> options;
  // The source's up axis ("+Y", "-Y" or "+Z"): what a viewer or editor turns to its own up.
  std::string_view up_axis = "+Y";
  // The way its characters face in model space ("+Z" as glTF's; Metroid's "+Y"): what a
  // retarget aligns, with up_axis (docs/conventions.md, "Axes").
  std::string_view forward_axis = "+Z";
  // Whether one file holds several clips (a writer then takes every clip given).
  bool multi_clip = false;
  // Extensions of the files that hold an animation this format's encoder writes (export
  // targets); glTF, the interchange format itself, lists none.
  std::vector<std::string_view> animation_extensions{};
  // Files no format reads alone that this format's reader takes from beside its own (an
  // MDB's textures): what a batch over a folder says they are.
  std::vector<SideFile> side_files{};
  // Whether this format's files are archives of files each readable alone, as a folder holds
  // them (a disc's PAK), rather than one thing made of parts (a model and its textures): a
  // folder run walks their members (Document::Members) as the files of a folder named after
  // the archive, and `convert ARCHIVE OUTDIR/` converts them as it converts a folder.
  bool archive_of_files = false;
  // Whether such an archive may also hold scenes made of its members (a Metroid PAK's
  // characters: Document::Scenes): it is then read as a scene too (convert, the Blender import).
  bool scenes_of_members = false;
  // What this format's files are parts of, when they are parts of another format's files (a
  // model's textures or skin: "textures of the Metroid models (.cmdl) beside them"); empty
  // for a file that is a whole. A folder run leaves the parts out, saying so, and the Blender
  // import does not list them; each still reads alone (info, validate, convert).
  std::string_view part_of{};
  // Whether each file is one picture (Scene::textures alone): a folder run to a picture
  // format (--to png) converts the parts that are pictures.
  bool picture = false;
};

inline Error Document::NoCurves() const { return Error::General(std::string(format().id) + " files store no curves"); }

}  // namespace animkit
