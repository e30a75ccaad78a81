// The skeleton a file decodes against: one value, resolved once per file.
#include <animkit/pipeline/skeleton.hpp>
#include <animkit/io/path.hpp>

#include <filesystem>
#include <optional>
#include <set>

namespace animkit {

SkeletonSource::SkeletonSource(std::string word) {
  if (word.empty() || word == kSkeletonAuto) return;
  companion_ = false;
  if (word == kSkeletonNone) {
    kind_ = Kind::None;
    return;
  }
  kind_ = Kind::File;
  path_ = std::move(word);
}

SkeletonSource SkeletonSource::None() { return SkeletonSource(std::string(kSkeletonNone)); }

SkeletonSource SkeletonSource::File(std::string path) {
  SkeletonSource s = None();
  s.kind_ = Kind::File;
  s.path_ = std::move(path);
  return s;
}

SkeletonSource SkeletonSource::Decoded(const Scene& scene, std::string path) {
  SkeletonSource s = None();
  s.kind_ = Kind::Decoded;
  s.path_ = std::move(path);
  s.scene_ = &scene;
  return s;
}

SkeletonSource SkeletonSource::DecodedCompanion(const Scene& scene, const Companion& chosen) {
  SkeletonSource s = Decoded(scene, chosen.path);
  s.companion_ = true;
  s.note_ = chosen.note;
  return s;
}

std::string_view ToString(SkeletonUse use) {
  switch (use) {
    case SkeletonUse::Companion: return "companion";
    case SkeletonUse::Given: return "given";
    case SkeletonUse::None: break;
  }
  return "none";
}

ResolvedSkeleton ResolveSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton) {
  switch (skeleton.kind()) {
    case SkeletonSource::Kind::None: return {};
    case SkeletonSource::Kind::Auto: return {FindCompanion(loaded.path, *loaded.format), nullptr, true};
    case SkeletonSource::Kind::File: return {{skeleton.path(), "given"}, nullptr, false};
    case SkeletonSource::Kind::Decoded:
      if (skeleton.is_companion()) return {{skeleton.path(), skeleton.note()}, skeleton.scene(), true};
      return {{skeleton.path(), "given"}, skeleton.scene(), false};
  }
  return {};
}

namespace {

std::string FileName(const std::string& path) { return TextOf(PathOf(path).filename()); }

// A joint known only by its number: "#N".
bool Numbered(const std::string& name) {
  return name.size() > 1 && name[0] == '#' && name.find_first_not_of("0123456789", 1) == std::string::npos;
}

// Why clip does not fit a skeleton of names ("" when it fits; nullopt when nothing tells).
std::optional<std::string> ClipMisfit(const Clip& clip, const std::set<std::string>& names) {
  const size_t joints = names.size();
  const Value& stated = clip.metadata.is_object() && clip.metadata.contains(kClipJointCountKey)
                            ? clip.metadata[kClipJointCountKey]
                            : Value();
  if (stated.is_number() && stated.get<double>() > 0) {
    const auto count = static_cast<size_t>(stated.get<double>());
    if (count == joints) return "";
    return "clip '" + clip.name + "' was made for a skeleton of " + std::to_string(count) + " bones";
  }
  if (clip.tracks.empty()) return std::nullopt;
  size_t numbered = 0, known = 0;
  for (const JointTrack& t : clip.tracks) {
    if (Numbered(t.joint)) ++numbered;
    else if (names.count(t.joint)) ++known;
  }
  if (numbered == clip.tracks.size()) {
    if (numbered <= joints) return "";
    return "clip '" + clip.name + "' keys " + std::to_string(numbered) + " joints";
  }
  const size_t named = clip.tracks.size() - numbered;
  if (2 * known >= named) return "";
  return "clip '" + clip.name + "' names " + std::to_string(named) + " joints, " + std::to_string(known) + " of them the skeleton's";
}

}  // namespace

