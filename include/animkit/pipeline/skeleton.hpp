// What a file decodes against: one value for every front end (none, the companion beside
// the file, a skeleton or model file, or a scene already decoded), resolved once per file.
#pragma once

#include <animkit/pipeline/load.hpp>

#include <string>
#include <string_view>

namespace animkit {

// The front ends' word for "the file's companion" (FindCompanion).
inline constexpr std::string_view kSkeletonAuto = "auto";

class SkeletonSource {
 public:
  enum class Kind {
    None,     // the file's own skeleton
    Auto,     // the companion beside the file (FindCompanion)
    File,     // a skeleton or model file, decoded here
    Decoded,  // a scene already decoded (a folder run's shared skeleton, a Python File)
  };
  SkeletonSource() = default;
  // A front end's word: "" is none, "auto" the companion, anything else a path.
  SkeletonSource(std::string word);  // NOLINT: implicit, as the CLI's --skeleton value
  SkeletonSource(const char* word) : SkeletonSource(std::string(word)) {}  // NOLINT
  static SkeletonSource None() { return {}; }
  static SkeletonSource Auto() { return SkeletonSource(std::string(kSkeletonAuto)); }
  static SkeletonSource File(std::string path);
  // scene must outlive the decodes it serves; path names it in reports ("" for a built scene).
  static SkeletonSource Decoded(const Scene& scene, std::string path = {});

  Kind kind() const { return kind_; }
  bool is_auto() const { return kind_ == Kind::Auto; }
  const std::string& path() const { return path_; }  // File, Decoded: the file; else ""
  const Scene* scene() const { return scene_; }       // Decoded: the scene; else nullptr

 private:
  Kind kind_ = Kind::None;
  std::string path_;
  const Scene* scene_ = nullptr;
};

// The skeleton or model a file decodes against when the user names none: the one rule
// of every front end (the CLI's `--skeleton auto`, batch, preview, Blender, Python).
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

// A source resolved for one file: the skeleton file (the companion found, or the file
// given) and, for a Decoded source, its scene.
struct ResolvedSkeleton {
  Companion file;
  const Scene* decoded = nullptr;
  bool automatic = false;  // chosen by the companion rule (file.note says why)
};
ResolvedSkeleton ResolveSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton);

// A file decoded against its resolved skeleton: the decoded scene given wins, else the
// skeleton file is decoded here, else none (the file's own skeleton).
struct DecodedScene {
  Scene scene;
  Companion skeleton;               // the skeleton file used, "" for none
  bool skeleton_automatic = false;  // chosen by the companion rule
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

}  // namespace animkit
