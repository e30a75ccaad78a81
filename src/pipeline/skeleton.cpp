// The skeleton a file decodes against: one value, resolved once per file.
#include <animkit/pipeline/skeleton.hpp>

namespace animkit {

SkeletonSource::SkeletonSource(std::string word) {
  if (word.empty()) return;
  if (word == kSkeletonAuto) {
    kind_ = Kind::Auto;
    return;
  }
  kind_ = Kind::File;
  path_ = std::move(word);
}

SkeletonSource SkeletonSource::File(std::string path) {
  SkeletonSource s;
  s.kind_ = Kind::File;
  s.path_ = std::move(path);
  return s;
}

SkeletonSource SkeletonSource::Decoded(const Scene& scene, std::string path) {
  SkeletonSource s;
  s.kind_ = Kind::Decoded;
  s.path_ = std::move(path);
  s.scene_ = &scene;
  return s;
}

ResolvedSkeleton ResolveSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton) {
  switch (skeleton.kind()) {
    case SkeletonSource::Kind::None: return {};
    case SkeletonSource::Kind::Auto: return {FindCompanion(loaded.path, *loaded.format), nullptr, true};
    case SkeletonSource::Kind::File: return {{skeleton.path(), "given"}, nullptr, false};
    case SkeletonSource::Kind::Decoded: return {{skeleton.path(), "given"}, skeleton.scene(), false};
  }
  return {};
}

const Skeleton& DecodedScene::rest() const { return RestSkeleton(scene, reference_used()); }

DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const ResolvedSkeleton& skeleton, const Options& options) {
  DecodedScene out;
  out.skeleton = skeleton.file;
  out.skeleton_automatic = skeleton.automatic;
  if (skeleton.decoded) {
    out.shared = skeleton.decoded;
  } else if (!out.skeleton.path.empty()) {
    out.reference = LoadReference(out.skeleton.path, options);
    out.decoded_here = true;
  }
  out.scene = DecodeDocument(loaded, DecodeContext{out.reference_used(), options});
  return out;
}

DecodedScene DecodeWithSkeleton(const LoadedFile& loaded, const SkeletonSource& skeleton, const Options& options) {
  return DecodeWithSkeleton(loaded, ResolveSkeleton(loaded, skeleton), options);
}

}  // namespace animkit