std::string SkeletonMisfit(const Scene& decoded, const Scene& companion, const std::string& companion_name) {
  std::set<std::string> names;
  for (const Joint& j : companion.skeleton.joints) names.insert(j.name);
  size_t fit = 0, misfit = 0;
  std::string first;
  for (const Clip& clip : decoded.clips) {
    const std::optional<std::string> why = ClipMisfit(clip, names);
    if (!why) continue;
    if (why->empty()) {
      ++fit;
    } else {
      if (!misfit++) first = *why;
    }
  }
  if (misfit <= fit) return "";
  return companion_name + " (" + std::to_string(companion.skeleton.joints.size()) + " joints) does not fit " +
         FileName(decoded.source.file) + ": " + first + (misfit > 1 ? " (" + std::to_string(misfit) + " of " +
         std::to_string(misfit + fit) + " clips do not fit)" : "");
}

const Skeleton& DecodedScene::rest() const { return RestSkeleton(scene, reference_used()); }

namespace {

// Decodes the reference (when it is a file) and the file against it.
void DecodeAgainst(const LoadedFile& loaded, const ResolvedSkeleton& skeleton, const Options& options,
                   DecodedScene& out) {
  if (skeleton.decoded) {
    out.shared = skeleton.decoded;
  } else if (!out.skeleton.path.empty()) {
    out.reference = LoadReference(out.skeleton.path, options);
    out.decoded_here = true;
  }
  out.scene = DecodeDocument(loaded, DecodeContext{out.reference_used(), options});
}

// A companion: used when the file decodes against it and fits it (SkeletonMisfit); else the
// file is decoded on its own and out.warning says why. When that fails too, the error thrown
// is the one against the companion if it was read (a text ANM's bad line), else the file's own.
void DecodeWithCompanion(const LoadedFile& loaded, const ResolvedSkeleton& skeleton, const Options& options,
                         DecodedScene& out) {
  const std::string name = FileName(out.skeleton.path);
  std::string misfit;
  std::optional<Error> against_companion;
  try {
    DecodeAgainst(loaded, skeleton, options, out);
    if (const Scene* companion = out.reference_used()) misfit = SkeletonMisfit(out.scene, *companion, name);
  } catch (const Error& e) {
    if (out.skeleton.path.empty() && !skeleton.decoded) throw;  // no companion: the file's own error
    misfit = name + " does not fit " + FileName(loaded.path) + " (" + e.what() + ")";
    if (out.reference_used()) against_companion = e;
  }
  if (misfit.empty()) return;
  out.warning = misfit + ": decoded without it";
  out.skeleton = {"", misfit + ": decoded without a skeleton file"};
  out.shared = nullptr;
  out.decoded_here = false;
  out.reference = {};
  try {
    out.scene = DecodeDocument(loaded, DecodeContext{nullptr, options});
  } catch (const Error&) {
    if (against_companion) throw *against_companion;
    throw;
  }
}

// An animation decoded against a model shows that model: its meshes, materials and textures
// join a scene that has none of its own (the one rule of every format and front end).
void AdoptReferenceModel(DecodedScene& out) {
  const Scene* reference = out.reference_used();
  if (!reference || !out.scene.meshes.empty() || reference->meshes.empty()) return;
  out.scene.meshes = reference->meshes;
  out.scene.materials = reference->materials;
  out.scene.textures = reference->textures;
}

}  // namespace

DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const ResolvedSkeleton& skeleton, const Options& options) {
  DecodedScene out;
  out.skeleton = skeleton.file;
  out.skeleton_automatic = skeleton.automatic;
  if (skeleton.automatic) DecodeWithCompanion(loaded, skeleton, options, out);
  else DecodeAgainst(loaded, skeleton, options, out);
  AdoptReferenceModel(out);
  out.use = !out.reference_used() ? SkeletonUse::None : skeleton.automatic ? SkeletonUse::Companion : SkeletonUse::Given;
  out.scene.source.skeleton_use = std::string(ToString(out.use));
  out.scene.source.skeleton_file = out.skeleton.path;
  return out;
}

DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton, const Options& options) {
  return DecodeWithSkeleton(loaded, ResolveSkeleton(loaded, skeleton), options);
}

std::string SkeletonLabel(const SourceInfo& source) {
  if (source.skeleton_use == "companion") return FileName(source.skeleton_file) + " (companion)";
  if (source.skeleton_use == "given") {
    return "given: " + (source.skeleton_file.empty() ? std::string("a decoded scene") : FileName(source.skeleton_file));
  }
  return "none";
}

}  // namespace animkit
