// Offline: builds the playback runtime's data (animkit/runtime/) from the model.
#pragma once

#include <animkit/core/model.hpp>
#include <animkit/runtime/animation.hpp>

namespace animkit {

struct RuntimeBuildOptions {
  // Seconds between seek markers (random access restarts from the latest marker at or
  // before the time asked); 0 for none.
  float marker_interval = 1.0f;
  // Hermite segments become this many linear segments (the runtime interpolates linearly).
  int hermite_subdivisions = 4;
};

// One track per skeleton joint (matched to the clip's tracks by name; a joint the clip
// does not animate holds its rest pose), or one per clip track when the skeleton is
// empty (missing properties then hold identity). Linear keys are kept bit for bit;
// step keys become pairs of linear keys at the same time; Hermite segments are
// subdivided. Error when a track's key times decrease or a value is not finite, or the
// animation is beyond the runtime's limits (kMaxTracks tracks, kMaxTimepoints times).
// The runtime composes matrices: a per-axis clip is built from its closest matrix-rule
// locals (ConvertScaleInheritance), the pose glTF gets.
runtime::Animation BuildRuntimeAnimation(const Clip& clip, const Skeleton& skeleton,
                                         const RuntimeBuildOptions& options = {});

// Parents, names and rest poses. Error when a parent does not come before its child.
runtime::Skeleton BuildRuntimeSkeleton(const Skeleton& skeleton);

// A flat skeleton (every joint a root) naming a clip's tracks, for clips without one.
Skeleton FlatSkeleton(const Clip& clip);

}  // namespace animkit
