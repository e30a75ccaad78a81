// What a file decodes against: one value for every front end (none, the companion beside
// the file, a skeleton or model file, or a scene already decoded), resolved once per file.
#pragma once

#include <animkit/pipeline/load.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// The front ends' words: "auto" the file's companion (FindCompanion, the default), "none"
// no skeleton file (the file's own skeleton).
inline constexpr std::string_view kSkeletonAuto = "auto";
inline constexpr std::string_view kSkeletonNone = "none";

struct Companion;

class SkeletonSource {
 public:
  enum class Kind {
    None,     // the file's own skeleton
    Auto,     // the companion beside the file (FindCompanion), used when it fits (SkeletonMisfit)
    File,     // a skeleton or model file, decoded here
    Decoded,  // a scene already decoded (a folder run's shared skeleton, a Python File)
  };
  // The default of every front end and folder run: the companion (Auto).
  SkeletonSource() = default;
  // A front end's word: "" (not given) and "auto" are the companion, "none" no skeleton
  // file, anything else a path (a file named "auto" or "none" is given as ./auto).
  SkeletonSource(std::string word);  // NOLINT: implicit, as the CLI's --skeleton value
  SkeletonSource(const char* word) : SkeletonSource(std::string(word)) {}  // NOLINT
  static SkeletonSource None();
  static SkeletonSource Auto() { return {}; }
  static SkeletonSource File(std::string path);
  // scene must outlive the decodes it serves; path names it in reports ("" for a built scene).
  static SkeletonSource Decoded(const Scene& scene, std::string path = {});
  // A companion already decoded (a folder run's): used as Decoded, checked for fit as Auto.
  static SkeletonSource DecodedCompanion(const Scene& scene, const Companion& chosen);

  Kind kind() const { return kind_; }
  bool is_auto() const { return kind_ == Kind::Auto; }
  bool is_companion() const { return companion_; }  // Auto, or DecodedCompanion
  const std::string& path() const { return path_; }  // File, Decoded: the file; else ""
  const std::string& note() const { return note_; }  // DecodedCompanion: why it was chosen
  const Scene* scene() const { return scene_; }       // Decoded: the scene; else nullptr

 private:
  Kind kind_ = Kind::Auto;
  bool companion_ = true;
  std::string path_;
  std::string note_;
  const Scene* scene_ = nullptr;
};

// The skeleton or model a file decodes against when the user names none: the one rule
// of every front end (the default of every CLI verb, batch, preview, Blender, Python).
// Candidates are the regular files in the file's own folder whose extension is one of
// format.companions (CANM -> MDB, ANIM -> CINF, ANB/MSET/motion -> MDLX, PS1 ANM -> TMD,
// text ANM -> glTF). One whose name is the file's stem plus an extension wins, then
// the one whose name starts with the stem (walk.anm -> walk.model.glb), else the only
// candidate; none or several -> no companion. A file that is itself of a companion kind
// (an MDLX) has none. Names compare without regard to ASCII case; a candidate that is a
// link leading out of the folder is not considered.
struct Companion {
  std::string path;  // "" when none was chosen
  std::string note;  // one sentence: what was chosen and why, or why none
};
Companion FindCompanion(const std::string& path, const FormatDescriptor& format);
// The same rule over a listing instead of a folder on disk (an archive's members as a folder
// run walks them): path and files are '/'-separated paths of one listing; the candidates are
// the files in path's own folder of it. The path chosen is the listing's.
Companion FindCompanionAmong(const std::string& path, const std::vector<std::string>& files, const FormatDescriptor& format);

// How a decoded scene got its skeleton: a companion (the rule above), one given
// (--skeleton FILE, a scene), or none. ToString: "companion", "given", "none".
enum class SkeletonUse { None, Companion, Given };
std::string_view ToString(SkeletonUse use);

// A source resolved for one file: the skeleton file (the companion found, or the file
// given) and, for a Decoded source, its scene.
struct ResolvedSkeleton {
  Companion file;
  const Scene* decoded = nullptr;
  bool automatic = false;  // chosen by the companion rule (file.note says why)
};
ResolvedSkeleton ResolveSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton);

// Why a scene decoded against a companion does not fit it ("" when it fits). Each clip
// is judged by the first of these that applies, and the companion fits unless more
// clips misfit than fit:
// - a clip that states the size of the skeleton it was made for (KH2's bone_count)
//   fits a companion with exactly that many joints;
// - a clip whose joints are known only by number (#N) fits when it keys at most as many
//   joints as the companion has;
// - a clip that names its joints fits when at least half of them are the companion's.
// companion_name names the companion in the sentence.
std::string SkeletonMisfit(const Scene& decoded, const Scene& companion, const std::string& companion_name);

// A file decoded against its resolved skeleton: the decoded scene given wins, else the
// skeleton file is decoded here, else none (the file's own skeleton). A companion that
// does not fit (SkeletonMisfit) is not used: the file is decoded without it and warning
// says so, naming both files. scene.source records the skeleton used.
struct DecodedScene {
  Scene scene;
  Companion skeleton;               // the skeleton file used, "" for none (note: why)
  bool skeleton_automatic = false;  // chosen by the companion rule
  SkeletonUse use = SkeletonUse::None;
  std::string warning;              // a companion found but not used, and why ("" when none)
  Scene reference;                  // the skeleton file's scene when one was decoded here
  bool decoded_here = false;        // reference holds it
  const Scene* shared = nullptr;    // the already decoded reference given
  // What the decoder was given (nullptr: none).
  const Scene* reference_used() const { return shared ? shared : decoded_here ? &reference : nullptr; }
  // The rest pose for joints a clip does not key (DecodeContext::RestSkeleton's rule).
  const Skeleton& rest() const;
};
DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const ResolvedSkeleton& skeleton, const Options& options);
DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton, const Options& options);

// The skeleton a scene was decoded against, as every output says it: "P_EX100.mdlx
// (companion)", "given: rig.glb", "none" (file names without their folders).
std::string SkeletonLabel(const SourceInfo& source);

}  // namespace animkit
